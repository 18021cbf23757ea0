//! Init containers and sidecars: the report behind `report-136910-sidecar-startup`
//! checked under every profile, the pod's (re)initialization after a kubelet restart as
//! `computeInitContainerActions` decides it (K3i), the sidecar startup seeding of #137146 /
//! #137885 (P1s), completed init containers staying completed, and sidecars counting towards
//! the pod's readiness.

mod common;
use common::*;
use restartscope_sim::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn preset(name: &str) -> Scenario {
    (presets::find(name).expect("preset").build)()
}

fn run_on(sc: &Scenario, version: KubeVersion, policy: Policy, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    let profile = KubeletProfile::new(version, policy).expect("profile");
    simulate_profile(&sc, &profile).expect("valid scenario")
}

fn t(e: &Event) -> f64 {
    e.t as f64 / 1000.0
}

/// (t, Ready, rule) of every API PodReady change of pod 0 at or after `from` seconds.
fn ready(tr: &Trace, from: f64) -> Vec<(f64, bool, Rule)> {
    tr.pod_ready_changes(0)
        .filter(|e| t(e) >= from)
        .map(|e| (t(e), e.value == Value::Bool(true), e.rule))
        .collect()
}

/// https://github.com/kubernetes/kubernetes/issues/136910 (v1.35.0; fixed by #137146 in v1.36.0,
/// cherry-picked as #137885 into v1.35.4). After the upgrade's kubelet restart the application
/// container exits and, on 1.35.0, is never restarted; `kubectl describe pod`:
///
/// ```text
/// app:      State: Terminated  Reason: Error  Exit Code: 2   Ready: False  Restart Count: 0
/// sidecar:  State: Running                                    Ready: True   Restart Count: 0
/// Conditions: Initialized True, Ready False, ContainersReady False
/// ```
///
/// The model: with the gate off the sidecar predates the new kubelet, so its startup worker
/// writes no initial result (P1k) and, Started being kept (S1), never probes; the startup
/// manager has nothing for it, `computeInitContainerActions` breaks before `podHasInitialized`,
/// and with the only regular container Exited SyncPod never reaches it (K3i). 1.35.4 and later
/// seed the sidecar's startup Success from its Started status (P1s) and restart the app at once;
/// the legacy kubelet re-runs the sidecar's startup probe after the restart and restarts it too.
#[test]
fn report_136910_app_behind_a_started_sidecar_is_never_restarted_on_1_35_0() {
    let sc = preset("report-136910-sidecar-startup");
    let (sidecar, app) = (0u8, 1u8);
    let exit = 90.0;
    for seed in SEEDS {
        // 1.35.0 with KEP-4781 (the default): stuck until the horizon.
        let tr = run_on(&sc, KubeVersion::V1_35, Policy::Kep, seed);
        let restarts = |tr: &Trace, c: u8| {
            tr.events
                .iter()
                .filter(|e| e.kind == Kind::ContainerRestart && e.container == Some(c))
                .count()
        };
        assert_eq!(restarts(&tr, app), 0, "Restart Count: 0 (seed {seed})");
        assert_eq!(restarts(&tr, sidecar), 0);
        let waits: Vec<&Event> = tr
            .events
            .iter()
            .filter(|e| e.kind == Kind::ContainerWaiting)
            .collect();
        assert_eq!(waits.len(), 1);
        assert_eq!((waits[0].container, waits[0].rule), (Some(app), Rule::K3i));
        assert!(t(waits[0]) >= exit && t(waits[0]) < exit + 1.0);
        // No startup result for the sidecar after the restart: P1k skipped it, nothing else.
        let up = tr.restarts[0].1 as f64 / 1000.0;
        let startup: Vec<Rule> = tr
            .events
            .iter()
            .filter(|e| {
                e.kind == Kind::ProbeResult
                    && e.container == Some(sidecar)
                    && t(e) >= up
                    && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Startup)
            })
            .map(|e| e.rule)
            .collect();
        assert_eq!(startup, vec![Rule::P1k]);
        // Ready False from the PLEG's report of the exit on, by the kubelet, until the horizon.
        let changes = ready(&tr, up);
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(!changes[0].1 && changes[0].0 >= exit && changes[0].0 < exit + 1.0);
        // The last container statuses: app not running and not ready, sidecar running and ready.
        let last = |c: u8, k: Kind| {
            tr.events
                .iter()
                .rfind(|e| e.kind == k && e.container == Some(c))
                .map(|e| e.value.clone())
        };
        assert_eq!(last(app, Kind::ContainerReady), Some(Value::Bool(false)));
        assert_eq!(
            last(sidecar, Kind::ContainerReady),
            None,
            "sidecar stays Ready"
        );
        // 1.35.4, 1.36, 1.37, main with KEP-4781, and every legacy kubelet: restarted at once.
        for v in [
            KubeVersion::V1_35_4,
            KubeVersion::V1_36,
            KubeVersion::V1_37,
            KubeVersion::Main,
        ] {
            let tr = run_on(&sc, v, Policy::Kep, seed);
            let seeded = tr
                .events
                .iter()
                .filter(|e| e.rule == Rule::P1s && e.container == Some(sidecar))
                .count();
            assert_eq!(seeded, 1, "{v:?}");
            fixed(&tr, app, exit);
        }
        for v in KubeVersion::ALL {
            fixed(&run_on(&sc, v, Policy::Legacy, seed), app, exit);
        }
    }
}

/// The app container restarts within a second of its exit (the PLEG relist) and the pod is
/// Ready again by the end.
fn fixed(tr: &Trace, app: u8, exit: f64) {
    let r: Vec<f64> = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::ContainerRestart && e.container == Some(app))
        .map(t)
        .collect();
    assert_eq!(r.len(), 1, "{}: {r:?}", tr.kubelet);
    assert!(r[0] >= exit && r[0] < exit + 1.0, "{}: {r:?}", tr.kubelet);
    assert!(!tr.events.iter().any(|e| e.kind == Kind::ContainerWaiting));
    let last = tr.pod_ready_changes(0).last().expect("Ready changes");
    assert_eq!(last.value, Value::Bool(true), "{}", tr.kubelet);
}

fn sidecar(startup: bool) -> Container {
    Container {
        name: "proxy".into(),
        restart_policy: Some("Always".into()),
        startup_probe: startup.then(Probe::default),
        readiness_probe: None,
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    }
}

fn init_container(name: &str) -> Container {
    let mut c = sidecar(false);
    c.name = name.into();
    c.restart_policy = None;
    c
}

/// The canonical pod (restart at 100 s for 20 s) with these init containers, its app container
/// exiting at 110 s, while the kubelet is down.
fn app_exits_in_downtime(init: Vec<Container>) -> Scenario {
    let mut sc = canonical(20.0, 1).with_init_containers(&init);
    sc.pods[0].containers[0].truth = vec![Truth {
        at_s: 110.0,
        state: Health::Exited,
    }];
    sc
}

/// (K3i waits, app restart times) of the app container (the last container).
fn app_restarts(tr: &Trace) -> (usize, Vec<f64>) {
    let app = tr.pods[0].containers.len() as u8 - 1;
    let of = |k: Kind| {
        tr.events
            .iter()
            .filter(move |e| e.kind == k && e.container == Some(app))
    };
    (
        of(Kind::ContainerWaiting).count(),
        of(Kind::ContainerRestart).map(t).collect(),
    )
}

/// K3i, `computeInitContainerActions`: before 1.37 an app container that exited while the
/// kubelet was down waits, after the restart, for the last sidecar's startup result. The legacy
/// kubelet re-runs the sidecar's startup probe (its worker's initial Unknown, then Success) and
/// restarts the app in the pod sync that follows; 1.35.0 with KEP-4781 never has a result
/// (#136910); 1.35.4 and 1.36 seed Success when the startup worker first runs (P1s), and the
/// app restarts then. From 1.37 (#138514) the exited app container of the current sandbox makes
/// the pod initialized: it restarts in the first SyncPod, before any startup result, on both
/// lanes (the harness running v1.37.2's `computeInitContainerActions` restarts it at once too).
#[test]
fn k3i_app_waits_for_the_last_sidecars_startup_result() {
    let sc = app_exits_in_downtime(vec![sidecar(true)]);
    for seed in 1..=10 {
        for v in KubeVersion::ALL
            .into_iter()
            .filter(|v| *v >= KubeVersion::V1_37)
        {
            for policy in [Policy::Legacy, Policy::Kep] {
                let tr = run_on(&sc, v, policy, seed);
                let (waits, restarts) = app_restarts(&tr);
                assert_eq!(waits, 0, "{}", tr.kubelet);
                assert_eq!(restarts.len(), 1, "{}", tr.kubelet);
                let startup_success = tr.events.iter().find(|e| {
                    e.container == Some(0)
                        && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Startup && p.result == Outcome::Success)
                        && (e.kind == Kind::ProbeResult)
                });
                if let Some(e) = startup_success {
                    assert!(
                        restarts[0] <= t(e),
                        "{}: restarted after the startup result",
                        tr.kubelet
                    );
                }
            }
        }
        for v in KubeVersion::ALL
            .into_iter()
            .filter(|v| *v < KubeVersion::V1_37)
        {
            let tr = run_on(&sc, v, Policy::Legacy, seed);
            let (waits, restarts) = app_restarts(&tr);
            assert_eq!(waits, 1, "{}", tr.kubelet);
            let started = tr
                .events
                .iter()
                .find(|e| {
                    e.kind == Kind::ProbeResult
                        && e.container == Some(0)
                        && e.rule == Rule::P5
                        && matches!(e.value, Value::Probe(p) if p.probe == ProbeKind::Startup && p.result == Outcome::Success)
                })
                .map(t)
                .expect("the startup probe runs again");
            assert_eq!(restarts, vec![started], "{}", tr.kubelet);
        }
        let tr = run_on(&sc, KubeVersion::V1_35, Policy::Kep, seed);
        assert_eq!(app_restarts(&tr), (1, vec![]));
        for v in [KubeVersion::V1_35_4, KubeVersion::V1_36] {
            let tr = run_on(&sc, v, Policy::Kep, seed);
            let seeded = tr
                .events
                .iter()
                .find(|e| e.rule == Rule::P1s)
                .map(t)
                .expect("P1s seeds the sidecar");
            assert_eq!(app_restarts(&tr), (1, vec![seeded]), "{}", tr.kubelet);
        }
    }
}

/// K3i: only the *last* init container decides. A sidecar without a startup probe that runs,
/// or an ordinary init container after the sidecar (completed, exit 0), initializes the pod at
/// once: the app restarts at the first SyncPod under every profile, 1.35.0 included.
#[test]
fn k3i_only_the_last_init_container_decides() {
    for init in [
        vec![sidecar(false)],
        vec![sidecar(true), init_container("migrate")],
        vec![init_container("migrate")],
    ] {
        let sc = app_exits_in_downtime(init);
        for v in KubeVersion::ALL {
            for tr in simulate_profiles(&sc, &KubeletProfile::defaults(v)).unwrap() {
                let sync = first(&tr, Kind::PodSync).map(t).unwrap();
                assert_eq!(app_restarts(&tr), (0, vec![sync]), "{}", tr.kubelet);
            }
        }
    }
}

/// Completed ordinary init containers stay completed across a kubelet restart
/// (`test/e2e_node/container_lifecycle_test.go`; `computeInitContainerActions` skips them once
/// the pod has initialized): no event ever names them, their status stays not running, not
/// started, Ready, and a healthy pod keeps KEP-4781's quiet restart.
#[test]
fn completed_init_containers_stay_completed() {
    let sc = canonical(20.0, 1).with_init_containers(&[init_container("migrate")]);
    for v in KubeVersion::ALL {
        for tr in simulate_profiles(&sc, &KubeletProfile::defaults(v)).unwrap() {
            assert!(
                !tr.events.iter().any(|e| e.container == Some(0)),
                "{}",
                tr.kubelet
            );
            assert_eq!(tr.pods[0].containers[0].role, ContainerRole::Init);
            if tr.policy == Policy::Kep {
                assert_eq!(ready(&tr, 0.0), vec![], "{}", tr.kubelet);
            }
        }
    }
}

/// S4, `GenerateContainersReadyCondition`: a sidecar's readiness counts towards the pod's, like
/// a regular container's; and its probes are its own (an exited sidecar is restarted, K3r).
#[test]
fn a_sidecar_counts_towards_pod_readiness() {
    let mut s = sidecar(false);
    s.readiness_probe = Some(Probe::default());
    s.truth = vec![
        Truth {
            at_s: 30.0,
            state: Health::FailingReadiness,
        },
        Truth {
            at_s: 60.0,
            state: Health::Exited,
        },
    ];
    let sc = canonical(20.0, 1).with_init_containers(&[s]);
    for tr in run(&sc) {
        let changes = ready(&tr, 0.0);
        assert!(!changes[0].1);
        assert_eq!(changes[0].2, Rule::P5, "{}", tr.kubelet);
        assert!(changes[0].0 > 30.0 && changes[0].0 < 62.0);
        let restarted = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::ContainerRestart && e.container == Some(0))
            .map(t)
            .expect("the sidecar is restarted");
        assert!((60.0..61.0).contains(&restarted), "{restarted}");
    }
}
