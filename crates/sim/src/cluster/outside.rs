//! What changes a node from outside its processes, on the queue: the network cutting it off
//! from the API server (`api_unreachable`), a user's label or taint change (and the taint
//! eviction it may start, E1u), and what the kubelet's admission at start leads to (the
//! rejected pod's kill and Failed phase, A2). Called by the single-node and fleet runs
//! (`api_unreachable`, `node_object`) and by `mod.rs` (`dispatch`); the kubelet's side is
//! `node/kubelet/admission.rs` and `lifecycle.rs`.

use super::{wake_changed, Cluster};
use crate::core::{ms, Ctx, Ev, NodeId, What};
use crate::rules::Rule;
use crate::scenario::{Effect, NodeObject};
use crate::trace::{Actor, Kind, Value};

impl<'a> Cluster<'a> {
    /// `kubelet.api_unreachable`: the windows in which `node` cannot reach the API server.
    pub fn api_unreachable(&mut self, node: NodeId, windows: &[crate::scenario::ApiUnreachable]) {
        for w in windows {
            #[cfg(not(feature = "small-code"))]
            {
                let u = &mut self.eager.undisturbed[node as usize];
                *u = (*u).min(ms(w.at_s));
            }
            self.push(ms(w.at_s), node, What::ApiLost);
            self.push(ms(w.at_s + w.duration_s), node, What::ApiBack);
        }
    }

    /// `node`'s object: what its kubelet's admission reads, and its changes on the queue.
    pub fn node_object(&mut self, node: NodeId, obj: &'a NodeObject) {
        if obj.is_default() {
            return;
        }
        self.nodes[node as usize].kubelet.node_obj = Some(obj);
        for (i, ch) in obj.changes.iter().enumerate() {
            self.push(ms(ch.at_s), node, What::NodeEdit { idx: i as u16 });
        }
    }

    pub(super) fn dispatch_admission(&mut self, ev: Ev) {
        let n = ev.node as usize;
        if self.nlc.is_quiet(n) {
            self.wake(n);
        }
        let mut cx = Ctx {
            now: self.now,
            node: ev.node,
            q: &mut self.queue,
            rec: &mut self.rec,
        };
        let node = &mut self.nodes[n];
        let (k, rt, api) = (&mut node.kubelet, &mut node.runtime, &mut self.api);
        match ev.what {
            What::OrphanKilled { pod, .. } => k.orphan_killed(&mut cx, rt, pod as usize),
            What::PodFailed { pod, .. } => {
                api.set_failed(&mut cx, pod as usize);
                // A rejected pod that is being deleted: housekeeping removes it next (A2).
                k.schedule_terminal_cleanup(&mut cx, api, pod as usize, self.now);
            }
            What::PodCleanup { pod, .. } => k.terminal_cleanup(&mut cx, rt, api, pod as usize),
            What::StatusSync { .. } => k.flush_stale(&mut cx, api),
            What::NodeEdit { idx } => {
                let Some(obj) = k.node_obj else { return };
                let ch = &obj.changes[idx as usize];
                let before = obj.at(ch.at_s - 0.001).1;
                let (labels, taints) = obj.at(ch.at_s);
                let shown: Vec<String> = (labels.iter().map(|(k, v)| format!("{k}={v}")))
                    .chain(taints.iter().map(|t| {
                        let v = if t.value.is_empty() {
                            String::new()
                        } else {
                            format!("={}", t.value)
                        };
                        format!("{}{v}:{}", t.key, t.effect.as_str())
                    }))
                    .collect();
                let text = if shown.is_empty() {
                    "no labels, no taints".to_string()
                } else {
                    shown.join(", ")
                };
                cx.emit(
                    Kind::NodeEdited,
                    None,
                    None,
                    Value::Message(text),
                    Rule::Truth,
                    Actor::Scenario,
                );
                let added = taints
                    .iter()
                    .any(|t| t.effect == Effect::NoExecute && !before.contains(t));
                if added {
                    let spec = self.spec[n];
                    for p in self.te.user_taints(&mut cx, api, spec, taints) {
                        // The kubelet's pod watch sees the deletion timestamp.
                        k.on_pod_deleted(&mut cx, rt, api, p);
                    }
                }
            }
            _ => unreachable!("not an admission event"),
        }
        wake_changed(&mut cx, k, rt);
    }
}
