//! The event reasons the readers follow, as data: one row per reason, with the object it is
//! written on, what it says, its writer, the first release that writes it and where its writer's
//! constant lives. The kubelet's reasons are the constants of `pkg/kubelet/events/event.go`
//! (`StartedContainer = "Started"`, `KillingContainer = "Killing"`, `StartingKubelet =
//! "Starting"`, `NodeRebooted = "Rebooted"`, `SandboxChanged = "SandboxChanged"`,
//! `ContainerGCFailed = "ContainerGCFailed"` …); before 1.0 the kubelet wrote them lower-case
//! (`killing`, `started`, `starting`: kubectl's output of 2015), so a reason is looked up without
//! regard to case. Every events reader (`events.rs` for `-o json|yaml`, `events_table.rs` for the
//! table, `describe.rs` for describe's Events) reads its rows through `said`: a reason the
//! kubelet gains in a release is one row here.
//!
//! Below the readers, above `types`: it imports nothing else of the crate.

use crate::types::What;

/// The object an event is written on, as its reader knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Pod,
    Node,
    /// Either (an event whose object the paste does not say, or one written on both).
    Any,
}

/// What a reason says, once its message is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Says {
    /// `Unhealthy`: "Readiness probe failed: …" — the probe type from the message.
    Probe,
    /// `Killing`: a container killed; "Container app definition changed, will be restarted"
    /// (`computePodActions` in `kuberuntime_manager.go`) is a spec-hash restart.
    Killing,
    Started,
    /// `Starting` on a node: "Starting kubelet." is the kubelet's (`kubelet.go`
    /// `BirthCry`); "Starting kube-proxy." (or no message, from kube-proxy) is kube-proxy's
    /// (`cmd/kube-proxy/app/server.go` `birthCry`).
    Starting,
    /// `NodeNotReady`: on a node the node's Ready False (the kubelet's or the node lifecycle
    /// controller's `RecordNodeStatusChange`); on a pod the controller's `MarkPodsNotReady`.
    NodeNotReady,
    NodeReady,
    /// "Node n1 has been rebooted, boot id: …" (`kubelet_node_status.go`, when the boot id it
    /// records changes).
    Rebooted,
    /// "Pod sandbox changed, it will be killed and re-created." (`kuberuntime_manager.go`
    /// `computePodActions`: the pod's sandbox is gone or not ready, as after a node reboot or
    /// a runtime that lost it).
    SandboxChanged,
    /// `ContainerGCFailed` (`kubelet.go` `StartGarbageCollection`): when its message says the
    /// runtime's socket refused or the CRI call was `Unavailable`, the runtime was not answering.
    GcFailed,
    /// What the pod says about itself: an OOM kill, an eviction, a preemption.
    PodMessage,
    /// Nothing the model follows, but the event is written only on a node (describe's Events
    /// pasted without `Roles:` are a node's).
    NodeOnly,
    /// `Shutdown` on a node (`nodeshutdown_manager_linux.go`, 1.23 on): "Shutdown manager
    /// detected shutdown event" (logind's PrepareForShutdown: the graceful node shutdown
    /// begins) or "… shutdown cancellation".
    Shutdown,
    /// node-problem-detector's systemd-monitor saw systemd start a unit (its rules match
    /// systemd's "Started Kubernetes kubelet." and "Starting containerd container runtime..."
    /// in the journal): `KubeletStart`, `DockerStart`, `ContainerdStart`.
    UnitStarted,
}

/// One reason as a writer writes it.
pub struct Reason {
    pub reason: &'static str,
    pub on: On,
    pub says: Says,
    /// The writer when the row does not say (`kubelet`, `node-controller` …).
    pub by: &'static str,
    /// The oldest release this row was checked against: the reason is in that release's
    /// `source` (event.go of 1.7, 2017, holds every kubelet constant here but SandboxChanged,
    /// which kuberuntime wrote from 1.6 and 1.7.14's events show; before 1.0 the same reasons
    /// were lower-case).
    pub since: &'static str,
    /// Where the reason's constant lives (the kubelet's: `pkg/kubelet/events/event.go`).
    pub source: &'static str,
}

const KUBELET: &str = "pkg/kubelet/events/event.go";
const NPD_SYSTEMD: &str = "node-problem-detector config/systemd-monitor.json";

/// The reasons read. A reason not here is counted as skipped by its reader.
pub const REASONS: [Reason; 19] = [
    Reason {
        reason: "Unhealthy",
        on: On::Pod,
        says: Says::Probe,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "Killing",
        on: On::Pod,
        says: Says::Killing,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "Started",
        on: On::Pod,
        says: Says::Started,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "Starting",
        on: On::Node,
        says: Says::Starting,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "NodeNotReady",
        on: On::Any,
        says: Says::NodeNotReady,
        by: "kubelet or node-controller",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "NodeReady",
        on: On::Node,
        says: Says::NodeReady,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "Rebooted",
        on: On::Node,
        says: Says::Rebooted,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "SandboxChanged",
        on: On::Pod,
        says: Says::SandboxChanged,
        by: "kubelet",
        since: "1.6",
        source: KUBELET,
    },
    Reason {
        reason: "ContainerGCFailed",
        on: On::Node,
        says: Says::GcFailed,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
    Reason {
        reason: "Preempting",
        on: On::Pod,
        says: Says::PodMessage,
        by: "kubelet",
        since: "1.8",
        source: KUBELET,
    },
    Reason {
        reason: "Evicted",
        on: On::Pod,
        says: Says::PodMessage,
        by: "kubelet",
        since: "1.7",
        source: "pkg/kubelet/eviction/eviction_manager.go",
    },
    Reason {
        reason: "OOMKilling",
        on: On::Any,
        says: Says::PodMessage,
        by: "kernel-monitor",
        since: "1.7",
        source: "node-problem-detector config/kernel-monitor.json",
    },
    Reason {
        reason: "TaintManagerEviction",
        on: On::Pod,
        says: Says::PodMessage,
        by: "taint-eviction-controller",
        since: "1.7",
        source: "pkg/controller/tainteviction/taint_eviction.go",
    },
    Reason {
        reason: "Shutdown",
        on: On::Node,
        says: Says::Shutdown,
        by: "kubelet",
        since: "1.23",
        source: "pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go",
    },
    // The node lifecycle controller's "Node n1 event: Registered Node n1 in Controller" and the
    // kubelet's "Updated Node Allocatable limit across pods" say the object is a node (and
    // nothing the model follows).
    Reason {
        reason: "RegisteredNode",
        on: On::Node,
        says: Says::NodeOnly,
        by: "node-controller",
        since: "1.7",
        source: "pkg/controller/nodelifecycle/node_lifecycle_controller.go",
    },
    // node-problem-detector's systemd-monitor (`config/systemd-monitor.json`,
    // node-problem-detector#292, 2019): an event on the node each time systemd starts the
    // kubelet, dockerd or containerd, at boot and at every restart. GKE, AKS and kOps nodes run
    // it; kube-up's GCE nodes run NPD v0.8.0, which has it, beside crictl v1.16.1.
    Reason {
        reason: "KubeletStart",
        on: On::Node,
        says: Says::UnitStarted,
        by: "systemd-monitor",
        since: "1.17",
        source: NPD_SYSTEMD,
    },
    Reason {
        reason: "DockerStart",
        on: On::Node,
        says: Says::UnitStarted,
        by: "systemd-monitor",
        since: "1.17",
        source: NPD_SYSTEMD,
    },
    Reason {
        reason: "ContainerdStart",
        on: On::Node,
        says: Says::UnitStarted,
        by: "systemd-monitor",
        since: "1.17",
        source: NPD_SYSTEMD,
    },
    Reason {
        reason: "NodeAllocatableEnforced",
        on: On::Node,
        says: Says::NodeOnly,
        by: "kubelet",
        since: "1.7",
        source: KUBELET,
    },
];

/// The row for a reason, as spelled in any release (before 1.0 lower-case).
pub fn reason(r: &str) -> Option<&'static Reason> {
    REASONS.iter().find(|x| x.reason.eq_ignore_ascii_case(r))
}

/// Whether an event of this reason is one only a node has (describe's Events pasted without
/// `Roles:`): the kubelet's Rebooted, "Starting kubelet.", the node controller's RegisteredNode,
/// NodeAllocatableEnforced, and the node status setters' "Node n1 status is now: …".
pub(crate) fn node_only(r: &str, message: &str) -> bool {
    let row = reason(r).filter(|x| x.on == On::Node);
    match row.map(|x| x.says) {
        Some(Says::Starting) => {
            message.starts_with("Starting kubelet") || message.starts_with("Starting kube-proxy")
        }
        Some(_) => true,
        None => message.starts_with("Node ") && message.contains(" status is now: "),
    }
}

/// The graceful node shutdown's beginning, as every reader says it (the kubelet's log line and
/// its `Shutdown` event alike).
pub(crate) const SHUTDOWN_BEGAN: &str =
    "the kubelet's graceful node shutdown began: logind said the node is shutting down";

/// The node a node's event names in its message: the node status setters' "Node n1 status is
/// now: …" (`recordNodeStatusEvent`), the kubelet's "Node n1 has been rebooted, boot id: …"
/// (`kubelet_node_status.go`), the node controller's "Node n1 event: Registered Node n1 in
/// Controller". A name a reporter redacted with spaces (`<REDACTED agentName>-1`) is kept whole.
pub(crate) fn node_in_message(msg: &str) -> Option<String> {
    let rest = msg.strip_prefix("Node ")?;
    let end = [" status is now:", " has been rebooted", " event: "]
        .iter()
        .find_map(|s| rest.find(s))?;
    let n = rest[..end].trim();
    (!n.is_empty()).then(|| n.to_string())
}

/// The boot id in the kubelet's `Rebooted` event ("Node n1 has been rebooted, boot id: ID"),
/// else the whole message.
pub(crate) fn boot_id(msg: &str) -> String {
    match msg.split_once("boot id:") {
        Some((_, id)) => id.trim().to_string(),
        None => msg.trim().to_string(),
    }
}

/// A message that says the container runtime did not answer (its socket refused, the CRI call
/// `Unavailable`, dockerd not reachable).
pub(crate) fn runtime_unreachable(msg: &str) -> bool {
    msg.contains("code = Unavailable")
        || (msg.contains(".sock") && msg.contains("connection refused"))
        || msg.contains("Cannot connect to the Docker daemon")
        || msg.contains("Is the docker daemon running?")
}

/// What an event says: (the observation, its writer when the row names none), or `None` for a
/// reason not followed. `on`: the event's object as the reader knows it; `by`: its source
/// component if the row names one.
pub(crate) fn said(
    reason_: &str,
    on: On,
    message: &str,
    by: Option<&str>,
) -> Option<(What, &'static str)> {
    // An admission rejection, whatever the reason ("OutOfcpu", "NodeAffinity" …): the kubelet's
    // `rejectPod` (kubelet.go).
    if message.starts_with("Pod was rejected") && on != On::Node {
        return Some((
            What::PodMessage {
                reason: reason_.to_string(),
                message: message.to_string(),
            },
            "kubelet",
        ));
    }
    let r = reason(reason_)?;
    if r.on != On::Any && on != On::Any && r.on != on {
        return None;
    }
    let what = match r.says {
        Says::Probe => {
            let lower = message.to_ascii_lowercase();
            let kind = ["Readiness", "Liveness", "Startup"]
                .into_iter()
                .find(|k| lower.starts_with(&k.to_ascii_lowercase()))?;
            What::ProbeFailed(kind.into())
        }
        Says::Killing if message.contains("definition changed") => What::SpecChanged(
            message
                .strip_prefix("Container ")
                .and_then(|m| m.split(' ').next())
                .unwrap_or("?")
                .to_string(),
        ),
        // Before 1.13 (`computePodActions`): "Killing container with id docker://redis:Container
        // spec hash changed (1795437233 vs 2346900602).. Container will be killed and
        // recreated." (kubernetes#72296, a 1.11 → 1.12 upgrade).
        Says::Killing if message.contains("spec hash changed") => What::SpecChanged(
            message
                .split_once(" id ")
                .map(|(_, r)| r.split_once("://").map_or(r, |(_, n)| n))
                .and_then(|r| r.split(':').next())
                .unwrap_or("?")
                .to_string(),
        ),
        Says::Killing => What::ContainerDied,
        Says::Started => What::ContainerStarted,
        Says::Starting => {
            let proxy = message.starts_with("Starting kube-proxy")
                || by.is_some_and(|b| b.starts_with("kube-proxy"));
            if proxy {
                return Some((What::ProxyStarted, "kube-proxy"));
            }
            if !(message.starts_with("Starting kubelet") || by == Some("kubelet")) {
                return None;
            }
            What::KubeletStarted
        }
        Says::NodeNotReady if on == On::Pod => {
            return Some((What::ControllerNotReady, "node-controller"))
        }
        Says::NodeNotReady => What::NodeReady(false),
        Says::NodeOnly => return None,
        Says::NodeReady => What::NodeReady(true),
        Says::Rebooted => What::NodeRebooted(boot_id(message)),
        Says::SandboxChanged => What::SandboxChanged,
        Says::GcFailed if runtime_unreachable(message) => {
            What::RuntimeDown(format!("container runtime not answering: {message}"))
        }
        Says::GcFailed => return None,
        Says::UnitStarted => {
            let unit = r.reason.trim_end_matches("Start").to_ascii_lowercase();
            match unit.as_str() {
                "kubelet" => What::KubeletStarted,
                "docker" => What::RuntimeStarted("dockerd".into()),
                _ => What::RuntimeStarted(unit),
            }
        }
        // A shutdown logind cancelled: the node did not go down.
        Says::Shutdown if message.contains("cancellation") => return None,
        Says::Shutdown => What::PodMessage {
            reason: r.reason.to_string(),
            message: SHUTDOWN_BEGAN.to_string(),
        },
        Says::PodMessage => What::PodMessage {
            reason: r.reason.to_string(),
            message: message.to_string(),
        },
    };
    Some((what, r.by))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row names its writer's source and a release; reasons are unique.
    #[test]
    fn every_reason_cites_its_source() {
        for (i, r) in REASONS.iter().enumerate() {
            assert!(
                r.source.contains('/') || r.source.contains(' '),
                "{}",
                r.reason
            );
            assert!(r.since.starts_with("1."), "{}", r.reason);
            assert!(
                REASONS[..i].iter().all(|x| x.reason != r.reason),
                "{}",
                r.reason
            );
        }
    }

    #[test]
    fn reasons_of_every_release() {
        // Before 1.0, lower-case.
        assert_eq!(
            said("killing", On::Pod, "Killing 0b7743…", None).map(|x| x.0),
            Some(What::ContainerDied)
        );
        assert_eq!(
            said("starting", On::Node, "Starting kubelet.", None).map(|x| x.0),
            Some(What::KubeletStarted)
        );
        assert_eq!(
            said("Starting", On::Node, "", Some("kube-proxy")).map(|x| x.0),
            Some(What::ProxyStarted)
        );
        assert_eq!(
            said(
                "SandboxChanged",
                On::Pod,
                "Pod sandbox changed, it will be killed and re-created.",
                None
            )
            .map(|x| x.0),
            Some(What::SandboxChanged)
        );
        let gc = "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused\"";
        assert!(matches!(
            said("ContainerGCFailed", On::Node, gc, None).map(|x| x.0),
            Some(What::RuntimeDown(m)) if m.starts_with("container runtime not answering")
        ));
        assert_eq!(said("ContainerGCFailed", On::Node, "no space", None), None);
        // node-problem-detector's systemd-monitor, on the node.
        assert_eq!(
            said(
                "KubeletStart",
                On::Node,
                "Started Kubernetes kubelet.",
                None
            ),
            Some((What::KubeletStarted, "systemd-monitor"))
        );
        assert_eq!(
            said(
                "DockerStart",
                On::Any,
                "Starting Docker Application Container Engine...",
                None
            )
            .map(|x| x.0),
            Some(What::RuntimeStarted("dockerd".into()))
        );
        assert_eq!(said("ContainerdStart", On::Pod, "", None), None);
        assert_eq!(said("Started", On::Node, "", None), None);
    }
}
