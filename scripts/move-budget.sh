#!/usr/bin/env bash
# The page's model and layout per slider move (docs/PERFORMANCE.md, "Input to paint"): what
# `state::compute_for` costs for `short-restart` at 1440×900 while the slider is held
# (examples/move_cost.rs: both kubelets simulated, the figure fitted and laid out without its
# pods' tooltips), counted in instructions by valgrind's callgrind: the same count on a busy
# machine, so the check cannot flake, where the browser's own timing of a move does (its p95 is
# held by tests/e2e/paint.spec.mjs with a wide margin).
#
# The debug build, which `cargo test` has already compiled (a release build of the page's crate
# for the host would add minutes to `make test`): its counts are about twice the release
# build's, and grow with the same work (a third layout of the figure per move, a per-run
# allocation, a formatter per mark). Fails above MOVE_LIMIT (default 8 M: 6.6 M measured on
# 2026-12-06; the release build's count that day went 5.3 M → 2.2 M a move).
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${MOVE_LIMIT:-8000000}
if ! command -v valgrind >/dev/null; then
  echo "move budget: valgrind not found, not checked (scripts/setup.sh installs it)"
  exit 0
fi
cargo build -q --example move_cost
BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/examples/move_cost"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ir() { # moves → instructions
  HELD=1 valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$BIN" short-restart "$1" 2>"$out/err" >/dev/null
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/err"
}
# Per move: 30 moves less 10 (the start-up and the first layouts' search are paid once).
a=$(ir 10)
b=$(ir 30)
per=$(( (b - a) / 20 ))
awk -v p="$per" -v l="$LIMIT" 'BEGIN { printf "a held slider move (short-restart, 1440x900, debug build): %.2f M instructions (budget %.1f M)\n", p/1e6, l/1e6 }'
if [ "$per" -gt "$LIMIT" ]; then
  echo "move budget: a slider move costs more than $LIMIT instructions" >&2
  exit 1
fi
