//! The kubelet of one node: its process lifecycle and lease (`lifecycle`), the sync loop and
//! SyncPod (`sync`), the prober (`prober`) and the status manager (`status`). Everything here is
//! kubelet memory and is lost when the process stops (K1). Called by the cluster's dispatch;
//! writes API objects only through the API server.
//!
//! Mirrors `pkg/kubelet/kubelet.go` (`syncLoopIteration`, `SyncPod`, `SyncTerminatingPod`), with
//! the behaviour of the release chosen by the kubelet profile (`crate::profile`).

pub mod admission;
pub mod backoff;
pub mod init;
pub mod lifecycle;
pub mod prober;
pub mod restarts;
pub mod status;
pub mod sync;

use crate::control_plane::api::Status;
use crate::core::Few;
use crate::profile::KubeletProfile;
use crate::scenario::{Pod, Probe};
use crate::trace::Ms;
use prober::PodProbes;

/// `kubeletRestartGracePeriod`: a container that started more than 10 s before this kubelet
/// predates it (`pkg/kubelet/prober/worker.go`, `prober_manager.go`).
pub const KUBELET_RESTART_GRACE: Ms = 10_000;
/// `relistPeriod` of the generic PLEG.
pub const PLEG_RELIST: Ms = 1_000;
/// When the story starts the kubelet has run for a day.
pub const KUBELET_BORN: Ms = -86_400_000;

/// Kubelet memory for one pod.
#[derive(Clone, Debug)]
pub struct KPod {
    /// The first SyncPod of this kubelet process has run.
    pub synced: bool,
    /// SyncTerminatingPod is stopping the containers.
    pub terminating: bool,
    /// The status manager's cached status (`podStatuses`).
    pub status: Option<Status>,
    pub probes: PodProbes,
    /// Crash-loop back-off entry per container.
    pub backoff: Few<Option<backoff::Entry>, 1>,
    /// Regular containers SyncPod did not start because the pod has not initialized (K3i).
    pub waiting_init: Few<bool, 4>,
    /// The pod object `probeManager.AddPod` gave this pod's workers (`worker.pod`, read-only):
    /// its status as the kubelet's pod informer held it at the first SyncPod, before that
    /// SyncPod's own write. Main's #141487 check (P1k) reads it.
    pub worker_pod: Option<Status>,
    /// The first SyncPod came while the node could not reach the API server: a kubelet that
    /// started then has not listed its pods yet; it syncs this one when the API is back.
    pub awaiting_api: bool,
    /// Admission at this process's start turned the pod away (A1): no pod worker, no SyncPod.
    pub rejected: bool,
    /// K4: when the containers of the pod SyncTerminatingPod is stopping are gone (`None`: no
    /// kill in flight, e.g. one the runtime's stop broke off, R1).
    pub term_deadline: Option<Ms>,
}

impl KPod {
    /// What a just-started kubelet knows of a pod with `n` containers: nothing.
    pub fn fresh(n: usize) -> Self {
        KPod {
            synced: false,
            terminating: false,
            status: None,
            probes: PodProbes::new(n),
            backoff: Few::from_elem(None, n),
            waiting_init: Few::from_elem(false, n),
            worker_pod: None,
            awaiting_api: false,
            rejected: false,
            term_deadline: None,
        }
    }

    /// Becomes `fresh` for the same containers, keeping its lists' memory (a kubelet that
    /// starts again has forgotten every pod of the node: `lifecycle::start`).
    pub fn forget(&mut self) {
        self.synced = false;
        self.terminating = false;
        self.status = None;
        self.probes.forget();
        self.backoff.fill(None);
        self.waiting_init.fill(false);
        self.worker_pod = None;
        self.awaiting_api = false;
        self.rejected = false;
        self.term_deadline = None;
    }
}

pub struct Kubelet<'a> {
    pub spec: &'a [Pod],
    /// The node object's labels and taints as admission reads them (`admission.rs`); `None`:
    /// nothing a pod could fail on.
    pub node_obj: Option<&'a crate::scenario::NodeObject>,
    pub profile: KubeletProfile,
    pub seed: u64,
    pub renew_interval: Ms,
    pub first_sync_delay: Ms,
    pub up: bool,
    /// Generation of the kubelet process (incremented at each stop).
    pub gen: u32,
    /// When this kubelet process started.
    pub started_at: Ms,
    /// How many times the kubelet has started in the story.
    pub restart_idx: usize,
    /// Lease renewals by this kubelet process (keys the renewal jitter).
    pub renewals: u64,
    pub pods: Vec<KPod>,
    /// Let quiet probe workers sleep (a node whose events are not kept).
    pub elide: bool,
    /// The node can reach the API server (`kubelet.api_unreachable`). The network's state, not
    /// kubelet memory: it survives a kubelet restart.
    pub reachable: bool,
    /// The node is quiet (`control_plane::node_lifecycle`): renewals are not scheduled as
    /// events; the next one is `lease_next` and they are applied when someone looks
    /// (`catch_up_lease`).
    pub lease_lazy: bool,
    pub lease_next: Option<Ms>,
    /// This process's last two renewals (earlier, later).
    pub renewed: [Ms; 2],
    /// K2u: when this process's lease sync first failed to reach the API server; the sync is
    /// then blocked in `backoffEnsureLease` (retries 200 ms, 400 ms, … up to 7 s apart) until
    /// the API answers.
    pub lease_failed_at: Option<Ms>,
    /// The lane this kubelet shows (an upgrade keeps it: `restarts::upgrade`).
    pub lane_policy: crate::scenario::Policy,
    /// In-place upgrades: (the start at which the new release runs, the release).
    pub upgrades: Vec<(Ms, crate::releases::KubeVersion)>,
    /// U1: this process's release hashes containers differently from the one that started them.
    pub hash_changed: bool,
    /// The last good runtime check (`runtimeState.lastBaseRuntimeSync`).
    pub runtime_sync: Ms,
    /// K2n: before this instant the start-up runtime check has not completed.
    pub start_checks_done: Ms,
    /// The runtime stopped after the last good check (`runtime_sync`) and no check has passed
    /// since: `runtimeErrors` says "container runtime is down" once that check is 30 s old.
    pub runtime_stale: bool,
    /// The sync loop skipped its iterations while `runtimeErrors` was set; the first good check
    /// cleared it, and the loop's next back-off wake, at this time, runs them again (R4).
    pub loop_resumes_at: Option<Ms>,
    /// Pod work the kubelet could not do while the runtime did not answer (CRI calls and the
    /// PLEG's relists fail) or the sync loop skipped its iterations (`runtimeErrors`): done, in
    /// order, when the sync loop runs again (`restarts::resume_pod_work`).
    pub held: Vec<restarts::Held>,
    /// Results set inside `doProbe` at this instant (only `Held::Probe`): the sync loop takes
    /// them once every worker due now has read the status (`What::ProbeUpdates`, P1d).
    pub updates: Vec<restarts::Held>,
    /// The kubelet was due to start while the runtime did not answer: it starts when it does.
    pub start_waits_for_runtime: bool,
    /// S5r: the node reached the API server again and the status manager holds statuses whose
    /// writes failed; they go at its next `syncBatch` (10 s tick, or the next status change).
    pub stale_statuses: bool,
}

impl<'a> Kubelet<'a> {
    /// A kubelet that has run for a day: every pod synced, every worker with a cached Success
    /// (startup workers on hold), the status manager holding a healthy status.
    pub fn steady(
        spec: &'a [Pod],
        profile: KubeletProfile,
        seed: u64,
        renew_interval: Ms,
        first_sync_delay: Ms,
    ) -> Self {
        let csp = profile.rules.container_scoped_probes;
        let profile_policy = profile.policy();
        let pods = spec
            .iter()
            .map(|p| {
                let n = p.n_containers();
                let mut probes = PodProbes::steady(p);
                if csp {
                    // Proposal CSP: a startup worker exits once it passed (its Success stays).
                    for w in probes.workers.iter_mut() {
                        w[crate::trace::ProbeKind::Startup.index()] = None;
                    }
                }
                KPod {
                    synced: true,
                    status: Some(Status::steady(p)),
                    probes,
                    worker_pod: Some(Status::steady(p)),
                    ..KPod::fresh(n)
                }
            })
            .collect();
        Kubelet {
            node_obj: None,
            stale_statuses: false,
            spec,
            profile,
            seed,
            renew_interval,
            first_sync_delay,
            up: true,
            gen: 0,
            started_at: KUBELET_BORN,
            restart_idx: 0,
            renewals: 0,
            pods,
            elide: false,
            reachable: true,
            lease_lazy: false,
            lease_next: None,
            renewed: [KUBELET_BORN; 2],
            lease_failed_at: None,
            lane_policy: profile_policy,
            upgrades: Vec::new(),
            hash_changed: false,
            runtime_sync: KUBELET_BORN,
            start_checks_done: KUBELET_BORN,
            runtime_stale: false,
            loop_resumes_at: None,
            held: Vec::new(),
            updates: Vec::new(),
            start_waits_for_runtime: false,
        }
    }

    /// The first PLEG relist at or after `now` (relists run every second from a phase drawn per
    /// kubelet process).
    pub fn next_relist(&self, node: crate::trace::NodeId, now: Ms) -> Ms {
        let phase = crate::core::rng::draw(
            self.seed,
            crate::core::rng::Purpose::PlegPhase,
            node,
            [self.restart_idx as u64, 0, 0],
        );
        let base = self.started_at + (phase * PLEG_RELIST as f64) as Ms;
        let k = (now - base + PLEG_RELIST - 1).div_euclid(PLEG_RELIST);
        base + k * PLEG_RELIST
    }

    /// The probe of this kind of container `c` of pod `p`, if it has one.
    pub fn probe(&self, p: usize, c: usize, kind: crate::trace::ProbeKind) -> Option<&'a Probe> {
        prober::probe_spec(self.spec[p].container(c), kind)
    }

    /// The container started before this kubelet (minus `kubeletRestartGracePeriod`).
    pub fn predates(&self, started_at: Ms) -> bool {
        started_at < self.started_at - KUBELET_RESTART_GRACE
    }
}
