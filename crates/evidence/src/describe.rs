//! `kubectl describe pod` and `kubectl describe node` as reporters paste them, whole or in
//! fragments (a container's `State:` block alone): kubectl's describe printer
//! (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`, `describePod`, `describeContainerState`,
//! `DescribeEvents`). Read, per pod:
//!
//! - `Status:` Failed or Succeeded (`PodPhase`), `Reason:` / `Message:` (an eviction, "Pod was
//!   rejected: …": `PodMessage`);
//! - each container under `Containers:` / `Init Containers:`: `State:` (with `Reason`, `Exit Code`,
//!   `Started`, `Finished`), `Last State:`, `Ready:`, `Restart Count:` → `ContainerState` (and
//!   `ContainerStarted`, `ContainerDied`, `RestartCount` at their times);
//! - `Conditions:` (no times in describe): Ready False beside ContainersReady True is the node
//!   controller's `MarkPodsNotReady` (`ControllerNotReady`); the values go into the notes;
//! - the `Events:` table (`Type Reason Age From Message`): the event reasons every events reader
//!   shares (`reasons.rs`, data per release: `Unhealthy`, `Killing`, `Started`, `SandboxChanged`,
//!   on a node `Starting`, `NodeNotReady`, `NodeReady`, `Rebooted`, `ContainerGCFailed` …).
//!
//! Describe prints times as RFC 1123 with a zone (`Tue, 29 Apr 2025 13:43:32 +0800`); an event's
//! Age counts back from when describe ran, which the output does not say: events are placed
//! counting back from the latest time in the paste, and the notes say so.

use crate::event_row::{self, When};
use crate::node_conditions;
use crate::reasons::{self, On};
use crate::time;
use crate::types::{cut, is_comment, ContainerSnap, Evidence, Format, Obs, Unread, What};

/// The first meaningful line starts a describe (or a fragment of one).
pub(crate) fn looks_like(first: &str, text: &str) -> bool {
    let key = first.split(':').next().unwrap_or("").trim();
    // A fragment's first key; a node's (`Taints:`, `Lease:`, `Conditions:` with its heartbeat
    // columns) as `kubectl describe node … | sed -n '/^Conditions:/,…'` leaves it.
    let keys = [
        "State",
        "Last State",
        "Containers",
        "Init Containers",
        "Events",
        "Conditions",
        "Taints",
        "Lease",
        "Unschedulable",
    ];
    // A node before 1.6 had no `Roles:`; its `Conditions:` have heartbeat columns.
    (key == "Name"
        && (text.contains("\nNamespace:")
            || text.contains("\nRoles:")
            || text.contains("LastHeartbeatTime")
            || text.contains("LastProbeTime")))
        || (keys.contains(&key) && first.contains(':') && !first.contains(": {"))
        || is_event_row(first)
        || is_table_header(first)
        || node_conditions::row(first)
        || node_conditions::fragment(first).is_some()
}

/// A row of describe's Events table (`Warning  Unhealthy  12s  kubelet  Liveness probe failed…`),
/// as `kubectl describe pod X | grep …` leaves it without its header.
/// describe's Events or a node's Conditions table header pasted without the `Events:` or
/// `Conditions:` above it (`Type  Reason  Age  From  Message`, 1.10 on; `Type  Status  Reason
/// Message`, with or without the heartbeat columns).
fn is_table_header(t: &str) -> bool {
    let w: Vec<&str> = t.split_whitespace().collect();
    w == ["Type", "Reason", "Age", "From", "Message"]
        || (w.first() == Some(&"Type")
            && w.get(1) == Some(&"Status")
            && (w.contains(&"Reason") || w.contains(&"LastHeartbeatTime")))
}

fn is_event_row(t: &str) -> bool {
    let cols: Vec<&str> = t
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    cols.len() >= 4
        && matches!(cols[0], "Normal" | "Warning")
        && time::age(cols[2].split_whitespace().next().unwrap_or("")).is_some()
}

/// The keys of a container's `State:` / `Last State:` block (`describeContainerState`).
const BLOCK_KEYS: [&str; 6] = [
    "Reason",
    "Exit Code",
    "Signal",
    "Message",
    "Started",
    "Finished",
];

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// `Key:   value` → (key, value).
fn kv(l: &str) -> Option<(&str, &str)> {
    let (k, v) = l.trim().split_once(':')?;
    if k.is_empty() || k.len() > 40 || k.contains("  ") {
        return None;
    }
    Some((k, v.trim()))
}

#[derive(Default, Clone)]
struct Block {
    state: Option<String>,
    reason: Option<String>,
    exit: Option<i64>,
    started: Option<(i64, usize)>,
    finished: Option<(i64, usize)>,
}

#[derive(Default)]
struct Container {
    name: String,
    init: bool,
    /// Pasted as a fragment (a `State:` block without the container's name and section).
    fragment: bool,
    line: usize,
    now: Block,
    last: Block,
    restarts: Option<u32>,
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::Describe, true);
    let mut pod: Option<String> = None;
    let mut node: Option<String> = None;
    let mut is_node = false;
    let mut section = "";
    let mut containers: Vec<Container> = Vec::new();
    // Which block the indented State keys fill: (indent of `State:`, last?).
    let mut block: Option<(usize, bool)> = None;
    let mut conds: Vec<(String, bool, usize)> = Vec::new();
    let mut node_notready: Vec<(i64, String, usize, &str)> = Vec::new();
    // The first other condition the node lifecycle controller set Unknown.
    let mut stopped_posting: Option<(i64, String, usize)> = None;
    let mut lease_renewed: Option<(i64, usize)> = None;
    let mut boot: Option<(String, usize)> = None;
    // The Conditions table's columns, as its header names them.
    let mut cond_header: Vec<String> = [
        "Type",
        "Status",
        "LastHeartbeatTime",
        "LastTransitionTime",
        "Reason",
        "Message",
    ]
    .map(str::to_string)
    .to_vec();
    let mut events: Vec<(String, String, When, String, usize)> = Vec::new();
    let mut phase: Option<(String, usize)> = None;
    let mut reason: Option<(String, usize)> = None;
    let mut message = String::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || is_comment(raw) {
            continue;
        }
        let ind = indent(raw);
        // kubectl before 1.5 aligned describe's columns with tabs (a tabwriter that kept them):
        // a tab parts columns as two spaces do.
        let tabbed;
        let t = if raw.contains('\t') {
            tabbed = raw.trim().replace('\t', "  ");
            tabbed.as_str()
        } else {
            raw.trim()
        };
        // A fragment's state keys pasted flush left below its `State:` (as reporters trim
        // kubectl's indentation: `State: Running` then `Started: …`): still the block's.
        let flush_block_key = block == Some((0, false)) || block == Some((0, true));
        let flush_block_key = flush_block_key
            && ind == 0
            && section == "containers"
            && containers.last().is_some_and(|c| c.fragment)
            && kv(t).is_some_and(|(k, _)| BLOCK_KEYS.contains(&k));
        // A node's Ready condition pasted alone: its row without the table's header, or its
        // Reason and Message only.
        if section.is_empty() && node_conditions::row(t) {
            section = "conditions";
            is_node = true;
        }
        if let Some((by, msg)) = node_conditions::fragment(t) {
            is_node = true;
            node_notready.push((0, msg.to_string(), line, by));
            continue;
        }
        // An Events row, under its table or grepped out of it (then also flush left).
        let event_row = is_event_row(t);
        if event_row {
            section = "events";
        }
        // (A condition's row flush left, pasted alone, is not a `key: value` line: moby#44300's
        // Ready row, its message "PLEG is not healthy: …".)
        let lone_row = section == "conditions" && node_conditions::row(t);
        if ind == 0 && !flush_block_key && !event_row && !lone_row {
            block = None;
            if let Some((k, v)) = kv(t) {
                match k {
                    "Name" if pod.is_none() && !is_node => pod = Some(v.to_string()),
                    "Roles" => {
                        is_node = true;
                        node = pod.take();
                    }
                    "Taints" | "Unschedulable" => is_node = true,
                    // The node's Lease (describe node, 1.17+): its last renewal.
                    "Lease" => {
                        is_node = true;
                        section = "lease";
                        continue;
                    }
                    "Node" => node = v.split('/').next().map(str::to_string),
                    "Status" => phase = Some((v.to_string(), line)),
                    "Reason" if !v.is_empty() => reason = Some((v.to_string(), line)),
                    "Message" => message = v.to_string(),
                    "Containers" | "Init Containers" | "Conditions" | "Events" => {
                        section = match k {
                            "Containers" => "containers",
                            "Init Containers" => "init",
                            "Conditions" => "conditions",
                            _ => "events",
                        };
                        if k == "Events" && v == "<none>" {
                            section = "";
                        }
                        continue;
                    }
                    "State" | "Last State" | "Last Termination State" => {
                        // A container's fragment pasted on its own; a second `State:` flush
                        // left (or a second `Last State:`) starts the next container's fragment,
                        // as when a reporter pastes one block per container.
                        let next = containers.last().is_none_or(|c| {
                            c.fragment
                                && if k == "State" {
                                    c.now.state.is_some()
                                } else {
                                    c.last.state.is_some()
                                }
                        });
                        if next || section != "containers" {
                            containers.push(Container {
                                name: format!("(unnamed, line {line})"),
                                fragment: true,
                                line,
                                ..Container::default()
                            });
                        }
                        section = "containers";
                    }
                    // A fragment's own keys, below its `State:`.
                    "Ready" | "Restart Count" if section == "containers" => {}
                    _ => {
                        section = "";
                        ev.skipped += 1;
                        continue;
                    }
                }
                if !matches!(
                    k,
                    "State" | "Last State" | "Last Termination State" | "Ready" | "Restart Count"
                ) {
                    continue;
                }
            } else {
                ev.skipped += 1;
                continue;
            }
        }
        // System Info's `Boot ID:` (a node's, kubectl 1.1 on).
        if let Some(("Boot ID", v)) = kv(t).filter(|_| ind > 0) {
            boot = Some((v.to_string(), line));
            continue;
        }
        if section.is_empty() && t.starts_with("Type") && t.contains("Status") {
            section = "conditions";
        }
        // A node's conditions table has heartbeat columns (a pod's has Type and Status only).
        // A node's own condition types make the table a node's (a header a reporter trimmed of
        // its heartbeat columns).
        let kind = t.split_whitespace().next().unwrap_or("");
        if section == "conditions" && node_conditions::TYPES.contains(&kind) {
            is_node = true;
        }
        if section == "conditions" && t.starts_with("Type") {
            cond_header = t.split_whitespace().map(str::to_string).collect();
            // kubectl before 1.1 called the heartbeat LastProbeTime.
            is_node |= t.contains("LastHeartbeatTime") || t.contains("LastProbeTime");
            continue;
        }
        match section {
            "containers" | "init" => {
                let Some((k, v)) = kv(t) else {
                    ev.skipped += 1;
                    continue;
                };
                if let Some((bi, _)) = block {
                    if ind <= bi && !flush_block_key {
                        block = None;
                    }
                }
                // A container's name: `  app:` with nothing after it, above its keys.
                if v.is_empty() && block.is_none() && !matches!(k, "State" | "Last State") {
                    if ind <= 2 {
                        containers.push(Container {
                            name: k.to_string(),
                            init: section == "init",
                            line,
                            ..Container::default()
                        });
                    }
                    continue;
                }
                let Some(c) = containers.last_mut() else {
                    ev.skipped += 1;
                    continue;
                };
                match (k, block) {
                    ("State", _) | ("Last State", _) | ("Last Termination State", _) => {
                        let last = k != "State";
                        block = Some((ind, last));
                        let b = if last { &mut c.last } else { &mut c.now };
                        b.state = Some(v.to_lowercase());
                    }
                    ("Ready", None) => {}
                    ("Restart Count", None) => c.restarts = v.parse().ok(),
                    (key, Some((_, last))) => {
                        let b = if last { &mut c.last } else { &mut c.now };
                        // Go's zero time.Time (`Mon, 01 Jan 0001 00:00:00 +0000`): describe
                        // prints StartedAt/FinishedAt unset, as for a ContainerStatusUnknown
                        // the kubelet made up (kubelet_pods.go, convertToAPIContainerStatuses): no time.
                        if matches!(key, "Started" | "Finished") && v.contains(" 0001 ") {
                            ev.notes.push(format!(
                                "line {line}: {key} is Go's zero time (unset): no time"
                            ));
                            continue;
                        }
                        match key {
                            "Reason" => b.reason = Some(v.to_string()),
                            "Exit Code" => b.exit = v.parse().ok(),
                            "Started" => b.started = time::rfc1123z(v).map(|t| (t, line)),
                            "Finished" => b.finished = time::rfc1123z(v).map(|t| (t, line)),
                            _ => ev.skipped += 1,
                        }
                    }
                    _ => ev.skipped += 1,
                }
            }
            "lease" => {
                if let Some(("RenewTime", v)) = kv(t) {
                    lease_renewed = time::rfc1123z(v).map(|x| (x, line));
                } else {
                    ev.skipped += 1;
                }
            }
            "conditions" if is_node => match node_conditions::ready(t, &cond_header) {
                Some(("False", since, message)) => {
                    node_notready.push((since, message, line, "kubelet"))
                }
                // Unknown: the node lifecycle controller's write when the kubelet stopped
                // posting status (`tryUpdateNodeHealth`, NodeStatusUnknown, "Kubelet stopped
                // posting node status.").
                Some(("Unknown", since, message)) => {
                    node_notready.push((since, message, line, "node-controller"))
                }
                Some((v, ..)) => conds.push(("Ready".into(), v == "True", line)),
                None => {
                    if let Some((since, m)) = node_conditions::stopped_posting(t, &cond_header) {
                        stopped_posting.get_or_insert((since, m, line));
                    }
                    ev.skipped += usize::from(!node_conditions::rule(t));
                }
            },
            "conditions" => {
                let mut it = t.split_whitespace();
                match (it.next(), it.next()) {
                    (Some("Type"), Some("Status")) => {}
                    (Some(k), Some("True")) => conds.push((k.to_string(), true, line)),
                    (Some(k), Some("False")) => conds.push((k.to_string(), false, line)),
                    _ => ev.skipped += 1,
                }
            }
            "events" => {
                let first = t.split_whitespace().next().unwrap_or("");
                // The table's header and its rule (kubectl 1.5–1.9: `FirstSeen LastSeen …`).
                if matches!(first, "Type" | "FirstSeen") || first.starts_with("--") {
                    continue;
                }
                match event_row::describe_row(t) {
                    Ok((reason, from, when, msg)) => events.push((reason, from, when, msg, line)),
                    Err(why) => ev.unread.push(Unread {
                        line,
                        file: 0,
                        why,
                        text: cut(raw),
                    }),
                }
            }
            _ => ev.skipped += 1,
        }
    }
    // Events only a node has (`kubectl describe node … | grep` leaves no `Roles:`): the kubelet's
    // Rebooted, "Starting kubelet.", the node status setters' "Node n1 status is now: …",
    // NodeAllocatableEnforced, the node controller's RegisteredNode. Never a pod.
    if !is_node {
        let node_event = |e: &(String, String, When, String, usize)| reasons::node_only(&e.0, &e.3);
        if let Some(e) = events.iter().find(|e| node_event(e)) {
            is_node = true;
            node = node.or_else(|| reasons::node_in_message(&e.3));
            pod = None;
        }
    }
    if is_node && node.is_none() {
        node = pod.take();
    }
    let pod_name = if is_node {
        None
    } else {
        Some(
            pod.clone()
                .unwrap_or_else(|| crate::pod::UNNAMED.to_string()),
        )
    };
    let push = |ev: &mut Evidence, t: i64, what: What, line: usize, by: &str| {
        ev.obs.push(Obs {
            t_ms: t,
            pod: pod_name.clone(),
            node: node.clone(),
            what,
            by: Some(by.to_string()),
            line,
            file: 0,
        })
    };
    for c in &containers {
        for b in [&c.now, &c.last] {
            if let Some((t, l)) = b.started.filter(|_| b.state.as_deref() == Some("running")) {
                push(&mut ev, t, What::ContainerStarted, l, "kubelet");
            }
            if let Some((t, l)) = b.finished {
                push(&mut ev, t, What::ContainerDied, l, "kubelet");
            }
        }
        let latest = [c.now.started, c.now.finished, c.last.finished]
            .into_iter()
            .flatten()
            .max();
        if let (Some(r), Some((t, l))) = (c.restarts, latest) {
            push(&mut ev, t, What::RestartCount(r), l, "kubelet");
        }
        if let Some(st) = &c.now.state {
            let snap = ContainerSnap {
                name: c.name.clone(),
                init: c.init,
                kind_known: !c.fragment,
                state: st.clone(),
                reason: c.now.reason.clone(),
                exit_code: c.now.exit,
                restart_count: c.restarts,
                last_reason: c.last.reason.clone(),
                last_exit_code: c.last.exit,
            };
            push(
                &mut ev,
                latest.map_or(0, |x| x.0),
                What::ContainerState(snap),
                c.line,
                "kubelet",
            );
        }
    }
    // The controller's Unknown on another condition, when the Ready row was not pasted.
    if let Some((t, m, line)) = stopped_posting.filter(|_| node_notready.is_empty()) {
        node_notready.push((t, m, line, "node-controller"));
    }
    for (t, message, line, by) in node_notready {
        ev.obs.push(Obs {
            t_ms: t,
            pod: None,
            node: node.clone(),
            what: What::NodeNotReadyBecause(message),
            by: Some(by.into()),
            line,
            file: 0,
        });
    }
    if let Some((t, line)) = lease_renewed {
        ev.obs.push(Obs {
            t_ms: t,
            pod: None,
            node: node.clone(),
            what: What::LeaseRenewed,
            by: Some("kubelet".into()),
            line,
            file: 0,
        });
    }
    // The latest time in the paste: its containers' and its events' own dates (kubectl before
    // 1.5 printed an event's times as dates).
    let dated = events.iter().filter_map(|e| match e.2 {
        When::At(t) => Some(t),
        When::Ago(_) => None,
    });
    let latest = ev
        .obs
        .iter()
        .map(|o| o.t_ms)
        .chain(dated)
        .max()
        .unwrap_or(0);
    if let Some((id, line)) = boot {
        ev.obs.push(Obs {
            t_ms: latest,
            pod: None,
            node: node.clone(),
            what: What::BootId(id),
            by: Some("kubelet".into()),
            line,
            file: 0,
        });
    }
    // Without a dated State the events' ages are the only clock: relative.
    ev.absolute = latest != 0;
    if let Some((p, l)) = phase.filter(|p| p.0 == "Failed" || p.0 == "Succeeded") {
        push(&mut ev, latest, What::PodPhase(p), l, "kubelet");
    }
    if let Some((r, l)) = reason {
        push(
            &mut ev,
            latest,
            What::PodMessage {
                reason: r,
                message: message.clone(),
            },
            l,
            "kubelet",
        );
    }
    let cond = |k: &str| conds.iter().find(|c| c.0 == k).map(|c| (c.1, c.2));
    if let (Some((false, l)), Some((true, _))) = (cond("Ready"), cond("ContainersReady")) {
        push(
            &mut ev,
            latest,
            What::ControllerNotReady,
            l,
            "node-controller",
        );
    }
    if !conds.is_empty() {
        ev.notes.push(format!(
            "conditions at the describe (describe prints no times): {}",
            conds
                .iter()
                .map(|c| format!("{}={}", c.0, if c.1 { "True" } else { "False" }))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if events.iter().any(|e| matches!(e.2, When::Ago(_))) {
        ev.notes.push(format!(
            "events' ages count back from when describe ran, which the paste does not say: placed counting back from its latest time ({})",
            if latest == 0 { "none: relative".to_string() } else { time::clock_text(latest) }
        ));
    }
    let on = if is_node { On::Node } else { On::Pod };
    for (reason, from, age, msg, line) in events {
        let by = from.split(',').next().unwrap_or(&from).trim().to_string();
        let by = by.trim_matches(|c| c == '{' || c == '}');
        let by = by.split(' ').next().unwrap_or(by);
        let Some((what, _)) = reasons::said(&reason, on, &msg, Some(by).filter(|b| !b.is_empty()))
        else {
            ev.skipped += 1;
            continue;
        };
        let t = match age {
            When::Ago(a) => latest - a,
            When::At(t) => t,
        };
        push(&mut ev, t, what, line, by);
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    ev
}
