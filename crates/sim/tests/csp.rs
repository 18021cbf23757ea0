//! The ContainerScopedProbes proposal (kubernetes PR #140704, unmerged; read at branch commit
//! 1b5df269: docs/research/csp.md, docs/MODEL.md "ContainerScopedProbes (proposal)") as the
//! profile `KubeletProfile::csp`. First the PR's e2e cases (`test/e2e_node/
//! container_scoped_probes_test.go` @ 1b5df269, csp.md §10, numbered as there), then the
//! reports where the proposal's kubelet differs from main's: #141473, #135795 and a restart
//! longer than the grace period. Every case over seeds 1–20.

use restartscope_sim::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn preset(name: &str) -> Scenario {
    (presets::find(name).expect("preset").build)()
}

fn on(sc: &Scenario, profile: &KubeletProfile, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    sc.cluster.version = profile.version;
    // This profile's kubelet throughout: an upgrade preset's in-place upgrade is dropped.
    for r in sc.kubelet.restarts.iter_mut() {
        r.upgrade_to = None;
    }
    simulate_profile(&sc, profile).expect("valid scenario")
}

fn csp(sc: &Scenario, seed: u64) -> Trace {
    on(sc, &KubeletProfile::csp(KubeVersion::Main), seed)
}

fn main_kep(sc: &Scenario, seed: u64) -> Trace {
    on(
        sc,
        &KubeletProfile::for_policy(KubeVersion::Main, Policy::Kep),
        seed,
    )
}

fn legacy(sc: &Scenario, seed: u64) -> Trace {
    on(
        sc,
        &KubeletProfile::for_policy(KubeVersion::Main, Policy::Legacy),
        seed,
    )
}

fn secs(t: Ms) -> f64 {
    t as f64 / 1000.0
}

/// (t, value, rule) of every `kind` event of `pod` (and container `c`, if given) at or after
/// `from` seconds: PodReady, ContainerStarted, ContainerReady changes.
fn changes(tr: &Trace, kind: Kind, pod: u16, c: Option<u8>, from: f64) -> Vec<(f64, bool, Rule)> {
    tr.events
        .iter()
        .filter(|e| e.kind == kind && e.pod == Some(pod) && secs(e.t) >= from)
        .filter(|e| c.is_none() || e.container == c)
        .map(|e| (secs(e.t), e.value == Value::Bool(true), e.rule))
        .collect()
}

fn restarts(tr: &Trace, pod: u16, c: u8) -> Vec<f64> {
    tr.events
        .iter()
        .filter(|e| {
            e.kind == Kind::ContainerRestart && e.pod == Some(pod) && e.container == Some(c)
        })
        .map(|e| secs(e.t))
        .collect()
}

/// `readiness` `probe_result` events of `pod` with `rule` at or after `from`: (t, result).
fn results(tr: &Trace, pod: u16, kind: ProbeKind, rule: Rule, from: f64) -> Vec<(f64, Outcome)> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::ProbeResult && e.pod == Some(pod) && e.rule == rule)
        .filter_map(|e| match e.value {
            Value::Probe(p) if p.probe == kind && secs(e.t) >= from => Some((secs(e.t), p.result)),
            _ => None,
        })
        .collect()
}

/// `flagProbe(initialDelay, period, failureThreshold)`: an exec probe, 1 s timeout.
fn flag(initial_delay_s: u32, period_s: u32, failure_threshold: u32) -> Probe {
    Probe {
        initial_delay_s,
        period_s,
        failure_threshold,
        ..Probe::default()
    }
}

fn container(name: &str) -> Container {
    Container {
        name: name.into(),
        restart_policy: None,
        startup_probe: None,
        readiness_probe: None,
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    }
}

/// One pod `probe-test` on a node whose kubelet is stopped and started again (`mustStopKubelet`
/// then `restartKubelet`: seconds of downtime) at `restart_at`; the test watches to `horizon`.
fn e2e(containers: Vec<Container>, restart_at: f64, horizon: f64) -> Scenario {
    let mut sc = presets::short_restart();
    sc.name = "csp-e2e".into();
    sc.pods.truncate(1);
    sc.pods[0].name = "probe-test".into();
    sc.pods[0].containers = containers;
    sc.kubelet.restarts[0] = Restart::new(restart_at, 5.0);
    sc.horizon_s = horizon;
    sc
}

/// `testStatusStableAcrossKubeletRestart`: no Started or Ready change of `c` and no restart
/// from `from` on (the helper's watch fails on any; its final Get checks RestartCount 0).
fn stable(tr: &Trace, pod: u16, c: u8, from: f64) -> bool {
    changes(tr, Kind::ContainerStarted, pod, Some(c), from).is_empty()
        && changes(tr, Kind::ContainerReady, pod, Some(c), from).is_empty()
        && restarts(tr, pod, c).is_empty()
}

/// e2e 1, "should keep a ready container ready": startup flag(0,1,30), readiness flag(0,1,1),
/// liveness flag(0,1,3), ready before the restart. Adoption seeds startup, readiness and
/// liveness Success from the API status (P1a); the seeds send no update, so the first SyncPod
/// writes nothing. The legacy kubelet's new workers take it NotReady (P1).
#[test]
fn e2e_1_a_ready_container_stays_started_and_ready_across_a_kubelet_restart() {
    let mut c = container("probed");
    c.startup_probe = Some(flag(0, 1, 30));
    c.readiness_probe = Some(flag(0, 1, 1));
    c.liveness_probe = Some(flag(0, 1, 3));
    let sc = e2e(vec![c], 30.0, 90.0);
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        assert_eq!(tr.kubelet, "main · proposal CSP (#140704)");
        assert!(stable(&tr, 0, 0, 0.0), "seed {seed}");
        assert!(changes(&tr, Kind::PodReady, 0, None, 0.0).is_empty());
        assert_eq!(tr.metrics.kubelet_status_writes, 0, "seed {seed}");
        let seeded = |k| results(&tr, 0, k, Rule::P1a, 0.0);
        for k in ProbeKind::ALL {
            assert_eq!(seeded(k), [(37.0, Outcome::Success)], "seed {seed} {k:?}");
        }
        // The adopted container is probed again: readiness and liveness (startup Success was
        // seeded, so no startup worker), each within one period of the first SyncPod.
        let probes_after = |k: ProbeKind| {
            tr.events.iter().any(|e| {
                e.kind == Kind::Probe
                    && secs(e.t) >= 37.0
                    && secs(e.t) < 39.0
                    && matches!(e.value, Value::Probe(p) if p.probe == k)
            })
        };
        assert!(probes_after(ProbeKind::Readiness) && probes_after(ProbeKind::Liveness));
        assert!(!probes_after(ProbeKind::Startup));
        let l = legacy(&sc, seed);
        assert!(
            !changes(&l, Kind::PodReady, 0, None, 0.0).is_empty(),
            "seed {seed}"
        );
    }
}

/// e2e 2, "should keep a not-ready container not ready" (#135795): readiness only, never
/// passing. `not-ready-before-restart`'s web-1 fails readiness from 0 s; after its NotReady
/// (P5) nothing changes: the readiness seed is Failure (container Ready=false), Started=true
/// (no startup probe).
#[test]
fn e2e_2_a_not_ready_container_stays_started_and_not_ready() {
    let sc = presets::not_ready_before_restart();
    let restart = sc.kubelet.restarts[0].at_s;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let r = changes(&tr, Kind::PodReady, 1, None, 0.0);
        assert_eq!(r.len(), 1, "seed {seed}: {r:?}");
        assert!(!r[0].1 && r[0].0 < restart && r[0].2 == Rule::P5);
        assert!(stable(&tr, 1, 0, restart), "seed {seed}");
        let up = secs(tr.restarts[0].1) + sc.kubelet.first_sync_delay_s;
        assert_eq!(
            results(&tr, 1, ProbeKind::Readiness, Rule::P1a, 0.0),
            [(up, Outcome::Failure)]
        );
        // The healthy replica is untouched.
        assert!(stable(&tr, 0, 0, 0.0));
    }
}

/// e2e 3, "should keep a container that has not started yet from being reported started"
/// (#142305-type): `report-142305-started-early`'s replacements never pass their startup probe
/// within the story. Replaced at 20 s by the start hook (startup Unknown), adopted after the
/// restart with startup Unknown (API Started=false): not Started, not Ready, to the horizon.
#[test]
fn e2e_3_a_container_not_started_yet_stays_not_started() {
    let sc = preset("report-142305-started-early");
    let restart = sc.kubelet.restarts[0].at_s;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        for pod in [0u16, 1] {
            let label = format!("seed {seed} pod {pod}");
            let b = restarts(&tr, pod, 0);
            assert_eq!(b.len(), 1, "{label}");
            // Not Started from the exit (K5) on: the replacement's status never says Started.
            let started = changes(&tr, Kind::ContainerStarted, pod, Some(0), 0.0);
            assert_eq!(started, [(b[0], false, Rule::K5)], "{label}");
            for kind in [Kind::ContainerStarted, Kind::ContainerReady] {
                assert!(
                    changes(&tr, kind, pod, Some(0), b[0] + 0.001).is_empty(),
                    "{label}"
                );
            }
            let up = secs(tr.restarts[0].1) + sc.kubelet.first_sync_delay_s;
            assert!(up > restart);
            assert_eq!(
                results(&tr, pod, ProbeKind::Startup, Rule::P1a, 0.0),
                [(up, Outcome::Unknown)],
                "{label}"
            );
        }
        let r = changes(&tr, Kind::PodReady, 1, None, 0.0);
        assert_eq!(r.len(), 1, "seed {seed}: {r:?}");
        assert!(!r[0].1);
    }
}

/// e2e 4, "should not disturb a probed container while another crash loops": `probed`
/// (readiness flag(0,1,1), liveness flag(0,1,3)) beside `crasher` (no probes, exits whenever it
/// runs); the kubelet restarts while the crasher loops. `probed` stays Started and Ready with no
/// restart; the crasher is restarted again and again.
#[test]
fn e2e_4_a_probed_container_beside_a_crash_looping_one_is_not_disturbed() {
    let mut probed = container("probed");
    probed.readiness_probe = Some(flag(0, 1, 1));
    probed.liveness_probe = Some(flag(0, 1, 3));
    let mut crasher = container("crasher");
    crasher.truth = [5.0, 17.0, 45.0, 70.0, 115.0]
        .into_iter()
        .map(|at_s| Truth {
            at_s,
            state: Health::Exited,
        })
        .collect();
    let sc = e2e(vec![probed, crasher], 30.0, 150.0);
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        assert!(stable(&tr, 0, 0, 0.0), "seed {seed}");
        assert!(restarts(&tr, 0, 1).len() >= 3, "seed {seed}");
    }
}

/// e2e 5, "should restart a regular container behind a started sidecar" (#136910): the sidecar's
/// startup Success is seeded (its API status says Started) before the first SyncPod's runtime
/// sync, so when the app exits after the restart the pod has initialized and the app is
/// restarted at once (K3r); the sidecar is never restarted and stays Started.
#[test]
fn e2e_5_a_regular_container_behind_a_started_sidecar_is_restarted() {
    let sc = preset("report-136910-sidecar-startup");
    let (sidecar, app) = (0u8, 1u8);
    let exit = sc.pods[0].containers[0].truth[0].at_s;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let up = secs(tr.restarts[0].1) + sc.kubelet.first_sync_delay_s;
        assert_eq!(
            results(&tr, 0, ProbeKind::Startup, Rule::P1a, 0.0),
            [(up, Outcome::Success)]
        );
        let b = restarts(&tr, 0, app);
        assert_eq!(b.len(), 1, "seed {seed}");
        assert!(b[0] > exit && b[0] <= exit + 1.0, "seed {seed}: {b:?}");
        assert!(restarts(&tr, 0, sidecar).is_empty());
        assert!(changes(&tr, Kind::ContainerStarted, 0, Some(sidecar), 0.0).is_empty());
        assert!(!tr.events.iter().any(|e| e.kind == Kind::ContainerWaiting));
    }
}

/// e2e 6, "should run the first probe relative to the container starting" (#96614): startup
/// flag(1, 60, 10), Started within 30 s of `State.Running.StartedAt`. The e2e puts a 20 s init
/// container before it; the model's pods exist before the story starts, so the new container
/// here is a replacement (exit at 40 s). The start hook's worker probes at startedAt + 1 s; on
/// main the worker created at the pod's first sync keeps its 60 s ticker and sees the new
/// container at its next tick, up to a period later.
#[test]
fn e2e_6_the_first_probe_runs_relative_to_the_container_start() {
    let mut c = container("probed");
    c.startup_probe = Some(flag(1, 60, 10));
    c.truth = vec![Truth {
        at_s: 40.0,
        state: Health::Exited,
    }];
    let sc = e2e(vec![c], 150.0, 200.0);
    let exec = Probe::default().exec_s;
    let mut main_late = 0;
    for seed in SEEDS {
        let since_start = |tr: &Trace| {
            let b = restarts(tr, 0, 0);
            let s = changes(tr, Kind::ContainerStarted, 0, Some(0), b[0]);
            // Not Started at the exit (K5, the restart's instant), Started at the probe.
            assert_eq!(s[0], (b[0], false, Rule::K5));
            assert!(s[1].1);
            s[1].0 - b[0]
        };
        let t = since_start(&csp(&sc, seed));
        assert!((t - (1.0 + exec)).abs() < 1e-6, "seed {seed}: {t}");
        if since_start(&main_kep(&sc, seed)) >= 30.0 {
            main_late += 1;
        }
    }
    assert!(
        main_late > 0,
        "main's first probe of the replacement is never late"
    );
}

/// e2e 7, "should reset readiness when a container crashes and restarts": readiness flag(0,1,1);
/// the replacement never answers. Its workers start from readiness Failure (its own instance):
/// not Ready from its first status on, for at least 10 s (`Consistently`), here to the horizon.
#[test]
fn e2e_7_a_crashed_containers_replacement_does_not_inherit_ready() {
    let mut c = container("probed");
    c.readiness_probe = Some(flag(0, 1, 1));
    c.warmup_s = 600.0;
    c.truth = vec![Truth {
        at_s: 40.0,
        state: Health::Exited,
    }];
    let sc = e2e(vec![c], 150.0, 200.0);
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let b = restarts(&tr, 0, 0);
        assert_eq!(b.len(), 1);
        let ready = changes(&tr, Kind::ContainerReady, 0, Some(0), 0.0);
        // NotReady at the exit (K5), and never Ready again.
        assert_eq!(ready.len(), 1, "seed {seed}: {ready:?}");
        assert!(!ready[0].1 && ready[0].0 <= b[0]);
        assert!(tr.horizon as f64 / 1000.0 - b[0] >= 10.0);
        assert_eq!(
            results(&tr, 0, ProbeKind::Readiness, Rule::P1, b[0]),
            [(b[0], Outcome::Failure)]
        );
    }
}

/// kubernetes#141473 under the proposal (`report-141473-replaced-during-partition`): the
/// replacement B started during the partition by the old kubelet's start hook; the new kubelet
/// adopts it when the API is back, but the API names A, so nothing is trusted (csp.md §8):
/// readiness seeded Failure, NotReady in the first status (S2), Ready once B's own probe passes.
/// main says NotReady at the same instant through S3 (#141487); 1.35–1.37 keep B Ready.
#[test]
fn report_141473_the_replacement_is_judged_by_its_own_probes() {
    let sc = preset("report-141473-replaced-during-partition");
    let (web0, web1) = (0u16, 1u16);
    let back = sc.kubelet.api_unreachable[0].at_s + sc.kubelet.api_unreachable[0].duration_s;
    let pr = sc.pods[0].containers[0].readiness_probe.clone().unwrap();
    let period = pr.period_s as f64;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let label = format!("seed {seed}");
        let b = restarts(&tr, web0, 0);
        assert_eq!(b.len(), 1, "{label}");
        assert_eq!(
            results(&tr, web0, ProbeKind::Readiness, Rule::P1a, 0.0),
            [(back, Outcome::Failure)],
            "{label}"
        );
        assert_eq!(
            results(&tr, web1, ProbeKind::Readiness, Rule::P1a, 0.0),
            [(back, Outcome::Success)],
            "{label}"
        );
        let r = changes(&tr, Kind::PodReady, web0, None, 0.0);
        assert_eq!(r[0], (back, false, Rule::S2), "{label}");
        assert_eq!(r.len(), 2, "{label}: {r:?}");
        let warm = b[0] + sc.pods[0].containers[0].warmup_s;
        assert!(
            r[1].1 && r[1].0 >= warm && r[1].0 <= warm + period + 1.0,
            "{label}: {r:?}"
        );
        assert!(changes(&tr, Kind::PodReady, web1, None, 0.0).is_empty());
        // main: NotReady at the same instant, by S3.
        let m = main_kep(&sc, seed);
        assert_eq!(
            changes(&m, Kind::PodReady, web0, None, 0.0)[0],
            (back, false, Rule::S3)
        );
    }
}

/// kubernetes#135795 (`report-135795-notready-flip`): web-2, NotReady before the restart, stays
/// NotReady; the legacy kubelet's first SyncPod writes it Ready (S2, no worker yet).
#[test]
fn report_135795_a_not_ready_pod_stays_not_ready() {
    let sc = preset("report-135795-notready-flip");
    let restart = sc.kubelet.restarts[0].at_s;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let r = changes(&tr, Kind::PodReady, 2, None, 0.0);
        assert_eq!(r.len(), 1, "seed {seed}: {r:?}");
        assert!(!r[0].1 && r[0].0 < restart);
        assert!(changes(&tr, Kind::PodReady, 2, None, restart).is_empty());
        for p in [0u16, 1] {
            assert!(changes(&tr, Kind::PodReady, p, None, 0.0).is_empty());
        }
        let l = legacy(&sc, seed);
        assert!(changes(&l, Kind::PodReady, 2, None, restart)
            .iter()
            .any(|c| c.1 && c.2 == Rule::S2));
    }
}

/// A restart longer than the grace period (`long-restart`, 90 s down): the node lifecycle
/// controller marks every pod NotReady (N1), which changes only the PodReady condition
/// (`MarkPodsNotReady`); each container's status still says Ready. csp.md §12 "S3 is gone":
/// adoption seeds readiness Success from that container-level Ready, so the first SyncPod
/// writes the pods Ready again at once (S2), before any probe; main keeps them NotReady until
/// a readiness probe passes (S3, then P5).
#[test]
fn long_restart_adopted_containers_are_written_ready_at_the_first_sync() {
    let sc = presets::long_restart();
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let m = main_kep(&sc, seed);
        let up = secs(tr.restarts[0].1) + sc.kubelet.first_sync_delay_s;
        for p in 0..3u16 {
            let r = changes(&tr, Kind::PodReady, p, None, 0.0);
            assert_eq!(r.len(), 2, "seed {seed} pod {p}: {r:?}");
            assert_eq!((r[0].1, r[0].2), (false, Rule::N1));
            assert_eq!(r[1], (up, true, Rule::S2), "seed {seed} pod {p}");
            assert_eq!(
                results(&tr, p, ProbeKind::Readiness, Rule::P1a, 0.0),
                [(up, Outcome::Success)]
            );
            let k = changes(&m, Kind::PodReady, p, None, 0.0);
            assert_eq!(k.len(), 2);
            assert!(
                k[1].1 && k[1].2 == Rule::P5 && k[1].0 > up,
                "seed {seed} pod {p}"
            );
        }
    }
}

/// kubernetes#141155 (`report-141155-started-by-name`, 1.36 with KEP-4781: the liveness-killed
/// container's replacement is Started at once): under the proposal the start hook gives the
/// replacement a startup worker of its own (startup Unknown), so it is Started only when its
/// startup probe passes, after its 45 s warm-up; readiness and liveness workers follow then.
#[test]
fn report_141155_the_replacement_is_started_by_its_own_startup_probe() {
    let sc = preset("report-141155-started-by-name");
    let c = &sc.pods[0].containers[0];
    let period = c.startup_probe.as_ref().unwrap().period_s as f64;
    for seed in SEEDS {
        let tr = csp(&sc, seed);
        let label = format!("seed {seed}");
        let b = restarts(&tr, 0, 0);
        assert_eq!(b.len(), 1, "{label}");
        let s = changes(&tr, Kind::ContainerStarted, 0, Some(0), 0.0);
        assert_eq!(s.len(), 2, "{label}: {s:?}");
        // Killed and started in one SyncPod (P6, K3r): the start hook's startup worker writes
        // its initial result at once, or the status the PLEG's next relist brings (within a
        // second) names the replacement.
        assert!(
            !s[0].1 && s[0].0 >= b[0] && s[0].0 <= b[0] + 1.0,
            "{label}: {:?}",
            s[0]
        );
        let warm = b[0] + c.warmup_s;
        assert!(
            s[1].1 && s[1].0 >= warm && s[1].0 <= warm + period + 1.0,
            "{label}: {s:?}"
        );
        // The replacement's readiness and liveness workers start with its startup Success.
        let first = |k: ProbeKind| {
            results(&tr, 0, k, Rule::P1, b[0])
                .first()
                .map(|r| r.0)
                .unwrap()
        };
        assert!(first(ProbeKind::Startup) == b[0]);
        assert!(
            (first(ProbeKind::Readiness) - s[1].0).abs() < 1e-6,
            "{label}"
        );
        assert!(
            (first(ProbeKind::Liveness) - s[1].0).abs() < 1e-6,
            "{label}"
        );
        // 1.36 with KEP-4781: Started kept by name, so the replacement's first status says
        // Started (no change at the restart) until its worker's initial Unknown.
        let k = on(
            &sc,
            &KubeletProfile::for_policy(KubeVersion::V1_36, Policy::Kep),
            seed,
        );
        let ks = changes(&k, Kind::ContainerStarted, 0, Some(0), 0.0);
        assert!(ks.iter().all(|x| x.0 > b[0]), "{label}: {ks:?}");
    }
}

/// Every preset runs under the proposal, twice alike, and the API never shows a container
/// Ready before it is Started (the older e2e's "should never report a container ready before
/// it is started", which a67e8a1f dropped).
#[test]
fn every_preset_runs_under_the_proposal() {
    for p in presets::PRESETS {
        let sc = (p.build)();
        for seed in 1..=5 {
            let tr = csp(&sc, seed);
            assert_eq!(csp(&sc, seed).events, tr.events, "{} seed {seed}", p.name);
            let mut state: std::collections::HashMap<(u16, u8), (bool, bool)> = Default::default();
            let mut i = 0;
            while i < tr.events.len() {
                let t = tr.events[i].t;
                while i < tr.events.len() && tr.events[i].t == t {
                    let e = &tr.events[i];
                    if let (Some(pod), Some(c)) = (e.pod, e.container) {
                        let s = state.entry((pod, c)).or_insert((true, true));
                        let v = e.value == Value::Bool(true);
                        match e.kind {
                            Kind::ContainerStarted => s.0 = v,
                            Kind::ContainerReady => s.1 = v,
                            _ => {}
                        }
                    }
                    i += 1;
                }
                for (&(pod, c), &(started, ready)) in &state {
                    let cs = &sc.pods[pod as usize];
                    let completed_init = (c as usize) < cs.init_containers.len()
                        && cs.init_containers[c as usize].restart_policy.is_none();
                    assert!(
                        completed_init || started || !ready,
                        "{} seed {seed} pod {pod} container {c} Ready before Started at {}",
                        p.name,
                        secs(t)
                    );
                }
            }
        }
    }
}
