//! One row of an events table as kubectl has printed it, by the columns of its release: the
//! layouts are data (`LAYOUTS`), and a row is read by the kind of each column's cell (a time, a
//! count, a name, a `{kubelet node}` source, the message to the end), so tabs, lost padding and
//! an empty SUBOBJECT do not matter. Used by `events_table` (`kubectl get events`, with or
//! without its header) and `describe` (its Events section of kubectl before 1.10).

use crate::time;

/// The columns kubectl's events printers have printed, by version (`printers.go`
/// `printEvent`/`AddHandlers`, `describe.go` `DescribeEvents`, and their predecessors); `-A`
/// puts NAMESPACE first. A row pasted without its header is read with the first layout it fits.
/// A new kubectl layout is a line here.
pub(crate) const LAYOUTS: [&[&str]; 8] = [
    // `get events -o wide`, 1.14 and later (`eventColumnDefinitions`, the columns of priority 1
    // added): SUBOBJECT empty for a node's event, SOURCE `kubelet, node-a`, the MESSAGE before
    // FIRST SEEN, COUNT and the event's NAME. Tried first: the plain layout's MESSAGE would take
    // its last columns.
    &[
        "LAST SEEN",
        "TYPE",
        "REASON",
        "OBJECT",
        "SUBOBJECT",
        "SOURCE",
        "MESSAGE",
        "FIRST SEEN",
        "COUNT",
        "NAME",
    ],
    // `get events`, 1.14 and later.
    &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
    // `get events`, 1.3–1.13 (LASTSEEN, then LAST SEEN from 1.10); SUBOBJECT may be empty.
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
    // `get events` before 1.3: FIRSTSEEN first, no TYPE, times as dates (`Sat, 21 Feb 2015
    // 02:59:53 +0000`), SOURCE as `{kubelet node}`.
    &[
        "FIRST SEEN",
        "LAST SEEN",
        "COUNT",
        "NAME",
        "KIND",
        "SUBOBJECT",
        "REASON",
        "SOURCE",
        "MESSAGE",
    ],
    // `describe`'s Events, 1.5–1.9: `FirstSeen LastSeen Count From SubObjectPath Type Reason
    // Message` (ages), the object being the one described.
    &[
        "FIRST SEEN",
        "LAST SEEN",
        "COUNT",
        "FROM",
        "SUBOBJECT",
        "TYPE",
        "REASON",
        "MESSAGE",
    ],
    // `describe`'s Events before 1.5: no Type, times as dates (2015: lower-case reasons).
    &[
        "FIRST SEEN",
        "LAST SEEN",
        "COUNT",
        "FROM",
        "SUBOBJECT",
        "REASON",
        "MESSAGE",
    ],
    // `get events -o wide`, 1.11–1.13 (kubectl printing the server's table: 1.13's
    // `eventColumnDefinitions` and `printEvent`): the involved object's KIND alone, capitalised,
    // its name only in the event's NAME at the end. Before the plain one, as above.
    &[
        "LAST SEEN",
        "TYPE",
        "REASON",
        "KIND",
        "SOURCE",
        "MESSAGE",
        "SUBOBJECT",
        "FIRST SEEN",
        "COUNT",
        "NAME",
    ],
    // `get events`, 1.11–1.13: no object's name at all (a node's event names it in its
    // message, `Node n1 has been rebooted, …`).
    &["LAST SEEN", "TYPE", "REASON", "KIND", "MESSAGE"],
];

/// When an event was last seen: an age counted back from the printing, or a date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum When {
    Ago(i64),
    At(i64),
}

/// A time cell's tokens: `3m` (an age), `<unknown>`, `2019-07-05T15:01:04Z`, or the six tokens of
/// `Tue, 07 Apr 2015 12:08:30 -0700`: (when, tokens taken).
fn time_at(tok: &[&str]) -> Option<(When, usize)> {
    let first = *tok.first()?;
    if first.ends_with(',') && tok.len() >= 6 {
        if let Some(t) = time::rfc1123z(&tok[..6].join(" ")) {
            return Some((When::At(t), 6));
        }
    }
    // `<unknown>`: no time; `<invalid>`: a time after kubectl's clock (apimachinery's
    // `duration.HumanDuration` of a negative age: the node's or the event's clock ahead).
    if first == "<unknown>" || first == "<invalid>" {
        return Some((When::Ago(0), 1));
    }
    if let Some(a) = time::age(first) {
        // `kubectl events`' repeated event: `5m (x3 over 10m)` (event_printer.go `getInterval`).
        let series = tok.get(1).is_some_and(|t| t.starts_with("(x"))
            && tok.get(2) == Some(&"over")
            && tok.get(3).is_some_and(|t| t.ends_with(')'));
        return Some((When::Ago(a), if series { 4 } else { 1 }));
    }
    time::rfc3339(first).map(|t| (When::At(t), 1))
}

/// A whole cell's time (its tokens).
pub(crate) fn time_of(tok: &[&str]) -> Option<When> {
    time_at(tok)
        .filter(|(_, n)| *n == tok.len())
        .map(|(w, _)| w)
}

/// A row read by a layout: each column's cell (SUBOBJECT `""` when the row has none) and when
/// the event was last seen.
pub(crate) struct Fitted {
    pub cells: Vec<(&'static str, String)>,
    pub last_seen: When,
}

impl Fitted {
    pub fn get(&self, col: &str) -> Option<&str> {
        self.cells.iter().find(|c| c.0 == col).map(|c| c.1.as_str())
    }
}

/// The row read with `layout`, or `None` if its tokens do not fit the layout's columns.
pub(crate) fn fit(layout: &[&'static str], row: &str) -> Option<Fitted> {
    let tok: Vec<&str> = row.split_whitespace().collect();
    let (cells, last_seen) = fit_tokens(layout, &tok)?;
    let reason = cells.iter().find(|c| c.0 == "REASON")?;
    if !reason.1.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some(Fitted {
        cells,
        last_seen: last_seen?,
    })
}

/// The cells of `tok` by `layout`, all tokens taken, and when it was last seen (if a column).
#[allow(clippy::type_complexity)]
fn fit_tokens(
    layout: &[&'static str],
    tok: &[&str],
) -> Option<(Vec<(&'static str, String)>, Option<When>)> {
    let mut i = 0;
    let mut cells = Vec::new();
    let mut last_seen = None;
    for (k, col) in layout.iter().enumerate() {
        let rest = &tok[i.min(tok.len())..];
        let (cell, n) = match *col {
            "LAST SEEN" | "FIRST SEEN" => {
                let (w, n) = time_at(rest)?;
                if *col == "LAST SEEN" {
                    last_seen = Some(w);
                }
                (rest[..n].join(" "), n)
            }
            "COUNT" => {
                let c = rest.first()?;
                c.bytes().all(|b| b.is_ascii_digit()).then_some(())?;
                (c.to_string(), 1)
            }
            "TYPE" => {
                let c = rest.first()?;
                matches!(*c, "Normal" | "Warning").then_some(())?;
                (c.to_string(), 1)
            }
            "KIND" => {
                let c = rest.first()?;
                (c.starts_with(|x: char| x.is_ascii_uppercase()) && !c.contains('/'))
                    .then_some(())?;
                (c.to_string(), 1)
            }
            "SUBOBJECT" => match rest.first() {
                Some(c) if c.starts_with("spec.") || *c == "<none>" || c.ends_with('}') => {
                    (c.to_string(), 1)
                }
                _ => (String::new(), 0),
            },
            "SOURCE" | "FROM" => {
                let c = rest.first()?;
                let n = if c.starts_with('{') {
                    rest.iter().position(|x| x.ends_with('}'))? + 1
                } else if c.ends_with(',') {
                    2
                } else {
                    1
                };
                (rest.get(..n)?.join(" "), n)
            }
            // The MESSAGE to the end, or (`-o wide`) up to the columns after it, as they fit
            // the row's last tokens.
            "MESSAGE" if k + 1 == layout.len() => (rest.join(" "), rest.len()),
            "MESSAGE" => {
                let after = &layout[k + 1..];
                let j = (0..=rest.len())
                    .rev()
                    .find(|&j| fit_tokens(after, &rest[j..]).is_some())?;
                let (tail, seen) = fit_tokens(after, &rest[j..])?;
                cells.push((*col, rest[..j].join(" ")));
                cells.extend(tail);
                last_seen = last_seen.or(seen);
                i += rest.len();
                break;
            }
            // 1.14's OBJECT: the kind in lower case (`node/n1`, `pod/web-0`; printers.go
            // `printEvent`), `kubectl events`' `Node/n1` (event_printer.go); never 1.11–1.13's
            // KIND alone.
            "OBJECT" => {
                let c = rest.first()?;
                (c.starts_with(|x: char| x.is_ascii_lowercase()) || c.contains('/'))
                    .then_some(())?;
                (c.to_string(), 1)
            }
            // NAMESPACE, NAME, REASON: one word, never a TYPE.
            _ => {
                let c = rest.first()?;
                (!matches!(*c, "Normal" | "Warning")).then_some(())?;
                (c.to_string(), 1)
            }
        };
        cells.push((*col, cell));
        i += n;
    }
    if i < tok.len() {
        return None;
    }
    Some((cells, last_seen))
}

/// The layouts, then each with `-A`'s NAMESPACE first.
pub(crate) fn layouts() -> impl Iterator<Item = Vec<&'static str>> {
    LAYOUTS.into_iter().flat_map(|l| {
        [
            l.to_vec(),
            std::iter::once("NAMESPACE")
                .chain(l.iter().copied())
                .collect(),
        ]
    })
}

/// The first layout a row without its header fits, with the row read by it. A layout without
/// TYPE fits only with its source as kubectl of that time wrote it (`{kubelet node}`).
pub(crate) fn headerless(row: &str) -> Option<(Vec<&'static str>, Fitted)> {
    layouts().find_map(|l| {
        let f = fit(&l, row)?;
        let typed = l.contains(&"TYPE");
        let braced = f
            .get("SOURCE")
            .or_else(|| f.get("FROM"))
            .is_some_and(|s| s.starts_with('{'));
        (typed || braced).then_some((l, f))
    })
}

/// One row of `kubectl describe`'s Events: (reason, from, last seen, message). kubectl 1.10 on:
/// `Type Reason Age From Message` (`3m (x3 over 4m)`: the last time first); before, the
/// `FirstSeen … Reason Message` layouts above.
pub(crate) fn describe_row(t: &str) -> Result<(String, String, When, String), String> {
    let cols: Vec<&str> = t
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    // Four columns: an event with no message (kube-proxy's `Starting`).
    if cols.len() >= 4 && matches!(cols[0], "Normal" | "Warning") {
        let age = cols[2].split_whitespace().next().unwrap_or("");
        let a = match age {
            // A time after kubectl's clock (`duration.HumanDuration` of a negative age).
            "<invalid>" => Some(0),
            _ => time::age(age),
        }
        .ok_or_else(|| format!("Age {age:?} is not a kubectl age"))?;
        return Ok((
            cols[1].to_string(),
            cols[3].to_string(),
            When::Ago(a),
            cols.get(4..).map_or(String::new(), |m| m.join("  ")),
        ));
    }
    for l in &LAYOUTS[4..6] {
        if let Some(f) = fit(l, t) {
            return Ok((
                f.get("REASON").unwrap_or("").to_string(),
                f.get("FROM").unwrap_or("").to_string(),
                f.last_seen,
                f.get("MESSAGE").unwrap_or("").to_string(),
            ));
        }
    }
    Err("not a row of describe's Events table (Type Reason Age From Message)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_release() {
        // kubectl 2015, describe's rows with tabs (lower-case reason, no Type).
        let r = "  Tue, 07 Apr 2015 12:08:30 -0700\tTue, 07 Apr 2015 12:08:30 -0700\t1\t{kubelet 127.0.0.1}\tspec.containers{nginx}\t\t\tkilling\t\tKilling 0b77";
        let (l, f) = headerless(r).unwrap();
        assert_eq!(l, LAYOUTS[5]);
        assert_eq!(f.get("REASON"), Some("killing"));
        assert_eq!(f.get("FROM"), Some("{kubelet 127.0.0.1}"));
        assert!(matches!(f.last_seen, When::At(_)));
        // 1.3–1.13 without its header, SUBOBJECT empty.
        let r = "1m         4m          9         n1-2-t95v1              Pod                     spec.containers{n1}           Warning   Unhealthy                 {kubelet localhost.localdomain}      Liveness probe failed";
        let (l, f) = headerless(r).unwrap();
        assert_eq!(l, LAYOUTS[2]);
        assert_eq!(f.get("MESSAGE"), Some("Liveness probe failed"));
        assert_eq!(f.last_seen, When::Ago(60_000));
        // 1.14+'s `-o wide` without its header: a node's event, SUBOBJECT empty (a kubeadm
        // lab's `kubectl get events -o wide`, as printed).
        let r = "21m         Normal    Starting                  node/controlplane                            kubelet, controlplane                     Starting kubelet.                                                                                     21m          1       controlplane.1813668e874fc7e1";
        let (l, f) = headerless(r).unwrap();
        assert_eq!(l, LAYOUTS[0]);
        assert_eq!(f.get("MESSAGE"), Some("Starting kubelet."));
        assert_eq!(f.get("SOURCE"), Some("kubelet, controlplane"));
        assert_eq!(f.get("COUNT"), Some("1"));
        assert_eq!(f.last_seen, When::Ago(21 * 60_000));
        // `kubectl events` (1.26 on, event_printer.go): OBJECT `Kind/Name`, a repeated event's
        // LAST SEEN `3m (x2 over 4m)`.
        let f = fit(LAYOUTS[1], "3m (x2 over 4m)   Normal   NodeNotReady   Node/n1   Node n1 status is now: NodeNotReady").unwrap();
        assert_eq!(f.get("OBJECT"), Some("Node/n1"));
        assert_eq!(f.last_seen, When::Ago(3 * 60_000));
        assert_eq!(
            f.get("MESSAGE"),
            Some("Node n1 status is now: NodeNotReady")
        );
        // The plain 1.14+ row is not taken for it.
        let r = "3m33s       Warning   FailedScheduling   pod/nginx-66f9f9cfd5-2w97n   0/1 nodes are available: 1 Insufficient cpu.";
        assert_eq!(headerless(r).unwrap().0, LAYOUTS[1]);
        assert!(headerless("NAME                 AGE").is_none());
        assert!(headerless("my-greenplum.15d6831e50a3f780   0s").is_none());
    }
}
