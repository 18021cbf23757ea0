//! Fleet: the cluster across nodes, zones and EndpointSlices.

use restartscope_sim::fleet::{self, Fleet};
use restartscope_sim::*;

fn small(nodes: u32, zones: u32, batch: u32, downtime_s: f64, pause_s: f64) -> Fleet {
    let mut f = fleet::rolling_upgrade();
    f.nodes = nodes;
    f.zones = zones;
    f.pods_per_node = 4;
    f.services = 2;
    f.daemonset = false;
    f.rolling.batch = batch;
    f.rolling.downtime_s = downtime_s;
    f.rolling.pause_s = pause_s;
    f.tail_s = 120.0;
    f
}

fn profile(f: &Fleet, p: Policy) -> KubeletProfile {
    KubeletProfile::new(f.cluster.version, p).unwrap()
}

/// A fleet of one node equals the single-node run of the same pods (an outage shorter than the
/// grace period: no zone rule applies).
#[test]
fn a_fleet_of_one_node_is_the_single_node_run() {
    let f = small(1, 1, 1, 20.0, 0.0);
    for p in Policy::BOTH {
        let run = fleet::run(&f, &profile(&f, p)).unwrap();
        let single = simulate_policy(&f.node_scenario(0), p).unwrap();
        assert_eq!(run.samples[0].events, single.events, "{p:?}");
        // Every metric but the engine's event count (a fleet also runs the 100 ms tainting pass).
        let mut m = run.samples[0].metrics.clone();
        m.events_processed = single.metrics.events_processed;
        assert_eq!(m, single.metrics, "{p:?}");
    }
}

/// Without zone effects (one node at a time, short outages), the totals are the sum of the
/// per-node runs.
#[test]
fn totals_are_the_sum_of_per_node_runs() {
    let f = small(4, 2, 1, 20.0, 60.0);
    for p in Policy::BOTH {
        let run = fleet::run(&f, &profile(&f, p)).unwrap();
        let mut sum = fleet::Totals::default();
        for n in 0..f.nodes {
            sum.add(&simulate_policy(&f.node_scenario(n), p).unwrap().metrics);
        }
        let t = &run.totals;
        assert_eq!(t.ready_transitions, sum.ready_transitions, "{p:?}");
        assert_eq!(t.kubelet_status_writes, sum.kubelet_status_writes, "{p:?}");
        assert_eq!(t.endpointslice_updates, sum.endpointslice_updates, "{p:?}");
        assert_eq!(t.watch_events, t.endpointslice_updates * 4);
    }
    // Legacy flaps every pod once per restart; KEP changes nothing.
    let legacy = fleet::run(&f, &profile(&f, Policy::Legacy)).unwrap();
    let kep = fleet::run(&f, &profile(&f, Policy::Kep)).unwrap();
    assert_eq!(legacy.totals.ready_transitions, 4 * 4 * 2);
    assert_eq!(kep.totals.ready_transitions, 0);
    assert!(legacy.series.ready_endpoint_share[0]
        .iter()
        .any(|s| *s < 1.0));
    assert!(kep.series.ready_endpoint_share[0].iter().all(|s| *s == 1.0));
}

/// `handleDisruption`: when every zone is fully disrupted (all kubelets down longer than the
/// grace period) the controller stops tainting and untaints every node: no eviction (N4). From
/// v1.34 a node that goes Unknown first, while its zone is still Normal, is queued in that pass
/// (`processTaintBaseEviction` on the current condition) and tainted at the next 100 ms tick; the
/// pass that finds the whole zone down removes the taint again (`markNodeAsReachable`).
#[test]
fn all_zones_down_means_no_evictions() {
    let f = small(3, 1, 3, 420.0, 0.0);
    let run = fleet::run(&f, &profile(&f, Policy::Kep)).unwrap();
    assert!(run.totals.nlc_status_writes > 0, "pods marked NotReady");
    assert_eq!(run.totals.evictions, 0);
    let period = (f.cluster.node_monitor_period_s * 1000.0) as Ms;
    let noexec = |k: Kind| {
        (run.samples[0].events.iter())
            .filter(move |e| e.kind == k && e.value == Value::Taint(TaintEffect::NoExecute))
            .map(|e| e.t)
            .collect::<Vec<_>>()
    };
    let (added, removed) = (noexec(Kind::TaintAdded), noexec(Kind::TaintRemoved));
    assert_eq!(
        added.len(),
        removed.len(),
        "every NoExecute taint is removed"
    );
    for (a, r) in added.iter().zip(&removed) {
        assert!(r - a <= period, "untainted within one pass: {a} → {r}");
    }
}

/// One zone fully down while the others are healthy: tainting at `--node-eviction-rate` (0.1
/// nodes/s, burst 1) in that zone, so the NoExecute taints land about 10 s apart; evictions
/// follow the toleration.
#[test]
fn a_zone_down_is_tainted_at_the_eviction_rate() {
    // 6 nodes in 2 zones (even / odd): batch 0 is nodes 0..3; take zone 0 = {0, 2, 4} down by
    // restarting nodes 0, 2, 4 only.
    let mut f = small(6, 2, 6, 400.0, 0.0);
    f.sample_nodes = 6;
    f.rolling.batch = 6;
    let run_all = fleet::run(&f, &profile(&f, Policy::Kep)).unwrap();
    // Every node down in both zones: master disruption, no taints.
    assert_eq!(run_all.totals.evictions, 0);
    // Now only zone 0 goes down: nodes 1, 3, 5 restart much later (after the horizon).
    let pods = f.node_pods();
    let mut restarts = f.restarts();
    for n in [1usize, 3, 5] {
        restarts[n][0].at_s = 10_000.0;
    }
    let setup = cluster::Setup {
        cluster: &f.cluster,
        first_sync_delay_s: f.first_sync_delay_s,
        seed: f.seed,
        horizon_s: f.horizon_s(),
        keep: Keep::All,
        zones: Some(2),
        series: false,
        elide: false,
        rollout: None,
        pdb: None,
        checkpoints: false,
    };
    let nodes = restarts
        .iter()
        .map(|r| cluster::NodeSetup {
            pods: &pods,
            restarts: r,
            profile: profile(&f, Policy::Kep),
        })
        .collect();
    let out = cluster::Cluster::new(&setup, nodes).run();
    let taints: Vec<(u16, Ms)> = out
        .events
        .iter()
        .filter(|e| e.kind == Kind::TaintAdded && e.value == Value::Taint(TaintEffect::NoExecute))
        .map(|e| (e.node, e.t))
        .collect();
    assert_eq!(taints.len(), 3, "{taints:?}");
    assert!(taints.iter().all(|(n, _)| n % 2 == 0));
    for w in taints.windows(2) {
        assert!(w[1].1 - w[0].1 >= 9_900, "rate-limited: {taints:?}");
    }
    assert!(out.metrics.iter().map(|m| m.evictions).sum::<u32>() > 0);
}

#[test]
fn fleet_validation_names_the_field() {
    let mut f = small(2, 3, 1, 20.0, 0.0);
    let e = f.validate().unwrap_err();
    assert_eq!(e[0].field, "zones");
    f.zones = 1;
    f.pods_per_node = 111;
    let e = f.validate().unwrap_err();
    assert!(
        e[0].message
            .contains("pods per node must be between 1 and 110"),
        "{e:?}"
    );
}

/// Sleeping quiet probe workers (nodes whose events are not kept) changes nothing a user sees:
/// the metrics of every node are those of the full simulation, with far fewer events.
#[test]
fn sleeping_workers_change_no_metric() {
    for (seed, policy, downtime) in [
        (1, Policy::Legacy, 30.0),
        (2, Policy::Kep, 30.0),
        (3, Policy::Legacy, 420.0),
        (4, Policy::Kep, 90.0),
    ] {
        let mut f = small(9, 3, 3, downtime, 10.0);
        f.seed = seed;
        f.pods_per_node = 6;
        let pods = f.node_pods();
        let restarts = f.restarts();
        let go = |elide: bool| {
            let setup = cluster::Setup {
                cluster: &f.cluster,
                first_sync_delay_s: f.first_sync_delay_s,
                seed: f.seed,
                horizon_s: f.horizon_s(),
                keep: Keep::Nodes(vec![]),
                zones: Some(3),
                series: true,
                elide,
                rollout: None,
                pdb: None,
                checkpoints: false,
            };
            let nodes = restarts
                .iter()
                .map(|r| cluster::NodeSetup {
                    pods: &pods,
                    restarts: r,
                    profile: profile(&f, policy),
                })
                .collect();
            cluster::Cluster::new(&setup, nodes).run()
        };
        let (full, slept) = (go(false), go(true));
        let strip = |m: &Vec<Metrics>| -> Vec<Metrics> {
            m.iter()
                .map(|m| Metrics {
                    events_processed: 0,
                    ..m.clone()
                })
                .collect()
        };
        assert_eq!(
            strip(&full.metrics),
            strip(&slept.metrics),
            "seed {seed} {policy:?}"
        );
        assert_eq!(full.series, slept.series, "seed {seed} {policy:?}");
        let ev = |o: &cluster::Outcome| o.metrics.iter().map(|m| m.events_processed).sum::<u64>();
        assert!(ev(&slept) < ev(&full), "{} vs {}", ev(&slept), ev(&full));
    }
}

/// A rollout that waits for each batch to be Ready: the next batch stops only after every pod of
/// the previous one was synced by its new kubelet and is Ready (polled each second), then the
/// pause. (The legacy kubelet's first SyncPod reports Ready before its probe workers exist, so a
/// readiness-driven rollout moves on before the flap that follows — as upgrade tools do.)
#[test]
fn a_rollout_can_wait_for_ready_batches() {
    let mut f = small(6, 2, 2, 20.0, 5.0);
    f.rolling.wait_ready = true;
    f.sample_nodes = 6;
    for p in Policy::BOTH {
        let run = fleet::run(&f, &profile(&f, p)).unwrap();
        let mut r: Vec<(Ms, Ms)> = run.samples.iter().map(|t| t.restarts[0]).collect();
        assert_eq!(r.len(), 6);
        r.sort();
        for b in 0..2 {
            let (prev_start, next_stop) = (r[2 * b + 1].1, r[2 * b + 2].0);
            // First SyncPod 2 s after the start, the next whole-second poll, then the pause.
            assert!(next_stop >= prev_start + 2_000 + 5_000, "{p:?} {r:?}");
            assert!(
                next_stop <= prev_start + 2_000 + 1_000 + 5_000 + 10_000,
                "{p:?} {r:?}"
            );
        }
    }
}

/// A batch that never becomes Ready holds a rollout that waits for Ready back, and the result
/// says so instead of showing totals as if every node had restarted. Here the app fails its
/// readiness probe from t = 1 s: the KEP-4781 kubelet keeps its pods NotReady after the restart
/// and the rollout stops after the first batch; the legacy kubelet's first SyncPod writes
/// Ready=True before any probe result (S2), the rollout's poll sees it, and every batch goes.
#[test]
fn a_stalled_rollout_is_reported() {
    let mut f = small(6, 2, 2, 20.0, 5.0);
    f.rolling.wait_ready = true;
    f.template.containers[0].truth = vec![Truth {
        at_s: 1.0,
        state: Health::FailingReadiness,
    }];
    let runs = fleet::compare(&f, None).unwrap();
    let restarted: Vec<(Policy, u32)> =
        runs.iter().map(|r| (r.policy, r.restarted_nodes)).collect();
    assert_eq!(restarted, [(Policy::Legacy, 6), (Policy::Kep, 2)]);
    let words = fleet::edit::rollout_words(&f, &runs).expect("a stalled rollout is named");
    assert!(
        words.contains("1.35 · default (KEP-4781) restarted 2 of 6 nodes"),
        "{words}"
    );
    assert!(!words.contains("6 of 6"), "{words}");
    assert!(words.contains("rule S2"), "{words}");
    // Without the failure every node restarts under both, and nothing is said.
    f.template.containers[0].truth.clear();
    let runs = fleet::compare(&f, None).unwrap();
    assert!(runs.iter().all(|r| r.restarted_nodes == 6));
    assert_eq!(fleet::edit::rollout_words(&f, &runs), None);
}

/// The web view's progress hook and heatmap change no result; the heatmap shows each restart.
#[test]
fn progress_and_heatmap_change_no_result() {
    let f = small(4, 2, 2, 20.0, 0.0);
    for p in Policy::BOTH {
        let prof = profile(&f, p);
        let plain = fleet::run(&f, &prof).unwrap();
        let mut seen = Vec::new();
        let with = fleet::run_with(&f, &prof, &mut |x| seen.push(x)).unwrap();
        assert_eq!(plain, with, "{p:?}");
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&1.0));
        let h = &with.heat;
        assert_eq!((h.nodes, h.pods[0]), (4, 4));
        let fewest = |n| (0..h.cols).map(|c| h.at(n, c)).min().unwrap();
        for n in 0..4 {
            assert_eq!(h.at(n, 0), 4);
            assert_eq!(h.at(n, h.cols - 1), 4);
            // Legacy flaps pods NotReady after the restart; KEP-4781 keeps them Ready.
            assert_eq!(fewest(n) < 4, p == Policy::Legacy, "{p:?}");
        }
    }
}

/// A link or flag that sets only the node count (the app's "see the fleet view" link is
/// `fleet/?nodes=1`): the preset's zones and batch follow it down; set explicitly, they are
/// still checked against it.
#[test]
fn fewer_nodes_bring_the_presets_zones_and_batch_down_with_them() {
    let mut o = fleet::edit::Overrides::default();
    o.set("nodes", "1").unwrap();
    let f = o.apply(fleet::rolling_upgrade()).unwrap();
    assert_eq!((f.nodes, f.zones, f.rolling.batch), (1, 1, 1));
    o.set("nodes", "3").unwrap();
    o.set("pods-per-node", "2").unwrap();
    let f = o.apply(fleet::rolling_upgrade()).unwrap();
    assert_eq!(
        (f.nodes, f.zones, f.rolling.batch, f.pods_per_node),
        (3, 3, 3, 2)
    );
    o.set("batch", "10").unwrap();
    let e = o.apply(fleet::rolling_upgrade()).unwrap_err();
    assert_eq!(fleet::edit::key_of(&e[0]), "batch");
    o.clear("batch");
    o.set("zones", "5").unwrap();
    let e = o.apply(fleet::rolling_upgrade()).unwrap_err();
    assert_eq!(fleet::edit::key_of(&e[0]), "zones");
}

/// The work is linear in nodes when the rollout's length is held (batches growing with the
/// nodes): ten times the nodes is at most ten and a half times the events, for both kubelets.
/// Time is measured in docs/PERFORMANCE.md (`perf stat`); this checks the part no machine's cache
/// changes.
#[test]
fn work_grows_linearly_with_nodes() {
    let sized = |nodes: u32| {
        let mut f = fleet::rolling_upgrade();
        f.nodes = nodes;
        f.rolling.batch = nodes / 20;
        fleet::compare(&f, None).expect("valid fleet")
    };
    let (a, b) = (sized(60), sized(600));
    for (ra, rb) in a.iter().zip(&b) {
        let ratio = rb.totals.events_processed as f64 / ra.totals.events_processed as f64;
        assert!(
            ratio <= 10.5,
            "{:?}: 10× the nodes took {ratio:.2}× the events",
            ra.policy
        );
        // The same rollout: as many seconds, ten times the status writes.
        assert_eq!(ra.series.t_s.len(), rb.series.t_s.len());
        assert_eq!(
            rb.totals.kubelet_status_writes,
            10 * ra.totals.kubelet_status_writes
        );
    }
}
