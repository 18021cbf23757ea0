#!/usr/bin/env bash
# docs/kep-4781/: RestartScope's drop-ins for the three sequence diagrams of KEP-4781's README
# (before-changes.png, scenario-1.png, scenario-2.png): per picture an animated SVG, the Mermaid
# diagram, and README.md with the markdown to paste and the command behind each file.
#
#   scripts/kep-4781.sh [OUT_DIR]      (default docs/kep-4781; `make kep-4781`)
#
# RESTARTSCOPE names the CLI to run (default: `cargo run -q -p restartscope-cli --`).
# crates/cli/tests/kep_4781.rs runs this script with the built binary and fails when a committed
# file differs from what it writes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/kep-4781}
mkdir -p "$OUT"
if [ -n "${RESTARTSCOPE:-}" ]; then rs() { "$RESTARTSCOPE" "$@"; }
else rs() { cargo run -q -p restartscope-cli -- "$@"; }; fi

# The app's address in the links: the same placeholder as docs/EMBEDDING.md.
APP=https://YOUR-HOST/restartscope/

# name | simulate arguments | live link query
PICTURES=(
  "before-changes|--preset startup-probe --policy legacy|preset=startup-probe"
  "scenario-1|--preset startup-probe --policy kep|preset=startup-probe"
  "scenario-2|--preset startup-probe --downtime 1m30s --policy kep|preset=startup-probe&downtime=1m30s"
)

# What each KEP picture shows (from the KEP's text around it), how it maps, and the alt text.
shows() {
  case $1 in
  before-changes) cat <<'EOF'
**What the KEP's picture shows** ("Before the Changes"): the kubelet restarts. (1) Its first
`SyncPod` runs before the pod is added to the `probeManager`, so it treats the containers as
having no probes and reports `Ready` true. (2) `SyncPod` then adds the pod to the `probeManager`.
(3) The first `doProbe` of each new worker sets the probe's initial value — `Failure` for the
readiness probe, `Unknown` for the startup probe — and the kubelet writes `Started` and `Ready`
false to the API server, until later probes set them true again.

**RestartScope's run:** preset `startup-probe` (a 20 s restart, well inside the 50 s grace
period) with the legacy kubelet (1.35 with `--feature-gates=ChangeContainerStatusOnKubeletRestart=true`).
`api-0` has a startup, a readiness and a liveness probe, `web-0` a readiness probe only, so both
resets of step 3 are drawn: `api-0`'s startup worker writes `Unknown` (`Started=false`, rule
P1) and the pod goes NotReady until its startup and readiness probes succeed again; `web-0`'s
readiness worker writes `Failure` and it flaps NotReady until its next probe succeeds. Step 1 is the note
"first SyncPod … status generated before its probe workers exist" (rule K3). Faithful to the
picture; one difference of detail: both containers were Ready before the restart, so the first
`SyncPod`'s `Ready` true is no change and no write (the legacy kubelet's write of `Ready=True`
from that `SyncPod` shows after a long restart: preset `long-restart`, rule S2).
EOF
  ;;
  scenario-1) cat <<'EOF'
**What the KEP's picture shows** ("After the Changes, Scenario 1"): the same short restart with
KEP-4781. The first two steps are as before; then the first `doProbe` of a container that was
running before the kubelet started skips setting the initial value and probes at once, so
`Started` and `Ready` stay true and only a failing probe would change them.

**RestartScope's run:** the same preset `startup-probe`, 20 s restart, with the KEP-4781 kubelet
(1.35's default). Each new worker "skips its initial Unknown / Failure: the container predates
this kubelet" (rule P1k) and its first probe succeeds (P5): no `Started` or `Ready` change, no
status write, no EndpointSlice update — the API server and EndpointSlice controller columns stay
empty. Faithful to the picture. The model follows the merged code (`doProbe`'s restart check,
`kubeletRestartGracePeriod`) rather than the KEP's wording ("pod's creation time precedes the
kubelet's start time by more than 10 seconds").
EOF
  ;;
  scenario-2) cat <<'EOF'
**What the KEP's picture shows** ("After the Changes, Scenario 2"): a restart longer than
`nodeMonitorGracePeriod`, so the node lifecycle controller has set the pods' `Ready` condition
false. (1) The first `SyncPod` sees the pod's `Ready` condition false and sets the containers'
`Ready` false. (2) It adds the pod to the `probeManager`. (3) The probes run and later probe
results set the pod Ready again.

**RestartScope's run:** preset `startup-probe` with `--downtime 1m30s` (longer than the 50 s
grace period), KEP-4781 kubelet. The node lifecycle controller marks both pods NotReady (rule N1)
and taints the node; when the kubelet returns its first `SyncPod` writes each container
`Ready=false` from the API pod's condition (rule S3: step 1 of the picture), and each pod stays
NotReady until its first readiness probe succeeds (P5). **Where it differs from the KEP's text:**
step 3 of the text says that, the container's `Ready` being false, `doProbe` sets every probe to
its initial value and writes `Started` false too. The merged code, which RestartScope models,
skips the initial value for every container that predates the kubelet (rule P1k), so `Started`
stays true; `Ready` is the same in both (false until the first readiness success). The diagram
draws what the code does.
EOF
  ;;
  esac
}

alt() {
  case $1 in
  before-changes) echo "Legacy kubelet, 20 s restart: after its first SyncPod each new probe worker writes its initial result, so api-0 loses Started and Ready and web-0 flaps NotReady, though every container kept running" ;;
  scenario-1) echo "KEP-4781 kubelet, the same 20 s restart: the probe workers skip their initial results for containers that predate the kubelet, so no pod changes Started or Ready and the Service keeps its endpoints" ;;
  scenario-2) echo "KEP-4781 kubelet, a 90 s restart beyond the 50 s grace period: the node lifecycle controller marks the pods NotReady, the first SyncPod keeps the containers NotReady, and each pod turns Ready at its first successful readiness probe" ;;
  esac
}

title() {
  case $1 in
  before-changes) echo "before-changes.png: the legacy kubelet after a short restart" ;;
  scenario-1) echo "scenario-1.png: KEP-4781, a short restart" ;;
  scenario-2) echo "scenario-2.png: KEP-4781, a restart longer than the grace period" ;;
  esac
}

{
  cat <<'EOF'
# KEP-4781's sequence diagrams, from RestartScope

[KEP-4781](https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/4781-kublet-restart-pod-status)
("Restarting kubelet does not change pod status") explains its design with three PNG sequence
diagrams: `before-changes.png`, `scenario-1.png` and `scenario-2.png` (read here from the text
around them in the KEP's README as of kubernetes/enhancements commit `c12cb04d`, the version with
the `ChangeContainerStatusOnKubeletRestart` gate). This directory holds a
drop-in for each, made by RestartScope's model of the kubelet (the rules cited are listed under
each diagram, with the Kubernetes function each follows): an **animated SVG** timeline (plays
inside `<img>` on GitHub, light and dark, still under `prefers-reduced-motion`) and a **Mermaid
`sequenceDiagram`** that GitHub renders from the markdown itself. For each picture: what the
KEP's picture shows, the run that models it and how faithfully, the markdown to paste, and the
command that writes each file.

Copy the SVG next to the KEP's README; `YOUR-HOST` is where the RestartScope app is served
(docs/EMBEDDING.md). These files are generated: `scripts/kep-4781.sh` (`make kep-4781`) writes
them all, and `crates/cli/tests/kep_4781.rs` fails when a committed copy is stale.
EOF
  for p in "${PICTURES[@]}"; do
    IFS='|' read -r name args query <<<"$p"
    # shellcheck disable=SC2086 # the arguments are words
    rs simulate $args --format svg --animate --out "$OUT/$name.svg" >/dev/null
    # shellcheck disable=SC2086
    rs simulate $args --format mermaid-md --out "$OUT/$name.md" >/dev/null
    printf '\n## %s\n\n' "$(title "$name")"
    shows "$name"
    printf '\n**Animated SVG** (`%s.svg`):\n\n' "$name"
    printf '```markdown\n[![%s](%s.svg)](%s?%s)\n```\n\n' "$(alt "$name")" "$name" "$APP" "$query"
    printf '[![%s](%s.svg)](%s?%s)\n\n' "$(alt "$name")" "$name" "$APP" "$query"
    printf '**Mermaid** (`%s.md`):\n\n' "$name"
    # The fenced block and the rules it cites, as the CLI wrote them (without its heading).
    sed -n '/^```mermaid$/,$p' "$OUT/$name.md"
    printf '**Regenerate:**\n\n```sh\n'
    printf 'restartscope simulate %s --format svg --animate --out docs/kep-4781/%s.svg\n' "$args" "$name"
    printf 'restartscope simulate %s --format mermaid-md --out docs/kep-4781/%s.md\n' "$args" "$name"
    printf '```\n'
  done
  cat <<'EOF'

## Side by side

Each KEP picture shows one kubelet. The same runs with both kubelets in one figure, the legacy
above and KEP-4781 below, are `restartscope simulate --preset startup-probe --format svg
--animate` and `restartscope simulate --preset startup-probe --downtime 1m30s --format svg
--animate` (without `--policy`), and `docs/tour/` walks through seven such comparisons.
EOF
} >"$OUT/README.md.tmp"
mv "$OUT/README.md.tmp" "$OUT/README.md"
echo "kep-4781: wrote $(ls "$OUT" | wc -l) files to $OUT"
