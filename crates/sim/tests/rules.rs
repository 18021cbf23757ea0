//! One or more tests per rule (SPEC §4), each through the public API on a small scenario.

mod common;
use common::*;
use restartscope_sim::*;

#[test]
fn k1_stopped_kubelet_does_nothing() {
    let sc = canonical(30.0, 3);
    for tr in run(&sc) {
        assert!(tr
            .events
            .iter()
            .filter(|e| e.by == Actor::Kubelet)
            .all(|e| !(secs(e) > 100.0 && secs(e) < 130.0)));
        assert_eq!(first(&tr, Kind::KubeletStop).unwrap().rule, Rule::K1);
    }
}

#[test]
fn k2_start_renews_lease_and_posts_node_ready() {
    let sc = canonical(90.0, 3);
    for tr in run(&sc) {
        let start = first(&tr, Kind::KubeletStart).unwrap();
        assert_eq!(secs(start), 190.0);
        assert!(tr
            .events
            .iter()
            .any(|e| e.kind == Kind::LeaseRenew && e.t == start.t && e.rule == Rule::K2));
        let ready = tr
            .events
            .iter()
            .find(|e| {
                e.kind == Kind::NodeReady && e.value == Value::Condition(ConditionStatus::True)
            })
            .unwrap();
        assert_eq!((ready.t, ready.by), (start.t, Actor::Kubelet));
        // Renewals every 0.25 × lease duration plus up to 4 % (JitterUntil, sliding) while up.
        let renews: Vec<_> = events(&tr, Kind::LeaseRenew)
            .into_iter()
            .filter(|e| e.t >= start.t)
            .collect();
        let gaps: Vec<Ms> = renews.windows(2).map(|w| w[1].t - w[0].t).collect();
        assert!(
            gaps.iter().all(|g| (10_000..10_400).contains(g)),
            "{gaps:?}"
        );
        assert!(gaps.iter().any(|g| *g != gaps[0]), "jittered: {gaps:?}");
    }
}

#[test]
fn k3_first_sync_after_the_delay_then_workers() {
    let mut sc = canonical(20.0, 3);
    sc.kubelet.first_sync_delay_s = 5.0;
    let [legacy, _] = run(&sc);
    let sync = first(&legacy, Kind::PodSync).unwrap();
    assert_eq!(secs(sync), 125.0);
    // No probe before the first SyncPod added the workers.
    assert!(events(&legacy, Kind::Probe)
        .iter()
        .all(|e| !(secs(e) > 100.0 && secs(e) < 125.0)));
}

#[test]
fn k3r_container_that_exited_during_downtime_is_restarted_at_first_sync() {
    let sc = presets::crash_during_downtime();
    for tr in run(&sc) {
        let r = first(&tr, Kind::ContainerRestart).unwrap();
        assert_eq!((secs(r), r.rule, r.pod), (62.0, Rule::K3r, Some(1)));
        // The API said Ready the whole time the kubelet was away: unjustified Ready.
        assert!(tr.metrics.unjustified_ready_s >= 20.0);
        let ready = ready_changes_of(&tr, 1);
        assert_eq!(ready[0], (62.0, false));
    }
}

fn ready_changes_of(tr: &Trace, pod: u16) -> Vec<(f64, bool)> {
    tr.pod_ready_changes(pod)
        .map(|e| (secs(e), e.value == Value::Bool(true)))
        .collect()
}

#[test]
fn k4_e1d_deleted_pod_removed_after_termination_grace() {
    let sc = canonical(360.0, 3);
    for tr in run(&sc) {
        let removed = first(&tr, Kind::PodRemoved).unwrap();
        // Kubelet back at 460, first SyncPod at 462, grace 30 s.
        assert_eq!(secs(removed), 492.0);
        assert_eq!(removed.rule, Rule::E1d);
    }
}

/// `killContainer` (kuberuntime_container.go) raises a grace under `minimumGracePeriodInSeconds`
/// to 2 s: a pod with `terminationGracePeriodSeconds` 0 or 1 is gone 2 s after its first SyncPod
/// as a deleted pod, its containers' exit under K4g; 2 s and above are the pod's own (K4).
#[test]
fn k4g_a_grace_under_two_seconds_is_raised_to_two() {
    for (grace, rule) in [
        (0.0, Rule::K4g),
        (1.0, Rule::K4g),
        (2.0, Rule::K4),
        (5.0, Rule::K4),
    ] {
        let mut sc = canonical(360.0, 3);
        sc.pods[0].termination_grace_s = grace;
        sc.validate().unwrap();
        for tr in run(&sc) {
            // Kubelet back at 460, first SyncPod at 462.
            let exit = first(&tr, Kind::ContainerExit).unwrap();
            let removed = first(&tr, Kind::PodRemoved).unwrap();
            let kill = f64::max(grace, 2.0);
            assert_eq!(
                (secs(exit), exit.rule),
                (462.0 + kill, rule),
                "grace {grace}"
            );
            assert_eq!(secs(removed), 462.0 + kill, "grace {grace}");
        }
    }
}

#[test]
fn p1_legacy_seeds_readiness_failure_and_startup_unknown() {
    let sc = presets::startup_probe();
    let [legacy, kep] = run(&sc);
    let seeded: Vec<_> = events(&legacy, Kind::ProbeResult)
        .into_iter()
        .filter(|e| e.rule == Rule::P1 && secs(e) > 50.0)
        .filter_map(|e| match e.value {
            Value::Probe(p) => Some((e.pod, p.probe, p.result)),
            _ => None,
        })
        .collect();
    assert!(seeded.contains(&(Some(0), ProbeKind::Startup, Outcome::Unknown)));
    assert!(seeded.contains(&(Some(0), ProbeKind::Readiness, Outcome::Failure)));
    assert!(seeded.contains(&(Some(0), ProbeKind::Liveness, Outcome::Success)));
    // P1k: KEP writes none of them for containers older than the kubelet.
    assert!(events(&kep, Kind::ProbeResult)
        .iter()
        .all(|e| e.rule != Rule::P1));
    assert_eq!(
        events(&kep, Kind::ProbeResult)
            .iter()
            .filter(|e| e.rule == Rule::P1k)
            .count(),
        4
    );
}

#[test]
fn p2_jitter_only_when_the_kubelet_started_recently() {
    // First SyncPod 15 s after start > one period: no jitter, the first probe runs at once.
    let mut sc = canonical(20.0, 3);
    sc.kubelet.first_sync_delay_s = 15.0;
    let [legacy, _] = run(&sc);
    let p = events(&legacy, Kind::Probe)
        .into_iter()
        .find(|e| secs(e) > 120.0)
        .unwrap();
    assert_eq!(secs(p), 135.0 + 1.0);
    // With the default 2 s delay the first probe is somewhere in [S, S + period).
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=30 {
        let [legacy, _] = run(&canonical(20.0, seed));
        let p = events(&legacy, Kind::Probe)
            .into_iter()
            .find(|e| secs(e) > 120.0)
            .unwrap();
        let start = secs(p) - 1.0;
        assert!((122.0..132.0).contains(&start));
        seen.insert((start * 10.0) as i64);
    }
    assert!(seen.len() > 20, "jitter should vary with the seed");
}

#[test]
fn p3_initial_delay_counts_from_started_at() {
    let mut sc = presets::crash_during_downtime();
    sc.pods[1].containers[0].readiness_probe = Some(Probe {
        initial_delay_s: 25,
        ..Probe::default()
    });
    let [legacy, _] = run(&sc);
    // Restarted at 62 s: no readiness probe of pod 1 before 87 s.
    let first_probe = events(&legacy, Kind::Probe)
        .into_iter()
        .find(|e| e.pod == Some(1) && secs(e) > 62.0)
        .unwrap();
    assert!(secs(first_probe) >= 87.0, "{}", secs(first_probe));
}

#[test]
fn p4_readiness_waits_for_started() {
    let sc = presets::startup_probe();
    let [legacy, _] = run(&sc);
    let started_false = events(&legacy, Kind::ContainerStarted)
        .into_iter()
        .find(|e| e.value == Value::Bool(false))
        .unwrap();
    let started_true = events(&legacy, Kind::ContainerStarted)
        .into_iter()
        .find(|e| e.value == Value::Bool(true) && e.t > started_false.t)
        .unwrap();
    let readiness_between = events(&legacy, Kind::Probe).into_iter().any(|e| {
        e.pod == Some(0)
            && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Readiness)
            && e.t > started_false.t
            && e.t < started_true.t
    });
    assert!(!readiness_between);
}

#[test]
fn p5_failure_cached_only_after_failure_threshold() {
    let sc = presets::unhealthy_during_downtime();
    let [_, kep] = run(&sc);
    let fail = events(&kep, Kind::ProbeResult)
        .into_iter()
        .find(|e| {
            e.pod == Some(1)
                && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Readiness && p.result == Outcome::Failure)
                && e.rule == Rule::P5
        })
        .unwrap();
    let failures_before = events(&kep, Kind::Probe)
        .into_iter()
        .filter(|e| {
            e.pod == Some(1)
                && e.t <= fail.t
                && secs(e) > 50.0
                && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Readiness && p.result == Outcome::Failure)
        })
        .count();
    assert_eq!(failures_before, 3);
}

#[test]
fn p6_liveness_failure_kills_and_restarts() {
    let sc = presets::unhealthy_during_downtime();
    for tr in run(&sc) {
        let kill = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .unwrap();
        let restart = first(&tr, Kind::ContainerRestart).unwrap();
        assert!(restart.t >= kill.t);
        assert_eq!(restart.pod, Some(1));
    }
}

#[test]
fn s1_kep_keeps_started_legacy_resets_it() {
    let sc = presets::startup_probe();
    let [legacy, kep] = run(&sc);
    assert!(!events(&legacy, Kind::ContainerStarted).is_empty());
    assert!(events(&kep, Kind::ContainerStarted).is_empty());
}

#[test]
fn s2_legacy_reports_ready_before_workers_exist() {
    let sc = presets::not_ready_before_restart();
    let [legacy, kep] = run(&sc);
    let ch = ready_changes_of(&legacy, 1);
    // NotReady before the restart, then Ready=true at the first SyncPod (82 s), then false.
    assert!(!ch[0].1);
    assert_eq!(ch[1], (82.0, true));
    assert!(!ch[2].1);
    let e = legacy.pod_ready_changes(1).nth(1).unwrap();
    assert_eq!(e.rule, Rule::S2);
    assert!(legacy.metrics.unjustified_ready_s > 0.0);
    // S3: KEP keeps it NotReady.
    assert_eq!(ready_changes_of(&kep, 1).len(), 1);
    assert!(kep.metrics.unjustified_ready_s < legacy.metrics.unjustified_ready_s);
}

#[test]
fn s3_kep_long_restart_keeps_not_ready_until_a_probe_succeeds() {
    let sc = canonical(90.0, 5);
    let [_, kep] = run(&sc);
    let ch = ready_changes(&kep);
    assert_eq!(ch.len(), 2);
    assert!(ch[1].0 > 192.0);
    // The first SyncPod still writes (ContainersReady was True in the API), decided by S3.
    let w = kep
        .events
        .iter()
        .find(|e| e.kind == Kind::StatusWrite && e.by == Actor::Kubelet)
        .unwrap();
    assert_eq!((secs(w), w.rule), (192.0, Rule::S3));
}

#[test]
fn n1_node_unknown_and_pods_not_ready_in_one_pass() {
    let sc = canonical(90.0, 9);
    for tr in run(&sc) {
        let n = first(&tr, Kind::NodeReady).unwrap();
        let p = tr.pod_ready_changes(0).next().unwrap();
        assert_eq!((n.t, n.rule), (p.t, Rule::N1));
        assert_eq!(tr.metrics.nlc_status_writes, 1);
        let ns = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::TaintAdded)
            .unwrap();
        assert_eq!(
            (ns.t, ns.value.clone()),
            (n.t, Value::Taint(TaintEffect::NoSchedule))
        );
    }
}

#[test]
fn n1_grace_period_follows_the_version() {
    // 45 s outage: under v1.31 (grace 40 s) the node may go Unknown; never under 1.35 with
    // a 30 s outage (30 + 10 renew + 5 pass < 50).
    let mut sc = canonical(30.0, 2);
    for tr in run(&sc) {
        assert!(first(&tr, Kind::NodeReady).is_none());
    }
    sc.kubelet.restarts[0].downtime_s = 60.0;
    sc.cluster.version = KubeVersion::V1_31;
    let runs = compare_default(&sc).unwrap();
    assert_eq!(runs.len(), 1, "1.31 has only the legacy kubelet");
    assert_eq!(runs[0].kubelet, "1.31 · default (legacy)");
    for tr in runs {
        assert_eq!(tr.grace, 40_000);
        assert!(first(&tr, Kind::NodeReady).is_some());
    }
}

#[test]
fn e1_daemonset_pods_are_never_evicted() {
    let sc = presets::daemonset_long_outage();
    for tr in run(&sc) {
        let ev: Vec<_> = events(&tr, Kind::Eviction);
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].pod, Some(0));
        assert!(events(&tr, Kind::EvictionScheduled)
            .iter()
            .all(|e| e.pod == Some(0)));
    }
}

#[test]
fn e1c_eviction_cancelled_when_the_taint_goes() {
    let sc = canonical(90.0, 4);
    for tr in run(&sc) {
        assert_eq!(events(&tr, Kind::EvictionScheduled).len(), 1);
        let c = first(&tr, Kind::EvictionCancelled).unwrap();
        assert_eq!(c.rule, Rule::E1c);
        assert_eq!(tr.metrics.evictions, 0);
    }
}

#[test]
fn es1_one_slice_update_per_endpoint_change() {
    let sc = canonical(20.0, 4);
    let [legacy, _] = run(&sc);
    let eps: Vec<_> = events(&legacy, Kind::Endpoint);
    assert_eq!(eps.len(), 2);
    assert_eq!(
        eps[0].value,
        Value::Endpoint(EndpointValue {
            ready: false,
            serving: false,
            terminating: false
        })
    );
    assert_eq!(legacy.metrics.endpointslice_updates, 2);
    // Three pods flipping at the same instant in one Service: one update.
    let sc = presets::long_restart();
    let [legacy, _] = run(&sc);
    let n1 = first(&legacy, Kind::NodeReady).unwrap().t;
    assert_eq!(
        events(&legacy, Kind::EndpointsliceUpdate)
            .iter()
            .filter(|e| e.t == n1)
            .count(),
        1
    );
}

#[test]
fn p6_startup_failure_kills_and_restarts() {
    // A container that exits, comes back slow (warm-up 60 s) and fails its startup probe
    // three times is killed and restarted (computePodActions), not left NotReady forever.
    let mut sc = canonical(20.0, 3);
    let c = &mut sc.pods[0].containers[0];
    c.startup_probe = Some(Probe {
        failure_threshold: 3,
        ..Probe::default()
    });
    c.warmup_s = 60.0;
    c.truth = vec![Truth {
        at_s: 20.0,
        state: Health::Exited,
    }];
    sc.horizon_s = 400.0;
    for tr in run(&sc) {
        let kill = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .expect("startup failure kills");
        assert!(secs(kill) > 20.0 && secs(kill) < 60.0, "{}", secs(kill));
        assert!(events(&tr, Kind::ContainerRestart).len() >= 2);
    }
}

#[test]
fn s2_immediate_probe_request_is_buffered_while_probing() {
    // successThreshold 3: the initial Failure's pod sync asks for an immediate probe while the
    // first probe runs; it runs right after, so Ready returns one period earlier than ticks alone.
    let mut sc = canonical(20.0, 5);
    sc.pods[0].containers[0].readiness_probe = Some(Probe {
        success_threshold: 3,
        ..Probe::default()
    });
    let [legacy, _] = run(&sc);
    let ch = ready_changes(&legacy);
    assert_eq!(ch.len(), 2);
    let (t_false, t_true) = (ch[0].0, ch[1].0);
    // Successes at +1 s (first probe), +2 s (triggered), +12 s (next tick after the reset).
    assert!(
        (t_true - t_false - 12.0).abs() < 1e-9,
        "{t_false} → {t_true}"
    );
}

#[test]
fn n1t_noschedule_taint_leaves_when_the_kubelet_posts_ready() {
    let sc = canonical(90.0, 4);
    for tr in run(&sc) {
        let removed = tr
            .events
            .iter()
            .find(|e| {
                e.kind == Kind::TaintRemoved && e.value == Value::Taint(TaintEffect::NoSchedule)
            })
            .unwrap();
        assert_eq!((secs(removed), removed.rule), (190.0, Rule::N1t));
    }
}
