//! `kubectl get events` as a table (kubectl's default printer, with or without `-w`, `-A`,
//! `-o wide`): a header with `LAST SEEN`, `TYPE`, `REASON` and `OBJECT` (older kubectl: `KIND`,
//! `NAME`), then one row per event. Read through the event reasons every events reader shares
//! (`reasons.rs`, data: the kubelet's from `pkg/kubelet/events/event.go`, per release).
//!
//! Times: LAST SEEN is an age counted back from when kubectl printed the row, so times are
//! relative (`t_ms` = −age): the notes say so. Rows are split on the header's column offsets
//! when they line up (kubectl's tabwriter), else on whitespace with the message last.

use crate::reasons::{self, On};
use crate::time;
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

/// The columns kubectl's events printer has printed, by version (`printers.go`
/// `printEvent`/`AddHandlers` and its predecessors); `-A` puts NAMESPACE first. A row pasted
/// without its header is read with the first layout it fits. A new kubectl layout is a line here.
const LAYOUTS: [&[&str]; 3] = [
    // 1.14 and later.
    &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
    // 1.3–1.13 (LASTSEEN, then LAST SEEN from 1.10), with SUBOBJECT …
    &[
        "LAST SEEN",
        "FIRST SEEN",
        "COUNT",
        "NAME",
        "KIND",
        "SUBOBJECT",
        "TYPE",
        "REASON",
        "SOURCE",
        "MESSAGE",
    ],
    // … and with an empty SUBOBJECT, which leaves no cell.
    &[
        "LAST SEEN",
        "FIRST SEEN",
        "COUNT",
        "NAME",
        "KIND",
        "TYPE",
        "REASON",
        "SOURCE",
        "MESSAGE",
    ],
];

/// The cells of a row: apart by two spaces or more (kubectl's tabwriter pads with three).
fn cells(row: &str) -> Vec<&str> {
    row.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The layout a row pasted without its header fits: its TYPE cell is Normal or Warning, its
/// LAST SEEN an age, and it has every column up to REASON (MESSAGE may wrap to the next line).
fn headerless(row: &str) -> Option<Vec<&'static str>> {
    let c = cells(row);
    // Each layout, then with `-A`'s NAMESPACE first.
    let with_ns = LAYOUTS.into_iter().flat_map(|l| {
        [
            l.to_vec(),
            std::iter::once("NAMESPACE")
                .chain(l.iter().copied())
                .collect(),
        ]
    });
    with_ns.into_iter().find(|l| {
        let at = |n: &str| l.iter().position(|x| *x == n);
        let (Some(ty), Some(seen), Some(reason)) = (at("TYPE"), at("LAST SEEN"), at("REASON"))
        else {
            return false;
        };
        c.len() > reason
            && c.len() <= l.len()
            && matches!(c[ty], "Normal" | "Warning")
            && time::age(c[seen]).is_some()
            && (l[0] != "NAMESPACE" || time::age(c[0]).is_none())
    })
}

/// The header's columns: (name, byte offset).
fn columns(h: &str) -> Vec<(String, usize)> {
    let names = [
        "NAMESPACE",
        "LAST SEEN",
        "LASTSEEN",
        "FIRST SEEN",
        "FIRSTSEEN",
        "COUNT",
        "NAME",
        "KIND",
        "SUBOBJECT",
        "TYPE",
        "REASON",
        "OBJECT",
        "SOURCE",
        "MESSAGE",
    ];
    let mut out: Vec<(String, usize)> = Vec::new();
    for n in names {
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
    for (n, raw) in &joined {
        let (line, raw) = (n + 1, raw.as_str());
        if raw.trim().is_empty() || is_comment(raw) {
            continue;
        }
        if is_header(raw) {
            cols = columns(raw);
            continue;
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
        let get = |name: &str| -> Option<String> {
            if aligned(raw, &cols) {
                return cell(raw, &cols, name).map(str::to_string);
            }
            // Unaligned (`-w` prints each row through its own tabwriter): cells are still apart
            // by two spaces or more (kubectl pads with three).
            let cells: Vec<&str> = raw
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect();
            let i = cols.iter().position(|c| c.0 == name)?;
            if name == "MESSAGE" && i + 1 == cols.len() {
                return Some(cells.get(i..)?.join("  "));
            }
            cells.get(i).map(|w| w.to_string())
        };
        let (Some(age), Some(kind), Some(reason)) = (get("LAST SEEN"), get("TYPE"), get("REASON"))
        else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "not a `kubectl get events` row".into(),
                text: cut(raw),
            });
            continue;
        };
        let age_ms = match time::age(age.split_whitespace().next().unwrap_or("")) {
            Some(a) => a,
            None if age == "<unknown>" => 0,
            None => {
                ev.unread.push(Unread {
                    line,
                    file: 0,
                    why: format!("LAST SEEN {age:?} is not a kubectl age"),
                    text: cut(raw),
                });
                continue;
            }
        };
        if !matches!(kind.as_str(), "Normal" | "Warning") {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: format!("TYPE {kind:?} is not Normal or Warning"),
                text: cut(raw),
            });
            continue;
        }
        // `pod/web-0` (OBJECT), or KIND and NAME (older kubectl: `web-0.17a…` is the event's
        // name, the object's name before its first dot).
        let (okind, oname) = match get("OBJECT") {
            Some(o) => match o.split_once('/') {
                Some((k, n)) => (k.to_lowercase(), n.to_string()),
                None => (String::new(), o),
            },
            None => (
                get("KIND").unwrap_or_default().to_lowercase(),
                get("NAME")
                    .unwrap_or_default()
                    .split('.')
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ),
        };
        let msg = get("MESSAGE").unwrap_or_default();
        let from = get("SOURCE").unwrap_or_default();
        let on = match okind.as_str() {
            "pod" => On::Pod,
            "node" => On::Node,
            _ => On::Any,
        };
        // SOURCE: `kubelet, node-a` (`-o wide`), `{kubelet node-a}` (before 1.10).
        let from = from.trim_matches(|c| c == '{' || c == '}');
        let source = from.split([',', ' ']).next().filter(|f| !f.is_empty());
        let Some((what, by)) = reasons::said(&reason, on, &msg, source) else {
            ev.skipped += 1;
            continue;
        };
        let by = source.unwrap_or(by).to_string();
        ev.obs.push(Obs {
            t_ms: -age_ms,
            pod: (on == On::Pod).then(|| oname.clone()),
            node: (on == On::Node).then(|| oname.clone()),
            what,
            by: Some(by),
            line,
            file: 0,
        });
    }
    if !ev.obs.is_empty() {
        ev.notes.push(
            "LAST SEEN counts back from when kubectl printed the row: times are relative (with -w, each row's from its own printing), a repeated event at its last time only"
                .into(),
        );
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    ev
}
