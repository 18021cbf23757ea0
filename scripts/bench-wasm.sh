#!/usr/bin/env bash
# Issue 9's benchmark workload natively and as wasm32 in Node (wasm-bindgen-test-runner, no
# browser), both built with the `bench` profile (opt-level 3), then wasm/native per run
# (native ms / wasm ms: 1.0 = as fast as native; the goal is >= 0.5). Called by `make bench`.
# The workload and its timing are one file: crates/sim/benches/workload/mod.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v wasm-bindgen-test-runner >/dev/null; then
  echo "wasm-bindgen-test-runner not found: run scripts/setup.sh (installs wasm-bindgen-cli)" >&2
  exit 1
fi
mkdir -p artifacts

echo "== native (x86_64, bench profile)"
cargo run -q --profile bench -p restartscope-sim --example scale 5 | tee artifacts/bench-native.txt

echo "== wasm32 in Node $(node --version) (bench profile)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --profile bench --target wasm32-unknown-unknown -p restartscope-bench-wasm \
  --test wasm -- --nocapture | tee artifacts/bench-wasm.txt

echo "== wasm/native (native ms / wasm ms; goal >= 0.5)"
awk '
  FNR == NR && $1 == "RESULT" { native[$2] = $3; order[++n] = $2; next }
  $1 == "RESULT" { wasm[$2] = $3 }
  END {
    printf "%-12s %10s %10s %12s\n", "run", "native ms", "wasm ms", "wasm/native"
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (!(k in wasm)) { print "missing wasm result for " k > "/dev/stderr"; bad = 1; continue }
      printf "%-12s %10.2f %10.2f %12.2f\n", k, native[k], wasm[k], native[k] / wasm[k]
    }
    exit bad
  }' artifacts/bench-native.txt artifacts/bench-wasm.txt | tee artifacts/bench-ratio.txt
