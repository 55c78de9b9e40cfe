#!/usr/bin/env bash
# CPU time and peak memory of the everyday commands on the L and W vaults.
#
#   scripts/bench-commands.sh [SIZE...]        (default: L W)
#
# For each vault (generated into target/bench-vaults/ by examples/gen_vault.rs,
# seed 42, reused when its stamp matches) and each command, three cold runs
# (with --no-cache: nothing is read from the cache) and three warm runs (on a
# copy whose cache a `regen` filled after its files settled), each under GNU
# time. Prints one Markdown row per command and state: the least CPU time
# (user + system) of the three, and the largest peak RSS.
#
# Environment: BENCH_SEED (42), BENCH_REPEAT (3), BENCH_QUERY ("lock timeout").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT_DIR=$(pwd)
SEED=${BENCH_SEED:-42}
REPEAT=${BENCH_REPEAT:-3}
QUERY=${BENCH_QUERY:-lock timeout}
BIN="$ROOT_DIR/target/release/active-status"
GEN="$ROOT_DIR/target/release/examples/gen_vault"
VAULTS="$ROOT_DIR/target/bench-vaults"
SIZES=("$@")
((${#SIZES[@]})) || SIZES=(L W)

[[ -x /usr/bin/time ]] || { echo "bench-commands: needs GNU time (/usr/bin/time)" >&2; exit 1; }
cargo build --release --bin active-status --example gen_vault >&2

# least CPU ms and largest peak KiB of REPEAT runs of "$@"
measure() {
    local best="" peak=0 t
    for _ in $(seq "$REPEAT"); do
        t=$(mktemp)
        /usr/bin/time -v -o "$t" "$@" >/dev/null 2>&1 || true
        local cpu kib
        cpu=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.0f", (u+s)*1000}' "$t")
        kib=$(awk -F': ' '/Maximum resident/{print $2}' "$t")
        rm -f "$t"
        [[ -z $best || $cpu -lt $best ]] && best=$cpu
        ((kib > peak)) && peak=$kib
    done
    printf '%s ms | %s MiB' "$best" "$(awk -v k="$peak" 'BEGIN{printf "%.1f", k/1024}')"
}

GEN_HASH=$(sha256sum examples/gen_vault.rs | cut -c1-16)
echo "| vault | command | cold CPU | cold peak | warm CPU | warm peak |"
echo "|---|---|---|---|---|---|"
for size in "${SIZES[@]}"; do
    dir="$VAULTS/$size" stamp="$VAULTS/.$size.stamp"
    want="size=$size seed=$SEED gen=$GEN_HASH"
    if ! [[ -d $dir && -f $stamp && $(cat "$stamp") == "$want" ]]; then
        rm -f "$stamp"
        "$GEN" --size "$size" --seed "$SEED" --out "$dir" --force >&2
        echo "$want" >"$stamp"
    fi
    warm="$VAULTS/$size-warm"
    rm -rf "$warm" && cp -a "$dir" "$warm"
    sleep 3 # files changed within 2 s of the run that caches them are read again
    "$BIN" --root "$warm" -q regen >/dev/null
    hook_in() { printf '{"cwd":"%s","source":"startup"}' "$1"; }
    for cmd in "regen --dry-run" "audit" "hook session-start" "view" "search"; do
        row_cold=() row_warm=()
        case $cmd in
        "hook session-start")
            row_cold=(bash -c "$(printf '%q' "$BIN") --no-cache hook session-start <<<'$(hook_in "$dir")'")
            row_warm=(bash -c "$(printf '%q' "$BIN") hook session-start <<<'$(hook_in "$warm")'")
            ;;
        search)
            row_cold=("$BIN" --root "$dir" --no-cache -q search "$QUERY")
            row_warm=("$BIN" --root "$warm" -q search "$QUERY")
            ;;
        *)
            read -ra words <<<"$cmd"
            row_cold=("$BIN" --root "$dir" --no-cache -q "${words[@]}")
            row_warm=("$BIN" --root "$warm" -q "${words[@]}")
            ;;
        esac
        echo "| $size | \`$cmd\` | $(measure "${row_cold[@]}") | $(measure "${row_warm[@]}") |"
    done
done
