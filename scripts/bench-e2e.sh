#!/usr/bin/env bash
# End-to-end benchmark of active-status on generated vaults.
#
#   scripts/bench-e2e.sh
#
# 1. installs ripgrep, hyperfine and GNU time with apt-get when they are missing;
# 2. builds the release binary and the examples;
# 3. generates the L, Q and M vaults into target/bench-vaults/ (reused when
#    their stamp matches the seed and the generator source);
# 4. times `regen --dry-run` on L against `rg -c` (a floor: one regex pass over
#    the same bytes), with hyperfine and with an interleaved loop, and the
#    merge phase on L (from `-vv`);
# 5. measures peak memory on L, the L/Q scaling ratio, and the session-start hook on M;
#    then, on copies of L and M with the cache filled by `regen`, the warm `regen` on L
#    after one journal file changed (against rg on L) and the warm hook on M;
# 6. prints a summary.
#
# Environment: BENCH_SEED (42), BENCH_N (11 interleaved pairs), BENCH_RUNS (10),
# BENCH_WARMUP (2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT_DIR=$(pwd)
SEED=${BENCH_SEED:-42}
N=${BENCH_N:-11}
RUNS=${BENCH_RUNS:-10}
WARMUP=${BENCH_WARMUP:-2}
BIN="$ROOT_DIR/target/release/active-status"
GEN="$ROOT_DIR/target/release/examples/gen_vault"
VAULTS="$ROOT_DIR/target/bench-vaults"
RESULTS="$VAULTS/results"

log() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'bench-e2e: %s\n' "$*" >&2; exit 1; }

# --- 1. tools ---------------------------------------------------------------
missing=()
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    SUDO=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || die "need root or sudo to install: ${missing[*]}"
        SUDO=(sudo)
    fi
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install ${missing[*]} by hand"
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- 2. build ---------------------------------------------------------------
log "cargo build --release --bins --examples"
cargo build --release --bins --examples # --examples alone skips the binary
[[ -x $BIN ]] || die "$BIN was not built"
[[ -x $GEN ]] || die "$GEN was not built"

# --- 3. vaults --------------------------------------------------------------
mkdir -p "$VAULTS" "$RESULTS"
GEN_HASH=$(sha256sum examples/gen_vault.rs | cut -c1-16)
for size in L Q M; do
    dir="$VAULTS/$size"
    stamp="$VAULTS/.$size.stamp" # outside the vault, so it is never scanned
    want="size=$size seed=$SEED gen=$GEN_HASH"
    if [[ -d $dir && -f $stamp && $(cat "$stamp") == "$want" ]]; then
        log "vault $size: up to date ($want)"
        continue
    fi
    log "generating vault $size"
    rm -f "$stamp"
    "$GEN" --size "$size" --seed "$SEED" --out "$dir" --force | tee "$RESULTS/gen-$size.txt"
    echo "$want" >"$stamp"
done
L="$VAULTS/L"
Q="$VAULTS/Q"
M="$VAULTS/M"

# The rg baseline counts list-item lines in the same files: --hidden so that
# .agents/inbox is read too, --no-ignore so that no ignore file (target/ is in
# .gitignore) can ever shrink the set of files.
RG_ARGS=(-c --no-ignore --hidden '^\s*[-*+] ')
RG_CMD="rg -c --no-ignore --hidden '^\s*[-*+] ' '$L'" # the same, for hyperfine's shell
# Global flags go before the subcommand (docs/FORMAT.md §7 usage line).
regen() { "$BIN" --root "$1" -q regen --dry-run; }

log "sanity check: regen on L"
regen "$L" >/dev/null || die "active-status regen --dry-run failed on $L"

# mean seconds of the N-th command (1-based) in a hyperfine CSV export
csv_mean() { awk -F, -v n="$2" 'NR == n + 1 { print $2 }' "$1"; }
# mean CPU seconds (user + system) of the N-th command in a hyperfine CSV export
csv_cpu() { awk -F, -v n="$2" 'NR == n + 1 { print $5 + $6 }' "$1"; }
# median of numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = int((NR + 1) / 2); print (NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2) }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# --- 4a. hyperfine: active-status vs rg on L --------------------------------
log "hyperfine on L: regen --dry-run vs rg -c"
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-csv "$RESULTS/L-vs-rg.csv" \
    -n "active-status regen (L)" "$BIN --root '$L' -q regen --dry-run" \
    -n "rg -c (L)" "$RG_CMD"
HF_AS_L=$(csv_mean "$RESULTS/L-vs-rg.csv" 1)
HF_RG_L=$(csv_mean "$RESULTS/L-vs-rg.csv" 2)

# --- 4b. interleaved loop: alternate the two so drift hits both equally ------
log "interleaved: $N alternating pairs on L"
now() { date +%s%N; }
as_times=()
rg_times=()
ratios=()
for ((i = 1; i <= N; i++)); do
    t0=$(now)
    regen "$L" >/dev/null
    t1=$(now)
    rg "${RG_ARGS[@]}" "$L" >/dev/null
    t2=$(now)
    a=$((t1 - t0))
    r=$((t2 - t1))
    as_times+=("$a")
    rg_times+=("$r")
    ratios+=("$(awk -v a="$a" -v b="$r" 'BEGIN { printf "%.4f", a / b }')")
    printf '  pair %2d: active-status %8.1f ms   rg %8.1f ms\n' "$i" \
        "$(awk -v x="$a" 'BEGIN { print x / 1e6 }')" "$(awk -v x="$r" 'BEGIN { print x / 1e6 }')" >&2
done
IL_AS_MS=$(printf '%s\n' "${as_times[@]}" | median | awk '{ printf "%.1f", $1 / 1e6 }')
IL_RG_MS=$(printf '%s\n' "${rg_times[@]}" | median | awk '{ printf "%.1f", $1 / 1e6 }')
IL_RATIO=$(printf '%s\n' "${ratios[@]}" | median | awk '{ printf "%.2f", $1 }')

# --- 4c. the merge phase on L ------------------------------------------------
# `-vv` prints the wall time of each phase (`timings: scan …, merge …, render …`);
# the merge is resolution, ranking and clustering, after the scan.
log "merge phase on L: $N runs of regen -vv"
merge_ms=()
for ((i = 1; i <= N; i++)); do
    line=$("$BIN" --root "$L" -vv regen --dry-run 2>&1 >/dev/null | grep '^timings:' || true)
    m=$(sed -nE 's/.*merge ([0-9.]+) ms.*/\1/p' <<<"$line")
    [[ -n $m ]] || die "no merge timing in the -vv output of regen on $L"
    merge_ms+=("$m")
done
MERGE_MS=$(printf '%s\n' "${merge_ms[@]}" | median)

# --- 5a. peak memory on L -----------------------------------------------------
log "peak memory (/usr/bin/time -v) on L"
maxrss() { # prints the peak RSS in KiB of the command given as arguments
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }'
}
RSS_AS_L=$(maxrss "$BIN" --root "$L" -q regen --dry-run)
RSS_RG_L=$(maxrss rg "${RG_ARGS[@]}" "$L")

# --- 5b. scaling: Q is a quarter of L -----------------------------------------
log "hyperfine on Q: regen --dry-run"
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-csv "$RESULTS/Q.csv" \
    -n "active-status regen (Q)" "$BIN --root '$Q' -q regen --dry-run"
HF_AS_Q=$(csv_mean "$RESULTS/Q.csv" 1)

# --- 5c. session-start hook on M ----------------------------------------------
log "hyperfine on M: hook session-start"
HOOK_CMD="echo '{\"cwd\":\"$M\",\"source\":\"startup\"}' | $BIN hook session-start"
HOOK_OUT=$(bash -c "$HOOK_CMD")
[[ -n $HOOK_OUT ]] || printf 'warning: hook session-start printed nothing on M\n' >&2
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-csv "$RESULTS/hook-M.csv" \
    -n "hook session-start (M)" "$HOOK_CMD"
HF_HOOK_M=$(csv_mean "$RESULTS/hook-M.csv" 1)

# --- 5d. warm runs: the cache ------------------------------------------------
# Copies of L and M, so the cold measures above always see vaults without a
# cache. `regen` fills the cache (it holds the lock); before each timed run
# one journal file (the latest day) gets one more line, as after a /wrap.
# The rg baseline reads L itself: the copy's .agents/cache/ would add
# megabytes of binary files to what rg reads.
log "warm: regen on a copy of L after one journal file changed, vs rg -c on L"
LW="$VAULTS/L-warm"
MW="$VAULTS/M-warm"
for pair in "$L:$LW" "$M:$MW"; do
    rm -rf "${pair#*:}"
    cp -a "${pair%%:*}" "${pair#*:}"
    rm -rf "${pair#*:}/.agents/cache"
done
# The copies' files changed just now: a cache filled at once would trust no
# file's stamp (the 2-second racy window, docs/FORMAT.md) and every warm run
# would read them all again. The steady state is measured: a vault whose
# files settled before the run that filled its cache.
sleep 3
for dir in "$LW" "$MW"; do
    "$BIN" --root "$dir" -q regen >/dev/null
done
JW=$(find "$LW/journal" -name '*.md' | sort | tail -1)
EDIT_CMD="printf -- '- [ ] warm bench edit %s\\n' \"\$(date +%s%N)\" >> '$JW'"
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-csv "$RESULTS/L-warm.csv" \
    --prepare "$EDIT_CMD" \
    -n "active-status regen warm (L)" "$BIN --root '$LW' -q regen" \
    -n "rg -c (L)" "$RG_CMD"
HF_WARM_L=$(csv_mean "$RESULTS/L-warm.csv" 1)
HF_WARM_RG=$(csv_mean "$RESULTS/L-warm.csv" 2)
warm_ratios=()
for ((i = 1; i <= N; i++)); do
    printf -- '- [ ] warm bench edit %d\n' "$i" >>"$JW"
    t0=$(now)
    "$BIN" --root "$LW" -q regen >/dev/null
    t1=$(now)
    rg "${RG_ARGS[@]}" "$L" >/dev/null
    t2=$(now)
    warm_ratios+=("$(awk -v a="$((t1 - t0))" -v b="$((t2 - t1))" 'BEGIN { printf "%.4f", a / b }')")
done
IL_WARM_RATIO=$(printf '%s\n' "${warm_ratios[@]}" | median | awk '{ printf "%.2f", $1 }')
log "hyperfine on a copy of M: hook session-start, warm"
HOOK_WARM_CMD="echo '{\"cwd\":\"$MW\",\"source\":\"startup\"}' | $BIN hook session-start"
hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-csv "$RESULTS/hook-M-warm.csv" \
    -n "hook session-start warm (M)" "$HOOK_WARM_CMD"
HF_HOOK_M_WARM=$(csv_mean "$RESULTS/hook-M-warm.csv" 1)

# --- 6. summary ---------------------------------------------------------------
size_of() { du -sb "$1" | cut -f1 | awk '{ printf "%.1f MB", $1 / 1e6 }'; }
files_of() { find "$1" -type f -name '*.md' | wc -l; }
SUMMARY="$RESULTS/summary.txt"
{
    echo "================ active-status end-to-end benchmark ================"
    echo "commit         $(git rev-parse --short HEAD 2>/dev/null || echo n/a)   seed $SEED   $(uname -srm)"
    echo "vault L        $(files_of "$L") files, $(size_of "$L")"
    echo "vault Q        $(files_of "$Q") files, $(size_of "$Q")"
    echo "vault M        $(files_of "$M") files, $(size_of "$M")"
    echo "--- regen --dry-run on L vs rg -c (hyperfine, warmup $WARMUP, runs $RUNS, mean)"
    echo "active-status  $(ms "$HF_AS_L") ms   (CPU $(ms "$(csv_cpu "$RESULTS/L-vs-rg.csv" 1)") ms, user + system)"
    echo "rg -c          $(ms "$HF_RG_L") ms   (CPU $(ms "$(csv_cpu "$RESULTS/L-vs-rg.csv" 2)") ms)"
    echo "ratio          $(ratio "$HF_AS_L" "$HF_RG_L") x"
    echo "--- interleaved, $N pairs (median)"
    echo "active-status  $IL_AS_MS ms"
    echo "rg -c          $IL_RG_MS ms"
    echo "ratio          $IL_RATIO x   (median of per-pair ratios)"
    echo "--- merge phase on L (-vv timings: resolution, ranking, clustering; median of $N runs)"
    echo "merge          $MERGE_MS ms   (clustering 100k open items: divan, \`just bench-micro\`)"
    echo "--- peak memory on L (Maximum resident set size)"
    echo "active-status  $((RSS_AS_L / 1024)) MiB ($RSS_AS_L KiB)"
    echo "rg -c          $((RSS_RG_L / 1024)) MiB ($RSS_RG_L KiB)"
    echo "--- scaling (Q is a quarter of L)"
    echo "regen on Q     $(ms "$HF_AS_Q") ms   (CPU $(ms "$(csv_cpu "$RESULTS/Q.csv" 1)") ms)"
    echo "regen on L     $(ms "$HF_AS_L") ms"
    echo "ratio L/Q      $(ratio "$HF_AS_L" "$HF_AS_Q") x   (about 4 means linear)"
    echo "--- hook session-start on M (hyperfine mean, includes the shell and echo)"
    echo "session-start  $(ms "$HF_HOOK_M") ms   (CPU $(ms "$(csv_cpu "$RESULTS/hook-M.csv" 1)") ms; output ${#HOOK_OUT} bytes)"
    echo "--- warm: the cache filled by regen, one journal file changed before each run"
    echo "regen on L     $(ms "$HF_WARM_L") ms   (hyperfine mean, CPU $(ms "$(csv_cpu "$RESULTS/L-warm.csv" 1)") ms; rg -c $(ms "$HF_WARM_RG") ms)"
    echo "ratio          $(ratio "$HF_WARM_L" "$HF_WARM_RG") x   (interleaved, $N pairs, median of ratios: $IL_WARM_RATIO x)"
    echo "session-start  $(ms "$HF_HOOK_M_WARM") ms on M, warm (CPU $(ms "$(csv_cpu "$RESULTS/hook-M-warm.csv" 1)") ms; cold above)"
    echo "===================================================================="
} | tee "$SUMMARY"
echo "(results and CSV exports in ${RESULTS#"$ROOT_DIR"/})" >&2
