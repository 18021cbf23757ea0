//! `kubectl get pods -w` transcripts: `NAME READY STATUS RESTARTS AGE` rows (a header is
//! optional: reports often paste rows only), with `--output-watch-events` an `EVENT` column
//! (ADDED, MODIFIED, DELETED), with `-A` a `NAMESPACE` column, with `-o wide` more after AGE.
//! The only clock is AGE, relative to the pod's creation: an observation's `t_ms` is the AGE.
//! A pod's first row gives its Ready state (`ReadyAtStart`) and its restart count
//! (`RestartCount`); each later row whose READY column says otherwise is a change, each higher
//! RESTARTS a `Restarted`. One printing (`kubectl get pods`, each pod once): the pods whose
//! `RESTARTS 1 (3m9s ago)` put their last restart at one moment (`RestartedTogether`), and a
//! STATUS the kubelet's graceful node shutdown wrote (`Shutdown`, `Terminated`).

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use std::collections::BTreeMap;

struct Row<'a> {
    event: Option<&'a str>,
    name: &'a str,
    ready: (u32, u32),
    status: &'a str,
    restarts: u32,
    /// `2 (5m3s ago)`: the last restart counted back from when kubectl printed the row (printPod's
    /// `lastRestartDate`, the latest `lastState.terminated.finishedAt` of the pod's containers).
    last_ago_ms: Option<i64>,
    age_ms: i64,
    /// `-o wide`'s NODE (after AGE and IP).
    node: Option<&'a str>,
}

fn ready_col(t: &str) -> Option<(u32, u32)> {
    let (a, b) = t.split_once('/')?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a <= b && b > 0).then_some((a, b))
}

fn row(l: &str) -> Result<Row<'_>, String> {
    let t: Vec<&str> = crate::types::without_note(l).split_whitespace().collect();
    let i = t
        .iter()
        .position(|x| ready_col(x).is_some())
        .ok_or("no READY column (like 1/1)")?;
    if i == 0 {
        return Err("no NAME before the READY column".into());
    }
    if other_kind(t[i - 1]) {
        return Err(
            "another kind's row (`kubectl get deploy,pod` prints each kind's table)".into(),
        );
    }
    let event = match t[0] {
        e @ ("ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR") => Some(e),
        _ => None,
    };
    let status = *t.get(i + 1).ok_or("no STATUS column")?;
    let restarts: u32 = t
        .get(i + 2)
        .and_then(|r| r.parse().ok())
        .ok_or("no RESTARTS column (a number)")?;
    let mut j = i + 3;
    let mut last_ago_ms = None;
    if t.get(j).is_some_and(|x| x.starts_with('(')) {
        last_ago_ms = time::age(t[j].trim_start_matches('('));
        while t.get(j).is_some_and(|x| !x.ends_with(')')) {
            j += 1;
        }
        j += 1;
    }
    let age = *t.get(j).ok_or("no AGE column")?;
    let age_ms = time::age(age).ok_or_else(|| format!("AGE {age:?} is not a kubectl age"))?;
    // `-o wide`: IP (or `<none>`), then NODE.
    let ip = |x: &str| x == "<none>" || x.split('.').count() == 4 || x.contains(':');
    let node = match (t.get(j + 1), t.get(j + 2)) {
        (Some(a), Some(n)) if ip(a) && *n != "<none>" => Some(*n),
        _ => None,
    };
    Ok(Row {
        event,
        // `kubectl get pods,nodes` names each row by its kind: `pod/web-0`.
        name: t[i - 1].strip_prefix("pod/").unwrap_or(t[i - 1]),
        ready: ready_col(t[i]).expect("checked"),
        status,
        restarts,
        last_ago_ms,
        age_ms,
        node,
    })
}

/// A row of another kind in `kubectl get deploy,pod` (`deployment.apps/web`, `node/n1`): its
/// name carries its kind, and it is not a pod's.
pub(crate) fn other_kind(name: &str) -> bool {
    name.split_once('/')
        .is_some_and(|(k, n)| k != "pod" && !k.is_empty() && !n.is_empty() && !k.contains(':'))
}

/// A `kubectl get` header of another kind's table (`NAME  READY  UP-TO-DATE  AVAILABLE  AGE`):
/// upper-case words from NAME on, no STATUS.
pub(crate) fn other_header(l: &str) -> bool {
    let w: Vec<&str> = l.split_whitespace().collect();
    w.first() == Some(&"NAME")
        && w.len() >= 3
        && !w.contains(&"STATUS")
        && w.iter().all(|x| {
            x.bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'-' || b == b'(' || b == b')')
        })
}

pub(crate) fn is_header(l: &str) -> bool {
    let t: Vec<&str> = l.split_whitespace().collect();
    t.contains(&"NAME") && t.contains(&"READY") && t.contains(&"STATUS")
}

pub(crate) fn looks_like(first: &str) -> bool {
    is_header(first) || row(first).is_ok()
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence {
        format: Format::KubectlWatch,
        absolute: false,
        obs: Vec::new(),
        unread: Vec::new(),
        skipped: 0,
        notes: Vec::new(),
        yearless: false,
    };
    // Per pod: (ready, restarts, terminating).
    let mut last: BTreeMap<String, (bool, u32, bool)> = BTreeMap::new();
    // Each pod's first row, and whether the paste is one printing (no pod printed twice, no
    // watch event column): `kubectl get pods`, not `-w`.
    let mut firsts: Vec<First> = Vec::new();
    let mut one_moment = true;
    for (n, l) in text.lines().enumerate() {
        let line = n + 1;
        if l.trim().is_empty() || is_comment(l) || is_header(l) {
            continue;
        }
        // A shell prompt before the command (`[root@master ~]# kubectl get pod -w`).
        if l.contains("kubectl ") && row(l).is_err() {
            ev.skipped += 1;
            continue;
        }
        // Another kind's table in the same printing (`kubectl get deploy,pod`).
        if other_header(l) || l.split_whitespace().next().is_some_and(other_kind) {
            ev.skipped += 1;
            continue;
        }
        let r = match row(l) {
            Ok(r) => r,
            Err(why) => {
                ev.unread.push(Unread {
                    line,
                    file: 0,
                    why: format!("not a `kubectl get pods -w` row: {why}"),
                    text: cut(l),
                });
                continue;
            }
        };
        let ready = r.ready.0 == r.ready.1;
        let terminating = r.status == "Terminating" || r.event == Some("DELETED");
        let obs = |what| Obs {
            t_ms: r.age_ms,
            pod: Some(r.name.to_string()),
            node: None,
            what,
            by: None,
            line,
            file: 0,
        };
        one_moment &= r.event.is_none() && !last.contains_key(r.name);
        match last.get(r.name).copied() {
            None => {
                firsts.push(First {
                    name: r.name.to_string(),
                    line,
                    ready: ready && r.ready.1 > 0,
                    restarts: r.restarts,
                    last_ago_ms: r.last_ago_ms,
                    age_ms: r.age_ms,
                    node: r.node.map(str::to_string),
                    status: r.status.to_string(),
                });
                ev.obs.push(obs(What::ReadyAtStart(ready)));
                // The RESTARTS column is the restart count: a transcript whose count never moves
                // shows no restart (explain holds that against a model that restarts).
                ev.obs.push(obs(What::RestartCount(r.restarts)));
                // The pod before its containers run (the scheduler's or the kubelet's first
                // statuses, pkg/printers/internalversion/printers.go printPod).
                if matches!(
                    r.status,
                    "Pending" | "ContainerCreating" | "PodInitializing"
                ) || r.status.starts_with("Init:")
                {
                    ev.obs.push(obs(What::PodCreated(r.status.to_string())));
                }
                // Already being deleted when first printed.
                if terminating {
                    ev.obs.push(obs(What::PodDeleted));
                }
                // The kubelet's graceful node shutdown terminated it: printPod shows the pod's
                // status reason, "Shutdown" ("Node is shutting, evicting pods") when the node
                // shutdown manager came (1.20), "Terminated" ("Pod was terminated in response to
                // imminent node shutdown.") later (nodeshutdown_manager_linux.go).
                if matches!(r.status, "Shutdown" | "Terminated") {
                    ev.obs.push(obs(What::PodMessage {
                        reason: r.status.to_string(),
                        message: "terminated by the kubelet's graceful node shutdown".into(),
                    }));
                }
            }
            Some((was, restarts, term)) => {
                if r.restarts > restarts {
                    ev.obs.push(obs(What::Restarted(r.restarts)));
                }
                if was != ready {
                    ev.obs.push(obs(What::ReadyChanged(ready)));
                }
                if terminating && !term {
                    ev.obs.push(obs(What::PodDeleted));
                }
            }
        }
        last.insert(r.name.to_string(), (ready, r.restarts, terminating));
    }
    if one_moment {
        together(&firsts, &mut ev);
    }
    ev
}

/// A pod's first row, for what one printing of the table says across its pods.
struct First {
    name: String,
    line: usize,
    ready: bool,
    restarts: u32,
    last_ago_ms: Option<i64>,
    age_ms: i64,
    node: Option<String>,
    status: String,
}

/// One printing of `kubectl get pods` (every row at one moment, so every `(5m ago)` counts back
/// from the same time): per node (`-o wide`; else the table as one), the pods whose containers
/// last restarted at one moment. Said only when they are every pod of that node whose RESTARTS
/// says when it last restarted (a pod in `CrashLoopBackOff` or `Error` restarts on its own), at
/// least two, and no Ready pod there older than that moment went without a restart: as after a
/// node reboot, when every container on the node starts again in a new sandbox.
fn together(firsts: &[First], ev: &mut Evidence) {
    let own = |f: &First| matches!(f.status.as_str(), "CrashLoopBackOff" | "Error");
    let mut nodes: Vec<Option<&str>> = Vec::new();
    for f in firsts {
        if !nodes.contains(&f.node.as_deref()) {
            nodes.push(f.node.as_deref());
        }
    }
    for node in nodes {
        let here: Vec<&First> = firsts
            .iter()
            .filter(|f| f.node.as_deref() == node)
            .collect();
        let timed: Vec<(&First, i64)> = here
            .iter()
            .filter(|f| f.restarts > 0 && !own(f))
            .filter_map(|f| f.last_ago_ms.map(|a| (*f, a)))
            .collect();
        if timed.len() < 2
            || timed.len() < here.iter().filter(|f| f.restarts > 0 && !own(f)).count()
        {
            continue;
        }
        let lo = timed.iter().map(|x| x.1).min().unwrap_or(0);
        let hi = timed.iter().map(|x| x.1).max().unwrap_or(0);
        // Containers of a rebooted node start over tens of seconds (sandboxes, image checks);
        // kubectl's `(7m51s ago)` is to the second below 10 minutes, to the minute below 3
        // hours, and to the hour after (`3d1h`): too coarse to call two restarts one moment.
        let res = time::age_resolution_ms(hi);
        let tol = 30_000.max(2 * res);
        if res > 60_000 || hi - lo > tol {
            continue;
        }
        if here
            .iter()
            .any(|f| f.ready && f.restarts == 0 && f.age_ms > hi + tol)
        {
            continue;
        }
        let first = timed.iter().map(|x| x.0.line).min().unwrap_or(0);
        let names: Vec<&str> = timed.iter().map(|x| x.0.name.as_str()).collect();
        ev.obs.push(Obs {
            t_ms: 0,
            pod: None,
            node: node.map(str::to_string),
            what: What::RestartedTogether {
                pods: names.len() as u32,
                ago_ms: hi,
            },
            by: Some("kubectl (RESTARTS)".into()),
            line: first,
            file: 0,
        });
        ev.notes.push(format!(
            "line {first}: {} pods' containers last restarted at one moment, {} before kubectl printed the table ({}), every pod{} that says when it restarted",
            names.len(),
            crate::time::duration_text(hi),
            names.join(", "),
            node.map_or(String::new(), |n| format!(" on {n}"))
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_and_without_events_and_restarts_ago() {
        let r = row("MODIFIED   web-0   0/1   Running   2 (5s ago)   4m1s").unwrap();
        assert_eq!(r.event, Some("MODIFIED"));
        assert_eq!(
            (r.name, r.ready, r.restarts, r.age_ms),
            ("web-0", (0, 1), 2, 241_000)
        );
        let r = row("busybox-test-1   1/1     Running   0              3m48s").unwrap();
        assert_eq!(r.age_ms, 228_000);
        assert!(row("NAME READY STATUS RESTARTS AGE").is_err());
        assert!(row("web-0 1/1 Running").is_err());
    }
}
