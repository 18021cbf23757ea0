//! A probe worker: one goroutine per container × probe type. Owns its ticker, its run of equal
//! results (`resultRun`), the container ID it last saw, whether it is on hold, and its manual
//! trigger channel (room for one). Called by the cluster on `ProbeTick` / `ProbeDone`.
//!
//! Mirrors `pkg/kubelet/prober/worker.go`: `run` (initial sleep, ticker, `manualTriggerCh`),
//! `doProbe` (P1, P1k, P3, P4, P7) and the threshold logic (P5). Go's `time.Ticker` keeps one
//! tick for a slow receiver: a tick that arrives while `doProbe` still runs is taken as soon as
//! it returns, later ones are dropped; `Reset` (after a manual trigger) discards it.

use super::AWAKE;
use crate::control_plane::api::ApiServer;
use crate::core::{ms, Ctx, What};
use crate::node::kubelet::Kubelet;
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Ms, Outcome, ProbeKind, ProbeValue, Value};

/// `newWorker`'s initial result (P1).
fn initial_result(kind: ProbeKind) -> Outcome {
    match kind {
        ProbeKind::Readiness => Outcome::Failure,
        ProbeKind::Liveness => Outcome::Success,
        ProbeKind::Startup => Outcome::Unknown,
    }
}

impl Kubelet<'_> {
    /// The next run of a worker's loop; `seq` identifies its current ticker.
    pub fn schedule_tick(
        &self,
        cx: &mut Ctx,
        t: Ms,
        p: usize,
        c: usize,
        kind: ProbeKind,
        seq: u32,
    ) {
        let gen = self.gen;
        cx.at(
            t,
            What::ProbeTick {
                gen,
                pod: p as u16,
                c: c as u8,
                kind,
                seq,
            },
        );
    }

    /// Whether a tick belongs to its worker's current ticker; `probe_tick` ignores any other
    /// (among them the one tick a worker going to sleep leaves behind). A fleet's run-ahead
    /// checks it (`cluster/eager.rs`).
    #[cfg(not(feature = "small-code"))]
    pub fn tick_is_current(&self, p: usize, c: usize, kind: ProbeKind, seq: u32) -> bool {
        self.probe(p, c, kind).is_some()
            && self.pods[p]
                .probes
                .worker(c, kind)
                .is_some_and(|w| w.seq == seq)
    }

    /// P2 `worker.run`: a tick of the worker's ticker (or an immediate-probe request).
    #[allow(clippy::too_many_arguments)]
    pub fn probe_tick(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
        seq: u32,
    ) {
        let Some(pr) = self.probe(p, c, kind) else {
            return;
        };
        let period = pr.period_s as Ms * 1000;
        let Some(w) = self.pods[p].probes.worker_mut(c, kind) else {
            return;
        };
        // A tick of a ticker that was reset or stopped, or of a pod the API server has removed,
        // changes nothing (the worker's key first: a stale tick needs no look at the API's pod).
        if w.seq != seq || api.pod(cx.node, p).removed {
            return;
        }
        w.first_done = true;
        w.next_tick = cx.now + period;
        if w.busy {
            // The ticker keeps this tick until doProbe returns.
            w.pending_tick = true;
            self.schedule_tick(cx, cx.now + period, p, c, kind, seq);
            return;
        }
        self.schedule_tick(cx, cx.now + period, p, c, kind, seq);
        self.loop_body(cx, rt, api, p, c, kind);
    }

    /// One iteration of `run`'s loop: `doProbe`, and if it returned at once, the `select`.
    fn loop_body(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
    ) {
        self.set_busy(p, c, kind, true);
        if !self.do_probe(cx, rt, api, p, c, kind) {
            self.set_busy(p, c, kind, false);
            self.select(cx, rt, api, p, c, kind);
        }
    }

    fn set_busy(&mut self, p: usize, c: usize, kind: ProbeKind, busy: bool) {
        if let Some(w) = self.pods[p].probes.worker_mut(c, kind) {
            w.busy = busy;
        }
    }

    /// After `doProbe` returns, the worker's `select`: a buffered manual trigger (probe again now,
    /// `Reset` the ticker, which discards a held tick), else a held tick (probe again now).
    fn select(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
    ) {
        let Some(w) = self.pods[p].probes.worker_mut(c, kind) else {
            return;
        };
        if w.pending_trigger {
            w.pending_trigger = false;
            w.pending_tick = false;
            // A reset ticker is a running one.
            w.dormant = AWAKE;
            w.seq += 1;
            let seq = w.seq;
            self.schedule_tick(cx, cx.now, p, c, kind, seq);
        } else if w.pending_tick {
            w.pending_tick = false;
            self.loop_body(cx, rt, api, p, c, kind);
        }
    }

    /// UpdatePodStatus asks a readiness worker with no result for an immediate probe: a
    /// non-blocking send into `manualTriggerCh` (room for one). A worker blocked in its select
    /// takes it at once.
    pub fn trigger(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
    ) {
        let kind = ProbeKind::Readiness;
        let idle = match self.pods[p].probes.worker_mut(c, kind) {
            Some(w) if !w.pending_trigger => {
                w.pending_trigger = true;
                w.first_done && !w.busy
            }
            _ => false,
        };
        if idle {
            self.select(cx, rt, api, p, c, kind);
        }
    }

    /// `doProbe` (P1, P1k, P3, P4, P7): returns whether a probe is now executing.
    fn do_probe(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
    ) -> bool {
        let Some(pr) = self.probe(p, c, kind) else {
            return false;
        };
        let (exec, timeout) = (ms(pr.exec_s), pr.timeout_s as Ms * 1000);
        if self.profile.rules.container_scoped_probes {
            // Proposal CSP (#140704), `containerBoundWorker.doProbe`: the worker probes the
            // container instance it is bound to; no status-manager lookup, initial result (it
            // was written when the worker was created), initialDelaySeconds gate (it delayed the
            // first tick) or Started gate (the worker exists only when it may probe). A stopped
            // instance is not probed: the next SyncPod's EnsureProbes, or the kill hook, stops
            // the worker.
            let r = &rt.pods[p][c];
            let bound = self.pods[p]
                .probes
                .worker(c, kind)
                .and_then(|w| w.container_id);
            if !r.running || bound != Some(r.instance) || self.probe_thrown_away(cx, rt, p, c, kind)
            {
                return false;
            }
            self.start_probe(cx, rt, p, c, kind, exec, timeout);
            return true;
        }
        let initial_delay = pr.initial_delay_s as Ms;
        // doProbe reads the status manager's cached status.
        let Some(cs) = self.pods[p].status.as_ref().map(|s| s.cs[c]) else {
            return false;
        };
        if cs.instance == crate::node::kubelet::status::generate::NO_ID {
            // "Probe target container not found": a status without a container ID (the
            // runtime has had no instance since the node booted) gives no result.
            return false;
        }
        let started_at = rt.pods[p][c].started_at;
        let predates = self.predates(started_at);
        let rules = self.profile.rules;
        let new_container = match self.pods[p].probes.worker_mut(c, kind) {
            Some(w) if w.container_id != Some(cs.instance) => {
                w.container_id = Some(cs.instance);
                w.on_hold = false;
                true
            }
            Some(_) => false,
            None => return false,
        };
        if new_container {
            // #141487 (main): `canInheritProbeState(w.pod.Status.ContainerStatuses, …)` reads the
            // pod object the worker was created with (AddPod, at the first SyncPod: the API status
            // the kubelet's informer held then, before that SyncPod's write), not the API's status
            // now. Read here only, where it is used (a fleet's probe ticks do not touch it).
            let same_in_api = self.pods[p]
                .worker_pod
                .as_ref()
                .is_some_and(|s| s.cs[c].instance == cs.instance);
            let skip_initial = rules.skip_initial_result_for_old_containers
                && (!rules.restart_inherit_requires_same_container || same_in_api);
            let initial = initial_result(kind);
            // P1s, #137146 / #137885 (gate off, 1.35.4 and later): a restartable init container's
            // startup result is seeded Success when its status says Started=true, before the
            // initial value (which, for a container that does not predate the kubelet, then
            // overwrites it).
            if rules.seed_sidecar_startup_from_api
                && kind == ProbeKind::Startup
                && self.spec[p].role(c) == crate::scenario::ContainerRole::Sidecar
                && cs.started == Some(true)
            {
                self.set_result_in_do_probe(
                    cx,
                    p,
                    c,
                    kind,
                    cs.instance,
                    Outcome::Success,
                    Rule::P1s,
                );
            }
            if skip_initial && cs.running && predates {
                // P1k (isRestart): the event says what was *not* written (threshold 0).
                cx.emit(
                    Kind::ProbeResult,
                    Some(p),
                    Some(c),
                    Value::Probe(ProbeValue {
                        probe: kind,
                        result: initial,
                        run: 0,
                        threshold: 0,
                    }),
                    Rule::P1k,
                    Actor::Kubelet,
                );
            } else {
                self.set_result_in_do_probe(cx, p, c, kind, cs.instance, initial, Rule::P1);
            }
        }
        if self.pods[p]
            .probes
            .worker(c, kind)
            .is_none_or(|w| w.on_hold)
        {
            return false;
        }
        if !cs.running {
            // doProbe: a non-running container is a Failure.
            self.set_result_in_do_probe(cx, p, c, kind, cs.instance, Outcome::Failure, Rule::P4);
            return false;
        }
        // The worker's pod shows the deletion once the kubelet has taken it from its watch (not
        // while the node cannot reach the API server, nor while the sync loop skips its
        // iterations, R3, unless the kubelet is already terminating the pod).
        let deleting = api.pod(cx.node, p).deleted_at.is_some() && self.deletion_seen(p);
        if deleting && kind != ProbeKind::Readiness {
            // P7, graceful deletion: liveness and startup report Success.
            self.set_result_in_do_probe(cx, p, c, kind, cs.instance, Outcome::Success, Rule::P7);
            return false;
        }
        // P3: initialDelaySeconds counted from StartedAt (whole seconds).
        if (cx.now - started_at) / 1000 < initial_delay {
            return false;
        }
        // P4: readiness/liveness wait for Started; startup stops once Started.
        let started = cs.started == Some(true);
        if (kind == ProbeKind::Startup) == started || self.probe_thrown_away(cx, rt, p, c, kind) {
            return false;
        }
        self.start_probe(cx, rt, p, c, kind, exec, timeout);
        true
    }

    /// The probe runs: it returns (`ProbeDone`) after `exec_s`, or fails at the timeout.
    #[allow(clippy::too_many_arguments)]
    fn start_probe(
        &self,
        cx: &mut Ctx,
        rt: &Runtime,
        p: usize,
        c: usize,
        kind: ProbeKind,
        exec: Ms,
        timeout: Ms,
    ) {
        let answer = rt.probe_answer(p, c, kind, cx.now);
        let refused = self.grpc_refused(rt, p, c, kind, cx.now);
        let (dur, success) = match refused {
            Some(d) => (d.min(timeout), false),
            None if exec > timeout => (timeout, false),
            None => (exec, answer),
        };
        let gen = self.gen;
        let seq = self.pods[p].probes.worker(c, kind).map_or(0, |w| w.seq);
        cx.at(
            cx.now + dur,
            What::ProbeDone {
                gen,
                pod: p as u16,
                c: c as u8,
                kind,
                success,
                seq,
            },
        );
    }

    /// P5: consecutive results counted in the worker; cached once the threshold is reached.
    #[allow(clippy::too_many_arguments)]
    pub fn probe_done(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
        success: bool,
        seq: u32,
    ) {
        let Some(pr) = self.probe(p, c, kind) else {
            return;
        };
        let csp = self.profile.rules.container_scoped_probes;
        let result = if success {
            Outcome::Success
        } else {
            Outcome::Failure
        };
        let threshold = if success {
            pr.success_threshold
        } else {
            pr.failure_threshold
        };
        let Some(w) = self.pods[p].probes.worker_mut(c, kind) else {
            return;
        };
        if csp && (w.seq != seq || !w.busy) {
            // CSP: the probe of a worker that was stopped meanwhile (`stop()` cancels it).
            return;
        }
        if w.last == result {
            w.run = w.run.saturating_add(1);
        } else {
            w.last = result;
            w.run = 1;
        }
        let run = w.run;
        let cid = w.container_id.unwrap_or(0);
        cx.emit(
            Kind::Probe,
            Some(p),
            Some(c),
            Value::Probe(ProbeValue {
                probe: kind,
                result,
                run,
                threshold,
            }),
            Rule::P2,
            Actor::Kubelet,
        );
        if run >= threshold && csp {
            // CSP: the startup worker exits after its first thresholded result, the liveness
            // worker after a Failure (before the result is handled: a kill starts the next
            // instance's workers); a passing startup probe starts readiness and liveness.
            let exits = kind == ProbeKind::Startup
                || (kind == ProbeKind::Liveness && result == Outcome::Failure);
            let adopted = self.pods[p]
                .probes
                .worker(c, kind)
                .is_some_and(|w| w.adopted);
            if exits {
                self.pods[p].probes.workers[c][kind.index()] = None;
            }
            self.set_result(cx, rt, api, p, c, kind, cid, result, Rule::P5);
            if kind == ProbeKind::Startup && result == Outcome::Success {
                self.on_startup_succeeded(cx, rt, api, p, c, cid, adopted);
            }
            if exits {
                return;
            }
        } else if run >= threshold {
            if (kind == ProbeKind::Liveness && result == Outcome::Failure)
                || kind == ProbeKind::Startup
            {
                if let Some(w) = self.pods[p].probes.worker_mut(c, kind) {
                    w.on_hold = true;
                    w.run = 0;
                }
            }
            self.set_result(cx, rt, api, p, c, kind, cid, result, Rule::P5);
        }
        // doProbe returns; the worker's select takes a buffered trigger or a held tick.
        self.set_busy(p, c, kind, false);
        if self.elide && !csp && self.quiet(rt, p, c, kind, cx.now) {
            let w = self.pods[p]
                .probes
                .worker_mut(c, kind)
                .expect("worker exists");
            w.dormant = w.next_tick;
            w.seq += 1;
            return;
        }
        self.select(cx, rt, api, p, c, kind);
    }

    /// The first tick `Cluster::new` schedules for this worker, at `t`, on a node that nothing
    /// else touches until the probe returns: whether `probe_tick` starts a probe that passes and
    /// `probe_done` then puts the worker to sleep (`quiet`) with nothing else changed (no initial
    /// result: the worker has seen this container; P5 writes the Success already cached); and
    /// if so, how long the probe runs. The checks of `probe_tick`, `do_probe`, `probe_done` and
    /// `quiet`, made on the state they will see (this one: nothing else runs meanwhile).
    #[cfg(not(feature = "small-code"))]
    #[allow(clippy::too_many_arguments)]
    pub fn first_tick_sleeps(
        &self,
        rt: &Runtime,
        api: &ApiServer,
        node: crate::trace::NodeId,
        p: usize,
        c: usize,
        kind: ProbeKind,
        t: Ms,
    ) -> Option<Ms> {
        if self.profile.rules.container_scoped_probes {
            // Proposal CSP: its workers do not sleep (see `probe_done`).
            return None;
        }
        let pr = self.probe(p, c, kind)?;
        let w = self.pods[p].probes.worker(c, kind)?;
        let cs = self.pods[p].status.as_ref()?.cs[c];
        let r = &rt.pods[p][c];
        let a = api.pod(node, p);
        let exec = ms(pr.exec_s);
        // What `quiet` asks when the probe returns, and what the tick and the probe need.
        let asleep = self.elide
            && self.up
            && self.gen == 0
            && w.seq == 0
            && w.dormant == AWAKE
            && !w.busy
            && w.container_id == Some(cs.instance)
            && r.instance == cs.instance
            && cs.running
            && cs.started == Some(true)
            && !a.removed
            && a.deleted_at.is_none()
            && (t - r.started_at) / 1000 >= pr.initial_delay_s as Ms
            && rt.probe_answer(p, c, kind, t)
            && self.quiet(rt, p, c, kind, t + exec);
        asleep.then_some(exec)
    }

    /// Nothing a tick could change: the last probes passed and the Success is cached for this
    /// container, nothing is buffered, the probe is shorter than its period, and the container
    /// still answers (readiness and liveness only).
    fn quiet(&self, rt: &Runtime, p: usize, c: usize, kind: ProbeKind, now: Ms) -> bool {
        let Some(pr) = self.probe(p, c, kind) else {
            return false;
        };
        let Some(w) = self.pods[p].probes.worker(c, kind) else {
            return false;
        };
        let exec = ms(pr.exec_s);
        let cid = w.container_id.unwrap_or(0);
        kind != ProbeKind::Startup
            && w.last == Outcome::Success
            && w.run >= pr.success_threshold
            && !w.pending_trigger
            && !w.pending_tick
            && !w.on_hold
            && exec <= pr.timeout_s as Ms * 1000
            && exec < pr.period_s as Ms * 1000
            && rt.pods[p][c].instance == cid
            && self.pods[p].probes.results.get(c, kind, cid) == Some(Outcome::Success)
            && rt.probe_answer(p, c, kind, now)
    }

    /// The pod's containers changed: its sleeping workers resume their ticker where Kubernetes'
    /// would be — between ticks, or in the middle of a probe started at the last tick (which
    /// passed: nothing had changed then).
    pub fn wake(&mut self, cx: &mut Ctx, p: usize) {
        let gen = self.gen;
        for c in 0..self.pods[p].probes.workers.len() {
            for kind in ProbeKind::ALL {
                let Some(pr) = self.probe(p, c, kind) else {
                    continue;
                };
                let (period, exec) = (pr.period_s as Ms * 1000, ms(pr.exec_s));
                let Some(w) = self.pods[p].probes.worker_mut(c, kind) else {
                    continue;
                };
                let t0 = std::mem::replace(&mut w.dormant, AWAKE);
                if t0 == AWAKE {
                    continue;
                }
                let now = cx.now;
                let next = if now <= t0 {
                    t0
                } else {
                    let last = t0 + (now - t0) / period * period;
                    if last == now {
                        now
                    } else {
                        if now < last + exec {
                            w.busy = true;
                            cx.at(
                                last + exec,
                                What::ProbeDone {
                                    gen,
                                    pod: p as u16,
                                    c: c as u8,
                                    kind,
                                    success: true,
                                    seq: w.seq,
                                },
                            );
                        }
                        last + period
                    }
                };
                let seq = w.seq;
                self.schedule_tick(cx, next, p, c, kind, seq);
            }
        }
    }
}
