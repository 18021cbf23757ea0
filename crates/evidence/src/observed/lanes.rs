//! Per observed pod, its Ready steps on the model's axis (`Lane`, `Step`: plain data, which the
//! figure draws under the pod's modelled Ready lane without knowing this crate), paired with the
//! run's pod as `explain` pairs them. Called by the CLI's `replay`; read by `differences`.
//! Mirrors no Kubernetes file.

use super::align::Alignment;
use crate::explain::matched_pods;
use crate::types::{Obs, What};
use restartscope_sim::Trace;
use serde::Serialize;

/// One observed Ready step on the model's axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub t_ms: i64,
    pub ready: bool,
    /// The source's writer (`system:node:n1`), when it says.
    pub by: Option<String>,
    /// `first_seen` (a watch's first row), `changed`, `since` (a snapshot's last transition).
    pub kind: &'static str,
    pub file: usize,
    pub line: usize,
}

/// A pod's observed Ready on the model's axis, between its first and last observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lane {
    pub pod: String,
    /// The run's pod it is compared with and drawn under: the pod of the same name, else the one
    /// `explain` matched it with; `None` when the run has no pods.
    pub model_pod: Option<String>,
    pub steps: Vec<Step>,
    pub first_ms: i64,
    pub last_ms: i64,
    /// The lane's times are on the model's axis by an anchor (not placed arbitrarily): they
    /// can be compared with the model's.
    pub aligned: bool,
}

/// Every observed pod's lane (in order of first appearance), on the axis of `al`, paired with
/// `tr`'s pods.
pub fn lanes(obs: &[Obs], al: &Alignment, tr: &Trace) -> Vec<Lane> {
    matched_pods(obs, tr)
        .into_iter()
        .map(|(pod, i)| {
            let mine: Vec<&Obs> = obs
                .iter()
                .filter(|o| o.pod.as_deref() == Some(pod.as_str()))
                .collect();
            let times: Vec<i64> = mine.iter().map(|o| al.model_t(o)).collect();
            // The changes of one file, as `explain` scores them (`ready_file`).
            let from = crate::types::ready_file(&mine);
            let mut steps: Vec<Step> = mine
                .iter()
                .filter_map(|o| {
                    let (ready, kind) = match o.what {
                        What::ReadyAtStart(b) => (b, "first_seen"),
                        What::ReadyChanged(_) if Some(o.file) != from => return None,
                        What::ReadyChanged(b) => (b, "changed"),
                        What::ReadySince(b) => (b, "since"),
                        _ => return None,
                    };
                    Some(Step {
                        t_ms: al.model_t(o),
                        ready,
                        by: o.by.clone(),
                        kind,
                        file: o.file,
                        line: o.line,
                    })
                })
                .collect();
            steps.sort_by_key(|s| s.t_ms);
            Lane {
                first_ms: times.iter().copied().min().unwrap_or(0),
                last_ms: times.iter().copied().max().unwrap_or(0),
                model_pod: i.map(|i| tr.pods[i].name.clone()),
                aligned: mine
                    .iter()
                    .any(|o| al.shift_of(o).is_some_and(|s| !s.arbitrary)),
                pod,
                steps,
            }
        })
        .collect()
}
