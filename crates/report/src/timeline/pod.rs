//! One pod on the timeline ([`PodTimeline`]): its API Ready condition and writers, endpoint,
//! containers (Started, Ready, running, restarts, cached probe results), probe marks, deletion,
//! removal and eviction countdowns; and the pod's state at a time ([`PodState`]). Built by
//! [`super::Timeline::new`], which hands each pod its events.

use super::track::Track;
use restartscope_sim::{
    Actor, ContainerRole, EndpointValue, Event, Kind, Ms, Outcome, PodInfo, ProbeKind, ProbeValue,
    Rule, Value,
};

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

/// What one kubelet status write said of a pod's containers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiContainers {
    pub t: Ms,
    /// Every regular container and sidecar running.
    pub running: bool,
    /// The containers' restart counts, summed.
    pub restarts: u32,
    /// An ordinary init container running (after a reboot, B2): (its index among the ordinary
    /// init containers, how many there are) — kubectl's `Init:0/1`.
    pub init: Option<(u32, u32)>,
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
    /// Regular container, completed ordinary init container or sidecar.
    pub role: ContainerRole,
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
    /// Admission at the kubelet's start rejected the pod (A1): when, and the status `reason`
    /// (the predicate's name: `NodeAffinity`, `TaintToleration`).
    pub rejected: Option<(Ms, &'static str)>,
    /// Phase Failed written (A2).
    pub failed: Option<Ms>,
    pub countdowns: Vec<Countdown>,
    /// The kubelet's pod status writes, each with what it said of the containers: whether every
    /// counted one (regular and sidecar) was running, and the restart count. What the API shows
    /// of the containers is what the newest of them said; the runtime's truth between them is
    /// not in the API (a node that reboots shows its containers Running until its kubelet
    /// writes again).
    pub kubelet_writes: Vec<ApiContainers>,
    /// Instants at which what `kubectl get pods -w` prints of the pod may change (a status
    /// write, a Ready change, a container exit or restart, deletion, removal), each with the
    /// index of its first event.
    pub watch: Vec<(Ms, usize)>,
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
    /// Rejected by admission at the kubelet's start: the API's container statuses are gone.
    pub rejected: bool,
    /// Phase Failed, with its reason (kubectl's STATUS column shows the reason).
    pub failed: Option<&'static str>,
    /// Due time of an eviction countdown running at this instant.
    pub eviction_due: Option<Ms>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContainerState {
    pub role: ContainerRole,
    pub started: bool,
    pub ready: bool,
    pub running: bool,
    pub restarts: u32,
    /// Cached result by probe kind (`None`: no such probe, or nothing cached).
    pub cached: [Option<Outcome>; 3],
}

impl PodTimeline {
    /// The pod in steady state, before any event.
    pub(super) fn new(p: &PodInfo) -> PodTimeline {
        PodTimeline {
            name: p.name.clone(),
            ready: Track::new(ApiReady::True),
            writes: Vec::new(),
            endpoint: (!p.services.is_empty()).then(|| Track::new(EndpointState::Ready)),
            containers: p
                .containers
                .iter()
                .map(|c| ContainerTimeline {
                    role: c.role,
                    // A completed ordinary init container: not running, not started, Ready.
                    started: Track::new(c.role != ContainerRole::Init),
                    ready: Track::new(true),
                    running: Track::new(c.role != ContainerRole::Init),
                    restarts: Vec::new(),
                    cached: c
                        .probes
                        .map(|p| p.map(|_| Track::new(Some(Outcome::Success)))),
                })
                .collect(),
            probes: Vec::new(),
            deleted: None,
            removed: None,
            rejected: None,
            failed: None,
            countdowns: Vec::new(),
            kubelet_writes: Vec::new(),
            watch: Vec::new(),
        }
    }

    /// The kubelet's memory is gone (K1): nothing cached.
    pub(super) fn kubelet_stopped(&mut self, t: Ms) {
        for c in &mut self.containers {
            for cache in c.cached.iter_mut().flatten() {
                cache.set(t, None);
            }
        }
    }

    /// Reads one event of this pod (`i`: its index in the trace).
    pub(super) fn read(&mut self, i: usize, e: &Event) {
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
            (Kind::PodRejected, _) => {
                let reason = if e.value.text().contains("Predicate TaintToleration") {
                    "TaintToleration"
                } else {
                    "NodeAffinity"
                };
                self.rejected.get_or_insert((e.t, reason));
            }
            (Kind::PodFailed, _) => {
                self.failed.get_or_insert(e.t);
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
        if e.kind == Kind::StatusWrite && e.by == Actor::Kubelet {
            // The events before this one have set the tracks: their last values are what this
            // write said.
            let counted = || (self.containers.iter()).filter(|c| c.role != ContainerRole::Init);
            let inits: Vec<&ContainerTimeline> = (self.containers.iter())
                .filter(|c| c.role == ContainerRole::Init)
                .collect();
            let init = inits
                .iter()
                .position(|c| *c.running.last())
                .map(|i| (i as u32, inits.len() as u32));
            self.kubelet_writes.push(ApiContainers {
                t: e.t,
                running: counted().all(|c| *c.running.last()),
                restarts: self
                    .containers
                    .iter()
                    .map(|c| c.restarts.len() as u32)
                    .sum(),
                init,
            });
        }
        if matches!(
            e.kind,
            Kind::StatusWrite
                | Kind::PodReady
                | Kind::ContainerExit
                | Kind::ContainerRestart
                | Kind::Eviction
                | Kind::PodRemoved
                | Kind::PodRejected
                | Kind::PodFailed
        ) && self.watch.last().is_none_or(|w| w.0 != e.t)
        {
            self.watch.push((e.t, i));
        }
    }

    /// What the API showed of the containers at `t`: the newest kubelet status write at or
    /// before it (`None`: the steady state the run starts from, every container running).
    pub fn api_containers_at(&self, t: Ms) -> Option<ApiContainers> {
        match self.kubelet_writes.partition_point(|w| w.t <= t) {
            0 => None,
            i => Some(self.kubelet_writes[i - 1]),
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
                    role: c.role,
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
            rejected: self.rejected.is_some_and(|r| r.0 <= t),
            failed: self
                .rejected
                .filter(|_| self.failed.is_some_and(|f| f <= t))
                .map(|r| r.1),
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
