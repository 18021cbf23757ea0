#!/usr/bin/env bash
# The model's benchmark workload (one node, one simulated hour) natively and as wasm32 in Node (wasm-bindgen-test-runner, no
# browser), both built with the `bench` profile (opt-level 3), then wasm/native per run
# (native ms / wasm ms: 1.0 = as fast as native; the goal is >= 0.5). Called by `make bench`.
# The workload and its timing are one file: crates/sim/benches/workload/mod.rs.
# ROUNDS=n (default 1) alternates n native and n wasm rounds and keeps each run's fastest time:
# on a busy machine that is the closest to its quiet speed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v wasm-bindgen-test-runner >/dev/null; then
  echo "wasm-bindgen-test-runner not found: run scripts/setup.sh (installs wasm-bindgen-cli)" >&2
  exit 1
fi
ROUNDS=${ROUNDS:-1}
mkdir -p artifacts
: >artifacts/bench-native.txt
: >artifacts/bench-wasm.txt
cargo build -q --profile bench -p restartscope-sim --example scale
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
wasm_bench() {
  cargo test -q --profile bench --target wasm32-unknown-unknown -p restartscope-bench-wasm \
    --test wasm --no-run
  cargo test --profile bench --target wasm32-unknown-unknown -p restartscope-bench-wasm \
    --test wasm -- --nocapture 2>&1
}
for round in $(seq "$ROUNDS"); do
  echo "== round $round/$ROUNDS: native (x86_64, bench profile)"
  target/release/examples/scale 5 | tee -a artifacts/bench-native.txt
  echo "== round $round/$ROUNDS: wasm32 in Node $(node --version) (bench profile)"
  wasm_bench | tee -a artifacts/bench-wasm.txt
done

echo "== wasm/native (native ms / wasm ms, fastest of $ROUNDS round(s); goal >= 0.5)"
awk '
  function keep(a, k, v) { if (!(k in a) || v + 0 < a[k] + 0) a[k] = v }
  FNR == NR && $1 == "RESULT" { if (!($2 in native)) order[++n] = $2; keep(native, $2, $3); next }
  $1 == "RESULT" { keep(wasm, $2, $3) }
  END {
    printf "%-12s %10s %10s %12s\n", "run", "native ms", "wasm ms", "wasm/native"
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (!(k in wasm)) { print "missing wasm result for " k > "/dev/stderr"; bad = 1; continue }
      printf "%-12s %10.2f %10.2f %12.2f\n", k, native[k], wasm[k], native[k] / wasm[k]
    }
    exit bad
  }' artifacts/bench-native.txt artifacts/bench-wasm.txt | tee artifacts/bench-ratio.txt
