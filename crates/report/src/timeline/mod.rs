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

mod pod;
mod track;

pub use pod::*;
pub use track::Track;

use restartscope_sim::{ConditionStatus, Kind, Ms, Rule, TaintEffect, Trace, Value};

/// The node lease, as the inputs of its age: renewals, the grace period, the renew interval; and
/// what the node lifecycle controller makes of them (its passes, `probeTimestamp`).
#[derive(Clone, Debug, PartialEq)]
pub struct Lease {
    /// Renewal times in order. The first is the steady-state renewal before t = 0, one renew
    /// interval before the first renewal in the trace.
    pub renewals: Vec<Ms>,
    /// The node monitor grace period (at least 1 ms).
    pub grace: Ms,
    /// 0.25 × the lease duration (K2r).
    pub renew_interval: Ms,
    /// `leaseDurationSeconds`: the lease is expired at `renewTime` + this.
    pub duration: Ms,
    /// The kubelet's node status posts (node Ready written by the kubelet): the controller takes
    /// a changed heartbeat like a renewal.
    pub heartbeats: Vec<Ms>,
    /// The controller's first pass and its period (`--node-monitor-period`); period 0: not
    /// recorded (an old trace), and [`Lease::grace_checks`] counts from the renewal itself.
    pub nlc_phase: Ms,
    pub nlc_period: Ms,
}

/// When the node lifecycle controller's grace check fell due after the lease went quiet, and
/// when a pass found it overdue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraceCheck {
    /// The renewal (or heartbeat) last seen.
    pub renewed: Ms,
    /// The pass that first saw it (`probeTimestamp` in `tryUpdateNodeHealth`).
    pub observed: Ms,
    /// `probeTimestamp + gracePeriod`: from here the check `now > probeTimestamp + gracePeriod`
    /// holds at the next pass.
    pub due: Ms,
    /// That pass: the node goes Unknown (`monitorNodeHealth`), unless a renewal is seen first.
    pub fires: Ms,
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

    /// The instants the lease expires before the next renewal: `renewTime +
    /// leaseDurationSeconds` (the last renewal's expiry may lie after the trace's end). Nothing
    /// reacts to this: the node lifecycle controller counts its own grace period
    /// ([`Lease::grace_checks`]).
    pub fn expiries(&self) -> Vec<Ms> {
        let d = self.duration.max(1);
        self.renewals
            .iter()
            .enumerate()
            .map(|(i, r)| (r + d, self.renewals.get(i + 1).copied()))
            .filter(|(exp, next)| next.is_none_or(|n| *exp < n))
            .map(|(exp, _)| exp)
            .collect()
    }

    /// The first controller pass at or after `t` (`t` itself without recorded passes).
    fn pass_at_or_after(&self, t: Ms) -> Ms {
        if self.nlc_period <= 0 {
            return t;
        }
        let k = (t - self.nlc_phase + self.nlc_period - 1).div_euclid(self.nlc_period);
        self.nlc_phase + k * self.nlc_period
    }

    /// Each time the lease went quiet long enough for the node lifecycle controller to act:
    /// `tryUpdateNodeHealth` sets `probeTimestamp` to the pass that first saw the newest renewal
    /// or heartbeat, and `monitorNodeHealth` marks the node Unknown at the first pass with `now >
    /// probeTimestamp + gracePeriod` (pkg/controller/nodelifecycle/node_lifecycle_controller.go),
    /// unless that pass sees a newer renewal first. Checks that fall due after the trace's end
    /// are listed too.
    pub fn grace_checks(&self) -> Vec<GraceCheck> {
        let mut seen: Vec<Ms> = self
            .renewals
            .iter()
            .chain(&self.heartbeats)
            .copied()
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let mut out = Vec::new();
        for (i, &r) in seen.iter().enumerate() {
            let observed = self.pass_at_or_after(r);
            let due = observed + self.grace;
            let fires = if self.nlc_period > 0 {
                self.pass_at_or_after(due + 1)
            } else {
                due
            };
            // A pass at or after the next renewal sees it before checking.
            let next_seen = seen.get(i + 1).map(|&n| self.pass_at_or_after(n));
            if next_seen.is_none_or(|n| fires < n) {
                out.push(GraceCheck {
                    renewed: r,
                    observed,
                    due,
                    fires,
                });
            }
        }
        out
    }
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

/// The taints in the order of [`Timeline::taints`].
pub const TAINTS: [TaintEffect; 2] = [TaintEffect::NoSchedule, TaintEffect::NoExecute];

/// One trace read once.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub horizon: Ms,
    pub kubelet_up: Track<bool>,
    /// Whether the node reaches the API server (`kubelet.api_unreachable` windows, K2u).
    pub api_up: Track<bool>,
    pub lease: Lease,
    pub node_ready: Track<ConditionStatus>,
    /// Each write of the node's Ready condition: when, the status, who posted it and the rule.
    pub node_ready_writes: Vec<(Ms, ConditionStatus, restartscope_sim::Actor, Rule)>,
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
        let mut api_up = Track::new(true);
        let mut node_ready = Track::new(ConditionStatus::True);
        let mut node_ready_writes = Vec::new();
        let mut taints = [Track::new(false), Track::new(false)];
        let mut renewals = Vec::new();
        let mut heartbeats = Vec::new();
        let mut pods: Vec<PodTimeline> = tr.pods.iter().map(PodTimeline::new).collect();
        for (i, e) in tr.events.iter().enumerate() {
            match e.kind {
                Kind::KubeletStop => {
                    kubelet_up.set(e.t, false);
                    for p in &mut pods {
                        p.kubelet_stopped(e.t);
                    }
                }
                Kind::KubeletStart => kubelet_up.set(e.t, true),
                Kind::ApiReachable => api_up.set(e.t, e.value == Value::Bool(true)),
                Kind::LeaseRenew => renewals.push(e.t),
                Kind::NodeReady => {
                    if let Value::Condition(c) = e.value {
                        node_ready.set(e.t, c);
                        node_ready_writes.push((e.t, c, e.by, e.rule));
                    }
                    if e.by == restartscope_sim::Actor::Kubelet {
                        heartbeats.push(e.t);
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
            api_up,
            lease: Lease {
                renewals,
                grace: tr.grace.max(1),
                renew_interval,
                duration: tr.lease_duration.max(1),
                heartbeats,
                nlc_phase: tr.nlc_phase,
                nlc_period: tr.nlc_period,
            },
            node_ready,
            node_ready_writes,
            taints,
            pods,
        }
    }

    /// Who posted the node's Ready condition that holds at `t`, under which rule (`None`: the
    /// steady state the run starts from).
    pub fn node_ready_cause(&self, t: Ms) -> Option<(restartscope_sim::Actor, Rule)> {
        (self.node_ready_writes.iter())
            .rfind(|w| w.0 <= t)
            .map(|w| (w.2, w.3))
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
        restartscope_sim::core::sort::sort_by_key(&mut all, |w| w.event);
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

#[cfg(test)]
mod tests;
