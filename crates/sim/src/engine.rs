//! The discrete-event engine: one node, its kubelet and the control plane around it.
//!
//! Every handler cites the Kubernetes function it follows. Events at the same instant run in the
//! order they were scheduled; randomness is a hash of (seed, purpose, object), so a draw never
//! depends on what else happened and the two policies see the same jitter.

use crate::rules::Rule;
use crate::scenario::{Health, Policy, Scenario, Workload};
use crate::trace::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// `kubeletRestartGracePeriod`: a container that started more than 10 s before this kubelet
/// predates it.
pub const KUBELET_RESTART_GRACE: Ms = 10_000;
/// Crash-loop back-off: 10 s doubling to 300 s (`kubecontainer` back-off defaults).
const BACKOFF_INITIAL: Ms = 10_000;
const BACKOFF_MAX: Ms = 300_000;
/// When the story starts, the kubelet has been up a day and the containers an hour.
const KUBELET_BORN: Ms = -86_400_000;
const CONTAINERS_BORN: Ms = -3_600_000;

pub(crate) fn ms(s: f64) -> Ms {
    (s * 1000.0).round() as Ms
}

/// splitmix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform draw in [0, 1) keyed by the seed and what it is for.
fn draw(seed: u64, key: [u64; 4]) -> f64 {
    let mut h = mix(seed);
    for k in key {
        h = mix(h ^ k);
    }
    (h >> 11) as f64 / (1u64 << 53) as f64
}

const PURPOSE_LEASE: u64 = 1;
const PURPOSE_NLC: u64 = 2;
const PURPOSE_PHASE: u64 = 3;
const PURPOSE_JITTER: u64 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    KubeletStop,
    KubeletStart,
    LeaseRenew {
        gen: u32,
    },
    NlcPass,
    FirstSync {
        gen: u32,
        pod: u16,
    },
    ProbeTick {
        gen: u32,
        pod: u16,
        c: u8,
        kind: u8,
        seq: u32,
    },
    ProbeDone {
        gen: u32,
        pod: u16,
        c: u8,
        kind: u8,
        success: bool,
    },
    Truth {
        pod: u16,
        c: u8,
        idx: u16,
    },
    /// A boundary for the metrics: the container's warm-up ends.
    Warm,
    ContainerRestart {
        gen: u32,
        pod: u16,
        c: u8,
    },
    Eviction {
        pod: u16,
        seq: u32,
    },
    TerminationDone {
        gen: u32,
        pod: u16,
    },
}

/// The container runtime's view: survives kubelet restarts.
#[derive(Clone, Debug)]
struct RtContainer {
    instance: u32,
    running: bool,
    started_at: Ms,
    health: Health,
    warm_at: Ms,
}

#[derive(Clone, Debug, PartialEq)]
struct CStatus {
    instance: u32,
    running: bool,
    started: Option<bool>,
    ready: bool,
}

/// The kubelet-owned part of a pod status (container statuses, ContainersReady, PodReady).
#[derive(Clone, Debug, PartialEq)]
struct Status {
    cs: Vec<CStatus>,
    containers_ready: bool,
    ready: bool,
}

#[derive(Clone, Debug)]
struct ApiPod {
    status: Status,
    deleted_at: Option<Ms>,
    removed: bool,
    eviction_seq: u32,
    eviction_pending: bool,
    endpoint: Option<EndpointValue>,
}

#[derive(Clone, Debug)]
struct Worker {
    container_id: Option<u32>,
    last: Outcome,
    run: u32,
    on_hold: bool,
    busy: bool,
    first_done: bool,
    /// A buffered immediate-probe request (`manualTriggerCh` has room for one).
    pending_trigger: bool,
    seq: u32,
}

impl Worker {
    fn new() -> Self {
        Worker {
            container_id: None,
            last: Outcome::Unknown,
            run: 0,
            on_hold: false,
            busy: false,
            first_done: false,
            pending_trigger: false,
            seq: 0,
        }
    }
}

/// Kubelet memory for one pod: lost at every restart.
#[derive(Clone, Debug)]
struct KPod {
    synced: bool,
    terminating: bool,
    cache: Option<Status>,
    workers: Vec<[Option<Worker>; 3]>,
    results: Vec<[Option<(u32, Outcome)>; 3]>,
    backoff: Vec<u32>,
}

impl KPod {
    /// What a just-started kubelet knows of a pod with `n` containers: nothing.
    fn fresh(n: usize) -> Self {
        KPod {
            synced: false,
            terminating: false,
            cache: None,
            workers: vec![[None, None, None]; n],
            results: vec![[None, None, None]; n],
            backoff: vec![0; n],
        }
    }
}

struct Sim<'a> {
    sc: &'a Scenario,
    policy: Policy,
    now: Ms,
    seq: u64,
    heap: BinaryHeap<Reverse<(Ms, u64, Ev)>>,
    horizon: Ms,
    grace: Ms,
    renew_interval: Ms,
    monitor_period: Ms,
    toleration: Ms,
    first_sync: Ms,
    // kubelet
    up: bool,
    gen: u32,
    kubelet_start: Ms,
    restart_idx: usize,
    kpods: Vec<KPod>,
    // runtime
    rt: Vec<Vec<RtContainer>>,
    // API server
    api: Vec<ApiPod>,
    lease_renew: Ms,
    node_ready: bool,
    taint_noschedule: bool,
    taint_noexecute: bool,
    // node lifecycle controller
    nlc_saved_renew: Ms,
    nlc_probe_ts: Ms,
    // output
    events: Vec<Event>,
    metrics: Metrics,
    dirty_endpoints: Vec<u16>,
}

fn probe_spec(c: &crate::scenario::Container, kind: ProbeKind) -> Option<&crate::scenario::Probe> {
    match kind {
        ProbeKind::Startup => c.startup_probe.as_ref(),
        ProbeKind::Readiness => c.readiness_probe.as_ref(),
        ProbeKind::Liveness => c.liveness_probe.as_ref(),
    }
}

fn kind_of(k: u8) -> ProbeKind {
    ProbeKind::ALL[k as usize]
}

/// Runs one policy. Panics only on a scenario that failed [`Scenario::validate`]; callers validate.
pub fn run(sc: &Scenario, policy: Policy) -> Trace {
    let mut sim = Sim::new(sc, policy);
    sim.main_loop();
    sim.finish()
}

impl<'a> Sim<'a> {
    fn new(sc: &'a Scenario, policy: Policy) -> Self {
        let lease = ms(sc.cluster.lease_duration_s);
        let renew_interval = (lease / 4).max(1);
        let monitor_period = ms(sc.cluster.node_monitor_period_s).max(1);
        let rt: Vec<Vec<RtContainer>> = sc
            .pods
            .iter()
            .map(|p| {
                p.containers
                    .iter()
                    .map(|_| RtContainer {
                        instance: 1,
                        running: true,
                        started_at: CONTAINERS_BORN,
                        health: Health::Healthy,
                        warm_at: CONTAINERS_BORN,
                    })
                    .collect()
            })
            .collect();
        let healthy_status = |n: usize| Status {
            cs: (0..n)
                .map(|_| CStatus {
                    instance: 1,
                    running: true,
                    started: Some(true),
                    ready: true,
                })
                .collect(),
            containers_ready: true,
            ready: true,
        };
        let api = sc
            .pods
            .iter()
            .map(|p| ApiPod {
                status: healthy_status(p.containers.len()),
                deleted_at: None,
                removed: false,
                eviction_seq: 0,
                eviction_pending: false,
                endpoint: p.service.as_ref().map(|_| EndpointValue {
                    ready: true,
                    serving: true,
                    terminating: false,
                }),
            })
            .collect();
        // Steady state: workers have run for an hour with every probe passing.
        let kpods = sc
            .pods
            .iter()
            .map(|p| {
                let n = p.containers.len();
                let mut kp = KPod {
                    synced: true,
                    cache: Some(healthy_status(n)),
                    ..KPod::fresh(n)
                };
                for (ci, c) in p.containers.iter().enumerate() {
                    for kind in ProbeKind::ALL {
                        if let Some(pr) = probe_spec(c, kind) {
                            let mut w = Worker::new();
                            w.container_id = Some(1);
                            w.last = Outcome::Success;
                            w.run = pr.success_threshold;
                            w.first_done = true;
                            w.on_hold = kind == ProbeKind::Startup;
                            kp.workers[ci][kind.index()] = Some(w);
                            kp.results[ci][kind.index()] = Some((1, Outcome::Success));
                        }
                    }
                }
                kp
            })
            .collect();
        let lease_phase = (draw(sc.seed, [PURPOSE_LEASE, 0, 0, 0]) * renew_interval as f64) as Ms;
        let nlc_phase = (draw(sc.seed, [PURPOSE_NLC, 0, 0, 0]) * monitor_period as f64) as Ms;
        let last_renew = lease_phase - renew_interval;
        let mut sim = Sim {
            sc,
            policy,
            now: 0,
            seq: 0,
            heap: BinaryHeap::new(),
            horizon: ms(sc.horizon_s),
            grace: ms(sc.cluster.grace_s()),
            renew_interval,
            monitor_period,
            toleration: ms(sc.cluster.toleration_s),
            first_sync: ms(sc.kubelet.first_sync_delay_s),
            up: true,
            gen: 0,
            kubelet_start: KUBELET_BORN,
            restart_idx: 0,
            kpods,
            rt,
            api,
            lease_renew: last_renew,
            node_ready: true,
            taint_noschedule: false,
            taint_noexecute: false,
            nlc_saved_renew: last_renew,
            nlc_probe_ts: last_renew,
            events: Vec::new(),
            metrics: Metrics::default(),
            dirty_endpoints: Vec::new(),
        };
        sim.at(lease_phase, Ev::LeaseRenew { gen: 0 });
        sim.at(nlc_phase, Ev::NlcPass);
        for r in &sc.kubelet.restarts {
            sim.at(ms(r.at_s), Ev::KubeletStop);
            sim.at(ms(r.at_s + r.downtime_s), Ev::KubeletStart);
        }
        for (pi, p) in sc.pods.iter().enumerate() {
            for (ci, c) in p.containers.iter().enumerate() {
                for (k, t) in c.truth.iter().enumerate() {
                    sim.at(
                        ms(t.at_s),
                        Ev::Truth {
                            pod: pi as u16,
                            c: ci as u8,
                            idx: k as u16,
                        },
                    );
                }
                for kind in ProbeKind::ALL {
                    if let Some(pr) = probe_spec(c, kind) {
                        let period = pr.period_s as Ms * 1000;
                        let phase =
                            (draw(sc.seed, [PURPOSE_PHASE, pi as u64, ci as u64, kind as u64])
                                * period as f64) as Ms;
                        sim.schedule_tick(phase, pi, ci, kind, 0);
                    }
                }
            }
        }
        sim
    }

    fn at(&mut self, t: Ms, ev: Ev) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, ev)));
    }

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        kind: Kind,
        pod: Option<usize>,
        container: Option<usize>,
        value: Value,
        rule: Rule,
        by: Actor,
    ) {
        self.events.push(Event {
            t: self.now,
            kind,
            pod: pod.map(|p| p as u16),
            container: container.map(|c| c as u8),
            value,
            rule,
            by,
        });
    }

    fn main_loop(&mut self) {
        while let Some(Reverse((t, _, ev))) = self.heap.pop() {
            if t > self.horizon {
                break;
            }
            if t != self.now {
                self.flush_endpoints();
                self.accumulate(t);
                self.now = t;
            }
            self.metrics.events_processed += 1;
            self.handle(ev);
        }
        self.flush_endpoints();
        self.accumulate(self.horizon);
        self.now = self.horizon;
    }

    fn finish(self) -> Trace {
        let sc = self.sc;
        Trace {
            policy: self.policy,
            horizon: self.horizon,
            grace: self.grace,
            lease_duration: ms(sc.cluster.lease_duration_s),
            toleration: self.toleration,
            restarts: sc
                .kubelet
                .restarts
                .iter()
                .map(|r| (ms(r.at_s), ms(r.at_s + r.downtime_s)))
                .collect(),
            pods: sc
                .pods
                .iter()
                .map(|p| PodInfo {
                    name: p.name.clone(),
                    workload: p.workload,
                    service: p.service.clone(),
                    containers: p
                        .containers
                        .iter()
                        .map(|c| ContainerInfo {
                            name: c.name.clone(),
                            probes: ProbeKind::ALL.map(|k| {
                                probe_spec(c, k).map(|p| ProbeInfo {
                                    period_s: p.period_s,
                                    success_threshold: p.success_threshold,
                                    failure_threshold: p.failure_threshold,
                                })
                            }),
                        })
                        .collect(),
                })
                .collect(),
            events: self.events,
            metrics: self.metrics,
        }
    }

    /// Ground truth for the metrics: every container running, warmed up and healthy.
    fn actually_healthy(&self, p: usize) -> bool {
        self.rt[p]
            .iter()
            .all(|c| c.running && self.now >= c.warm_at && c.health == Health::Healthy)
    }

    fn accumulate(&mut self, until: Ms) {
        let dt = (until - self.now) as f64 / 1000.0;
        if dt <= 0.0 {
            return;
        }
        if !self.node_ready {
            self.metrics.node_not_ready_s += dt;
        }
        for p in 0..self.api.len() {
            let a = &self.api[p];
            if a.removed || a.deleted_at.is_some() {
                continue;
            }
            let healthy = self.actually_healthy(p);
            if a.status.ready && !healthy {
                self.metrics.unjustified_ready_s += dt;
            } else if !a.status.ready && healthy {
                self.metrics.unjustified_not_ready_s += dt;
            }
        }
    }

    fn handle(&mut self, ev: Ev) {
        match ev {
            Ev::KubeletStop => self.kubelet_stop(),
            Ev::KubeletStart => self.kubelet_start(),
            Ev::LeaseRenew { gen } => {
                if gen == self.gen && self.up {
                    self.renew_lease(Rule::K2r);
                }
            }
            Ev::NlcPass => self.nlc_pass(),
            Ev::FirstSync { gen, pod } => {
                if gen == self.gen && self.up {
                    self.first_sync(pod as usize);
                }
            }
            Ev::ProbeTick {
                gen,
                pod,
                c,
                kind,
                seq,
            } => self.probe_tick(gen, pod as usize, c as usize, kind_of(kind), seq),
            Ev::ProbeDone {
                gen,
                pod,
                c,
                kind,
                success,
            } => self.probe_done(gen, pod as usize, c as usize, kind_of(kind), success),
            Ev::Truth { pod, c, idx } => self.truth(pod as usize, c as usize, idx as usize),
            Ev::Warm => {}
            Ev::ContainerRestart { gen, pod, c } => {
                if gen == self.gen && self.up {
                    self.container_restart(pod as usize, c as usize);
                }
            }
            Ev::Eviction { pod, seq } => self.eviction(pod as usize, seq),
            Ev::TerminationDone { gen, pod } => {
                if gen == self.gen && self.up {
                    self.termination_done(pod as usize);
                }
            }
        }
    }

    // ---------------------------------------------------------------- kubelet lifecycle

    /// K1: the process is gone; all kubelet memory is dropped. Containers keep running.
    fn kubelet_stop(&mut self) {
        if !self.up {
            return;
        }
        self.up = false;
        self.gen += 1;
        for (kp, sp) in self.kpods.iter_mut().zip(&self.sc.pods) {
            *kp = KPod::fresh(sp.containers.len());
        }
        self.emit(
            Kind::KubeletStop,
            None,
            None,
            Value::None,
            Rule::K1,
            Actor::Kubelet,
        );
    }

    /// K2: the kubelet starts, renews its lease and posts node Ready=True; each pod's first
    /// SyncPod follows after the start-up delay.
    fn kubelet_start(&mut self) {
        if self.up {
            return;
        }
        self.up = true;
        self.kubelet_start = self.now;
        self.emit(
            Kind::KubeletStart,
            None,
            None,
            Value::None,
            Rule::K2,
            Actor::Kubelet,
        );
        self.renew_lease(Rule::K2);
        if !self.node_ready {
            // kubelet_node_status.go syncNodeStatus: Ready=True.
            self.set_node_ready(true, Rule::K2, Actor::Kubelet);
        }
        let gen = self.gen;
        for p in 0..self.api.len() {
            if !self.api[p].removed {
                self.at(
                    self.now + self.first_sync,
                    Ev::FirstSync { gen, pod: p as u16 },
                );
            }
        }
        self.restart_idx += 1;
    }

    fn renew_lease(&mut self, rule: Rule) {
        self.lease_renew = self.now;
        self.emit(
            Kind::LeaseRenew,
            None,
            None,
            Value::None,
            rule,
            Actor::Kubelet,
        );
        let gen = self.gen;
        self.at(self.now + self.renew_interval, Ev::LeaseRenew { gen });
    }

    /// K3: `SyncPod` generates and sets the pod status (`generateAPIPodStatus` →
    /// `UpdatePodStatus`) *before* `probeManager.AddPod` creates the workers; then the runtime sync
    /// restarts exited containers.
    fn first_sync(&mut self, p: usize) {
        if self.api[p].removed {
            return;
        }
        self.kpods[p].synced = true;
        // A deleted pod goes through SyncTerminatingPod, which also generates and sets the
        // status (with no workers yet) before it kills the containers.
        let path = if self.api[p].deleted_at.is_some() {
            Rule::K4
        } else {
            Rule::K3
        };
        self.emit(
            Kind::PodSync,
            Some(p),
            None,
            Value::None,
            path,
            Actor::Kubelet,
        );
        self.sync_pod(p, Rule::K3);
        if self.api[p].deleted_at.is_some() {
            self.start_termination(p);
            return;
        }
        // probeManager.AddPod
        let gen = self.gen;
        let since_start = self.now - self.kubelet_start;
        let restart_idx = self.restart_idx as u64;
        for (c, spec) in self.sc.pods[p].containers.iter().enumerate() {
            for kind in ProbeKind::ALL {
                let Some(pr) = probe_spec(spec, kind) else {
                    continue;
                };
                self.kpods[p].workers[c][kind.index()] = Some(Worker::new());
                let period = pr.period_s as Ms * 1000;
                // P2, worker.run: sleep a random part of the period if the kubelet started recently.
                let jitter = if period > since_start {
                    (draw(
                        self.sc.seed,
                        [
                            PURPOSE_JITTER,
                            (restart_idx << 32) | p as u64,
                            c as u64,
                            kind as u64,
                        ],
                    ) * period as f64) as Ms
                } else {
                    0
                };
                self.schedule_tick(self.now + jitter, p, c, kind, 0);
            }
        }
        // Runtime sync: a container that exited while nobody watched is restarted now; the
        // crash-loop back-off lived in the old kubelet's memory.
        for c in 0..self.rt[p].len() {
            if !self.rt[p][c].running {
                self.at(
                    self.now,
                    Ev::ContainerRestart {
                        gen,
                        pod: p as u16,
                        c: c as u8,
                    },
                );
            }
        }
    }

    /// K3r: `computePodActions` restarts an exited container (restartPolicy Always).
    fn container_restart(&mut self, p: usize, c: usize) {
        if self.api[p].removed || self.kpods[p].terminating || self.rt[p][c].running {
            return;
        }
        let warmup = ms(self.sc.pods[p].containers[c].warmup_s);
        let r = &mut self.rt[p][c];
        r.instance += 1;
        r.running = true;
        r.started_at = self.now;
        r.health = Health::Healthy;
        r.warm_at = self.now + warmup;
        self.kpods[p].backoff[c] += 1;
        self.at(self.now + warmup, Ev::Warm);
        self.emit(
            Kind::ContainerRestart,
            Some(p),
            Some(c),
            Value::None,
            Rule::K3r,
            Actor::Kubelet,
        );
        self.sync_pod(p, Rule::K3r);
    }

    fn schedule_restart(&mut self, p: usize, c: usize) {
        let n = self.kpods[p].backoff[c];
        let delay = if n == 0 {
            0
        } else {
            (BACKOFF_INITIAL << (n - 1).min(10)).min(BACKOFF_MAX)
        };
        let gen = self.gen;
        self.at(
            self.now + delay,
            Ev::ContainerRestart {
                gen,
                pod: p as u16,
                c: c as u8,
            },
        );
    }

    /// K4: `SyncTerminatingPod` stops the containers of a deleted pod within its grace period.
    fn start_termination(&mut self, p: usize) {
        if self.kpods[p].terminating {
            return;
        }
        self.kpods[p].terminating = true;
        let gen = self.gen;
        let grace = ms(self.sc.pods[p].termination_grace_s);
        self.at(self.now + grace, Ev::TerminationDone { gen, pod: p as u16 });
    }

    fn termination_done(&mut self, p: usize) {
        if self.api[p].removed {
            return;
        }
        for c in 0..self.rt[p].len() {
            if self.rt[p][c].running {
                self.rt[p][c].running = false;
                self.emit(
                    Kind::ContainerExit,
                    Some(p),
                    Some(c),
                    Value::None,
                    Rule::K4,
                    Actor::Kubelet,
                );
            }
        }
        self.sync_pod(p, Rule::K4);
        self.api[p].removed = true;
        self.emit(
            Kind::PodRemoved,
            Some(p),
            None,
            Value::None,
            Rule::E1d,
            Actor::Kubelet,
        );
        self.mark_endpoint(p);
    }

    // ---------------------------------------------------------------- ground truth

    fn truth(&mut self, p: usize, c: usize, idx: usize) {
        if self.api[p].removed {
            return;
        }
        let state = self.sc.pods[p].containers[c].truth[idx].state;
        if state == Health::Exited {
            if !self.rt[p][c].running {
                return;
            }
            self.rt[p][c].running = false;
            self.emit(
                Kind::ContainerExit,
                Some(p),
                Some(c),
                Value::None,
                Rule::Truth,
                Actor::Runtime,
            );
            // PLEG notices the exit; SyncPod reports it and restarts the container.
            if self.up && self.kpods[p].synced {
                self.sync_pod(p, Rule::K5);
                if !self.kpods[p].terminating {
                    self.schedule_restart(p, c);
                }
            }
        } else {
            self.rt[p][c].health = state;
            let name = match state {
                Health::Healthy => "healthy",
                Health::FailingReadiness => "failing readiness",
                Health::Failing => "failing",
                Health::Exited => "exited",
            };
            self.emit(
                Kind::ContainerHealth,
                Some(p),
                Some(c),
                Value::Text(name.into()),
                Rule::Truth,
                Actor::Scenario,
            );
        }
    }

    /// What a probe of this kind would answer right now.
    fn probe_answer(&self, p: usize, c: usize, kind: ProbeKind) -> bool {
        let r = &self.rt[p][c];
        if !r.running || self.now < r.warm_at {
            return false;
        }
        match kind {
            ProbeKind::Readiness => r.health == Health::Healthy,
            ProbeKind::Startup | ProbeKind::Liveness => r.health != Health::Failing,
        }
    }

    // ---------------------------------------------------------------- prober

    /// P2 `worker.run`: a tick of the worker's ticker (or an immediate-probe request).
    fn probe_tick(&mut self, gen: u32, p: usize, c: usize, kind: ProbeKind, seq: u32) {
        if gen != self.gen || !self.up || self.api[p].removed {
            return;
        }
        let Some(pr) = probe_spec(&self.sc.pods[p].containers[c], kind) else {
            return;
        };
        let period = pr.period_s as Ms * 1000;
        {
            let Some(w) = self.kpods[p].workers[c][kind.index()].as_mut() else {
                return;
            };
            if w.seq != seq {
                return;
            }
            let busy = w.busy;
            w.first_done = true;
            self.schedule_tick(self.now + period, p, c, kind, seq);
            if busy {
                // time.Ticker drops ticks while doProbe is still running.
                return;
            }
        }
        self.set_busy(p, c, kind, true);
        let executing = self.do_probe(p, c, kind);
        if !executing {
            self.set_busy(p, c, kind, false);
            self.consume_trigger(p, c, kind);
        }
    }

    /// The next run of a worker's loop; `seq` identifies its current ticker.
    fn schedule_tick(&mut self, t: Ms, p: usize, c: usize, kind: ProbeKind, seq: u32) {
        let gen = self.gen;
        self.at(
            t,
            Ev::ProbeTick {
                gen,
                pod: p as u16,
                c: c as u8,
                kind: kind as u8,
                seq,
            },
        );
    }

    fn set_busy(&mut self, p: usize, c: usize, kind: ProbeKind, busy: bool) {
        if let Some(w) = self.kpods[p].workers[c][kind.index()].as_mut() {
            w.busy = busy;
        }
    }

    /// After `doProbe` returns, the worker's `select` takes a buffered manual trigger first:
    /// probe again now and reset the ticker.
    fn consume_trigger(&mut self, p: usize, c: usize, kind: ProbeKind) {
        let now = self.now;
        if let Some(w) = self.kpods[p].workers[c][kind.index()].as_mut() {
            if w.pending_trigger {
                w.pending_trigger = false;
                w.seq += 1;
                let seq = w.seq;
                self.schedule_tick(now, p, c, kind, seq);
            }
        }
    }

    /// `doProbe` (P1, P1k, P3, P4): returns whether a probe is now executing.
    fn do_probe(&mut self, p: usize, c: usize, kind: ProbeKind) -> bool {
        let Some(pr) = probe_spec(&self.sc.pods[p].containers[c], kind) else {
            return false;
        };
        let (exec, timeout) = (ms(pr.exec_s), pr.timeout_s as Ms * 1000);
        let initial_delay = pr.initial_delay_s as Ms;
        // doProbe reads the status manager's cached status.
        let Some(cs) = self.kpods[p].cache.as_ref().map(|s| s.cs[c].clone()) else {
            return false;
        };
        let kep = self.policy == Policy::Kep;
        let predates = self.rt[p][c].started_at < self.kubelet_start - KUBELET_RESTART_GRACE;
        let new_container = match self.kpods[p].workers[c][kind.index()].as_mut() {
            Some(w) if w.container_id != Some(cs.instance) => {
                w.container_id = Some(cs.instance);
                w.on_hold = false;
                true
            }
            Some(_) => false,
            None => return false,
        };
        if new_container {
            // P1: newWorker's initial value; KEP (isRestart): not for a container older than
            // this kubelet.
            let initial = match kind {
                ProbeKind::Readiness => Outcome::Failure,
                ProbeKind::Liveness => Outcome::Success,
                ProbeKind::Startup => Outcome::Unknown,
            };
            if kep && cs.running && predates {
                // The event says what was *not* written (threshold 0).
                self.emit(
                    Kind::ProbeResult,
                    Some(p),
                    Some(c),
                    Value::Probe(ProbeValue {
                        probe: kind,
                        result: initial,
                        run: 0,
                        threshold: 0,
                    }),
                    Rule::P1k,
                    Actor::Kubelet,
                );
            } else {
                self.set_result(p, c, kind, cs.instance, initial, Rule::P1);
            }
        }
        if self.kpods[p].workers[c][kind.index()]
            .as_ref()
            .is_none_or(|w| w.on_hold)
        {
            return false;
        }
        if !cs.running {
            // doProbe: a non-running container is a Failure.
            self.set_result(p, c, kind, cs.instance, Outcome::Failure, Rule::P4);
            return false;
        }
        if self.api[p].deleted_at.is_some() && kind != ProbeKind::Readiness {
            // Graceful deletion: liveness and startup report Success.
            self.set_result(p, c, kind, cs.instance, Outcome::Success, Rule::P7);
            return false;
        }
        // P3: initialDelaySeconds counted from StartedAt (whole seconds).
        if (self.now - self.rt[p][c].started_at) / 1000 < initial_delay {
            return false;
        }
        // P4: readiness/liveness wait for Started; startup stops once Started.
        let started = cs.started == Some(true);
        if (kind == ProbeKind::Startup) == started {
            return false;
        }
        let answer = self.probe_answer(p, c, kind);
        let (dur, success) = if exec > timeout {
            (timeout, false)
        } else {
            (exec, answer)
        };
        let gen = self.gen;
        self.at(
            self.now + dur,
            Ev::ProbeDone {
                gen,
                pod: p as u16,
                c: c as u8,
                kind: kind as u8,
                success,
            },
        );
        true
    }

    /// P5: consecutive results counted in the worker; cached once the threshold is reached.
    fn probe_done(&mut self, gen: u32, p: usize, c: usize, kind: ProbeKind, success: bool) {
        if gen != self.gen || !self.up || self.api[p].removed {
            return;
        }
        let pr = probe_spec(&self.sc.pods[p].containers[c], kind)
            .expect("worker without probe")
            .clone();
        let result = if success {
            Outcome::Success
        } else {
            Outcome::Failure
        };
        let Some(w) = self.kpods[p].workers[c][kind.index()].as_mut() else {
            return;
        };
        if w.last == result {
            w.run = w.run.saturating_add(1);
        } else {
            w.last = result;
            w.run = 1;
        }
        let threshold = if success {
            pr.success_threshold
        } else {
            pr.failure_threshold
        };
        let run = w.run;
        let cid = w.container_id.unwrap_or(0);
        self.emit(
            Kind::Probe,
            Some(p),
            Some(c),
            Value::Probe(ProbeValue {
                probe: kind,
                result,
                run,
                threshold,
            }),
            Rule::P2,
            Actor::Kubelet,
        );
        if run >= threshold {
            if (kind == ProbeKind::Liveness && result == Outcome::Failure)
                || kind == ProbeKind::Startup
            {
                let w = self.kpods[p].workers[c][kind.index()].as_mut().unwrap();
                w.on_hold = true;
                w.run = 0;
            }
            self.set_result(p, c, kind, cid, result, Rule::P5);
        }
        // doProbe returns; the worker's select takes a buffered trigger first.
        self.set_busy(p, c, kind, false);
        self.consume_trigger(p, c, kind);
    }

    /// `results_manager.Set` (only changes are reported), then `syncLoopIteration` handles the
    /// update: readiness/startup → status manager + pod sync; liveness Failure → kill (P6).
    fn set_result(
        &mut self,
        p: usize,
        c: usize,
        kind: ProbeKind,
        cid: u32,
        r: Outcome,
        rule: Rule,
    ) {
        let slot = &mut self.kpods[p].results[c][kind.index()];
        if *slot == Some((cid, r)) {
            return;
        }
        *slot = Some((cid, r));
        let threshold = probe_spec(&self.sc.pods[p].containers[c], kind)
            .map(|pr| {
                if r == Outcome::Success {
                    pr.success_threshold
                } else {
                    pr.failure_threshold
                }
            })
            .unwrap_or(1);
        self.emit(
            Kind::ProbeResult,
            Some(p),
            Some(c),
            Value::Probe(ProbeValue {
                probe: kind,
                result: r,
                // Only a threshold crossing (P5) comes from a run of probes.
                run: if rule == Rule::P5 { threshold } else { 0 },
                threshold,
            }),
            rule,
            Actor::Kubelet,
        );
        match kind {
            ProbeKind::Liveness | ProbeKind::Startup
                if r == Outcome::Failure
                    && rule == Rule::P5
                    && self.rt[p][c].running
                    && self.rt[p][c].instance == cid =>
            {
                // P6: a liveness or startup failure kills the container (computePodActions);
                // a new container replaces it after the back-off.
                self.rt[p][c].running = false;
                self.emit(
                    Kind::ContainerExit,
                    Some(p),
                    Some(c),
                    Value::Text(format!("killed: {} probe failed", kind.as_str())),
                    Rule::P6,
                    Actor::Kubelet,
                );
                self.sync_pod(p, Rule::P6);
                if !self.kpods[p].terminating {
                    self.schedule_restart(p, c);
                }
            }
            ProbeKind::Readiness | ProbeKind::Startup => self.sync_pod(p, rule),
            ProbeKind::Liveness => {}
        }
    }

    // ---------------------------------------------------------------- status

    /// `generateAPIPodStatus` → `UpdatePodStatus` (S1, S2, S3) → conditions (S4). Returns the
    /// status, the rule that decided each container's Ready, and the readiness workers to trigger.
    fn generate(&self, p: usize) -> (Status, Vec<Rule>, Vec<usize>) {
        let kp = &self.kpods[p];
        let prev = kp.cache.as_ref().unwrap_or(&self.api[p].status);
        let kep = self.policy == Policy::Kep;
        let mut cs = Vec::with_capacity(self.rt[p].len());
        let mut rules = Vec::with_capacity(self.rt[p].len());
        let mut triggers = Vec::new();
        for (c, r) in self.rt[p].iter().enumerate() {
            let spec = &self.sc.pods[p].containers[c];
            let res = |k: ProbeKind| match kp.results[c][k.index()] {
                Some((id, o)) if id == r.instance => Some(o),
                _ => None,
            };
            let worker = |k: ProbeKind| kp.workers[c][k.index()].is_some();
            // S1 isContainerStarted (+ KEP: convertToAPIContainerStatuses keeps Started).
            let started = if !r.running {
                false
            } else if let Some(o) = res(ProbeKind::Startup) {
                o == Outcome::Success
            } else if kep && prev.cs[c].started == Some(true) {
                true
            } else {
                !worker(ProbeKind::Startup)
            };
            // S2 UpdatePodStatus.
            let mut rule = Rule::S2;
            let ready = if !started {
                false
            } else if res(ProbeKind::Readiness) == Some(Outcome::Success) {
                true
            } else {
                let exists = worker(ProbeKind::Readiness);
                if exists {
                    triggers.push(c);
                }
                let mut ready = !exists;
                // S3 setReadyStateOnKubeletRestart.
                if kep && r.running && r.started_at < self.kubelet_start - KUBELET_RESTART_GRACE {
                    if !ready && res(ProbeKind::Readiness).is_none() {
                        ready = true;
                        rule = Rule::S3;
                    }
                    if spec.readiness_probe.is_some() && !self.api[p].status.ready {
                        if ready {
                            rule = Rule::S3;
                        }
                        ready = false;
                    }
                }
                ready
            };
            cs.push(CStatus {
                instance: r.instance,
                running: r.running,
                started: Some(started),
                ready,
            });
            rules.push(rule);
        }
        // S4 generate.go: ContainersReady = all containers ready; PodReady = ContainersReady.
        let containers_ready = cs.iter().all(|c| c.ready);
        (
            Status {
                cs,
                containers_ready,
                ready: containers_ready,
            },
            rules,
            triggers,
        )
    }

    /// A pod sync: regenerate the status, cache it in the status manager and PATCH the API
    /// server if it differs (S5; `syncPod` skips unchanged patches).
    fn sync_pod(&mut self, p: usize, cause: Rule) {
        if !self.up || !self.kpods[p].synced || self.api[p].removed {
            return;
        }
        let (st, rules, triggers) = self.generate(p);
        self.kpods[p].cache = Some(st.clone());
        if st != self.api[p].status {
            self.write_status(p, st, &rules, cause);
        }
        // UpdatePodStatus asks a readiness worker with no result for an immediate probe.
        for c in triggers {
            let idle = match self.kpods[p].workers[c][ProbeKind::Readiness.index()].as_mut() {
                // Non-blocking send into a channel with room for one.
                Some(w) if !w.pending_trigger => {
                    w.pending_trigger = true;
                    w.first_done && !w.busy
                }
                _ => false,
            };
            if idle {
                // The worker is blocked in its select: it takes the request at once.
                self.consume_trigger(p, c, ProbeKind::Readiness);
            }
        }
    }

    fn write_status(&mut self, p: usize, st: Status, rules: &[Rule], cause: Rule) {
        let old = std::mem::replace(&mut self.api[p].status, st.clone());
        let pick = |c: usize| {
            if matches!(cause, Rule::K3) {
                rules[c]
            } else {
                cause
            }
        };
        for c in 0..st.cs.len() {
            if old.cs[c].started != st.cs[c].started {
                self.emit(
                    Kind::ContainerStarted,
                    Some(p),
                    Some(c),
                    Value::Bool(st.cs[c].started == Some(true)),
                    if matches!(cause, Rule::K3) {
                        Rule::S1
                    } else {
                        cause
                    },
                    Actor::Kubelet,
                );
            }
            if old.cs[c].ready != st.cs[c].ready {
                self.emit(
                    Kind::ContainerReady,
                    Some(p),
                    Some(c),
                    Value::Bool(st.cs[c].ready),
                    pick(c),
                    Actor::Kubelet,
                );
            }
        }
        self.metrics.kubelet_status_writes += 1;
        let ready_rule = if matches!(cause, Rule::K3) {
            // First SyncPod: S3 when the KEP restart rule decided a container, else S2.
            if rules.contains(&Rule::S3) {
                Rule::S3
            } else {
                Rule::S2
            }
        } else {
            cause
        };
        self.emit(
            Kind::StatusWrite,
            Some(p),
            None,
            Value::Text("kubelet".into()),
            ready_rule,
            Actor::Kubelet,
        );
        if old.ready != st.ready {
            self.metrics.ready_transitions += 1;
            self.emit(
                Kind::PodReady,
                Some(p),
                None,
                Value::Bool(st.ready),
                ready_rule,
                Actor::Kubelet,
            );
            self.mark_endpoint(p);
        }
    }

    // ---------------------------------------------------------------- control plane

    /// N1–N3: one pass of `monitorNodeHealth`.
    fn nlc_pass(&mut self) {
        self.at(self.now + self.monitor_period, Ev::NlcPass);
        // tryUpdateNodeHealth: probeTimestamp is when *we* first saw a newer lease.
        if self.lease_renew > self.nlc_saved_renew {
            self.nlc_saved_renew = self.lease_renew;
            self.nlc_probe_ts = self.now;
        }
        let observed_ready = self.node_ready;
        if self.node_ready && self.now > self.nlc_probe_ts + self.grace {
            // N1: Ready (and the pressure conditions) → Unknown; MarkPodsNotReady in the same
            // pass because the observed condition was True.
            self.set_node_ready(false, Rule::N1, Actor::NodeLifecycleController);
            for p in 0..self.api.len() {
                let a = &mut self.api[p];
                if a.removed || !a.status.ready {
                    continue;
                }
                a.status.ready = false;
                self.metrics.nlc_status_writes += 1;
                self.metrics.ready_transitions += 1;
                self.emit(
                    Kind::StatusWrite,
                    Some(p),
                    None,
                    Value::Text("node-lifecycle-controller".into()),
                    Rule::N1,
                    Actor::NodeLifecycleController,
                );
                self.emit(
                    Kind::PodReady,
                    Some(p),
                    None,
                    Value::Bool(false),
                    Rule::N1,
                    Actor::NodeLifecycleController,
                );
                self.mark_endpoint(p);
            }
        }
        // processTaintBaseEviction works on the condition observed at the start of the pass.
        if !observed_ready && !self.taint_noexecute {
            self.taint_noexecute = true;
            self.emit(
                Kind::TaintAdded,
                None,
                None,
                Value::Text("NoExecute".into()),
                Rule::N2,
                Actor::NodeLifecycleController,
            );
            self.schedule_evictions();
        } else if observed_ready && self.taint_noexecute {
            self.taint_noexecute = false;
            self.emit(
                Kind::TaintRemoved,
                None,
                None,
                Value::Text("NoExecute".into()),
                Rule::N3,
                Actor::NodeLifecycleController,
            );
            self.cancel_evictions();
        }
    }

    /// The node's Ready condition in the API (True, or Unknown when the NLC gives up on it);
    /// the NoSchedule taint follows it at once (N1t).
    fn set_node_ready(&mut self, ready: bool, rule: Rule, by: Actor) {
        self.node_ready = ready;
        let v = if ready { "True" } else { "Unknown" };
        self.emit(Kind::NodeReady, None, None, Value::Text(v.into()), rule, by);
        self.update_noschedule_taint(Rule::N1t);
    }

    fn update_noschedule_taint(&mut self, rule: Rule) {
        let want = !self.node_ready;
        if want == self.taint_noschedule {
            return;
        }
        self.taint_noschedule = want;
        self.emit(
            if want {
                Kind::TaintAdded
            } else {
                Kind::TaintRemoved
            },
            None,
            None,
            Value::Text("NoSchedule".into()),
            rule,
            Actor::NodeLifecycleController,
        );
    }

    /// E1: the taint eviction controller schedules each non-tolerating pod's deletion.
    fn schedule_evictions(&mut self) {
        for p in 0..self.api.len() {
            if self.api[p].removed
                || self.api[p].deleted_at.is_some()
                || self.sc.pods[p].workload == Workload::DaemonSet
            {
                continue;
            }
            self.api[p].eviction_seq += 1;
            self.api[p].eviction_pending = true;
            let seq = self.api[p].eviction_seq;
            let due = self.now + self.toleration;
            self.at(due, Ev::Eviction { pod: p as u16, seq });
            self.emit(
                Kind::EvictionScheduled,
                Some(p),
                None,
                Value::Seconds(due as f64 / 1000.0),
                Rule::E1,
                Actor::TaintEvictionController,
            );
        }
    }

    fn cancel_evictions(&mut self) {
        for p in 0..self.api.len() {
            if self.api[p].eviction_pending {
                self.api[p].eviction_pending = false;
                self.api[p].eviction_seq += 1;
                self.emit(
                    Kind::EvictionCancelled,
                    Some(p),
                    None,
                    Value::None,
                    Rule::E1c,
                    Actor::TaintEvictionController,
                );
            }
        }
    }

    fn eviction(&mut self, p: usize, seq: u32) {
        let a = &mut self.api[p];
        if a.eviction_seq != seq || !a.eviction_pending || a.removed || a.deleted_at.is_some() {
            return;
        }
        a.eviction_pending = false;
        a.deleted_at = Some(self.now);
        self.metrics.evictions += 1;
        self.emit(
            Kind::Eviction,
            Some(p),
            None,
            Value::None,
            Rule::E1,
            Actor::TaintEvictionController,
        );
        self.mark_endpoint(p);
        if self.up && self.kpods[p].synced {
            self.start_termination(p);
        }
    }

    fn mark_endpoint(&mut self, p: usize) {
        if self.sc.pods[p].service.is_some() {
            self.dirty_endpoints.push(p as u16);
        }
    }

    /// ES1: endpoint conditions per pod; one EndpointSlice update per Service per instant.
    fn flush_endpoints(&mut self) {
        if self.dirty_endpoints.is_empty() {
            return;
        }
        let mut dirty = std::mem::take(&mut self.dirty_endpoints);
        dirty.sort_unstable();
        dirty.dedup();
        let mut services: Vec<&'a str> = Vec::new();
        for p in dirty {
            let p = p as usize;
            let a = &self.api[p];
            let new = if a.removed {
                None
            } else {
                let serving = a.status.ready;
                let terminating = a.deleted_at.is_some();
                Some(EndpointValue {
                    ready: serving && !terminating,
                    serving,
                    terminating,
                })
            };
            if new != a.endpoint {
                self.api[p].endpoint = new;
                self.emit(
                    Kind::Endpoint,
                    Some(p),
                    None,
                    new.map(Value::Endpoint).unwrap_or(Value::None),
                    Rule::ES1,
                    Actor::EndpointsliceController,
                );
                let svc: &'a str = self.sc.pods[p].service.as_deref().unwrap_or("");
                if !services.contains(&svc) {
                    services.push(svc);
                }
            }
        }
        services.sort_unstable();
        for s in services {
            self.metrics.endpointslice_updates += 1;
            self.emit(
                Kind::EndpointsliceUpdate,
                None,
                None,
                Value::Text(s.to_string()),
                Rule::ES1,
                Actor::EndpointsliceController,
            );
        }
    }
}
