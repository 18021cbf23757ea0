//! The kubelet process: stop (K1), start (K2) and the node lease (K2r). Called by the cluster.
//!
//! Mirrors the process exit/start, `pkg/kubelet/nodelease` (renewal every 0.25 × lease
//! duration) and `kubelet_node_status.go` `syncNodeStatus` (Ready=True at start).

use super::{KPod, Kubelet};
use crate::control_plane::api::ApiServer;
use crate::core::rng::{draw_rest, prefix, Purpose};
use crate::core::{Ctx, What};
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Value};
use crate::trace::{Ms, NodeId};

impl Kubelet<'_> {
    /// K1: the process is gone; all kubelet memory is dropped. Containers keep running.
    pub fn stop(&mut self, cx: &mut Ctx) {
        if !self.up {
            return;
        }
        self.up = false;
        self.gen += 1;
        for (kp, sp) in self.pods.iter_mut().zip(self.spec) {
            *kp = KPod::fresh(sp.n_containers());
        }
        cx.emit(
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
    pub fn start(&mut self, cx: &mut Ctx, api: &mut ApiServer) {
        if self.up {
            return;
        }
        self.up = true;
        self.started_at = cx.now;
        self.renewals = 0;
        cx.emit(
            Kind::KubeletStart,
            None,
            None,
            Value::None,
            Rule::K2,
            Actor::Kubelet,
        );
        self.renew_lease(cx, api, Rule::K2);
        if !api.nodes[cx.node as usize].ready {
            // kubelet_node_status.go syncNodeStatus: Ready=True.
            api.set_node_ready(cx, true, Rule::K2, Actor::Kubelet);
        }
        let gen = self.gen;
        for p in 0..self.pods.len() {
            if !api.pod(cx.node, p).removed {
                cx.at(
                    cx.now + self.first_sync_delay,
                    What::FirstSync { gen, pod: p as u16 },
                );
            }
        }
        self.restart_idx += 1;
    }

    /// K2r: renew the lease and schedule the next renewal: `wait.JitterUntil(sync,
    /// renewInterval, 0.04, sliding=true)` waits renewInterval + [0, 4 %) after each sync. On a
    /// quiet node the next renewal is only remembered (`lease_next`), not scheduled.
    pub fn renew_lease(&mut self, cx: &mut Ctx, api: &mut ApiServer, rule: Rule) {
        api.renew_lease(cx, rule);
        let next = cx.now + self.lease_wait(cx.node, cx.now);
        if self.lease_lazy {
            self.lease_next = Some(next);
        } else {
            cx.at(next, What::LeaseRenew { gen: self.gen });
        }
    }

    /// Records a renewal at `now` and returns the wait before the next one.
    fn lease_wait(&mut self, node: NodeId, now: Ms) -> Ms {
        self.lease_wait_from(self.lease_key(node), now)
    }

    /// The renewal jitter's key: this process's start time (unique per kubelet process), then
    /// the renewal number.
    fn lease_key(&self, node: NodeId) -> u64 {
        prefix(
            self.seed,
            Purpose::LeaseJitter,
            node,
            self.started_at as u64,
        )
    }

    fn lease_wait_from(&mut self, key: u64, now: Ms) -> Ms {
        self.renewed = [self.renewed[1], now];
        let jitter = draw_rest(key, self.renewals, 0);
        self.renewals += 1;
        self.renew_interval + (jitter * 0.04 * self.renew_interval as f64) as Ms
    }

    /// A quiet node's renewals before `until` (and at `until` if `inclusive`), applied to the
    /// lease as their events would have been (nothing is recorded: a quiet node's events are not
    /// kept). Returns how many there were (the engine events they stand for).
    pub fn catch_up_lease(
        &mut self,
        node: NodeId,
        api: &mut ApiServer,
        until: Ms,
        inclusive: bool,
    ) -> u64 {
        let Some(mut t) = self.lease_next else {
            return 0;
        };
        let (key, mut n) = (self.lease_key(node), 0);
        while t < until || (inclusive && t == until) {
            t += self.lease_wait_from(key, t);
            n += 1;
        }
        if n > 0 {
            api.nodes[node as usize].lease_renew = self.renewed[1];
        }
        self.lease_next = Some(t);
        n
    }

    /// The node stops being quiet (its kubelet is about to stop): renewals are events again.
    /// Returns 1 if the renewal still pending would have been an event by the horizon (one
    /// that the stop makes stale), else 0.
    pub fn end_lazy_lease(&mut self, horizon: Ms) -> u64 {
        self.lease_lazy = false;
        match self.lease_next.take() {
            Some(t) if t <= horizon => 1,
            _ => 0,
        }
    }
}
