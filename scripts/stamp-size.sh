#!/usr/bin/env bash
# Writes the page's real download size into the loading message of dist/index.html ("Loading the
# model (about N KB)…"): the gzip bytes of dist/*.wasm, *.js and *.css, as scripts/size-budget.sh
# counts them, so the words never go stale as the page grows. Called by scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [ -f "$f" ] || continue
  total=$((total + $(gzip -9 -c "$f" | wc -c)))
done
kb=$(( (total + 512) / 1024 ))
if ! grep -q 'Loading the model (about [0-9]* KB)' dist/index.html; then
  echo "stamp-size: dist/index.html has no 'Loading the model (about N KB)' message" >&2
  exit 1
fi
sed -i -E "s/Loading the model \\(about [0-9]+ KB\\)/Loading the model (about $kb KB)/" dist/index.html
echo "loading message: about $kb KB ($total bytes gzip)"
