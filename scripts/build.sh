#!/usr/bin/env bash
# The release bundles in dist/: the app, then the fleet view and the importer's worker (their own
# bundles; the main build replaces dist/, so they come after it). Called by `make build` and by
# scripts/test.sh. Trunk runs offline with its tools pinned (Trunk.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "release build (trunk, offline)"
trunk build --release
step "the page's wasm-bindgen glue minified (scripts/minify-glue.mjs, terser)"
node scripts/minify-glue.mjs
step "release build of the fleet view (trunk, offline) into dist/fleet"
trunk build fleet/index.html --release --dist dist/fleet --public-url ./
step "release build of the importer's Web Worker (trunk, offline) into dist/import"
trunk build import/index.html --release --dist dist/import --public-url ./
step "content-hashed worker URLs (scripts/hash-workers.sh)"
scripts/hash-workers.sh
step "the loading message's size: the page's gzip bytes, measured (scripts/stamp-size.sh)"
scripts/stamp-size.sh
step "the figure first: every preset's figure as the CLI draws it, the default one inline (scripts/static-figures.mjs)"
cargo build -q -p restartscope-cli
node scripts/static-figures.mjs dist "${CARGO_TARGET_DIR:-$PWD/target}/debug/restartscope"
step "offline: the service worker's cache list, its registration and the offline zip (scripts/offline.mjs)"
node scripts/offline.mjs dist
