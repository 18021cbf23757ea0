//! The sync loop and SyncPod: the first SyncPod after a start (K3), container restarts with
//! crash-loop back-off (K3r), PLEG exits (K5), probe-result handling (P6 kills), and the
//! termination of a deleted pod (K4, E1d). Work that needs the runtime while it does not answer
//! (R1), and all of it while the sync loop skips its iterations (R3), is held
//! (`restarts::Held`) until the loop runs again. Called by the cluster and by the prober
//! manager.
//!
//! Mirrors `pkg/kubelet/kubelet.go` (`syncLoopIteration`, `SyncPod`, `SyncTerminatingPod`),
//! `kuberuntime_manager.go` `computePodActions`, `pleg/generic.go` `relist`.

use super::restarts::Held;
use super::{backoff, Kubelet};
use crate::control_plane::api::ApiServer;
use crate::core::{ms, Ctx, What};
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, ExitReason, Kind, Ms, Outcome, ProbeKind, Value};

impl Kubelet<'_> {
    /// K3: `SyncPod` generates and sets the pod status (`generateAPIPodStatus` →
    /// `UpdatePodStatus`) *before* `probeManager.AddPod` creates the workers; then the runtime
    /// sync restarts exited containers. A deleted pod goes through `SyncTerminatingPod` (K4),
    /// which also sets the status (with no workers yet) before it kills the containers.
    ///
    /// Without the API server a kubelet that has just started has not listed its pods: the first
    /// SyncPod waits until the node reaches the API server again (`api_back`).
    ///
    /// Proposal CSP (#140704): `EnsureProbes` adopts the running containers (P1a) *before* the
    /// status is generated, the order the PR's tests expect (`kubelet.go` as read at a67e8a1f
    /// calls it after `SetPodStatus`: docs/MODEL.md); no `AddPod`.
    pub fn first_sync(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer, p: usize) {
        // A terminal (Failed) pod is neither admitted again nor started.
        if api.pod(cx.node, p).removed || api.pod(cx.node, p).failed {
            return;
        }
        if !self.reachable {
            self.pods[p].awaiting_api = true;
            return;
        }
        if self.sync_loop_skips(cx.now) {
            // R3: the pod list's ADD waits in the config channel.
            self.held.push(Held::FirstSync { pod: p as u16 });
            return;
        }
        let deleting = api.pod(cx.node, p).deleted_at.is_some();
        // A1: HandlePodAdditions admits the pod again before its worker's first SyncPod. It skips
        // admission only for a pod whose termination the pod worker already requested
        // (`podWorkers.IsPodTerminationRequested`) or whose phase is terminal; a kubelet that
        // has just started has no pod worker yet, so a pod that is being deleted in the API is
        // admitted like any other, and rejected if it no longer fits (v1.31.14 to
        // v1.38.0-beta.0 alike).
        let admitted = match self.admit(cx, rt, api, p) {
            Ok(rule) => rule,
            Err(()) => return,
        };
        self.pods[p].synced = true;
        // The pod object SyncPod works from, and AddPod hands to the workers: its status as the
        // informer holds it, before this SyncPod's write.
        let seen = api.pod(cx.node, p).status.clone();
        cx.emit(
            Kind::PodSync,
            Some(p),
            None,
            Value::None,
            if deleting {
                Rule::K4
            } else {
                admitted.unwrap_or(Rule::K3)
            },
            Actor::Kubelet,
        );
        let csp = self.profile.rules.container_scoped_probes;
        if csp && !deleting {
            self.ensure_probes(cx, rt, api, p);
        }
        self.sync_pod(cx, rt, api, p, Rule::K3);
        if api.pod(cx.node, p).deleted_at.is_some() {
            self.terminate(cx, rt, p);
            return;
        }
        self.pods[p].worker_pod = Some(seen);
        if !csp {
            self.add_pod(cx, p);
        }
        // B2: a new sandbox after a reboot; U1: containers whose hash changed.
        if self.sandbox_or_hash(cx, rt, p) {
            return;
        }
        // Runtime sync: a container that exited while nobody watched is restarted now; the
        // crash-loop back-off lived in the old kubelet's memory.
        let gen = self.gen;
        for c in 0..rt.pods[p].len() {
            // A completed ordinary init container stays completed (computeInitContainerActions
            // skips it once the pod has initialized).
            if !rt.pods[p][c].running && !self.spec[p].is_completed_init(c) {
                cx.at(
                    cx.now,
                    What::ContainerRestart {
                        gen,
                        pod: p as u16,
                        c: c as u8,
                        checked: false,
                    },
                );
            }
        }
    }

    /// K3r: `computePodActions` restarts an exited container (restartPolicy Always) unless
    /// `doBackOff` says it is in crash-loop back-off; then SyncPod tries again when that ends.
    #[allow(clippy::too_many_arguments)]
    pub fn container_restart(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        checked: bool,
    ) {
        if api.pod(cx.node, p).removed || self.pods[p].terminating || rt.pods[p][c].running {
            return;
        }
        if self.pod_work_waits(rt, cx.now) {
            // R1, R3: held until the runtime answers and the sync loop runs.
            self.held.push(Held::Exit {
                pod: p as u16,
                c: c as u8,
            });
            return;
        }
        // K3i: computePodActions looks at the regular containers only once the pod has
        // initialized. (A P6 kill restarts in the SyncPod whose snapshot still had the container
        // running: `checked`.)
        let role = self.spec[p].role(c);
        if !checked && role == crate::scenario::ContainerRole::Regular && !self.initialized(rt, p) {
            self.wait_for_init(cx, p, c);
            return;
        }
        if !checked {
            let exited_at = rt.pods[p][c].finished_at;
            if let Some(retry) = backoff::check(&mut self.pods[p].backoff[c], exited_at, cx.now) {
                self.restart_at(cx, retry, p, c, false);
                return;
            }
        }
        rt.start_new(cx, p, c);
        cx.emit(
            Kind::ContainerRestart,
            Some(p),
            Some(c),
            Value::None,
            Rule::K3r,
            Actor::Kubelet,
        );
        // SyncPod set the status it generated before the runtime's kill and start
        // (`kubelet.go` SyncPod: generateAPIPodStatus, SetPodStatus, then
        // containerRuntime.SyncPod); the PLEG's next relist sees the new container and the
        // sync loop's SyncPod writes it.
        let at = self.next_relist(cx.node, cx.now + 1);
        let gen = self.gen;
        cx.at(at, What::PlegStarted { gen, pod: p as u16 });
        if self.profile.rules.container_scoped_probes {
            // CSP: the start hook (`StartProbes` after CRI `StartContainer`).
            self.start_probes(cx, rt, api, p, c, false);
        }
        if role == crate::scenario::ContainerRole::Sidecar {
            self.retry_init_waiters(cx, rt, p);
        }
    }

    /// A SyncPod at `t` that starts the exited container (or finds it in back-off).
    fn restart_at(&self, cx: &mut Ctx, t: Ms, p: usize, c: usize, checked: bool) {
        let gen = self.gen;
        cx.at(
            t,
            What::ContainerRestart {
                gen,
                pod: p as u16,
                c: c as u8,
                checked,
            },
        );
    }

    /// K5: the PLEG's relist (every second) reports a container exit; SyncPod reports it and
    /// restarts it after the back-off.
    pub fn on_container_exit(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
    ) {
        if self.up && self.pods[p].synced && self.pod_work_waits(rt, cx.now) {
            // R1: the relist fails while the runtime does not answer; R3: the sync loop does
            // not take the PLEG's events. The exit is seen later.
            self.held.push(Held::Exit {
                pod: p as u16,
                c: c as u8,
            });
        } else if self.up && self.pods[p].synced {
            self.sync_pod(cx, rt, api, p, Rule::K5);
            if self.profile.rules.container_scoped_probes && !rt.pods[p][c].running {
                // CSP: SyncPod's EnsureProbes stops probing the exited container.
                self.stop_container_probes(p, c);
            }
            if !self.pods[p].terminating {
                self.restart_at(cx, cx.now, p, c, false);
            }
        }
    }

    /// The PLEG's relist sees a container SyncPod started (K3r): the sync loop's SyncPod
    /// writes the status with the new container.
    pub fn on_container_started(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
    ) {
        if self.up
            && self.pods[p].synced
            && !self.pods[p].terminating
            && !api.pod(cx.node, p).removed
        {
            self.sync_pod(cx, rt, api, p, Rule::K3r);
        }
    }

    /// `syncLoopIteration` handles a results-cache change: readiness/startup → status manager
    /// and pod sync; a liveness or startup Failure crossing its threshold → kill (P6).
    ///
    /// R3: while `runtimeErrors` is set the sync loop does not read the prober's channels: the
    /// change waits (the worker has cached it, and a liveness or startup worker is on hold) and
    /// is handled when the loop runs again. R1: a kill needs the runtime; while it does not
    /// answer, the SyncPod's `KillContainer` fails and is retried then.
    #[allow(clippy::too_many_arguments)]
    pub fn on_probe_result(
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
        let kills = matches!(kind, ProbeKind::Liveness | ProbeKind::Startup)
            && r == Outcome::Failure
            && rule == Rule::P5;
        if self.sync_loop_skips(cx.now) || (kills && !rt.up) {
            self.held.push(Held::probe(p, c, kind, cid, r, rule));
            return;
        }
        match kind {
            ProbeKind::Liveness | ProbeKind::Startup
                if r == Outcome::Failure
                    && rule == Rule::P5
                    && rt.pods[p][c].running
                    && rt.pods[p][c].instance == cid =>
            {
                // P6: computePodActions kills the container and starts a new one in the same
                // SyncPod; doBackOff reads the snapshot taken before the kill, whose newest
                // exited instance is the previous one.
                let retry = backoff::check(
                    &mut self.pods[p].backoff[c],
                    rt.pods[p][c].finished_at,
                    cx.now,
                );
                rt.stop(cx, p, c);
                if self.profile.rules.container_scoped_probes {
                    // CSP: the kill hooks (`StopProbes(id, Liveness|Startup)`, then `All`).
                    self.stop_container_probes(p, c);
                }
                cx.emit(
                    Kind::ContainerExit,
                    Some(p),
                    Some(c),
                    Value::Exit(ExitReason::ProbeFailed(kind)),
                    Rule::P6,
                    Actor::Kubelet,
                );
                match retry {
                    // Killed and started in one SyncPod: the next status already shows the new
                    // container (no status in between reports it stopped).
                    None if !self.pods[p].terminating => {
                        self.container_restart(cx, rt, api, p, c, true)
                    }
                    _ => {
                        self.sync_pod(cx, rt, api, p, Rule::P6);
                        if let (Some(t), false) = (retry, self.pods[p].terminating) {
                            self.restart_at(cx, t, p, c, false);
                        }
                    }
                }
            }
            ProbeKind::Startup => {
                // syncLoopIteration: SetContainerStartup, then handleProbeSync (a pod sync).
                self.set_container_startup(cx, api, p, c, cid, r == Outcome::Success, rule);
                self.sync_pod(cx, rt, api, p, rule);
                // handleProbeSync's SyncPod: a sidecar that has started lets the pod initialize
                // (in a new sandbox, B2: the next init container starts).
                if rt.reinit[p].is_some() {
                    self.next_init(cx, rt, p);
                }
                self.retry_init_waiters(cx, rt, p);
            }
            ProbeKind::Readiness => self.sync_pod(cx, rt, api, p, rule),
            ProbeKind::Liveness => {}
        }
    }

    /// The pod watch shows a deletion timestamp: a synced pod starts terminating; a terminal
    /// one no pod worker knows (rejected at admission) is removed at the next housekeeping (A2).
    /// Without the API server the watch shows nothing; `api_back` delivers it.
    pub fn on_pod_deleted(&mut self, cx: &mut Ctx, rt: &Runtime, api: &ApiServer, p: usize) {
        if self.up && self.reachable && self.pods[p].synced {
            if self.sync_loop_skips(cx.now) {
                // R3: the update waits in the config channel; the pod worker hears of it when
                // the sync loop runs again.
                self.held.push(Held::Terminate { pod: p as u16 });
            } else {
                self.terminate(cx, rt, p);
            }
        } else if self.up && self.reachable {
            self.schedule_terminal_cleanup(cx, api, p, cx.now);
        }
    }

    /// The kubelet has handed the pod's deletion to its pod worker (P7 reads this): it is
    /// terminating it, or the update is not held in the config channel.
    pub fn deletion_seen(&self, p: usize) -> bool {
        self.pods[p].terminating
            || (self.reachable
                && !self
                    .held
                    .iter()
                    .any(|h| matches!(h, Held::Terminate { pod } if *pod as usize == p)))
    }

    /// K4: the pod worker runs `SyncTerminatingPod`. R1: without the runtime its status read
    /// and `StopContainer` fail; the pod worker retries when the runtime answers (and the sync
    /// loop runs), with the pod's whole grace.
    pub(super) fn terminate(&mut self, cx: &mut Ctx, rt: &Runtime, p: usize) {
        if self.pod_work_waits(rt, cx.now) {
            self.held.push(Held::Terminate { pod: p as u16 });
            return;
        }
        if !self.pods[p].terminating {
            self.pods[p].terminating = true;
            if self.profile.rules.container_scoped_probes {
                // CSP: `StopLivenessAndStartup(pod)` (no P7); readiness probes on.
                self.stop_liveness_and_startup(p);
            }
        } else if self.pods[p].term_deadline.is_some() {
            return;
        }
        let gen = self.gen;
        // K4g: `killContainer` gives each container at least `minimumGracePeriodInSeconds`.
        let grace = ms(self.spec[p].kill_grace_s());
        let done = cx.now.saturating_add(grace);
        self.pods[p].term_deadline = Some(done);
        cx.at(done, What::TerminationDone { gen, pod: p as u16 });
    }

    /// K4 ends: the containers are stopped; the pod object is removed (E1d).
    pub fn termination_done(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
    ) {
        // A kill the runtime's stop broke off (R1) is done again later.
        if api.pod(cx.node, p).removed || self.pods[p].term_deadline != Some(cx.now) {
            return;
        }
        self.pods[p].term_deadline = None;
        // K4g when the pod's grace was raised to the kubelet's minimum.
        let rule = if self.spec[p].termination_grace_s < self.spec[p].kill_grace_s() {
            Rule::K4g
        } else {
            Rule::K4
        };
        for c in 0..rt.pods[p].len() {
            if rt.pods[p][c].running {
                rt.stop(cx, p, c);
                if self.profile.rules.container_scoped_probes {
                    self.stop_container_probes(p, c);
                }
                cx.emit(
                    Kind::ContainerExit,
                    Some(p),
                    Some(c),
                    Value::None,
                    rule,
                    Actor::Kubelet,
                );
            }
        }
        self.sync_pod(cx, rt, api, p, Rule::K4);
        api.remove_pod(cx, p);
    }
}
