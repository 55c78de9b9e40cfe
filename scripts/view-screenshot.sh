#!/usr/bin/env bash
# Regenerates docs/view.png, the README's picture of `active-status view`:
# the example vault's page, rendered in headless Chromium by the same
# script the browser test runs (tests/browser/check-view.mjs).
# Needs Chromium and `npm ci --prefix tests/browser`.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r fixtures/example-vault "$work/example-vault"
cargo run --quiet --locked -- --root "$work/example-vault" --today 2026-05-08 view --quiet
node tests/browser/check-view.mjs "$work/example-vault/.agents/view.html" --screenshot docs/view.png >/dev/null
echo "wrote docs/view.png"
