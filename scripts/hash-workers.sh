#!/usr/bin/env bash
# Content-hashed Web Worker URLs, after the release builds (`make build`, scripts/test.sh).
#
# Trunk 0.21 hashes a page's own wasm and js but not a `data-type="worker"` binary nor its
# loader shim (`NAME_loader.js`, `NAME.js`, `NAME_bg.wasm` keep fixed names), so a browser could
# run a cached old worker against a new page. For each worker this script renames the three
# files to `NAME-HASH…` (HASH: the first 16 hex digits of the SHA-256 of the worker's js and
# wasm), writes the loader for the new names (the same two statements as Trunk's shim) and puts
# the loader's URL in the HTML of the page that starts the worker, as
# `<meta name="NAME" content="URL">`; the page reads it there (crates/fleet-web/src/page.rs,
# src/importer.rs). The HTML is the one file a browser revalidates, and it changes with every
# worker, so a page never meets another build's worker. Offline: sha256sum, sed.
#
#   scripts/hash-workers.sh [DIST]   (default dist; after `trunk build` of the app, the fleet
#                                     view into DIST/fleet and the importer into DIST/import)
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${1:-dist}

# hash_worker DIR NAME HTML URL_PREFIX: DIR holds NAME's files; HTML gets the meta with the
# loader's URL as seen from HTML's directory (URL_PREFIX + file name).
hash_worker() {
  local dir=$1 name=$2 html=$3 prefix=$4 hash loader
  if [ ! -f "$dir/$name.js" ]; then
    if grep -q "<meta name=\"$name\"" "$html" 2>/dev/null; then
      echo "hash-workers: $name already hashed in $dir"
      return
    fi
    echo "hash-workers: $dir/$name.js is missing (run the trunk builds first)" >&2
    exit 1
  fi
  hash=$(cat "$dir/$name.js" "$dir/${name}_bg.wasm" | sha256sum | cut -c1-16)
  mv "$dir/$name.js" "$dir/$name-$hash.js"
  mv "$dir/${name}_bg.wasm" "$dir/$name-${hash}_bg.wasm"
  rm -f "$dir/${name}_loader.js"
  loader="$name-${hash}_loader.js"
  printf 'importScripts("./%s");wasm_bindgen("./%s");' "$name-$hash.js" "$name-${hash}_bg.wasm" \
    >"$dir/$loader"
  # Replace an earlier meta (a second run over the same HTML), else add one before </head>.
  sed -i "/<meta name=\"$name\" /d" "$html"
  sed -i "s|</head>|<meta name=\"$name\" content=\"$prefix$loader\">\n</head>|" "$html"
  grep -q "<meta name=\"$name\" content=\"$prefix$loader\">" "$html" || {
    echo "hash-workers: no </head> in $html" >&2
    exit 1
  }
  echo "hash-workers: $dir/$loader (in $html)"
}

hash_worker "$DIST/fleet" fleet-worker "$DIST/fleet/index.html" ./
hash_worker "$DIST/import" import-worker "$DIST/index.html" ./import/
