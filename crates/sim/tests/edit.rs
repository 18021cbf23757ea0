//! The one scenario-editing path (`Scenario::with_*`, `Overrides::apply`): what each edit
//! changes, and that a longer downtime shows the kubelet's return and what follows.

use restartscope_sim::*;

fn preset(name: &str) -> Scenario {
    (presets::find(name).unwrap().build)()
}

#[test]
fn a_longer_downtime_extends_the_horizon_past_the_return() {
    // short-restart: restart at 30 s for 20 s, horizon 120 s (70 s after the return).
    let sc = preset("short-restart").with_downtime(360.0);
    assert_eq!(sc.kubelet.restarts[0], Restart::new(30.0, 360.0));
    assert_eq!(sc.horizon_s, 30.0 + 360.0 + MIN_TAIL_S);
    // The whole story is in the run: the kubelet returns, the pods were evicted and go away.
    let [legacy, kep] = compare(&sc).unwrap();
    for tr in [&legacy, &kep] {
        assert!(tr.events.iter().any(|e| e.kind == Kind::KubeletStart));
        assert!(tr.metrics.evictions > 0, "{}", tr.metrics.evictions);
    }
}

#[test]
fn the_tail_after_the_return_is_kept_when_it_is_longer() {
    // eviction: 90 s after the return; daemonset-long-outage: 90 s; unhealthy-during-downtime: 100 s.
    let sc = preset("unhealthy-during-downtime");
    let end = |s: &Scenario| s.kubelet.restarts[0].at_s + s.kubelet.restarts[0].downtime_s;
    let tail = sc.horizon_s - end(&sc);
    assert_eq!(tail, 100.0);
    let edited = sc.clone().with_restart(40.0, 60.0);
    assert_eq!(edited.horizon_s - end(&edited), 100.0);
    // Edits compose: applying the same restart again changes nothing.
    assert_eq!(edited.clone().with_restart(40.0, 60.0), edited);
}

#[test]
fn a_slow_probe_or_a_late_first_sync_lengthens_the_tail() {
    let sc = preset("short-restart")
        .with_readiness(&ProbeOverrides {
            period_s: Some(120),
            ..ProbeOverrides::default()
        })
        .with_first_sync(30.0)
        .with_restart(30.0, 20.0);
    // First SyncPod 30 s after the return, then one 120 s period (+1 s probe), plus 10 s.
    assert_eq!(sc.settle_s(), 161.0);
    assert_eq!(sc.horizon_s, 50.0 + 161.0);
}

#[test]
fn moving_the_restart_moves_the_story_with_it() {
    // crash-during-downtime: the container exits at 40 s, 10 s into the restart at 30 s.
    let sc = preset("crash-during-downtime");
    let truth_at = |s: &Scenario| {
        s.pods
            .iter()
            .flat_map(|p| &p.containers)
            .flat_map(|c| &c.truth)
            .map(|t| t.at_s)
            .collect::<Vec<_>>()
    };
    assert_eq!(truth_at(&sc), vec![40.0]);
    let moved = sc.with_restart(100.0, 30.0);
    assert_eq!(truth_at(&moved), vec![110.0]);
}

#[test]
fn grace_equal_to_the_versions_default_stays_implicit() {
    let sc = preset("short-restart");
    assert_eq!(sc.cluster.node_monitor_grace_s, None);
    assert_eq!(
        sc.clone().with_grace(50.0).cluster.node_monitor_grace_s,
        None
    );
    assert_eq!(
        sc.clone().with_grace(40.0).cluster.node_monitor_grace_s,
        Some(40.0)
    );
    // The version first, then the grace: 40 s is 1.31's default.
    let o = Overrides {
        version: Some(KubeVersion::V1_31),
        grace_s: Some(40.0),
        ..Overrides::default()
    };
    let sc = o.apply(sc).unwrap();
    assert_eq!(sc.cluster.node_monitor_grace_s, None);
    assert_eq!(sc.cluster.grace_s(), 40.0);
}

#[test]
fn no_overrides_is_the_scenario_itself() {
    for p in presets::PRESETS {
        let sc = (p.build)();
        assert_eq!(
            Overrides::default().apply(sc.clone()).unwrap(),
            sc,
            "{}",
            p.name
        );
    }
}

#[test]
fn overrides_are_validated_in_kubernetes_words() {
    let o = Overrides {
        grace_s: Some(1.0),
        readiness: ProbeOverrides {
            failure_threshold: Some(0),
            ..ProbeOverrides::default()
        },
        ..Overrides::default()
    };
    let errs = o.apply(preset("long-restart")).unwrap_err();
    let msgs: Vec<&str> = errs.iter().map(|e| e.message.as_str()).collect();
    assert!(msgs.contains(&"--node-monitor-grace-period must be between 5s and 600s, got 1s"));
    assert!(msgs.contains(
        &"containers[app].readinessProbe.failureThreshold must be at least 1 (an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 3"
    ));
    // A downtime needs a restart to change.
    let mut sc = preset("long-restart");
    sc.kubelet.restarts.clear();
    let o = Overrides {
        downtime_s: Some(30.0),
        ..Overrides::default()
    };
    let errs = o.apply(sc).unwrap_err();
    assert_eq!(errs[0].field, "kubelet.restarts");
}
