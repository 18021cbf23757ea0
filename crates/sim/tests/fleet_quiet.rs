//! Quiet nodes (so run time stays linear in nodes): the node lifecycle controller skipping
//! nodes that are Ready with their kubelet up, and their kubelets keeping lease renewals to
//! themselves, change nothing at all — every metric including the engine's event count, the
//! series, the heatmap and the sampled nodes' events equal those of a run that visits every node
//! on every pass and schedules every renewal.

use restartscope_sim::cluster::{Cluster, NodeSetup, Rollout, Setup};
use restartscope_sim::core::ms;
use restartscope_sim::fleet::{self, Fleet};
use restartscope_sim::*;

fn fleet(nodes: u32, zones: u32, batch: u32, downtime_s: f64, pause_s: f64, seed: u64) -> Fleet {
    let mut f = fleet::rolling_upgrade();
    f.nodes = nodes;
    f.zones = zones;
    f.pods_per_node = 3;
    f.services = 2;
    f.rolling.batch = batch;
    f.rolling.downtime_s = downtime_s;
    f.rolling.pause_s = pause_s;
    f.seed = seed;
    f.tail_s = 120.0;
    f
}

/// The cluster `fleet::run` builds, with or without quiet nodes.
fn run_with(
    f: &Fleet,
    policy: Policy,
    quiet: bool,
    keep: Keep,
    elide: bool,
    mut restarts: Vec<Vec<Restart>>,
) -> cluster::Outcome {
    let pods = f.node_pods();
    let batch = f.rolling.batch as usize;
    let rollout = f.rolling.wait_ready.then(|| Rollout {
        batches: (0..f.nodes as NodeId)
            .collect::<Vec<_>>()
            .chunks(batch)
            .map(|c| c.to_vec())
            .collect(),
        downtime: ms(f.rolling.downtime_s),
        pause: ms(f.rolling.pause_s),
        upgrade_to: f.rolling.upgrade_to,
    });
    if rollout.is_some() {
        for r in restarts.iter_mut().skip(batch) {
            r.clear();
        }
    }
    let setup = Setup {
        cluster: &f.cluster,
        first_sync_delay_s: f.first_sync_delay_s,
        seed: f.seed,
        horizon_s: f.horizon_s(),
        keep,
        zones: Some(f.zones as u16),
        series: true,
        elide,
        rollout,
        pdb: None,
        checkpoints: false,
    };
    let profile = KubeletProfile::new(f.cluster.version, policy).unwrap();
    let nodes = restarts
        .iter()
        .map(|r| NodeSetup {
            pods: &pods,
            restarts: r,
            profile: profile.clone(),
        })
        .collect();
    Cluster::new(&setup, nodes).with_quiet_nodes(quiet).run()
}

fn same(f: &Fleet, what: &str) {
    same_with(f, f.restarts(), what);
}

fn same_with(f: &Fleet, restarts: Vec<Vec<Restart>>, what: &str) {
    f.validate().unwrap();
    let keep = || Keep::Nodes(vec![0, 1, 2]);
    for policy in Policy::BOTH {
        let quiet = run_with(f, policy, true, keep(), true, restarts.clone());
        let every = run_with(f, policy, false, keep(), true, restarts.clone());
        assert_eq!(quiet.metrics, every.metrics, "{what} {policy:?}");
        assert_eq!(quiet.series, every.series, "{what} {policy:?}");
        assert_eq!(quiet.heat, every.heat, "{what} {policy:?}");
        assert_eq!(quiet.events, every.events, "{what} {policy:?}");
    }
}

#[test]
fn quiet_nodes_change_nothing() {
    // Short outages; outages past the grace period (N1, tainting queues, evictions); every zone
    // down at once (master disruption and its reset of every probe timestamp).
    same(&fleet(40, 3, 5, 30.0, 0.0, 1), "short");
    same(&fleet(40, 3, 4, 75.0, 3.0, 2), "past grace");
    same(&fleet(30, 3, 6, 420.0, 0.0, 3), "evictions");
    same(&fleet(12, 2, 12, 420.0, 0.0, 4), "every zone down");
    same(&fleet(30, 1, 30, 90.0, 0.0, 5), "one zone down");
}

#[test]
fn quiet_nodes_change_nothing_in_readiness_driven_rollouts() {
    // Pauses around the renew interval (10 s + up to 4 %): a stop can land on a renewal's
    // millisecond, scheduled before or after it.
    for (i, pause) in [0.0, 1.0, 10.0, 10.1, 10.2, 10.3].into_iter().enumerate() {
        let mut f = fleet(40, 3, 2, 20.0, pause, 10 + i as u64);
        f.rolling.wait_ready = true;
        same(&f, &format!("wait-ready, pause {pause}"));
    }
}

#[test]
fn quiet_nodes_change_nothing_with_other_lease_and_monitor_settings() {
    for (i, (lease, period, grace)) in [
        (10.0, 1.0, Some(20.0)),
        (10.0, 2.0, None),
        // The renew interval no longer outlasts a pass: no node is quiet.
        (40.0, 20.0, Some(50.0)),
        (600.0, 5.0, Some(170.0)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut f = fleet(30, 3, 5, 45.0, 2.0, 20 + i as u64);
        f.cluster.lease_duration_s = lease;
        f.cluster.node_monitor_period_s = period;
        f.cluster.node_monitor_grace_s = grace;
        same(&f, &format!("lease {lease}, period {period}"));
        f.rolling.wait_ready = true;
        same(&f, &format!("wait-ready, lease {lease}, period {period}"));
    }
}

/// When node `n` renewed its lease (and when it stopped), from a run that keeps every event.
fn renewals_and_stop(f: &Fleet, restarts: Vec<Vec<Restart>>, n: NodeId) -> (Vec<Ms>, Ms) {
    let out = run_with(f, Policy::Legacy, false, Keep::All, false, restarts);
    let of = |k: Kind| {
        out.events
            .iter()
            .filter(move |e| e.node == n && e.kind == k)
    };
    let renewals = of(Kind::LeaseRenew).map(|e| e.t).collect();
    (renewals, of(Kind::KubeletStop).next().unwrap().t)
}

/// A quiet node's kubelet stops at the very millisecond of a lease renewal: a stop scheduled
/// before the story comes first; a rollout's stop comes after a renewal scheduled before it.
/// Down 45 s, so when N1 fires depends on which renewal the controller saw last.
#[test]
fn a_stop_on_a_renewal_millisecond() {
    let f = fleet(6, 1, 3, 45.0, 0.0, 30);
    let (renewals, _) = renewals_and_stop(&f, f.restarts(), 4);
    let r = *renewals.iter().find(|&&t| t > 60_000).unwrap();
    let mut restarts = f.restarts();
    restarts[4] = vec![Restart::new(r as f64 / 1000.0, 45.0)];
    assert_eq!(renewals_and_stop(&f, restarts.clone(), 4).1, r);
    same_with(&f, restarts, "a scheduled stop on a renewal");

    let mut f = fleet(6, 1, 3, 45.0, 0.0, 31);
    f.rolling.wait_ready = true;
    // With no pause the second batch stops at the poll that saw the first one Ready; with a
    // long one its kubelets renew as before until then.
    let (_, poll) = renewals_and_stop(&f, f.restarts(), 4);
    f.rolling.pause_s = 600.0;
    let (renewals, _) = renewals_and_stop(&f, f.restarts(), 4);
    let after: Vec<Ms> = renewals.into_iter().filter(|&t| t > poll).take(2).collect();
    for r in after {
        f.rolling.pause_s = (r - poll) as f64 / 1000.0;
        assert_eq!(renewals_and_stop(&f, f.restarts(), 4).1, r);
        same(
            &f,
            &format!("a rollout's stop on a renewal, pause {}", f.rolling.pause_s),
        );
    }
}
