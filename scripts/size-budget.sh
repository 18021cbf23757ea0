#!/usr/bin/env bash
# Fails when the gzip size of the release wasm + js + css in dist/ exceeds the budget (bytes).
set -euo pipefail
BUDGET=${SIZE_BUDGET_BYTES:-256000}
total=0
for f in dist/*.wasm dist/*.js dist/*.css; do
  [ -f "$f" ] || continue
  n=$(gzip -9 -c "$f" | wc -c)
  printf '  %-50s %8d bytes gzip\n' "$(basename "$f")" "$n"
  total=$((total + n))
done
printf 'size budget: %d bytes gzip (budget %d = 250 KB)\n' "$total" "$BUDGET"
if [ "$total" -gt "$BUDGET" ]; then
  echo "FAIL: release bundle is over the size budget" >&2
  exit 1
fi
