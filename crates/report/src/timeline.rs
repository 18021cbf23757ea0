//! The timeline: every object of one trace as pieces of constant state, built once from the
//! events ([`Timeline::new`]) and then only queried — by time ([`Timeline::state_at`],
//! [`Track::at`], binary search) or as spans over a window ([`Track::spans`]). This is the one
//! replay of a trace's events: the figure's lanes (`restartscope-figure`), the kubectl rows
//! ([`crate::kubectl`]), "why Ready changed" ([`crate::why`]) and the web app's playhead read it.
//!
//! At t = 0 the model is in steady state (docs/MODEL.md): kubelet up, node Ready, no taints,
//! every pod Ready as last written by the kubelet, endpoints ready, containers running, started
//! and ready, every probe worker holding a cached Success. A change at `t` holds from `t` on, so
//! `at(t)` is the state after every event at `t`.

use restartscope_sim::{
    Actor, ConditionStatus, EndpointValue, Event, Kind, Ms, Outcome, ProbeKind, ProbeValue, Rule,
    TaintEffect, Trace, Value,
};

/// A value that changes at instants: the initial value and each change, in time order.
/// Changes at one instant collapse into the last of them, and a change to the current value is
/// not recorded, so consecutive pieces always differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    init: T,
    changes: Vec<(Ms, T)>,
}

impl<T: Clone + PartialEq> Track<T> {
    pub fn new(init: T) -> Self {
        Track {
            init,
            changes: Vec::new(),
        }
    }

    /// The value is `v` from `t` on (`t` never decreases between calls).
    pub fn set(&mut self, t: Ms, v: T) {
        if let Some(last) = self.changes.last_mut() {
            if last.0 == t {
                last.1 = v;
                let n = self.changes.len();
                let before = if n >= 2 {
                    &self.changes[n - 2].1
                } else {
                    &self.init
                };
                if *before == self.changes[n - 1].1 {
                    self.changes.pop();
                }
                return;
            }
        }
        if v != *self.last() {
            self.changes.push((t, v));
        }
    }

    /// The value at `t` (after every change at or before `t`).
    pub fn at(&self, t: Ms) -> &T {
        match self.changes.partition_point(|c| c.0 <= t) {
            0 => &self.init,
            i => &self.changes[i - 1].1,
        }
    }

    /// The value before any change.
    pub fn initial(&self) -> &T {
        &self.init
    }

    /// The value after every change.
    pub fn last(&self) -> &T {
        self.changes.last().map_or(&self.init, |c| &c.1)
    }

    /// Every change `(t, new value)` in time order.
    pub fn changes(&self) -> &[(Ms, T)] {
        &self.changes
    }

    /// The pieces of constant value clipped to `[t0, t1)`: `(start, end, value)`, none empty,
    /// neighbours different.
    pub fn spans(&self, t0: Ms, t1: Ms) -> Vec<(Ms, Ms, T)> {
        let mut out = Vec::new();
        let mut piece = |a: Ms, b: Ms, v: &T| {
            let (a, b) = (a.max(t0), b.min(t1));
            if b > a {
                out.push((a, b, v.clone()));
            }
        };
        let mut start = Ms::MIN;
        let mut cur = &self.init;
        for (t, v) in &self.changes {
            piece(start, *t, cur);
            start = *t;
            cur = v;
        }
        piece(start, Ms::MAX, cur);
        out
    }
}

/// The node lease, as the inputs of its age: renewals, the grace period, the renew interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Lease {
    /// Renewal times in order. The first is the steady-state renewal before t = 0, one renew
    /// interval before the first renewal in the trace.
    pub renewals: Vec<Ms>,
    /// The node monitor grace period (at least 1 ms).
    pub grace: Ms,
    /// 0.25 × the lease duration (K2r).
    pub renew_interval: Ms,
}

impl Lease {
    /// The newest renewal at or before `t`.
    pub fn renewed(&self, t: Ms) -> Ms {
        match self.renewals.partition_point(|r| *r <= t) {
            0 => self.renewals[0],
            i => self.renewals[i - 1],
        }
    }

    /// How old the lease is at `t`.
    pub fn age_at(&self, t: Ms) -> Ms {
        t - self.renewed(t)
    }

    /// The instants the lease's age passes the grace period before the next renewal (the last
    /// renewal's expiry may lie after the trace's end).
    pub fn expiries(&self) -> Vec<Ms> {
        self.renewals
            .iter()
            .enumerate()
            .map(|(i, r)| (r + self.grace, self.renewals.get(i + 1).copied()))
            .filter(|(exp, next)| next.is_none_or(|n| *exp < n))
            .map(|(exp, _)| exp)
            .collect()
    }
}

/// API-visible PodReady, or the pod object gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiReady {
    True,
    False,
    Removed,
}

/// One write of a pod's Ready condition: who wrote it, under which rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadyWrite {
    pub t: Ms,
    pub ready: bool,
    pub by: Actor,
    pub rule: Rule,
    /// Index of the `pod_ready` event in the trace.
    pub event: usize,
}

/// A pod's endpoint in its Service's EndpointSlices (ES1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndpointState {
    Ready,
    NotReady,
    ServingTerminating,
    Terminating,
    Removed,
}

impl EndpointState {
    pub fn of(v: &EndpointValue) -> EndpointState {
        if v.ready {
            EndpointState::Ready
        } else if v.terminating && v.serving {
            EndpointState::ServingTerminating
        } else if v.terminating {
            EndpointState::Terminating
        } else {
            EndpointState::NotReady
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EndpointState::Ready => "ready",
            EndpointState::NotReady => "not ready",
            EndpointState::ServingTerminating => "serving, terminating",
            EndpointState::Terminating => "terminating",
            EndpointState::Removed => "removed",
        }
    }
}

/// What a probe mark records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// One probe execution finished (P2 ticks).
    Executed,
    /// The kubelet's results cache changed (P1 initial value, P5 threshold crossed, …).
    Cached,
    /// KEP-4781: a new worker did not write its initial value (P1k).
    InitialSkipped,
}

/// A probe execution or a results-cache change of one container.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeMark {
    pub t: Ms,
    pub container: u8,
    pub kind: MarkKind,
    pub value: ProbeValue,
    pub rule: Rule,
    /// Index of the event in the trace (for its description).
    pub event: usize,
}

/// How an eviction countdown ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountdownEnd {
    /// The NoExecute taint went away first (E1c).
    Cancelled,
    /// The pod was deleted (E1).
    Evicted,
    /// A new countdown replaced it.
    Rescheduled,
}

/// A pod's eviction countdown: scheduled when the NoExecute taint lands (E1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Countdown {
    pub scheduled: Ms,
    /// When the toleration runs out.
    pub due: Ms,
    /// When and how it ended, if it did.
    pub end: Option<(Ms, CountdownEnd)>,
}

impl Countdown {
    /// Running at `t`.
    pub fn running_at(&self, t: Ms) -> bool {
        self.scheduled <= t && self.end.is_none_or(|(e, _)| e > t)
    }
}

/// One container as the API and the kubelet show it.
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerTimeline {
    /// API `started` (S1).
    pub started: Track<bool>,
    /// API `ready` (S2, S3).
    pub ready: Track<bool>,
    /// Running (exits, K5, and restarts, K3r).
    pub running: Track<bool>,
    /// Times of each restart (a new container).
    pub restarts: Vec<Ms>,
    /// The kubelet's cached result for this container, by probe kind ([`ProbeKind::index`]);
    /// `None` where the container has no such probe. Emptied when the kubelet stops (K1) and
    /// when the container is replaced (K3r).
    pub cached: [Option<Track<Option<Outcome>>>; 3],
}

/// One pod's objects over time.
#[derive(Clone, Debug, PartialEq)]
pub struct PodTimeline {
    pub name: String,
    /// API PodReady; `Removed` once the object is gone, for good.
    pub ready: Track<ApiReady>,
    /// Every PodReady change, in order.
    pub writes: Vec<ReadyWrite>,
    /// The endpoint; `None` when the pod backs no Service.
    pub endpoint: Option<Track<EndpointState>>,
    pub containers: Vec<ContainerTimeline>,
    /// Probe executions and results-cache changes, in event order.
    pub probes: Vec<ProbeMark>,
    /// Deletion timestamp (eviction).
    pub deleted: Option<Ms>,
    pub removed: Option<Ms>,
    pub countdowns: Vec<Countdown>,
    /// Instants at which what `kubectl get pods -w` prints of the pod may change (a status
    /// write, a Ready change, a container exit or restart, deletion, removal), each with the
    /// index of its first event.
    pub watch: Vec<(Ms, usize)>,
}

/// The state of everything at one instant.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub t: Ms,
    pub kubelet_up: bool,
    pub lease_age: Ms,
    pub node_ready: ConditionStatus,
    /// The `unreachable` taints, in [`TAINTS`] order.
    pub taints: [bool; 2],
    pub pods: Vec<PodState>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PodState {
    pub ready: ApiReady,
    /// The write that set the current Ready condition (`None`: the steady state of t = 0).
    pub writer: Option<ReadyWrite>,
    pub endpoint: Option<EndpointState>,
    pub containers: Vec<ContainerState>,
    pub deleting: bool,
    pub removed: bool,
    /// Due time of an eviction countdown running at this instant.
    pub eviction_due: Option<Ms>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContainerState {
    pub started: bool,
    pub ready: bool,
    pub running: bool,
    pub restarts: u32,
    /// Cached result by probe kind (`None`: no such probe, or nothing cached).
    pub cached: [Option<Outcome>; 3],
}

/// The taints in the order of [`Timeline::taints`].
pub const TAINTS: [TaintEffect; 2] = [TaintEffect::NoSchedule, TaintEffect::NoExecute];

/// One trace read once.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub horizon: Ms,
    pub kubelet_up: Track<bool>,
    pub lease: Lease,
    pub node_ready: Track<ConditionStatus>,
    /// The `unreachable` taints, in [`TAINTS`] order.
    pub taints: [Track<bool>; 2],
    pub pods: Vec<PodTimeline>,
}

fn taint_index(e: TaintEffect) -> usize {
    match e {
        TaintEffect::NoSchedule => 0,
        TaintEffect::NoExecute => 1,
    }
}

impl Timeline {
    /// Reads every event of `tr` once.
    pub fn new(tr: &Trace) -> Timeline {
        let mut kubelet_up = Track::new(true);
        let mut node_ready = Track::new(ConditionStatus::True);
        let mut taints = [Track::new(false), Track::new(false)];
        let mut renewals = Vec::new();
        let mut pods: Vec<PodTimeline> = tr
            .pods
            .iter()
            .map(|p| PodTimeline {
                name: p.name.clone(),
                ready: Track::new(ApiReady::True),
                writes: Vec::new(),
                endpoint: p.service.as_ref().map(|_| Track::new(EndpointState::Ready)),
                containers: p
                    .containers
                    .iter()
                    .map(|c| ContainerTimeline {
                        started: Track::new(true),
                        ready: Track::new(true),
                        running: Track::new(true),
                        restarts: Vec::new(),
                        cached: c
                            .probes
                            .map(|p| p.map(|_| Track::new(Some(Outcome::Success)))),
                    })
                    .collect(),
                probes: Vec::new(),
                deleted: None,
                removed: None,
                countdowns: Vec::new(),
                watch: Vec::new(),
            })
            .collect();
        for (i, e) in tr.events.iter().enumerate() {
            match e.kind {
                Kind::KubeletStop => {
                    kubelet_up.set(e.t, false);
                    for c in pods.iter_mut().flat_map(|p| p.containers.iter_mut()) {
                        for cache in c.cached.iter_mut().flatten() {
                            cache.set(e.t, None);
                        }
                    }
                }
                Kind::KubeletStart => kubelet_up.set(e.t, true),
                Kind::LeaseRenew => renewals.push(e.t),
                Kind::NodeReady => {
                    if let Value::Condition(c) = e.value {
                        node_ready.set(e.t, c);
                    }
                }
                Kind::TaintAdded | Kind::TaintRemoved => {
                    if let Value::Taint(effect) = e.value {
                        taints[taint_index(effect)].set(e.t, e.kind == Kind::TaintAdded);
                    }
                }
                _ => {
                    if let Some(p) = e.pod.and_then(|p| pods.get_mut(p as usize)) {
                        p.read(i, e);
                    }
                }
            }
        }
        let renew_interval = (tr.lease_duration / 4).max(1);
        let before = renewals
            .first()
            .map_or(-renew_interval, |r| r - renew_interval);
        renewals.insert(0, before);
        Timeline {
            horizon: tr.horizon,
            kubelet_up,
            lease: Lease {
                renewals,
                grace: tr.grace.max(1),
                renew_interval,
            },
            node_ready,
            taints,
            pods,
        }
    }

    pub fn taint(&self, effect: TaintEffect) -> &Track<bool> {
        &self.taints[taint_index(effect)]
    }

    /// Each kubelet outage `(stop, start)`; a kubelet still down at the end returns at the
    /// horizon.
    pub fn outages(&self) -> Vec<(Ms, Ms)> {
        self.kubelet_up
            .spans(Ms::MIN, self.horizon.max(0))
            .into_iter()
            .filter(|s| !s.2)
            .map(|(a, b, _)| (a, b))
            .collect()
    }

    /// Every PodReady write of every pod, in event order.
    pub fn ready_writes(&self) -> Vec<ReadyWrite> {
        let mut all: Vec<ReadyWrite> = self.pods.iter().flat_map(|p| p.writes.clone()).collect();
        all.sort_by_key(|w| w.event);
        all
    }

    /// Everything at `t`.
    pub fn state_at(&self, t: Ms) -> State {
        State {
            t,
            kubelet_up: *self.kubelet_up.at(t),
            lease_age: self.lease.age_at(t),
            node_ready: *self.node_ready.at(t),
            taints: [*self.taints[0].at(t), *self.taints[1].at(t)],
            pods: self.pods.iter().map(|p| p.state_at(t)).collect(),
        }
    }
}

impl PodTimeline {
    fn read(&mut self, i: usize, e: &Event) {
        let c = e.container.map(usize::from);
        let gone = self.removed.is_some();
        match (e.kind, c) {
            (Kind::PodReady, _) => {
                let ready = e.value == Value::Bool(true);
                if !gone {
                    let v = if ready {
                        ApiReady::True
                    } else {
                        ApiReady::False
                    };
                    self.ready.set(e.t, v);
                }
                self.writes.push(ReadyWrite {
                    t: e.t,
                    ready,
                    by: e.by,
                    rule: e.rule,
                    event: i,
                });
            }
            (Kind::PodRemoved, _) => {
                self.ready.set(e.t, ApiReady::Removed);
                self.removed.get_or_insert(e.t);
            }
            (Kind::Eviction, _) => {
                self.deleted.get_or_insert(e.t);
            }
            (Kind::Endpoint, _) => {
                if let Some(ep) = &mut self.endpoint {
                    let v = match &e.value {
                        Value::Endpoint(v) => EndpointState::of(v),
                        _ => EndpointState::Removed,
                    };
                    ep.set(e.t, v);
                }
            }
            (Kind::ContainerStarted, Some(c)) => {
                if let Some(ct) = self.containers.get_mut(c) {
                    ct.started.set(e.t, e.value == Value::Bool(true));
                }
            }
            (Kind::ContainerReady, Some(c)) => {
                if let Some(ct) = self.containers.get_mut(c) {
                    ct.ready.set(e.t, e.value == Value::Bool(true));
                }
            }
            (Kind::ContainerExit, Some(c)) => {
                if let Some(ct) = self.containers.get_mut(c) {
                    ct.running.set(e.t, false);
                }
            }
            (Kind::ContainerRestart, Some(c)) => {
                if let Some(ct) = self.containers.get_mut(c) {
                    ct.running.set(e.t, true);
                    ct.restarts.push(e.t);
                    for cache in ct.cached.iter_mut().flatten() {
                        cache.set(e.t, None);
                    }
                }
            }
            (Kind::Probe | Kind::ProbeResult, Some(c)) => {
                if let Value::Probe(v) = e.value {
                    let kind = match (e.kind, e.rule) {
                        (Kind::Probe, _) => MarkKind::Executed,
                        (_, Rule::P1k) => MarkKind::InitialSkipped,
                        _ => MarkKind::Cached,
                    };
                    if kind == MarkKind::Cached {
                        let cache = self
                            .containers
                            .get_mut(c)
                            .and_then(|ct| ct.cached[v.probe.index()].as_mut());
                        if let Some(cache) = cache {
                            cache.set(e.t, Some(v.result));
                        }
                    }
                    self.probes.push(ProbeMark {
                        t: e.t,
                        container: c as u8,
                        kind,
                        value: v,
                        rule: e.rule,
                        event: i,
                    });
                }
            }
            _ => {}
        }
        if matches!(
            e.kind,
            Kind::EvictionScheduled | Kind::EvictionCancelled | Kind::Eviction
        ) {
            let end = match e.kind {
                Kind::EvictionCancelled => CountdownEnd::Cancelled,
                Kind::Eviction => CountdownEnd::Evicted,
                _ => CountdownEnd::Rescheduled,
            };
            if let Some(open) = self.countdowns.last_mut().filter(|c| c.end.is_none()) {
                open.end = Some((e.t, end));
            }
            if e.kind == Kind::EvictionScheduled {
                let due = match e.value {
                    Value::Seconds(s) => (s * 1000.0).round() as Ms,
                    _ => e.t,
                };
                self.countdowns.push(Countdown {
                    scheduled: e.t,
                    due,
                    end: None,
                });
            }
        }
        if matches!(
            e.kind,
            Kind::StatusWrite
                | Kind::PodReady
                | Kind::ContainerExit
                | Kind::ContainerRestart
                | Kind::Eviction
                | Kind::PodRemoved
        ) && self.watch.last().is_none_or(|w| w.0 != e.t)
        {
            self.watch.push((e.t, i));
        }
    }

    /// The write that set the Ready condition in force at `t`.
    pub fn writer_at(&self, t: Ms) -> Option<&ReadyWrite> {
        match self.writes.partition_point(|w| w.t <= t) {
            0 => None,
            i => Some(&self.writes[i - 1]),
        }
    }

    /// The pod at `t`.
    pub fn state_at(&self, t: Ms) -> PodState {
        PodState {
            ready: *self.ready.at(t),
            writer: self.writer_at(t).copied(),
            endpoint: self.endpoint.as_ref().map(|ep| *ep.at(t)),
            containers: self
                .containers
                .iter()
                .map(|c| ContainerState {
                    started: *c.started.at(t),
                    ready: *c.ready.at(t),
                    running: *c.running.at(t),
                    restarts: c.restarts.partition_point(|r| *r <= t) as u32,
                    cached: ProbeKind::ALL
                        .map(|k| c.cached[k.index()].as_ref().and_then(|tr| *tr.at(t))),
                })
                .collect(),
            deleting: self.deleted.is_some_and(|d| d <= t),
            removed: self.removed.is_some_and(|r| r <= t),
            eviction_due: self
                .countdowns
                .iter()
                .rev()
                .find(|c| c.running_at(t))
                .map(|c| c.due),
        }
    }

    /// The pod before any event (the steady state of t = 0).
    pub fn initial(&self) -> PodState {
        self.state_at(Ms::MIN)
    }
}
