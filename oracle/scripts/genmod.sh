#!/usr/bin/env bash
# oracle/scripts/genmod.sh vX.Y.Z: prints a go.mod that requires k8s.io/kubernetes at that
# release and pins each of its staging modules (k8s.io/api, k8s.io/client-go, …) to the
# matching v0.Y.Z, as k8s.io/kubernetes' own go.mod replaces them with ./staging/src/… when it
# is built in its own tree. Used by oracle/scripts/oracle.sh to write oracle/mods/<release>.mod.
set -euo pipefail
v=$1; s="v0.${v#v1.}"
proxy=$(go env GOPROXY | tr ',|' '\n\n' | grep -m1 '^http')
echo "module restartscope/oracle"
echo
echo "go 1.26"
echo
echo "require k8s.io/kubernetes $v"
echo
echo "replace ("
curl -sf "$proxy/k8s.io/kubernetes/@v/$v.mod" | awk '/=> \.\/staging/{print $1}' | while read -r m; do printf '\t%s => %s %s\n' "$m" "$m" "$s"; done
echo ")"
