//! The kubelet process: stop (K1), start (K2), the node lease (K2r) and the node's connection to
//! the API server (K2u: lost, back; S5r: the status manager's writes when it is back). Called
//! by the cluster.
//!
//! Mirrors the process exit/start, `pkg/kubelet/nodelease` and component-helpers
//! `lease/controller.go` (renewal every 0.25 × lease duration; a sync that cannot reach the API
//! server retries in `backoffEnsureLease`, 200 ms doubling to 7 s, until it answers), `kubelet_node_status.go` `syncNodeStatus` (Ready=True at start) and
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
        self.stop_with(cx, Rule::K1)
    }

    /// K1 for a restart of this kind (B1: with the node).
    pub fn stop_with(&mut self, cx: &mut Ctx, rule: Rule) {
        if !self.up {
            return;
        }
        self.held.clear();
        self.updates.clear();
        self.loop_resumes_at = None;
        self.up = false;
        self.gen += 1;
        cx.emit(
            Kind::KubeletStop,
            None,
            None,
            Value::None,
            rule,
            Actor::Kubelet,
        );
    }

    /// K2: the kubelet starts, renews its lease and posts node Ready=True; each pod's first
    /// SyncPod follows after the start-up delay.
    ///
    /// A kubelet whose container runtime does not answer exits at start (its runtime manager's
    /// first `Version` call fails) and systemd starts it again: it starts when the runtime is
    /// back (`restarts::runtime_started`). An upgrade planned for this start runs the new
    /// release (U1); the 1.30 kubelet posts Ready=False first (K2n).
    pub fn start(&mut self, cx: &mut Ctx, rt: &Runtime, api: &mut ApiServer) {
        if self.up {
            return;
        }
        if !rt.up {
            self.start_waits_for_runtime = true;
            return;
        }
        self.up = true;
        self.hash_changed = false;
        self.stale_statuses = false;
        let upgrade = self
            .upgrades
            .iter()
            .rev()
            .find(|u| u.0 <= cx.now)
            .map(|u| u.1);
        if let Some(to) = upgrade.filter(|to| *to != self.profile.version) {
            self.upgrade(to);
        }
        // K1's loss of every pod's memory, applied now (in place), just before the first
        // SyncPods read it: nothing reads a stopped kubelet's pods (its events are dropped as
        // stale, and every other reader checks `up` first). In a fleet the stop came a downtime
        // earlier, and the pods' records had left the cache again by the start.
        for kp in self.pods.iter_mut() {
            kp.forget();
        }
        self.started_at = cx.now;
        self.renewals = 0;
        self.lease_failed_at = None;
        let value = match upgrade {
            Some(to) => Value::Release(to.as_str().to_string()),
            None => Value::None,
        };
        cx.emit(
            Kind::KubeletStart,
            None,
            None,
            value,
            if self.hash_changed {
                Rule::U1
            } else {
                Rule::K2
            },
            Actor::Kubelet,
        );
        self.renew_lease(cx, api, Rule::K2);
        // The first runtime check at start (since #124430, v1.31.0, before the first node
        // status; the 1.30 kubelet posts first: K2n).
        self.runtime_sync = cx.now;
        self.runtime_stale = false;
        self.start_checks_done = cx.now;
        if self.profile.rules.not_ready_at_start {
            self.start_checks_done = cx.now + super::restarts::START_NOT_READY;
            if self.reachable {
                api.set_node_false(cx, Rule::K2n);
                let gen = self.gen;
                cx.at(self.start_checks_done, What::NodeStatus { gen });
            }
        } else if self.reachable && !api.nodes[cx.node as usize].ready {
            // kubelet_node_status.go syncNodeStatus: Ready=True.
            api.set_node_ready(cx, true, Rule::K2, Actor::Kubelet);
        }
        let gen = self.gen;
        for p in 0..self.pods.len() {
            let a = api.pod(cx.node, p);
            if !a.removed && !a.failed {
                cx.at(
                    cx.now + self.first_sync_delay,
                    What::FirstSync { gen, pod: p as u16 },
                );
            } else {
                // A Failed pod with a deletion timestamp: the first housekeeping after the first
                // pod list removes it (A2).
                self.schedule_terminal_cleanup(cx, api, p, cx.now + self.first_sync_delay);
            }
        }
        self.restart_idx += 1;
    }

    /// K2r: renew the lease and schedule the next renewal: `wait.JitterUntil(sync,
    /// renewInterval, 0.04, sliding=true)` waits renewInterval + [0, 4 %) after each sync. On a
    /// quiet node the next renewal is only remembered (`lease_next`), not scheduled.
    ///
    /// K2u: without the API server the sync does not return: `retryUpdateLease`'s five updates
    /// fail, then `backoffEnsureLease` tries `Get` again after 200 ms, 400 ms, … doubling to
    /// `maxBackoff` (7 s) until one answers (`lease_failed_at`; `api_back` schedules the attempt
    /// that succeeds). The renewal that follows is rule K2u, and the next interval counts from it.
    pub fn renew_lease(&mut self, cx: &mut Ctx, api: &mut ApiServer, rule: Rule) {
        if !self.reachable {
            // Every attempt fails at once (the model's partition refuses connections; a
            // partition that drops packets would also wait out the client's timeout).
            self.lease_failed_at.get_or_insert(cx.now);
            return;
        }
        let rule = if self.lease_failed_at.take().is_some() {
            Rule::K2u
        } else {
            rule
        };
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

    /// K2u, S5r: the node reaches the API server again. A running kubelet's lease sync, blocked
    /// in `backoffEnsureLease` if it failed meanwhile, renews at its next attempt (within 7 s);
    /// the kubelet's next `syncNodeStatus` (10 s grid from its start; the 4 % jitter is not
    /// modelled) posts node Ready over the node lifecycle controller's Unknown
    /// (`kubelet_node_status.go` `syncNodeStatus` → `tryUpdateNodeStatus`, as the oracle's
    /// case `partition-outlasts-grace` shows); the status manager writes every status it holds that differs
    /// from the API's at its next `syncBatch`: its 10 s tick, or the first status change before
    /// it (`podStatusChannel`), whichever comes first (`status_manager.go` `Start`,
    /// `needsUpdate`, `needsReconcile`: nothing fires on reconnecting); a kubelet that started
    /// meanwhile lists its pods and runs their first SyncPod (K3), and deletions made meanwhile
    /// reach SyncTerminatingPod (K4).
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
        // The lease sync blocked in `backoffEnsureLease` succeeds at its next attempt.
        if let Some(failed) = self.lease_failed_at {
            cx.at(
                lease_retry_at(failed, cx.now),
                What::LeaseRenew { gen: self.gen },
            );
        }
        if !api.nodes[cx.node as usize].ready || self.lease_failed_at.is_some() {
            // `syncNodeStatus` posts Ready=True at its next run, on its grid from the kubelet's
            // start (`node_status`, rule K2u), and checks again every 10 s while the lease
            // sync has not got through.
            let at = super::restarts::tick_at_or_after(
                self.started_at,
                super::restarts::NODE_STATUS,
                cx.now,
            );
            cx.at(at, What::NodeStatus { gen: self.gen });
        }
        for p in 0..self.pods.len() {
            if api.pod(cx.node, p).removed {
                continue;
            }
            if self.pods[p].awaiting_api {
                self.pods[p].awaiting_api = false;
                self.first_sync(cx, rt, api, p);
            } else if self.pods[p].synced {
                self.stale_statuses = true;
                if api.pod(cx.node, p).deleted_at.is_some() {
                    self.on_pod_deleted(cx, rt, api, p);
                }
            } else {
                // A Failed pod deleted meanwhile (A2).
                self.schedule_terminal_cleanup(cx, api, p, cx.now);
            }
        }
        if self.stale_statuses {
            // The status manager's ticker runs from its start with the kubelet's.
            let at = super::restarts::tick_at_or_after(
                self.started_at,
                super::admission::STATUS_SYNC,
                cx.now,
            );
            cx.at(at, What::StatusSync { gen: self.gen });
        }
    }
}

/// K2u: the first `backoffEnsureLease` attempt at or after `now` of a lease sync whose first
/// attempt failed at `failed`: `sleep := 100ms; for { …; sleep = min(2*sleep, maxBackoff) }`
/// (component-helpers `lease/controller.go`), i.e. attempts 0.2, 0.6, 1.4, 3.0, 6.2, 12.6, 19.6 s …
/// after the first.
pub fn lease_retry_at(failed: Ms, now: Ms) -> Ms {
    const MAX_BACKOFF: Ms = 7_000;
    let (mut t, mut sleep) = (failed, 100);
    while t < now {
        sleep = (2 * sleep).min(MAX_BACKOFF);
        t += sleep;
    }
    t
}

/// The wait after renewal number `n`: `wait.JitterUntil(…, renewInterval, 0.04, …)`, i.e.
/// `interval` + [0, 4 %) of it, drawn from the renewal's own key (`lease_key`, `n`).
fn jittered_wait(key: u64, n: u64, interval: Ms) -> Ms {
    interval + (draw_rest(key, n, 0) * 0.04 * interval as f64) as Ms
}

#[cfg(test)]
mod tests {
    use super::lease_retry_at;

    /// `backoffEnsureLease`: `sleep` starts at 100 ms and doubles before each wait, up to
    /// `maxBackoff` (7 s): attempts 0.2, 0.6, 1.4, 3.0, 6.2, 12.6, 19.6, 26.6 s after the first.
    #[test]
    fn lease_retries_back_off_from_200_ms_to_7_s() {
        let attempts = [0, 200, 600, 1_400, 3_000, 6_200, 12_600, 19_600, 26_600];
        for w in attempts.windows(2) {
            assert_eq!(lease_retry_at(1_000, 1_000 + w[0] + 1), 1_000 + w[1]);
            assert_eq!(lease_retry_at(1_000, 1_000 + w[1]), 1_000 + w[1]);
        }
        assert_eq!(lease_retry_at(0, 90_000), 96_600);
    }
}
