//! A node that cannot reach the API server (`kubelet.api_unreachable`, rules K2u and S5r), and
//! the upstream report that needs one: kubernetes#141473 (`report-141473-replaced-during-partition`;
//! `tests/reports.rs`, at its size limit, holds the other reports). Each reporter sequence is
//! checked under every kubelet profile over several seeds.

use restartscope_sim::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
const KEP_BUGGY: [KubeVersion; 4] = [
    KubeVersion::V1_35,
    KubeVersion::V1_35_4,
    KubeVersion::V1_36,
    KubeVersion::V1_37,
];

fn run(sc: &Scenario, version: KubeVersion, policy: Policy, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    sc.cluster.node_monitor_grace_s = None;
    sc.cluster.version = version;
    let profile = KubeletProfile::new(version, policy).expect("profile");
    simulate_profile(&sc, &profile).expect("valid scenario")
}

fn secs(t: Ms) -> f64 {
    t as f64 / 1000.0
}

/// (t, Ready, rule) of every API PodReady change of `pod` at or after `from` seconds.
fn ready(tr: &Trace, pod: u16, from: f64) -> Vec<(f64, bool, Rule)> {
    tr.pod_ready_changes(pod)
        .filter(|e| secs(e.t) >= from)
        .map(|e| (secs(e.t), e.value == Value::Bool(true), e.rule))
        .collect()
}

fn times(tr: &Trace, kind: Kind, pod: Option<u16>) -> Vec<f64> {
    tr.events
        .iter()
        .filter(|e| e.kind == kind && (pod.is_none() || e.pod == pod))
        .map(|e| secs(e.t))
        .collect()
}

/// Readiness `probe_result` events of `pod` with `rule` at or after `from`.
fn results(tr: &Trace, pod: u16, rule: Rule, from: f64) -> Vec<f64> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::ProbeResult && e.pod == Some(pod) && e.rule == rule)
        .filter(|e| matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Readiness))
        .map(|e| secs(e.t))
        .filter(|t| *t >= from)
        .collect()
}

fn kubelet_writes_in(tr: &Trace, from: f64, to: f64) -> usize {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::StatusWrite && e.value == Value::Writer(Actor::Kubelet))
        .filter(|e| (from..to).contains(&secs(e.t)))
        .count()
}

/// kubernetes#141473: "the API server records container A as Ready=true; while the API server is
/// unavailable, container A is replaced by container B; the kubelet then restarts" — B "was
/// reported Ready until its own readiness probe first ran, delayed by `initialDelaySeconds`"
/// (#141487). Fixed on main only (cherry-picks #142253–5 open), so 1.35–1.37 still show it.
#[test]
fn report_141473_replacement_inherits_ready_until_main() {
    let sc = (presets::find("report-141473-replaced-during-partition")
        .expect("preset")
        .build)();
    assert_eq!(sc.cluster.version, KubeVersion::V1_36);
    let (web0, web1) = (0u16, 1u16);
    let lost = sc.kubelet.api_unreachable[0].at_s;
    let back = lost + sc.kubelet.api_unreachable[0].duration_s;
    let delay = sc.pods[0].containers[0]
        .readiness_probe
        .as_ref()
        .unwrap()
        .initial_delay_s as f64;
    let profiles = KubeVersion::ALL
        .into_iter()
        .flat_map(|v| KubeletProfile::defaults(v).into_iter().map(move |p| (v, p)));
    for seed in SEEDS {
        let mut unjustified = Vec::new();
        for (v, profile) in profiles.clone() {
            let tr = run(&sc, v, profile.policy(), seed);
            let label = format!("seed {seed} {}", tr.kubelet);
            // The replacement starts during the partition, more than 10 s before the new kubelet.
            let b = times(&tr, Kind::ContainerRestart, Some(web0));
            assert_eq!(b.len(), 1, "{label}");
            let (stop, up) = (secs(tr.restarts[0].0), secs(tr.restarts[0].1));
            assert!(
                lost < b[0] && b[0] < stop && b[0] < up - 10.0,
                "{label}: {b:?}"
            );
            // Nothing the kubelet writes gets through while the node cannot reach the API
            // server; its renewals fail; the partition is shorter than the grace period, so the
            // node lifecycle controller leaves the node and the pods alone.
            assert_eq!(kubelet_writes_in(&tr, lost, back), 0, "{label}");
            assert!(times(&tr, Kind::LeaseRenew, None)
                .iter()
                .all(|t| !(lost..back).contains(t)));
            assert_eq!(tr.metrics.nlc_status_writes, 0, "{label}");
            // The kubelet started during the partition: its pods' first SyncPod waits for it.
            assert!(times(&tr, Kind::PodSync, None).iter().all(|t| *t == back));
            let after = ready(&tr, web0, 0.0);
            if profile.policy() == Policy::Kep && KEP_BUGGY.contains(&v) {
                // The bug: B inherits the old container's Ready (no initial Failure: P1k) and
                // stays Ready until failureThreshold probes after initialDelaySeconds fail.
                assert_eq!(results(&tr, web0, Rule::P1k, back), [back], "{label}");
                assert!(results(&tr, web0, Rule::P1, back).is_empty(), "{label}");
                assert!(!after[0].1, "{label}");
                assert_eq!(after[0].2, Rule::P5, "{label}");
                let t = after[0].0;
                assert!(
                    t >= b[0] + delay + 20.0 && t <= b[0] + delay + 32.0,
                    "{label}: NotReady at {t}"
                );
            } else {
                // main (#141487) and the legacy kubelet: the worker writes B's initial Failure
                // at its first run, within one period of the first SyncPod.
                assert_eq!(results(&tr, web0, Rule::P1, back), [back], "{label}");
                assert!(results(&tr, web0, Rule::P1k, back).is_empty(), "{label}");
                // main with KEP-4781 writes NotReady already in the status the first SyncPod
                // generates, before the worker exists (#141487's manager side, S3:
                // `!canInheritProbeState`; TestUpdatePodStatusOnKubeletRestart, "…, first
                // sync"); the legacy kubelet at the worker's initial Failure (P1).
                let rule = if profile.policy() == Policy::Kep {
                    Rule::S3
                } else {
                    Rule::P1
                };
                assert_eq!(after[0], (back, false, rule), "{label}");
            }
            // B is Ready again once it answers (after its 120 s warm-up).
            assert!(after.last().unwrap().1 && after.last().unwrap().0 >= b[0] + 120.0);
            if profile.policy() == Policy::Kep {
                // The untouched replica: the API names its own container, so every KEP-4781
                // release, main included, keeps it Ready (P1k).
                assert!(ready(&tr, web1, 0.0).is_empty(), "{label}");
                assert_eq!(results(&tr, web1, Rule::P1k, back), [back], "{label}");
                unjustified.push((v, tr.metrics.unjustified_ready_s));
            }
        }
        let main = unjustified.last().unwrap();
        assert_eq!(main.0, KubeVersion::Main);
        for (v, u) in unjustified.iter().filter(|(v, _)| KEP_BUGGY.contains(v)) {
            assert!(
                u - main.1 > 40.0,
                "seed {seed} {v:?}: {u} vs main {}",
                main.1
            );
        }
    }
}

/// A partition longer than the grace period looks like a stopped kubelet to the control plane
/// (N1, N2) while the kubelet goes on probing; when it ends the kubelet renews its lease, posts
/// node Ready (K2u) and rewrites the Ready the node lifecycle controller took away (S5r).
#[test]
fn a_long_partition_looks_like_a_down_kubelet_to_the_control_plane() {
    let mut sc = presets::short_restart();
    sc.kubelet.restarts[0].at_s = 200.0;
    sc.kubelet.api_unreachable = vec![ApiUnreachable {
        at_s: 30.0,
        duration_s: 90.0,
    }];
    sc.horizon_s = 260.0;
    for seed in 1..=5 {
        for policy in Policy::BOTH {
            sc.seed = seed;
            let tr = simulate_policy(&sc, policy).unwrap();
            let e = |kind: Kind, rule: Rule| {
                tr.events
                    .iter()
                    .filter(move |e| e.kind == kind && e.rule == rule)
                    .map(|e| secs(e.t))
            };
            let unknown: Vec<f64> = e(Kind::NodeReady, Rule::N1).collect();
            assert_eq!(unknown.len(), 1);
            assert!((70.0..=95.0).contains(&unknown[0]), "{unknown:?}");
            assert_eq!(e(Kind::TaintAdded, Rule::N2).count(), 1);
            assert_eq!(tr.metrics.nlc_status_writes, 3, "every pod marked NotReady");
            // The kubelet kept probing and wrote nothing.
            let probes = times(&tr, Kind::Probe, Some(0));
            assert!(probes.iter().filter(|t| (30.0..120.0).contains(*t)).count() >= 8);
            assert_eq!(kubelet_writes_in(&tr, 30.0, 120.0), 0);
            // Back at 120 s: node Ready, and the pods Ready again by the status manager; the
            // lease sync, blocked in backoffEnsureLease since its first failure (30-40.4 s),
            // renews at its next attempt, at most 7 s later (attempts 0.2, 0.6, 1.4, 3.0, 6.2,
            // 12.6, 19.6, … s after the first failure).
            let renewed: Vec<f64> = e(Kind::LeaseRenew, Rule::K2u).collect();
            assert_eq!(renewed.len(), 1, "{renewed:?}");
            assert!((120.0..=127.0).contains(&renewed[0]), "{renewed:?}");
            assert!(times(&tr, Kind::LeaseRenew, None)
                .iter()
                .all(|t| !(30.0..renewed[0]).contains(t)));
            assert_eq!(e(Kind::NodeReady, Rule::K2u).collect::<Vec<_>>(), [120.0]);
            for p in 0..3 {
                let r = ready(&tr, p, 30.0);
                assert!(!r[0].1);
                assert_eq!(r[1], (120.0, true, Rule::S5r), "{policy:?} pod {p}");
            }
            assert!(e(Kind::TaintRemoved, Rule::N3).all(|t| (120.0..126.0).contains(&t)));
            assert_eq!(tr.metrics.evictions, 0);
        }
    }
}

/// K2u: after a partition the kubelet posts node Ready over the node lifecycle controller's
/// Unknown at its next `syncNodeStatus`, on the 10 s grid from its own start, not when the
/// window ends (`kubelet_node_status.go` `syncNodeStatus`; the oracle's case
/// `crates/sim/oracle-cases/partition-outlasts-grace.toml`: a kubelet restarted at 80 s, down
/// 7 s, inside a 20-110 s window posts at 117 s on v1.36.3).
#[test]
fn after_a_partition_node_ready_waits_for_the_next_node_status() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/oracle-cases/partition-outlasts-grace.toml"
    ))
    .unwrap();
    let sc: Scenario = toml::from_str(&text).unwrap();
    for policy in Policy::BOTH {
        for seed in 1..=5 {
            let tr = run(&sc, KubeVersion::V1_36, policy, seed);
            let posted: Vec<f64> = (tr.events.iter())
                .filter(|e| e.kind == Kind::NodeReady && e.rule == Rule::K2u)
                .map(|e| secs(e.t))
                .collect();
            assert_eq!(posted, [117.0], "{policy:?} seed {seed}");
        }
    }
}

/// K2u: the lease can expire just after the partition's end, before the lease sync blocked in
/// `backoffEnsureLease` gets through; the node lifecycle controller then sets Unknown and marks
/// the pods NotReady while the kubelet reaches the API server again. Its `syncNodeStatus` runs on
/// and posts Ready over the Unknown at its next run, and the status manager's `syncBatch`
/// writes the pods' Ready back (S5r); the model had the node Unknown until the next kubelet
/// restart. Found by running Kubernetes' code (`oracle/`, the case
/// `crates/sim/oracle-cases/partition-lease-expires-after-end.toml`): on v1.36.3 node Ready by
/// the kubelet at 70 s.
#[test]
fn a_lease_that_expires_after_the_partition_ends_is_answered_by_the_next_node_status() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/oracle-cases/partition-lease-expires-after-end.toml"
    ))
    .unwrap();
    let sc: Scenario = toml::from_str(&text).unwrap();
    for policy in Policy::BOTH {
        let tr = run(&sc, KubeVersion::V1_36, policy, 1);
        let node = |rule: Rule| -> Vec<f64> {
            (tr.events.iter())
                .filter(|e| e.kind == Kind::NodeReady && e.rule == rule)
                .map(|e| secs(e.t))
                .collect()
        };
        let unknown = node(Rule::N1);
        assert_eq!(unknown.len(), 1, "{policy:?}");
        assert!(unknown[0] > 69.0 && unknown[0] < 70.0, "{unknown:?}");
        assert_eq!(node(Rule::K2u), [70.0], "{policy:?}");
        let r = ready(&tr, 0, 69.0);
        assert!(!r[0].1, "{r:?}");
        assert_eq!(r[1], (70.0, true, Rule::S5r), "{policy:?}");
    }
}

/// K2u: a window without the API server shorter than the renewal interval fails no lease
/// renewal, so nothing is retried: the renewal due after it comes at its usual time (rule K2r).
#[test]
fn a_partition_between_two_renewals_changes_no_renewal() {
    let mut sc = presets::short_restart();
    sc.kubelet.restarts[0].at_s = 200.0;
    sc.horizon_s = 230.0;
    let base = simulate_policy(&sc, Policy::Kep).unwrap();
    let renewals = times(&base, Kind::LeaseRenew, None);
    let (a, b) = renewals
        .windows(2)
        .map(|w| (w[0], w[1]))
        .find(|(a, _)| *a > 40.0)
        .unwrap();
    sc.kubelet.api_unreachable = vec![ApiUnreachable {
        at_s: (a + 1.0).ceil(),
        duration_s: ((b - a) - 2.0).floor(),
    }];
    let tr = simulate_policy(&sc, Policy::Kep).unwrap();
    assert_eq!(times(&tr, Kind::LeaseRenew, None), renewals);
    assert!(tr
        .events
        .iter()
        .all(|e| !(e.kind == Kind::LeaseRenew && e.rule == Rule::K2u)));
}

/// Taint eviction deletes the pods during a partition; the kubelet's pod watch shows the
/// deletion only when the API server is reachable again, and only then does it stop the
/// containers (K4) so the pods can be removed (E1d).
#[test]
fn deletions_reach_the_kubelet_when_the_api_is_back() {
    let mut sc = presets::short_restart();
    sc.kubelet.restarts[0].at_s = 590.0;
    sc.kubelet.api_unreachable = vec![ApiUnreachable {
        at_s: 30.0,
        duration_s: 500.0,
    }];
    sc.horizon_s = 600.0;
    let tr = simulate_policy(&sc, Policy::Kep).unwrap();
    let evicted = times(&tr, Kind::Eviction, None);
    assert_eq!(evicted.len(), 3);
    assert!(evicted.iter().all(|t| *t < 530.0), "{evicted:?}");
    let removed = times(&tr, Kind::PodRemoved, None);
    let grace = sc.pods[0].termination_grace_s;
    assert_eq!(removed, [530.0 + grace; 3]);
}

#[test]
fn api_unreachable_is_validated_in_the_scenarios_words() {
    let errs = |w: Vec<ApiUnreachable>| {
        let mut sc = presets::short_restart();
        sc.kubelet.api_unreachable = w;
        sc.validate()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    };
    let w = |at_s, duration_s| ApiUnreachable { at_s, duration_s };
    assert_eq!(
        errs(vec![w(10.0, 0.0)]),
        ["kubelet.api_unreachable[0].duration_s must be between 1 and 3600 seconds, got 0"]
    );
    assert_eq!(
        errs(vec![w(500.0, 10.0)]),
        ["kubelet.api_unreachable[0].at_s (when the node loses the API server) must be between 0 and 120 seconds (inside horizon_s), got 500"]
    );
    assert_eq!(
        errs(vec![w(10.0, 30.0), w(20.0, 5.0)]),
        ["kubelet.api_unreachable[1].at_s must not be before the previous window ends (40 s): the windows must be in time order and must not overlap, got 20"]
    );
    assert!(errs(vec![w(1.0, 1.0); 21])[0]
        .starts_with("kubelet.api_unreachable must list between 0 and 20 windows, got 21"));
    // A window around a restart is what #141473 needs, and none at all is the default.
    let mut sc = presets::short_restart();
    sc.kubelet.api_unreachable = vec![w(20.0, 40.0)];
    assert!(sc.validate().is_ok());
    let toml = toml::to_string(&presets::short_restart()).unwrap();
    assert!(!toml.contains("api_unreachable"));
}

/// S5r: the status manager re-sends the statuses whose writes failed at its next `syncBatch`,
/// not when the node reconnects (`status_manager.go`: `Start` runs `syncBatch` on its 10 s
/// ticker and on `podStatusChannel`; nothing fires on reconnecting). A partition that ends at
/// 115 s leaves the pods the node lifecycle controller marked NotReady so until the tick at
/// 120 s (the ticker runs from the kubelet's start, a whole number of 10 s before the story).
#[test]
fn statuses_go_back_at_the_status_managers_next_tick_not_at_reconnect() {
    let mut sc = presets::short_restart();
    sc.kubelet.restarts[0].at_s = 200.0;
    sc.kubelet.api_unreachable = vec![ApiUnreachable {
        at_s: 30.0,
        duration_s: 85.0,
    }];
    sc.horizon_s = 260.0;
    for policy in Policy::BOTH {
        let tr = simulate_policy(&sc, policy).unwrap();
        for p in 0..3 {
            let r = ready(&tr, p, 30.0);
            assert!(
                !r[0].1,
                "{policy:?} pod {p}: marked NotReady during the partition"
            );
            assert_eq!(r[1], (120.0, true, Rule::S5r), "{policy:?} pod {p}");
        }
        assert_eq!(kubelet_writes_in(&tr, 115.0, 120.0), 0, "{policy:?}");
    }
}
