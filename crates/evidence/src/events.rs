//! `kubectl get events -o json`: a `List` (or `EventList`) of core/v1 or events.k8s.io/v1
//! `Event`s, or a single `Event`. Read: `Unhealthy` (probe failed), `Killing` (container
//! killed), `Started` (container started), `Starting` on a Node (kubelet started),
//! `NodeNotReady` on a Pod (the node lifecycle controller marks it NotReady) or on a Node,
//! `NodeReady`. The time is `eventTime`, else `lastTimestamp`, else `firstTimestamp`.
//! An item's line is where its `metadata.name` appears in the text.

use crate::{cut, time, Evidence, Format, Obs, ReadError, Unread, What};
use serde_json::Value as J;

fn s<'a>(v: &'a J, path: &[&str]) -> Option<&'a str> {
    let mut v = v;
    for p in path {
        v = v.get(p)?;
    }
    v.as_str()
}

fn line_of(text: &str, needle: &str, from: usize) -> usize {
    match text[from.min(text.len())..].find(needle) {
        Some(i) => text[..from + i].matches('\n').count() + 1,
        None => 1,
    }
}

pub(crate) fn read(text: &str) -> Result<Evidence, ReadError> {
    // Comment lines (a fixture's source) are blanked, keeping line numbers.
    let body: String = text
        .lines()
        .map(|l| if crate::is_comment(l) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let doc: J = serde_json::from_str(&body).map_err(|e| ReadError {
        line: e.line().max(1),
        message: format!(
            "not valid JSON ({e}); `kubectl get events -o json` prints one JSON document"
        ),
    })?;
    let items: Vec<&J> = match doc.get("items").and_then(J::as_array) {
        Some(a) => a.iter().collect(),
        None if s(&doc, &["kind"]) == Some("Event") => vec![&doc],
        None => {
            return Err(ReadError {
                line: 1,
                message: format!(
                    "JSON, but not a list of Events (kind {:?}; expected `kubectl get events -o json`, or audit log lines with apiVersion audit.k8s.io/v1)",
                    s(&doc, &["kind"]).unwrap_or("none")
                ),
            })
        }
    };
    let mut ev = Evidence {
        format: Format::EventsJson,
        absolute: true,
        obs: Vec::new(),
        unread: Vec::new(),
        skipped: 0,
        notes: Vec::new(),
    };
    let mut pos = 0;
    for it in items {
        let name = s(it, &["metadata", "name"]).unwrap_or("");
        let line = if name.is_empty() {
            1
        } else {
            line_of(&body, &format!("\"{name}\""), pos)
        };
        if let Some(i) = body[pos.min(body.len())..].find(&format!("\"{name}\"")) {
            pos += i + 1;
        }
        let t = ["eventTime", "lastTimestamp", "firstTimestamp"]
            .iter()
            .filter_map(|k| s(it, &[k]))
            .find_map(time::rfc3339)
            .or_else(|| s(it, &["metadata", "creationTimestamp"]).and_then(time::rfc3339));
        let Some(t_ms) = t else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "an Event without eventTime, lastTimestamp or firstTimestamp".into(),
                text: cut(name),
            });
            continue;
        };
        let kind = s(it, &["involvedObject", "kind"])
            .or_else(|| s(it, &["regarding", "kind"]))
            .unwrap_or("");
        let obj = s(it, &["involvedObject", "name"])
            .or_else(|| s(it, &["regarding", "name"]))
            .unwrap_or("")
            .to_string();
        let reason = s(it, &["reason"]).unwrap_or("");
        let message = s(it, &["message"])
            .or_else(|| s(it, &["note"]))
            .unwrap_or("");
        let by = s(it, &["source", "component"])
            .or_else(|| s(it, &["reportingComponent"]))
            .or_else(|| s(it, &["reportingController"]))
            .filter(|b| !b.is_empty())
            .map(str::to_string);
        let host = s(it, &["source", "host"])
            .or_else(|| s(it, &["reportingInstance"]))
            .filter(|h| !h.is_empty())
            .map(str::to_string);
        let what = match (reason, kind) {
            ("Unhealthy", "Pod") => {
                let k = ["Readiness", "Liveness", "Startup"]
                    .into_iter()
                    .find(|k| message.starts_with(k))
                    .unwrap_or("a");
                Some(What::ProbeFailed(k.to_string()))
            }
            ("Killing", "Pod") => Some(What::ContainerDied),
            ("Started", "Pod") => Some(What::ContainerStarted),
            ("Starting", "Node") if message.contains("kubelet") => Some(What::KubeletStarted),
            ("NodeNotReady", "Pod") => Some(What::ReadyChanged(false)),
            ("NodeNotReady", "Node") => Some(What::NodeReady(false)),
            ("NodeReady", "Node") => Some(What::NodeReady(true)),
            _ => None,
        };
        let Some(what) = what else {
            ev.skipped += 1;
            continue;
        };
        let node_level = kind == "Node";
        ev.obs.push(Obs {
            t_ms,
            pod: (!node_level).then(|| obj.clone()),
            node: if node_level { Some(obj) } else { host },
            what,
            by,
            line,
            file: 0,
        });
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    Ok(ev)
}
