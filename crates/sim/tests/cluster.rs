//! The cluster engine with many nodes on one queue: nodes do not leak into one another, node
//! ids key the random draws, and the recorder keeps the events of the nodes asked for.

use restartscope_sim::cluster::{Cluster as Engine, NodeSetup, Setup};
use restartscope_sim::*;

fn run(sc: &Scenario, policy: Policy, nodes: usize, keep: Keep) -> cluster::Outcome {
    let setup = Setup {
        cluster: &sc.cluster,
        first_sync_delay_s: sc.kubelet.first_sync_delay_s,
        seed: sc.seed,
        horizon_s: sc.horizon_s,
        keep,
        zones: None,
        series: false,
        elide: false,
        rollout: None,
        pdb: disruption::Budget::of(sc),
        checkpoints: true,
    };
    let ns = (0..nodes)
        .map(|_| NodeSetup {
            pods: &sc.pods,
            restarts: &sc.kubelet.restarts,
            profile: KubeletProfile::for_policy(sc.cluster.version, policy),
        })
        .collect();
    let mut engine = Engine::new(&setup, ns);
    for n in 0..nodes {
        engine.api_unreachable(n as NodeId, &sc.kubelet.api_unreachable);
        engine.node_object(n as NodeId, &sc.node);
    }
    engine.run()
}

#[test]
fn node_zero_of_a_cluster_is_the_single_node_run() {
    for p in presets::PRESETS {
        let sc = (p.build)();
        for policy in Policy::BOTH {
            if policy == Policy::Kep && !sc.newest_kubelet().has_kep_4781() {
                continue;
            }
            let single = simulate_policy(&sc, policy).unwrap();
            let out = run(&sc, policy, 3, Keep::All);
            let node0: Vec<&Event> = out.events.iter().filter(|e| e.node == 0).collect();
            let want: Vec<&Event> = single.events.iter().collect();
            assert_eq!(node0, want, "{} {policy:?}", p.name);
            assert_eq!(out.metrics[0], single.metrics, "{} {policy:?}", p.name);
            assert_eq!(out.checkpoints, single.checkpoints, "{} {policy:?}", p.name);
            assert!(out.events.iter().any(|e| e.node == 2));
        }
    }
}

#[test]
fn nodes_draw_their_own_jitter() {
    let sc = presets::short_restart();
    let out = run(&sc, Policy::Legacy, 2, Keep::All);
    let renewals = |n: u16| -> Vec<Ms> {
        out.events
            .iter()
            .filter(|e| e.node == n && e.kind == Kind::LeaseRenew)
            .map(|e| e.t)
            .collect()
    };
    assert_ne!(renewals(0), renewals(1));
    // Same story on both nodes: the same number of Ready changes.
    assert_eq!(
        out.metrics[0].ready_transitions,
        out.metrics[1].ready_transitions
    );
}

#[test]
fn recorder_keeps_only_sampled_nodes_but_counts_all() {
    let sc = presets::long_restart();
    let all = run(&sc, Policy::Kep, 4, Keep::All);
    let some = run(&sc, Policy::Kep, 4, Keep::Nodes(vec![2]));
    assert!(some.events.iter().all(|e| e.node == 2));
    let want: Vec<&Event> = all.events.iter().filter(|e| e.node == 2).collect();
    assert_eq!(some.events.iter().collect::<Vec<_>>(), want);
    assert_eq!(some.metrics, all.metrics);
}
