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
//! runtime binary answers: `RuntimeStarted`), its KERNEL-VERSION changing (another kernel
//! booted: `NodeRebooted`), its AGE going down (the node object re-created).

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
    let mut out = Vec::new();
    // (A markdown fence's backtick the reporter left after it: okd#459's `VERSION\``.)
    for x in l.trim_end().trim_end_matches('`').split_whitespace() {
        let mut known = None;
        for lay in LAYOUTS {
            known = known.or(lay.iter().find(|c| **c == x));
        }
        out.push(*known?);
    }
    (out.len() > 1 && out[0] == "NAME" && out.contains(&"STATUS")).then_some(out)
}

pub(crate) fn looks_like(first: &str) -> bool {
    header(first).is_some() || headerless(first).is_some()
}

/// The row read by `cols` (its printing and line left 0); trailing columns may be missing (a
/// non-wide printing, a cut row), not those up to AGE.
fn fit(cols: &[&'static str], row: &str) -> Option<Row> {
    let tok: Vec<&str> = row.split_whitespace().collect();
    let mut i = 0;
    let mut r = Row {
        p: 0,
        line: 0,
        name: String::new(),
        st: String::new(),
        age: 0,
        version: None,
        runtime: None,
        kernel: None,
    };
    for (k, col) in cols.iter().enumerate() {
        let Some(c) = tok.get(i).copied() else {
            let need = cols.iter().position(|c| *c == "AGE").unwrap_or(cols.len());
            return (k > need).then_some(r);
        };
        // The OS image's words: all but the single-word columns after it.
        let mut n = 1;
        match *col {
            // `node/n1` when kubectl printed more than one kind (`get nodes,pods`).
            "NAME" if status(c).is_none() => r.name = c.strip_prefix("node/").unwrap_or(c).into(),
            "STATUS" if status(c).is_some() => r.st = c.into(),
            "AGE" => r.age = time::age(c)?,
            "VERSION" if c.starts_with('v') && c[1..].starts_with(|x: char| x.is_ascii_digit()) => {
                r.version = Some(c.into())
            }
            "INTERNAL-IP" | "EXTERNAL-IP"
                if c == "<none>" || c.split('.').count() == 4 || c.contains(':') => {}
            "CONTAINER-RUNTIME" => r.runtime = Some(c.into()),
            "OS-IMAGE" => n = (tok.len() - i).saturating_sub(cols.len() - k - 1).max(1),
            "KERNEL-VERSION" => r.kernel = Some(c.into()),
            "ROLES" | "LABELS" => {}
            _ => return None,
        }
        i += n;
    }
    (i == tok.len()).then_some(r)
}

/// The first layout a row without its header fits.
fn headerless(row: &str) -> Option<Row> {
    LAYOUTS.iter().find_map(|l| fit(l, row))
}

/// The names printed on more than one row of one header's block that cannot be one node's:
/// masked (`10.aa.aa.aaa`, `node-xxx`, `****`), or an AGE that went down (the node object
/// re-created) and then back up to the old one's (a watch would need that long). With the line
/// of each name's first row.
fn edited(rows: &[Row], blocks: &[usize]) -> Vec<(usize, String)> {
    // Each name's rows, in order (one pass: a cluster's `get nodes -w` has thousands).
    let mut group: Names = Names::new();
    let mut rows_of: Vec<Vec<usize>> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let g = *group.entry(&r.name).or_insert(rows_of.len());
        if g == rows_of.len() {
            rows_of.push(Vec::new());
        }
        rows_of[g].push(i);
    }
    let mut out: Vec<(usize, String)> = Vec::new();
    let res = |a: i64| a + time::age_resolution_ms(a);
    for all in rows_of.iter().filter(|g| g.len() > 1) {
        // Block by block, from the name's first row in each.
        for (k, &i) in all.iter().enumerate() {
            if all[..k].iter().any(|&j| blocks[j] == blocks[i]) {
                continue;
            }
            let same: Vec<&Row> = all[k..]
                .iter()
                .filter(|&&j| blocks[j] == blocks[i])
                .map(|&j| &rows[j])
                .collect();
            if same.len() < 2 {
                continue;
            }
            let back_up = same.iter().enumerate().any(|(a, x)| {
                same[a + 1..].iter().enumerate().any(|(b, y)| {
                    res(y.age) < x.age && same[a + 1 + b + 1..].iter().any(|z| res(z.age) >= x.age)
                })
            });
            if masked(&rows[i].name) || back_up {
                // In the rows' order (no sort: its code weighs on the importer's wasm).
                let line = rows[i].line;
                let at = out.iter().position(|o| o.0 > line).unwrap_or(out.len());
                out.insert(at, (line, rows[i].name.clone()));
                break;
            }
        }
    }
    out
}

/// Row indices by node name (the one map `read` uses, for its size in the importer's wasm).
type Names<'a> = std::collections::BTreeMap<&'a str, usize>;

/// A name a reporter masked: `***`, `xxx`, `<node>`, or every letter one letter repeated
/// (`10.aa.aa.aaa`).
fn masked(name: &str) -> bool {
    let letters: Vec<char> = name.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    name.contains("***")
        || name.to_ascii_lowercase().contains("xxx")
        || name.starts_with('<')
        || (letters.len() >= 3 && letters.iter().all(|&c| c == letters[0]))
}

/// An observation of a row's node (not inlined: one copy of the code for every kind).
#[inline(never)]
fn node_obs(r: &Row, what: What, by: &str) -> Obs {
    Obs {
        t_ms: r.age,
        pod: None,
        node: Some(r.name.clone()),
        what,
        by: Some(format!("kubectl ({by})")),
        line: r.line,
        file: 0,
    }
}

/// A row as read: its printing, line, NAME, STATUS, AGE, VERSION, CONTAINER-RUNTIME,
/// KERNEL-VERSION.
struct Row {
    p: usize,
    line: usize,
    name: String,
    st: String,
    age: i64,
    version: Option<String>,
    runtime: Option<String>,
    /// `-o wide`'s KERNEL-VERSION (`status.nodeInfo.kernelVersion`).
    kernel: Option<String>,
}

// Not inlined: inlined into both of dispatch's callers it counted twice in the importer's wasm.
// (Written for size: no sort, no map, one note for every column's change.)
#[inline(never)]
pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::NodesTable, false);
    let mut cols: Option<Vec<&'static str>> = None;
    let mut rows: Vec<Row> = Vec::new();
    // Each row's header block (a new header: a new printing).
    let mut block = 0;
    let mut blocks: Vec<usize> = Vec::new();
    // The rows read before each header.
    let mut starts: Vec<usize> = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.trim().is_empty() || is_comment(l) {
            continue;
        }
        if let Some(h) = header(l) {
            cols = Some(h);
            block += 1;
            starts.push(rows.len());
            continue;
        }
        let Some(mut row) = cols
            .as_ref()
            .and_then(|c| fit(c, crate::types::without_note(l)))
            .or_else(|| headerless(crate::types::without_note(l)))
        else {
            // A prompt and its command (`root@master~ # kubectl get nodes -o wide`).
            if l.contains("kubectl ") || l.contains("oc get ") {
                ev.skipped += 1;
            } else {
                ev.unread.push(Unread {
                    line: n + 1,
                    file: 0,
                    why: "not a `kubectl get nodes` row".into(),
                    text: cut(l),
                });
            }
            continue;
        };
        row.line = n + 1;
        blocks.push(block);
        rows.push(row);
    }
    // Names a reporter edited to one (`10.aa.aa.aaa` on every row, microk8s#1022): each row its
    // own node, never one node's changes.
    for (line, name) in edited(&rows, &blocks) {
        ev.notes.push(format!(
            "line {line}: {name} names more than one node (the names were edited in the paste: masked, or an AGE no one node could have): each row read as its own node"
        ));
        for r in rows.iter_mut().filter(|r| r.name == name) {
            r.name = format!("{} (line {})", r.name, r.line);
        }
    }
    let mut p = 0;
    let mut from = 0;
    let mut printings: Vec<usize> = Vec::with_capacity(rows.len());
    let mut seen: Names = Names::new();
    for i in 0..=rows.len() {
        // A header after rows: another printing (even one the paste cut before its rows).
        if starts.contains(&i) && i > from {
            p += 1;
            from = i;
        }
        if i == rows.len() {
            break;
        }
        // `-w` without a header between: a node printed again starts another printing.
        if seen.insert(&rows[i].name, i).is_some_and(|j| j >= from) {
            p += 1;
            from = i;
        }
        printings.push(p);
    }
    for (r, p) in rows.iter_mut().zip(printings) {
        r.p = p;
    }
    // Printings pasted out of the order kubectl printed them (kubespray#1344's "… but before
    // upgrade:"): two nodes or more of the first printing, every one younger. Read first (one
    // node's AGE going down alone is that node object re-created).
    let mut first: Names = Names::new();
    for (i, r) in rows.iter().enumerate().filter(|(_, r)| r.p == 0) {
        first.entry(&r.name).or_insert(i);
    }
    let mut of_printing: Vec<Vec<usize>> = vec![Vec::new(); p + 1];
    for (i, r) in rows.iter().enumerate() {
        of_printing[r.p].push(i);
    }
    let earlier = |q: usize| {
        let mut n = 0;
        for r in of_printing[q].iter().map(|&i| &rows[i]) {
            match first.get(r.name.as_str()).map(|&i| &rows[i]) {
                Some(o) if r.age + time::age_resolution_ms(r.age) <= o.age => n += 1,
                Some(_) => return false,
                None => {}
            }
        }
        n >= 2
    };
    let early: Vec<bool> = (0..=p).map(|q| q > 0 && earlier(q)).collect();
    let mut order: Vec<usize> = Vec::new();
    for (q, _) in early.iter().enumerate().filter(|x| *x.1) {
        order.push(q);
        ev.notes.push(format!(
            "printing {}: every node younger than in the first: printed before it, read first",
            q + 1
        ));
    }
    order.extend((0..=p).filter(|&q| !early[q]));
    // Each node's latest row.
    let mut last: Vec<&Row> = Vec::new();
    let mut at_of: Names = Names::new();
    for r in order
        .iter()
        .flat_map(|&q| of_printing[q].iter().map(|&i| &rows[i]))
    {
        let obs = |what, by: &str| node_obs(r, what, by);
        let ready = status(&r.st);
        let at = at_of.get(r.name.as_str()).copied();
        // AGE gone down by more than its resolution: another node object.
        let was = at
            .map(|i| last[i])
            .filter(|w| r.age + time::age_resolution_ms(r.age) > w.age);
        match was {
            None => {
                if at.is_some() {
                    ev.notes.push(format!("line {}: node {}'s AGE went down: the node object was re-created (a kubelet registered it again)", r.line, r.name));
                }
                ev.obs
                    .push(obs(What::NodeReady(ready == Some("Ready")), "STATUS"));
                if let Some(v) = &r.version {
                    ev.obs.push(obs(What::KubeletVersion(v.clone()), "VERSION"));
                }
                if ready != Some("Ready") {
                    ev.notes.push(format!(
                        "line {}: node {} {} when printed (NotReady: Ready False or Unknown; Unknown: none posted): a state, not a restart",
                        r.line, r.name, r.st
                    ));
                }
            }
            Some(w) => {
                // Each column's change; a cell cut by the paste's end (`cri-o://1.`) is none.
                let turned = if status(&w.st) == ready {
                    if r.st.contains("SchedulingDisabled") {
                        "cordoned, as before a drain or an upgrade"
                    } else {
                        "uncordoned"
                    }
                } else if ready == Some("Ready") {
                    "Ready again: a kubelet or node restart, or an outage's end (weak)"
                } else {
                    "its kubelet stopped posting Ready"
                };
                for (col, a, b, why) in [
                    ("STATUS", Some(&w.st), Some(&r.st), turned),
                    (
                        "VERSION",
                        w.version.as_ref(),
                        r.version.as_ref(),
                        "the kubelet upgraded in place (restarted)",
                    ),
                    (
                        "CONTAINER-RUNTIME",
                        w.runtime.as_ref(),
                        r.runtime.as_ref(),
                        "the runtime restarted (upgraded)",
                    ),
                    // The kubelet reads the kernel's version at its start (cAdvisor's
                    // `MachineInfo`): another one is another kernel booted, a reboot.
                    (
                        "KERNEL-VERSION",
                        w.kernel.as_ref(),
                        r.kernel.as_ref(),
                        "another kernel booted: the node rebooted",
                    ),
                ] {
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    if a == b || (col != "STATUS" && a.starts_with(b.as_str())) {
                        continue;
                    }
                    ev.notes.push(format!(
                        "line {}: node {}'s {col} {a} (line {}) → {b}: {why}",
                        r.line, r.name, w.line
                    ));
                    let what = match col {
                        "STATUS" if status(a) != ready => What::NodeReady(ready == Some("Ready")),
                        "STATUS" => continue,
                        "VERSION" => What::KubeletVersion(b.clone()),
                        "KERNEL-VERSION" => What::NodeRebooted(format!("KERNEL-VERSION {a} → {b}")),
                        _ => What::RuntimeStarted(b.clone()),
                    };
                    ev.obs.push(obs(what, &format!("{col} changed")));
                }
            }
        }
        match at {
            Some(i) => last[i] = r,
            None => {
                at_of.insert(&r.name, last.len());
                last.push(r);
            }
        }
    }
    let mut versions: Vec<&str> = Vec::new();
    for v in last.iter().filter_map(|w| w.version.as_deref()) {
        if !versions.contains(&v) {
            versions.push(v);
        }
    }
    if versions.len() > 1 {
        ev.notes.push(format!(
            "kubelets at different versions ({}): a mixed cluster, no one node's upgrade",
            versions.join(", ")
        ));
    }
    ev.notes.push(if p == 0 {
        "one printing of `kubectl get nodes`: each node's state when printed, not a restart (for a sequence: `kubectl get nodes -w` across the incident, or the node's events)".into()
    } else {
        format!("{} printings of `kubectl get nodes`: each node's changes, at its AGE", p + 1)
    });
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_layout() {
        let r = headerless("node1   Ready    control-plane   8d    v1.26.7   192.168.72.30   <none>        Ubuntu 22.04.2 LTS   5.15.0-78-generic   containerd://1.6.22").unwrap();
        assert_eq!(r.runtime.as_deref(), Some("containerd://1.6.22"));
        let r =
            headerless("aks-agentpool1-24428535-4   NotReady,agent   9m        v1.7.7").unwrap();
        assert_eq!(
            (r.st.as_str(), r.version.as_deref()),
            ("NotReady,agent", Some("v1.7.7"))
        );
        let r = headerless("ip-10-147-1-49.ec2.internal    Ready     1m").unwrap();
        assert_eq!((r.age, r.version), (60_000, None));
        assert!(headerless("default   Active   5d").is_none());
        assert!(headerless("web-0   1/1   Running   0   4m").is_none());
        assert!(header("NAME READY STATUS RESTARTS AGE").is_none());
        assert_eq!(header("NAME STATUS AGE LABELS").map(|h| h.len()), Some(4));
        // kubectl 1.0 (kubernetes#10486), no header.
        let r =
            headerless("10.10.103.162   kubernetes.io/hostname=10.10.103.162   NotReady").unwrap();
        assert_eq!(r.st, "NotReady");
    }

    /// `kubectl get nodes -w` (laid out as kubectl prints it; no real transcript of one node's
    /// rows found): each row of a node printed again is a change; AGE going down is a new object.
    #[test]
    fn watch_rows_are_changes() {
        let ev = read("NAME   STATUS     ROLES    AGE   VERSION\nn1     Ready      <none>   5d    v1.28.3\nn1     NotReady   <none>   5d    v1.28.3\nn1     Ready      <none>   5d    v1.28.4\nn1     Ready      <none>   2m    v1.28.4\n");
        let what: Vec<(usize, What)> = ev.obs.iter().map(|o| (o.line, o.what.clone())).collect();
        assert_eq!(
            what,
            [
                (2, What::NodeReady(true)),
                (2, What::KubeletVersion("v1.28.3".into())),
                (3, What::NodeReady(false)),
                (4, What::NodeReady(true)),
                (4, What::KubeletVersion("v1.28.4".into())),
                (5, What::NodeReady(true)),
                (5, What::KubeletVersion("v1.28.4".into())),
            ]
        );
        assert!(
            ev.notes.iter().any(|n| n.contains("AGE went down")),
            "{:?}",
            ev.notes
        );
        assert!(ev.notes.iter().any(|n| n.starts_with("4 printings")));
        // NotReady then Ready: a weak reboot hint, never named on its own; the version change
        // on n1 is an in-place upgrade, named (moderate).
        use crate::explain::{signature, OtherRestart};
        let node = signature(OtherRestart::Node, &ev.obs);
        assert_eq!(node.score, 20.0, "{:?}", node.why);
        assert_eq!(signature(OtherRestart::Upgrade, &ev.obs).score, 60.0);
    }
}
