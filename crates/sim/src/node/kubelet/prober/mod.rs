//! The kubelet's prober: one worker per container × probe type (`worker`), the results cache
//! keyed by container ID (`results`) and the manager that creates workers and hands result
//! changes to the sync loop (`manager`).
//!
//! Mirrors `pkg/kubelet/prober/`: `worker.go`, `results/results_manager.go`,
//! `prober_manager.go` (workers keyed by `probeKey{podUID, containerName, probeType}`).

pub mod manager;
pub mod results;
pub mod worker;

use super::probe_spec;
use crate::scenario::Pod;
use crate::trace::{Outcome, ProbeKind};
use results::ResultsCache;
use worker::Worker;

/// The probe workers and cached results of one pod.
#[derive(Clone, Debug)]
pub struct PodProbes {
    /// `[startup, readiness, liveness]` per container.
    pub workers: Vec<[Option<Worker>; 3]>,
    pub results: ResultsCache,
}

impl PodProbes {
    pub fn new(n: usize) -> Self {
        PodProbes {
            workers: vec![[None, None, None]; n],
            results: ResultsCache::new(n),
        }
    }

    /// Workers that have run for an hour with every probe passing (startup workers on hold).
    pub fn steady(pod: &Pod) -> Self {
        let mut pp = PodProbes::new(pod.containers.len());
        for (ci, c) in pod.containers.iter().enumerate() {
            for kind in ProbeKind::ALL {
                if let Some(pr) = probe_spec(c, kind) {
                    let mut w = Worker::new();
                    w.container_id = Some(1);
                    w.last = Outcome::Success;
                    w.run = pr.success_threshold;
                    w.first_done = true;
                    w.on_hold = kind == ProbeKind::Startup;
                    pp.workers[ci][kind.index()] = Some(w);
                    pp.results.set(ci, kind, 1, Outcome::Success);
                }
            }
        }
        pp
    }

    pub fn worker(&self, c: usize, kind: ProbeKind) -> Option<&Worker> {
        self.workers[c][kind.index()].as_ref()
    }

    pub fn worker_mut(&mut self, c: usize, kind: ProbeKind) -> Option<&mut Worker> {
        self.workers[c][kind.index()].as_mut()
    }
}
