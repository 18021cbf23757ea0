//! Timeline tests: `Track` semantics, and `state_at` against the presets' known stories and a
//! plain replay of the events.

use crate::timeline::*;
use restartscope_sim::{
    compare, presets, Actor, ConditionStatus, Kind, Ms, Outcome, ProbeKind, Rule, TaintEffect,
    Trace, Value,
};

fn both(s: restartscope_sim::Scenario) -> [(Trace, Timeline); 2] {
    compare(&s).unwrap().map(|tr| {
        let tl = Timeline::new(&tr);
        (tr, tl)
    })
}

/// The runs the app draws (legacy alone before 1.35) with their timelines.
fn runs(s: restartscope_sim::Scenario) -> Vec<(Trace, Timeline)> {
    (restartscope_sim::compare_default(&s).unwrap().into_iter())
        .map(|tr| {
            let tl = Timeline::new(&tr);
            (tr, tl)
        })
        .collect()
}

#[test]
fn track_collapses_instants_and_repeats() {
    let mut t = Track::new(true);
    t.set(10, false);
    t.set(10, true); // back to the value before the instant: no change at 10
    t.set(20, true); // no change
    t.set(20, false);
    t.set(30, false);
    t.set(40, true);
    assert_eq!(t.changes(), &[(20, false), (40, true)]);
    assert_eq!(
        (*t.at(0), *t.at(19), *t.at(20), *t.at(39), *t.at(40)),
        (true, true, false, false, true)
    );
    assert!(*t.at(Ms::MIN) && *t.last());
    assert_eq!(t.spans(0, 35), vec![(0, 20, true), (20, 35, false)]);
    assert_eq!(t.spans(25, 100), vec![(25, 40, false), (40, 100, true)]);
    assert_eq!(Track::new(1).spans(5, 9), vec![(5, 9, 1)]);
    assert!(Track::new(1).spans(9, 9).is_empty());
}

#[test]
fn long_restart_state_at_each_phase() {
    let [(legacy, tl), (_, kep_tl)] = both(presets::long_restart());
    let (stop, start) = legacy.restarts[0];
    let before = tl.state_at(stop - 1);
    assert!(before.kubelet_up);
    assert_eq!(before.node_ready, ConditionStatus::True);
    assert_eq!(before.taints, [false, false]);
    assert!(before.lease_age < tl.lease.renew_interval + 1);
    assert!(before
        .pods
        .iter()
        .all(|p| p.ready == ApiReady::True && p.writer.is_none()));

    // Lease expired, node Unknown, NoSchedule then NoExecute, pods marked NotReady by the NLC.
    let down = tl.state_at(start - 1);
    assert!(!down.kubelet_up);
    assert!(down.lease_age > tl.lease.grace);
    assert_eq!(down.node_ready, ConditionStatus::Unknown);
    assert_eq!(down.taints, [true, true]);
    for p in &down.pods {
        assert_eq!(p.ready, ApiReady::False);
        let w = p.writer.unwrap();
        assert_eq!(
            (w.by, w.rule, w.ready),
            (Actor::NodeLifecycleController, Rule::N1, false)
        );
    }
    assert_eq!(tl.outages(), vec![(stop, start)]);
    let expiries: Vec<Ms> = tl
        .lease
        .expiries()
        .into_iter()
        .filter(|e| *e < tl.horizon)
        .collect();
    assert_eq!(expiries.len(), 1);
    // renewTime + leaseDurationSeconds, not the grace period.
    assert_eq!(expiries[0], tl.lease.renewed(stop) + tl.lease.duration);

    // The end: everything back; legacy went through False→True, KEP waits for a probe but
    // ends Ready too.
    for t in [&tl, &kep_tl] {
        let end = t.state_at(t.horizon);
        assert!(end.kubelet_up && end.taints == [false, false]);
        assert_eq!(end.node_ready, ConditionStatus::True);
        assert!(end.pods.iter().all(|p| p.ready == ApiReady::True));
    }
    assert_eq!(
        tl.taint(TaintEffect::NoExecute).changes().len(),
        2,
        "added and removed once"
    );
}

#[test]
fn probes_and_the_results_cache() {
    let [(legacy, tl), (_, kep)] = both(presets::short_restart());
    let (stop, _) = legacy.restarts[0];
    let ri = ProbeKind::Readiness.index();
    let p0 = &tl.pods[0];
    assert_eq!(
        p0.state_at(stop - 1).containers[0].cached[ri],
        Some(Outcome::Success)
    );
    assert_eq!(
        p0.state_at(stop).containers[0].cached[ri],
        None,
        "kubelet memory lost"
    );
    // Legacy: the new worker writes its initial Failure (P1) and the pod goes NotReady.
    let p1 = p0
        .probes
        .iter()
        .find(|m| {
            m.kind == MarkKind::Cached
                && m.rule == Rule::P1
                && m.value.probe == ProbeKind::Readiness
        })
        .unwrap();
    assert_eq!(
        p0.state_at(p1.t).containers[0].cached[ri],
        Some(Outcome::Failure)
    );
    assert_eq!(p0.state_at(p1.t).ready, ApiReady::False);
    assert!(!p0.state_at(p1.t).containers[0].ready);
    // KEP: the initial value is skipped (P1k) and the pod never leaves Ready.
    let k0 = &kep.pods[0];
    assert!(k0.probes.iter().any(|m| m.kind == MarkKind::InitialSkipped));
    assert!(k0.ready.changes().is_empty() && k0.writes.is_empty());
    // Executions are marks too, in time order.
    assert!(p0.probes.iter().any(|m| m.kind == MarkKind::Executed));
    assert!(p0
        .probes
        .windows(2)
        .all(|w| w[0].t <= w[1].t && w[0].event < w[1].event));
}

#[test]
fn eviction_countdown_deletion_and_removal() {
    let [(legacy, tl), _] = both(presets::eviction());
    let p = &tl.pods[0];
    let c = p.countdowns[0];
    assert_eq!(c.due - c.scheduled, legacy.toleration);
    let (end, how) = c.end.unwrap();
    assert_eq!((end, how), (c.due, CountdownEnd::Evicted));
    assert_eq!(p.state_at(c.scheduled).eviction_due, Some(c.due));
    assert_eq!(p.state_at(c.scheduled - 1).eviction_due, None);
    assert_eq!(p.state_at(c.due).eviction_due, None);
    assert_eq!(p.deleted, Some(c.due));
    let at = p.state_at(c.due);
    assert!(at.deleting && !at.removed);
    if let Some(ep) = at.endpoint {
        assert!(
            matches!(
                ep,
                EndpointState::Terminating | EndpointState::ServingTerminating
            ),
            "{ep:?}"
        );
    }
    let removed = p.removed.unwrap();
    assert!(removed > c.due);
    let gone = p.state_at(removed);
    assert_eq!(gone.ready, ApiReady::Removed);
    assert!(gone.removed);
    // Once removed, stays removed.
    assert_eq!(*p.ready.last(), ApiReady::Removed);
}

#[test]
fn daemonset_pod_is_never_counted_down() {
    let [(legacy, tl), _] = both(presets::daemonset_long_outage());
    for (info, p) in legacy.pods.iter().zip(&tl.pods) {
        let ds = info.workload == restartscope_sim::Workload::DaemonSet;
        assert_eq!(p.countdowns.is_empty(), ds, "{}", info.name);
    }
}

/// `state_at` agrees with replaying the events up to each instant.
#[test]
fn state_at_matches_a_replay_of_the_events() {
    for pr in presets::PRESETS {
        for (tr, tl) in runs((pr.build)()) {
            let mut up = true;
            let mut node = ConditionStatus::True;
            let mut ready: Vec<Option<bool>> = vec![Some(true); tr.pods.len()];
            let mut running: Vec<Vec<bool>> = tr
                .pods
                .iter()
                // A completed ordinary init container is not running at the start.
                .map(|p| {
                    (p.containers.iter())
                        .map(|c| c.role != restartscope_sim::ContainerRole::Init)
                        .collect()
                })
                .collect();
            let mut i = 0;
            while i < tr.events.len() {
                let t = tr.events[i].t;
                while i < tr.events.len() && tr.events[i].t == t {
                    let e = &tr.events[i];
                    let p = e.pod.map(usize::from);
                    match (e.kind, p, e.container.map(usize::from)) {
                        (Kind::KubeletStop, ..) => up = false,
                        (Kind::KubeletStart, ..) => up = true,
                        (Kind::NodeReady, ..) => {
                            if let Value::Condition(c) = e.value {
                                node = c;
                            }
                        }
                        (Kind::PodReady, Some(p), _) if ready[p].is_some() => {
                            ready[p] = Some(e.value == Value::Bool(true))
                        }
                        (Kind::PodRemoved, Some(p), _) => ready[p] = None,
                        (Kind::ContainerExit, Some(p), Some(c)) => running[p][c] = false,
                        (Kind::ContainerRestart, Some(p), Some(c)) => running[p][c] = true,
                        _ => {}
                    }
                    i += 1;
                }
                let s = tl.state_at(t);
                assert_eq!(
                    (s.kubelet_up, s.node_ready),
                    (up, node),
                    "{} t={t}",
                    pr.name
                );
                for (p, ps) in s.pods.iter().enumerate() {
                    let want = match ready[p] {
                        None => ApiReady::Removed,
                        Some(true) => ApiReady::True,
                        Some(false) => ApiReady::False,
                    };
                    assert_eq!(ps.ready, want, "{} t={t} pod {p}", pr.name);
                    let run: Vec<bool> = ps.containers.iter().map(|c| c.running).collect();
                    assert_eq!(run, running[p], "{} t={t} pod {p}", pr.name);
                }
            }
        }
    }
}

/// The node lifecycle controller's grace check, as the figure marks it, against the trace: it
/// falls due at the pass that saw the last renewal (`probeTimestamp`) plus the grace period and
/// fires at the next pass, exactly when the trace has the controller set the node Unknown (N1);
/// the lease itself expires earlier, at renewTime + leaseDurationSeconds.
#[test]
fn the_grace_check_fires_when_the_node_goes_unknown() {
    use restartscope_sim::{simulate_policy, Policy};
    for name in ["long-restart", "eviction"] {
        for seed in 1..=5u64 {
            let mut sc = (presets::find(name).unwrap().build)();
            sc.seed = seed;
            let tr = simulate_policy(&sc, Policy::Kep).unwrap();
            let tl = Timeline::new(&tr);
            let unknown: Vec<Ms> = tr
                .events
                .iter()
                .filter(|e| {
                    e.kind == Kind::NodeReady
                        && e.by == Actor::NodeLifecycleController
                        && e.value == Value::Condition(ConditionStatus::Unknown)
                })
                .map(|e| e.t)
                .collect();
            let checks: Vec<_> = tl
                .lease
                .grace_checks()
                .into_iter()
                .filter(|c| c.fires <= tr.horizon)
                .collect();
            assert_eq!(
                checks.iter().map(|c| c.fires).collect::<Vec<_>>(),
                unknown,
                "{name} seed {seed}"
            );
            let c = checks[0];
            assert!(c.observed >= c.renewed && c.observed - c.renewed < tr.nlc_period);
            assert_eq!(c.due, c.observed + tr.grace);
            assert!(c.fires > c.due && c.fires - c.due <= tr.nlc_period);
            let expiry = tl
                .lease
                .expiries()
                .into_iter()
                .find(|e| *e > c.renewed)
                .unwrap();
            assert_eq!(expiry, c.renewed + tr.lease_duration);
            assert!(
                expiry < c.due,
                "the lease expires before the controller acts"
            );
        }
    }
}
