#!/usr/bin/env bash
# oracle/scripts/tree.sh <release>: prepares oracle/.k8s/<release>/, the k8s.io/kubernetes
# module of that release as the harness builds it, and oracle/.k8s/<release>.mod, the go.mod
# that uses it (oracle/mods/<release>.mod plus a replace of k8s.io/kubernetes by that tree).
#
# The tree is the module from the Go module cache as symbolic links (the cache stays
# read-only, and `go build -overlay` may not replace files beneath it), with the harness's
# hooks placed inside Kubernetes' own packages:
#   oracle/overlay/<package dir>/NAME.go        added to that package (all releases);
#   oracle/overlay/<package dir>/vX.Y/NAME.go   in its place for the releases up to minor X.Y
#                                               that no older vW.Z/NAME.go covers (the form a
#                                               call had until X.Y);
#   oracle/overlay/<package dir>/NAME.go.sed    a sed script applied to the release's own
#                                               NAME.go (only to swap wall-clock reads and
#                                               goroutine starts for the harness's clock; every
#                                               rule stays Go's). It must change something.
set -euo pipefail
rel=$1
here=$(cd "$(dirname "$0")/.." && pwd)
minor=$(echo "$rel" | sed -E 's/^(v[0-9]+\.[0-9]+).*/\1/')
mod="$here/mods/$rel.mod"
[ -f "$mod" ] || { echo "tree: $mod missing (scripts/genmod.sh $rel > $mod; go mod tidy -modfile=$mod)" >&2; exit 1; }
kdir=$(cd "$here" && go mod download -modfile="$mod" -json "k8s.io/kubernetes@$rel" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[ -d "$kdir" ] || { echo "tree: k8s.io/kubernetes@$rel not downloaded" >&2; exit 1; }
tree="$here/.k8s/$rel"
rm -rf "$tree"; mkdir -p "$here/.k8s"
cp -rs "$kdir" "$tree"
chmod -R u+w "$tree"
while IFS= read -r f; do
  rel_f=${f#"$here/overlay/"}
  dir=$(dirname "$rel_f"); name=$(basename "$rel_f")
  case "$dir" in */v[0-9]*.[0-9]*) continue ;; esac
  src="$f"
  # The oldest variant at or after this release's minor, if any.
  for v in $(cd "$here/overlay/$dir" && ls -d v[0-9]*.[0-9]* 2>/dev/null | sort -V); do
    if [ -f "$here/overlay/$dir/$v/$name" ] &&
      [ "$(printf '%s\n%s\n' "$minor" "$v" | sort -V | head -1)" = "$minor" ]; then
      src="$here/overlay/$dir/$v/$name"
      break
    fi
  done
  case "$name" in
    *.go.sed)
      target="$tree/$dir/${name%.sed}"
      [ -e "$target" ] || { echo "tree: $dir/${name%.sed} not in $rel" >&2; exit 1; }
      orig=$(readlink -f "$target"); rm "$target"
      sed -f "$src" "$orig" > "$target"
      if cmp -s "$orig" "$target"; then echo "tree: $src changed nothing in $rel" >&2; exit 1; fi ;;
    *.go) rm -f "$tree/$dir/$name"; cp "$src" "$tree/$dir/$name" ;;
  esac
done < <(find "$here/overlay" -type f | sort)
cp "$mod" "$here/.k8s/$rel.mod"
[ -f "${mod%.mod}.sum" ] && cp "${mod%.mod}.sum" "$here/.k8s/$rel.sum"
printf '\nreplace k8s.io/kubernetes => ./.k8s/%s\n' "$rel" >> "$here/.k8s/$rel.mod"
echo "$kdir"
