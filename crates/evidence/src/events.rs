//! `kubectl get events -o json|yaml`: a `List` (or `EventList`) of core/v1 or events.k8s.io/v1
//! `Event`s, or a single `Event`; also the `EventList`s inside `kubectl cluster-info dump`
//! (several JSON documents one after the other; the others — NodeList, PodList … — are named in
//! the notes, not read). Read: the event reasons every events reader shares (`reasons.rs`, data:
//! the kubelet's from `pkg/kubelet/events/event.go`, per release), and a controller's
//! `SuccessfulDelete` of a pod (a ReplicaSet's "Deleted pod: NAME", a StatefulSet's "delete Pod
//! NAME in StatefulSet S successful":
//! the pod's deletion is recorded on its owner, not on the pod).
//!
//! Times: `eventTime` (events.k8s.io writers), else `firstTimestamp`; an event seen `count` times
//! (`lastTimestamp` later than its first time, or `series.lastObservedTime`) is read at both ends,
//! and the notes say how many occurrences in between have no time of their own. A pod name that
//! comes with two `involvedObject.uid`s is two pods (deleted and created again under the same name,
//! as a StatefulSet does): said in the notes, since its Killing then Started is not a restart.
//! An item's line is where its `metadata.name` appears (JSON) or where the item starts (YAML).

use crate::reasons::{self, On};
use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, ReadError, Unread, What};
use restartscope_manifest::yaml::{self, Node, Value};
use serde_json::Value as J;
use std::collections::BTreeMap;

fn s<'a>(v: &'a J, path: &[&str]) -> Option<&'a str> {
    let mut v = v;
    for p in path {
        v = v.get(p)?;
    }
    v.as_str()
}

/// Line numbers of byte offsets that only move forwards, counted once (counting from the start
/// for every item made a 1,000-pod events file quadratic: `make bench-replay`).
#[derive(Default)]
struct Lines {
    at: usize,
    newlines: usize,
}

impl Lines {
    /// The 1-based line of byte offset `p` of `text`.
    fn of(&mut self, text: &str, p: usize) -> usize {
        if p < self.at {
            *self = Lines::default();
        }
        self.newlines += text[self.at..p].matches('\n').count();
        self.at = p;
        self.newlines + 1
    }
}

/// `kubectl get events` output, JSON or YAML, recognised by its Events (`involvedObject`, or
/// `kind: Event` / `EventList` anywhere), not by its first line: items of `kubectl cluster-info
/// dump`'s EventList carry no `kind` of their own, and their `involvedObject` says `"kind": "Pod"`.
pub(crate) fn looks_like(first: &str, text: &str) -> bool {
    if first.starts_with('{') || first.starts_with('[') {
        return crate::pod::json_kind(text, "Event")
            || crate::pod::json_kind(text, "EventList")
            || text.contains("\"involvedObject\"");
    }
    let key = first.split(':').next().unwrap_or("").trim();
    matches!(
        key,
        "apiVersion" | "kind" | "metadata" | "items" | "count" | "action"
    ) && text.lines().any(|l| {
        let l = l.trim_start().trim_start_matches("- ").trim_end();
        l == "kind: Event" || l == "kind: EventList" || l == "involvedObject:"
    })
}

fn to_json(n: &Node) -> J {
    match &n.value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.clone()),
        Value::Seq(v) => J::Array(v.iter().map(to_json).collect()),
        Value::Map(m) => J::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
    }
}

/// The items (each with its line) of every document, and the kinds of documents that hold none.
type Items = (Vec<(J, usize)>, Vec<String>);

/// One document's items (a List's or EventList's) or the document itself (an Event); `lines`:
/// each item's line, in order.
fn items_of(doc: J, lines: Vec<usize>, out: &mut Items) {
    let mut lines = lines.into_iter();
    match doc.get("items").and_then(J::as_array) {
        Some(a) if !matches!(s(&doc, &["kind"]), Some(k) if k != "List" && k != "EventList") => {
            for it in a {
                out.0.push((it.clone(), lines.next().unwrap_or(1)));
            }
        }
        _ if s(&doc, &["kind"]) == Some("Event") || doc.get("involvedObject").is_some() => {
            out.0.push((doc, lines.next().unwrap_or(1)));
        }
        _ => out.1.push(
            s(&doc, &["kind"])
                .unwrap_or("a document without kind")
                .to_string(),
        ),
    }
}

fn json_items(body: &str) -> Result<Items, ReadError> {
    let mut out: Items = (Vec::new(), Vec::new());
    let mut stream = serde_json::Deserializer::from_str(body).into_iter::<J>();
    let mut pos = 0;
    let mut counted = Lines::default();
    let mut first = true;
    loop {
        match stream.next() {
            None => break,
            Some(Ok(doc)) => {
                // Each item's line: where its name appears, searched onwards so items keep
                // their order.
                let named: Vec<&J> = match doc.get("items").and_then(J::as_array) {
                    Some(a) => a.iter().collect(),
                    None => vec![&doc],
                };
                let mut lines = Vec::new();
                for it in named {
                    lines.push(match s(it, &["metadata", "name"]) {
                        Some(n) if !n.is_empty() => {
                            let needle = format!("\"{n}\"");
                            match body[pos.min(body.len())..].find(&needle) {
                                Some(i) => {
                                    let l = counted.of(body, pos + i);
                                    pos += i + 1;
                                    l
                                }
                                None => 1,
                            }
                        }
                        _ => 1,
                    });
                }
                items_of(doc, lines, &mut out);
                pos = pos.max(stream.byte_offset());
            }
            Some(Err(e)) if first => {
                return Err(ReadError {
                    line: e.line().max(1),
                    message: format!(
                    "not valid JSON ({e}); `kubectl get events -o json` prints one JSON document"
                ),
                })
            }
            Some(Err(e)) => {
                out.1.push(format!(
                    "a document cut or broken at line {} ({e})",
                    e.line()
                ));
                break;
            }
        }
        first = false;
    }
    Ok(out)
}

fn yaml_items(body: &str) -> Result<Items, ReadError> {
    let docs = yaml::parse(body).map_err(|e| {
        crate::pod::yaml_error(
            e,
            "YAML",
            "`kubectl get events -o yaml` prints one document",
        )
    })?;
    let mut out: Items = (Vec::new(), Vec::new());
    for d in docs {
        let lines: Vec<usize> = match d.root.get("items").map(|n| &n.value) {
            Some(Value::Seq(v)) => v.iter().map(|n| n.line).collect(),
            _ => vec![d.root.line],
        };
        items_of(to_json(&d.root), lines, &mut out);
    }
    Ok(out)
}

/// The pod a controller's `SuccessfulDelete` names.
fn deleted_pod(kind: &str, message: &str) -> Option<String> {
    let name = match kind {
        "ReplicaSet" | "DaemonSet" | "ReplicationController" | "Job" => {
            message.strip_prefix("Deleted pod: ")?
        }
        "StatefulSet" => message.strip_prefix("delete Pod ")?.split(' ').next()?,
        _ => return None,
    };
    (!name.is_empty()).then(|| name.to_string())
}

pub(crate) fn read(text: &str) -> Result<Evidence, ReadError> {
    // Comment lines (a fixture's source) and the pasted command line are blanked, keeping line
    // numbers (`% kubectl get events -o yaml` is a YAML directive otherwise).
    let mut before_data = true;
    let body: String = text
        .lines()
        .map(|l| {
            let blank = is_comment(l) || (before_data && l.contains("kubectl "));
            before_data &= blank || l.trim().is_empty();
            if blank {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let json = body.trim_start().starts_with(['{', '[']);
    let (items, others) = if json {
        json_items(&body)?
    } else {
        yaml_items(&body)?
    };
    if items.is_empty() {
        return Err(ReadError {
            line: 1,
            message: format!(
                "{}, but not a list of Events (kind {}; expected `kubectl get events -o json|yaml`, or audit log lines with apiVersion audit.k8s.io/v1)",
                if json { "JSON" } else { "YAML" },
                others.first().map_or("none", String::as_str)
            ),
        });
    }
    let mut ev = Evidence {
        format: Format::EventsJson,
        absolute: true,
        obs: Vec::new(),
        unread: Vec::new(),
        skipped: 0,
        notes: Vec::new(),
        yearless: false,
    };
    if !others.is_empty() {
        ev.notes.push(format!(
            "other documents, not read as events (a `kubectl cluster-info dump`?): {}",
            others.join(", ")
        ));
    }
    // Per pod name: each involvedObject.uid with its first and last time.
    let mut uids: BTreeMap<String, Vec<(String, i64, i64)>> = BTreeMap::new();
    for (it, line) in items {
        if s(&it, &["kind"]).is_some_and(|k| k != "Event") {
            ev.skipped += 1;
            continue;
        }
        let name = s(&it, &["metadata", "name"]).unwrap_or("");
        let t = |k: &[&str]| s(&it, k).and_then(time::rfc3339);
        let first = t(&["eventTime"])
            .or_else(|| t(&["firstTimestamp"]))
            .or_else(|| t(&["deprecatedFirstTimestamp"]))
            .or_else(|| t(&["lastTimestamp"]))
            .or_else(|| t(&["metadata", "creationTimestamp"]));
        let Some(t0) = first else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "an Event without eventTime, firstTimestamp or lastTimestamp".into(),
                text: cut(name),
            });
            continue;
        };
        let t1 = t(&["series", "lastObservedTime"])
            .or_else(|| t(&["lastTimestamp"]))
            .or_else(|| t(&["deprecatedLastTimestamp"]))
            .filter(|t1| *t1 > t0);
        let count = ["count", "deprecatedCount"]
            .iter()
            .find_map(|k| it.get(k).and_then(J::as_u64))
            .or_else(|| {
                it.get("series")
                    .and_then(|x| x.get("count"))
                    .and_then(J::as_u64)
            })
            .unwrap_or(1);
        let obj = |k: &str| {
            s(&it, &["involvedObject", k])
                .or_else(|| s(&it, &["regarding", k]))
                .unwrap_or("")
        };
        let (kind, obj_name, uid) = (obj("kind"), obj("name").to_string(), obj("uid"));
        let reason = s(&it, &["reason"]).unwrap_or("");
        let message = s(&it, &["message"])
            .or_else(|| s(&it, &["note"]))
            .unwrap_or("");
        let by = s(&it, &["source", "component"])
            .or_else(|| s(&it, &["reportingComponent"]))
            .or_else(|| s(&it, &["reportingController"]))
            .filter(|b| !b.is_empty())
            .map(str::to_string);
        let host = s(&it, &["source", "host"])
            .or_else(|| s(&it, &["reportingInstance"]))
            .filter(|h| !h.is_empty())
            .map(str::to_string);
        if kind == "Pod" && !uid.is_empty() {
            let seen = uids.entry(obj_name.clone()).or_default();
            match seen.iter_mut().find(|(u, ..)| u == uid) {
                Some(u) => {
                    u.1 = u.1.min(t0);
                    u.2 = u.2.max(t1.unwrap_or(t0));
                }
                None => seen.push((uid.to_string(), t0, t1.unwrap_or(t0))),
            }
        }
        let mut pod = (kind == "Pod").then(|| obj_name.clone());
        let what = match (reason, kind) {
            ("SuccessfulDelete", _) => deleted_pod(kind, message).map(|p| {
                pod = Some(p);
                What::PodDeleted
            }),
            _ => {
                let on = match kind {
                    "Pod" => On::Pod,
                    "Node" => On::Node,
                    _ => On::Any,
                };
                reasons::said(reason, on, message, by.as_deref()).map(|(w, _)| match w {
                    // An event's NodeNotReady on a pod carries its time and writer (the node
                    // lifecycle controller): its Ready change, as the pod's sequence takes it.
                    What::ControllerNotReady => What::ReadyChanged(false),
                    w => w,
                })
            }
        };
        let Some(what) = what else {
            ev.skipped += 1;
            continue;
        };
        let node_level = kind == "Node";
        let node = if node_level {
            Some(obj_name)
        } else if what == What::PodDeleted {
            None
        } else {
            host
        };
        for t_ms in std::iter::once(t0).chain(t1) {
            ev.obs.push(Obs {
                t_ms,
                pod: pod.clone(),
                node: node.clone(),
                what: what.clone(),
                by: by.clone(),
                line,
                file: 0,
            });
        }
        if t1.is_none() && count > 1 {
            ev.notes.push(format!(
                "line {line}: {reason} of {} seen {count} times, all within the second {}",
                pod.as_deref().or(node.as_deref()).unwrap_or("?"),
                time::clock_text(t0)
            ));
        }
        if let Some(t1) = t1 {
            ev.notes.push(format!(
                "line {line}: {reason} of {} seen {count} times from {} to {}: read at both ends{}",
                pod.as_deref().or(node.as_deref()).unwrap_or("?"),
                time::clock_text(t0),
                time::clock_text(t1),
                match count {
                    0..=2 => String::new(),
                    n => format!(", the {} in between have no time of their own", n - 2),
                }
            ));
        }
    }
    for (pod, seen) in &uids {
        if seen.len() > 1 {
            let each: Vec<String> = seen
                .iter()
                .map(|(u, a, b)| {
                    format!(
                        "uid {}… {}–{}",
                        u.get(..8).unwrap_or(u),
                        time::clock_text(*a),
                        time::clock_text(*b)
                    )
                })
                .collect();
            ev.notes.push(format!(
                "{pod} is {} pods by one name ({}): deleted and created again, so its Killing then Started is not a container restart",
                seen.len(),
                each.join(", then ")
            ));
        }
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    Ok(ev)
}
