//! The node lifecycle controller: one pass every `--node-monitor-period` over every node
//! (`monitorNodeHealth`). Owns, per node, when it first saw the newest lease renewal
//! (`probeTimestamp`). Called by the cluster on each `NlcPass`; writes through the API server
//! and tells the cluster when a NoExecute taint lands or leaves (taint eviction reacts).
//!
//! Mirrors `pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `monitorNodeHealth`,
//! `tryUpdateNodeHealth`, `MarkPodsNotReady` (`pkg/controller/util/node`),
//! `processTaintBaseEviction`, `markNodeAsReachable`, `handleDisruption`. In a fleet the NoExecute
//! taint goes through the zones' rate-limited queues (`zones`); the single-node view assumes the
//! node's peers are healthy (its zone Normal, the queue empty) and taints in the pass.

use super::api::ApiServer;
use super::zones::{compute_zone_state, zone_qps, Zone, ZoneState};
use crate::core::Ctx;
use crate::rules::Rule;
use crate::trace::{Actor, Ms};

#[derive(Clone, Debug)]
pub struct NodeHealth {
    /// The lease renewTime last seen.
    pub saved_renew: Ms,
    /// When this controller first saw it (`probeTimestamp`).
    pub probe_ts: Ms,
}

/// What a pass did to the node's NoExecute taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaintChange {
    None,
    Added,
    Removed,
}

pub struct NodeLifecycleController {
    pub grace: Ms,
    pub period: Ms,
    pub health: Vec<NodeHealth>,
    /// Zones of a fleet; `None` in the single-node view.
    pub zoned: Option<Zoned>,
}

/// The zones of a fleet and whether the controller is in "master disruption mode".
pub struct Zoned {
    pub zones: Vec<Zone>,
    pub zone_of: Vec<u16>,
    pub all_fully_disrupted: bool,
}

impl NodeLifecycleController {
    /// N1–N3 for one node, in the order `monitorNodeHealth` takes them.
    pub fn pass_node(&mut self, cx: &mut Ctx, api: &mut ApiServer) -> TaintChange {
        let node = cx.node as usize;
        let h = &mut self.health[node];
        // tryUpdateNodeHealth: probeTimestamp is when *we* first saw a newer lease.
        let renew = api.nodes[node].lease_renew;
        if renew > h.saved_renew {
            h.saved_renew = renew;
            h.probe_ts = cx.now;
        }
        let observed_ready = api.nodes[node].ready;
        if observed_ready && cx.now > h.probe_ts + self.grace {
            // N1: Ready (and the pressure conditions) → Unknown; MarkPodsNotReady in the same
            // pass because the observed condition was True.
            api.set_node_ready(cx, false, Rule::N1, Actor::NodeLifecycleController);
            for p in 0..api.pods[node].len() {
                api.mark_pod_not_ready(cx, p);
            }
        }
        // processTaintBaseEviction works on the condition observed at the start of the pass.
        let tainted = api.nodes[node].taint_noexecute;
        if let Some(z) = self.zoned.as_mut() {
            let zone = &mut z.zones[z.zone_of[node] as usize];
            if !observed_ready && !tainted {
                // markNodeForTainting: the zone's tainting pass adds it when its limiter allows.
                zone.add(cx.node);
                return TaintChange::None;
            }
            if observed_ready {
                zone.remove(cx.node);
            }
        }
        if !observed_ready && !tainted {
            api.set_noexecute_taint(cx, true, Rule::N2);
            TaintChange::Added
        } else if observed_ready && tainted {
            // markNodeAsReachable.
            api.set_noexecute_taint(cx, false, Rule::N3);
            TaintChange::Removed
        } else {
            TaintChange::None
        }
    }

    /// `handleDisruption` at the end of a pass: zone states from the nodes' current Ready
    /// conditions; entering "all zones fully disrupted" stops tainting and returns every tainted
    /// node to untaint (`markNodeAsReachable`); leaving it resets every probe timestamp.
    pub fn handle_disruption(&mut self, now: Ms, api: &ApiServer) -> Vec<usize> {
        let Some(z) = self.zoned.as_mut() else {
            return Vec::new();
        };
        let new: Vec<ZoneState> = z
            .zones
            .iter()
            .map(|zone| {
                let ready = zone
                    .nodes
                    .iter()
                    .filter(|&&n| api.nodes[n as usize].ready)
                    .count();
                compute_zone_state(ready, zone.nodes.len() - ready).1
            })
            .collect();
        let all_are = new.iter().all(|s| *s == ZoneState::FullDisruption);
        let all_were = z
            .zones
            .iter()
            .all(|zone| zone.state == ZoneState::FullDisruption);
        let mut untaint = Vec::new();
        if all_are && all_were {
            return untaint;
        }
        if all_are {
            for zone in z.zones.iter_mut() {
                zone.queue.clear();
                zone.swap_limiter(0.0, now);
                zone.state = ZoneState::FullDisruption;
            }
            untaint = (0..api.nodes.len())
                .filter(|&n| api.nodes[n].taint_noexecute)
                .collect();
            z.all_fully_disrupted = true;
            return untaint;
        }
        if all_were {
            for h in self.health.iter_mut() {
                h.probe_ts = now;
            }
        }
        for (zone, state) in z.zones.iter_mut().zip(new) {
            if all_were || zone.state != state {
                let size = zone.nodes.len();
                zone.swap_limiter(zone_qps(state, size), now);
                zone.state = state;
            }
        }
        z.all_fully_disrupted = false;
        untaint
    }

    /// `doNoExecuteTaintingPass`: each zone's queue, as far as its limiter allows. Returns the
    /// nodes to taint now (a node that is Ready again is dropped, as the code does).
    pub fn tainting_pass(&mut self, now: Ms, api: &ApiServer) -> Vec<usize> {
        let Some(z) = self.zoned.as_mut() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for zone in z.zones.iter_mut() {
            for n in zone.try_take(now) {
                let node = &api.nodes[n as usize];
                if !node.ready && !node.taint_noexecute {
                    out.push(n as usize);
                }
            }
        }
        out
    }
}
