//! The kubelet process: stop (K1), start (K2), the node lease (K2r) and the node's connection to
//! the API server (K2u: lost, back; S5r: the status manager's writes when it is back). Called
//! by the cluster.
//!
//! Mirrors the process exit/start, `pkg/kubelet/nodelease` and component-helpers
//! `lease/controller.go` (renewal every 0.25 × lease duration; a failed update is retried at the
//! next interval), `kubelet_node_status.go` `syncNodeStatus` (Ready=True at start) and
//! `status/status_manager.go` `syncBatch` (statuses that still need an update are written).

use super::Kubelet;
use crate::control_plane::api::ApiServer;
use crate::core::rng::{draw_rest, prefix, Purpose};
use crate::core::{Ctx, What};
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Value};
use crate::trace::{Ms, NodeId};

impl Kubelet<'_> {
    /// K1: the process is gone; all kubelet memory is dropped (the pods' records are cleared by
    /// the next `start`, before anything reads them). Containers keep running.
    pub fn stop(&mut self, cx: &mut Ctx) {
        if !self.up {
            return;
        }
        self.up = false;
        self.gen += 1;
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
        // K1's loss of every pod's memory, applied now (in place), just before the first
        // SyncPods read it: nothing reads a stopped kubelet's pods (its events are dropped as
        // stale, and every other reader checks `up` first). In a fleet the stop came a downtime
        // earlier, and the pods' records had left the cache again by the start.
        for kp in self.pods.iter_mut() {
            kp.forget();
        }
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
        if self.reachable && !api.nodes[cx.node as usize].ready {
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
    /// quiet node the next renewal is only remembered (`lease_next`), not scheduled. Without
    /// the API server the update fails and the next attempt comes at the next interval.
    pub fn renew_lease(&mut self, cx: &mut Ctx, api: &mut ApiServer, rule: Rule) {
        if self.reachable {
            api.renew_lease(cx, rule);
        }
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
        let wait = jittered_wait(key, self.renewals, self.renew_interval);
        self.renewals += 1;
        wait
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
        // `lease_wait_from` in a loop on locals (a long-quiet node has thousands of renewals
        // to count: a fleet's rollout is longer the more nodes it has).
        let key = self.lease_key(node);
        let interval = self.renew_interval;
        let (mut renewals, mut renewed) = (self.renewals, self.renewed);
        let first = renewals;
        while t < until || (inclusive && t == until) {
            renewed = [renewed[1], t];
            t += jittered_wait(key, renewals, interval);
            renewals += 1;
        }
        let n = renewals - first;
        if n > 0 {
            api.nodes[node as usize].lease_renew = renewed[1];
        }
        (self.renewals, self.renewed) = (renewals, renewed);
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

    /// K2u: the node loses the API server. The kubelet keeps running (probes, PLEG, restarts);
    /// from now on its lease renewals and pod status writes fail (the status manager keeps the
    /// statuses it could not write), and it sees no change to its pods (no deletions).
    pub fn api_lost(&mut self, cx: &mut Ctx) {
        self.reachable = false;
        cx.emit(
            Kind::ApiReachable,
            None,
            None,
            Value::Bool(false),
            Rule::K2u,
            Actor::Scenario,
        );
    }

    /// K2u, S5r: the node reaches the API server again. A running kubelet renews its lease and
    /// posts node Ready (at once: Kubernetes does it at the next lease / node-status interval,
    /// within 10 s), the status manager writes every status it holds that differs from the
    /// API's (`syncBatch`, regenerated as the pod update the informer now delivers would), a
    /// kubelet that started meanwhile lists its pods and runs their first SyncPod (K3), and
    /// deletions made meanwhile reach SyncTerminatingPod (K4).
    pub fn api_back(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        self.reachable = true;
        cx.emit(
            Kind::ApiReachable,
            None,
            None,
            Value::Bool(true),
            Rule::K2u,
            Actor::Scenario,
        );
        if !self.up {
            return;
        }
        api.renew_lease(cx, Rule::K2u);
        if !api.nodes[cx.node as usize].ready {
            api.set_node_ready(cx, true, Rule::K2u, Actor::Kubelet);
        }
        for p in 0..self.pods.len() {
            if api.pod(cx.node, p).removed {
                continue;
            }
            if self.pods[p].awaiting_api {
                self.pods[p].awaiting_api = false;
                self.first_sync(cx, rt, api, p);
            } else if self.pods[p].synced {
                self.sync_pod(cx, rt, api, p, Rule::S5r);
                if api.pod(cx.node, p).deleted_at.is_some() {
                    self.on_pod_deleted(cx, p);
                }
            }
        }
    }
}

/// The wait after renewal number `n`: `wait.JitterUntil(…, renewInterval, 0.04, …)`, i.e.
/// `interval` + [0, 4 %) of it, drawn from the renewal's own key (`lease_key`, `n`).
fn jittered_wait(key: u64, n: u64, interval: Ms) -> Ms {
    interval + (draw_rest(key, n, 0) * 0.04 * interval as f64) as Ms
}
