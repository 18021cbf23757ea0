//! Behaviour that differs between kubelet releases or was refined from the code after the engine
//! rebuild: profiles, back-off, SetContainerStartup, the held ticker tick.

mod common;
use common::*;
use restartscope_sim::*;

/// Profiles: 1.31 and 1.34 have no KEP-4781 code, so the KEP kubelet is refused there with a
/// message naming 1.35; from 1.35 on both run, labelled by release.
#[test]
fn versions_before_1_35_refuse_the_kep_kubelet() {
    let mut sc = canonical(20.0, 1);
    for v in [KubeVersion::V1_31, KubeVersion::V1_34] {
        sc.cluster.version = v;
        let e = simulate_policy(&sc, Policy::Kep).unwrap_err();
        assert_eq!(e[0].field, "cluster.version");
        assert!(e[0].message.contains("1.35"), "{}", e[0].message);
        assert!(compare(&sc).is_err());
        assert!(simulate_policy(&sc, Policy::Legacy).is_ok());
    }
    for v in [KubeVersion::V1_35, KubeVersion::V1_36, KubeVersion::Main] {
        sc.cluster.version = v;
        let labels: Vec<String> = compare_default(&sc)
            .unwrap()
            .into_iter()
            .map(|t| t.kubelet)
            .collect();
        assert_eq!(
            labels,
            vec![
                format!("{} · legacy (opt-in gate)", v.as_str()),
                format!("{} · default (KEP-4781)", v.as_str())
            ]
        );
    }
}

/// #141155, fixed in main by #141342: with KEP-4781 on 1.35–1.37 `convertToAPIContainerStatuses`
/// copies Started by container name, so a liveness-killed container's replacement starts with
/// Started=true and is probed for readiness before its startup probe passed. Main compares the
/// container ID.
#[test]
fn s1_started_copied_by_name_until_main() {
    let mut sc = canonical(20.0, 1);
    sc.horizon_s = 300.0;
    sc.kubelet.restarts[0].at_s = 280.0;
    let c = &mut sc.pods[0].containers[0];
    c.startup_probe = Some(Probe {
        failure_threshold: 30,
        ..Probe::default()
    });
    c.liveness_probe = Some(Probe::default());
    c.warmup_s = 25.0;
    c.truth = vec![Truth {
        at_s: 30.0,
        state: Health::Failing,
    }];
    // Started as written when the replacement starts (in the SyncPod that killed the old one).
    let mut started_at_restart = |v: KubeVersion| -> Vec<bool> {
        sc.cluster.version = v;
        let tr = simulate_policy(&sc, Policy::Kep).unwrap();
        let kill = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .expect("liveness kills the container")
            .t;
        tr.events
            .iter()
            .filter(|e| e.t > kill && e.t <= kill + 1_000 && e.kind == Kind::ContainerStarted)
            .map(|e| e.value == Value::Bool(true))
            .collect()
    };
    // 1.35: the replacement inherits Started=true from the status that names the old container
    // (nothing to write); main writes Started=false until the startup probe passes. Either
    // comes with the status the PLEG's relist after the kill brings (within a second).
    assert_eq!(started_at_restart(KubeVersion::V1_35), Vec::<bool>::new());
    assert_eq!(started_at_restart(KubeVersion::V1_37), Vec::<bool>::new());
    assert_eq!(started_at_restart(KubeVersion::Main), vec![false]);
}

/// P2, Go's `time.Ticker`: a tick that comes while `doProbe` still runs is held and taken as
/// soon as it returns (later ones are dropped), so a probe as long as its period runs back to
/// back, and a probe longer than its period runs back to back too (not every other tick).
#[test]
fn p2_ticker_holds_one_tick_for_a_slow_probe() {
    let mut sc = canonical(20.0, 1);
    sc.pods[0].containers[0].readiness_probe = Some(Probe {
        period_s: 1,
        timeout_s: 1,
        exec_s: 1.0,
        ..Probe::default()
    });
    sc.pods[0].containers[0].liveness_probe = Some(Probe {
        period_s: 2,
        timeout_s: 5,
        exec_s: 3.0,
        ..Probe::default()
    });
    for tr in compare(&sc).unwrap() {
        let times = |k: ProbeKind| -> Vec<Ms> {
            events(&tr, Kind::Probe)
                .into_iter()
                .filter(|e| matches!(e.value, Value::Probe(p) if p.probe == k) && e.t < 90_000)
                .map(|e| e.t)
                .collect()
        };
        let gaps = |v: Vec<Ms>| -> Vec<Ms> { v.windows(2).map(|w| w[1] - w[0]).collect() };
        let r = gaps(times(ProbeKind::Readiness));
        assert!(r.len() > 80 && r.iter().all(|g| *g == 1_000), "{r:?}");
        let l = gaps(times(ProbeKind::Liveness));
        assert!(l.len() > 25 && l.iter().all(|g| *g == 3_000), "{l:?}");
    }
}

/// K3r, `doBackOff`: the back-off counts from the newest *exited* instance in the snapshot
/// SyncPod works from. A liveness kill restarts in the same SyncPod, so two kills 100 s apart
/// both restart at once (`kuberuntime_manager.go` `doBackOff`). A crash loop still waits 10 s, 20 s, …
#[test]
fn k3r_backoff_counts_from_the_previous_exit() {
    let mut sc = canonical(20.0, 1);
    sc.horizon_s = 400.0;
    sc.kubelet.restarts[0].at_s = 380.0;
    let c = &mut sc.pods[0].containers[0];
    c.liveness_probe = Some(Probe::default());
    c.truth = vec![
        Truth {
            at_s: 30.0,
            state: Health::Failing,
        },
        Truth {
            at_s: 130.0,
            state: Health::Failing,
        },
    ];
    for tr in compare(&sc).unwrap() {
        let kills: Vec<Ms> = tr
            .events
            .iter()
            .filter(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .map(|e| e.t)
            .collect();
        let restarts: Vec<Ms> = events(&tr, Kind::ContainerRestart)
            .into_iter()
            .map(|e| e.t)
            .collect();
        assert_eq!(kills.len(), 2, "{kills:?}");
        assert_eq!(restarts, kills, "each kill restarts at once");
    }
    // A container that exits again right after each restart: 0 s, then 10 s, 20 s, 40 s.
    let mut sc = canonical(20.0, 1);
    sc.horizon_s = 300.0;
    sc.kubelet.restarts[0].at_s = 280.0;
    sc.pods[0].containers[0].truth = [30.0, 31.0, 42.0, 63.0]
        .into_iter()
        .map(|at_s| Truth {
            at_s,
            state: Health::Exited,
        })
        .collect();
    let [legacy, _] = run(&sc);
    let restarts: Vec<f64> = events(&legacy, Kind::ContainerRestart)
        .into_iter()
        .map(secs)
        .collect();
    // The PLEG notices each exit at its next relist (within a second): the first restart follows
    // at once; the later ones wait out 10 s, 20 s, 40 s from the exit.
    assert!((30.0..31.0).contains(&restarts[0]), "{restarts:?}");
    assert_eq!(restarts[1..], [41.0, 62.0, 103.0]);
}

/// S1, `SetContainerStartup`: a startup result is written as Started alone; the pod sync that
/// the sync loop runs next writes Ready (two status writes at one instant).
#[test]
fn s1_set_container_startup_writes_started_alone() {
    let sc = presets::startup_probe();
    let [legacy, _] = run(&sc);
    let started = legacy
        .events
        .iter()
        .position(|e| e.kind == Kind::ContainerStarted && e.value == Value::Bool(false))
        .expect("legacy resets Started after the restart");
    let t = legacy.events[started].t;
    let after: Vec<Kind> = legacy.events[started..]
        .iter()
        .take_while(|e| e.t == t)
        .map(|e| e.kind)
        .filter(|k| {
            matches!(
                k,
                Kind::ContainerStarted | Kind::StatusWrite | Kind::ContainerReady | Kind::PodReady
            )
        })
        .collect();
    assert_eq!(
        after,
        vec![
            Kind::ContainerStarted,
            Kind::StatusWrite,
            Kind::ContainerReady,
            Kind::StatusWrite,
            Kind::PodReady
        ]
    );
}

/// E1, `addConditionAndDeletePod`: the taint eviction controller patches DisruptionTarget=True
/// into the pod status, then deletes the pod, at the same instant.
#[test]
fn e1_disruption_target_before_the_delete() {
    let sc = presets::eviction();
    for tr in run(&sc) {
        let evictions = events(&tr, Kind::Eviction);
        assert!(!evictions.is_empty());
        for ev in evictions {
            let i = tr.events.iter().position(|e| std::ptr::eq(e, ev)).unwrap();
            let before = &tr.events[i - 1];
            assert_eq!(
                (before.kind, before.t, before.pod, before.by),
                (
                    Kind::StatusWrite,
                    ev.t,
                    ev.pod,
                    Actor::TaintEvictionController
                )
            );
        }
    }
}

/// A multi-container pod whose `sidecar-log` container exited while the kubelet was down: the new
/// kubelet's first SyncPod reports it not running and restarts it (K3r; new container ID), while
/// `app` keeps its container. Under every profile the replacement gets its worker's initial
/// readiness Failure (P1: it does not predate the kubelet, so neither P1k nor S3 apply, and the
/// ID checks of main, #141342/#141487, have nothing to change: the API already names the exited
/// container), so the pod is Ready again only after its readiness probe passes; `app` keeps
/// KEP-4781's inheritance (P1k) on 1.35 and later.
#[test]
fn a_container_replaced_during_the_downtime_starts_over_under_every_profile() {
    let mut sc = canonical(20.0, 1);
    let mut log = sc.pods[0].containers[0].clone();
    log.name = "log".into();
    log.truth = vec![Truth {
        at_s: 110.0,
        state: Health::Exited,
    }];
    sc.pods[0].containers.push(log);
    for v in KubeVersion::ALL {
        for tr in compare_default(&sc.clone().with_version(v)).unwrap() {
            let start = tr.restarts[0].1;
            let sync = first(&tr, Kind::PodSync).unwrap().t;
            let of = |c: u8, k: Kind| -> Vec<&Event> {
                tr.events
                    .iter()
                    .filter(|e| e.kind == k && e.container == Some(c) && e.t >= start)
                    .collect()
            };
            let restarts = of(1, Kind::ContainerRestart);
            assert_eq!(restarts.len(), 1, "{}", tr.kubelet);
            assert_eq!(restarts[0].t, sync, "{}", tr.kubelet);
            // The replacement's readiness worker writes its initial Failure (P1) under every
            // profile; then a probe passes (P5).
            let log_results: Vec<Rule> = of(1, Kind::ProbeResult).iter().map(|e| e.rule).collect();
            assert_eq!(log_results, vec![Rule::P1, Rule::P5], "{}", tr.kubelet);
            let app_results: Vec<Rule> = of(0, Kind::ProbeResult).iter().map(|e| e.rule).collect();
            let app_first = if tr.policy == Policy::Kep {
                Rule::P1k
            } else {
                Rule::P1
            };
            assert_eq!(app_results[0], app_first, "{}", tr.kubelet);
            // Ready: down when the exit is reported at the first SyncPod, up once the
            // replacement's probe passed.
            let changes = ready_changes(&tr);
            let after: Vec<(bool, Rule)> = changes
                .iter()
                .filter(|c| c.0 * 1000.0 >= sync as f64)
                .map(|c| (c.1, c.3))
                .collect();
            assert_eq!(
                after.first(),
                Some(&(false, Rule::S2)),
                "{}: {changes:?}",
                tr.kubelet
            );
            assert_eq!(
                after.last(),
                Some(&(true, Rule::P5)),
                "{}: {changes:?}",
                tr.kubelet
            );
        }
    }
}
