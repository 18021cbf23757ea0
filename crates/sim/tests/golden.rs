//! Golden timelines: SPEC §6 under both policies, over many seeds (jitter bounds).

mod common;
use common::*;
use restartscope_sim::*;

const T0: f64 = 100.0;
const SYNC: f64 = 2.0;
const PERIOD: f64 = 10.0;
const EXEC: f64 = 1.0;

#[test]
fn short_restart_20s_legacy_flaps_kep_is_silent() {
    for seed in 1..=40 {
        let sc = canonical(20.0, seed);
        let [legacy, kep] = run(&sc);
        let r = T0 + 20.0;
        let s = r + SYNC;
        // Lease gap < grace: the control plane notices nothing.
        for tr in [&legacy, &kep] {
            assert!(first(tr, Kind::NodeReady).is_none(), "seed {seed}");
            assert_eq!(tr.metrics.nlc_status_writes, 0);
            assert_eq!(count(tr, Kind::TaintAdded), 0);
        }
        // Legacy: S + U the worker seeds Failure → Ready=false; ≈ 1 s later success → true.
        let ch = ready_changes(&legacy);
        assert_eq!(ch.len(), 2, "seed {seed}: {ch:?}");
        let (t_false, v0, by0, rule0) = ch[0];
        assert!(
            !v0 && by0 == Actor::Kubelet && rule0 == Rule::P1,
            "seed {seed}: {ch:?}"
        );
        assert!(
            t_false >= s && t_false < s + PERIOD,
            "seed {seed}: {t_false}"
        );
        let (t_true, v1, by1, rule1) = ch[1];
        assert!(v1 && by1 == Actor::Kubelet && rule1 == Rule::P5);
        assert!((t_true - (t_false + EXEC)).abs() < 1e-9, "seed {seed}");
        assert_eq!(legacy.metrics.kubelet_status_writes, 2);
        assert_eq!(legacy.metrics.endpointslice_updates, 2);
        assert!((legacy.metrics.unjustified_not_ready_s - EXEC).abs() < 1e-9);
        // KEP: no status change at all.
        assert!(ready_changes(&kep).is_empty(), "seed {seed}");
        assert_eq!(kep.metrics.kubelet_status_writes, 0);
        assert_eq!(kep.metrics.endpointslice_updates, 0);
        assert_eq!(kep.metrics.unjustified_not_ready_s, 0.0);
    }
}

#[test]
fn long_restart_90s_legacy_four_transitions_kep_two() {
    for seed in 1..=40 {
        let sc = canonical(90.0, seed);
        let [legacy, kep] = run(&sc);
        let r = T0 + 90.0;
        let s = r + SYNC;
        for tr in [&legacy, &kep] {
            let unknown = first(tr, Kind::NodeReady).expect("node goes Unknown");
            let tu = unknown.t as f64 / 1000.0;
            assert_eq!(unknown.rule, Rule::N1);
            assert!(
                (T0 + 40.0..=T0 + 60.0).contains(&tu),
                "seed {seed}: Unknown at {tu}"
            );
            let ch = ready_changes(tr);
            assert_eq!(ch[0], (tu, false, Actor::NodeLifecycleController, Rule::N1));
            // N2: from 1.34 the pass that set Unknown marks the node for tainting and the
            // NoExecute taint lands at the next 100 ms tainting tick (`currentReadyCondition`,
            // kubernetes#120815; before 1.34 one pass later).
            let noexec = tr
                .events
                .iter()
                .find(|e| {
                    e.kind == Kind::TaintAdded && e.value == Value::Taint(TaintEffect::NoExecute)
                })
                .unwrap();
            let dt = noexec.t - unknown.t;
            if sc.cluster.version >= KubeVersion::V1_34 {
                assert!(
                    (0..100).contains(&dt),
                    "seed {seed}: taint {dt} ms after Unknown"
                );
            } else {
                assert!(
                    (5_000..5_100).contains(&dt),
                    "seed {seed}: taint {dt} ms after Unknown"
                );
            }
            // N3: taints removed after the kubelet is back; the NLC never sets pods Ready.
            assert!(tr
                .events
                .iter()
                .any(|e| e.kind == Kind::TaintRemoved && e.t as f64 / 1000.0 >= r));
            assert!(ch
                .iter()
                .all(|c| !(c.1 && c.2 == Actor::NodeLifecycleController)));
            assert_eq!(tr.metrics.evictions, 0);
        }
        let ch = ready_changes(&legacy);
        assert_eq!(ch.len(), 4, "seed {seed}: {ch:?}");
        assert_eq!((ch[1].0, ch[1].1, ch[1].2), (s, true, Actor::Kubelet));
        assert_eq!(ch[1].3, Rule::S2);
        assert!(!ch[2].1 && ch[2].3 == Rule::P1 && ch[2].0 >= s && ch[2].0 < s + PERIOD);
        assert!(ch[3].1 && (ch[3].0 - ch[2].0 - EXEC).abs() < 1e-9);
        let ch = ready_changes(&kep);
        assert_eq!(ch.len(), 2, "seed {seed}: {ch:?}");
        assert!(ch[1].1 && ch[1].2 == Actor::Kubelet && ch[1].3 == Rule::P5);
        assert!(
            ch[1].0 >= s + EXEC && ch[1].0 < s + PERIOD + EXEC,
            "seed {seed}"
        );
        assert_eq!(legacy.metrics.ready_transitions, 4);
        assert_eq!(kep.metrics.ready_transitions, 2);
    }
}

#[test]
fn six_minute_restart_evicts_in_both_policies() {
    for seed in 1..=40 {
        let sc = canonical(360.0, seed);
        for tr in run(&sc) {
            let ev = first(&tr, Kind::Eviction).expect("evicted");
            let t = ev.t as f64 / 1000.0;
            assert!(
                (T0 + 345.0..=T0 + 365.0).contains(&t),
                "seed {seed} {:?}: eviction at {t}",
                tr.policy
            );
            assert_eq!(ev.by, Actor::TaintEvictionController);
            // The estimate the app marks on its slider holds within one renew interval.
            let est = sc.cluster.eviction_downtime_estimate_s();
            assert!((t - T0 - est).abs() <= 10.0, "seed {seed}: {t} vs {est}");
            assert_eq!(tr.metrics.evictions, 1);
            // Terminating from the eviction on (and so when the kubelet returns, if it was
            // evicted before).
            let ep = tr
                .events
                .iter()
                .find(|e| e.kind == Kind::Endpoint && e.t >= ev.t)
                .unwrap();
            assert_eq!(ep.t, ev.t);
            match ep.value {
                Value::Endpoint(v) => assert!(v.terminating && !v.ready),
                _ => panic!("endpoint removed too early"),
            }
            // The kubelet returns, kills the containers after the grace period, pod removed.
            let removed = first(&tr, Kind::PodRemoved).unwrap();
            assert!(removed.t as f64 / 1000.0 >= T0 + 360.0 + SYNC);
        }
    }
}

#[test]
fn policies_differ_only_by_policy() {
    // Same seed: the same lease phase, NLC phase and jitter in both runs.
    let sc = canonical(90.0, 7);
    let [legacy, kep] = run(&sc);
    let probes = |tr: &Trace| {
        tr.events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    Kind::LeaseRenew | Kind::NodeReady | Kind::TaintAdded
                )
            })
            .map(|e| (e.t, e.kind))
            .collect::<Vec<_>>()
    };
    assert_eq!(probes(&legacy), probes(&kep));
}
