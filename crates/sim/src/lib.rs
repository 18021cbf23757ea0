//! RestartScope model: a deterministic discrete-event simulation of what a kubelet restart does
//! to a node's pods, under any kubelet profile (the legacy kubelet, KEP-4781, …).
//!
//! Pure Rust, no web dependencies. `simulate` and `compare` are deterministic for a given
//! scenario (its seed included). See docs/MODEL.md for every rule and simplification, and
//! docs/ARCHITECTURE.md for where each actor lives:
//!
//! - `core`: time, keyed random draws, the one event queue;
//! - `node`: the container runtime and the kubelet (sync loop, prober, status manager, lease);
//! - `control_plane`: API server, node lifecycle controller, taint eviction, EndpointSlices;
//! - `cluster`: nodes + control plane + queue, and the dispatch;
//! - `profile`: kubelet releases and gates as rule switches;
//! - `trace`: typed events, the recorder and the integrated metrics.

pub mod cluster;
mod control_plane;
pub mod core;
pub mod disruption;
pub mod fleet;
mod node;
mod nodes;
pub mod presets;
pub mod profile;
pub mod releases;
pub mod rules;
pub mod scenario;
pub mod trace;

pub use crate::core::time::{fmt_secs, group, parse_duration, parse_span, plural, words_secs};
pub use node::kubelet::restarts::downtime_marks;
pub use node::kubelet::{KUBELET_RESTART_GRACE, PLEG_RELIST};
pub use profile::{KubeletProfile, Rules, VersionInfo, VERSIONS};
pub use rules::Rule;
pub use scenario::*;
pub use trace::recorder::Keep;
pub use trace::*;

use crate::core::ms;
use cluster::{NodeSetup, Setup};

/// Runs the scenario under its own `kubelet.policy`. Validate first: an invalid scenario is
/// reported, never simulated.
pub fn simulate(sc: &Scenario) -> Result<Trace, Vec<FieldError>> {
    simulate_policy(sc, sc.kubelet.policy)
}

/// Runs one policy on the scenario's release (same seed, same everything else). A release
/// before 1.35 has no KEP-4781 kubelet: `Policy::Kep` there is an error on `cluster.version`.
pub fn simulate_policy(sc: &Scenario, policy: Policy) -> Result<Trace, Vec<FieldError>> {
    // An in-place upgrade to 1.35 or later gives a KEP lane that starts on the older kubelet.
    KubeletProfile::new(sc.newest_kubelet(), policy).map_err(|m| vec![no_kep(m)])?;
    let profile = KubeletProfile::for_policy(sc.cluster.version, policy);
    simulate_profile(sc, &profile)
}

fn no_kep(message: String) -> FieldError {
    FieldError {
        field: "cluster.version".into(),
        k8s: "kubelet version".into(),
        message,
    }
}

/// Runs each profile on the scenario's node, on one clock and the same draws.
pub fn simulate_profiles(
    sc: &Scenario,
    profiles: &[KubeletProfile],
) -> Result<Vec<Trace>, Vec<FieldError>> {
    sc.validate()?;
    Ok(profiles.iter().map(|p| run_node(sc, p)).collect())
}

/// The release's default comparison: legacy and KEP from 1.35 on, the legacy kubelet alone before.
pub fn compare_default(sc: &Scenario) -> Result<Vec<Trace>, Vec<FieldError>> {
    let lanes = KubeletProfile::defaults(sc.newest_kubelet());
    let profiles: Vec<KubeletProfile> = (lanes.iter())
        .map(|l| KubeletProfile::for_policy(sc.cluster.version, l.policy()))
        .collect();
    simulate_profiles(sc, &profiles)
}

/// Runs one kubelet profile on the scenario's node.
pub fn simulate_profile(sc: &Scenario, profile: &KubeletProfile) -> Result<Trace, Vec<FieldError>> {
    sc.validate()?;
    Ok(run_node(sc, profile))
}

/// Both policies on the same scenario and seed: `[legacy, kep]`. The only difference between
/// the two runs is the kubelet profile; random draws are keyed by object, not by order.
/// A release before 1.35 has no KEP-4781 kubelet: an error on `cluster.version` (use
/// `compare_default`).
pub fn compare(sc: &Scenario) -> Result<[Trace; 2], Vec<FieldError>> {
    let v = sc.cluster.version;
    KubeletProfile::new(sc.newest_kubelet(), Policy::Kep).map_err(|m| vec![no_kep(m)])?;
    sc.validate()?;
    Ok([
        run_node(sc, &KubeletProfile::for_policy(v, Policy::Legacy)),
        run_node(sc, &KubeletProfile::for_policy(v, Policy::Kep)),
    ])
}

/// One node, every event kept. The scenario must be valid.
fn run_node(sc: &Scenario, profile: &KubeletProfile) -> Trace {
    let setup = Setup {
        cluster: &sc.cluster,
        first_sync_delay_s: sc.kubelet.first_sync_delay_s,
        seed: sc.seed,
        horizon_s: sc.horizon_s,
        keep: Keep::All,
        zones: None,
        series: false,
        elide: false,
        rollout: None,
        pdb: disruption::Budget::of(sc),
        checkpoints: true,
    };
    let node = NodeSetup {
        pods: &sc.pods,
        restarts: &sc.kubelet.restarts,
        profile: profile.clone(),
    };
    let mut cl = cluster::Cluster::new(&setup, vec![node]);
    cl.api_unreachable(0, &sc.kubelet.api_unreachable);
    cl.node_object(0, &sc.node);
    let (nlc_phase, nlc_period) = cl.nlc_timing();
    let out = cl.run();
    // After an in-place upgrade the lane runs the last release it upgraded to.
    let last = (sc.kubelet.restarts.iter())
        .filter_map(|r| r.upgrade_to)
        .next_back()
        .filter(|to| *to != profile.version && profile.proposal.is_none())
        .map(|to| KubeletProfile::for_policy(to, profile.policy()));
    Trace {
        policy: profile.policy(),
        // "1.34 → 1.35 · default (KEP-4781)": the lane's kubelet before and after.
        kubelet: match &last {
            Some(to) => format!("{} → {}", profile.version.as_str(), to.label()),
            None => profile.label(),
        },
        feature_gates: last.as_ref().unwrap_or(profile).feature_gates().to_string(),
        proposal: profile.proposal.unwrap_or_default().to_string(),
        node: 0,
        horizon: ms(sc.horizon_s),
        grace: ms(sc.cluster.grace_s()),
        lease_duration: ms(sc.cluster.lease_duration_s),
        nlc_phase,
        nlc_period,
        toleration: ms(sc.cluster.toleration_s),
        restarts: windows(sc, |r| r.what.stops_kubelet()),
        reboots: windows(sc, |r| r.what == RestartKind::Node),
        runtime_down: windows(sc, |r| r.what == RestartKind::Runtime),
        upgrades: (sc.kubelet.restarts.iter())
            .filter_map(|r| Some((ms(r.end_s()), r.upgrade_to?.as_str().to_string())))
            .collect(),
        pods: sc.pods.iter().map(pod_info).collect(),
        pdb: setup.pdb.clone(),
        events: out.events,
        metrics: out.metrics.into_iter().next().unwrap_or_default(),
        checkpoints: out.checkpoints,
    }
}

/// (stop, start) of the scenario's restarts that `pick` chooses.
fn windows(sc: &Scenario, pick: impl Fn(&Restart) -> bool) -> Vec<(Ms, Ms)> {
    (sc.kubelet.restarts.iter())
        .filter(|r| pick(r))
        .map(|r| (ms(r.at_s), ms(r.end_s())))
        .collect()
}

pub(crate) fn pod_info(p: &Pod) -> PodInfo {
    PodInfo {
        name: p.name.clone(),
        workload: p.workload,
        services: p.services.clone(),
        containers: p
            .all_containers()
            .enumerate()
            .map(|(i, c)| ContainerInfo {
                name: c.name.clone(),
                role: p.role(i),
                probes: ProbeKind::ALL.map(|k| {
                    node::kubelet::prober::probe_spec(c, k).map(|p| ProbeInfo {
                        period_s: p.period_s,
                        success_threshold: p.success_threshold,
                        failure_threshold: p.failure_threshold,
                    })
                }),
            })
            .collect(),
    }
}
