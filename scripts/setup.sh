#!/usr/bin/env bash
# Installs what RestartScope needs to build, serve and test, on a Debian machine that has Rust
# (rustup), Node/npm and apt. Idempotent: each step checks first; a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# The wasm-bindgen CLI must equal the wasm-bindgen crate in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (takes ~9 minutes once)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (matches Cargo.lock)"
  # Not --locked: the locked build wants a crate the registry mirror lacks.
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# SETUP_NO_BROWSER=1 (the Pages workflow: build only) skips the browser the tests need.
if [ -z "${SETUP_NO_BROWSER:-}" ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  say "installing Debian chromium and chromium-driver"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi

# The CLI's PNG and GIF (crates/cli/src/raster.rs) draw the figure's text with a system font;
# the figure's style asks for DejaVu Sans first.
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  say "installing Debian fonts-dejavu-core (the PNG and GIF figures' text)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-dejavu-core
fi

# The engine's budget (scripts/engine-budget.sh) counts instructions with valgrind's callgrind,
# which a busy machine does not disturb; without it the budget falls back to wall time.
if [ -z "${SETUP_NO_VALGRIND:-}" ] && ! command -v valgrind >/dev/null; then
  say "installing Debian valgrind (the engine's budget counts instructions)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q valgrind || say "valgrind not installed: the engine's budget uses wall time"
fi

# npm dev dependencies (binaryen's wasm-opt, Playwright) from package-lock.json.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies (npm ci)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

if [ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" != "132" ]; then
  echo "wasm-opt version 132 expected on PATH (node_modules/.bin), got: $(wasm-opt --version 2>&1 || true)" >&2
  exit 1
fi
say "ready: $(trunk --version), wasm-bindgen $WASM_BINDGEN_VERSION, wasm-opt $(wasm-opt --version | awk '{print $3}'), $(chromium --version 2>/dev/null | head -1 || true)"
