//! The taint eviction controller: when a NoExecute taint lands on a node, each pod that does
//! not tolerate it forever is deleted after its toleration; removing the taint first cancels
//! that. Owns the pending deletions per pod. Called by the cluster when the node lifecycle
//! controller changes a taint and when a deletion falls due.
//!
//! Mirrors `pkg/controller/tainteviction/taint_eviction.go`: `handleNodeUpdate`,
//! `processPodOnNode` (the timer starts when the controller handles the update),
//! `addConditionAndDeletePod` (DisruptionTarget=True, then delete).

use super::api::ApiServer;
use crate::core::{Ctx, What};
use crate::rules::Rule;
use crate::scenario::{Effect, Pod, Taint, Workload};
use crate::trace::{Actor, Kind, Ms, Value};

#[derive(Clone, Debug, Default)]
pub struct Pending {
    pub seq: u32,
    pub pending: bool,
    /// The pending deletion is for a user's NoExecute taint (E1u).
    pub user: bool,
}

pub struct TaintEvictionController {
    pub toleration: Ms,
    /// The `node.kubernetes.io/not-ready:NoExecute` toleration (`--default-not-ready-toleration-seconds`).
    pub not_ready_toleration: Ms,
    pub pods: Vec<Vec<Pending>>,
}

impl TaintEvictionController {
    /// E1: schedule the deletion of every pod on the node without an infinite toleration
    /// (DaemonSet pods tolerate `unreachable:NoExecute` forever).
    pub fn taint_added(&mut self, cx: &mut Ctx, api: &ApiServer, spec: &[Pod]) {
        let node = cx.node as usize;
        for (p, pod) in spec.iter().enumerate() {
            if api.pods[node][p].gone_or_deleting() || pod.workload == Workload::DaemonSet {
                continue;
            }
            let e = &mut self.pods[node][p];
            e.seq += 1;
            e.pending = true;
            e.user = false;
            let seq = e.seq;
            // E1n: the not-ready taint's own toleration.
            let (toleration, rule) = if api.nodes[node].noexecute_not_ready {
                (self.not_ready_toleration, Rule::E1n)
            } else {
                (self.toleration, Rule::E1)
            };
            let due = cx.now + toleration;
            cx.at(due, What::Eviction { pod: p as u16, seq });
            cx.emit(
                Kind::EvictionScheduled,
                Some(p),
                None,
                Value::Seconds(due as f64 / 1000.0),
                rule,
                Actor::TaintEvictionController,
            );
        }
    }

    /// E1c: the taint is gone before the toleration ran out.
    pub fn taint_removed(&mut self, cx: &mut Ctx) {
        for (p, e) in self.pods[cx.node as usize].iter_mut().enumerate() {
            if e.pending {
                e.pending = false;
                e.seq += 1;
                cx.emit(
                    Kind::EvictionCancelled,
                    Some(p),
                    None,
                    Value::None,
                    Rule::E1c,
                    Actor::TaintEvictionController,
                );
            }
        }
    }

    /// A deletion falls due. Returns whether the pod was deleted (the kubelet then reacts).
    pub fn due(&mut self, cx: &mut Ctx, api: &mut ApiServer, pod: usize, seq: u32) -> bool {
        let e = &mut self.pods[cx.node as usize][pod];
        if e.seq != seq || !e.pending || api.pod(cx.node, pod).gone_or_deleting() {
            return false;
        }
        e.pending = false;
        let rule = if e.user { Rule::E1u } else { Rule::E1 };
        // addConditionAndDeletePod: the DisruptionTarget condition first, then the delete.
        api.add_disruption_target(cx, pod, rule);
        api.delete_pod(cx, pod, rule);
        true
    }

    /// E1u: the user's NoExecute taints on the node are now `taints` (after a change that added
    /// one). `processPodOnNode` for each pod: a taint no toleration matches deletes it now; else
    /// the smallest `tolerationSeconds` of the matching tolerations (none: never) from now.
    /// Returns the pods deleted now (the kubelet then reacts).
    pub fn user_taints(
        &mut self,
        cx: &mut Ctx,
        api: &mut ApiServer,
        spec: &[Pod],
        taints: &[Taint],
    ) -> Vec<usize> {
        let node = cx.node as usize;
        let mut now = Vec::new();
        for (p, pod) in spec.iter().enumerate() {
            if api.pods[node][p].gone_or_deleting() {
                continue;
            }
            let noexec = taints.iter().filter(|t| t.effect == Effect::NoExecute);
            let mut min: Option<Option<i64>> = None;
            let mut untolerated = false;
            for t in noexec {
                let used: Vec<_> = pod.tolerations.iter().filter(|x| x.tolerates(t)).collect();
                if used.is_empty() {
                    untolerated = true;
                    break;
                }
                // getMinTolerationTime: a toleration without seconds tolerates forever.
                for x in used {
                    let secs = x.toleration_seconds;
                    min = Some(match (min, secs) {
                        (None, s) => s,
                        (Some(None), s) => s,
                        (Some(Some(a)), Some(b)) => Some(a.min(b)),
                        (Some(Some(a)), None) => Some(a),
                    });
                }
            }
            let due = if untolerated {
                Some(0)
            } else {
                min.flatten().map(|s| s.max(0) * 1000)
            };
            let Some(after) = due else { continue };
            let e = &mut self.pods[node][p];
            e.seq += 1;
            e.pending = true;
            e.user = true;
            if after == 0 {
                e.pending = false;
                api.add_disruption_target(cx, p, Rule::E1u);
                api.delete_pod(cx, p, Rule::E1u);
                now.push(p);
            } else {
                let seq = e.seq;
                cx.at(cx.now + after, What::Eviction { pod: p as u16, seq });
                cx.emit(
                    Kind::EvictionScheduled,
                    Some(p),
                    None,
                    Value::Seconds((cx.now + after) as f64 / 1000.0),
                    Rule::E1u,
                    Actor::TaintEvictionController,
                );
            }
        }
        now
    }
}
