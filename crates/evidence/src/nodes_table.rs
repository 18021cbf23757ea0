//! `kubectl get nodes` (`oc get nodes`) as a table, with or without its header, `-o wide`, `-w`
//! (rows repeat as nodes change) or several printings in one paste. Columns by kubectl's release
//! (`LAYOUTS`, data: `printers.go` `nodeColumnDefinitions` and its predecessors); a row is read
//! by the kind of each cell (a status, an age, a `v1.x` version, an IP, the OS image's words, a
//! `containerd://` runtime), so lost padding does not matter.
//!
//! What a printing says is each node's state when kubectl printed it — STATUS (`Ready`,
//! `NotReady`, `Unknown`, `,SchedulingDisabled`), its kubelet's VERSION and (`-o wide`) its
//! CONTAINER-RUNTIME — at its AGE, the only clock (relative to the node object's creation, as a
//! pod's in `watch`). One printing: states (`NodeReady`, `KubeletVersion`), no restart. A node
//! printed again: its STATUS changing (`NodeReady`), its VERSION changing (the kubelet upgraded
//! in place: a new `KubeletVersion` of the same node), its runtime's version changing (another
//! runtime binary answers: `RuntimeStarted`), its AGE going down (the node object re-created).

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};

/// The columns kubectl's node printer has printed, newest first; a non-wide printing stops after
/// VERSION (AGE before 1.6), `--show-labels` adds LABELS last. A row without its header is read
/// with the first layout it fits; a header names its own columns. A new layout is a line here.
pub(crate) const LAYOUTS: [&[&str]; 6] = [
    // 1.11 and later (`-o wide` with INTERNAL-IP).
    &[
        "NAME",
        "STATUS",
        "ROLES",
        "AGE",
        "VERSION",
        "INTERNAL-IP",
        "EXTERNAL-IP",
        "OS-IMAGE",
        "KERNEL-VERSION",
        "CONTAINER-RUNTIME",
    ],
    // 1.8–1.10: ROLES from the `node-role.kubernetes.io/*` labels (kubernetes#50438, #51173).
    &[
        "NAME",
        "STATUS",
        "ROLES",
        "AGE",
        "VERSION",
        "EXTERNAL-IP",
        "OS-IMAGE",
        "KERNEL-VERSION",
        "CONTAINER-RUNTIME",
    ],
    // 1.6–1.7: no ROLES (a `kubernetes.io/role` label printed in STATUS: `Ready,agent`).
    &[
        "NAME",
        "STATUS",
        "AGE",
        "VERSION",
        "EXTERNAL-IP",
        "OS-IMAGE",
        "KERNEL-VERSION",
    ],
    // 1.2–1.5: `NAME STATUS AGE` (`oc get nodes` of origin 1.2 too).
    &["NAME", "STATUS", "AGE", "LABELS"],
    // 1.1: LABELS before STATUS.
    &["NAME", "LABELS", "STATUS", "AGE"],
    // 1.0: no AGE.
    &["NAME", "LABELS", "STATUS"],
];

/// A STATUS cell: printNode's `Ready`, `NotReady` (the Ready condition False or Unknown) or
/// `Unknown` (no Ready condition), then `,SchedulingDisabled` (cordoned) or, before 1.8, roles.
fn status(c: &str) -> Option<&str> {
    let s = c.split(',').next()?;
    matches!(s, "Ready" | "NotReady" | "Unknown").then_some(s)
}

/// A header of `kubectl get nodes`: NAME, STATUS and node columns only (`get pods` has READY).
pub(crate) fn header(l: &str) -> Option<Vec<&'static str>> {
    let w: Vec<&str> = l.split_whitespace().collect();
    if w.len() < 2 || w[0] != "NAME" || !w.contains(&"STATUS") {
        return None;
    }
    w.iter()
        .map(|x| {
            LAYOUTS
                .iter()
                .flat_map(|l| l.iter())
                .find(|c| *c == x)
                .copied()
        })
        .collect()
}

pub(crate) fn looks_like(first: &str) -> bool {
    header(first).is_some() || headerless(first).is_some()
}

/// The row's cells by `cols`; trailing columns may be missing (a non-wide printing, a cut row),
/// not those up to AGE.
fn fit(cols: &[&'static str], row: &str) -> Option<Vec<(&'static str, String)>> {
    let tok: Vec<&str> = row.split_whitespace().collect();
    let mut i = 0;
    let mut out = Vec::new();
    for (k, col) in cols.iter().enumerate() {
        let Some(c) = tok.get(i).copied() else {
            let need = cols.iter().position(|c| *c == "AGE").unwrap_or(cols.len());
            return (k > need).then_some(out);
        };
        let ok = match *col {
            "NAME" => status(c).is_none(),
            "STATUS" => status(c).is_some(),
            "AGE" => time::age(c).is_some(),
            "VERSION" => c.starts_with('v') && c[1..].starts_with(|x: char| x.is_ascii_digit()),
            "INTERNAL-IP" | "EXTERNAL-IP" => {
                c == "<none>" || c.split('.').count() == 4 || c.contains(':')
            }
            _ => true,
        };
        if !ok {
            return None;
        }
        // The OS image's words: all but the single-word columns after it.
        let n = if *col == "OS-IMAGE" {
            (tok.len() - i).saturating_sub(cols.len() - k - 1).max(1)
        } else {
            1
        };
        out.push((*col, tok[i..i + n].join(" ")));
        i += n;
    }
    (i == tok.len()).then_some(out)
}

/// The first layout a row without its header fits.
fn headerless(row: &str) -> Option<Vec<(&'static str, String)>> {
    LAYOUTS.iter().find_map(|l| fit(l, row))
}

/// A node as last printed.
struct Last {
    ready: String,
    status: String,
    version: Option<String>,
    runtime: Option<String>,
    age_ms: i64,
    line: usize,
}

type Cells = Vec<(&'static str, String)>;

fn cell(cells: &Cells, c: &str) -> Option<String> {
    cells.iter().find(|x| x.0 == c).map(|x| x.1.clone())
}

fn age_of(cells: &Cells) -> i64 {
    cell(cells, "AGE").and_then(|a| time::age(&a)).unwrap_or(0)
}

// Not inlined: inlined into both of dispatch's callers it counted twice in the importer's wasm.
#[inline(never)]
pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::NodesTable, false);
    let mut cols: Option<Vec<&'static str>> = None;
    // Each row: (its printing, line, cells).
    let mut rows: Vec<(usize, usize, Cells)> = Vec::new();
    let mut printing = 0;
    let mut in_printing: Vec<String> = Vec::new();
    for (n, l) in text.lines().enumerate() {
        let line = n + 1;
        if l.trim().is_empty() || is_comment(l) {
            continue;
        }
        if let Some(h) = header(l) {
            cols = Some(h);
            if !in_printing.is_empty() {
                printing += 1;
                in_printing.clear();
            }
            continue;
        }
        // A prompt and its command (`root@master~ # kubectl get nodes -o wide`).
        if (l.contains("kubectl ") || l.contains("oc get ")) && headerless(l).is_none() {
            ev.skipped += 1;
            continue;
        }
        let Some(cells) = cols
            .as_ref()
            .and_then(|c| fit(c, l))
            .or_else(|| headerless(l))
        else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "not a `kubectl get nodes` row (NAME STATUS ROLES AGE VERSION)".into(),
                text: cut(l),
            });
            continue;
        };
        // `-w` without a header between: a node printed again starts another printing.
        let name = cell(&cells, "NAME").unwrap_or_default();
        if in_printing.contains(&name) {
            printing += 1;
            in_printing.clear();
        }
        in_printing.push(name);
        rows.push((printing, line, cells));
    }
    let printings = printing + 1;
    // Printings pasted out of the order kubectl printed them ("… but before the upgrade:"): every
    // node the first printing has is younger in it. Read in AGE order (one node's AGE going down
    // alone is that node object re-created).
    let first = |p: usize| rows.iter().find(|r| r.0 == p).map_or(0, |r| r.1);
    let key = |p: usize| {
        rows.iter()
            .filter(|r| r.0 == p)
            .filter_map(|r| {
                let then = rows
                    .iter()
                    .find(|o| o.0 == 0 && cell(&o.2, "NAME") == cell(&r.2, "NAME"))?;
                let (a, b) = (age_of(&then.2), age_of(&r.2));
                Some(if b + time::age_resolution_ms(b) <= a {
                    b - a
                } else {
                    0
                })
            })
            .collect::<Vec<i64>>()
    };
    // Two nodes at least (a `-w` row of one re-created node is no earlier printing).
    let key = |p: usize| {
        let d = key(p);
        if d.len() < 2 {
            0
        } else {
            d.into_iter().max().unwrap_or(0)
        }
    };
    // (No sort: its code is kilobytes in the importer's wasm; the earlier printings keep the
    // order they were pasted in among themselves.)
    let mut order: Vec<usize> = (0..printings).filter(|&p| key(p) < 0).collect();
    order.extend((0..printings).filter(|&p| key(p) >= 0));
    for &p in order.iter().take_while(|&&p| p != 0) {
        ev.notes.push(format!(
            "line {}: every node is younger in this printing than in the one at line {}: it was printed before, and is read first",
            first(p),
            first(0)
        ));
    }
    let mut last: Vec<(String, Last)> = Vec::new();
    for (_, line, cells) in order
        .iter()
        .flat_map(|&p| rows.iter().filter(move |r| r.0 == p))
    {
        let line = *line;
        let get = |c: &str| cell(cells, c);
        let name = get("NAME").unwrap_or_default();
        let st = get("STATUS").unwrap_or_default();
        let ready = status(&st).unwrap_or("").to_string();
        let age_ms = get("AGE").and_then(|a| time::age(&a)).unwrap_or(0);
        let version = get("VERSION");
        let runtime = get("CONTAINER-RUNTIME");
        let obs = |what, by: &str| Obs {
            t_ms: age_ms,
            pod: None,
            node: Some(name.clone()),
            what,
            by: Some(format!("kubectl ({by})")),
            line,
            file: 0,
        };
        let state = |ready: &str| What::NodeReady(ready == "Ready");
        let was = last.iter().find(|x| x.0 == name).map(|x| &x.1).filter(|w| {
            // AGE gone down by more than its printing's resolution: another node object.
            let re = age_ms + time::age_resolution_ms(age_ms) <= w.age_ms;
            if re {
                ev.notes.push(format!(
                    "line {line}: node {name}'s AGE went from {} (line {}) to {}: the node object was re-created (deleted, and registered again by a kubelet starting, on this machine or a new one)",
                    time::duration_text(w.age_ms),
                    w.line,
                    time::duration_text(age_ms)
                ));
            }
            !re
        });
        match was {
            None => {
                ev.obs.push(obs(state(&ready), "STATUS"));
                if let Some(v) = &version {
                    ev.obs.push(obs(What::KubeletVersion(v.clone()), "VERSION"));
                }
                if ready != "Ready" {
                    ev.notes.push(format!(
                        "line {line}: node {name} {st}{} when kubectl printed it: a state at the time of the paste, not a restart{}",
                        version.as_ref().map_or(String::new(), |v| format!(", kubelet {v}")),
                        if ready == "Unknown" { " (Unknown: the node has no Ready condition: its kubelet never posted one)" } else { "" }
                    ));
                }
            }
            Some(w) => {
                if w.ready != ready {
                    ev.obs.push(obs(state(&ready), "STATUS"));
                    ev.notes.push(format!(
                        "line {line}: node {name} {} → {ready} (line {}): {}",
                        w.ready,
                        w.line,
                        if ready == "Ready" {
                            "its kubelet posts Ready again — a sign of a kubelet or node restart, or an outage's end, not which"
                        } else {
                            "its kubelet stopped posting Ready (the kubelet, its runtime or the node down, or unreachable)"
                        }
                    ));
                }
                let cordoned = |s: &str| s.contains("SchedulingDisabled");
                if cordoned(&w.status) != cordoned(&st) {
                    ev.notes.push(format!(
                        "line {line}: node {name} {} (line {})",
                        if cordoned(&st) {
                            "cordoned (SchedulingDisabled), as before a drain or an upgrade"
                        } else {
                            "uncordoned"
                        },
                        w.line
                    ));
                }
                if let (Some(a), Some(b)) = (&w.version, &version) {
                    if !a.starts_with(b.as_str()) {
                        ev.obs.push(obs(What::KubeletVersion(b.clone()), "VERSION"));
                        ev.notes.push(format!(
                            "line {line}: node {name}'s kubelet went from {a} (line {}) to {b}: upgraded in place, so the kubelet restarted",
                            w.line
                        ));
                    }
                }
                // A cell cut by the paste's end (`cri-o://1.`) is no other version.
                if let (Some(a), Some(b)) = (&w.runtime, &runtime) {
                    if !a.starts_with(b.as_str()) {
                        ev.obs
                            .push(obs(What::RuntimeStarted(b.clone()), "CONTAINER-RUNTIME"));
                        ev.notes.push(format!(
                            "line {line}: node {name}'s container runtime went from {a} (line {}) to {b}: another runtime binary answers the kubelet, so it was restarted (upgraded)",
                            w.line
                        ));
                    }
                }
            }
        }
        let now = Last {
            ready,
            status: st,
            version,
            runtime,
            age_ms,
            line,
        };
        match last.iter_mut().find(|x| x.0 == name) {
            Some(x) => x.1 = now,
            None => last.push((name, now)),
        }
    }
    let mut versions: Vec<&str> = Vec::new();
    for v in last.iter().filter_map(|x| x.1.version.as_deref()) {
        if !versions.contains(&v) {
            versions.push(v);
        }
    }
    if versions.len() > 1 {
        ev.notes.push(format!(
            "the nodes' kubelets are at different versions ({}): a cluster mid-upgrade or mixed, not a restart of any one node",
            versions.join(", ")
        ));
    }
    ev.notes.push(if printings == 1 {
        "one printing of `kubectl get nodes`: each node's state when kubectl printed it (AGE is the node object's, not a time of the incident): states, not a restart. For a sequence: `kubectl get nodes -w` across the incident, or the node's events (`kubectl get events --field-selector involvedObject.kind=Node`)".into()
    } else {
        format!("{printings} printings of `kubectl get nodes`: a node's changes between them are read, each at its AGE (the node object's age)")
    });
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_layout() {
        let r = headerless("node1   Ready    control-plane   8d    v1.26.7   192.168.72.30   <none>        Ubuntu 22.04.2 LTS   5.15.0-78-generic   containerd://1.6.22").unwrap();
        assert_eq!(r[7], ("OS-IMAGE", "Ubuntu 22.04.2 LTS".into()));
        assert_eq!(r[9], ("CONTAINER-RUNTIME", "containerd://1.6.22".into()));
        let r =
            headerless("aks-agentpool1-24428535-4   NotReady,agent   9m        v1.7.7").unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r[3], ("VERSION", "v1.7.7".into()));
        assert_eq!(
            headerless("ip-10-147-1-49.ec2.internal    Ready     1m").map(|r| r.len()),
            Some(3)
        );
        assert!(headerless("default   Active   5d").is_none());
        assert!(headerless("web-0   1/1   Running   0   4m").is_none());
        assert!(header("NAME READY STATUS RESTARTS AGE").is_none());
        assert_eq!(header("NAME STATUS AGE LABELS").map(|h| h.len()), Some(4));
        // kubectl 1.0 (kubernetes#10486), no header.
        let r =
            headerless("10.10.103.162   kubernetes.io/hostname=10.10.103.162   NotReady").unwrap();
        assert_eq!(r[2], ("STATUS", "NotReady".into()));
    }
}
