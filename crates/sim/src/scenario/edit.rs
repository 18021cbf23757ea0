//! The one way to change a scenario: `Scenario::with_*` edits and [`Overrides`], used by the CLI
//! (`restartscope simulate --downtime/--grace/--version/--seed/--policy`, `crates/cli`) and by
//! the web form (`Settings::scenario`, `src/form.rs`), so the same settings give the same
//! scenario in both. Changing the restart also moves the horizon ([`Scenario::with_restart`]):
//! the run always shows the kubelet's return and what follows.

use super::check::{limits, FieldError};
use super::knobs::{check_pods, ProbeEdit, ProbeOverrides};
use super::types::{Container, KubeVersion, Pdb, Policy, Restart, Scenario};

/// The least time shown after the kubelet returns: several probe periods, the node lifecycle
/// controller's next passes and a Terminating pod's removal fit in it.
pub const MIN_TAIL_S: f64 = 90.0;

/// Settings to change on a scenario; `None` keeps the scenario's value. Built from the CLI's
/// flags and from the web form's fields; [`Overrides::apply`] is the only place they are applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// When the first kubelet restart starts (`kubelet.restarts[0].at_s`).
    pub restart_at_s: Option<f64>,
    /// How long the first kubelet restart lasts (`kubelet.restarts[0].downtime_s`).
    pub downtime_s: Option<f64>,
    pub version: Option<KubeVersion>,
    /// `--node-monitor-grace-period`, in seconds.
    pub grace_s: Option<f64>,
    /// `tolerationSeconds` of the unreachable NoExecute taint.
    pub toleration_s: Option<f64>,
    /// Time from kubelet start to each pod's first SyncPod.
    pub first_sync_s: Option<f64>,
    pub seed: Option<u64>,
    pub policy: Option<Policy>,
    /// Set on every readiness probe of the regular containers (not on sidecars).
    pub readiness: ProbeOverrides,
    /// Replaces every pod's `init_containers` (ordinary init containers and sidecars).
    pub init_containers: Option<Vec<Container>>,
    /// The PodDisruptionBudget: `Some(Some(pdb))` sets it, `Some(None)` removes it.
    pub pdb: Option<Option<Pdb>>,
    /// How many pods the node runs (1 to `MAX_PODS`, [`Scenario::with_pods`]).
    pub pods: Option<usize>,
    /// Probe edits, in order, each on one container (by name) in every pod
    /// ([`Scenario::with_probe`]); applied after `readiness`.
    pub probes: Vec<ProbeEdit>,
    /// Replaces every kubelet restart (`kubelet.restarts`, [`Scenario::with_restarts`]); with
    /// `restart_at_s`/`downtime_s` it is an error (one or the other).
    pub restarts: Option<Vec<Restart>>,
    /// The kubelet release the first kubelet or node restart starts (`upgrade_to`: an in-place
    /// upgrade), applied after `restarts`.
    pub upgrade_to: Option<KubeVersion>,
}

impl Overrides {
    /// The scenario with these settings, validated. Applied in a fixed order: the version before
    /// the grace period (a grace equal to the version's default stays implicit), and the restart
    /// last, so its horizon sees the probes and the first SyncPod delay it has to show.
    pub fn apply(&self, sc: Scenario) -> Result<Scenario, Vec<FieldError>> {
        let mut sc = sc;
        let mut errs = Vec::new();
        if let Some(n) = self.pods {
            match check_pods(n) {
                Some(e) => errs.push(e),
                None => sc = sc.with_pods(n),
            }
        }
        if let Some(v) = self.version {
            sc = sc.with_version(v);
        }
        if let Some(g) = self.grace_s {
            sc = sc.with_grace(g);
        }
        if let Some(t) = self.toleration_s {
            sc = sc.with_toleration(t);
        }
        if let Some(s) = self.first_sync_s {
            sc = sc.with_first_sync(s);
        }
        if let Some(s) = self.seed {
            sc = sc.with_seed(s);
        }
        if let Some(p) = self.policy {
            sc = sc.with_policy(p);
        }
        if self.readiness != ProbeOverrides::default() {
            sc = sc.with_readiness(&self.readiness);
        }
        if let Some(ic) = &self.init_containers {
            sc = sc.with_init_containers(ic);
        }
        for edit in &self.probes {
            match sc.clone().with_probe(edit) {
                Ok(next) => sc = next,
                Err(e) => errs.push(e),
            }
        }
        if let Some(pdb) = &self.pdb {
            sc = sc.with_pdb(pdb.clone());
        }
        if let Some(list) = &self.restarts {
            if self.restart_at_s.is_some() || self.downtime_s.is_some() {
                errs.push(FieldError {
                    field: "kubelet.restarts".into(),
                    k8s: "kubelet.restarts".into(),
                    message: "kubelet.restarts: give the restarts as a list or the first restart's start and downtime, not both".into(),
                });
            } else if list.is_empty() {
                errs.push(FieldError {
                    field: "kubelet.restarts".into(),
                    k8s: "kubelet.restarts".into(),
                    message: "kubelet.restarts must hold at least one restart".into(),
                });
            } else {
                sc = sc.with_restarts(list);
            }
        }
        match (self.restart_at_s, self.downtime_s, sc.first_restart().cloned()) {
            (None, None, _) => {}
            (Some(at), Some(d), _) => sc = sc.with_restart(at, d),
            (at, d, Some(r)) => {
                sc = sc.with_restart(at.unwrap_or(r.at_s), d.unwrap_or(r.downtime_s))
            }
            (_, _, None) => errs.push(FieldError {
                field: "kubelet.restarts".into(),
                k8s: "kubelet.restarts".into(),
                message: "kubelet.restarts is empty: there is no kubelet restart to change; give both its start and its downtime".into(),
            }),
        }
        if let Some(to) = self.upgrade_to {
            match (sc.kubelet.restarts.iter_mut()).find(|r| r.what.stops_kubelet()) {
                Some(r) => r.upgrade_to = Some(to),
                None => errs.push(FieldError {
                    field: "kubelet.restarts".into(),
                    k8s: "kubelet.restarts".into(),
                    message:
                        "kubelet.restarts has no kubelet or node restart to upgrade at (upgrade_to)"
                            .into(),
                }),
            }
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        sc.validate()?;
        Ok(sc)
    }
}

impl Scenario {
    /// Replaces the first kubelet restart (adds it if there is none) and moves what depends on
    /// it: ground-truth changes after 0 s keep their distance to the restart, later restarts
    /// start no earlier than this one ends, and the horizon is the new return plus the tail —
    /// the time the scenario showed after the old return, at least [`MIN_TAIL_S`] and at least
    /// [`Scenario::settle_s`] — capped at the longest horizon accepted.
    pub fn with_restart(mut self, at_s: f64, downtime_s: f64) -> Scenario {
        let end = at_s + downtime_s;
        let old_tail = match self.kubelet.restarts.first() {
            Some(old) => {
                // What restarts and any upgrade stay as they were.
                let new = Restart {
                    at_s,
                    downtime_s,
                    ..old.clone()
                };
                let shift = at_s - old.at_s;
                for t in self
                    .pods
                    .iter_mut()
                    .flat_map(|p| p.init_containers.iter_mut().chain(p.containers.iter_mut()))
                    .flat_map(|c| c.truth.iter_mut())
                {
                    if t.at_s > 0.0 {
                        t.at_s = (t.at_s + shift).max(0.0);
                    }
                }
                let tail = self.horizon_s - (old.at_s + old.downtime_s);
                self.kubelet.restarts[0] = new;
                tail
            }
            None => {
                self.kubelet.restarts.push(Restart::new(at_s, downtime_s));
                self.horizon_s - end
            }
        };
        for r in self.kubelet.restarts.iter_mut().skip(1) {
            r.at_s = r.at_s.max(end);
        }
        let tail = old_tail.max(MIN_TAIL_S).max(self.settle_s());
        let max = limits::HORIZON_S.1;
        self.horizon_s = if end + tail > max {
            max.max(end + MIN_TAIL_S)
        } else {
            end + tail
        };
        self
    }

    /// Replaces every restart: the first as [`Scenario::with_restart`] does (moving what depends
    /// on it), the others as given, and the horizon shows the last return plus the tail. Whether
    /// they overlap or fit the horizon is the validation's to say (`kubelet.restarts[i]`).
    pub fn with_restarts(self, list: &[Restart]) -> Scenario {
        let Some(first) = list.first() else {
            return self;
        };
        let mut sc = self.with_restart(first.at_s, first.downtime_s);
        let first_end = first.at_s + first.downtime_s;
        let tail = (sc.horizon_s - first_end).max(MIN_TAIL_S);
        sc.kubelet.restarts = list.to_vec();
        let last_end = list
            .iter()
            .map(|r| r.at_s + r.downtime_s)
            .fold(first_end, f64::max);
        let max = limits::HORIZON_S.1;
        sc.horizon_s = (last_end + tail).min(max.max(last_end + MIN_TAIL_S));
        sc
    }

    /// Changes the first restart's downtime, keeping its start ([`Scenario::with_restart`]);
    /// a scenario without a restart is returned unchanged.
    pub fn with_downtime(self, downtime_s: f64) -> Scenario {
        match self.first_restart().map(|r| r.at_s) {
            Some(at) => self.with_restart(at, downtime_s),
            None => self,
        }
    }

    /// The Kubernetes version (it picks the default grace period).
    pub fn with_version(mut self, v: KubeVersion) -> Scenario {
        self.cluster.version = v;
        // An in-place upgrade to this release or an older one is no upgrade any more.
        for r in self.kubelet.restarts.iter_mut() {
            r.upgrade_to = r.upgrade_to.filter(|to| *to > v);
        }
        self
    }

    /// `--node-monitor-grace-period`. A value equal to the grace the scenario already has changes
    /// nothing, so a version's default stays implicit (it follows a later version change).
    pub fn with_grace(mut self, grace_s: f64) -> Scenario {
        if grace_s != self.cluster.grace_s() {
            self.cluster.node_monitor_grace_s = Some(grace_s);
        }
        self
    }

    /// `tolerationSeconds` of `node.kubernetes.io/unreachable:NoExecute` (DefaultTolerationSeconds).
    pub fn with_toleration(mut self, toleration_s: f64) -> Scenario {
        self.cluster.toleration_s = toleration_s;
        self
    }

    /// Time from kubelet start to each pod's first SyncPod.
    pub fn with_first_sync(mut self, delay_s: f64) -> Scenario {
        self.kubelet.first_sync_delay_s = delay_s;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> Scenario {
        self.seed = seed;
        self
    }

    /// The policy `simulate` runs (`compare` runs both).
    pub fn with_policy(mut self, policy: Policy) -> Scenario {
        self.kubelet.policy = policy;
        self
    }

    /// Every pod's init containers (ordinary ones and sidecars), in order. Placed before the
    /// restart in [`Overrides::apply`] so the horizon sees the sidecars' probes.
    pub fn with_init_containers(mut self, init: &[Container]) -> Scenario {
        for p in &mut self.pods {
            p.init_containers = init.to_vec();
        }
        self
    }

    /// The PodDisruptionBudget over a Service's pods (`None` removes it).
    pub fn with_pdb(mut self, pdb: Option<Pdb>) -> Scenario {
        self.pdb = pdb;
        self
    }

    /// Sets the given fields on every readiness probe of the regular containers (a sidecar keeps
    /// its own).
    pub fn with_readiness(mut self, edit: &ProbeOverrides) -> Scenario {
        for p in self
            .pods
            .iter_mut()
            .flat_map(|p| p.containers.iter_mut())
            .filter_map(|c| c.readiness_probe.as_mut())
        {
            edit.apply_to(p);
        }
        self
    }

    /// How long after the kubelet returns the model needs to show what follows: the first
    /// SyncPod, then the slower of `successThreshold` periods of the slowest probe (Ready
    /// returns) and the longest `terminationGracePeriodSeconds` (an evicted pod goes away),
    /// plus 10 s.
    pub fn settle_s(&self) -> f64 {
        let probes = self
            .pods
            .iter()
            .flat_map(|p| p.all_containers())
            .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
            .flatten()
            .map(|p| {
                (p.period_s as f64) * (p.success_threshold.max(1) as f64)
                    + p.exec_s.min(p.timeout_s as f64)
            })
            .fold(0.0, f64::max);
        let term = self
            .pods
            .iter()
            .map(|p| p.kill_grace_s())
            .fold(0.0, f64::max);
        self.kubelet.first_sync_delay_s + probes.max(term) + 10.0
    }
}

impl Scenario {
    /// The newest kubelet the node runs: `cluster.version`, or the last in-place upgrade's.
    pub fn newest_kubelet(&self) -> crate::releases::KubeVersion {
        (self.kubelet.restarts.iter())
            .filter_map(|r| r.upgrade_to)
            .fold(self.cluster.version, |a, b| a.max(b))
    }
}
