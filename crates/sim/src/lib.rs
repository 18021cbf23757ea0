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
mod node;
pub mod presets;
pub mod profile;
pub mod rules;
pub mod scenario;
pub mod trace;

pub use crate::core::time::{fmt_secs, parse_duration, words_secs};
pub use node::kubelet::KUBELET_RESTART_GRACE;
pub use profile::{KubeletProfile, Rules};
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

/// Runs one policy on the scenario (same seed, same everything else).
pub fn simulate_policy(sc: &Scenario, policy: Policy) -> Result<Trace, Vec<FieldError>> {
    simulate_profile(sc, &KubeletProfile::for_policy(sc.cluster.version, policy))
}

/// Runs one kubelet profile on the scenario's node.
pub fn simulate_profile(sc: &Scenario, profile: &KubeletProfile) -> Result<Trace, Vec<FieldError>> {
    sc.validate()?;
    Ok(run_node(sc, profile))
}

/// Both policies on the same scenario and seed: `[legacy, kep]`. The only difference between
/// the two runs is the kubelet profile; random draws are keyed by object, not by order.
pub fn compare(sc: &Scenario) -> Result<[Trace; 2], Vec<FieldError>> {
    sc.validate()?;
    let v = sc.cluster.version;
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
    };
    let node = NodeSetup {
        pods: &sc.pods,
        restarts: &sc.kubelet.restarts,
        profile: profile.clone(),
    };
    let out = cluster::Cluster::new(&setup, vec![node]).run();
    Trace {
        policy: profile.policy(),
        kubelet: profile.label(),
        node: 0,
        horizon: ms(sc.horizon_s),
        grace: ms(sc.cluster.grace_s()),
        lease_duration: ms(sc.cluster.lease_duration_s),
        toleration: ms(sc.cluster.toleration_s),
        restarts: sc
            .kubelet
            .restarts
            .iter()
            .map(|r| (ms(r.at_s), ms(r.at_s + r.downtime_s)))
            .collect(),
        pods: sc.pods.iter().map(pod_info).collect(),
        events: out.events,
        metrics: out.metrics.into_iter().next().unwrap_or_default(),
    }
}

fn pod_info(p: &Pod) -> PodInfo {
    PodInfo {
        name: p.name.clone(),
        workload: p.workload,
        service: p.service.clone(),
        containers: p
            .containers
            .iter()
            .map(|c| ContainerInfo {
                name: c.name.clone(),
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
