//! What one kubelet or kube-controller-manager log message says, once `klog` has taken its
//! time, host and source file off: the messages `replay` follows and the kubelet or controller
//! code that logs each (cited at each).

use crate::reasons::{self, On};
use crate::types::What;
use serde_json::Value as J;
use std::collections::BTreeMap;

/// A message saying the kubelet's PLEG has not relisted once since the kubelet started: the
/// PLEG's `Healthy` (`pkg/kubelet/pleg/generic.go`) says "pleg has yet to be successful" while
/// its relist time is zero, or, before that wording, "last seen active
/// 2562047h47m16.854775807s ago" (Go's largest duration: now minus a zero time). Every kubelet
/// says it in its first seconds after a start (kubernetes#69007, #122338); it lasts only while
/// the runtime has not answered since. "container runtime status check may not have completed
/// yet" (`runtimeErrors`, `pkg/kubelet/runtime.go`) alone is not this: beside a PLEG that did
/// relist (kubernetes#101056, "last seen active 16m6s ago") it is a runtime that stopped
/// answering.
pub(crate) fn pleg_never_relisted(m: &str) -> bool {
    m.contains("pleg has yet to be successful") || m.contains("2562047h47m16.854775807s")
}

/// A Go-quoted string at the start of `s` (after the opening quote): its value and the rest.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The value of `key=` in a structured klog message (quoted or bare).
pub(crate) fn value(msg: &str, key: &str) -> Option<String> {
    let pat = format!(" {key}=");
    let i = msg.find(&pat)? + pat.len();
    let rest = &msg[i..];
    match rest.strip_prefix('"') {
        Some(q) => quoted(q).map(|(v, _)| v),
        None => Some(rest.split(' ').next().unwrap_or("").to_string()),
    }
}

/// `ns/name` → `name`.
fn pod_name(v: &str) -> String {
    v.rsplit('/').next().unwrap_or(v).to_string()
}

/// A pod named `name_namespace(uid)` (pre-1.21 unstructured lines) or `ns/name`: its name.
fn old_pod(s: &str) -> String {
    let s = s.split('(').next().unwrap_or(s);
    let s = s.split(':').next().unwrap_or(s);
    match s.rsplit_once('_') {
        Some((name, _ns)) => name.to_string(),
        None => pod_name(s),
    }
}

/// The Go-quoted string after `prefix` in `m`.
fn quoted_after(m: &str, prefix: &str) -> Option<String> {
    let i = m.find(prefix)? + prefix.len();
    quoted(&m[i..]).map(|(v, _)| v)
}

/// The node condition's message in "Node became not ready" (`Message:… }` in Go's `%+v`,
/// `"message":"…"` in JSON).
fn condition_message(m: &str) -> String {
    if let Some(i) = m.find("Message:") {
        let rest = &m[i + 8..];
        return rest.trim_end().trim_end_matches('}').to_string();
    }
    if let Some(v) = quoted_after(m, "\"message\":\"") {
        return v;
    }
    String::new()
}

/// Files of kube-controller-manager whose lines are read (the node lifecycle controller, its
/// `MarkPodsNotReady`, the taint eviction).
pub(crate) fn controller_file(src: &str) -> bool {
    matches!(
        src,
        "node_lifecycle_controller.go"
            | "nodecontroller.go"
            | "controller_utils.go"
            | "taint_manager.go"
            | "taint_eviction.go"
            | "timed_workers.go"
    )
}

/// Whether a message is the event recorder's echo of an event (`Event(v1.ObjectReference{…})`,
/// or `"Event occurred"` since structured logging).
pub(crate) fn is_event_echo(m: &str) -> bool {
    m.starts_with("\"Event occurred\"") || m.starts_with("Event(")
}

/// The node an event's echo is written on: its object's name when its kind is Node
/// (`Kind:"Node", … Name:"n1"`; `object="n1" … kind="Node"`).
pub(crate) fn event_node(m: &str) -> Option<String> {
    if m.starts_with("Event(") && quoted_after(m, "Kind:\"").as_deref() == Some("Node") {
        return quoted_after(m, "Name:\"");
    }
    if m.starts_with("\"Event occurred\"") && value(m, "kind").as_deref() == Some("Node") {
        return value(m, "object").map(|o| pod_name(&o));
    }
    None
}

/// The node a node lifecycle controller's line is about: `node="n1"`, "… event message for node
/// n1", "… of pods on node [n1]" (`controller_utils.go`).
pub(crate) fn controller_node(m: &str) -> Option<String> {
    if let Some(n) = value(m, "node") {
        return Some(n);
    }
    // "Node n1 is NotReady as of …", "Node n1 is healthy again, …".
    if let Some(rest) = m.strip_prefix("Node ") {
        let (n, after) = rest.split_once(' ')?;
        if after.starts_with("is ") || after.starts_with("was ") {
            return Some(n.trim_matches('"').to_string());
        }
    }
    let (_, rest) = m
        .split_once(" for node ")
        .or_else(|| m.split_once(" on node "))?;
    let n = rest.split([' ', ',']).next()?;
    let n = n.trim_matches(|c| c == '[' || c == ']' || c == '"');
    (!n.is_empty()).then(|| n.to_string())
}

/// An event the event recorder echoes in its process's log, read through the reasons every
/// events reader shares. Its writer is the reason's when it is not the kubelet's (the node
/// lifecycle controller's NodeNotReady on a pod, the taint eviction's); "Starting kubelet." is
/// read from the kubelet's own line beside it (`server.go`).
fn event(
    reason: &str,
    kind: Option<String>,
    name: Option<String>,
    msg: &str,
) -> Vec<(Option<String>, What, Option<&'static str>)> {
    let on = match kind.as_deref() {
        Some("Pod") => On::Pod,
        Some("Node") => On::Node,
        _ => On::Any,
    };
    match reasons::said(reason, on, msg, None) {
        Some((What::KubeletStarted, "kubelet")) | None => Vec::new(),
        Some((w, by)) => {
            let writer = (!by.starts_with("kubelet")).then_some(by);
            vec![((on == On::Pod).then_some(name).flatten(), w, writer)]
        }
    }
}

/// What one klog message says: (pod, observation, writer if not the line's kubelet).
pub(crate) fn interpret(
    m: &str,
    src: &str,
    ready: &mut BTreeMap<String, bool>,
) -> Vec<(Option<String>, What, Option<&'static str>)> {
    let msg = m.strip_prefix('"').and_then(quoted).map(|(v, _)| v);
    let text = msg.as_deref().unwrap_or(m);
    let one = |p: Option<String>, w: What| vec![(p, w, None)];
    if text.starts_with("Starting kubelet") || text == "Started kubelet" {
        return one(None, What::KubeletStarted);
    }
    // OpenShift's Machine Config Daemon's own klog line as it reboots the node (its
    // `pkg/daemon/update.go` `reboot`, okd#493), beside the same words in the journal.
    if src == "update.go" && text.starts_with("initiating reboot: ") {
        if let Some(why) = mcd_reboot(Some("machine-config-daemon"), text) {
            return vec![(None, What::NodeRebooted(why), Some("machine-config-daemon"))];
        }
    }
    // The event recorder's echo of an event it writes (client-go `tools/record/event.go`:
    // `Event(v1.ObjectReference{Kind:"Node", … Name:"n1" …}): type: 'Warning' reason:
    // 'Rebooted' Node n1 has been rebooted, boot id: …`): read as the event, through the reasons
    // every events reader shares. "Starting kubelet." is said beside "Started kubelet" (server.go),
    // read above.
    if let (Some(i), true) = (m.find(" reason: '"), text.starts_with("Event(")) {
        let rest = &m[i + 10..];
        let (reason, msg) = rest
            .split_once("' ")
            .unwrap_or((rest.trim_end_matches('\''), ""));
        let field = |k: &str| quoted_after(m, &format!("{k}:\""));
        return event(reason, field("Kind"), field("Name"), msg.trim());
    }
    // The same echo since client-go's structured logging (`StartStructuredLogging`: "Event
    // occurred" object="ns/name" fieldPath="" kind="Pod" apiVersion="v1" type="Warning"
    // reason="NodeNotReady" message="Node is not ready"; the events/v1 broadcaster's
    // `StartLogging` says note= for message=): the kubelet's events in its journal, the node
    // lifecycle controller's and the taint eviction's in kube-controller-manager's log.
    if text == "Event occurred" {
        let Some(reason) = value(m, "reason") else {
            return Vec::new();
        };
        let msg = value(m, "message").or_else(|| value(m, "note"));
        let name = value(m, "object").map(|o| pod_name(&o));
        return event(
            &reason,
            value(m, "kind"),
            name,
            msg.as_deref().unwrap_or(""),
        );
    }
    // cAdvisor's machine info, logged once at the kubelet's start (`manager.go`: "Machine:
    // {NumCores:4 … BootID:f74445fe-… …}"): the boot id the kubelet records.
    if let Some(i) = m
        .find(" BootID:")
        .filter(|_| text.starts_with("Machine: {"))
    {
        let id = m[i + 8..].split([' ', '}']).next().unwrap_or("");
        return if id.is_empty() {
            Vec::new()
        } else {
            one(None, What::BootId(id.to_string()))
        };
    }
    // Before 1.21 the same line unstructured: `server.go:416] Version: v1.20.1`
    // (`klog.Infof("Version: %+v", version.Get())`).
    if src == "server.go" && text.starts_with("Version: v") {
        let v = text["Version: ".len()..]
            .split_whitespace()
            .next()
            .unwrap_or("");
        return one(None, What::KubeletVersion(v.to_string()));
    }
    if text == "Kubelet version" {
        // cmd/kubelet/app/server.go, run(): logger.Info("Kubelet version", "kubeletVersion", …),
        // logged once at every start.
        return value(m, "kubeletVersion")
            .map_or(Vec::new(), |v| one(None, What::KubeletVersion(v)));
    }
    if text == "SyncLoop (probe)" {
        // kubelet.go, syncLoopIteration: a probe result that changed. Liveness is logged only
        // when it fails (status="unhealthy"), startup as "started" or "unhealthy", readiness as
        // "ready" or, when the container's readiness is set false, "" before 1.32 and "not
        // ready" from 1.32 (kubernetes#138889 quotes 1.32+'s).
        let probe = value(m, "probe").unwrap_or_default();
        let status = value(m, "status").unwrap_or_default();
        let kind = match probe.as_str() {
            "readiness" => "Readiness",
            "liveness" => "Liveness",
            "startup" => "Startup",
            _ => return Vec::new(),
        };
        let failed = status == "unhealthy"
            || (kind == "Readiness" && (status.is_empty() || status == "not ready"));
        if !failed {
            return Vec::new();
        }
        return one(
            value(m, "pod").map(|p| pod_name(&p)),
            What::ProbeFailed(kind.into()),
        );
    }
    if text == "Probe failed" {
        let kind = value(m, "probeType").unwrap_or_else(|| "a".into());
        return one(
            value(m, "pod").map(|p| pod_name(&p)),
            What::ProbeFailed(kind),
        );
    }
    // Before 1.21 (unstructured, pkg/kubelet/prober/prober.go): `Readiness probe for
    // "web-0_default(uid):app" failed (failure): …`, or "… errored: …" when the probe could not
    // run (an exec's DeadlineExceeded): `runProbe` returns results.Failure for both.
    for kind in ["Readiness", "Liveness", "Startup"] {
        if let Some(rest) = text.strip_prefix(&format!("{kind} probe for \"")) {
            if text.contains("\" failed") || text.contains("\" errored") {
                let pod = quoted(rest).map(|(p, _)| old_pod(&p));
                return one(pod, What::ProbeFailed(kind.into()));
            }
            return Vec::new();
        }
    }
    if text == "SyncLoop (PLEG): event for pod" || text.starts_with("SyncLoop (PLEG): \"") {
        // Structured: pod="ns/name"; before 1.21: `SyncLoop (PLEG): "name_ns(uid)", event:
        // &pleg.PodLifecycleEvent{…Type:"ContainerStarted"…}`.
        let pod = value(m, "pod").map(|p| pod_name(&p)).or_else(|| {
            text.strip_prefix("SyncLoop (PLEG): \"")
                .and_then(quoted)
                .map(|(p, _)| old_pod(&p))
        });
        if m.contains("ContainerStarted") {
            return one(pod, What::ContainerStarted);
        }
        if m.contains("ContainerDied") {
            return one(pod, What::ContainerDied);
        }
        return Vec::new();
    }
    // computePodActions (pkg/kubelet/kuberuntime/kuberuntime_manager.go): "Container %s
    // definition changed" + ", will be restarted" — the container's spec hash changed.
    if let Some(i) = m.find(" definition changed") {
        let before = &m[..i];
        let c = before
            .rsplit("Container ")
            .next()
            .unwrap_or("?")
            .trim_matches('"')
            .to_string();
        let pod = value(m, "pod").map(|p| pod_name(&p)).or_else(|| {
            let j = m.find(" of pod ")? + 8;
            Some(old_pod(m[j..].split(':').next()?))
        });
        return one(pod, What::SpecChanged(c));
    }
    // kubelet.go, syncLoop: "Skipping pod synchronization" err="[container runtime is down, PLEG
    // is not healthy: …]" (before 1.21 `skipping pod synchronization - [ … ]`): the runtime is
    // not answering, so the sync loop waits for it.
    if text == "Skipping pod synchronization" || text.starts_with("skipping pod synchronization") {
        let why = value(m, "err").unwrap_or_else(|| {
            text.trim_start_matches("skipping pod synchronization")
                .trim_start_matches([' ', '-'])
                .to_string()
        });
        let why = why
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        // Said once until the reason changes (the loop says it every second).
        if ready.insert(format!("\u{0}skip {why}"), true).is_some() {
            return Vec::new();
        }
        return one(None, What::RuntimeDown(why));
    }
    // kubelet.go, updateRuntimeUp: "Container runtime sanity check failed" err="rpc error: code
    // = Unavailable …" (before 1.21 `Container runtime sanity check failed: …`); and a CRI call
    // the runtime does not answer (remote_runtime.go: "ListPodSandbox with filter nil from
    // runtime service failed: rpc error: code = Unavailable desc = … connection is
    // unavailable"; "ListPodSandbox with filter from runtime service failed" since structured
    // logging; the Evented PLEG's "GetContainerEvents failed to get streaming client", a line the
    // paste cut after `code = Unavaila`); and gRPC's own reconnect lines to the runtime's socket
    // (`clientconn.go`: "grpc: addrConn.createTransport failed to connect to
    // {unix:///run/containerd/containerd.sock …}. … Reconnecting..."): the runtime is down or
    // restarting. Said once until the reason changes.
    let unavailable = m.contains("code = Unavaila");
    let cri_unavailable = (unavailable
        && (text.contains("from runtime service failed")
            || text.starts_with("GetContainerEvents failed")))
        || (text.contains("createTransport failed to connect to")
            && ["containerd.sock", "crio.sock", "dockershim.sock"]
                .iter()
                .any(|s| m.contains(s)));
    if text.starts_with("Container runtime sanity check failed") || cri_unavailable {
        let why = value(m, "err")
            .unwrap_or_else(|| text.split_once(": ").map_or(text, |(_, r)| r).to_string());
        let why = if cri_unavailable {
            format!("container runtime not answering: {why}")
        } else {
            format!("container runtime sanity check failed: {why}")
        };
        let key = if cri_unavailable {
            "\u{0}cri-unavailable".to_string()
        } else {
            format!("\u{0}sanity {why}")
        };
        if ready.insert(key, true).is_some() {
            return Vec::new();
        }
        return one(None, What::RuntimeDown(why));
    }
    // pkg/kubelet/nodestatus/setters.go: "Node became not ready" node=… condition={…}; before
    // 1.21 `Node became not ready: {Type:Ready Status:False … Message:…}`.
    if text == "Node became not ready" || text.starts_with("Node became not ready:") {
        return vec![(None, What::NodeNotReadyBecause(condition_message(m)), None)];
    }
    // kubelet.go, updateRuntimeUp: `Container runtime network not ready: NetworkReady=false …`
    // (structured since 1.21: networkReady="…"). The node status setter then writes Ready False
    // with "container runtime network not ready: …" (nodestatus/setters.go, ReadyCondition): the
    // CNI, not a restart. Said once until the message changes.
    if text.starts_with("Container runtime network not ready") {
        let why = value(m, "networkReady").unwrap_or_else(|| {
            text.trim_start_matches("Container runtime network not ready")
                .trim_start_matches(':')
                .trim()
                .to_string()
        });
        let msg = format!("container runtime network not ready: {why}");
        let key = format!("\u{0}network {msg}");
        if ready.insert(key, true).is_some() {
            return Vec::new();
        }
        return vec![(None, What::NodeNotReadyBecause(msg), None)];
    }
    // The kubelet's own event line (kubelet_node_status.go) and the node lifecycle
    // controller's ("Recording status change NodeNotReady event message for node …").
    if text.starts_with("Recording NodeNotReady event message for node") {
        return one(None, What::NodeReady(false));
    }
    if text.starts_with("Recording status change NodeNotReady event message for node")
        || text == "Recording status change event message for node" && m.contains("NodeNotReady")
    {
        return vec![(None, What::NodeReady(false), Some("node-controller"))];
    }
    // The node lifecycle controller's taint queue (`node_lifecycle_controller.go`
    // `processTaintBaseEviction`, V(2)): "Node is NotReady. Adding it to the Taint queue"
    // node="n1" (before structured logging: "Node n1 is NotReady as of T. Adding it to the Taint
    // queue."), "Node is unresponsive. …" (Ready Unknown: "Kubelet stopped posting node
    // status."), "Node is healthy again, removed all taints" ("Node n1 is healthy again,
    // removing all taints"). Said every monitor period while it lasts: once until it changes.
    if text.contains("Adding it to the Taint queue") || text.contains("is healthy again, remov") {
        let what = if text.contains("is healthy again") {
            What::NodeReady(true)
        } else if text.contains("is unresponsive") {
            What::NodeNotReadyBecause("Kubelet stopped posting node status.".into())
        } else if text.contains("is NotReady") {
            What::NodeReady(false)
        } else {
            return Vec::new();
        };
        let node = controller_node(m).unwrap_or_default();
        let healthy = what == What::NodeReady(true);
        if ready.insert(format!("\u{0}taint {node}"), healthy) == Some(healthy) {
            return Vec::new();
        }
        return vec![(None, what, Some("node-controller"))];
    }
    // The kubelet's graceful node shutdown (`nodeshutdown_manager_linux.go`, V(1)): logind's
    // PrepareForShutdown seen ("Shutdown manager detected new shutdown event", said twice), then
    // each pod killed ("Shutdown manager killing pod with gracePeriod" pod="ns/name"): the node
    // is shutting down (a reboot or a power-off follows).
    if text.starts_with("Shutdown manager detected new shutdown event") {
        if ready.insert("\u{0}shutdown".into(), true).is_some() {
            return Vec::new();
        }
        return one(
            None,
            What::PodMessage {
                reason: "Shutdown".into(),
                message: crate::reasons::SHUTDOWN_BEGAN.into(),
            },
        );
    }
    if text.starts_with("Shutdown manager killing pod") {
        return one(
            value(m, "pod").map(|p| pod_name(&p)),
            What::PodMessage {
                reason: "Shutdown".into(),
                message: "killed by the kubelet's graceful node shutdown".into(),
            },
        );
    }
    // MarkPodsNotReady (pkg/controller/util/node/controller_utils.go).
    if text.starts_with("Updating ready status of pod") {
        let pod = value(m, "pod").map(|p| pod_name(&p)).or_else(|| {
            text.strip_prefix("Updating ready status of pod ")
                .and_then(|r| r.split(' ').next())
                .filter(|p| *p != "to")
                .map(pod_name)
        });
        return vec![(pod, What::ControllerNotReady, Some("node-controller"))];
    }
    // kubelet.go, syncLoopIteration: the pod left the kubelet's API source (deleted), logged at
    // V(2) with `pods` a list (klog.KObjSlice: `[ns/name]`, in JSON `[{"name":…}]`).
    if text == "SyncLoop REMOVE" {
        let pods = value(m, "pods").unwrap_or_default();
        let first = pods
            .split("\"name\":\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .map(str::to_string)
            .or_else(|| {
                pods.trim_matches(|c| c == '[' || c == ']')
                    .split([' ', ','])
                    .next()
                    .filter(|p| !p.is_empty())
                    .map(pod_name)
            });
        return one(first, What::PodDeleted);
    }
    // MarkAllPodsNotReady (the same file): the node's pods, not named ("Update ready status of
    // pods on node [X]", kubernetes#85221).
    if text.starts_with("Update ready status of pods on node") {
        return vec![(None, What::ControllerNotReady, Some("node-controller"))];
    }
    // The taint eviction (taint_manager.go / taint_eviction.go).
    if text.contains("is deleting pod")
        || text.contains("is deleting Pod")
        || (text == "Deleting pod" && controller_file(src))
    {
        let pod = value(m, "pod")
            .or_else(|| text.rsplit(": ").next().map(str::to_string))
            .map(|p| pod_name(&p));
        return vec![
            (
                pod.clone(),
                What::PodMessage {
                    reason: "TaintManagerEviction".into(),
                    message: "deleted by the taint eviction (NoExecute)".into(),
                },
                Some("taint-eviction-controller"),
            ),
            (pod, What::PodDeleted, Some("taint-eviction-controller")),
        ];
    }
    if text == "Patch status for pod" {
        let pod = value(m, "pod").map(|p| pod_name(&p));
        let patch: Option<J> = value(m, "patch").and_then(|p| serde_json::from_str(&p).ok());
        let status = patch.as_ref().and_then(|p| p.get("status"));
        // "Pod was rejected: …": the admission's message (kubelet.go, rejectPod) with phase
        // Failed — what the pod says, not a Ready write.
        let said = status.and_then(|st| {
            let message = st.get("message")?.as_str()?.to_string();
            let reason = st
                .get("reason")
                .and_then(J::as_str)
                .unwrap_or("")
                .to_string();
            Some((reason, message))
        });
        if let Some((reason, message)) = said {
            let mut out = vec![(pod.clone(), What::PodMessage { reason, message }, None)];
            if status.and_then(|s| s.get("phase")).and_then(J::as_str) == Some("Failed") {
                out.push((pod, What::PodPhase("Failed".into()), None));
            }
            return out;
        }
        let r = status.and_then(|st| {
            st.get("conditions")?
                .as_array()?
                .iter()
                .find(|c| c.get("type").and_then(J::as_str) == Some("Ready"))?
                .get("status")?
                .as_str()
                .map(|s| s == "True")
        });
        return match (pod, r) {
            (Some(p), Some(r)) => match ready.insert(p.clone(), r) {
                None => one(Some(p), What::ReadyAtStart(r)),
                Some(was) if was != r => one(Some(p), What::ReadyChanged(r)),
                Some(_) => Vec::new(),
            },
            (p, _) => one(p, What::StatusWritten),
        };
    }
    Vec::new()
}

/// OpenShift's Machine Config Daemon rebooting its node (machine-config-operator's
/// `pkg/daemon/update.go` `reboot`: `logSystem("initiating reboot: %s", rationale)`, "machine-config
/// -daemon initiating reboot: …" before 4.6), written to the journal through `logger` (`root[81741]:
/// machine-config-daemon[70704]: initiating reboot: …`) or as its own process: the words.
pub(crate) fn mcd_reboot(proc_: Option<&str>, m: &str) -> Option<String> {
    let mcd = proc_ == Some("machine-config-daemon") || m.starts_with("machine-config-daemon");
    let (_, why) = m.split_once("initiating reboot: ")?;
    mcd.then(|| format!("machine-config-daemon: initiating reboot: {why}"))
}
