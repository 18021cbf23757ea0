//! The kubelet's log: klog lines (`I1201 10:00:00.123456    1234 file.go:123] "msg" k="v"`),
//! alone or behind journald's prefix (`Mar 08 19:24:47 host kubelet[202]: …`, also
//! `hyperkube[pid]` and `Jul 05 17:47:52.807876 host …`), and systemd's own lines about the
//! kubelet unit. Read: the kubelet starting ("Starting kubelet…", systemd "Started kubelet"),
//! its version (`"Kubelet version" kubeletVersion="v1.34.3"`, from `cmd/kubelet/app/server.go`),
//! stopping (systemd "Stopping kubelet"/"Stopped kubelet"), `"Probe failed"`, `"SyncLoop
//! (PLEG): event for pod"` (ContainerStarted / ContainerDied) and the status manager's
//! `"Patch status for pod"` (its patch's Ready condition and container statuses), `"Skipping pod
//! synchronization"` (the runtime down or PLEG unhealthy). klog has no
//! year: times are milliseconds since 1 January.

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use serde_json::Value as J;
use std::collections::BTreeMap;

struct Line<'a> {
    t_ms: i64,
    host: Option<&'a str>,
    /// The process (`kubelet`, `systemd`, `hyperkube`) when journald names it.
    proc_: Option<&'a str>,
    /// klog's message and key/values, or the whole text after the journal prefix.
    msg: &'a str,
    klog: bool,
    /// klog's source file (`prober.go`, `node_lifecycle_controller.go`).
    src: &'a str,
}

/// journald's prefix: (time, host, process, rest).
fn journal(l: &str) -> Option<(i64, &str, &str, &str)> {
    let mut it = l.splitn(6, ' ').filter(|x| !x.is_empty());
    let (mon, day, hms) = (it.next()?, it.next()?, it.next()?);
    let t = time::journal(mon, day, hms)?;
    let rest = l.split_once(hms)?.1.trim_start();
    let (host, rest) = rest.split_once(' ')?;
    let (proc_, rest) = rest.split_once(": ")?;
    let name = proc_.split('[').next().unwrap_or(proc_);
    Some((t, host, name, rest))
}

/// klog's header: (time, source file, message after `] `).
fn header(l: &str) -> Option<(i64, &str, &str)> {
    let b = l.as_bytes();
    if b.len() < 22 || !matches!(b[0], b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    let mmdd = l.get(1..5)?;
    let rest = l.get(5..)?.strip_prefix(' ')?;
    let (hms, rest) = rest.split_once(' ')?;
    let t = time::klog(mmdd, hms)?;
    let rest = rest.trim_start();
    let (pid, rest) = rest.split_once(' ')?;
    if !pid.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (file, msg) = rest.split_once("] ")?;
    Some((t, file.split(':').next().unwrap_or(file), msg))
}

/// A syslog priority forwarded with the line (`<30>Mar 19 …`).
fn strip_priority(l: &str) -> &str {
    match l.strip_prefix('<').and_then(|r| r.split_once('>')) {
        Some((p, rest)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => l,
    }
}

fn parse_plain(l: &str) -> Option<Line<'_>> {
    if let Some((t, host, p, rest)) = journal(l) {
        return Some(match header(rest) {
            Some((t, src, msg)) => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg,
                klog: true,
                src,
            },
            None => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg: rest,
                klog: false,
                src: "",
            },
        });
    }
    header(l).map(|(t, src, msg)| Line {
        t_ms: t,
        host: None,
        proc_: None,
        msg,
        klog: true,
        src,
    })
}

/// A klog or journald line, behind a syslog priority (`<30>`) or a per-line host prefix as
/// collectors and `pssh`/`ansible` print them (`10.0.0.3: I0319 …`).
fn parse(l: &str) -> Option<Line<'_>> {
    let l = strip_priority(l.trim_start());
    if let Some(x) = parse_plain(l) {
        return Some(x);
    }
    let (host, rest) = l.split_once(": ")?;
    if host.is_empty() || host.contains(' ') || host.len() > 64 {
        return None;
    }
    let mut x = parse_plain(strip_priority(rest.trim_start()))?;
    x.host = x.host.or(Some(host));
    Some(x)
}

/// A `--logging-format=json` line (`ts` in ms or s since the epoch): (ms since the epoch, the message in klog's text form:
/// `"msg" key="value" …`, a `pod` object as `ns/name`).
fn json_line(l: &str) -> Option<(i64, String, String)> {
    let v: J = serde_json::from_str(l.trim()).ok()?;
    let o = v.as_object()?;
    let ts = o.get("ts")?.as_f64()?;
    let msg = o.get("msg")?.as_str()?;
    let caller = o
        .get("caller")
        .and_then(J::as_str)
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("")
        .to_string();
    let mut out = format!("{msg:?}");
    for (k, x) in o {
        if matches!(k.as_str(), "ts" | "msg" | "caller" | "v") {
            continue;
        }
        let val = match x {
            J::String(s) => s.clone(),
            J::Object(p) if p.contains_key("name") => format!(
                "{}/{}",
                p.get("namespace").and_then(J::as_str).unwrap_or(""),
                p.get("name").and_then(J::as_str).unwrap_or("")
            ),
            other => other.to_string(),
        };
        out.push_str(&format!(" {k}={val:?}"));
    }
    // component-base's JSON logger writes `ts` in milliseconds since the epoch
    // (zapcore.EpochMillisTimeEncoder); KEP-1602's examples show seconds: take either.
    let ms = if ts > 1e11 { ts } else { ts * 1000.0 };
    Some((ms as i64, out, caller))
}

/// A `--logging-format=json` kubelet line.
pub(crate) fn is_json_line(first: &str) -> bool {
    first.starts_with('{') && first.contains("\"ts\"") && first.contains("\"msg\"")
}

pub(crate) fn looks_like(first: &str) -> bool {
    parse(first).is_some() || is_json_line(first)
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
fn value(msg: &str, key: &str) -> Option<String> {
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
fn controller_file(src: &str) -> bool {
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

/// What one klog message says: (pod, observation, writer if not the line's kubelet).
fn interpret(
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
    if text == "Kubelet version" {
        // cmd/kubelet/app/server.go, run(): logger.Info("Kubelet version", "kubeletVersion", …),
        // logged once at every start.
        return value(m, "kubeletVersion")
            .map_or(Vec::new(), |v| one(None, What::KubeletVersion(v)));
    }
    if text == "Probe failed" {
        let kind = value(m, "probeType").unwrap_or_else(|| "a".into());
        return one(
            value(m, "pod").map(|p| pod_name(&p)),
            What::ProbeFailed(kind),
        );
    }
    // Before 1.21 (unstructured, pkg/kubelet/prober/prober.go): `Readiness probe for
    // "web-0_default(uid):app" failed (failure): …`.
    for kind in ["Readiness", "Liveness", "Startup"] {
        if let Some(rest) = text.strip_prefix(&format!("{kind} probe for \"")) {
            if text.contains("\" failed") {
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

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::Klog, true);
    ev.yearless = true;
    let mut ready: BTreeMap<String, bool> = BTreeMap::new();
    let (mut kubelet_lines, mut controller_lines, mut json_lines) = (0, 0, 0);
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || is_comment(raw) {
            continue;
        }
        let owned = if is_json_line(raw.trim_start()) {
            json_line(raw)
        } else {
            None
        };
        // The same JSON behind journald's prefix (`… kubelet[5656]: {"ts":…}`): its `ts` is the
        // kubelet's own, with a year.
        let behind = match owned {
            None => parse(raw)
                .filter(|l| !l.klog && is_json_line(l.msg))
                .and_then(|l| Some((json_line(l.msg)?, l.host, l.proc_))),
            Some(_) => None,
        };
        let l = match (&owned, &behind) {
            (Some((t, msg, src)), _) | (None, Some(((t, msg, src), _, _))) => {
                json_lines += 1;
                let (host, proc_) = behind.as_ref().map_or((None, None), |b| (b.1, b.2));
                Line {
                    t_ms: *t,
                    host,
                    proc_,
                    msg,
                    klog: true,
                    src,
                }
            }
            (None, None) => match parse(raw) {
                Some(l) => l,
                None => {
                    ev.unread.push(Unread {
                        line,
                        file: 0,
                        why: "not a klog line (I1201 10:00:00.123456 1234 file.go:1] …), a journald line (Mar 08 19:24:47 host kubelet[1]: …) nor a --logging-format=json line".into(),
                        text: cut(raw),
                    });
                    continue;
                }
            },
        };
        let controller = controller_file(l.src) || l.proc_ == Some("kube-controller-manager");
        let by = Some(match (controller, l.host) {
            (true, _) => "kube-controller-manager".to_string(),
            (false, Some(h)) => format!("system:node:{h}"),
            (false, None) => "kubelet".to_string(),
        });
        let node = l.host.map(str::to_string);
        let m = l.msg;
        let said: Vec<(Option<String>, What, Option<&'static str>)> = if !l.klog {
            let about_kubelet = m.contains("kubelet");
            if l.proc_ == Some("systemd") && about_kubelet && m.starts_with("Stopp") {
                vec![(None, What::KubeletStopped, None)]
            } else if l.proc_ == Some("systemd") && about_kubelet && m.starts_with("Started") {
                vec![(None, What::KubeletStarted, None)]
            } else {
                Vec::new()
            }
        } else {
            interpret(m, l.src, &mut ready)
        };
        if said.is_empty() {
            ev.skipped += 1;
            continue;
        }
        for (pod, what, writer) in said {
            if writer.is_some() || controller {
                controller_lines += 1;
            } else {
                kubelet_lines += 1;
            }
            ev.obs.push(Obs {
                t_ms: l.t_ms,
                pod,
                node: node.clone(),
                what,
                by: writer.map(str::to_string).or_else(|| by.clone()),
                line,
                file: 0,
            });
        }
    }
    if controller_lines > 0 && kubelet_lines == 0 {
        ev.format = Format::ControllerLog;
    }
    if json_lines > 0 {
        // `ts` is seconds since the epoch: these times have their year.
        ev.yearless = false;
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `--logging-format=json` line and a "Pod was rejected" status patch, laid out as the
    /// kubelet writes them (no real line of either was found in public reports): field names from
    /// `prober.go` (`probeType`, `pod` as an object under JSON) and `status_manager.go`.
    #[test]
    fn json_line_and_rejected_patch() {
        let j = r#"{"ts":1700000000123.5,"caller":"prober/prober.go:107","msg":"Probe failed","v":0,"probeType":"Readiness","pod":{"name":"web-0","namespace":"default"},"containerName":"app","probeResult":"failure"}"#;
        let ev = read(j);
        assert_eq!(ev.obs[0].what, What::ProbeFailed("Readiness".into()));
        assert_eq!(ev.obs[0].pod.as_deref(), Some("web-0"));
        assert_eq!(ev.obs[0].t_ms, 1_700_000_000_123);
        assert!(!ev.yearless);
        let p = r#"I0319 10:00:00.000000    1234 status_manager.go:874] "Patch status for pod" pod="default/web-0" patch="{\"status\":{\"message\":\"Pod was rejected: Node didn't have enough resource: cpu\",\"phase\":\"Failed\",\"reason\":\"OutOfcpu\"}}""#;
        let ev = read(p);
        assert!(
            matches!(&ev.obs[0].what, What::PodMessage { reason, message } if reason == "OutOfcpu" && message.starts_with("Pod was rejected")),
            "{:?}",
            ev.obs
        );
        assert_eq!(ev.obs[1].what, What::PodPhase("Failed".into()));
    }

    #[test]
    fn journal_and_bare_klog() {
        let l = parse(r#"Mar 08 19:24:47 kind-worker kubelet[202]: I0308 19:24:47.410550     202 pod_workers.go:638] "Pod is being removed by the kubelet, begin teardown" pod="default/test-term""#).unwrap();
        assert_eq!(l.host, Some("kind-worker"));
        assert!(l.klog);
        assert_eq!(value(l.msg, "pod").as_deref(), Some("default/test-term"));
        let l = parse(r#"I1220 03:18:01.710490    1233 prober.go:120] "Probe failed" probeType="Readiness" pod="kube-system/kube-apiserver-k8s-0""#).unwrap();
        assert_eq!(value(l.msg, "probeType").as_deref(), Some("Readiness"));
        assert!(parse("hello world").is_none());
    }
}
