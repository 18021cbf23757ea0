//! The status manager: caches the generated status (`podStatuses`) and PATCHes the API server
//! only when it differs from what the API holds (an empty patch is skipped). Called on every
//! pod sync: first SyncPod, results-cache changes, container exits and restarts.
//!
//! Mirrors `pkg/kubelet/status/status_manager.go` (`SetPodStatus`, `syncPod`,
//! `needsUpdate`/`PatchPodStatus`), fed by `kubelet.go` `SyncPod`.

use super::generate::{generate, Generated, Input};
use crate::control_plane::api::{ApiServer, PatchReasons};
use crate::core::Ctx;
use crate::node::kubelet::{Kubelet, KUBELET_RESTART_GRACE};
use crate::node::runtime::Runtime;
use crate::rules::Rule;

impl Kubelet<'_> {
    /// A pod sync (S5): regenerate the status, cache it and PATCH the API server if it differs;
    /// then ask readiness workers with no result for an immediate probe.
    pub fn sync_pod(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        cause: Rule,
    ) {
        if !self.up || !self.pods[p].synced || api.pod(cx.node, p).removed {
            return;
        }
        let api_pod = api.pod(cx.node, p);
        let kp = &self.pods[p];
        let Generated {
            status,
            ready_rules,
            triggers,
        } = generate(&Input {
            rules: self.profile.rules,
            spec: &self.spec[p],
            runtime: &rt.pods[p],
            probes: &kp.probes,
            prev: kp.status.as_ref().unwrap_or(&api_pod.status),
            api: &api_pod.status,
            predates_before: self.started_at - KUBELET_RESTART_GRACE,
        });
        // Without the API server the update fails; the cache keeps the status and `api_back`
        // writes it (K2u, S5r). After the API is back, a status equal to the cached one is not
        // a change (`SetPodStatus` compares with its cache) and waits for the next `syncBatch`;
        // a changed one signals it, and that batch writes every stale status too.
        let changed = kp.status.as_ref() != Some(&status);
        let flush = self.stale_statuses && changed;
        let write = self.reachable
            && status != api.pod(cx.node, p).status
            && (!self.stale_statuses || changed);
        let cached = &mut self.pods[p].status;
        if !write {
            *cached = Some(status);
        } else {
            // The cache copies the status into its own memory; the API takes it.
            match cached {
                Some(s) => s.clone_from(&status),
                None => *cached = Some(status.clone()),
            }
            // First SyncPod: each change names the rule that decided it (S1, S2 or S3); else
            // the cause of the sync.
            let first = cause == Rule::K3;
            let pod_rule = if !first {
                cause
            } else if ready_rules.contains(&Rule::S3) {
                Rule::S3
            } else {
                Rule::S2
            };
            // One rule per container (`generate` gave one each).
            let mut ready = ready_rules;
            if !first {
                ready.fill(cause);
            }
            let why = PatchReasons {
                started: if first { Rule::S1 } else { cause },
                ready: &ready,
                pod: pod_rule,
            };
            api.patch_pod_status(cx, p, status, &why);
        }
        if flush && self.reachable {
            self.flush_stale(cx, api);
        }
        for c in triggers {
            self.trigger(cx, rt, api, p, c);
        }
    }

    /// S5r: a `syncBatch` after the API server is reachable again writes every cached status
    /// that differs from the API's (`needsUpdate`: its earlier write failed; `needsReconcile`).
    pub fn flush_stale(&mut self, cx: &mut Ctx, api: &mut ApiServer) {
        if !self.stale_statuses || !self.reachable {
            return;
        }
        self.stale_statuses = false;
        for p in 0..self.pods.len() {
            let a = api.pod(cx.node, p);
            if !self.pods[p].synced || a.removed || a.failed {
                continue;
            }
            let Some(st) = self.pods[p].status.as_ref().filter(|s| **s != a.status) else {
                continue;
            };
            let st = st.clone();
            let ready = vec![Rule::S5r; st.cs.len()];
            let why = PatchReasons {
                started: Rule::S5r,
                ready: &ready,
                pod: Rule::S5r,
            };
            api.patch_pod_status(cx, p, st, &why);
        }
    }

    /// `SetContainerStartup`: the status manager sets the container's Started alone (no
    /// condition is recomputed) and writes it; Ready follows at the pod sync the sync loop then
    /// runs. Ignored for a container ID the cached status does not hold.
    #[allow(clippy::too_many_arguments)]
    pub fn set_container_startup(
        &mut self,
        cx: &mut Ctx,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        cid: u32,
        started: bool,
        cause: Rule,
    ) {
        if !self.up || !self.pods[p].synced || api.pod(cx.node, p).removed {
            return;
        }
        let Some(mut status) = self.pods[p].status.clone() else {
            return;
        };
        if status.cs[c].instance != cid || status.cs[c].started == Some(started) {
            return;
        }
        status.cs[c].started = Some(started);
        self.pods[p].status = Some(status.clone());
        if self.reachable && status != api.pod(cx.node, p).status {
            let ready = vec![cause; status.cs.len()];
            let why = PatchReasons {
                started: cause,
                ready: &ready,
                pod: cause,
            };
            api.patch_pod_status(cx, p, status, &why);
        }
    }
}
