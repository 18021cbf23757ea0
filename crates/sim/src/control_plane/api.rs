//! The API server: the only writer of API objects (pods' status and deletion, the node's Ready
//! condition and taints, the node lease) and the only place where status writes and Ready
//! changes are recorded (trace events, `*_status_writes`, `ready_transitions`). Called by the
//! kubelet's status manager, the node lifecycle controller and the taint eviction controller.
//! No latency: a write is visible to every watcher at once (docs/MODEL.md, Simplifications).
//!
//! Mirrors the objects of `k8s.io/api/core/v1` that the model needs (`PodStatus`,
//! `ContainerStatus`, `NodeCondition`, `Taint`) and `coordination/v1` `Lease`.

use crate::core::{Ctx, Few, NodeId};
use crate::rules::Rule;
use crate::trace::{Actor, ConditionStatus, EndpointValue, Kind, Ms, TaintEffect, Value};

/// One container's status as the API holds it (`v1.ContainerStatus`, the fields we model).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CStatus {
    /// The container instance (container ID).
    pub instance: u32,
    pub running: bool,
    pub started: Option<bool>,
    pub ready: bool,
}

/// The kubelet-owned part of a pod status (container statuses, ContainersReady, PodReady).
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// Per container, inline for pods of up to two containers.
    pub cs: Few<CStatus, 2>,
    pub containers_ready: bool,
    pub ready: bool,
}

impl Status {
    /// The steady state of a pod's status: its ordinary init containers completed (not running,
    /// not started, Ready — `UpdatePodStatus` marks an init container that exited 0 Ready),
    /// every other container running, started and ready.
    pub fn steady(pod: &crate::scenario::Pod) -> Self {
        let mut s = Status::healthy(pod.n_containers());
        for (i, c) in s.cs.iter_mut().enumerate() {
            if pod.is_completed_init(i) {
                c.running = false;
                c.started = Some(false);
            }
        }
        s
    }

    /// Every container running, started and ready.
    pub fn healthy(n: usize) -> Self {
        Status {
            cs: (0..n)
                .map(|_| CStatus {
                    instance: 1,
                    running: true,
                    started: Some(true),
                    ready: true,
                })
                .collect(),
            containers_ready: true,
            ready: true,
        }
    }
}

#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct ApiPod {
    pub status: Status,
    /// `metadata.deletionTimestamp`.
    pub deleted_at: Option<Ms>,
    /// The object is gone.
    pub removed: bool,
    /// `status.phase` is Failed (a pod the kubelet's admission rejected, A2).
    pub failed: bool,
    /// Listed in a Service's EndpointSlices.
    pub has_service: bool,
    /// The endpoint the EndpointSlice controller last wrote for this pod.
    pub endpoint: Option<EndpointValue>,
}

impl ApiPod {
    pub fn gone_or_deleting(&self) -> bool {
        self.removed || self.failed || self.deleted_at.is_some()
    }
}

/// The node object and its lease.
#[derive(Clone, Debug)]
pub struct ApiNode {
    /// The lease's `renewTime`.
    pub lease_renew: Ms,
    /// The Ready condition's `lastHeartbeatTime`: when the kubelet last posted it (K2, K2u).
    pub heartbeat: Ms,
    /// Ready condition True (else Unknown, or False when `posted_false`).
    pub ready: bool,
    /// The Ready condition is False: posted by the kubelet (R3: "container runtime is down";
    /// K2n). The node lifecycle controller's own write is Unknown.
    pub posted_false: bool,
    pub taint_noschedule: bool,
    pub taint_noexecute: bool,
    /// The NoExecute taint is `node.kubernetes.io/not-ready` (added while Ready was False), not
    /// `unreachable`.
    pub noexecute_not_ready: bool,
}

/// Why a kubelet status patch says what it says: the rules to record on each change.
pub struct PatchReasons<'r> {
    /// Rule for each container's Started change.
    pub started: Rule,
    /// Rule for each container's Ready change.
    pub ready: &'r [Rule],
    /// Rule for the write and the PodReady change.
    pub pod: Rule,
}

pub struct ApiServer {
    pub nodes: Vec<ApiNode>,
    pub pods: Vec<Vec<ApiPod>>,
    /// Pods whose endpoint may have changed this instant (the EndpointSlice controller's queue).
    pub dirty_endpoints: Vec<(NodeId, u16)>,
    /// Nodes whose Ready condition is not True (kept as it changes, for the per-second series).
    pub not_ready: u32,
    /// Nodes whose Ready condition changed since the node lifecycle controller last looked (its
    /// zone counts).
    pub ready_flips: Vec<NodeId>,
}

impl ApiServer {
    pub fn pod(&self, node: NodeId, pod: usize) -> &ApiPod {
        &self.pods[node as usize][pod]
    }

    fn mark_endpoint(&mut self, node: NodeId, pod: usize) {
        if self.pods[node as usize][pod].has_service {
            self.dirty_endpoints.push((node, pod as u16));
        }
    }

    /// The kubelet's status manager PATCHes a pod status (`status_manager.go` `syncPod`). Records
    /// each container Started/Ready change, the write, and a PodReady change.
    pub fn patch_pod_status(&mut self, cx: &mut Ctx, pod: usize, st: Status, why: &PatchReasons) {
        let node = cx.node;
        // The old status is read in place, then replaced (no copy of the new one).
        let old = &self.pods[node as usize][pod].status;
        let ready_changed = old.ready != st.ready;
        for c in 0..st.cs.len() {
            if old.cs[c].started != st.cs[c].started {
                cx.emit(
                    Kind::ContainerStarted,
                    Some(pod),
                    Some(c),
                    Value::Bool(st.cs[c].started == Some(true)),
                    why.started,
                    Actor::Kubelet,
                );
            }
            if old.cs[c].ready != st.cs[c].ready {
                cx.emit(
                    Kind::ContainerReady,
                    Some(pod),
                    Some(c),
                    Value::Bool(st.cs[c].ready),
                    why.ready[c],
                    Actor::Kubelet,
                );
            }
        }
        kubelet_write(cx, pod, why.pod);
        let ready = st.ready;
        self.pods[node as usize][pod].status = st;
        if ready_changed {
            cx.rec.node_metrics(node).ready_transitions += 1;
            cx.emit(
                Kind::PodReady,
                Some(pod),
                None,
                Value::Bool(ready),
                why.pod,
                Actor::Kubelet,
            );
            cx.touch(pod);
            self.mark_endpoint(node, pod);
        }
    }

    /// `MarkPodsNotReady` (node lifecycle controller): PodReady → False for a pod whose Ready is
    /// True. Returns whether it wrote.
    pub fn mark_pod_not_ready(&mut self, cx: &mut Ctx, pod: usize) -> bool {
        let node = cx.node;
        let a = &mut self.pods[node as usize][pod];
        if a.removed || !a.status.ready {
            return false;
        }
        a.status.ready = false;
        let m = cx.rec.node_metrics(node);
        m.nlc_status_writes += 1;
        m.ready_transitions += 1;
        cx.rec.count_write(cx.now);
        let by = Actor::NodeLifecycleController;
        cx.emit(
            Kind::StatusWrite,
            Some(pod),
            None,
            Value::Writer(by),
            Rule::N1,
            by,
        );
        cx.emit(
            Kind::PodReady,
            Some(pod),
            None,
            Value::Bool(false),
            Rule::N1,
            by,
        );
        cx.touch(pod);
        self.mark_endpoint(node, pod);
        true
    }

    /// The node's Ready condition (True, or Unknown when the node lifecycle controller gives up
    /// on it); the NoSchedule taint follows it at once (N1t, `doNoScheduleTaintingPass`).
    pub fn set_node_ready(&mut self, cx: &mut Ctx, ready: bool, rule: Rule, by: Actor) {
        self.set_node_condition(cx, ready, false, rule, by)
    }

    /// The kubelet posts node Ready=False (R3, K2n); the NoSchedule `not-ready` taint follows.
    pub fn set_node_false(&mut self, cx: &mut Ctx, rule: Rule) {
        self.set_node_condition(cx, false, true, rule, Actor::Kubelet)
    }

    fn set_node_condition(&mut self, cx: &mut Ctx, ready: bool, fals: bool, rule: Rule, by: Actor) {
        let n = &mut self.nodes[cx.node as usize];
        n.posted_false = fals;
        if n.ready != ready {
            if ready {
                self.not_ready -= 1;
            } else {
                self.not_ready += 1;
            }
            self.ready_flips.push(cx.node);
        }
        n.ready = ready;
        if by == Actor::Kubelet {
            n.heartbeat = cx.now;
        }
        let v = if ready {
            ConditionStatus::True
        } else if fals {
            ConditionStatus::False
        } else {
            ConditionStatus::Unknown
        };
        cx.emit(Kind::NodeReady, None, None, Value::Condition(v), rule, by);
        cx.rec.node_ready(cx.node, ready, cx.now);
        let want = !ready;
        if want != n.taint_noschedule {
            n.taint_noschedule = want;
            cx.emit(
                if want {
                    Kind::TaintAdded
                } else {
                    Kind::TaintRemoved
                },
                None,
                None,
                Value::Taint(TaintEffect::NoSchedule),
                // The not-ready key while the kubelet's False holds (or when it is lifted).
                if fals || rule == Rule::R4 || rule == Rule::K2n {
                    rule
                } else {
                    Rule::N1t
                },
                Actor::NodeLifecycleController,
            );
        }
    }

    /// The NoExecute `unreachable` taint (N2 adds, N3 removes).
    pub fn set_noexecute_taint(&mut self, cx: &mut Ctx, on: bool, rule: Rule) {
        self.nodes[cx.node as usize].taint_noexecute = on;
        if on {
            self.nodes[cx.node as usize].noexecute_not_ready = rule == Rule::R3;
        }
        cx.emit(
            if on {
                Kind::TaintAdded
            } else {
                Kind::TaintRemoved
            },
            None,
            None,
            Value::Taint(TaintEffect::NoExecute),
            rule,
            Actor::NodeLifecycleController,
        );
    }

    /// The kubelet renews its node lease.
    pub fn renew_lease(&mut self, cx: &mut Ctx, rule: Rule) {
        self.nodes[cx.node as usize].lease_renew = cx.now;
        cx.emit(
            Kind::LeaseRenew,
            None,
            None,
            Value::None,
            rule,
            Actor::Kubelet,
        );
    }

    /// The taint eviction controller's status PATCH before it deletes a pod: the condition
    /// `DisruptionTarget=True` (reason `DeletionByTaintManager`).
    pub fn add_disruption_target(&mut self, cx: &mut Ctx, pod: usize, rule: Rule) {
        let by = Actor::TaintEvictionController;
        cx.rec.count_write(cx.now);
        cx.emit(
            Kind::StatusWrite,
            Some(pod),
            None,
            Value::Writer(by),
            rule,
            by,
        );
    }

    /// The taint eviction controller deletes a pod (sets its deletion timestamp).
    pub fn delete_pod(&mut self, cx: &mut Ctx, pod: usize, rule: Rule) {
        let node = cx.node;
        self.pods[node as usize][pod].deleted_at = Some(cx.now);
        cx.rec.node_metrics(node).evictions += 1;
        cx.emit(
            Kind::Eviction,
            Some(pod),
            None,
            Value::None,
            rule,
            Actor::TaintEvictionController,
        );
        cx.touch(pod);
        self.mark_endpoint(node, pod);
    }

    /// A2: the status manager writes phase Failed; the EndpointSlice controller drops the pod
    /// (`ShouldPodBeInEndpoints`: not for a terminal pod).
    pub fn set_failed(&mut self, cx: &mut Ctx, pod: usize) {
        let a = &mut self.pods[cx.node as usize][pod];
        if a.removed || a.failed {
            return;
        }
        a.failed = true;
        kubelet_write(cx, pod, Rule::A2);
        cx.emit(
            Kind::PodFailed,
            Some(pod),
            None,
            Value::None,
            Rule::A2,
            Actor::Kubelet,
        );
        cx.touch(pod);
        self.mark_endpoint(cx.node, pod);
    }

    /// The pod object goes away once the kubelet has stopped its containers (E1d).
    pub fn remove_pod(&mut self, cx: &mut Ctx, pod: usize) {
        self.remove_pod_by(cx, pod, Rule::E1d)
    }

    /// The pod object goes away, by `rule` (E1d; A2 for a rejected pod the kubelet's
    /// housekeeping deletes).
    pub fn remove_pod_by(&mut self, cx: &mut Ctx, pod: usize, rule: Rule) {
        self.pods[cx.node as usize][pod].removed = true;
        cx.emit(
            Kind::PodRemoved,
            Some(pod),
            None,
            Value::None,
            rule,
            Actor::Kubelet,
        );
        cx.touch(pod);
        self.mark_endpoint(cx.node, pod);
    }
}

/// A pod status write by the kubelet's status manager: counted in the node's
/// `kubelet_status_writes` and the per-second writes, and recorded with its rule.
fn kubelet_write(cx: &mut Ctx, pod: usize, rule: Rule) {
    cx.rec.node_metrics(cx.node).kubelet_status_writes += 1;
    cx.rec.count_write(cx.now);
    cx.emit(
        Kind::StatusWrite,
        Some(pod),
        None,
        Value::Writer(Actor::Kubelet),
        rule,
        Actor::Kubelet,
    );
}
