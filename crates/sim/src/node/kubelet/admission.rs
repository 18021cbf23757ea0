//! Admission at the kubelet's start and the end of a pod it rejects (A1, A1s, A2). A kubelet
//! that starts gets every pod of its node from its first API list as an ADD and admits each one
//! again before the pod worker's first SyncPod; a running pod whose node changed meanwhile
//! (labels its `nodeSelector` needs removed, an untolerated NoExecute taint added) is rejected,
//! its containers are killed and it ends `Failed`. Owns nothing beyond the kubelet's per-pod
//! `rejected` mark; called by `sync::first_sync` and the cluster's dispatch.
//!
//! Mirrors `pkg/kubelet/kubelet.go` `HandlePodAdditions` (`canAdmitPod` before
//! `podWorkers.UpdatePod`; terminal pods skipped) and `rejectPod`;
//! `pkg/kubelet/lifecycle/predicate.go` `Admit` and `generalFilter` (node affinity first, then
//! NoExecute taints only; the same in every release from v1.31.14 to v1.38.0-beta.0: none has
//! the `skipIgnorableChecks` of the open PR #133803, A1s, which only a hand-built profile turns
//! on); `pkg/kubelet/kubelet_pods.go` `HandlePodCleanups` (a running pod no pod worker
//! knows is killed, grace 1 s, on the 2 s housekeeping tick); `status/status_manager.go`
//! `mergePodStatus` (the Failed phase waits until no container can run; the kubelet-owned
//! conditions go at once) and `syncBatch` (the 10 s reconcile that then writes Failed);
//! `HandlePodCleanups`' `filterTerminalPodsToDelete` and `status_manager.go` `canBeDeleted` (a
//! Failed pod with a deletion timestamp is removed at the next housekeeping).

use super::Kubelet;
use crate::control_plane::api::{ApiServer, PatchReasons};
use crate::core::{Ctx, What};
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::scenario::{affinity_matches, untolerated, Effect};
use crate::trace::{Actor, Kind, Ms, Value};

/// `housekeepingPeriod`: `HandlePodCleanups` runs every 2 s of the sync loop.
pub const HOUSEKEEPING: Ms = 2_000;
/// The grace `HandlePodCleanups` gives an orphaned running pod's containers
/// (`KillPodOptions.PodTerminationGracePeriodSecondsOverride` = 1).
pub const ORPHAN_KILL_GRACE: Ms = 1_000;
/// The status manager's `syncPeriod`: `syncBatch(true)` reconciles every 10 s.
pub const STATUS_SYNC: Ms = 10_000;

/// The first tick of a `period` grid anchored at `base` strictly after `t`.
fn tick_after(base: Ms, period: Ms, t: Ms) -> Ms {
    super::restarts::tick_at_or_after(base, period, t + 1)
}

/// Why admission turns a pod away: the predicate's name (the status `reason`) and its message.
pub fn rejection(k: &Kubelet, p: usize, now: Ms) -> Option<(&'static str, &'static str)> {
    let node = k.node_obj?;
    let pod = &k.spec[p];
    let (labels, taints) = node.at(now as f64 / 1000.0);
    if !affinity_matches(&pod.node_selector, &pod.node_affinity, labels) {
        // nodeaffinity.Name, nodeaffinity.ErrReasonPod.
        return Some((
            "NodeAffinity",
            "node(s) didn't match Pod's node affinity/selector",
        ));
    }
    // "Kubelet is only interested in the NoExecute taint."
    untolerated(taints, &pod.tolerations, |t| t.effect == Effect::NoExecute).map(|_| {
        (
            "TaintToleration",
            "node(s) had taints that the pod didn't tolerate",
        )
    })
}

impl Kubelet<'_> {
    /// A1 / A1s at the pod's first SyncPod of this process: `Err` when the pod was rejected
    /// (no pod worker, no SyncPod). The rule the first SyncPod records: A1s when PR #133803's
    /// `skipIgnorableChecks` (`Rules::skip_ignorable_admission_checks`: in no release, only in a
    /// hand-built profile) let through a pod admission would otherwise have turned away.
    pub fn admit(
        &mut self,
        cx: &mut Ctx,
        rt: &Runtime,
        api: &mut ApiServer,
        p: usize,
    ) -> Result<Option<Rule>, ()> {
        let Some((reason, why)) = rejection(self, p, cx.now) else {
            return Ok(None);
        };
        // Status.StartTime is set for every pod the story starts with, and the allocation
        // checkpoint (`allocated_pods_state` under the kubelet's root directory) holds each pod
        // the kubelet admitted: it survives a kubelet restart and a reboot alike.
        if self.profile.rules.skip_ignorable_admission_checks {
            return Ok(Some(Rule::A1s));
        }
        self.reject(cx, rt, api, p, reason, why);
        Err(())
    }

    /// `rejectPod`: a Warning event with the predicate's name as reason, and the status
    /// `{phase: Failed, reason, message: "Pod was rejected: …"}`. The status manager's merge
    /// keeps the phase Running while the containers may run, and drops the kubelet-owned
    /// conditions and the container statuses: Ready goes at once.
    fn reject(
        &mut self,
        cx: &mut Ctx,
        rt: &Runtime,
        api: &mut ApiServer,
        p: usize,
        reason: &str,
        why: &str,
    ) {
        self.pods[p].rejected = true;
        let message = format!("Pod was rejected: Predicate {reason} failed: {why}");
        cx.emit(
            Kind::PodRejected,
            Some(p),
            None,
            Value::Message(message),
            Rule::A1,
            Actor::Kubelet,
        );
        let mut st = api.pod(cx.node, p).status.clone();
        for c in st.cs.iter_mut() {
            c.started = None;
            c.ready = false;
        }
        st.containers_ready = false;
        st.ready = false;
        let ready = vec![Rule::A1; st.cs.len()];
        let why = PatchReasons {
            started: Rule::A1,
            ready: &ready,
            pod: Rule::A1,
        };
        api.patch_pod_status(cx, p, st, &why);
        // A2: the next housekeeping finds the pod's containers running with no pod worker.
        let kill = tick_after(self.started_at, HOUSEKEEPING, cx.now);
        if rt.pods[p].iter().any(|c| c.running) {
            self.kill_orphan(cx, kill, p);
        } else {
            let at = tick_after(self.started_at, STATUS_SYNC, cx.now);
            let gen = self.gen;
            cx.at(at, What::PodFailed { gen, pod: p as u16 });
        }
    }

    /// A2: housekeeping at `at` hands the orphaned running pod to a pod worker as `SyncPodKill`
    /// with a 1 s grace; its containers are gone then.
    pub fn kill_orphan(&self, cx: &mut Ctx, at: Ms, p: usize) {
        let gen = self.gen;
        cx.at(
            at + ORPHAN_KILL_GRACE,
            What::OrphanKilled { gen, pod: p as u16 },
        );
    }

    /// A2, the end of a rejected pod that is being deleted: once its phase is terminal (the
    /// Failed write) and its containers are gone, the next housekeeping's `HandlePodCleanups`
    /// finds it in `filterTerminalPodsToDelete` (a deletion timestamp, a terminal phase, no pod
    /// worker, no running runtime pod: "An example is pods rejected during kubelet admission")
    /// and hands it to a pod worker as `SyncPodKill`; its `SyncTerminatedPod` ends in the status
    /// manager's `TerminatePod`, whose `podIsFinished` lets `canBeDeleted` delete the object (grace
    /// 0). Scheduled at the first housekeeping tick strictly after `after`, when the pod is
    /// Failed and deleted; a kubelet that cannot reach the API server waits for `api_back`.
    pub fn schedule_terminal_cleanup(&self, cx: &mut Ctx, api: &ApiServer, p: usize, after: Ms) {
        let a = api.pod(cx.node, p);
        if !self.up || !self.reachable || a.removed || !a.failed || a.deleted_at.is_none() {
            return;
        }
        let at = tick_after(self.started_at, HOUSEKEEPING, after);
        let gen = self.gen;
        cx.at(at, What::PodCleanup { gen, pod: p as u16 });
    }

    /// A2: housekeeping's `filterTerminalPodsToDelete` path (above) removes the pod object.
    /// R1, R3: housekeeping does not run while the sync loop skips its iterations, and returns
    /// at its runtime listing ("Error listing containers") while the runtime does not answer.
    pub fn terminal_cleanup(&mut self, cx: &mut Ctx, rt: &Runtime, api: &mut ApiServer, p: usize) {
        let a = api.pod(cx.node, p);
        if a.removed || !a.failed || a.deleted_at.is_none() || !self.reachable {
            return;
        }
        if self.pod_work_waits(rt, cx.now) {
            self.held
                .push(super::restarts::Held::Cleanup { pod: p as u16 });
            return;
        }
        api.remove_pod_by(cx, p, Rule::A2);
    }

    /// A2: the orphaned pod's containers are stopped; the next `syncBatch` reconcile writes the
    /// Failed phase. R1, R3: without the runtime (or the sync loop's housekeeping) the kill
    /// waits, and housekeeping gives it its 1 s grace when it runs again.
    pub fn orphan_killed(&mut self, cx: &mut Ctx, rt: &mut Runtime, p: usize) {
        if self.pod_work_waits(rt, cx.now) {
            self.held
                .push(super::restarts::Held::Orphan { pod: p as u16 });
            return;
        }
        for c in 0..rt.pods[p].len() {
            if rt.stop(cx, p, c) {
                cx.emit(
                    Kind::ContainerExit,
                    Some(p),
                    Some(c),
                    Value::None,
                    Rule::A2,
                    Actor::Kubelet,
                );
            }
        }
        let gen = self.gen;
        let at = tick_after(self.started_at, STATUS_SYNC, cx.now);
        cx.at(at, What::PodFailed { gen, pod: p as u16 });
    }
}
