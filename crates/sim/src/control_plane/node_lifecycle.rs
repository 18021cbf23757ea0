//! The node lifecycle controller: one pass every `--node-monitor-period` over every node
//! (`monitorNodeHealth`). Owns, per node, when it first saw the newest lease renewal
//! (`probeTimestamp`). Called by the cluster on each `NlcPass`; writes through the API server
//! and tells the cluster when a NoExecute taint lands or leaves (taint eviction reacts).
//!
//! Mirrors `pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `monitorNodeHealth`,
//! `tryUpdateNodeHealth`, `MarkPodsNotReady` (`pkg/controller/util/node`),
//! `processTaintBaseEviction`, `markNodeAsReachable`. One zone, no rate limiting yet.

use super::api::ApiServer;
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
}
