//! The restarts other than the kubelet's: the container runtime's, the node's and in-place kubelet
//! upgrades, each against the Go code it follows (rules R1–R4, B1–B2, U1, K2n, E1n in
//! docs/MODEL.md), on every release they apply to.

use restartscope_sim::*;

fn secs(e: &Event) -> f64 {
    e.t as f64 / 1000.0
}

fn of(tr: &Trace, kind: Kind) -> Vec<&Event> {
    tr.events.iter().filter(|e| e.kind == kind).collect()
}

/// (time, pod, Ready) of a pod Ready change.
type ReadyChange = (i64, Option<u16>, Value);

fn with_restart(mut sc: Scenario, r: Restart) -> Scenario {
    sc.horizon_s = sc.horizon_s.max(r.end_s() + 60.0);
    sc.kubelet.restarts = vec![r];
    sc
}

/// Every lane of every release from 1.31 (1.30 posts NotReady at each start: tested below).
fn lanes() -> Vec<KubeletProfile> {
    KubeVersion::ALL
        .into_iter()
        .filter(|v| *v >= KubeVersion::V1_31)
        .flat_map(KubeletProfile::defaults)
        .collect()
}

fn run(sc: &Scenario, p: &KubeletProfile) -> Trace {
    let mut sc = sc.clone();
    sc.cluster.version = p.version;
    simulate_profile(&sc, p).unwrap_or_else(|e| panic!("{}: {e:?}", p.label()))
}

/// A 5 s runtime restart is shorter than `maxWaitForContainerRuntime` (30 s): nothing reaches the
/// API server. Exec probes error and are thrown away (`worker.go`: "Prober error, throw away the
/// result"; kubernetes#106682), so no failure is counted and nothing is killed; httpGet probes go
/// on (the sandbox keeps the container's network).
#[test]
fn a_5_s_runtime_restart_changes_nothing_the_api_server_sees() {
    let sc = with_restart(
        presets::runtime_restart(),
        Restart::of(RestartKind::Runtime, 30.0, 5.0),
    );
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        for kind in [
            Kind::NodeReady,
            Kind::PodReady,
            Kind::TaintAdded,
            Kind::ContainerExit,
        ] {
            assert!(of(&tr, kind).is_empty(), "{who}: {kind:?}");
        }
        let window = |e: &&Event| secs(e) >= 30.0 && secs(e) < 35.0;
        let thrown: Vec<&Event> = of(&tr, Kind::Probe).into_iter().filter(window).collect();
        assert!(
            thrown.iter().any(|e| e.rule == Rule::R2),
            "{who}: an exec probe ran in the window"
        );
        // Only exec (liveness) probes are thrown away; readiness (httpGet) keeps succeeding.
        for e in &thrown {
            if let Value::Probe(v) = &e.value {
                match e.rule {
                    Rule::R2 => assert_eq!(v.probe, ProbeKind::Liveness, "{who}"),
                    _ => assert_eq!(v.result, Outcome::Success, "{who}"),
                }
            }
        }
    }
}

/// A 90 s runtime restart: `runtimeErrors` says "container runtime is down" once the last good
/// `updateRuntimeUp` (every 5 s) is 30 s old; the next `syncNodeStatus` (10 s) posts
/// Ready=False. The node lifecycle controller observed False, not True, so it does not call
/// `MarkPodsNotReady` (kubernetes#125618): the pods stay Ready in the API and in their
/// EndpointSlices; the not-ready taints come (NoSchedule at once, NoExecute at the next 100 ms tainting tick) and
/// go, and the evictions they schedule use the not-ready toleration (E1n) and are cancelled.
#[test]
fn a_90_s_runtime_restart_posts_node_false_and_leaves_pods_ready() {
    let sc = presets::runtime_restart();
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        let node = of(&tr, Kind::NodeReady);
        assert_eq!(node.len(), 2, "{who}: {node:?}");
        assert_eq!(node[0].value, Value::Condition(ConditionStatus::False));
        assert_eq!((node[0].rule, node[0].by), (Rule::R3, Actor::Kubelet));
        // Down at 30 s: the last good check was at most 5 s earlier, the error from 30 s after
        // it, posted at the next 10 s node status: between 55 and 70 s.
        assert!((55.0..=70.0).contains(&secs(node[0])), "{who}: {node:?}");
        // Back at 120 s: the next check (≤ 5 s) and the next node status (≤ 10 s after it).
        assert_eq!(node[1].value, Value::Condition(ConditionStatus::True));
        assert!((120.0..=135.0).contains(&secs(node[1])), "{who}: {node:?}");
        assert!(of(&tr, Kind::PodReady).is_empty(), "{who}");
        assert_eq!(tr.metrics.nlc_status_writes, 0, "{who}");
        assert!(of(&tr, Kind::Eviction).is_empty(), "{who}");
        let scheduled = of(&tr, Kind::EvictionScheduled);
        assert_eq!(scheduled.len(), 3, "{who}");
        assert!(scheduled.iter().all(|e| e.rule == Rule::E1n));
        assert_eq!(of(&tr, Kind::EvictionCancelled).len(), 3, "{who}");
        let taints: Vec<Rule> = of(&tr, Kind::TaintAdded).iter().map(|e| e.rule).collect();
        assert_eq!(taints, [Rule::R3, Rule::R3], "{who}");
        assert_eq!(
            restartscope_report_free_taint_key(node[0].rule),
            "not-ready"
        );
        // No container was killed or restarted: exec liveness errors are not failures.
        assert!(of(&tr, Kind::ContainerExit).is_empty(), "{who}");
    }
}

/// The key the not-ready taint events carry (the report crate words it the same way).
fn restartscope_report_free_taint_key(rule: Rule) -> &'static str {
    match rule {
        Rule::R3 | Rule::R4 | Rule::K2n => "not-ready",
        _ => "unreachable",
    }
}

/// A runtime down longer than the not-ready toleration: the pods are deleted by taint eviction
/// while the API still says they are Ready (the kubelet never wrote otherwise).
#[test]
fn a_runtime_outage_past_the_not_ready_toleration_evicts_ready_pods() {
    let mut sc = with_restart(
        presets::runtime_restart(),
        Restart::of(RestartKind::Runtime, 30.0, 200.0),
    );
    sc.cluster.not_ready_toleration_s = 60.0;
    let tr = compare(&sc).unwrap();
    for tr in &tr {
        let ev = of(tr, Kind::Eviction);
        assert_eq!(ev.len(), 3, "{}", tr.kubelet);
        // Ready until the deletion: no pod Ready change before the first eviction.
        let first = ev[0].t;
        assert!(of(tr, Kind::PodReady).iter().all(|e| e.t >= first));
        let due = of(tr, Kind::EvictionScheduled);
        assert!(due.iter().all(|e| e.rule == Rule::E1n));
        assert_eq!(first - due[0].t, 60_000);
    }
}

/// A node reboot: every container stops with the node (B1); at boot the first SyncPod finds a new
/// sandbox and runs the init container again before the app (B2, `computePodActions`:
/// `InitContainersToStart` from the first), every container is new, Ready waits for the probes;
/// the KEP-4781 kubelet does the same as the legacy one (e2e_node `container_lifecycle_test.go`'s
/// node-reboot case expects the init containers to re-run in order either way).
#[test]
fn a_node_reboot_reruns_init_containers_in_order_on_every_kubelet() {
    let sc = presets::node_reboot();
    let mut ready_story: Option<(KubeVersion, Vec<ReadyChange>)> = None;
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        let exits: Vec<&Event> = of(&tr, Kind::ContainerExit);
        assert!(
            exits.iter().filter(|e| e.rule == Rule::B1).count() == 2,
            "{who}"
        );
        for pod in 0..2u16 {
            let starts: Vec<(f64, &str)> = of(&tr, Kind::ContainerRestart)
                .into_iter()
                .filter(|e| e.pod == Some(pod))
                .map(|e| {
                    (
                        secs(e),
                        tr.pods[pod as usize].containers[e.container.unwrap() as usize]
                            .name
                            .as_str(),
                    )
                })
                .collect();
            assert_eq!(starts.len(), 2, "{who}: {starts:?}");
            assert_eq!(starts[0].1, "migrate", "{who}: init container first");
            assert_eq!(starts[1].1, "app", "{who}");
            // The app starts only after migrate exited 0 (3 s) and the PLEG saw it (≤ 1 s).
            assert!(
                starts[1].0 >= starts[0].0 + 3.0 && starts[1].0 <= starts[0].0 + 4.0,
                "{who}: {starts:?}"
            );
            assert!(starts[0].0 >= 70.0, "{who}: after the boot");
        }
        // Ready False at the first SyncPod, True once the readiness probe passed.
        let ready: Vec<ReadyChange> = of(&tr, Kind::PodReady)
            .into_iter()
            .map(|e| (e.t, e.pod, e.value.clone()))
            .collect();
        // (The node lifecycle controller's grace decides who writes False first: 40 s on 1.31,
        // as long as this reboot, so there the controller marks the pods at ~70 s.)
        assert_eq!(ready.len(), 4, "{who}: {ready:?}");
        match &ready_story {
            Some((v, first)) if *v == p.version => {
                assert_eq!(first, &ready, "{who}: same story as the legacy kubelet")
            }
            _ => ready_story = Some((p.version, ready)),
        }
    }
}

/// B2 with S1/S2: the init container a reboot runs again is, in the API, as
/// `prober_manager.go` `UpdatePodStatus` says: Started and not Ready from the PLEG's relist after
/// its start (an ordinary init container is Ready only once it terminated with exit 0;
/// `isContainerStarted`: running, no startup worker), Ready and not Started again from the relist
/// after its exit; until its start the previous Completed status stands (`kubelet_pods.go`
/// `convertToAPIContainerStatuses` keeps a Terminated status the runtime lost). Kubernetes' code
/// in the harness (oracle/internal/node/reboot.go) showed both changes the model lacked.
#[test]
fn a_rebooted_pods_init_container_is_started_not_ready_while_it_runs_again() {
    let sc = presets::node_reboot();
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        for pod in 0..2u16 {
            let mine = |k: Kind| -> Vec<&Event> {
                of(&tr, k)
                    .into_iter()
                    .filter(|e| e.pod == Some(pod) && e.container == Some(0))
                    .collect()
            };
            let start = mine(Kind::ContainerRestart)[0].t;
            let exit = mine(Kind::ContainerExit)
                .into_iter()
                .find(|e| e.rule == Rule::B2)
                .expect("migrate exits 0")
                .t;
            let seen = |k: Kind| -> Vec<(Ms, String)> {
                mine(k).iter().map(|e| (e.t, e.value.text())).collect()
            };
            let (started, ready) = (seen(Kind::ContainerStarted), seen(Kind::ContainerReady));
            assert_eq!(started.len(), 2, "{who}: {started:?}");
            assert_eq!(ready.len(), 2, "{who}: {ready:?}");
            for (changes, first) in [(&started, "true"), (&ready, "false")] {
                assert_eq!(changes[0].1, first, "{who}: {changes:?}");
                assert!(
                    changes[0].0 > start && changes[0].0 <= start + 1000,
                    "{who}"
                );
                assert!(changes[1].0 > exit && changes[1].0 <= exit + 1000, "{who}");
            }
        }
    }
}

/// In-place upgrades: 1.30 → 1.31 restarts every container at the new kubelet's first SyncPod
/// (PR #124220 changed the hash; kubernetes#129385); 1.34 → 1.35 keeps them and the KEP-4781
/// lane keeps every pod Ready (kubernetes#136910's upgrade path, 1.34.2 → 1.35.0).
#[test]
fn upgrades_restart_containers_only_across_the_hash_change() {
    let sc = presets::upgrade_1_30_to_1_31();
    let runs = compare_default(&sc).unwrap();
    assert_eq!(runs.len(), 1);
    let tr = &runs[0];
    let restarted: Vec<&Event> = of(tr, Kind::ContainerRestart);
    assert_eq!(restarted.len(), 3);
    assert!(restarted
        .iter()
        .all(|e| e.rule == Rule::U1 && secs(e) == 52.0));
    assert!(tr.kubelet.contains("1.30 → 1.31"), "{}", tr.kubelet);
    // The 1.31 kubelet checks the runtime before its first node status: no NotReady.
    assert!(of(tr, Kind::NodeReady).is_empty());

    let sc = presets::upgrade_1_34_to_1_35();
    let [legacy, kep] = compare(&sc).unwrap();
    for tr in [&legacy, &kep] {
        assert!(of(tr, Kind::ContainerRestart).is_empty(), "{}", tr.kubelet);
        assert_eq!(
            of(tr, Kind::KubeletStart)[0].value,
            Value::Release("1.35".into())
        );
    }
    assert_eq!(legacy.metrics.ready_transitions, 6);
    assert_eq!(kep.metrics.ready_transitions, 0);
    assert_eq!(kep.policy, Policy::Kep);
    assert!(
        kep.kubelet.contains("1.34 → 1.35 · default (KEP-4781)"),
        "{}",
        kep.kubelet
    );
}

/// The 1.30 kubelet's start-up NotReady (kubernetes#124397, fixed by #124430 in 1.31): node
/// Ready=False ("container runtime status check may not have completed yet") at the start,
/// True once the first runtime check has passed; the controller observed False, so no pod is
/// marked NotReady by it.
#[test]
fn the_1_30_kubelet_posts_not_ready_at_start() {
    let sc = presets::short_restart().with_version(KubeVersion::V1_30);
    let tr = simulate_policy(&sc, Policy::Legacy).unwrap();
    let node = of(&tr, Kind::NodeReady);
    assert_eq!(node.len(), 2, "{node:?}");
    assert_eq!((secs(node[0]), node[0].rule), (50.0, Rule::K2n));
    assert_eq!(node[0].value, Value::Condition(ConditionStatus::False));
    assert_eq!((secs(node[1]), node[1].rule), (51.0, Rule::K2n));
    assert_eq!(tr.metrics.nlc_status_writes, 0);
    let later = simulate_policy(&sc.with_version(KubeVersion::V1_31), Policy::Legacy).unwrap();
    assert!(of(&later, Kind::NodeReady).is_empty());
}

/// The runtime goes down, then the kubelet is stopped while it is down: the kubelet cannot start
/// again until the runtime answers (its runtime manager's first `Version` call fails and systemd
/// restarts it), then starts as after any restart.
#[test]
fn a_kubelet_restarted_during_a_runtime_outage_starts_when_the_runtime_is_back() {
    let mut sc = presets::runtime_restart();
    sc.kubelet.restarts = vec![
        Restart::of(RestartKind::Runtime, 30.0, 60.0),
        Restart::of(RestartKind::Kubelet, 40.0, 20.0),
    ];
    sc.validate().unwrap();
    for tr in compare(&sc).unwrap() {
        let starts = of(&tr, Kind::KubeletStart);
        assert_eq!(starts.len(), 1);
        assert_eq!(secs(starts[0]), 90.0, "{}", tr.kubelet);
        assert_eq!(of(&tr, Kind::PodSync).len(), 3);
        assert!(of(&tr, Kind::PodSync).iter().all(|e| secs(e) == 92.0));
    }
}

/// What is refused, in the scenario's own field names.
#[test]
fn overlaps_and_upgrades_are_validated() {
    let mut sc = presets::short_restart();
    sc.kubelet.restarts = vec![
        Restart::of(RestartKind::Node, 30.0, 20.0),
        Restart::of(RestartKind::Runtime, 40.0, 5.0),
    ];
    let e = sc.validate().unwrap_err();
    assert!(e[0].message.contains("nothing can overlap"), "{e:?}");
    sc.kubelet.restarts = vec![Restart {
        upgrade_to: Some(KubeVersion::V1_36),
        ..Restart::of(RestartKind::Runtime, 30.0, 20.0)
    }];
    let e = sc.validate().unwrap_err();
    assert_eq!(e[0].field, "kubelet.restarts[0].upgrade_to");
    sc.kubelet.restarts = vec![Restart {
        upgrade_to: Some(KubeVersion::V1_34),
        ..Restart::new(30.0, 20.0)
    }];
    let e = sc.validate().unwrap_err();
    assert!(e[0].message.contains("no downgrades"), "{e:?}");
}

/// A fleet's rolling upgrade from 1.30 to 1.31 restarts every container of every batch (U1);
/// from 1.34 to 1.35 none, and the KEP-4781 lane (1.34, then 1.35's default) keeps every pod
/// Ready while the legacy lane flaps them.
#[test]
fn a_rolling_in_place_upgrade_restarts_containers_only_across_the_hash_change() {
    use restartscope_sim::fleet::{self, scenario::rolling_upgrade};
    let mut f = rolling_upgrade();
    f.nodes = 20;
    f.cluster.version = KubeVersion::V1_30;
    f.rolling.upgrade_to = Some(KubeVersion::V1_31);
    let runs = fleet::compare(&f, None).unwrap();
    assert_eq!(runs.len(), 1);
    for tr in &runs[0].samples {
        let pods = tr.pods.len();
        let restarted = of(tr, Kind::ContainerRestart);
        assert_eq!(restarted.len(), pods, "{}", tr.kubelet);
        assert!(restarted.iter().all(|e| e.rule == Rule::U1));
    }
    assert!(
        runs[0].kubelet.starts_with("1.30 → 1.31"),
        "{}",
        runs[0].kubelet
    );
    f.cluster.version = KubeVersion::V1_34;
    f.rolling.upgrade_to = Some(KubeVersion::V1_35);
    let runs = fleet::compare(&f, None).unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r
        .samples
        .iter()
        .all(|t| of(t, Kind::ContainerRestart).is_empty())));
    assert!(runs[0].totals.ready_transitions > 0);
    assert_eq!(runs[1].totals.ready_transitions, 0);
}

/// #142457 (v1.38.0-alpha.2): a gRPC probe of a container that is not listening yet (warming
/// up after a start) fails at once on 1.38 and main; on 1.37 it fails at `timeoutSeconds`.
#[test]
fn a_refused_grpc_probe_fails_at_once_from_1_38() {
    let mut sc = presets::node_reboot();
    for p in sc.pods.iter_mut() {
        let c = &mut p.containers[0];
        c.warmup_s = 20.0;
        c.readiness_probe = Some(Probe {
            handler: Handler::Grpc,
            timeout_s: 5,
            period_s: 10,
            ..Probe::default()
        });
    }
    let durations = |v: KubeVersion| -> Vec<i64> {
        let tr = simulate_policy(&sc.clone().with_version(v), Policy::Legacy).unwrap();
        // A failed readiness probe while the new containers warm up, and when it ran.
        let started: Vec<i64> = of(&tr, Kind::ContainerRestart)
            .iter()
            .filter(|e| tr.pods[0].containers[e.container.unwrap() as usize].name == "app")
            .map(|e| e.t)
            .collect();
        of(&tr, Kind::Probe)
            .iter()
            .filter(|e| e.pod == Some(0) && e.t >= started[0] && e.t < started[0] + 20_000)
            .filter(|e| matches!(&e.value, Value::Probe(v) if v.result == Outcome::Failure))
            .map(|e| e.t)
            .collect()
    };
    // The probe's tick phase is the same draw on both: a failure lands 5 s later on 1.37.
    let (old, new) = (durations(KubeVersion::V1_37), durations(KubeVersion::V1_38));
    assert!(!old.is_empty() && !new.is_empty(), "{old:?} {new:?}");
    assert_eq!(old[0] - new[0], 5_000, "{old:?} {new:?}");
}

/// The runtime-restart preset with web-0's liveness probe an httpGet (it reaches the container
/// through its sandbox's network while the runtime is down, R2) and web-0 hung (`failing`) from
/// `hang_s`, the runtime down from 30 s for `down_s`.
fn hung_web_0(hang_s: f64, down_s: f64) -> Scenario {
    let mut sc = with_restart(
        presets::runtime_restart(),
        Restart::of(RestartKind::Runtime, 30.0, down_s),
    );
    let c = &mut sc.pods[0].containers[0];
    c.liveness_probe.as_mut().unwrap().handler = Handler::HttpGet;
    c.truth = vec![Truth {
        at_s: hang_s,
        state: Health::Failing,
    }];
    sc.validate().unwrap();
    sc
}

/// (seconds, rule) of web-0's events of a kind.
fn web_0(tr: &Trace, kind: Kind) -> Vec<(f64, Rule)> {
    of(tr, kind)
        .into_iter()
        .filter(|e| e.pod == Some(0))
        .map(|e| (secs(e), e.rule))
        .collect()
}

/// R3: while `runtimeErrors` is set, `syncLoop` skips `syncLoopIteration` ("Skipping pod
/// synchronization", `kubelet.go`, v1.31.14 to v1.38.0-beta.0), so nothing reads the prober's
/// result channels. web-0 hangs at 70 s, during a 90 s outage (30–120 s; the error is set from
/// 55 s, 30 s after the last good check at 25 s): its httpGet liveness probe fails three times
/// and the worker caches the Failure (and goes on hold) by about 100 s, but no kill follows, and
/// its failing readiness reaches no status. The runtime is back at 120 s; `updateRuntimeUp`
/// passes at 120 s (its 5 s grid); the loop, sleeping 100 ms doubling to 5 s since it first saw
/// the error at 55 s, wakes at 121.3 s and runs again: the kill (P6) and its restart, and Ready
/// false, come then. (Before, the model killed the container at about 100 s.)
#[test]
fn a_liveness_failure_during_a_long_runtime_outage_kills_when_the_sync_loop_runs_again() {
    let sc = hung_web_0(70.0, 90.0);
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        let cached: Vec<f64> = of(&tr, Kind::ProbeResult)
            .into_iter()
            .filter(|e| e.pod == Some(0) && e.rule == Rule::P5)
            .filter(|e| matches!(&e.value, Value::Probe(v) if v.probe == ProbeKind::Liveness && v.result == Outcome::Failure))
            .map(secs)
            .collect();
        assert!(
            cached.first().is_some_and(|t| (90.0..110.0).contains(t)),
            "{who}: the worker caches the Failure during the outage: {cached:?}"
        );
        assert_eq!(
            web_0(&tr, Kind::ContainerExit).first(),
            Some(&(121.3, Rule::P6)),
            "{who}"
        );
        assert_eq!(
            web_0(&tr, Kind::ContainerRestart).first(),
            Some(&(121.3, Rule::K3r)),
            "{who}"
        );
        let ready = of(&tr, Kind::PodReady);
        assert!(
            ready.iter().all(|e| e.pod == Some(0) && secs(e) >= 121.3),
            "{who}: {ready:?}"
        );
        assert_eq!(secs(ready[0]), 121.3, "{who}");
        assert_eq!(ready[0].value, Value::Bool(false), "{who}");
    }
}

/// R1 before R3: a kill needs the runtime. In a 20 s outage (30–50 s) `runtimeErrors` is never
/// set (it would be from 55 s) and the sync loop runs, so web-0's failing readiness (hung at
/// 12 s) reaches the API during the outage; but the SyncPod that kills it after its third failed
/// liveness probe (33–43 s) cannot reach the runtime (`KillContainer` fails, the pod worker
/// retries): the kill comes at the first good runtime check, 50 s.
#[test]
fn a_liveness_kill_before_runtime_errors_waits_for_the_runtime() {
    let sc = hung_web_0(12.0, 20.0);
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        assert_eq!(
            web_0(&tr, Kind::ContainerExit).first(),
            Some(&(50.0, Rule::P6)),
            "{who}"
        );
        let ready = of(&tr, Kind::PodReady);
        assert!(
            secs(ready[0]) > 30.0 && secs(ready[0]) < 50.0,
            "{who}: {ready:?}"
        );
    }
}

/// R3: a pod evicted while the sync loop skips its iterations is not terminated: the pod update
/// waits in the kubelet's config channel. A 10-minute outage (30–630 s): node Ready=False at
/// 60 s, the not-ready NoExecute taint next, and the taint eviction controller deletes the three
/// pods 300 s later (E1n). The kubelet hands the deletions to its pod workers when its loop
/// runs again, 631.3 s (the check at 630 s, then the loop's next 5 s wake); SyncTerminatingPod
/// stops the containers within their 30 s grace and the pods are removed at 661.3 s. (Before,
/// the model terminated and removed them 30 s after the eviction, during the outage.)
#[test]
fn a_pod_evicted_during_a_10_minute_runtime_outage_is_terminated_when_the_runtime_is_back() {
    let sc = with_restart(
        presets::runtime_restart(),
        Restart::of(RestartKind::Runtime, 30.0, 600.0),
    );
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        let ev = of(&tr, Kind::Eviction);
        assert_eq!(ev.len(), 3, "{who}");
        assert!(
            ev.iter().all(|e| (355.0..375.0).contains(&secs(e))),
            "{who}"
        );
        for kind in [Kind::ContainerExit, Kind::PodRemoved] {
            let at: Vec<(f64, Rule)> = of(&tr, kind).iter().map(|e| (secs(e), e.rule)).collect();
            let rule = if kind == Kind::PodRemoved {
                Rule::E1d
            } else {
                Rule::K4
            };
            assert_eq!(at, [(661.3, rule); 3], "{who}: {kind:?}");
        }
    }
}

/// R1 on a SyncTerminatingPod in flight: a user's NoExecute taint at 20 s deletes web-0 (E1u)
/// and the kubelet starts stopping it with its 30 s grace; the runtime stops at 30 s and with it
/// the `StopContainer` call (worst case: the container outlives the grace). The pod worker
/// retries the kill, with the whole grace, when the sync loop runs again after the 10-minute
/// outage: removed at 661.3 s, not at 50 s.
#[test]
fn a_termination_the_runtime_stop_breaks_off_is_retried_with_its_grace() {
    let mut sc = with_restart(
        presets::runtime_restart(),
        Restart::of(RestartKind::Runtime, 30.0, 600.0),
    );
    sc.node.changes = vec![NodeChange {
        at_s: 20.0,
        labels: None,
        taints: Some(vec![Taint {
            key: "dedicated".into(),
            value: "infra".into(),
            effect: Effect::NoExecute,
        }]),
    }];
    sc.pods.truncate(1);
    sc.validate().unwrap();
    for p in lanes() {
        let tr = run(&sc, &p);
        let who = p.label();
        assert_eq!(web_0(&tr, Kind::Eviction), [(20.0, Rule::E1u)], "{who}");
        assert_eq!(web_0(&tr, Kind::PodRemoved), [(661.3, Rule::E1d)], "{who}");
        assert_eq!(
            web_0(&tr, Kind::ContainerExit),
            [(661.3, Rule::K4)],
            "{who}"
        );
    }
}
