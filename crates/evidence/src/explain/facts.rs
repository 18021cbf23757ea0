//! What the pod (or its node) itself says that explains a NotReady or a stopped container
//! without any kubelet restart bug, one sentence each: the answer's first reasons, and what
//! keeps a bug from being named. Mirrors no Kubernetes file; each reason cites the code that
//! writes what it reads.

use crate::time::clock_text;
use crate::types::{ContainerSnap, Obs, What};

fn at(o: &Obs) -> String {
    if o.t_ms == 0 {
        String::new()
    } else {
        // Before 1971: a klog/journald time without a year, on the source's own clock.
        let zone = if o.t_ms > 366 * 86_400_000 {
            " UTC"
        } else {
            ""
        };
        format!(" at {}{zone}", clock_text(o.t_ms))
    }
}

fn by(o: &Obs) -> String {
    format!(
        " (written by {}, line {})",
        o.by.as_deref().unwrap_or("?"),
        o.line
    )
}

/// What the pod itself says that explains a NotReady or a stopped container without any kubelet
/// restart bug, one sentence each.
pub(super) fn pod_facts(obs: &[Obs]) -> Vec<String> {
    let mut out = restarted_while_not_ready(obs);
    out.extend(created_then_ready(obs));
    out.extend(not_ready_while_deleting(obs));
    for o in obs {
        // A message of a node's, not a pod's (the graceful node shutdown beginning), names the
        // node.
        let node = o.node.as_ref().map(|n| format!("node {n}"));
        let pod = o
            .pod
            .as_deref()
            .or(node
                .as_deref()
                .filter(|_| matches!(o.what, What::PodMessage { .. })))
            .unwrap_or("the pod");
        let s = match &o.what {
            What::ContainerState(c) if c.reason.as_deref() == Some("OOMKilled") => format!(
                "{pod}: container {} was OOMKilled{} — out of memory, not a restart effect",
                c.name,
                at(o)
            ),
            What::ContainerState(ContainerSnap {
                last_reason: Some(r),
                name,
                ..
            }) if r == "OOMKilled" => format!(
                "{pod}: container {name} was last OOMKilled — out of memory, not a restart effect"
            ),
            // The kubelet's waiting reasons (kuberuntime_manager.go / images/puller.go): a
            // container that keeps exiting, or whose image cannot be pulled.
            What::ContainerState(c)
                if c.state == "waiting" && c.reason.as_deref() == Some("CrashLoopBackOff") =>
            {
                let last = match (&c.last_reason, c.last_exit_code) {
                    (Some(r), Some(x)) => format!(", last exit {r} (code {x})"),
                    (Some(r), None) => format!(", last exit {r}"),
                    _ => String::new(),
                };
                let n = c
                    .restart_count
                    .map_or(String::new(), |n| format!(", restarted {n} times"));
                format!(
                    "{pod}: container {} is in CrashLoopBackOff{last}{n} — the container keeps exiting and the kubelet restarts it with back-off, not a restart effect",
                    c.name
                )
            }
            What::ContainerState(c)
                if c.state == "waiting"
                    && matches!(
                        c.reason.as_deref(),
                        Some("ImagePullBackOff" | "ErrImagePull")
                    ) =>
            {
                format!(
                    "{pod}: container {} is waiting in {} — its image cannot be pulled, not a restart effect",
                    c.name,
                    c.reason.as_deref().unwrap_or("?")
                )
            }
            What::PodPhase(p) if p == "Failed" => format!(
                "{pod}: phase Failed{} — the pod is finished; the kubelet does not restart it",
                by(o)
            ),
            What::PodMessage { reason, message } => {
                if message.starts_with("Pod was rejected") || reason.ends_with("Affinity") {
                    format!(
                        "{pod}: the kubelet rejected the pod at admission ({reason}: {message}) — not a restart effect"
                    )
                } else if reason == "TaintManagerEviction" {
                    format!("{pod}: deleted by the taint eviction (a NoExecute taint on its node, as the node controller adds to a NotReady node) — the expected behaviour of every release")
                } else if reason == "Evicted" {
                    format!("{pod}: evicted ({message}) — node pressure, not a restart effect")
                } else if reason == "OOMKilling" || reason == "OOMKilled" {
                    format!("{pod}: {reason} ({message}) — out of memory, not a restart effect")
                } else if reason == "Preempting" || reason == "Preempted" {
                    format!("{pod}: preempted ({message}) — not a restart effect")
                } else if message.contains("graceful node shutdown") {
                    format!("{pod}: {reason}: {message} (nodeshutdown_manager_linux.go) — the node was shutting down, not a restart bug")
                } else {
                    continue;
                }
            }
            What::ReadyChanged(false)
                if o.by.as_deref().is_some_and(|b| b.contains("node-controller")) =>
            {
                format!(
                    "{pod}: the node controller marked it NotReady{}{} (its NodeNotReady: the node's lease expired) — the expected behaviour of every release",
                    at(o),
                    by(o)
                )
            }
            // MarkAllPodsNotReady's line names the node, not its pods.
            What::ControllerNotReady if o.pod.is_none() && o.node.is_some() => format!(
                "{}: the node controller marked its pods NotReady{}{} (Ready False, ContainersReady untouched: MarkPodsNotReady after the node's lease expired) — the expected behaviour of every release",
                node.as_deref().unwrap_or_default(),
                at(o),
                by(o)
            ),
            What::ControllerNotReady => format!(
                "{pod}: the node controller marked it NotReady{}{} (Ready False, ContainersReady untouched: MarkPodsNotReady after the node's lease expired) — the expected behaviour of every release",
                at(o),
                by(o)
            ),
            What::SpecChanged(c) => format!(
                "{pod}: container {c} was restarted because its definition changed{}{} — a container-spec-hash restart (as after a kubelet upgrade that changes the hash, e.g. 1.30→1.31), expected, not a KEP-4781 bug",
                at(o),
                by(o)
            ),
            What::NodeNotReadyBecause(m) => format!(
                "{}: NotReady{}: {} — {}",
                crate::types::node_words(o.node.as_deref()),
                at(o),
                crate::types::cut_to(m, 140),
                if crate::klog_says::pleg_never_relisted(m) {
                    "the kubelet's PLEG had not relisted once since the kubelet started (the PLEG's `Healthy`, pkg/kubelet/pleg/generic.go), as in every kubelet's first seconds: a kubelet (re)start, and a runtime outage only if it lasts"
                } else if m.contains("PLEG") {
                    "the container runtime did not answer the kubelet in time (PLEG), not a restart bug"
                } else if m.contains("network not ready") {
                    "the node's network plugin (CNI) is not ready, not a restart bug"
                } else if m.contains("stopped posting node status") {
                    // The node lifecycle controller (tryUpdateNodeHealth) sets Unknown when the
                    // kubelet's status and lease stop coming.
                    "the kubelet stopped posting the node's status (stopped, or cut off from the API server) and the node controller marked the node Unknown, as every release does: not a kubelet bug"
                } else {
                    "the node's own condition, not a restart bug"
                }
            ),
            _ => continue,
        };
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// A pod whose restart count went up while it was NotReady (from a Ready→False to the next
/// Ready→True, the False row included): its container was restarted — a failed liveness probe
/// (`computePodActions` kills it, pkg/kubelet/kuberuntime/kuberuntime_manager.go) or the process
/// exiting — and a new container is NotReady until its readiness probe passes. Every release
/// does that; the kubelet-restart bugs change Ready with no container restarted (a restart that
/// comes while the pod stays Ready, as in kubernetes#141473's, is not this).
fn restarted_while_not_ready(obs: &[Obs]) -> Vec<String> {
    let mut out = Vec::new();
    let mut pods: Vec<&str> = obs.iter().filter_map(|o| o.pod.as_deref()).collect();
    pods.sort_unstable();
    pods.dedup();
    for p in pods {
        let mut mine: Vec<&Obs> = obs
            .iter()
            .filter(|o| {
                o.pod.as_deref() == Some(p)
                    && matches!(
                        o.what,
                        What::ReadyChanged(_) | What::Restarted(_) | What::ReadyAtStart(false)
                    )
            })
            .collect();
        // One row can say both (`0/1  Running  1`): the Ready change first, then the restart.
        // NotReady when first seen counts (a watch opened on a pod in CrashLoopBackOff,
        // kubernetes/website#12389).
        let rank = |w: &What| match w {
            What::ReadyChanged(false) | What::ReadyAtStart(false) => 0,
            What::Restarted(_) => 1,
            _ => 2,
        };
        mine.sort_by_key(|o| (o.file, o.t_ms, o.line, rank(&o.what)));
        let mut not_ready_since: Option<usize> = None;
        for o in &mine {
            match o.what {
                What::ReadyChanged(false) | What::ReadyAtStart(false) => {
                    not_ready_since = Some(o.line)
                }
                What::ReadyChanged(true) => not_ready_since = None,
                What::Restarted(n) => {
                    if let Some(since) = not_ready_since {
                        out.push(format!(
                            "{p}: its container restarted while the pod was NotReady (restart count {n}, line {}; NotReady from line {since}) — a container restarted after a failed liveness probe or an exit is NotReady until its readiness passes, on every release: not a kubelet-restart effect",
                            o.line
                        ));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// A pod seen at its creation (its first row `Pending` / `ContainerCreating`) whose only Ready
/// change is its first →True: a new pod starting (a rollout, a scale-up, a replacement), as on
/// every release. When the evidence also shows the kubelet restarting, a pod still in its
/// startup period can go Ready early (kubernetes#142305): that is not told apart from a start
/// without the restart on the pod's own clock, so the reason says so (a missed bug is said; a
/// bug named on a rollout would be a confident wrong answer).
fn created_then_ready(obs: &[Obs]) -> Vec<String> {
    let mut out = Vec::new();
    let restart = obs
        .iter()
        .any(|o| matches!(o.what, What::KubeletStarted | What::KubeletStopped))
        || super::candidates::observed_downtime_s(obs).is_some();
    let unless = if restart {
        " (unless the kubelet restarted inside its startup period, kubernetes#142305: the pod's node's kubelet journal on the same clock as the watch would tell)"
    } else {
        ""
    };
    for c in obs.iter().filter(|o| matches!(o.what, What::PodCreated(_))) {
        let Some(p) = c.pod.as_deref() else {
            continue;
        };
        let changes: Vec<&Obs> = obs
            .iter()
            .filter(|o| {
                o.pod.as_deref() == Some(p)
                    && o.file == c.file
                    && matches!(o.what, What::ReadyChanged(_))
            })
            .collect();
        if let [one] = changes.as_slice() {
            if one.what == What::ReadyChanged(true) {
                out.push(format!(
                    "{p}: created in the evidence (line {}) and Ready when its container started (line {}) — a new pod starting, on every release: not a kubelet-restart effect{unless}",
                    c.line, one.line
                ));
            }
        }
    }
    out
}

/// A pod that goes NotReady after it was seen being deleted (`Terminating`, a deletion
/// timestamp): every release stops a deleting pod's containers (`SyncTerminatingPod`) and its
/// Ready goes with them — the deletion, not a restart, explains it.
fn not_ready_while_deleting(obs: &[Obs]) -> Vec<String> {
    let mut out = Vec::new();
    let mut said: Vec<&str> = Vec::new();
    for d in obs.iter().filter(|o| o.what == What::PodDeleted) {
        let Some(pod) = d.pod.as_deref() else {
            continue;
        };
        if said.contains(&pod) {
            continue;
        }
        let after = obs.iter().find(|o| {
            o.pod.as_deref() == Some(pod)
                && o.file == d.file
                && o.what == What::ReadyChanged(false)
                && o.line >= d.line
        });
        if let Some(nr) = after {
            said.push(pod);
            out.push(format!(
                "{pod}: NotReady (line {}) while it was being deleted (Terminating, line {}) — its containers are stopped by the deletion, not by a restart",
                nr.line, d.line
            ));
        }
    }
    out
}
