# active-status development recipes. `just` lists them.

default:
    @just --list

# Run the full test suite (what CI runs, after fmt and clippy).
test:
    cargo test

# Everything CI checks.
ci:
    bash .ci/run

# Regenerate the bundled example vault's dashboard as a dry run.
demo:
    cargo run --release -- --root fixtures/example-vault regen --dry-run

# Format and lint.
lint:
    cargo fmt
    cargo clippy --all-targets -- -D warnings

# Generate a synthetic vault: just gen L /tmp/vault-L
gen size out seed="42":
    cargo run --release --example gen_vault -- --size {{size}} --seed {{seed}} --out {{out}} --force

# Micro-benchmarks (parsing, clustering, rendering).
bench-micro:
    cargo bench

# End-to-end benchmark against ripgrep on generated vaults (installs rg, hyperfine).
bench:
    bash scripts/bench-e2e.sh

# Precision and recall of the matching rule on the labelled pair corpus (fixtures/pairs.tsv).
pairs:
    cargo test --test it pair_corpus -- --nocapture
