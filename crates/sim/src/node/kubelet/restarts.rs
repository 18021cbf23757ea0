//! The restarts other than the kubelet's own, as the kubelet lives them: the container runtime's
//! (R1–R4), the node's (B1, B2), an in-place upgrade to another release (U1) and the 1.30
//! kubelet's start-up NotReady (K2n). Owns the kubelet's runtime-health bookkeeping
//! (`runtimeState`: the last good runtime check), the node-status posts it drives, the pod work
//! the sync loop skips while the runtime is down, and the init containers' re-run in a new
//! sandbox. Called by the cluster's dispatch (`cluster/restarts.rs`).
//!
//! Mirrors `pkg/kubelet/kubelet.go` (`Run`: `updateRuntimeUp` every 5 s, `syncNodeStatus` every
//! `nodeStatusUpdateFrequency`; `syncLoop`: "Skipping pod synchronization" while
//! `runtimeErrors`, with a sleep from 100 ms doubling to 5 s between checks, so no
//! `syncLoopIteration` runs: no config update, PLEG event, sync tick, probe result or
//! housekeeping is handled — the same in v1.31.14 to v1.38.0-beta.0), `pkg/kubelet/runtime.go`
//! (`runtimeErrors`: "container runtime is down" once the last good check is
//! `maxWaitForContainerRuntime`, 30 s, old), `nodestatus.ReadyCondition`,
//! `pkg/kubelet/pleg/generic.go` (`relist` fails while the runtime does not answer),
//! `kuberuntime_manager.go` `computePodActions` (a changed sandbox: init containers from the
//! first; a changed container hash: kill and start), `kuberuntime_container.go` `startContainer`
//! (restart count + 1).

use super::Kubelet;
use crate::control_plane::api::ApiServer;
use crate::core::{ms, Ctx, What};
use crate::node::runtime::Runtime;
use crate::releases::KubeVersion;
use crate::rules::Rule;
use crate::scenario::{Cluster, ContainerRole, RestartKind};
use crate::trace::{Actor, Kind, Ms, Outcome, ProbeKind, Value};

/// `updateRuntimeUp` runs every 5 s (`wait.Until(kl.updateRuntimeUp, 5*time.Second, …)`).
pub const RUNTIME_CHECK: Ms = 5_000;
/// `maxWaitForContainerRuntime`: the runtime is "down" once the last good check is this old.
pub const MAX_WAIT_FOR_RUNTIME: Ms = 30_000;
/// `nodeStatusUpdateFrequency` (KubeletConfiguration default 10 s). `JitterUntil` adds up to
/// 4 % to each wait; the model posts on the 10 s grid from the kubelet's start.
pub const NODE_STATUS: Ms = 10_000;
/// The downtime slider's two marks for a restart of `kind`: where the node stops being Ready
/// (label, seconds of downtime) and roughly where its pods are evicted. A kubelet or node
/// restart: the grace period after the last lease renewal (N1), then the `unreachable`
/// toleration ([`Cluster::eviction_downtime_estimate_s`]). A container runtime restart: the
/// kubelet posts Ready=False once its last good runtime check ([`RUNTIME_CHECK`]) is
/// [`MAX_WAIT_FOR_RUNTIME`] old, at its next node status ([`NODE_STATUS`]; R3) — about 32.5 s on
/// average — and the `not-ready` NoExecute taint lands about half a node-monitor period later;
/// the `not-ready` toleration runs from there.
pub fn downtime_marks(c: &Cluster, kind: RestartKind) -> (&'static str, f64, f64) {
    match kind {
        RestartKind::Runtime => {
            let s = |m: Ms| m as f64 / 1000.0;
            let not_ready = s(MAX_WAIT_FOR_RUNTIME) - s(RUNTIME_CHECK) / 2.0 + s(NODE_STATUS) / 2.0;
            let evict = not_ready + c.node_monitor_period_s / 2.0 + c.not_ready_toleration_s;
            ("node NotReady", not_ready, evict)
        }
        _ => ("grace", c.grace_s(), c.eviction_downtime_estimate_s()),
    }
}

/// K2n: how long the 1.30 kubelet's start-up Ready=False lasts — until its first runtime check
/// and PLEG relist have succeeded and `fastStatusUpdateOnce` posts again (about a second on an
/// idle node; longer where cAdvisor's start is slow).
pub const START_NOT_READY: Ms = 1_000;

/// The sync loop's `syncTicker` (1 s, from the loop's start with the kubelet's): while the loop
/// runs, it checks `runtimeErrors` at least this often.
pub const SYNC_TICK: Ms = 1_000;
/// `syncLoop`'s sleep while `runtimeErrors` is set: `base` 100 ms, doubled (`factor` 2) after
/// each check, at most `max` 5 s.
pub const LOOP_BACKOFF_BASE: Ms = 100;
pub const LOOP_BACKOFF_MAX: Ms = 5_000;

/// The first tick of a `period` grid anchored at `base` that is at or after `t`.
pub(super) fn tick_at_or_after(base: Ms, period: Ms, t: Ms) -> Ms {
    base + (t - base + period - 1).div_euclid(period) * period
}

/// `syncLoop` first saw `runtimeErrors` at `seen` and sleeps 100 ms, 200 ms, … 5 s, 5 s between
/// checks: the first check at or after `good` (the good runtime check that cleared it), where it
/// runs `syncLoopIteration` again.
pub fn loop_wakes_at(seen: Ms, good: Ms) -> Ms {
    let (mut t, mut sleep) = (seen, LOOP_BACKOFF_BASE);
    while t < good {
        t += sleep;
        sleep = (sleep * 2).min(LOOP_BACKOFF_MAX);
    }
    t
}

/// Pod work the kubelet holds while the runtime does not answer or the sync loop skips its
/// iterations (`Kubelet::held`), done in order when the loop runs again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Held {
    /// A container exit the PLEG's relist could not see, or a restart SyncPod could not make
    /// (K5, K3r).
    Exit { pod: u16, c: u8 },
    /// A results-cache change `syncLoopIteration` did not take from the prober's channel (P6
    /// kill, `SetContainerStartup`, `SetContainerReadiness` and the pod sync after them), or a
    /// kill that could not reach the runtime.
    Probe {
        pod: u16,
        c: u8,
        kind: ProbeKind,
        cid: u32,
        r: Outcome,
        rule: Rule,
    },
    /// A deletion the sync loop did not hand to the pod worker, or a SyncTerminatingPod whose
    /// kill the runtime's stop broke off (K4).
    Terminate { pod: u16 },
    /// The first pod list's ADD (`HandlePodAdditions`, K3) of a kubelet that started without the
    /// API server and reached it while the loop skipped.
    FirstSync { pod: u16 },
    /// The PLEG's report that an init container exited in a new sandbox (B2).
    InitNext { pod: u16 },
    /// Housekeeping's kill of a rejected pod's containers (A2).
    Orphan { pod: u16 },
    /// Housekeeping's removal of a Failed pod with a deletion timestamp (A2).
    Cleanup { pod: u16 },
}

impl Kubelet<'_> {
    /// R1: the runtime stops answering. Containers keep running under their shims; this kubelet
    /// keeps running and renewing its lease. Its last good runtime check is the last 5 s tick
    /// before now; once that is 30 s old `runtimeErrors` says "container runtime is down", and
    /// the first node-status post after that says Ready=False (R3).
    pub fn runtime_stopped(&mut self, cx: &mut Ctx, rt: &mut Runtime) {
        rt.up = false;
        cx.emit(
            Kind::RuntimeStop,
            None,
            None,
            Value::None,
            Rule::R1,
            Actor::Runtime,
        );
        if !self.up {
            return;
        }
        if !self.runtime_stale {
            // (Stopped again before a check passed: the last good one stays the earlier one.)
            let k = (cx.now - 1 - self.started_at).div_euclid(RUNTIME_CHECK);
            self.runtime_sync = self.started_at + k * RUNTIME_CHECK;
            self.runtime_stale = true;
        }
        // A SyncTerminatingPod in flight: the runtime's stop breaks off its `StopContainer`
        // (the container outlives its grace, worst case) and the pod worker retries the kill,
        // with the pod's grace again, once the sync loop runs pod work again.
        for p in 0..self.pods.len() {
            if self.pods[p].terminating && self.pods[p].term_deadline.take().is_some() {
                self.held.push(Held::Terminate { pod: p as u16 });
            }
        }
        let due = self.runtime_sync + MAX_WAIT_FOR_RUNTIME;
        let at = tick_at_or_after(self.started_at, NODE_STATUS, due);
        let gen = self.gen;
        cx.at(at, What::NodeStatus { gen });
    }

    /// R4: the runtime answers again. The next `updateRuntimeUp` (5 s grid) records a good
    /// check: `runtimeErrors` clears, the sync loop runs the pod work it skipped, and the next
    /// node-status post says Ready=True. A kubelet that could not start meanwhile (its runtime
    /// manager's first `Version` call failed; systemd restarts it) starts now.
    pub fn runtime_started(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        rt.up = true;
        cx.emit(
            Kind::RuntimeStart,
            None,
            None,
            Value::None,
            Rule::R4,
            Actor::Runtime,
        );
        if self.start_waits_for_runtime {
            self.start_waits_for_runtime = false;
            self.start(cx, rt, api);
            return;
        }
        if !self.up {
            return;
        }
        let at = tick_at_or_after(self.started_at, RUNTIME_CHECK, cx.now);
        let gen = self.gen;
        cx.at(at, What::RuntimeCheck { gen });
    }

    /// R4: a good runtime check: `runtimeErrors` clears. If the sync loop had been skipping its
    /// iterations, it runs again at its next back-off wake (`loop_wakes_at`: 1.3 s after a
    /// check on the 5 s grid); else the pod work that waited for the runtime runs now (the
    /// PLEG's next relist, the pod worker's retry). A Ready=False the kubelet posted is lifted
    /// at the next node-status post.
    pub fn runtime_check(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        if !rt.up {
            return;
        }
        let skipping = self.runtime_errors(cx.now) == Some(Rule::R3);
        // The loop checked at its sync tick as the error set in (both grids from the start).
        let seen = tick_at_or_after(
            self.started_at,
            SYNC_TICK,
            self.runtime_sync + MAX_WAIT_FOR_RUNTIME,
        );
        self.runtime_sync = cx.now;
        self.runtime_stale = false;
        if skipping {
            let at = loop_wakes_at(seen, cx.now);
            self.loop_resumes_at = Some(at);
            let gen = self.gen;
            cx.at(at, What::SyncLoopResume { gen });
        } else if self.loop_resumes_at.is_none() {
            self.resume_pod_work(cx, rt, api);
        }
        if api.nodes[cx.node as usize].posted_false {
            let at = tick_at_or_after(self.started_at, NODE_STATUS, cx.now);
            let gen = self.gen;
            cx.at(at, What::NodeStatus { gen });
        }
    }

    /// R4: the sync loop wakes with `runtimeErrors` clear and runs `syncLoopIteration` again:
    /// what queued up meanwhile (the pod updates, the PLEG's events, the probe results, the
    /// sync and housekeeping tickers' buffered ticks) is handled now.
    pub fn sync_loop_resume(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        if self.loop_resumes_at != Some(cx.now) {
            return;
        }
        self.loop_resumes_at = None;
        self.resume_pod_work(cx, rt, api);
    }

    /// The held pod work, in the order it came; what still cannot run is held again.
    fn resume_pod_work(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        let held = std::mem::take(&mut self.held);
        self.do_held(cx, rt, api, held);
    }

    /// Pod work taken off a queue (the held work, the probe updates of an instant), in order;
    /// a removed pod's is dropped, and what still cannot run is held again by its handler.
    pub(super) fn do_held(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        work: Vec<Held>,
    ) {
        for h in work {
            let p = match h {
                Held::Exit { pod, .. }
                | Held::Probe { pod, .. }
                | Held::Terminate { pod }
                | Held::FirstSync { pod }
                | Held::InitNext { pod }
                | Held::Orphan { pod }
                | Held::Cleanup { pod } => pod as usize,
            };
            if api.pod(cx.node, p).removed {
                continue;
            }
            match h {
                Held::Exit { c, .. } => {
                    // The PLEG's first good relist reports the exit; SyncPod restarts it.
                    if !rt.pods[p][c as usize].running {
                        self.on_container_exit(cx, rt, api, p, c as usize);
                    }
                }
                Held::Probe {
                    c,
                    kind,
                    cid,
                    r,
                    rule,
                    ..
                } => self.on_probe_result(cx, rt, api, p, c as usize, kind, cid, r, rule),
                Held::Terminate { .. } => self.terminate(cx, rt, p),
                Held::FirstSync { .. } => self.first_sync(cx, rt, api, p),
                Held::InitNext { .. } => self.init_next(cx, rt, api, p),
                // Housekeeping kills them now, with the 1 s grace.
                Held::Orphan { .. } => self.kill_orphan(cx, cx.now, p),
                Held::Cleanup { .. } => self.terminal_cleanup(cx, rt, api, p),
            }
        }
    }

    /// `runtimeErrors` now: the start-up check has not completed (K2n, 1.30) or the last good
    /// check is 30 s old with the runtime stopped since (R3; it stays set after the runtime is
    /// back until the next `updateRuntimeUp` passes).
    pub fn runtime_errors(&self, now: Ms) -> Option<Rule> {
        if now < self.start_checks_done {
            Some(Rule::K2n)
        } else if self.runtime_stale && now >= self.runtime_sync + MAX_WAIT_FOR_RUNTIME {
            Some(Rule::R3)
        } else {
            None
        }
    }

    /// `syncLoop` skips `syncLoopIteration` ("Skipping pod synchronization"): from the moment
    /// `runtimeErrors` says the runtime is down until the loop's first back-off wake after the
    /// check that cleared it.
    pub fn sync_loop_skips(&self, now: Ms) -> bool {
        self.runtime_errors(now) == Some(Rule::R3) || self.loop_resumes_at.is_some_and(|t| now < t)
    }

    /// Pod work waits: the runtime does not answer (the PLEG's relists, SyncPod's and
    /// housekeeping's CRI calls fail and are retried), or the sync loop skips its iterations.
    pub fn pod_work_waits(&self, rt: &Runtime, now: Ms) -> bool {
        !rt.up || self.sync_loop_skips(now)
    }

    /// `syncNodeStatus`: the Ready condition from `runtimeErrors`, posted when it changed; after
    /// a partition (K2u), Ready=True over the node lifecycle controller's Unknown.
    pub fn node_status(&mut self, cx: &mut Ctx, api: &mut ApiServer) {
        if !self.reachable {
            return;
        }
        let n = &api.nodes[cx.node as usize];
        match self.runtime_errors(cx.now) {
            Some(rule) if !n.posted_false => api.set_node_false(cx, rule),
            None if !n.ready => {
                let rule = if !n.posted_false {
                    Rule::K2u
                } else if self.start_checks_done == cx.now {
                    Rule::K2n
                } else {
                    Rule::R4
                };
                api.set_node_ready(cx, true, rule, Actor::Kubelet);
                if rule == Rule::K2u {
                    // The pods the controller marked NotReady: the status manager's syncBatch
                    // on the same 10 s grid writes their Ready back (S5r).
                    self.stale_statuses = true;
                    cx.at(cx.now, What::StatusSync { gen: self.gen });
                }
            }
            _ => {}
        }
        // K2u: until the lease sync blocked in `backoffEnsureLease` gets through, the node
        // lifecycle controller may still find the lease expired after the partition's end and
        // set Unknown; `syncNodeStatus` runs on and posts Ready over it.
        if self.lease_failed_at.is_some() {
            let gen = self.gen;
            cx.at(cx.now + NODE_STATUS, What::NodeStatus { gen });
        }
    }

    /// B1: the node shuts down. The kubelet stops (K1) and every container with it.
    pub fn node_shutdown(&mut self, cx: &mut Ctx, rt: &mut Runtime) {
        cx.emit(
            Kind::NodeShutdown,
            None,
            None,
            Value::None,
            Rule::B1,
            Actor::Scenario,
        );
        self.stop_with(cx, Rule::B1);
        for (p, c) in rt.shutdown(cx) {
            cx.emit(
                Kind::ContainerExit,
                Some(p),
                Some(c),
                Value::None,
                Rule::B1,
                Actor::Runtime,
            );
        }
    }

    /// B2: the node has booted: the runtime answers with no container running and every
    /// sandbox gone; the kubelet starts (K2).
    pub fn node_boot(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer) {
        rt.boot();
        cx.emit(
            Kind::NodeBoot,
            None,
            None,
            Value::None,
            Rule::B2,
            Actor::Scenario,
        );
        self.start(cx, rt, api);
    }

    /// U1, at a start that upgrades the kubelet: the new release's profile (the same gate
    /// setting: the legacy lane keeps `ChangeContainerStatusOnKubeletRestart=true` where the
    /// release has the gate, the KEP lane the release's default), and whether the container
    /// hash changes (PR #124220, v1.31.0: name and image only, so every container started by a
    /// 1.30 kubelet looks changed to a 1.31 one; every later hop keeps the hash).
    pub fn upgrade(&mut self, to: KubeVersion) {
        let from = self.profile.version;
        let policy = self.lane_policy;
        self.profile = crate::profile::KubeletProfile::for_policy(to, policy);
        self.hash_changed = from.upgrade_changes_hash(to);
    }

    /// B2 and U1 at the first SyncPod after the start: a pod whose sandbox is new runs its init
    /// containers again from the first; a pod whose containers' hash changed has them killed
    /// and started again ("Container … definition changed, will be restarted"). Returns whether
    /// this SyncPod's container work is done here.
    pub fn sandbox_or_hash(&mut self, cx: &mut Ctx, rt: &mut Runtime, p: usize) -> bool {
        if rt.reinit[p].is_some() {
            self.next_init(cx, rt, p);
            return true;
        }
        if !self.hash_changed {
            return false;
        }
        let mut restarted = false;
        for c in 0..rt.pods[p].len() {
            if !rt.pods[p][c].running {
                continue;
            }
            rt.stop(cx, p, c);
            cx.emit(
                Kind::ContainerExit,
                Some(p),
                Some(c),
                Value::None,
                Rule::U1,
                Actor::Kubelet,
            );
            rt.start_new(cx, p, c);
            cx.emit(
                Kind::ContainerRestart,
                Some(p),
                Some(c),
                Value::None,
                Rule::U1,
                Actor::Kubelet,
            );
            restarted = true;
        }
        // The status this SyncPod set was generated before the kill and the start, from the
        // PLEG's cache (`kubelet.go` SyncPod: generateAPIPodStatus, SetPodStatus, then
        // `containerRuntime.SyncPod`, whose `computePodActions` kills the changed container);
        // the PLEG's next relist sees the new instance and the sync loop's SyncPod writes it,
        // as after any restart (K3r).
        if restarted {
            let at = self.next_relist(cx.node, cx.now + 1);
            let gen = self.gen;
            cx.at(at, What::PlegStarted { gen, pod: p as u16 });
        }
        false
    }

    /// B2: SyncPod in a new sandbox starts the next init container (in order); once the last
    /// is done — an ordinary one exited 0, a sidecar running and, with a startup probe,
    /// started — the regular containers start.
    pub fn next_init(&mut self, cx: &mut Ctx, rt: &mut Runtime, p: usize) {
        let Some(mut i) = rt.reinit[p] else {
            return;
        };
        let specs = self.spec;
        let spec = &specs[p];
        let ni = spec.init_containers.len();
        while (i as usize) < ni {
            let c = i as usize;
            let r = rt.pods[p][c];
            match spec.role(c) {
                ContainerRole::Sidecar if r.running => {
                    // The next one waits until this sidecar has started (its startup probe
                    // passed, when it has one: `retry_init_waiters` calls back).
                    if spec.container(c).startup_probe.is_some() && !self.sidecar_started(rt, p, c)
                    {
                        rt.reinit[p] = Some(i);
                        return;
                    }
                    i += 1;
                }
                ContainerRole::Init
                    if r.finished_at.is_some_and(|f| f >= self.started_at) && !r.running =>
                {
                    i += 1;
                }
                _ if r.running => {
                    // An ordinary init container still running: its exit calls back.
                    rt.reinit[p] = Some(i);
                    return;
                }
                role => {
                    rt.start_new(cx, p, c);
                    cx.emit(
                        Kind::ContainerRestart,
                        Some(p),
                        Some(c),
                        Value::None,
                        Rule::B2,
                        Actor::Kubelet,
                    );
                    // SyncPod set the status it generated before it started the container
                    // (`kubelet.go` SyncPod, then `containerRuntime.SyncPod`); the PLEG's next
                    // relist sees it running and the sync loop's SyncPod writes it (as K3r).
                    let at = self.next_relist(cx.node, cx.now + 1);
                    let gen = self.gen;
                    cx.at(at, What::PlegStarted { gen, pod: p as u16 });
                    if role == ContainerRole::Init {
                        // It runs for its warmup_s, then exits 0.
                        let done = cx.now + ms(spec.container(c).warmup_s).max(1);
                        cx.at(
                            done,
                            What::InitDone {
                                pod: p as u16,
                                c: c as u8,
                            },
                        );
                    }
                    rt.reinit[p] = Some(i);
                    if role == ContainerRole::Sidecar && spec.container(c).startup_probe.is_some() {
                        return;
                    }
                    if role == ContainerRole::Init {
                        return;
                    }
                    i += 1;
                }
            }
        }
        rt.reinit[p] = None;
        for c in ni..spec.n_containers() {
            if !rt.pods[p][c].running {
                self.pods[p].waiting_init[c] = true;
            }
        }
        self.retry_init_waiters(cx, rt, p);
    }

    /// B2: the PLEG reports an init container's exit; SyncPod writes it and starts the next.
    pub fn init_next(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer, p: usize) {
        if api.pod(cx.node, p).removed || !self.pods[p].synced || self.pods[p].terminating {
            return;
        }
        if self.pod_work_waits(rt, cx.now) {
            self.held.push(Held::InitNext { pod: p as u16 });
            return;
        }
        self.sync_pod(cx, rt, api, p, Rule::B2);
        self.next_init(cx, rt, p);
    }

    /// B2: an ordinary init container exits 0; the PLEG reports it at its next relist.
    pub fn init_done(&mut self, cx: &mut Ctx, rt: &mut Runtime, p: usize, c: usize) {
        if rt.stop(cx, p, c) {
            cx.emit(
                Kind::ContainerExit,
                Some(p),
                Some(c),
                Value::None,
                Rule::B2,
                Actor::Runtime,
            );
        }
        if self.up {
            let at = self.next_relist(cx.node, cx.now);
            let gen = self.gen;
            cx.at(at, What::InitNext { gen, pod: p as u16 });
        }
    }
}
