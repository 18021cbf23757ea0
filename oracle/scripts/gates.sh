#!/usr/bin/env bash
# oracle/scripts/gates.sh: every release's feature gates, read from its own source, as
# oracle/vectors/<release>/features.json (oracle/cmd/gates). The releases are those the Go module
# proxy serves for k8s.io/kubernetes from 1.31 on, the newest patch (or pre-release, where a minor
# has no release yet) of each minor. crates/sim/tests/release_gates.rs checks the model's release
# table against the files.
#
# A release whose module needs a newer Go than this one (v1.38.0-beta.0 needs 1.27) is downloaded
# with GOTOOLCHAIN=$GATES_GOTOOLCHAIN (default go1.27.3), a toolchain the proxy serves. Only
# features.json is written or removed under oracle/vectors: a features.json of a release no longer
# in the list (an older patch) is removed, every other file is left alone.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
toolchain=${GATES_GOTOOLCHAIN:-go1.27.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$here" && go build -o "$work/gates" ./cmd/gates)

# Outside any module: the proxy's list, in semver order, so the last of each minor is its newest.
cd "$work"
mapfile -t releases < <(go list -m -versions k8s.io/kubernetes | tr ' ' '\n' | tail -n +2 |
  awk -F. '/^v1\.[0-9]+\.[0-9]+/ { if ($2 + 0 >= 31) last[$2 + 0] = $0 }
           END { for (m in last) print m, last[m] }' | sort -n | cut -d' ' -f2)
[ ${#releases[@]} -gt 0 ] || { echo "gates: the proxy lists no k8s.io/kubernetes release from 1.31" >&2; exit 1; }

# The module's directory in the module cache ("Dir" of go mod download -json).
dir_of() {
  local out
  out=$(go mod download -json "k8s.io/kubernetes@$1" || true)
  if grep -q '"Error": ".*requires go' <<<"$out"; then
    out=$(GOTOOLCHAIN=$toolchain go mod download -json "k8s.io/kubernetes@$1" || true)
  fi
  local dir
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$out")
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "gates: no source for k8s.io/kubernetes@$1:" >&2
    echo "$out" >&2
    return 1
  fi
  echo "$dir"
}

for rel in "${releases[@]}"; do
  dir=$(dir_of "$rel")
  "$work/gates" -release "$rel" -src "$dir" -o "$here/vectors/$rel/features.json"
  echo "gates: $rel ($dir) -> oracle/vectors/$rel/features.json"
done

# A features.json of a release no longer listed.
for f in "$here"/vectors/*/features.json; do
  [ -e "$f" ] || continue
  rel=$(basename "$(dirname "$f")")
  keep=0
  for r in "${releases[@]}"; do [ "$r" = "$rel" ] && keep=1; done
  if [ $keep = 0 ]; then
    rm "$f"
    rmdir "$(dirname "$f")" 2>/dev/null || true
    echo "gates: removed oracle/vectors/$rel/features.json (not the newest patch served)"
  fi
done
