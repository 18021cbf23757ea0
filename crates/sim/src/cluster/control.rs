//! The cluster's periodic control-plane work: the node lifecycle controller's passes (visiting
//! every node that is not quiet, and letting nodes become quiet or wake), its tainting pass, a
//! readiness-driven rollout's poll and the per-second samples of the series. Called by the
//! cluster's run loop and dispatch (`mod.rs`).
//!
//! Mirrors `node_lifecycle_controller.go` (`monitorNodeHealth` over the node list,
//! `doNoExecuteTaintingPass`) through `control_plane::node_lifecycle`; quiet nodes are the model's
//! shortcut, not Kubernetes' (see `node_lifecycle::quiet_allowed`).

use super::Cluster;
use crate::control_plane::node_lifecycle::TaintChange;
use crate::control_plane::zones::TAINTING_PERIOD;
use crate::core::{Ctx, Ev, NodeId, What};
use crate::rules::Rule;
use crate::trace::Ms;

impl Cluster<'_> {
    /// The rollout checks its batch once a second: when every node of it has restarted and every
    /// pod there has been synced by the new kubelet and is Ready (or is going away), the next
    /// batch stops `pause` later.
    pub(super) fn poll_rollout(&mut self) {
        let Some(r) = self.rollout.as_mut() else {
            return;
        };
        if r.current + 1 >= r.plan.batches.len() {
            return;
        }
        let batch = &r.plan.batches[r.current];
        // Ready *after* the restart: the new kubelet has synced the pod (its first status
        // since the start) and the API shows it Ready.
        let done = batch.iter().all(|&n| {
            let k = &self.nodes[n as usize].kubelet;
            k.up && k.restart_idx > 0
                && self.api.pods[n as usize]
                    .iter()
                    .zip(&k.pods)
                    .all(|(a, kp)| a.gone_or_deleting() || (kp.synced && a.status.ready))
        });
        if done {
            r.current += 1;
            let stop = self.now + r.plan.pause;
            let start = stop + r.plan.downtime;
            for &n in &r.plan.batches[r.current] {
                self.stop_scheduled_at[n as usize] = self.now;
                if let Some(to) = r.plan.upgrade_to {
                    self.nodes[n as usize].kubelet.upgrades.push((start, to));
                }
                self.queue.push(
                    stop,
                    Ev {
                        node: n,
                        what: What::KubeletStop,
                    },
                );
                self.queue.push(
                    start,
                    Ev {
                        node: n,
                        what: What::KubeletStart,
                    },
                );
            }
        }
        if r.current + 1 < r.plan.batches.len() {
            self.push(self.now + 1000, 0, What::RolloutPoll);
        }
    }

    /// Samples the series' states for every whole second in [next, until): the state after the
    /// instant just ended holds until `until`.
    pub(super) fn sample_until(&mut self, next: &mut Ms, until: Ms) {
        let Some(series) = self.rec.series.as_mut() else {
            return;
        };
        while *next < until {
            series.sample(
                (*next / 1000) as u32,
                self.api.not_ready,
                self.eps.ready_share(),
            );
            *next += 1000;
        }
    }

    /// One pass of the node lifecycle controller over every node that is not quiet, in node
    /// order; taint eviction reacts to the NoExecute taints it adds or removes. A node left
    /// Ready with its kubelet up and its events not kept becomes quiet.
    pub(super) fn nlc_pass(&mut self) {
        self.push(self.now + self.nlc.period, 0, What::NlcPass);
        self.nlc.last_pass = self.now;
        let mut live = std::mem::take(&mut self.live);
        self.nlc.live_nodes(self.nodes.len(), &mut live);
        for &n in &live {
            let mut cx = Ctx {
                now: self.now,
                node: n as NodeId,
                q: &mut self.queue,
                rec: &mut self.rec,
            };
            match self.nlc.pass_node(&mut cx, &mut self.api) {
                TaintChange::Marked if self.nlc.zoned.is_none() && !self.nlc.tick_due => {
                    self.nlc.tick_due = true;
                    // The single-node view's tainting tick: the first at or after now.
                    let phase = self.nlc.tainting_phase;
                    let d = self.now - phase;
                    let at = phase + d.div_euclid(TAINTING_PERIOD) * TAINTING_PERIOD;
                    let at = if at < self.now {
                        at + TAINTING_PERIOD
                    } else {
                        at
                    };
                    self.push(at, n as NodeId, What::TaintingPass);
                }
                TaintChange::Removed => self.te.taint_removed(&mut cx),
                TaintChange::None | TaintChange::Marked => {}
            }
            let k = &mut self.nodes[n].kubelet;
            if self.quiet_allowed && k.elide && k.up && self.api.nodes[n].ready {
                self.nlc.set_quiet(n);
                k.lease_lazy = true;
            }
        }
        self.live = live;
        // N4: every zone fully disrupted ("master disruption mode").
        for n in self.nlc.handle_disruption(self.now, &mut self.api) {
            let mut cx = Ctx {
                now: self.now,
                node: n as NodeId,
                q: &mut self.queue,
                rec: &mut self.rec,
            };
            self.api.set_noexecute_taint(&mut cx, false, Rule::N4);
            self.te.taint_removed(&mut cx);
        }
    }

    /// A quiet node's kubelet is about to stop (now): its renewals up to the stop are applied
    /// (one at this millisecond came first if it was scheduled no later than the stop), the
    /// passes see it again, and the renewal the stop leaves pending counts as the stale event it
    /// would have been.
    pub(super) fn wake(&mut self, n: usize) {
        let k = &mut self.nodes[n].kubelet;
        let mut renewals = k.catch_up_lease(n as NodeId, &mut self.api, self.now, false);
        // A renewal's event is scheduled at the previous renewal.
        if k.lease_next == Some(self.now) && k.renewed[1] <= self.stop_scheduled_at[n] {
            renewals += k.catch_up_lease(n as NodeId, &mut self.api, self.now, true);
        }
        renewals += k.end_lazy_lease(self.horizon);
        self.rec.count_events(n as NodeId, renewals);
        self.nlc.wake(n, k.renewed);
    }

    /// At the horizon: the renewals of the nodes still quiet, as the engine events they stand for.
    pub(super) fn finish_quiet(&mut self) {
        for (n, node) in self.nodes.iter_mut().enumerate() {
            let k = &mut node.kubelet;
            if k.lease_lazy {
                let renewals = k.catch_up_lease(n as NodeId, &mut self.api, self.horizon, true);
                self.rec.count_events(n as NodeId, renewals);
            }
        }
    }

    /// `doNoExecuteTaintingPass` every 100 ms: each zone's queue as its limiter allows (N2);
    /// taint eviction schedules the deletions.
    pub(super) fn tainting_pass(&mut self) {
        if self.nlc.zoned.is_some() {
            self.push(self.now + TAINTING_PERIOD, 0, What::TaintingPass);
        }
        self.nlc.tick_due = false;
        for n in self.nlc.tainting_pass(self.now, &self.api) {
            let mut cx = Ctx {
                now: self.now,
                node: n as NodeId,
                q: &mut self.queue,
                rec: &mut self.rec,
            };
            let rule = if self.api.nodes[n].posted_false {
                Rule::R3
            } else {
                Rule::N2
            };
            self.api.set_noexecute_taint(&mut cx, true, rule);
            self.te.taint_added(&mut cx, &self.api, self.spec[n]);
        }
    }
}
