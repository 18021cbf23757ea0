//! `kubectl get pods -w` transcripts: `NAME READY STATUS RESTARTS AGE` rows (a header is
//! optional: reports often paste rows only), with `--output-watch-events` an `EVENT` column
//! (ADDED, MODIFIED, DELETED), with `-A` a `NAMESPACE` column, with `-o wide` more after AGE.
//! The only clock is AGE, relative to the pod's creation: an observation's `t_ms` is the AGE.
//! A pod's first row gives its Ready state (`ReadyAtStart`) and its restart count
//! (`RestartCount`); each later row whose READY column says otherwise is a change, each higher
//! RESTARTS a `Restarted`.

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use std::collections::BTreeMap;

struct Row<'a> {
    event: Option<&'a str>,
    name: &'a str,
    ready: (u32, u32),
    status: &'a str,
    restarts: u32,
    age_ms: i64,
}

fn ready_col(t: &str) -> Option<(u32, u32)> {
    let (a, b) = t.split_once('/')?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a <= b && b > 0).then_some((a, b))
}

fn row(l: &str) -> Result<Row<'_>, String> {
    let t: Vec<&str> = l.split_whitespace().collect();
    let i = t
        .iter()
        .position(|x| ready_col(x).is_some())
        .ok_or("no READY column (like 1/1)")?;
    if i == 0 {
        return Err("no NAME before the READY column".into());
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
    if t.get(j).is_some_and(|x| x.starts_with('(')) {
        while t.get(j).is_some_and(|x| !x.ends_with(')')) {
            j += 1;
        }
        j += 1;
    }
    let age = *t.get(j).ok_or("no AGE column")?;
    let age_ms = time::age(age).ok_or_else(|| format!("AGE {age:?} is not a kubectl age"))?;
    Ok(Row {
        event,
        name: t[i - 1],
        ready: ready_col(t[i]).expect("checked"),
        status,
        restarts,
        age_ms,
    })
}

fn is_header(l: &str) -> bool {
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
        match last.get(r.name).copied() {
            None => {
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
    ev
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
