#!/usr/bin/env bash
# Every test of RestartScope, in order. Called by `make test` and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
# Totals of a `cargo test` log.
summary() { grep -E '^test result:' "$1" | awk '{p+=$4; f+=$6} END {printf "cargo test summary: %d passed, %d failed\n", p, f}'; }

step "docs: every relative link, anchor and image in README.md, CHANGES.md and docs/ resolves; no own issue numbers"
node scripts/check-docs.mjs

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (native, all targets)"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo clippy (web app, wasm32)"
cargo clippy -p restartscope --target wasm32-unknown-unknown --all-targets -- -D warnings

step "cargo clippy (fleet view, wasm32)"
cargo clippy -p restartscope-fleet-web --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p restartscope-import-web --target wasm32-unknown-unknown -- -D warnings

mkdir -p artifacts
step "native tests"
cargo test --workspace 2>&1 | tee artifacts/cargo-test.log
summary artifacts/cargo-test.log

# The workspace build turns on the page's `small-code` feature for the model; the CLI and the
# fleet's worker build it without, with the large fleet's cache layout (Cluster::new,
# Queue::pack) and its first probes run node by node (cluster/eager.rs). Their results must be
# the same: the fleet digests, again, on that build.
step "native tests of the model as the CLI builds it (no small-code)"
cargo test -p restartscope-sim 2>&1 | tee artifacts/cargo-test-sim.log
summary artifacts/cargo-test-sim.log

step "wasm-bindgen-test in headless chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test -p restartscope --target wasm32-unknown-unknown --test web

scripts/build.sh

step "size budget"
scripts/size-budget.sh

step "Playwright against dist/ on loopback"
# tests/e2e/mermaid.spec.mjs renders the CLI's --format mermaid and fleet.spec compares the fleet
# view with the CLI's totals: both run the binary the native tests built above (no second build;
# `cargo run` would rebuild it with other features inside a test's timeout).
export RESTARTSCOPE_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/restartscope"
npx playwright test
