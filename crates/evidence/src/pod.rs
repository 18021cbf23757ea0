//! `kubectl get pod NAME -o yaml|json` and `kubectl get pods -o yaml|json`: a `Pod`, a `List` of
//! them (nodes too: `kubectl get pod,node -o yaml`), or the `status:` block alone as reports paste
//! it (or the bare list of its `conditions`). Parsed with the manifest crate's YAML reader
//! (`restartscope_manifest::yaml`, positioned nodes: every observation keeps its line); JSON is
//! YAML 1.2, so one reader takes both.
//!
//! A pod's YAML is a snapshot: each condition carries only its last transition
//! (`lastTransitionTime`, set by the kubelet's status manager when the status changes:
//! `pkg/kubelet/status/status_manager.go`, `updateLastTransitionTime`), each container its
//! current `state` and one `lastState`. So the reader gives, per pod:
//!
//! - `ReadySince(v)` at the Ready condition's `lastTransitionTime` (Ready has been `v` since then;
//!   earlier changes are unknown), `ConditionSince(type, v)` for the others (ContainersReady,
//!   PodScheduled, Initialized, PodReadyToStartContainers, DisruptionTarget …);
//! - `ContainerStarted` at `state.running.startedAt`, `ContainerDied` at `state.terminated` or
//!   `lastState.terminated`'s `finishedAt`, `RestartCount(restartCount)` (0 included) at the
//!   latest of those times;
//! - for a `Node`: `KubeletVersion` (`status.nodeInfo.kubeletVersion`), `BootId`
//!   (`status.nodeInfo.bootID`) and `NodeReady`.
//!
//! What a snapshot cannot say (the order of earlier changes, `started`/`ready` without a time) goes
//! into the evidence's notes.

use crate::types::{cut, ContainerSnap, Evidence, Format, Obs, ReadError, Unread, What};
use restartscope_manifest::yaml::{self, Node, Value};

/// The first meaningful line starts a pod dump (YAML), or the JSON document names a Pod.
pub(crate) fn looks_like(first: &str, text: &str) -> bool {
    if first.starts_with('{') || first.starts_with('[') {
        // Events name their Pod (`involvedObject.kind`): an Event anywhere makes it events.
        return !json_kind(text, "Event")
            && (json_kind(text, "Pod")
                || json_kind(text, "Node")
                || text.contains("\"containerStatuses\""));
    }
    let key = first.split(':').next().unwrap_or("").trim();
    matches!(
        key,
        "apiVersion" | "kind" | "metadata" | "status" | "items" | "spec" | "containerStatuses"
    ) || (first.starts_with("- ")
        && (first.contains("lastProbeTime") || first.contains("lastTransitionTime")))
}

/// `"kind": "Pod"` in a JSON text, whatever the spacing.
pub(crate) fn json_kind(text: &str, kind: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("\"kind\"") {
        rest = &rest[i + 6..];
        let v = rest.trim_start().strip_prefix(':').map(str::trim_start);
        if v.is_some_and(|v| v.starts_with(&format!("\"{kind}\""))) {
            return true;
        }
    }
    false
}

fn get<'a>(n: &'a Node, path: &[&str]) -> Option<&'a Node> {
    let mut n = n;
    for p in path {
        n = n.get(p)?;
    }
    Some(n)
}

fn text<'a>(n: &'a Node, path: &[&str]) -> Option<&'a str> {
    get(n, path)?.as_str()
}

fn seq(n: Option<&Node>) -> &[Node] {
    match n.map(|n| &n.value) {
        Some(Value::Seq(v)) => v,
        _ => &[],
    }
}

/// `status: "True"` (quoted, as kubectl prints it) or a bare `true`.
fn truth(n: Option<&Node>) -> Option<bool> {
    match &n?.value {
        Value::Str(s) if s == "True" => Some(true),
        Value::Str(s) if s == "False" => Some(false),
        Value::Bool(b) => Some(*b),
        _ => None,
    }
}

/// A time as kubectl prints it (RFC 3339, quoted or not).
fn when(n: Option<&Node>) -> Option<i64> {
    crate::time::rfc3339(n?.as_str()?)
}

struct Reader {
    ev: Evidence,
    src: Vec<String>,
}

impl Reader {
    fn push(&mut self, t_ms: i64, pod: Option<&str>, node: Option<&str>, what: What, line: usize) {
        self.ev.obs.push(Obs {
            t_ms,
            pod: pod.map(str::to_string),
            node: node.map(str::to_string),
            what,
            by: None,
            line,
            file: 0,
        });
    }

    fn push_by(
        &mut self,
        t_ms: i64,
        pod: Option<&str>,
        node: Option<&str>,
        what: What,
        line: usize,
        by: &str,
    ) {
        self.push(t_ms, pod, node, what, line);
        if let Some(o) = self.ev.obs.last_mut() {
            o.by = Some(by.to_string());
        }
    }

    fn unread(&mut self, line: usize, why: String) {
        let t = self
            .src
            .get(line.saturating_sub(1))
            .cloned()
            .unwrap_or_default();
        self.ev.unread.push(Unread {
            line,
            file: 0,
            why,
            text: cut(&t),
        });
    }

    fn conditions(&mut self, list: &[Node], pod: Option<&str>, node: Option<&str>, of_node: bool) {
        for c in list {
            let kind = text(c, &["type"]).unwrap_or("");
            let status = truth(c.get("status"));
            let t = when(c.get("lastTransitionTime"));
            match (kind, status, t) {
                ("", _, _) => self.unread(c.line, "a condition without a type".into()),
                (_, None, _) if text(c, &["status"]) == Some("Unknown") => {
                    self.ev.skipped += 1;
                }
                (k, None, _) => self.unread(
                    c.line,
                    format!("condition {k}: status is not True or False"),
                ),
                (k, Some(_), None) => {
                    self.ev.notes.push(format!(
                        "line {}: condition {k} has no lastTransitionTime (null or <time>): when it changed is unknown",
                        c.line
                    ));
                    self.ev.skipped += 1;
                }
                ("Ready", Some(b), Some(t)) if of_node => {
                    self.push(t, None, node, What::NodeReady(b), c.line)
                }
                ("Ready", Some(b), Some(t)) => self.push(t, pod, node, What::ReadySince(b), c.line),
                (k, Some(b), Some(t)) if !of_node => {
                    self.push(t, pod, node, What::ConditionSince(k.to_string(), b), c.line)
                }
                _ => self.ev.skipped += 1,
            }
        }
    }

    fn containers(&mut self, list: &[Node], pod: Option<&str>, node: Option<&str>, init: bool) {
        for c in list {
            let name = text(c, &["name"]).unwrap_or("?");
            let restarts = match get(c, &["restartCount"]).map(|n| &n.value) {
                Some(Value::Int(n)) if *n >= 0 => Some(*n as u32),
                _ => None,
            };
            let started_at = get(c, &["state", "running", "startedAt"]);
            let ended = get(c, &["state", "terminated", "finishedAt"]);
            let died = get(c, &["lastState", "terminated", "finishedAt"]);
            if let (Some(n), Some(t)) = (started_at, when(started_at)) {
                self.push(t, pod, node, What::ContainerStarted, n.line);
            }
            for d in [died, ended] {
                if let (Some(n), Some(t)) = (d, when(d)) {
                    self.push(t, pod, node, What::ContainerDied, n.line);
                }
            }
            // The count as of the container's latest change the snapshot dates.
            let latest = [started_at, ended, died]
                .into_iter()
                .filter_map(|n| Some((when(n)?, n?.line)))
                .max();
            if let (Some(r), Some((t, line))) = (restarts, latest) {
                self.push(t, pod, node, What::RestartCount(r), line);
            }
            // What the pod itself says about the container, with the kubelet as its writer.
            let state = ["running", "terminated", "waiting"]
                .into_iter()
                .find(|k| get(c, &["state", k]).is_some());
            // A running container with no time says nothing a condition does not.
            if let Some(st) = state.filter(|st| *st != "running" || latest.is_some()) {
                let int = |path: &[&str]| match get(c, path).map(|n| &n.value) {
                    Some(Value::Int(n)) => Some(*n),
                    _ => None,
                };
                let snap = ContainerSnap {
                    name: name.to_string(),
                    init,
                    kind_known: true,
                    state: st.to_string(),
                    reason: text(c, &["state", st, "reason"]).map(str::to_string),
                    exit_code: int(&["state", st, "exitCode"]),
                    restart_count: restarts,
                    last_reason: text(c, &["lastState", "terminated", "reason"])
                        .map(str::to_string),
                    last_exit_code: int(&["lastState", "terminated", "exitCode"]),
                };
                let t = latest.map_or(0, |x| x.0);
                self.push_by(t, pod, node, What::ContainerState(snap), c.line, "kubelet");
            }
            let flags: Vec<String> = ["ready", "started"]
                .iter()
                .filter_map(|k| match get(c, &[k]).map(|n| &n.value) {
                    Some(Value::Bool(b)) => Some(format!("{k}={b}")),
                    _ => None,
                })
                .collect();
            self.ev.notes.push(format!(
                "line {}: container {name} at the snapshot: {}restartCount={}{}",
                c.line,
                if flags.is_empty() {
                    String::new()
                } else {
                    format!("{}, ", flags.join(", "))
                },
                restarts.map_or("?".into(), |r| r.to_string()),
                if get(c, &["lastState", "terminated"]).is_none() && restarts.unwrap_or(0) > 0 {
                    " (lastState empty: the restarts' times are not in the snapshot)"
                } else {
                    ""
                }
            ));
        }
    }

    /// One object: a Pod, a Node, a `status:` block or a list of conditions.
    fn object(&mut self, o: &Node) -> Result<(), ReadError> {
        if let Value::Seq(items) = &o.value {
            // The bare `conditions` list of a pod.
            self.conditions(items, Some(UNNAMED), None, false);
            return Ok(());
        }
        let kind = text(o, &["kind"]);
        match kind {
            Some("List" | "PodList" | "NodeList") => {
                for it in seq(o.get("items")) {
                    self.object(it)?;
                }
                return Ok(());
            }
            Some("Node") => {
                let name = text(o, &["metadata", "name"]);
                let conds = seq(get(o, &["status", "conditions"]));
                self.conditions(conds, None, name, true);
                let t = conds
                    .iter()
                    .filter_map(|c| when(c.get("lastHeartbeatTime")))
                    .max()
                    .unwrap_or(0);
                // The kubelet's version and the boot id it records (`setters.go`
                // MachineInfo: `nodeInfo.bootID`, which the Rebooted event compares).
                for (key, what) in [
                    ("kubeletVersion", What::KubeletVersion as fn(String) -> What),
                    ("bootID", What::BootId),
                ] {
                    if let Some(v) = get(o, &["status", "nodeInfo", key]) {
                        if let Some(s) = v.as_str().filter(|s| !s.is_empty()) {
                            self.push(t, None, name, what(s.to_string()), v.line);
                        }
                    }
                }
                return Ok(());
            }
            Some("Pod") | None => {}
            Some(k) => {
                self.ev.skipped += 1;
                self.ev.notes.push(format!(
                    "line {}: a {k}, not a Pod nor a Node: skipped",
                    o.line
                ));
                return Ok(());
            }
        }
        let status = match o.get("status") {
            Some(s) => s,
            // The status block pasted without its `status:` line (its conditions, or its
            // containerStatuses alone: kubernetes#126650).
            None if kind.is_none()
                && (o.get("conditions").is_some() || o.get("containerStatuses").is_some()) =>
            {
                o
            }
            None if kind == Some("Pod") => {
                self.unread(o.line, "a Pod without status (a manifest, not `kubectl get -o yaml`)".into());
                return Ok(());
            }
            None => {
                return Err(ReadError {
                    line: o.line,
                    message: "YAML, but not a Pod (no kind, no status): give `kubectl get pod NAME -o yaml` or its status block".into(),
                })
            }
        };
        let name = text(o, &["metadata", "name"]).unwrap_or(UNNAMED);
        let node = text(o, &["spec", "nodeName"]);
        let ns = text(o, &["metadata", "namespace"]);
        let uid = text(o, &["metadata", "uid"]);
        if ns.is_some() || uid.is_some() {
            self.ev.notes.push(format!(
                "line {}: pod {}{name}{}{}",
                o.line,
                ns.map_or(String::new(), |n| format!("{n}/")),
                uid.map_or(String::new(), |u| format!(" (uid {u})")),
                node.map_or(String::new(), |n| format!(" on node {n}"))
            ));
        }
        let conds = seq(status.get("conditions"));
        self.conditions(conds, Some(name), node, false);
        for (k, init) in [
            ("initContainerStatuses", true),
            ("containerStatuses", false),
        ] {
            self.containers(seq(status.get(k)), Some(name), node, init);
        }
        self.pod_says(status, conds, name, node);
        Ok(())
    }
}

impl Reader {
    /// What the pod's own status says besides its conditions: a final phase, an eviction or
    /// admission rejection (`reason`/`message`), and the node controller's `MarkPodsNotReady`
    /// signature (Ready False, ContainersReady True: only the controller writes Ready alone).
    fn pod_says(&mut self, status: &Node, conds: &[Node], name: &str, node: Option<&str>) {
        let latest = self.ev.obs.iter().map(|o| o.t_ms).max().unwrap_or(0);
        if let Some(p) = get(status, &["phase"]) {
            if let Some(v @ ("Failed" | "Succeeded")) = p.as_str() {
                self.push_by(
                    latest,
                    Some(name),
                    node,
                    What::PodPhase(v.into()),
                    p.line,
                    "kubelet",
                );
            }
        }
        if let Some(r) = get(status, &["reason"]) {
            let message = text(status, &["message"]).unwrap_or("").to_string();
            if let Some(reason) = r.as_str() {
                let by = if reason == "Evicted" || message.starts_with("Pod was rejected") {
                    "kubelet"
                } else {
                    "?"
                };
                let what = What::PodMessage {
                    reason: reason.to_string(),
                    message,
                };
                self.push_by(latest, Some(name), node, what, r.line, by);
            }
        }
        let cond = |k: &str| {
            conds
                .iter()
                .find(|c| text(c, &["type"]) == Some(k))
                .map(|c| {
                    (
                        truth(c.get("status")),
                        when(c.get("lastTransitionTime")),
                        c.line,
                    )
                })
        };
        if let (Some((Some(false), t, line)), Some((Some(true), _, _))) =
            (cond("Ready"), cond("ContainersReady"))
        {
            self.push_by(
                t.unwrap_or(latest),
                Some(name),
                node,
                What::ControllerNotReady,
                line,
                "node-controller",
            );
        }
    }
}

/// The name given to a pod whose snapshot does not carry it (a pasted `status:` block).
pub const UNNAMED: &str = "(unnamed pod)";

/// A YAML syntax error as a `ReadError`: `not valid {what} (message, column N); {hint}`.
pub(crate) fn yaml_error(e: yaml::SyntaxError, what: &str, hint: &str) -> ReadError {
    ReadError {
        line: e.line.unwrap_or(1),
        message: format!(
            "not valid {what} ({}{}); {hint}",
            e.message,
            e.column.map_or(String::new(), |c| format!(", column {c}"))
        ),
    }
}

pub(crate) fn read(text: &str) -> Result<Evidence, ReadError> {
    let docs = yaml::parse(text).map_err(|e| {
        yaml_error(
            e,
            "YAML or JSON",
            "`kubectl get pod -o yaml|json` prints one document",
        )
    })?;
    let mut r = Reader {
        ev: Evidence {
            format: Format::PodStatus,
            absolute: true,
            obs: Vec::new(),
            unread: Vec::new(),
            skipped: 0,
            notes: vec![
                "a pod's YAML is a snapshot: only each condition's last transition (lastTransitionTime) and each container's current and last state are known; earlier changes are not in it".into(),
            ],
            yearless: false,
        },
        src: text.lines().map(str::to_string).collect(),
    };
    for d in &docs {
        match &d.root.value {
            Value::Map(_) | Value::Seq(_) => r.object(&d.root)?,
            _ => {
                return Err(ReadError {
                    line: d.root.line,
                    message: format!(
                        "YAML, but {} rather than a Pod: give `kubectl get pod NAME -o yaml`",
                        d.root.kind()
                    ),
                })
            }
        }
    }
    r.ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    Ok(r.ev)
}
