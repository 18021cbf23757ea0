//! The prober manager: creates a pod's workers (`AddPod`) and writes results into the cache,
//! handing each change to the sync loop. Called by SyncPod (`add_pod`) and by workers
//! (`set_result`).
//!
//! Mirrors `pkg/kubelet/prober/prober_manager.go` (`AddPod`) and the results manager's
//! `Set` → `Updates()` → `syncLoopIteration` path.

use super::{probe_spec, Worker};
use crate::control_plane::api::ApiServer;
use crate::core::rng::{draw, Purpose};
use crate::core::{Ctx, What};
use crate::node::kubelet::restarts::Held;
use crate::node::kubelet::Kubelet;
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Ms, Outcome, ProbeKind, ProbeValue, Value};

impl Held {
    /// A results-cache change for the sync loop.
    pub fn probe(p: usize, c: usize, kind: ProbeKind, cid: u32, r: Outcome, rule: Rule) -> Held {
        Held::Probe {
            pod: p as u16,
            c: c as u8,
            kind,
            cid,
            r,
            rule,
        }
    }
}

impl Kubelet<'_> {
    /// `probeManager.AddPod`: a worker per container × probe type. P2, `worker.run`: a worker
    /// sleeps a random part of its period first if the kubelet started less than a period ago.
    pub fn add_pod(&mut self, cx: &mut Ctx, p: usize) {
        let since_start = cx.now - self.started_at;
        let restart_idx = self.restart_idx as u64;
        for (c, spec) in self.spec[p].all_containers().enumerate() {
            for kind in ProbeKind::ALL {
                let Some(pr) = probe_spec(spec, kind) else {
                    continue;
                };
                self.pods[p].probes.workers[c][kind.index()] = Some(Worker::new());
                let period = pr.period_s as Ms * 1000;
                let jitter = if period > since_start {
                    (draw(
                        self.seed,
                        Purpose::WorkerJitter,
                        cx.node,
                        [(restart_idx << 32) | p as u64, c as u64, kind as u64],
                    ) * period as f64) as Ms
                } else {
                    0
                };
                self.schedule_tick(cx, cx.now + jitter, p, c, kind, 0);
            }
        }
    }

    /// `results_manager.Set` (only changes are reported), then the sync loop handles it.
    #[allow(clippy::too_many_arguments)]
    pub fn set_result(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
        cid: u32,
        r: Outcome,
        rule: Rule,
    ) {
        if self.record_result(cx, p, c, kind, cid, r, rule) {
            self.on_probe_result(cx, rt, api, p, c, kind, cid, r, rule);
        }
    }

    /// P1d: a result set inside `doProbe` (the initial value, a non-running container's
    /// Failure, a deleting pod's Success). The cache changes at once; the sync loop takes the
    /// update from the channel after every worker due at this instant has run its `doProbe`:
    /// the workers `AddPod` starts together all read the status the first SyncPod set, so a
    /// readiness worker whose container that status shows Started probes at once, although
    /// its startup worker's initial Unknown is about to clear Started (`worker.go` `doProbe`
    /// reads `statusManager.GetPodStatus`; `kubelet.go` `syncLoopIteration` handles
    /// `startupManager.Updates()` / `readinessManager.Updates()` on its own goroutine).
    #[allow(clippy::too_many_arguments)]
    pub fn set_result_in_do_probe(
        &mut self,
        cx: &mut Ctx,
        p: usize,
        c: usize,
        kind: ProbeKind,
        cid: u32,
        r: Outcome,
        rule: Rule,
    ) {
        if !self.record_result(cx, p, c, kind, cid, r, rule) {
            return;
        }
        if self.updates.is_empty() {
            let gen = self.gen;
            cx.at(cx.now, What::ProbeUpdates { gen });
        }
        self.updates.push(Held::probe(p, c, kind, cid, r, rule));
    }

    /// `syncLoopIteration` takes the updates `set_result_in_do_probe` queued, in order.
    pub fn probe_updates(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        let updates = std::mem::take(&mut self.updates);
        self.do_held(cx, rt, api, updates);
    }

    /// The results cache's `Set`: whether the value changed (then the change is traced).
    #[allow(clippy::too_many_arguments)]
    fn record_result(
        &mut self,
        cx: &mut Ctx,
        p: usize,
        c: usize,
        kind: ProbeKind,
        cid: u32,
        r: Outcome,
        rule: Rule,
    ) -> bool {
        if !self.pods[p].probes.results.set(c, kind, cid, r) {
            return false;
        }
        let threshold = self
            .probe(p, c, kind)
            .map(|pr| {
                if r == Outcome::Success {
                    pr.success_threshold
                } else {
                    pr.failure_threshold
                }
            })
            .unwrap_or(1);
        cx.emit(
            Kind::ProbeResult,
            Some(p),
            Some(c),
            Value::Probe(ProbeValue {
                probe: kind,
                result: r,
                // Only a threshold crossing (P5) comes from a run of probes.
                run: if rule == Rule::P5 { threshold } else { 0 },
                threshold,
            }),
            rule,
            Actor::Kubelet,
        );
        true
    }
}
