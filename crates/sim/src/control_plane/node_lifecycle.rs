//! The node lifecycle controller: one pass every `--node-monitor-period` over every node
//! (`monitorNodeHealth`). Owns, per node, when it first saw the newest lease renewal
//! (`probeTimestamp`). Called by the cluster on each `NlcPass`; writes through the API server
//! and tells the cluster when a NoExecute taint lands or leaves (taint eviction reacts).
//!
//! Mirrors `pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `monitorNodeHealth`,
//! `tryUpdateNodeHealth`, `MarkPodsNotReady` (`pkg/controller/util/node`),
//! `processTaintBaseEviction`, `markNodeAsReachable`, `handleDisruption`. In a fleet the NoExecute
//! taint goes through the zones' rate-limited queues (`zones`); the single-node view assumes the
//! node's peers are healthy (its zone Normal, its limiter's one token free), so the node marked
//! for tainting is tainted at the next `doNoExecuteTaintingPass` tick (every 100 ms).

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
    Removed,
    /// Marked for tainting: the next `doNoExecuteTaintingPass` tick taints it.
    Marked,
}

pub struct NodeLifecycleController {
    pub grace: Ms,
    pub period: Ms,
    pub health: Vec<NodeHealth>,
    /// Zones of a fleet; `None` in the single-node view.
    pub zoned: Option<Zoned>,
    /// When the first pass runs (the others follow every `period`).
    pub phase: Ms,
    /// When the last pass ran.
    pub last_pass: Ms,
    /// Quiet nodes (a bit per node): passes skip them (see `quiet_allowed`).
    pub quiet: Vec<u64>,
    /// From v1.34 `processTaintBaseEviction` decides on the condition this pass wrote
    /// (`KubeVersion::taints_on_current_condition`).
    pub current_condition: bool,
    /// The single-node view's tainting queue: nodes marked for tainting
    /// (`markNodeForTainting`), tainted at the next tainting tick.
    pub marked: Vec<usize>,
    /// When the tainting ticks fall (`doNoExecuteTaintingPass` every 100 ms from this phase).
    pub tainting_phase: Ms,
    /// The single-node view has a tainting tick scheduled for the nodes marked.
    pub tick_due: bool,
}

/// The zones of a fleet and whether the controller is in "master disruption mode".
pub struct Zoned {
    pub zones: Vec<Zone>,
    pub zone_of: Vec<u16>,
    pub all_fully_disrupted: bool,
    /// Each node's Ready as its zone's count has it.
    pub counted_ready: Vec<bool>,
}

/// Whether nodes may be quiet with these settings. A quiet node: its events are not kept, its
/// kubelet is up and it is Ready (so untainted and not queued for tainting). A pass over it could
/// only move its probe timestamp to the pass that first saw a newer renewal; N1 cannot fire,
/// because renewals come at most `renewInterval × 1.04` apart, within the grace period. So passes
/// skip it and its kubelet keeps its renewals to itself (no events) until it stops; then `wake`
/// sets the probe timestamp the skipped passes would have set. Until it stops nothing else can
/// change what a pass would do: only N1 and the kubelet's start change a node's Ready, and only a
/// pass over a not-Ready node taints or queues it. The settings must also keep a renewal and a
/// pass (or a rollout poll, every second) at the same millisecond in a fixed order: the renewal's
/// event was scheduled a renew interval earlier, before the pass's or the poll's.
pub fn quiet_allowed(renew_interval: Ms, period: Ms, grace: Ms) -> bool {
    renew_interval > period && renew_interval > 1_000 && renew_interval * 26 / 25 < grace
}

impl NodeLifecycleController {
    pub fn is_quiet(&self, node: usize) -> bool {
        self.quiet[node / 64] & (1 << (node % 64)) != 0
    }

    /// The node becomes quiet after this pass over it.
    pub fn set_quiet(&mut self, node: usize) {
        self.quiet[node / 64] |= 1 << (node % 64);
    }

    /// The nodes a pass visits, in order: those that are not quiet.
    pub fn live_nodes(&self, nodes: usize, out: &mut Vec<usize>) {
        out.clear();
        for (w, &bits) in self.quiet.iter().enumerate() {
            let mut live = !bits;
            while live != 0 {
                let n = w * 64 + live.trailing_zeros() as usize;
                if n >= nodes {
                    return;
                }
                out.push(n);
                live &= live - 1;
            }
        }
    }

    /// A quiet node's kubelet stops: the node is visited again from the next pass, with the
    /// probe timestamp the passes it skipped would have left. `renewed`: its kubelet's last two
    /// renewals (a renewal at a pass's millisecond came first; see `quiet_allowed`).
    pub fn wake(&mut self, node: usize, renewed: [Ms; 2]) {
        self.quiet[node / 64] &= !(1 << (node % 64));
        let seen = if renewed[1] <= self.last_pass {
            renewed[1]
        } else {
            renewed[0]
        };
        let h = &mut self.health[node];
        if seen > h.saved_renew {
            h.saved_renew = seen;
            // The first pass at or after the renewal saw it.
            let k = (seen - self.phase + self.period - 1).div_euclid(self.period);
            h.probe_ts = h.probe_ts.max(self.phase + k * self.period);
        }
    }

    /// N1–N3 for one node, in the order `monitorNodeHealth` takes them.
    pub fn pass_node(&mut self, cx: &mut Ctx, api: &mut ApiServer) -> TaintChange {
        let node = cx.node as usize;
        let h = &mut self.health[node];
        // tryUpdateNodeHealth: probeTimestamp is when *we* first saw a newer lease renewal or
        // Ready heartbeat (`LastHeartbeatTime` changed: the kubelet posted node Ready).
        let renew = api.nodes[node].lease_renew.max(api.nodes[node].heartbeat);
        if renew > h.saved_renew {
            h.saved_renew = renew;
            h.probe_ts = cx.now;
        }
        let observed_ready = api.nodes[node].ready;
        let observed_false = api.nodes[node].posted_false;
        if (observed_ready || observed_false) && cx.now > h.probe_ts + self.grace {
            // N1: Ready (and the pressure conditions) → Unknown; MarkPodsNotReady in the same
            // pass only when the observed condition was True: from a kubelet-posted False the
            // pods are left as they are (`currentReadyCondition.Status != True &&
            // observedReadyCondition.Status == True`; kubernetes#112733).
            api.set_node_ready(cx, false, Rule::N1, Actor::NodeLifecycleController);
            if observed_ready {
                for p in 0..api.pods[node].len() {
                    api.mark_pod_not_ready(cx, p);
                }
            }
        }
        // processTaintBaseEviction works on the condition observed at the start of the pass
        // before v1.34, on the one this pass wrote from v1.34 (`currentReadyCondition`).
        let observed_ready = if self.current_condition {
            api.nodes[node].ready
        } else {
            observed_ready
        };
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
        // processTaintBaseEviction → markNodeForTainting queues it for doNoExecuteTaintingPass,
        // which adds `not-ready:NoExecute` for a False condition (R3: the kubelet posted it;
        // MarkPodsNotReady was not called), `unreachable:NoExecute` for Unknown.
        if !observed_ready && !tainted {
            if !self.marked.contains(&node) {
                self.marked.push(node);
            }
            TaintChange::Marked
        } else if observed_ready && tainted {
            // markNodeAsReachable.
            let rule = if api.nodes[node].noexecute_not_ready {
                Rule::R4
            } else {
                Rule::N3
            };
            api.set_noexecute_taint(cx, false, rule);
            TaintChange::Removed
        } else {
            TaintChange::None
        }
    }

    /// `handleDisruption` at the end of a pass: zone states from the nodes' current Ready
    /// conditions; entering "all zones fully disrupted" stops tainting and returns every tainted
    /// node to untaint (`markNodeAsReachable`); leaving it resets every probe timestamp.
    pub fn handle_disruption(&mut self, now: Ms, api: &mut ApiServer) -> Vec<usize> {
        let flips = std::mem::take(&mut api.ready_flips);
        let Some(z) = self.zoned.as_mut() else {
            return Vec::new();
        };
        // Each zone's Ready count, kept up to date from the changes since the last pass.
        for n in flips {
            let n = n as usize;
            let ready = api.nodes[n].ready;
            if z.counted_ready[n] != ready {
                z.counted_ready[n] = ready;
                let zone = &mut z.zones[z.zone_of[n] as usize];
                if ready {
                    zone.ready += 1;
                } else {
                    zone.ready -= 1;
                }
            }
        }
        let new: Vec<ZoneState> = z
            .zones
            .iter()
            .map(|zone| compute_zone_state(zone.ready, zone.nodes.len() - zone.ready).1)
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
            let mut out = std::mem::take(&mut self.marked);
            out.retain(|&n| !api.nodes[n].ready && !api.nodes[n].taint_noexecute);
            return out;
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
