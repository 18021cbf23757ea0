//! The kubelet's prober: one worker per container × probe type (`worker`), the results cache
//! keyed by container ID (`results`) and the manager that creates workers and hands result
//! changes to the sync loop (`manager`).
//!
//! Mirrors `pkg/kubelet/prober/`: `worker.go`, `results/results_manager.go`,
//! `prober_manager.go` (workers keyed by `probeKey{podUID, containerName, probeType}`).

pub mod bound;
pub mod errors;
pub mod manager;
pub mod results;
pub mod worker;

use crate::core::Few;
use crate::scenario::{Container, Pod, Probe};
use crate::trace::{Ms, Outcome, ProbeKind};
use results::ResultsCache;

/// The probe of this kind of a container, if it has one.
pub fn probe_spec(c: &Container, kind: ProbeKind) -> Option<&Probe> {
    match kind {
        ProbeKind::Startup => c.startup_probe.as_ref(),
        ProbeKind::Readiness => c.readiness_probe.as_ref(),
        ProbeKind::Liveness => c.liveness_probe.as_ref(),
    }
}

/// `Worker::dormant` of a worker that is not asleep (no tick is ever due at `Ms::MIN`).
pub const AWAKE: Ms = Ms::MIN;

#[derive(Clone, Copy, Debug)]
pub struct Worker {
    /// The container ID the worker last saw.
    pub container_id: Option<u32>,
    pub last: Outcome,
    /// Consecutive equal results (`resultRun`).
    pub run: u32,
    pub on_hold: bool,
    /// `doProbe` is running (a probe is executing).
    pub busy: bool,
    /// The worker has entered its loop (past the initial sleep).
    pub first_done: bool,
    /// A buffered immediate-probe request (`manualTriggerCh` has room for one).
    pub pending_trigger: bool,
    /// A tick the ticker holds for the worker while `doProbe` runs.
    pub pending_tick: bool,
    /// Identifies the worker's current ticker (a reset starts a new one).
    pub seq: u32,
    /// When the ticker's next tick is due.
    pub next_tick: Ms,
    /// Asleep in the model (not in Kubernetes): a worker of a node whose events are not kept,
    /// whose probes keep passing with nothing changing, stops scheduling ticks; `Some(t)`: the
    /// first tick it skipped (`AWAKE`: not asleep; a plain `Ms` keeps the worker at 40 bytes).
    /// Woken when its container changes (see `worker.rs`).
    pub dormant: Ms,
    /// Proposal CSP (#140704): the worker probes a container it adopted after a kubelet restart
    /// (`containerBoundWorker.adopted`: its first probe is jittered; the readiness and liveness
    /// workers a passing startup probe creates inherit it). Not read otherwise.
    pub adopted: bool,
}

impl Worker {
    pub fn new() -> Self {
        Worker {
            container_id: None,
            last: Outcome::Unknown,
            run: 0,
            on_hold: false,
            busy: false,
            first_done: false,
            pending_trigger: false,
            pending_tick: false,
            seq: 0,
            next_tick: 0,
            dormant: AWAKE,
            adopted: false,
        }
    }
}

impl Default for Worker {
    fn default() -> Self {
        Self::new()
    }
}

/// The probe workers and cached results of one pod.
#[derive(Clone, Debug)]
pub struct PodProbes {
    /// `[startup, readiness, liveness]` per container.
    pub workers: Few<[Option<Worker>; 3], 1>,
    pub results: ResultsCache,
}

impl PodProbes {
    pub fn new(n: usize) -> Self {
        PodProbes {
            workers: Few::from_elem([None, None, None], n),
            results: ResultsCache::new(n),
        }
    }

    /// Workers that have run for an hour with every probe passing (startup workers on hold).
    pub fn steady(pod: &Pod) -> Self {
        let mut pp = PodProbes::new(pod.n_containers());
        for (ci, c) in pod.all_containers().enumerate() {
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

    /// `new` for the same containers, keeping the lists' memory.
    pub fn forget(&mut self) {
        self.workers.fill([None, None, None]);
        self.results.forget();
    }

    pub fn worker(&self, c: usize, kind: ProbeKind) -> Option<&Worker> {
        self.workers[c][kind.index()].as_ref()
    }

    pub fn worker_mut(&mut self, c: usize, kind: ProbeKind) -> Option<&mut Worker> {
        self.workers[c][kind.index()].as_mut()
    }
}

/// When a worker's first tick is due: a phase of its period, drawn per node and worker.
pub fn first_tick(
    seed: u64,
    node: crate::trace::NodeId,
    pod: usize,
    c: usize,
    kind: crate::trace::ProbeKind,
    period: Ms,
) -> Ms {
    (crate::core::rng::draw(
        seed,
        crate::core::rng::Purpose::ProbePhase,
        node,
        [pod as u64, c as u64, kind as u64],
    ) * period as f64) as crate::trace::Ms
}
