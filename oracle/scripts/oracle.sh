#!/usr/bin/env bash
# oracle/scripts/oracle.sh [RELEASE…]: the vectors. For each release (default: the newest patch of
# every minor the Go module proxy serves for k8s.io/kubernetes from 1.31 on, pre-releases
# included), builds the harness against that release's own code (scripts/tree.sh) and runs every
# preset (crates/sim/presets/*.toml) and every replay of Kubernetes' own tests
# (crates/sim/replays/*.toml) and the cases written for a rule the code changed
# (crates/sim/oracle-cases/*.toml) under each kubelet the release has: `legacy` (from 1.35 the
# gate ChangeContainerStatusOnKubeletRestart=true) and, from 1.35, `kep` (the default). An
# in-place upgrade's preset runs from the newest patch of the minor before (built too).
# Writes oracle/vectors/<release>/<scenario>.<kubelet>.json.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
say() { printf '\033[1m[oracle]\033[0m %s\n' "$*"; }

releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
  mapfile -t releases < <(scripts/releases.sh)
fi
# prepare REL: the harness built against REL's own code (.k8s/oracle-REL); kdir[REL] is its
# k8s.io/kubernetes module directory.
declare -A kdir=()
prepare() {
  local rel=$1 need mod="mods/$1.mod"
  [ -n "${kdir[$rel]:-}" ] && return
  # A release whose module asks for a newer Go than the machine's (1.38 wants 1.27) gets it
  # from the module proxy, as the go command does for any module.
  need=$(curl -sf "$(go env GOPROXY | tr ',|' '\n\n' | grep -m1 '^http')/k8s.io/kubernetes/@v/$rel.mod" | awk '$1=="go" && !v {v=$2} END {print v}' || true)
  export GOTOOLCHAIN=local
  if [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$(go env GOVERSION | sed 's/^go//')" | sort -V | tail -1)" != "$(go env GOVERSION | sed 's/^go//')" ]; then
    export GOTOOLCHAIN=go1.27.3
  fi
  if [ ! -f "$mod" ]; then
    say "$rel: writing $mod"
    scripts/genmod.sh "$rel" > "$mod"
    sed -i "s/^go 1.26$/go ${need:-1.26}/" "$mod"
    go mod tidy -modfile="$mod"
  fi
  go mod tidy -modfile="$mod"
  kdir[$rel]=$(scripts/tree.sh "$rel")
  go build -modfile=".k8s/$rel.mod" -o ".k8s/oracle-$rel" ./cmd/oracle
}

# from_of REL: the release an in-place upgrade to REL starts from, the newest patch of the minor
# before it that the module proxy serves (v1.30.14 for v1.31.14: built as an upgrade's source only).
from_of() {
  local m
  m=$(echo "$1" | sed -E 's/^v1\.([0-9]+).*/\1/')
  GOTOOLCHAIN=local GOFLAGS=-mod=mod go list -m -versions k8s.io/kubernetes 2>/dev/null | tr ' ' '\n' |
    grep -E "^v1\.$((m - 1))\.[0-9]+$" | sort -V | tail -1
}

for rel in "${releases[@]}"; do
  t0=$(date +%s)
  minor=$(echo "$rel" | sed -E 's/^v1\.([0-9]+).*/\1/')
  # An in-place upgrade (a preset with upgrade_to) runs in two processes: the release before
  # runs the story until the kubelet stops and hands over (-handover-out), this one goes on
  # (-handover-in) with a kubelet of its own (cmd/oracle/upgrade.go). The vector says both.
  from=$(from_of "$rel")
  [ -n "$from" ] || { echo "oracle: no release before $rel on the module proxy" >&2; exit 1; }
  prepare "$from"
  prepare "$rel"
  bin=".k8s/oracle-$rel"
  out="vectors/$rel"; mkdir -p "$out"
  rm -f "$out"/*.legacy.json "$out"/*.kep.json
  n=0
  for f in ../crates/sim/presets/*.toml ../crates/sim/replays/*.toml ../crates/sim/oracle-cases/*.toml; do
    name=$(basename "$f" .toml)
    pols=(legacy); [ "$minor" -ge 35 ] && pols=(legacy kep)
    for pol in "${pols[@]}"; do
      args=()
      if grep -q '^upgrade_to' "$f"; then
        ho=".k8s/$rel.$name.$pol.handover.json"
        timeout 600 ".k8s/oracle-$from" -scenario "$f" -policy "$pol" -release "$from" -kdir "${kdir[$from]}" -handover-out "$ho" 2>>".k8s/$rel.log" ||
          { echo "oracle: $from (upgrading to $rel) $name $pol failed (.k8s/$rel.log)" >&2; exit 1; }
        args=(-handover-in "$ho")
      fi
      timeout 600 "$bin" -scenario "$f" -policy "$pol" -release "$rel" -kdir "${kdir[$rel]}" "${args[@]}" -out "$out/$name.$pol.json" 2>>".k8s/$rel.log" ||
        { echo "oracle: $rel $name $pol failed (.k8s/$rel.log)" >&2; exit 1; }
      n=$((n + 1))
    done
  done
  say "$rel: $n vectors (upgrades from $from) in $(( $(date +%s) - t0 )) s"
done
