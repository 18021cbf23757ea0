//! The PodDisruptionBudget over a Service's pods: `disruptionsAllowed` as the
//! disruption controller computes it from the API's Ready conditions, and the metric "an eviction
//! allowed on a wrongful Ready" (`pdb_wrongful_allowed_s`): #135795's window, in which the legacy
//! kubelet reports a NotReady pod Ready and a budget with minAvailable 2 of 3 lets one eviction
//! through that the truth would refuse.

use restartscope_sim::*;

fn preset(name: &str) -> Scenario {
    (presets::find(name).expect("preset").build)()
}

fn run(sc: &Scenario, version: KubeVersion, policy: Policy, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    simulate_profile(&sc, &KubeletProfile::new(version, policy).unwrap()).unwrap()
}

/// Seconds in [from, to) in which all three pods are Ready in the API (so minAvailable 2 of 3
/// allows one disruption) — web-2 fails its readiness probe from 0 s on, so each is wrongful.
fn all_ready_s(tr: &Trace, from: Ms, to: Ms) -> f64 {
    let mut ready = [true; 3];
    let mut since = Some(0);
    let mut total = 0;
    let mut close = |since: Ms, until: Ms| total += (until.min(to) - since.max(from)).max(0);
    for e in tr.events.iter().filter(|e| e.kind == Kind::PodReady) {
        ready[e.pod.unwrap() as usize] = e.value == Value::Bool(true);
        let all = ready.iter().all(|r| *r);
        match (all, since) {
            (true, None) => since = Some(e.t),
            (false, Some(s)) => {
                close(s, e.t);
                since = None;
            }
            _ => {}
        }
    }
    if let Some(s) = since {
        close(s, tr.horizon);
    }
    total as f64 / 1000.0
}

#[test]
fn report_135795_wrongful_ready_lets_an_eviction_through_on_the_legacy_kubelet() {
    let sc = preset("report-135795-notready-flip");
    assert_eq!(
        sc.pdb.as_ref().unwrap().min_available,
        Some(IntOrPercent::Int(2))
    );
    for seed in 1..=20 {
        for v in KubeVersion::ALL {
            for policy in Policy::BOTH {
                let Ok(profile) = KubeletProfile::new(v, policy) else {
                    continue;
                };
                let mut s = sc.clone();
                s.seed = seed;
                let tr = simulate_profile(&s, &profile).unwrap();
                let got = tr.metrics.pdb_wrongful_allowed_s.expect("a budget");
                // Exactly the time all three look Ready: web-2 fails readiness all along. Before
                // the restart, the three failures its probe needs (both kubelets alike).
                let stop = tr.restarts[0].0;
                let before = all_ready_s(&tr, 0, stop);
                let after = all_ready_s(&tr, stop, tr.horizon);
                assert!((got - before - after).abs() < 1e-9, "{}: {got}", tr.kubelet);
                assert!(before > 20.0 && before < 31.0, "{before}");
                // After it: #135795's window on the legacy kubelet, nothing with KEP-4781.
                if policy == Policy::Legacy {
                    assert!(
                        after > 0.0 && after < 10.0,
                        "seed {seed} {}: {after}",
                        tr.kubelet
                    );
                } else {
                    assert_eq!(after, 0.0, "{}", tr.kubelet);
                }
            }
        }
    }
    // No budget, no metric.
    let mut sc = sc;
    sc.pdb = None;
    for tr in compare(&sc).unwrap() {
        assert_eq!(tr.metrics.pdb_wrongful_allowed_s, None);
        assert!(tr.pdb.is_none());
    }
}

/// The metric counts evictions beyond what the truth allows, whatever the budget: with
/// maxUnavailable 34 % of 3 (ceil 1.02 = 2 unavailable → desiredHealthy 1) web-2's wrongful Ready
/// moves disruptionsAllowed from 1 to 2 and counts at least as long as with minAvailable 2; a budget over
/// a Service whose pods are all healthy never counts.
#[test]
fn the_metric_counts_evictions_beyond_what_the_truth_allows() {
    let mut sc = preset("report-135795-notready-flip");
    let min2 = run(&sc, KubeVersion::V1_35, Policy::Legacy, 1);
    sc.pdb = Some(Pdb {
        pods: vec![],
        service: Some("web".into()),
        min_available: None,
        max_unavailable: Some(IntOrPercent::Str("34%".into())),
    });
    let tr = run(&sc, KubeVersion::V1_35, Policy::Legacy, 1);
    // At least as long: also while web-0 flaps NotReady (legacy P1) and web-2 looks Ready, two
    // look healthy, one disruption is allowed where the truth (one healthy) allows none.
    let (a, b) = (
        tr.metrics.pdb_wrongful_allowed_s.unwrap(),
        min2.metrics.pdb_wrongful_allowed_s.unwrap(),
    );
    assert!(a >= b && a < b + 2.0, "{a} vs {b}");
    let mut healthy = preset("short-restart");
    healthy.pdb = Some(Pdb {
        pods: vec![],
        service: None,
        min_available: Some(IntOrPercent::Str("50%".into())),
        max_unavailable: None,
    });
    for tr in compare(&healthy).unwrap() {
        assert_eq!(tr.metrics.pdb_wrongful_allowed_s, Some(0.0));
    }
}
