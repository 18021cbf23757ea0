//! Running a fleet: one cluster with zones, every node's restart from the rolling plan, full
//! events for the sampled nodes only, and the results per kubelet profile (totals summed over
//! nodes as they were counted, and the per-second series). Called by `fleet::run` users.

use super::scenario::Fleet;
use crate::cluster::{Cluster, NodeSetup, Rollout, Setup};
use crate::core::ms;
use crate::profile::KubeletProfile;
use crate::scenario::{FieldError, Policy};
use crate::trace::heat::Heat;
use crate::trace::recorder::Keep;
use crate::trace::series::Series;
use crate::trace::{Metrics, NodeId, Trace};
use serde::Serialize;

/// Fleet totals (SPEC §5 summed over nodes, plus the watch events the slice updates cause).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    pub ready_transitions: u64,
    pub kubelet_status_writes: u64,
    pub nlc_status_writes: u64,
    pub endpointslice_updates: u64,
    /// Every kube-proxy (one per node) watches every slice: updates × nodes.
    pub watch_events: u64,
    pub evictions: u64,
    pub unjustified_not_ready_s: f64,
    pub unjustified_ready_s: f64,
    pub node_not_ready_s: f64,
    pub events_processed: u64,
}

impl Totals {
    pub fn add(&mut self, m: &Metrics) {
        self.ready_transitions += m.ready_transitions as u64;
        self.kubelet_status_writes += m.kubelet_status_writes as u64;
        self.nlc_status_writes += m.nlc_status_writes as u64;
        self.endpointslice_updates += m.endpointslice_updates as u64;
        self.evictions += m.evictions as u64;
        self.unjustified_not_ready_s += m.unjustified_not_ready_s;
        self.unjustified_ready_s += m.unjustified_ready_s;
        self.node_not_ready_s += m.node_not_ready_s;
        self.events_processed += m.events_processed;
    }
}

/// One kubelet profile over the fleet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleetRun {
    pub policy: Policy,
    pub kubelet: String,
    pub totals: Totals,
    pub series: Series,
    /// Full traces of the sampled nodes (not serialized: open one in the single-node view).
    #[serde(skip)]
    pub samples: Vec<Trace>,
    /// Ready pods per node over time (not serialized: the web view's heatmap).
    #[serde(skip)]
    pub heat: Heat,
    /// Nodes whose kubelet was restarted by the end of the run: all of them, unless a rollout
    /// that waits for Ready stalled ([`crate::fleet::edit::rollout_words`]).
    pub restarted_nodes: u32,
}

/// Runs one profile over the fleet. Validate first.
pub fn run(f: &Fleet, profile: &KubeletProfile) -> Result<FleetRun, Vec<FieldError>> {
    run_with(f, profile, &mut |_| {})
}

/// `run`, telling `progress` the share of the simulated time done (0…1, about 100 times).
/// The results do not depend on it.
pub fn run_with(
    f: &Fleet,
    profile: &KubeletProfile,
    progress: &mut dyn FnMut(f64),
) -> Result<FleetRun, Vec<FieldError>> {
    f.validate()?;
    // "1.30 → 1.31 · default (legacy)" for an in-place upgrade.
    let label = match f.rolling.upgrade_to.filter(|to| *to != profile.version) {
        Some(to) => format!(
            "{} → {}",
            profile.version.as_str(),
            KubeletProfile::for_policy(to, profile.policy()).label()
        ),
        None => profile.label(),
    };
    let pods = f.node_pods();
    let mut restarts = f.restarts();
    let batch = f.rolling.batch.max(1) as usize;
    let rollout = f.rolling.wait_ready.then(|| Rollout {
        batches: (0..f.nodes as usize)
            .collect::<Vec<_>>()
            .chunks(batch)
            .map(|c| c.iter().map(|&n| n as NodeId).collect())
            .collect(),
        downtime: ms(f.rolling.downtime_s),
        pause: ms(f.rolling.pause_s),
        upgrade_to: f.rolling.upgrade_to,
    });
    if rollout.is_some() {
        // Only the first batch is on a schedule; the rollout starts the others.
        for r in restarts.iter_mut().skip(batch) {
            r.clear();
        }
    }
    let sampled: Vec<NodeId> = (0..f.sample_nodes.min(f.nodes) as NodeId).collect();
    let setup = Setup {
        cluster: &f.cluster,
        first_sync_delay_s: f.first_sync_delay_s,
        seed: f.seed,
        horizon_s: f.horizon_s(),
        keep: Keep::Nodes(sampled.clone()),
        zones: Some(f.zones as u16),
        series: true,
        elide: true,
        rollout,
        pdb: None,
        checkpoints: false,
    };
    let nodes = restarts
        .iter()
        .map(|r| NodeSetup {
            pods: &pods,
            restarts: r,
            profile: profile.clone(),
        })
        .collect();
    let horizon = ms(f.horizon_s()).max(1) as f64;
    let cl = Cluster::new(&setup, nodes);
    let (nlc_phase, nlc_period) = cl.nlc_timing();
    let out = cl.run_with(&mut |t| progress(t as f64 / horizon));
    progress(1.0);
    let mut totals = Totals::default();
    for m in &out.metrics {
        totals.add(m);
    }
    totals.watch_events = totals.endpointslice_updates * f.nodes as u64;
    let samples = sampled
        .iter()
        .map(|&n| {
            let sc = f.node_scenario(n as u32);
            let events: Vec<_> = out.events.iter().filter(|e| e.node == n).cloned().collect();
            // The restarts as they happened (a readiness-driven rollout decides them as it goes).
            let stops = events
                .iter()
                .filter(|e| e.kind == crate::trace::Kind::KubeletStop);
            let starts = events
                .iter()
                .filter(|e| e.kind == crate::trace::Kind::KubeletStart);
            let happened: Vec<(i64, i64)> = stops.zip(starts).map(|(a, b)| (a.t, b.t)).collect();
            Trace {
                policy: profile.policy(),
                kubelet: label.clone(),
                feature_gates: profile.feature_gates().to_string(),
                proposal: profile.proposal.unwrap_or_default().to_string(),
                node: n,
                horizon: ms(f.horizon_s()),
                grace: ms(f.cluster.grace_s()),
                lease_duration: ms(f.cluster.lease_duration_s),
                nlc_phase,
                nlc_period,
                toleration: ms(f.cluster.toleration_s),
                restarts: happened,
                reboots: Vec::new(),
                runtime_down: Vec::new(),
                upgrades: Vec::new(),
                pods: sc.pods.iter().map(crate::pod_info).collect(),
                pdb: None,
                events,
                metrics: out.metrics[n as usize].clone(),
                checkpoints: None,
            }
        })
        .collect();
    Ok(FleetRun {
        policy: profile.policy(),
        kubelet: label.clone(),
        totals,
        series: out.series.unwrap_or_default(),
        samples,
        heat: out.heat.unwrap_or_default(),
        restarted_nodes: out.restarted_nodes,
    })
}

/// The fleet under the given policy (or, with `None`, the release's default comparison).
pub fn compare(f: &Fleet, policy: Option<Policy>) -> Result<Vec<FleetRun>, Vec<FieldError>> {
    compare_with(f, policy, &mut |_, _, _| {})
}

/// The kubelet profiles `compare` runs (the release's default comparison for `None`).
pub fn profiles(f: &Fleet, policy: Option<Policy>) -> Result<Vec<KubeletProfile>, Vec<FieldError>> {
    let v = f.cluster.version;
    // An upgrade to 1.35 or later has a KEP lane, which runs the older kubelet until it.
    let newest = f.rolling.upgrade_to.map_or(v, |u| u.max(v));
    let lanes = match policy {
        Some(p) => vec![KubeletProfile::new(newest, p).map_err(|m| {
            vec![FieldError {
                field: "cluster.version".into(),
                k8s: "kubelet version".into(),
                message: m,
            }]
        })?],
        None => KubeletProfile::defaults(newest),
    };
    Ok((lanes.iter())
        .map(|l| KubeletProfile::for_policy(v, l.policy()))
        .collect())
}

/// `compare`, telling `progress` (run index, runs, share of that run done).
pub fn compare_with(
    f: &Fleet,
    policy: Option<Policy>,
    progress: &mut dyn FnMut(usize, usize, f64),
) -> Result<Vec<FleetRun>, Vec<FieldError>> {
    let profiles = profiles(f, policy)?;
    let n = profiles.len();
    profiles
        .iter()
        .enumerate()
        .map(|(i, p)| run_with(f, p, &mut |x| progress(i, n, x)))
        .collect()
}
