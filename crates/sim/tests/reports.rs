//! The upstream reports behind the `report-*` presets: each reporter's observed
//! sequence — `kubectl get pod -w` lines, timings, what they saw happen — checked on the model's
//! trace under the kubelet the reporter ran, over several seeds. Reporters before 1.35 ran a
//! legacy kubelet; the model's `1.31` and `1.34` profiles are the legacy restart path they ran
//! (the presets themselves use 1.35 or later so that the app can show legacy beside KEP-4781).
//! Where the model cannot show something a reporter saw, the test says so.

use restartscope_sim::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn preset(name: &str) -> Scenario {
    (presets::find(name).expect("preset").build)()
}

fn run(sc: &Scenario, version: KubeVersion, policy: Policy, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    let profile = KubeletProfile::new(version, policy).expect("profile");
    simulate_profile(&sc, &profile).expect("valid scenario")
}

fn secs(t: Ms) -> f64 {
    t as f64 / 1000.0
}

/// When the (first) restarted kubelet starts, in seconds.
fn kubelet_start(tr: &Trace) -> f64 {
    secs(tr.restarts[0].1)
}

/// (t, Ready, rule) of every API PodReady change of `pod` at or after `from` seconds.
fn ready(tr: &Trace, pod: u16, from: f64) -> Vec<(f64, bool, Rule)> {
    tr.pod_ready_changes(pod)
        .filter(|e| secs(e.t) >= from)
        .map(|e| (secs(e.t), e.value == Value::Bool(true), e.rule))
        .collect()
}

/// (t, Started, rule) of every Started change of `pod`'s first container at or after `from`.
fn started(tr: &Trace, pod: u16, from: f64) -> Vec<(f64, bool, Rule)> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::ContainerStarted && e.pod == Some(pod) && secs(e.t) >= from)
        .map(|e| (secs(e.t), e.value == Value::Bool(true), e.rule))
        .collect()
}

/// (start, end, result) of every `kind` probe of `pod` that *started* at or after `from`
/// (a probe event is written when the probe returns, `exec_s` after it started).
fn probes(
    tr: &Trace,
    sc: &Scenario,
    pod: u16,
    kind: ProbeKind,
    from: f64,
) -> Vec<(f64, f64, Outcome)> {
    let c = &sc.pods[pod as usize].containers[0];
    let spec = match kind {
        ProbeKind::Startup => &c.startup_probe,
        ProbeKind::Readiness => &c.readiness_probe,
        ProbeKind::Liveness => &c.liveness_probe,
    };
    let took = spec
        .as_ref()
        .map(|p| p.exec_s.min(p.timeout_s as f64))
        .unwrap_or(0.0);
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::Probe && e.pod == Some(pod))
        .filter_map(|e| match e.value {
            Value::Probe(p) if p.probe == kind => Some((secs(e.t) - took, secs(e.t), p.result)),
            _ => None,
        })
        .filter(|(start, _, _)| *start >= from - 1e-9)
        .collect()
}

/// Endpoint `ready` changes of `pod` at or after `from`.
fn endpoint(tr: &Trace, pod: u16, from: f64) -> Vec<(f64, bool)> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::Endpoint && e.pod == Some(pod) && secs(e.t) >= from)
        .filter_map(|e| match e.value {
            Value::Endpoint(v) => Some((secs(e.t), v.ready)),
            _ => None,
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// https://github.com/kubernetes/kubernetes/issues/113646 (v1.25.3), a Ready pod with a
/// readiness probe `exec: sleep 1`, the kubelet restarted; `kubectl get pod -w`:
///
/// ```text
/// busybox-test-1   1/1     Running   0              3m48s
/// busybox-test-1   0/1     Running   0              4m
/// busybox-test-1   1/1     Running   0              4m1s
/// ```
///
/// The same 1/1 → 0/1 → 1/1 within about a second, with the endpoint removed and re-added, is
/// #78733 (v1.10), #106689 (v1.22) and #131303. The model: the new readiness worker writes its
/// initial Failure (P1) when it first runs and the probe, 1 s later, writes Success (P5). The
/// restart time itself is not in the report (the first line is the watch's listing), so the
/// check is the order, the writer, the one-probe width and that it happens within the worker's
/// first period after the first SyncPod.
#[test]
fn report_113646_ready_pod_flaps_for_one_probe_on_the_legacy_kubelet() {
    let sc = preset("report-113646-flap");
    assert_eq!(sc.cluster.version, KubeVersion::V1_35);
    for seed in SEEDS {
        for v in [KubeVersion::V1_31, KubeVersion::V1_34, KubeVersion::V1_35] {
            let tr = run(&sc, v, Policy::Legacy, seed);
            let up = kubelet_start(&tr);
            let flap = ready(&tr, 0, up);
            assert_eq!(
                flap.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                [(false, Rule::P1), (true, Rule::P5)],
                "seed {seed} {v:?}: {flap:?}"
            );
            let (down, back) = (flap[0].0, flap[1].0);
            // 0/1 at age 4m, 1/1 at 4m1s: one `sleep 1` probe.
            assert!(close(back - down, 1.0), "seed {seed}: {flap:?}");
            // The worker runs first within one period (10 s) of the first SyncPod (2 s).
            let sync = up + sc.kubelet.first_sync_delay_s;
            assert!(
                sync <= down && down < sync + 10.0,
                "seed {seed}: {down} vs {sync}"
            );
            // The endpoint is removed and re-added with it: two EndpointSlice updates.
            assert_eq!(endpoint(&tr, 0, up), [(down, false), (back, true)]);
            let updates = tr
                .events
                .iter()
                .filter(|e| e.kind == Kind::EndpointsliceUpdate && secs(e.t) >= up)
                .count();
            assert_eq!(updates, 2, "seed {seed}");
        }
        // KEP-4781 keeps it 1/1: no Ready change, no endpoint change.
        let kep = run(&sc, KubeVersion::V1_35, Policy::Kep, seed);
        assert!(ready(&kep, 0, 0.0).is_empty(), "seed {seed}");
        assert!(endpoint(&kep, 0, 0.0).is_empty(), "seed {seed}");
    }
}

/// https://github.com/kubernetes/kubernetes/issues/128561 (v1.24.17, grace 40 s): "systemctl
/// stop kubelet, sleep 40, systemctl start kubelet: get pod -w will found pod become unready,
/// and become ready immediately". The same pod, kubelet down 40 s on the `1.31` profile (the
/// 40 s grace of 1.24): the last two Ready changes are the kubelet's one-probe flap, and the
/// pod ends Ready. (Whether the node lifecycle controller also marks the pod NotReady depends on
/// the lease and monitor phases; the report's screenshot is not in the stored thread.)
#[test]
fn report_128561_forty_second_stop_flaps_once_more() {
    let sc = preset("report-113646-flap").with_restart(30.0, 40.0);
    for seed in SEEDS {
        let tr = run(&sc, KubeVersion::V1_31, Policy::Legacy, seed);
        let up = kubelet_start(&tr);
        let after = ready(&tr, 0, up);
        let n = after.len();
        assert!(n >= 2, "seed {seed}: {after:?}");
        let (down, back) = (after[n - 2], after[n - 1]);
        assert_eq!(
            (down.1, down.2, back.1, back.2),
            (false, Rule::P1, true, Rule::P5)
        );
        assert!(close(back.0 - down.0, 1.0), "seed {seed}: {after:?}");
    }
}

/// https://github.com/kubernetes/kubernetes/issues/125397 (June 2024, a v1.30-era kubelet): pod
/// `startup-exec` with only a startup probe (`sleep 10; cat /tmp/healthy`, initialDelaySeconds
/// 6, timeoutSeconds 15, periodSeconds 60), Ready; "After the kubelet restarted, this pod will be
/// marked `not ready`. An additional startupProbe needs to be executed."
/// https://github.com/kubernetes/kubernetes/issues/133579: "the startup probes of pods on the
/// node seemed to be re-executed … re-execution caused the pods to enter a ContainerNotReady
/// state. This led to an online incident."
///
/// The model: the new startup worker writes Unknown at its first tick (Started=false, Ready
/// false) but does not probe on that tick, because the status it read still said Started; the
/// next tick, one period later, runs the 10 s probe: NotReady for exactly 60 + 10 s.
#[test]
fn report_125397_startup_probe_runs_again_on_the_legacy_kubelet() {
    let sc = preset("report-125397-startup-rerun");
    for seed in SEEDS {
        for v in [KubeVersion::V1_31, KubeVersion::V1_34, KubeVersion::V1_35] {
            let tr = run(&sc, v, Policy::Legacy, seed);
            let up = kubelet_start(&tr);
            // An additional startup probe: exactly one after the restart, and it passes.
            let again = probes(&tr, &sc, 0, ProbeKind::Startup, up);
            assert_eq!(again.len(), 1, "seed {seed} {v:?}: {again:?}");
            assert_eq!(again[0].2, Outcome::Success);
            let s = started(&tr, 0, up);
            assert_eq!(
                s.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                [(false, Rule::P1), (true, Rule::P5)],
                "seed {seed} {v:?}"
            );
            let r = ready(&tr, 0, up);
            assert_eq!(
                r.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(),
                [(s[0].0, false), (s[1].0, true)],
                "seed {seed} {v:?}: Ready follows Started"
            );
            assert!(close(r[1].0 - r[0].0, 60.0 + 10.0), "seed {seed}: {r:?}");
            assert!(close(again[0].1, r[1].0), "the probe's success ends it");
            let sync = up + sc.kubelet.first_sync_delay_s;
            assert!(sync <= r[0].0 && r[0].0 < sync + 60.0, "seed {seed}: {r:?}");
        }
        // KEP-4781 keeps Started: the startup probe does not run again and Ready never changes.
        let kep = run(&sc, KubeVersion::V1_35, Policy::Kep, seed);
        assert!(probes(&kep, &sc, 0, ProbeKind::Startup, 0.0).is_empty());
        assert!(started(&kep, 0, 0.0).is_empty() && ready(&kep, 0, 0.0).is_empty());
    }
}

/// https://github.com/kubernetes/kubernetes/issues/135795 (December 2025, a kubelet without
/// KEP-4781): "pods that were NOT Ready before the restart [are] briefly marked as Ready … During
/// `SyncPod`, `UpdatePodStatus` is called before prober workers are created … The probe fails
/// and the pod is marked NotReady again. This brief Ready window (we observed ~4 seconds) is
/// enough for PodDisruptionBudget checks to succeed, allowing evictions that should have been
/// blocked."
///
/// The model: web-2 is written Ready at the first SyncPod (S2, no worker yet) and NotReady when
/// its new worker first runs (P1), a uniform draw within one period: over the seeds the window
/// spans the reporter's 4 s. KEP-4781 (the special case of enhancements#5777, in v1.35.0 with the
/// gate off) keeps it NotReady. The model has no PodDisruptionBudget or eviction API: what it
/// shows is the time all three replicas are Ready, when a PDB with minAvailable 2 would allow one
/// disruption; the eviction itself cannot be shown. The reporter's manifest and timeline table
/// are not in the stored thread, so the probe is the default one.
#[test]
fn report_135795_not_ready_pod_is_briefly_ready_on_the_legacy_kubelet() {
    let sc = preset("report-135795-notready-flip");
    let mut windows = Vec::new();
    for seed in SEEDS {
        for v in [KubeVersion::V1_34, KubeVersion::V1_35] {
            let tr = run(&sc, v, Policy::Legacy, seed);
            let up = kubelet_start(&tr);
            let stop = secs(tr.restarts[0].0);
            // NotReady before the restart.
            let before: Vec<_> = ready(&tr, 2, 0.0)
                .into_iter()
                .filter(|c| c.0 < stop)
                .collect();
            assert_eq!(before.len(), 1, "seed {seed}: {before:?}");
            assert!(!before[0].1);
            let flip = ready(&tr, 2, up);
            assert_eq!(
                flip.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                [(true, Rule::S2), (false, Rule::P1)],
                "seed {seed} {v:?}: {flip:?}"
            );
            assert!(close(flip[0].0, up + sc.kubelet.first_sync_delay_s));
            let window = flip[1].0 - flip[0].0;
            assert!(window > 0.0 && window < 10.0, "seed {seed}: {flip:?}");
            windows.push(window);
            assert!(
                all_ready_s(&tr, up) > 0.0,
                "seed {seed}: a PDB would allow a disruption"
            );
        }
        for v in [KubeVersion::V1_35, KubeVersion::Main] {
            let kep = run(&sc, v, Policy::Kep, seed);
            assert_eq!(
                ready(&kep, 2, 0.0).len(),
                1,
                "seed {seed}: only the first NotReady"
            );
            assert_eq!(all_ready_s(&kep, secs(kep.restarts[0].0)), 0.0);
        }
    }
    let lo = windows.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = windows.iter().cloned().fold(0.0, f64::max);
    assert!(
        lo < 4.0 && 4.0 < hi,
        "the reporter's ~4 s is inside {lo}..{hi}"
    );
}

/// Seconds after `from` during which every pod of the trace is Ready in the API.
fn all_ready_s(tr: &Trace, from: f64) -> f64 {
    let mut ready = vec![true; tr.pods.len()];
    let mut since = None;
    let mut total = 0.0;
    for e in tr.events.iter().filter(|e| e.kind == Kind::PodReady) {
        let t = secs(e.t);
        ready[e.pod.unwrap() as usize] = e.value == Value::Bool(true);
        let all = ready.iter().all(|r| *r);
        match (all, since) {
            (true, None) => since = Some(t.max(from)),
            (false, Some(s)) => {
                total += (t.max(from) - s).max(0.0);
                since = None;
            }
            _ => {}
        }
    }
    if let Some(s) = since {
        total += (secs(tr.horizon) - s).max(0.0);
    }
    total
}

/// https://github.com/kubernetes/kubernetes/issues/141155 (k3s v1.36.2, gate
/// ChangeContainerStatusOnKubeletRestart off by default): "Liveness probe failure container
/// restart leads to container starting up with started=true and liveness probes starting before
/// startup probes have run". Fixed in main by #141342 (compare the container ID); the
/// cherry-picks to 1.35–1.37 are open, so every KEP profile from 1.35 to 1.37 has it.
///
/// The model: the kill and the restart are one SyncPod (P6), so the status that names the
/// replacement copies Started=true from the killed container's status (S1, by name): no Started
/// write at the kill. Until the startup worker first sees the replacement (writes Unknown,
/// Started=false), readiness — triggered at once by the status change — and, when its tick comes
/// first, liveness probe a container that has not passed its startup probe. Legacy and main
/// write Started=false with the replacement and probe nothing before the startup probe passes.
#[test]
fn report_141155_replacement_inherits_started_until_main() {
    let sc = preset("report-141155-started-by-name");
    assert_eq!(sc.cluster.version, KubeVersion::V1_36);
    let kill_of = |tr: &Trace| -> f64 {
        let kills: Vec<f64> = tr
            .events
            .iter()
            .filter(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .map(|e| secs(e.t))
            .collect();
        assert_eq!(kills.len(), 1, "one liveness kill: {kills:?}");
        kills[0]
    };
    let mut liveness_first = 0;
    for seed in SEEDS {
        for v in [
            KubeVersion::V1_35,
            KubeVersion::V1_35_4,
            KubeVersion::V1_36,
            KubeVersion::V1_37,
        ] {
            let tr = run(&sc, v, Policy::Kep, seed);
            let kill = kill_of(&tr);
            let s = started(&tr, 0, kill);
            // Started=true carried over (nothing written at the kill), then the startup worker's
            // Unknown, then its Success.
            assert!(s[0].0 > kill, "seed {seed} {v:?}: {s:?}");
            assert_eq!(
                s.iter().take(2).map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                [(false, Rule::P1), (true, Rule::P5)],
                "seed {seed} {v:?}"
            );
            let startup = probes(&tr, &sc, 0, ProbeKind::Startup, kill);
            let gated = startup[0].0;
            let early: Vec<_> = [ProbeKind::Readiness, ProbeKind::Liveness]
                .into_iter()
                .flat_map(|k| {
                    probes(&tr, &sc, 0, k, kill)
                        .into_iter()
                        .filter(move |p| p.0 < gated)
                        .map(move |p| (k, p))
                })
                .collect();
            assert!(
                !early.is_empty(),
                "seed {seed} {v:?}: probed before startup"
            );
            assert!(
                early.iter().all(|(_, p)| p.2 == Outcome::Failure),
                "the replacement is still warming up: {early:?}"
            );
            if early.iter().any(|(k, _)| *k == ProbeKind::Liveness) {
                liveness_first += 1;
            }
        }
        // Legacy 1.36 and main with KEP-4781: Started=false with the replacement, and no
        // readiness or liveness probe until the startup probe has passed.
        for (v, policy) in [
            (KubeVersion::V1_36, Policy::Legacy),
            (KubeVersion::Main, Policy::Kep),
        ] {
            let tr = run(&sc, v, policy, seed);
            let kill = kill_of(&tr);
            let s = started(&tr, 0, kill);
            // Killed and started in one SyncPod (P6, K3r); the PLEG's next relist brings the
            // replacement into the status (within a second).
            assert!(
                !s[0].1 && s[0].0 > kill && s[0].0 <= kill + 1.0,
                "seed {seed} {v:?} {policy:?}: {:?}",
                s[0]
            );
            let passed = s.iter().find(|c| c.1).expect("startup passes").0;
            for k in [ProbeKind::Readiness, ProbeKind::Liveness] {
                let early: Vec<_> = probes(&tr, &sc, 0, k, kill)
                    .into_iter()
                    .filter(|p| p.0 < passed)
                    .collect();
                assert!(
                    early.is_empty(),
                    "seed {seed} {v:?} {policy:?} {k:?}: {early:?}"
                );
            }
        }
    }
    // The reporter's title: liveness before startup. It needs the liveness tick to come before
    // the startup worker's; readiness is triggered at once in every seed.
    assert!(liveness_first > 0, "no seed probed liveness first");
}

/// https://github.com/kubernetes/kubernetes/issues/142305 (open; PR #142303 proposes checking the
/// pod spec in `isContainerStarted`): "A container still in its startup period is NotReady, as
/// expected. Restart the kubelet on that node and the pod goes Ready within a few seconds,
/// without the startup probe ever succeeding, and it stays Ready." and "With a readiness probe
/// the pod stays NotReady, but the startup gate opens and the liveness probe starts running
/// against a container that is still warming up."
///
/// The model: at the first SyncPod no startup worker exists, so S1 says Started (and, without a
/// readiness probe, S2 says Ready). With KEP-4781 (every profile from 1.35 to main) the new
/// worker writes nothing for a container older than the restart (P1k) and, seeing Started, never
/// probes: Started and Ready stay. The legacy kubelet shows the same Started=true at the first
/// SyncPod, but its worker's initial Unknown takes it back within one period (the #135795
/// window), so every profile shows it, the legacy one briefly.
#[test]
fn report_142305_started_before_the_startup_probe_passes() {
    let sc = preset("report-142305-started-early");
    assert_eq!(sc.cluster.version, KubeVersion::Main);
    let (slow, probed) = (0u16, 1u16);
    for seed in SEEDS {
        for v in [
            KubeVersion::V1_35,
            KubeVersion::V1_35_4,
            KubeVersion::V1_36,
            KubeVersion::V1_37,
            KubeVersion::Main,
        ] {
            let tr = run(&sc, v, Policy::Kep, seed);
            let up = kubelet_start(&tr);
            let sync = up + sc.kubelet.first_sync_delay_s;
            for pod in [slow, probed] {
                // In its startup period before the restart: NotReady, not Started.
                let before: Vec<_> = ready(&tr, pod, 0.0)
                    .into_iter()
                    .filter(|c| c.0 < up)
                    .collect();
                assert_eq!(before.len(), 1, "seed {seed}: {before:?}");
                assert!(!before[0].1 && !started(&tr, pod, 0.0)[0].1);
                // Started at the first SyncPod, without a startup success.
                let s = started(&tr, pod, up);
                assert_eq!(s[0], (sync, true, Rule::S1), "seed {seed} {v:?} pod {pod}");
                let startup = probes(&tr, &sc, pod, ProbeKind::Startup, up);
                assert!(
                    startup.iter().all(|p| p.2 == Outcome::Failure),
                    "seed {seed} {v:?}: {startup:?}"
                );
            }
            // slow-start: Ready "within a few seconds" and it stays Ready; its startup probe
            // never runs again.
            assert_eq!(
                ready(&tr, slow, up),
                [(sync, true, Rule::S2)],
                "seed {seed} {v:?}"
            );
            assert_eq!(started(&tr, slow, up).len(), 1);
            assert!(probes(&tr, &sc, slow, ProbeKind::Startup, up).is_empty());
            // slow-start-probed: stays NotReady, but liveness probes the warming container and
            // kills it (3 failures of 10 s); its replacement is gated by the startup probe again.
            assert!(
                ready(&tr, probed, up).iter().all(|c| !c.1),
                "seed {seed} {v:?}"
            );
            let live = probes(&tr, &sc, probed, ProbeKind::Liveness, up);
            assert!(live.len() >= 3 && live[..3].iter().all(|p| p.2 == Outcome::Failure));
            let kill = tr
                .events
                .iter()
                .find(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
                .map(|e| (e.pod, e.value.clone(), secs(e.t)))
                .expect("the liveness probe kills slow-start-probed");
            assert_eq!(kill.0, Some(probed));
            assert_eq!(
                kill.1,
                Value::Exit(ExitReason::ProbeFailed(ProbeKind::Liveness))
            );
            assert!(
                close(kill.2, live[2].1),
                "seed {seed}: killed by the third failure"
            );
        }
        // The legacy kubelet: the same Started (and Ready) at the first SyncPod, taken back when
        // the new worker first runs, within one 10 s period; then the startup probe runs again.
        for v in [KubeVersion::V1_31, KubeVersion::V1_34, KubeVersion::Main] {
            let tr = run(&sc, v, Policy::Legacy, seed);
            let up = kubelet_start(&tr);
            let sync = up + sc.kubelet.first_sync_delay_s;
            for pod in [slow, probed] {
                let r = ready(&tr, pod, up);
                assert_eq!(
                    r.iter().map(|c| (c.1, c.2)).collect::<Vec<_>>(),
                    [(true, Rule::S2), (false, Rule::P1)],
                    "seed {seed} {v:?} pod {pod}"
                );
                assert!(close(r[0].0, sync) && r[1].0 - sync < 10.0, "{r:?}");
                let s = started(&tr, pod, up);
                assert_eq!((s[0].1, s[1].1), (true, false));
                assert!(!probes(&tr, &sc, pod, ProbeKind::Startup, up).is_empty());
            }
            assert!(
                !tr.events
                    .iter()
                    .any(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6),
                "seed {seed} {v:?}: nothing is killed"
            );
        }
    }
}
