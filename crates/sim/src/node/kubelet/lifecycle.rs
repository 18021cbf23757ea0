//! The kubelet process: stop (K1), start (K2) and the node lease (K2r). Called by the cluster.
//!
//! Mirrors the process exit/start, `pkg/kubelet/nodelease` (renewal every 0.25 × lease
//! duration) and `kubelet_node_status.go` `syncNodeStatus` (Ready=True at start).

use super::{KPod, Kubelet};
use crate::control_plane::api::ApiServer;
use crate::core::rng::{draw, Purpose};
use crate::core::{Ctx, What};
use crate::rules::Rule;
use crate::trace::Ms;
use crate::trace::{Actor, Kind, Value};

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
    /// renewInterval, 0.04, sliding=true)` waits renewInterval + [0, 4 %) after each sync.
    pub fn renew_lease(&mut self, cx: &mut Ctx, api: &mut ApiServer, rule: Rule) {
        api.renew_lease(cx, rule);
        let gen = self.gen;
        // Keyed by this process's start time (unique per kubelet process) and renewal number.
        let key = [self.started_at as u64, self.renewals, 0];
        let jitter = draw(self.seed, Purpose::LeaseJitter, cx.node, key);
        self.renewals += 1;
        let wait = self.renew_interval + (jitter * 0.04 * self.renew_interval as f64) as Ms;
        cx.at(cx.now + wait, What::LeaseRenew { gen });
    }
}
