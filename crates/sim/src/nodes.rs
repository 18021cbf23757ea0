//! What each node of a cluster runs (`NodeSetup`) and about how many trace events the kept
//! nodes will record (`expected_events`, to size the recorder once). Called by `cluster.rs`.

use crate::node::kubelet::prober::probe_spec;
use crate::profile::KubeletProfile;
use crate::scenario::{Pod, Restart};
use crate::trace::recorder::Keep;
use crate::trace::ProbeKind;

/// What one node runs.
pub struct NodeSetup<'a> {
    pub pods: &'a [Pod],
    pub restarts: &'a [Restart],
    pub profile: KubeletProfile,
}

/// About how many events the kept nodes record: one per probe execution plus a few dozen per
/// pod (capped, so a wrong guess costs little).
pub fn expected_events(horizon_s: f64, keep: &Keep, nodes: &[NodeSetup]) -> usize {
    let horizon = horizon_s.max(0.0);
    let per_node = |n: &NodeSetup| -> f64 {
        let probes: f64 = n
            .pods
            .iter()
            .flat_map(|p| p.all_containers())
            .flat_map(|c| ProbeKind::ALL.map(|k| probe_spec(c, k)))
            .flatten()
            .map(|p| horizon / p.period_s.max(1) as f64)
            .sum();
        probes + 32.0 * n.pods.len() as f64
    };
    let total: f64 = match keep {
        Keep::All => nodes.iter().map(per_node).sum(),
        Keep::Nodes(v) => v
            .iter()
            .filter_map(|&i| nodes.get(i as usize))
            .map(per_node)
            .sum(),
    };
    (total as usize).min(8_000_000)
}
