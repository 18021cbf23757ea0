//! `kubectl get events` as a table (kubectl's default printer, with or without `-w`, `-A`,
//! `-o wide`): a header with `LAST SEEN`, `TYPE`, `REASON` and `OBJECT` (older kubectl: `KIND`,
//! `NAME`), then one row per event. Read through the event reasons every events reader shares
//! (`reasons.rs`, data: the kubelet's from `pkg/kubelet/events/event.go`, per release).
//!
//! Times: LAST SEEN is an age counted back from when kubectl printed the row, so times are
//! relative (`t_ms` = −age): the notes say so. Rows are split on the header's column offsets
//! when they line up (kubectl's tabwriter), else on whitespace with the message last.

use crate::event_row::{self, When};
use crate::reasons::{self, On};
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread};

/// A header of `kubectl get events`: `LAST SEEN` (kubectl before 1.10 printed `LASTSEEN`, with
/// `FIRSTSEEN` before it and SOURCE as `{kubelet NODE}`), `TYPE`, `REASON`, and `OBJECT` or
/// `KIND`.
pub(crate) fn is_header(l: &str) -> bool {
    // kubectl before 1.3 had no TYPE column (FIRSTSEEN LASTSEEN COUNT NAME KIND SUBOBJECT
    // REASON SOURCE MESSAGE).
    (l.contains("LAST SEEN") || l.contains("LASTSEEN"))
        && l.contains("REASON")
        && (l.contains("OBJECT") || l.contains("KIND"))
}

pub(crate) fn looks_like(first: &str) -> bool {
    is_header(first) || headerless(first).is_some()
}

/// The cells of a row: apart by two spaces or more (kubectl's tabwriter pads with three).
fn cells(row: &str) -> Vec<&str> {
    row.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The layout a row pasted without its header fits (`event_row::LAYOUTS`, data).
fn headerless(row: &str) -> Option<Vec<&'static str>> {
    event_row::headerless(row).map(|(l, _)| l)
}

/// The columns a header can name: every column of `event_row::LAYOUTS`, `-A`'s NAMESPACE, and
/// the old spellings LASTSEEN and FIRSTSEEN.
fn header_names() -> impl Iterator<Item = &'static str> {
    ["NAMESPACE", "LASTSEEN", "FIRSTSEEN"]
        .into_iter()
        .chain(event_row::LAYOUTS.iter().flat_map(|l| l.iter().copied()))
}

fn column(name: &str) -> Option<&'static str> {
    header_names().find(|c| *c == name)
}

/// The header's columns: (name, byte offset).
fn columns(h: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for n in header_names() {
        // The old spelling's column is the same column.
        let name = match n {
            "LASTSEEN" => "LAST SEEN",
            "FIRSTSEEN" => "FIRST SEEN",
            n => n,
        };
        let mut from = 0;
        while let Some(i) = h[from..].find(n) {
            let at = from + i;
            let before_ok = at == 0 || h.as_bytes()[at - 1] == b' ';
            let end = at + n.len();
            let after_ok = end == h.len() || h.as_bytes()[end] == b' ';
            // Whole words only: `SUBOBJECT` holds `OBJECT`, `NAMESPACE` holds `NAME`.
            if before_ok && after_ok {
                out.push((name.to_string(), at));
                break;
            }
            from = end;
        }
    }
    out.sort_by_key(|c| c.1);
    out.dedup_by_key(|c| c.1);
    out
}

fn cell<'a>(row: &'a str, cols: &[(String, usize)], name: &str) -> Option<&'a str> {
    let i = cols.iter().position(|c| c.0 == name)?;
    let start = cols[i].1;
    let end = cols.get(i + 1).map_or(row.len(), |c| c.1.min(row.len()));
    row.get(start..end).map(str::trim)
}

/// Whether the row lines up with the header: each column starts after a space.
fn aligned(row: &str, cols: &[(String, usize)]) -> bool {
    cols.iter().all(|(_, o)| *o < usize::MAX / 2)
        && cols.iter().skip(1).all(|(_, o)| {
            *o < row.len() && row.is_char_boundary(*o) && row.as_bytes()[*o - 1] == b' '
        })
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::EventsTable, false);
    let mut cols: Vec<(String, usize)> = Vec::new();
    // Whether LAST SEEN was a date (absolute times) rather than an age.
    let mut dated = false;
    // After a `NAME AGE` header (the watch's generic printer): its line, and its rows.
    let mut generic: Option<usize> = None;
    let mut generic_rows = 0;
    // Rows pasted without their header, and a MESSAGE wrapped onto the next line (a reporter's
    // terminal): the wrapped line joins its row.
    let lines: Vec<&str> = text.lines().collect();
    let mut joined: Vec<(usize, String)> = Vec::new();
    for (n, raw) in lines.iter().enumerate() {
        let t = raw.trim();
        let continues = !t.is_empty()
            && !is_comment(t)
            && !is_header(raw)
            && headerless(raw).is_none()
            && joined.last().is_some_and(|(_, prev)| {
                headerless(prev).is_some_and(|l| cells(prev).len() < l.len())
            });
        if continues {
            let last = joined.last_mut().unwrap();
            last.1 = format!("{}   {t}", last.1.trim_end());
        } else {
            joined.push((n, raw.to_string()));
        }
    }
    let mut previous: Option<(usize, &str)> = None;
    for (n, raw) in &joined {
        let (line, raw) = (n + 1, raw.as_str());
        if raw.trim().is_empty() || is_comment(raw) {
            continue;
        }
        // A row printed again as it was (`-w` prints an event again on each update; a list
        // prints each event once): one event, read once (Azure/AKS#3927's two identical
        // ContainerdStart rows at a surge node's provisioning).
        match previous {
            Some((p, was)) if was.trim() == raw.trim() => {
                ev.notes.push(format!(
                    "line {line}: the same row as line {p} (as `-w` prints an event again when it is updated): read once"
                ));
                ev.skipped += 1;
                continue;
            }
            _ => previous = Some((line, raw)),
        }
        if is_header(raw) {
            cols = columns(raw);
            generic = None;
            continue;
        }
        // `kubectl get events -w` switching to its generic printer (`NAME AGE`, each event by
        // its object name `web-0.15d6831e50a3f780` and an age): nothing in those rows to read.
        let words: Vec<&str> = raw.split_whitespace().collect();
        if words == ["NAME", "AGE"] {
            generic = Some(line);
            ev.skipped += 1;
            continue;
        }
        if let (Some(_), [_, age]) = (generic, words.as_slice()) {
            if crate::time::age(age).is_some() {
                ev.skipped += 1;
                generic_rows += 1;
                continue;
            }
        }
        if cols.is_empty() {
            if let Some(layout) = headerless(raw) {
                // The layout as a header would give it (offsets only order the columns; the
                // row is read by its cells).
                let synthetic: Vec<(String, usize)> = (layout.iter().enumerate())
                    .map(|(i, c)| (c.to_string(), usize::MAX - layout.len() + i))
                    .collect();
                cols = synthetic;
                ev.notes.push(format!(
                    "line {line}: rows without their header, read with kubectl's columns {}",
                    layout.join(" ")
                ));
            }
        }
        if cols.is_empty() {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "a row before the `kubectl get events` header".into(),
                text: cut(raw),
            });
            continue;
        }
        // The cells as kubectl's tabwriter aligned them under the header, else (unaligned: `-w`
        // prints each row through its own tabwriter) apart by two spaces or more.
        let by_cells = |name: &str| -> Option<String> {
            if aligned(raw, &cols) {
                return cell(raw, &cols, name).map(str::to_string);
            }
            let cells = cells(raw);
            let i = cols.iter().position(|c| c.0 == name)?;
            if name == "MESSAGE" && i + 1 == cols.len() {
                return Some(cells.get(i..)?.join("  "));
            }
            cells.get(i).map(|w| w.to_string())
        };
        let typed = cols.iter().any(|c| c.0 == "TYPE");
        let names: Vec<&'static str> = cols.iter().filter_map(|c| column(&c.0)).collect();
        let row = match (by_cells("LAST SEEN"), by_cells("REASON")) {
            (Some(seen), Some(reason)) => {
                let ty = by_cells("TYPE");
                let seen = seen.split_whitespace().collect::<Vec<_>>();
                let ty_ok = !typed
                    || ty
                        .as_deref()
                        .is_some_and(|t| matches!(t, "Normal" | "Warning"));
                event_row::time_of(&seen)
                    .filter(|_| ty_ok)
                    .map(|w| (w, reason, None))
            }
            _ => None,
        };
        // Each cell by its kind (a date of six words, `{kubelet node}`, an empty SUBOBJECT).
        let row = row.or_else(|| {
            let f = event_row::fit(&names, raw)?;
            let reason = f.get("REASON")?.to_string();
            Some((f.last_seen, reason, Some(f)))
        });
        let Some((when, reason, fit)) = row else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "not a `kubectl get events` row".into(),
                text: cut(raw),
            });
            continue;
        };
        let get = |n: &str| match &fit {
            Some(f) => f.get(n).map(str::to_string),
            None => by_cells(n),
        };
        let t_ms = match when {
            When::Ago(a) => -a,
            When::At(t) => {
                dated = true;
                t
            }
        };
        // `pod/web-0` (OBJECT), or KIND and NAME (older kubectl: `web-0.17a…` is the event's
        // name, the object's name before its first dot); describe's rows name no object: a
        // SUBOBJECT `spec.containers{app}` is a pod's.
        let (okind, oname) = match get("OBJECT") {
            Some(o) => match o.split_once('/') {
                Some((k, n)) => (k.to_lowercase(), n.to_string()),
                None => (String::new(), o),
            },
            None if get("KIND").is_some() => (
                get("KIND").unwrap_or_default().to_lowercase(),
                get("NAME")
                    .unwrap_or_default()
                    .split('.')
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ),
            None if get("SUBOBJECT").is_some_and(|s| s.starts_with("spec.")) => {
                ("pod".into(), crate::pod::UNNAMED.to_string())
            }
            None => (String::new(), String::new()),
        };
        let msg = get("MESSAGE").unwrap_or_default();
        let from = get("SOURCE").or_else(|| get("FROM")).unwrap_or_default();
        let on = match okind.as_str() {
            "pod" => On::Pod,
            "node" => On::Node,
            _ if reasons::node_only(&reason, &msg) => On::Node,
            _ => On::Any,
        };
        // SOURCE: `kubelet, node-a` (`-o wide`), `{kubelet node-a}` (before 1.10).
        let from = from.trim_matches(|c| c == '{' || c == '}');
        let source = from.split([',', ' ']).next().filter(|f| !f.is_empty());
        // A node's event without its object's name (1.11–1.13's KIND column): the node its
        // message names, else the source's host.
        let oname = if oname.is_empty() && on == On::Node {
            reasons::node_in_message(&msg)
                .or_else(|| from.split([',', ' ']).nth(1).map(|h| h.trim().to_string()))
                .unwrap_or_default()
        } else {
            oname
        };
        let Some((what, by)) = reasons::said(&reason, on, &msg, source) else {
            ev.skipped += 1;
            continue;
        };
        let by = source.unwrap_or(by).to_string();
        ev.obs.push(Obs {
            t_ms,
            pod: (on == On::Pod).then(|| oname.clone()),
            node: (on == On::Node && !oname.is_empty()).then(|| oname.clone()),
            what,
            by: Some(by),
            line,
            file: 0,
        });
    }
    if let Some(l) = generic {
        ev.notes.push(format!("line {l}: `kubectl get events -w` went on with its generic printer (NAME AGE): {generic_rows} events named by their objects only, skipped"));
    }
    if dated {
        ev.absolute = true;
        ev.notes.push("LAST SEEN as a date (kubectl before 1.3, or a custom printer): a repeated event at its last time only".into());
    } else if !ev.obs.is_empty() {
        ev.notes.push(
            "LAST SEEN counts back from when kubectl printed the row: times are relative (with -w, each row's from its own printing), a repeated event at its last time only"
                .into(),
        );
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    ev
}
