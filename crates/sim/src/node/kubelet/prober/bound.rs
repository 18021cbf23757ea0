//! The ContainerScopedProbes proposal's prober manager (kubernetes PR #140704, unmerged; read at
//! branch commit 1b5df269, manager @ 5ab9c23f: docs/research/csp.md). Runs only under
//! `Rules::container_scoped_probes` (profile `KubeletProfile::csp`), in place of `AddPod`
//! (`manager.rs`) and of the worker's P1/P1k/P1s (`worker.rs`): workers are bound to one
//! container ID, created by the start hook or by `EnsureProbes`, and stopped with the container.
//! Called by SyncPod (`sync.rs`: `ensure_probes`, the start and kill hooks) and by a worker whose
//! startup probe passed (`on_startup_succeeded`).
//!
//! Mirrors `pkg/kubelet/prober/container_bound_manager.go` (`EnsureProbes`, `adoptLocked`,
//! `startProbesLocked`, `ensureWorkerLocked`, `onStartupSucceeded`, `StopProbes`,
//! `stopContainerWorkersLocked`, `StopLivenessAndStartup`) and `container_bound_worker.go`
//! `firstProbeDelay`. The model's own: `tracks` reads the workers and the results cache instead
//! of the `containers` map (the same answer here: a probed container keeps a worker or a result
//! for its ID until it is stopped).

use super::{probe_spec, Worker};
use crate::control_plane::api::ApiServer;
use crate::core::rng::{draw, Purpose};
use crate::core::Ctx;
use crate::node::kubelet::Kubelet;
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Ms, Outcome, ProbeKind, ProbeValue, Value};

/// `initialValue`: what a new worker writes for a container instance with no result yet.
fn initial_value(kind: ProbeKind) -> Outcome {
    match kind {
        ProbeKind::Readiness => Outcome::Failure,
        ProbeKind::Liveness => Outcome::Success,
        ProbeKind::Startup => Outcome::Unknown,
    }
}

/// The ticker key of a worker bound to container instance `cid` (ticks of a stopped worker, or
/// of the previous instance's, do not drive it).
pub fn bound_seq(cid: u32) -> u32 {
    cid << 16
}

impl Kubelet<'_> {
    /// `tracksContainerLocked`: the prober probes (or has probed) container `c` as `cid`.
    fn tracks(&self, p: usize, c: usize, cid: u32) -> bool {
        let pp = &self.pods[p].probes;
        ProbeKind::ALL.into_iter().any(|k| {
            pp.worker(c, k).is_some_and(|w| w.container_id == Some(cid))
                || pp.results.get(c, k, cid).is_some()
        })
    }

    /// `EnsureProbes`, called by SyncPod: for every container with a probe (regular containers
    /// and sidecars), stop probing one that does not run; make sure a tracked one has its
    /// workers; adopt an untracked running one (after a kubelet restart, P1a).
    pub fn ensure_probes(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer, p: usize) {
        for c in 0..rt.pods[p].len() {
            let spec = self.spec[p].container(c);
            if ProbeKind::ALL
                .iter()
                .all(|&k| probe_spec(spec, k).is_none())
            {
                continue;
            }
            let r = rt.pods[p][c];
            if !r.running {
                self.stop_container_probes(p, c);
            } else if self.tracks(p, c, r.instance) {
                self.start_probes(cx, rt, api, p, c, false);
            } else {
                self.adopt(cx, rt, api, p, c);
            }
        }
    }

    /// P1a `adoptLocked`: seed the results of a running container the prober does not track
    /// from its API container status, trusted only when it names this container ID: startup
    /// Success if Started=true, else Unknown; readiness Success if Ready, else Failure; liveness
    /// Success. `Seed` sends no update (no pod sync). Then start its workers, jittered.
    fn adopt(&mut self, cx: &mut Ctx, rt: &mut Runtime, api: &mut ApiServer, p: usize, c: usize) {
        let cid = rt.pods[p][c].instance;
        let reported = api
            .pod(cx.node, p)
            .status
            .cs
            .get(c)
            .copied()
            .filter(|s| s.instance == cid);
        for kind in ProbeKind::ALL {
            if self.probe(p, c, kind).is_none() {
                continue;
            }
            let ok = match kind {
                ProbeKind::Startup => reported.is_some_and(|s| s.started == Some(true)),
                ProbeKind::Readiness => reported.is_some_and(|s| s.ready),
                ProbeKind::Liveness => true,
            };
            let seed = match (ok, kind) {
                (true, _) => Outcome::Success,
                (false, ProbeKind::Startup) => Outcome::Unknown,
                (false, _) => Outcome::Failure,
            };
            self.pods[p].probes.results.set(c, kind, cid, seed);
            cx.emit(
                Kind::ProbeResult,
                Some(p),
                Some(c),
                Value::Probe(ProbeValue {
                    probe: kind,
                    result: seed,
                    run: 0,
                    threshold: 0,
                }),
                Rule::P1a,
                Actor::Kubelet,
            );
        }
        self.start_probes(cx, rt, api, p, c, true);
    }

    /// `startProbesLocked`, also the start hook (`StartProbes` after CRI `StartContainer`):
    /// purge another instance's results and workers, then start the startup worker, or, with no
    /// startup probe or startup already Success, the readiness and liveness workers.
    pub fn start_probes(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        adopted: bool,
    ) {
        let cid = rt.pods[p][c].instance;
        let pp = &mut self.pods[p].probes;
        for kind in ProbeKind::ALL {
            pp.results.remove_unless(c, kind, Some(cid));
            let slot = &mut pp.workers[c][kind.index()];
            if slot.is_some_and(|w| w.container_id != Some(cid)) {
                *slot = None;
            }
        }
        if self.spec[p].container(c).startup_probe.is_some()
            && self.pods[p].probes.results.get(c, ProbeKind::Startup, cid) != Some(Outcome::Success)
        {
            self.ensure_worker(cx, rt, api, p, c, ProbeKind::Startup, adopted);
            return;
        }
        self.ensure_worker(cx, rt, api, p, c, ProbeKind::Readiness, adopted);
        self.ensure_worker(cx, rt, api, p, c, ProbeKind::Liveness, adopted);
    }

    /// `ensureWorkerLocked`: a worker for this probe type bound to the running instance, unless
    /// one exists or a liveness/startup Failure already doomed the instance. A worker that finds
    /// no result writes its initial value (P1, `Set`: an update). Its first probe comes at
    /// `max(startedAt + initialDelaySeconds − now, 0)`, plus `U[0, period)` for an adopted
    /// container (`firstProbeDelay`; the draw of `AddPod`'s jitter, keyed per worker).
    #[allow(clippy::too_many_arguments)]
    fn ensure_worker(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        kind: ProbeKind,
        adopted: bool,
    ) {
        let Some(pr) = self.probe(p, c, kind) else {
            return;
        };
        let (period, initial_delay) = (pr.period_s as Ms * 1000, pr.initial_delay_s as Ms * 1000);
        let r = rt.pods[p][c];
        let cid = r.instance;
        if self.pods[p]
            .probes
            .worker(c, kind)
            .is_some_and(|w| w.container_id == Some(cid))
        {
            return;
        }
        let cached = self.pods[p].probes.results.get(c, kind, cid);
        if cached == Some(Outcome::Failure) && kind != ProbeKind::Readiness {
            // isTerminalResult: never re-probe a doomed instance.
            return;
        }
        if cached.is_none() {
            self.set_result(cx, rt, api, p, c, kind, cid, initial_value(kind), Rule::P1);
        }
        let mut delay = (r.started_at + initial_delay - cx.now).max(0);
        if adopted {
            let key = [
                ((self.restart_idx as u64) << 32) | p as u64,
                c as u64,
                kind as u64,
            ];
            delay += (draw(self.seed, Purpose::WorkerJitter, cx.node, key) * period as f64) as Ms;
        }
        let seq = bound_seq(cid);
        self.pods[p].probes.workers[c][kind.index()] = Some(Worker {
            container_id: Some(cid),
            seq,
            adopted,
            ..Worker::new()
        });
        self.schedule_tick(cx, cx.now + delay, p, c, kind, seq);
    }

    /// `onStartupSucceeded`: the startup worker of `cid` passed and exits; unless the container
    /// was stopped or replaced meanwhile, its readiness and liveness workers start now, adopted
    /// if it was.
    #[allow(clippy::too_many_arguments)]
    pub fn on_startup_succeeded(
        &mut self,
        cx: &mut Ctx,
        rt: &mut Runtime,
        api: &mut ApiServer,
        p: usize,
        c: usize,
        cid: u32,
        adopted: bool,
    ) {
        let r = rt.pods[p][c];
        let current = r.running
            && r.instance == cid
            && !self.pods[p].terminating
            && self.pods[p].probes.results.get(c, ProbeKind::Startup, cid)
                == Some(Outcome::Success);
        if current {
            self.ensure_worker(cx, rt, api, p, c, ProbeKind::Readiness, adopted);
            self.ensure_worker(cx, rt, api, p, c, ProbeKind::Liveness, adopted);
        }
    }

    /// `StopProbes(id, All)` after a kill, and `stopContainerWorkersLocked` for a container
    /// `EnsureProbes` finds not running: its workers stop and its results are dropped.
    pub fn stop_container_probes(&mut self, p: usize, c: usize) {
        let pp = &mut self.pods[p].probes;
        pp.workers[c] = [None, None, None];
        for kind in ProbeKind::ALL {
            pp.results.remove_unless(c, kind, None);
        }
    }

    /// `StopLivenessAndStartup(pod)` at SyncTerminatingPod: liveness and startup workers stop
    /// (results kept); readiness keeps probing until the container stops (instead of P7).
    pub fn stop_liveness_and_startup(&mut self, p: usize) {
        for w in self.pods[p].probes.workers.iter_mut() {
            w[ProbeKind::Startup.index()] = None;
            w[ProbeKind::Liveness.index()] = None;
        }
    }
}
