#!/usr/bin/env bash
# docs/node-restart/: figures for kubernetes.io's "What Happens After A Node Restart"
# (kubernetes/website PR #56254, content/en/docs/reference/node/what-happens-on-restart.md) —
# the kubelet's restart, the container runtime's and the node's, each as an animated SVG and a
# Mermaid sequence diagram from RestartScope's model — and the two probe diagrams that
# kubernetes/website#52391 asks for on the probes concept page. README.md holds the markdown to
# paste and the command behind each file.
#
#   scripts/node-restart.sh [OUT_DIR]      (default docs/node-restart; `make node-restart`)
#
# RESTARTSCOPE names the CLI to run (default: `cargo run -q -p restartscope-cli --`).
# crates/cli/tests/node_restart.rs runs this script with the built binary and fails when a
# committed file differs from what it writes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/node-restart}
mkdir -p "$OUT"
if [ -n "${RESTARTSCOPE:-}" ]; then rs() { "$RESTARTSCOPE" "$@"; }
else rs() { cargo run -q -p restartscope-cli -- "$@"; }; fi

APP=https://YOUR-HOST/restartscope/

# name | simulate arguments | live link query | title | what it shows
PICTURES=(
  "kubelet-restart|--preset short-restart --policy kep|preset=short-restart&policy=kep|The kubelet restarts (20 s)|The containers keep running; the kubelet comes back with empty memory, renews its lease, posts node Ready and runs each pod's first SyncPod. With the 1.35 default kubelet (KEP-4781) the probe workers skip their initial results for containers older than the restart, so no pod changes Ready (rules K1, K2, K3, P1k). A restart longer than the node monitor grace period (50 s) lets the node lifecycle controller mark the pods NotReady first (preset long-restart)."
  "runtime-restart|--preset runtime-restart --policy kep|preset=runtime-restart&policy=kep|The container runtime restarts (90 s)|The containers keep running under their shims and the kubelet keeps renewing its lease. Exec probes error and are thrown away (no failure counted, no liveness kill); httpGet probes go on. 30 s after its last good runtime check the kubelet posts node Ready=False (\"container runtime is down\"), the node is tainted not-ready, and the node lifecycle controller leaves the pods Ready (kubernetes#125618): they keep serving, and would be evicted only after their 300 s not-ready toleration. When the runtime is back, the next check and node status lift it (rules R1-R4, E1n)."
  "node-reboot|--preset node-reboot --policy kep|preset=node-reboot&policy=kep|The node reboots (40 s)|Every container stops with the node, and nothing tells the API server: the pods stay Ready there until the kubelet is back (or the lease expires and the node lifecycle controller marks them). At boot the kubelet's first SyncPod finds no sandbox: it runs the init container again first, then starts every container anew (restart count + 1); Started and Ready wait for the probes. Both kubelets (legacy and KEP-4781) do the same (rules B1, B2, K3)."
)

# name | simulate arguments | title | what it shows
PROBES=(
  "probes-startup-liveness|--preset startup-probe --pods 1 --probe app.readinessProbe=off --restart 20s:10s:node --policy kep|Startup and liveness probes|A container with a startup probe (period 10 s, failureThreshold 30) and a liveness probe, started anew (here by a node reboot): the startup worker's first result is Unknown, Started stays false and the liveness probe does not run until the startup probe succeeds; then Started=true and the liveness probe takes over (its successes change nothing and are not drawn; failureThreshold failures in a row would kill the container). Rules P1, P4, P5, S1."
  "probes-startup-readiness|--preset startup-probe --pods 1 --probe app.livenessProbe=off --restart 20s:10s:node --policy kep|Startup and readiness probes|The same container with a startup and a readiness probe: Ready stays false until Started (the readiness probe waits for the startup probe), then the readiness worker's first result is Failure and its next success makes the pod Ready and adds its endpoint. Rules P1, P4, P5, S1, S2, ES1."
)

{
  cat <<'EOF'
# What happens after a node restart, from RestartScope

Figures for kubernetes.io's "What Happens After A Node Restart" (kubernetes/website PR #56254,
`content/en/docs/reference/node/what-happens-on-restart.md`), which walks through three restarts:
the kubelet's, the container runtime's and the node's. Each is drawn by RestartScope's model of
the kubelet and the control plane (docs/MODEL.md lists every rule with the Kubernetes function it
follows) as an **animated SVG** (plays inside `<img>` on GitHub, light and dark) and a **Mermaid
`sequenceDiagram`**. The page's text and the code differ in places; these follow the code:
a restarted 1.31+ kubelet posts node Ready=True at once (the runtime is checked before the first
node status, PR #124430; 1.30 posted NotReady first, #124397), and a runtime outage makes the
node NotReady only after 30 s and never marks the pods NotReady (#125618).

The last two diagrams are the ones kubernetes/website#52391 asks for on the probes concept page
(startup + liveness, startup + readiness).

These files are generated: `scripts/node-restart.sh` (`make node-restart`) writes them all, and
`crates/cli/tests/node_restart.rs` fails when a committed copy is stale. `YOUR-HOST` is where
the RestartScope app is served (docs/EMBEDDING.md).
EOF
  for p in "${PICTURES[@]}"; do
    IFS='|' read -r name args query title shows <<<"$p"
    # shellcheck disable=SC2086 # the arguments are words
    rs simulate $args --format svg --animate --out "$OUT/$name.svg" >/dev/null
    # shellcheck disable=SC2086
    rs simulate $args --format mermaid-md --out "$OUT/$name.md" >/dev/null
    printf '\n## %s\n\n%s\n\n' "$title" "$shows"
    printf '```markdown\n[![%s](%s.svg)](%s?%s)\n```\n\n' "$title" "$name" "$APP" "$query"
    printf '[![%s](%s.svg)](%s?%s)\n\n' "$title" "$name" "$APP" "$query"
    sed -n '/^```mermaid$/,$p' "$OUT/$name.md"
    printf '**Regenerate:**\n\n```sh\n'
    printf 'restartscope simulate %s --format svg --animate --out docs/node-restart/%s.svg\n' "$args" "$name"
    printf 'restartscope simulate %s --format mermaid-md --out docs/node-restart/%s.md\n' "$args" "$name"
    printf '```\n'
  done
  for p in "${PROBES[@]}"; do
    IFS='|' read -r name args title shows <<<"$p"
    # shellcheck disable=SC2086
    rs simulate $args --format mermaid-md --out "$OUT/$name.md" >/dev/null
    printf '\n## %s\n\n%s\n\n' "$title" "$shows"
    sed -n '/^```mermaid$/,$p' "$OUT/$name.md"
    printf '**Regenerate:**\n\n```sh\n'
    printf 'restartscope simulate %s --format mermaid-md --out docs/node-restart/%s.md\n' "$args" "$name"
    printf '```\n'
  done
} >"$OUT/README.md.tmp"
mv "$OUT/README.md.tmp" "$OUT/README.md"
echo "node-restart: wrote $(ls "$OUT" | wc -l) files to $OUT"
