#!/usr/bin/env bash
# Rewrites every committed file the CLI generates, which the native tests compare with what the
# CLI writes today (crates/cli/tests/docs.rs, animate.rs, kep_4781.rs, node_restart.rs, tour.rs): docs/*.svg, the
# replay figure, the e2e animated-SVG fixture, docs/kep-4781/, docs/node-restart/ and docs/tour/. Run after a change
# that moves the figure or the model on purpose (`make regen`), then review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p restartscope-cli
RS=${CARGO_TARGET_DIR:-$PWD/target}/debug/restartscope
"$RS" simulate --preset short-restart --format svg --out docs/short-restart.svg
"$RS" simulate --preset long-restart --format svg --out docs/long-restart.svg
"$RS" simulate --preset report-141155-started-by-name --kubelets 1.35:kep,main:kep --format svg --out docs/releases-1.35-vs-main.svg
"$RS" replay --evidence crates/evidence/tests/data/113646-watch.txt -o svg --out docs/replay-113646.svg
"$RS" simulate --preset short-restart --format svg --animate --out tests/e2e/fixtures/short-restart-animated.svg
RESTARTSCOPE="$RS" scripts/kep-4781.sh
RESTARTSCOPE="$RS" scripts/node-restart.sh
"$RS" tour --out docs/tour
"$RS" tour --animate --out docs/tour/animated
echo "regen: done; review git diff"
