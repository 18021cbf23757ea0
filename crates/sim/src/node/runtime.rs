//! The container runtime (CRI) and the ground truth of each container: instance (container ID),
//! running, StartedAt, actual health and warm-up. Survives kubelet restarts. Called by the
//! kubelet (start, kill, probe answers) and by the cluster for the scenario's truth changes.
//!
//! Mirrors what the kubelet sees through `kuberuntime` (`ContainerStatus`); the ground truth is
//! the scenario's (`truth`, `warmup_s`), not Kubernetes code.

use crate::core::{ms, Ctx, Few, What};
use crate::rules::Rule;
use crate::scenario::{Health, Pod};
use crate::trace::{Actor, Kind, Ms, ProbeKind, Value};

/// When the story starts the containers have run for an hour.
pub const CONTAINERS_BORN: Ms = -3_600_000;

#[derive(Clone, Copy, Debug)]
pub struct RtContainer {
    pub instance: u32,
    pub running: bool,
    pub started_at: Ms,
    pub health: Health,
    pub warm_at: Ms,
    /// FinishedAt of the newest exited instance (this one if it is not running).
    pub finished_at: Option<Ms>,
    /// No instance in the runtime since the node booted (B2), until the kubelet starts one:
    /// `convertToAPIContainerStatuses` gives it no container ID (a Waiting status) unless its
    /// previous status was Terminated.
    pub lost: bool,
}

/// Only fills `Few`'s unused inline slots.
impl Default for RtContainer {
    fn default() -> Self {
        RtContainer {
            instance: 0,
            running: false,
            started_at: 0,
            health: Health::Healthy,
            warm_at: 0,
            finished_at: None,
            lost: false,
        }
    }
}

pub struct Runtime<'a> {
    pub spec: &'a [Pod],
    /// Per pod, its containers (inline for one).
    pub pods: Vec<Few<RtContainer, 1>>,
    /// Pods whose containers changed during the current event (wakes sleeping probe workers).
    pub changed: Vec<u16>,
    /// The runtime answers CRI calls (false during a container-runtime restart, R1, and while
    /// the node is down, B1). Its containers keep running under their shims meanwhile.
    pub up: bool,
    /// Per pod: its sandbox was created anew after a reboot (B2) and its init containers have
    /// run again up to (not including) this one, so the pod has not initialized.
    pub reinit: Vec<Option<u8>>,
}

/// A truth change the kubelet may have to notice.
pub enum TruthChange {
    None,
    /// The container's process exited (PLEG will report it).
    Exited,
}

impl<'a> Runtime<'a> {
    pub fn new(spec: &'a [Pod]) -> Self {
        Runtime {
            spec,
            pods: spec
                .iter()
                .map(|p| {
                    (0..p.n_containers())
                        .map(|c| {
                            // An ordinary init container ran to completion (exit 0) before
                            // the regular containers started.
                            let done = p.is_completed_init(c);
                            RtContainer {
                                instance: 1,
                                running: !done,
                                started_at: CONTAINERS_BORN,
                                health: Health::Healthy,
                                warm_at: CONTAINERS_BORN,
                                finished_at: done.then_some(CONTAINERS_BORN),
                                lost: false,
                            }
                        })
                        .collect()
                })
                .collect(),
            changed: Vec::new(),
            up: true,
            reinit: vec![None; spec.len()],
        }
    }

    /// B1: the node shuts down; every running container stops with it (no PLEG sees it: the
    /// kubelet stops too). Returns the containers that were running.
    pub fn shutdown(&mut self, cx: &mut Ctx) -> Vec<(usize, usize)> {
        self.up = false;
        let mut stopped = Vec::new();
        for p in 0..self.pods.len() {
            for c in 0..self.pods[p].len() {
                if self.stop(cx, p, c) {
                    stopped.push((p, c));
                }
            }
        }
        stopped
    }

    /// B2: the node has booted: the runtime answers, holds no running container, and every
    /// pod's sandbox must be created again (its init containers run again first).
    pub fn boot(&mut self) {
        self.up = true;
        for (p, r) in self.reinit.iter_mut().enumerate() {
            *r = (!self.spec[p].init_containers.is_empty()).then_some(0);
        }
        for c in self.pods.iter_mut().flat_map(|p| p.iter_mut()) {
            c.lost = true;
        }
    }

    /// Ground truth for the metrics: every container (sidecars included, completed init
    /// containers aside) running, warmed up and healthy.
    pub fn healthy(&self, p: usize, now: Ms) -> bool {
        self.pods[p].iter().enumerate().all(|(i, c)| {
            self.spec[p].is_completed_init(i)
                || (c.running && now >= c.warm_at && c.health == Health::Healthy)
        })
    }

    /// What a probe of this kind would answer now: readiness passes when the container runs,
    /// has warmed up and is healthy; startup and liveness when it runs, has warmed up and is not
    /// failing.
    pub fn probe_answer(&self, p: usize, c: usize, kind: ProbeKind, now: Ms) -> bool {
        let r = &self.pods[p][c];
        if !r.running || now < r.warm_at {
            return false;
        }
        match kind {
            ProbeKind::Readiness => r.health == Health::Healthy,
            ProbeKind::Startup | ProbeKind::Liveness => r.health != Health::Failing,
        }
    }

    /// Starts a new instance of the container (a restart): healthy, warm after `warmup_s`.
    pub fn start_new(&mut self, cx: &mut Ctx, p: usize, c: usize) {
        let warmup = ms(self.spec[p].container(c).warmup_s);
        let r = &mut self.pods[p][c];
        r.instance += 1;
        r.lost = false;
        r.running = true;
        r.started_at = cx.now;
        r.health = Health::Healthy;
        r.warm_at = cx.now + warmup;
        cx.at(cx.now + warmup, What::Warm { pod: p as u16 });
        cx.touch(p);
        self.changed.push(p as u16);
    }

    /// Stops the container (kill or exit). Returns whether it was running.
    pub fn stop(&mut self, cx: &mut Ctx, p: usize, c: usize) -> bool {
        let r = &mut self.pods[p][c];
        let was = r.running;
        if was {
            r.finished_at = Some(cx.now);
        }
        r.running = false;
        cx.touch(p);
        self.changed.push(p as u16);
        was
    }

    /// TRUTH: the scenario's ground truth changes.
    pub fn truth(&mut self, cx: &mut Ctx, p: usize, c: usize, idx: usize) -> TruthChange {
        let state = self.spec[p].container(c).truth[idx].state;
        if state == Health::Exited {
            if !self.stop(cx, p, c) {
                return TruthChange::None;
            }
            cx.emit(
                Kind::ContainerExit,
                Some(p),
                Some(c),
                Value::None,
                Rule::Truth,
                Actor::Runtime,
            );
            TruthChange::Exited
        } else {
            self.pods[p][c].health = state;
            cx.touch(p);
            self.changed.push(p as u16);
            cx.emit(
                Kind::ContainerHealth,
                Some(p),
                Some(c),
                Value::Health(state),
                Rule::Truth,
                Actor::Scenario,
            );
            TruthChange::None
        }
    }
}
