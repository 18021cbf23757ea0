//! One pod's sequence (its Ready before the restart, its Ready changes, Started changes,
//! restarts, exits), read from the evidence (`observed_all`) or from a model run (`modelled`), so
//! that `scoring` compares like with like. Called by `scoring` and `explain`'s ranking. Mirrors
//! no Kubernetes file.

use crate::types::{Obs, What};
use restartscope_sim::{Kind, Trace, Value};
use std::collections::HashMap;

/// One pod's sequence, observed or modelled.
#[derive(Clone, Debug, Default)]
pub(super) struct Seq {
    /// Ready before the restart (first seen).
    pub(super) initial: Option<bool>,
    /// (t ms, Ready) of each change.
    pub(super) ready: Vec<(i64, bool)>,
    pub(super) started: Vec<bool>,
    pub(super) restarts: Option<u32>,
    /// A snapshot's Ready (`kubectl get pod -o yaml`): (since, value), the last transition only.
    pub(super) since: Option<(i64, bool)>,
    /// A container exited or was killed (PLEG ContainerDied, a Killing event, a snapshot's
    /// terminated state).
    pub(super) died: bool,
    /// The file the Ready changes come from (observed sequences): its clock is theirs.
    pub(super) ready_file: Option<usize>,
}

/// Each pod's observed sequence, in the order of `pods`: the observations grouped by pod in one
/// pass (one pass per pod made `explain` quadratic in the pods).
pub(super) fn observed_all(obs: &[Obs], pods: &[String]) -> Vec<Seq> {
    let mut by_pod: HashMap<&str, Vec<&Obs>> = HashMap::new();
    for o in obs {
        if let Some(p) = o.pod.as_deref() {
            by_pod.entry(p).or_default().push(o);
        }
    }
    pods.iter()
        .map(|p| observed_of(by_pod.get(p.as_str()).map_or(&[], Vec::as_slice)))
        .collect()
}

/// One pod's sequence from its observations (in the order of `obs`). Its Ready changes come from
/// one file: the one that saw most of them (the first of equals). Files keep their own clocks —
/// a watch's AGE, a journal's wall time — so the changes of two files about one flap, merged by
/// time, read True→False→True→False→True (seen replaying a watch, its events and the kubelet's
/// journal together: every candidate scored 40). The other observations count from every file.
fn observed_of(mine: &[&Obs]) -> Seq {
    let ready_file = crate::types::ready_file(mine);
    let mut s = Seq {
        ready_file,
        ..Seq::default()
    };
    let mut restarts = 0u32;
    let mut any_restart = false;
    let mut snapshot_restarts = 0u32;
    let mut sinces: Vec<(i64, bool)> = Vec::new();
    let snapshot = mine.iter().any(|o| matches!(o.what, What::RestartCount(_)));
    for o in mine {
        match &o.what {
            What::ReadyAtStart(b) if s.initial.is_none() => s.initial = Some(*b),
            What::ReadyChanged(_) if Some(o.file) != ready_file => {}
            What::ReadyChanged(b) => {
                if s.initial.is_none() && s.ready.is_empty() {
                    s.initial = Some(!b);
                }
                if s.ready.last().map(|x| x.1) != Some(*b) {
                    s.ready.push((o.t_ms, *b));
                }
            }
            What::StartedChanged(b) => s.started.push(*b),
            What::ReadySince(b) => sinces.push((o.t_ms, *b)),
            What::RestartCount(n) => snapshot_restarts += n,
            What::ContainerDied => s.died = true,
            What::Restarted(n) => {
                any_restart = true;
                restarts = if *n == 0 {
                    restarts + 1
                } else {
                    (*n).max(restarts)
                };
            }
            _ => {}
        }
    }
    // Snapshots (`kubectl get pod -o yaml --watch`, several files): one has its last transition;
    // several that differ are a sequence, the first the state before (as a watch's first row).
    sinces.sort_unstable();
    sinces.dedup();
    if s.ready.is_empty() {
        if let Some(&(t0, b0)) = sinces.first() {
            let mut changes: Vec<(i64, bool)> = Vec::new();
            for &(t, b) in &sinces[1..] {
                if changes.last().map_or(b0, |c| c.1) != b {
                    changes.push((t, b));
                }
            }
            if changes.is_empty() {
                // The latest snapshot's (the same value at a later lastTransitionTime hides a
                // change and its return between the snapshots: not counted).
                s.since = sinces.last().copied().or(Some((t0, b0)));
            } else {
                s.initial = Some(b0);
                s.ready = changes;
            }
        }
    }
    s.restarts = if snapshot {
        // restartCount counts since the pod's creation: the snapshot's, over its containers.
        Some(snapshot_restarts.max(restarts))
    } else {
        any_restart.then_some(restarts)
    };
    s
}

pub(super) fn modelled(tr: &Trace, pod: u16) -> Seq {
    let restart_at = tr.restarts.first().map_or(0, |r| r.0);
    let mut s = Seq::default();
    let mut before: Option<bool> = None;
    for e in tr.pod_ready_changes(pod) {
        let Value::Bool(b) = e.value else { continue };
        if e.t <= restart_at {
            before = Some(b);
        } else {
            s.ready.push((e.t, b));
        }
    }
    s.initial = Some(before.unwrap_or_else(|| s.ready.first().is_none_or(|x| !x.1)));
    s.started = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::ContainerStarted && e.pod == Some(pod) && e.t > restart_at)
        .filter_map(|e| match e.value {
            Value::Bool(b) => Some(b),
            _ => None,
        })
        .collect();
    s.restarts = Some(
        tr.events
            .iter()
            .filter(|e| e.kind == Kind::ContainerRestart && e.pod == Some(pod))
            .count() as u32,
    );
    s.died = tr
        .events
        .iter()
        .any(|e| e.kind == Kind::ContainerExit && e.pod == Some(pod));
    s
}
