//! `metrics_at`: the metrics at any time, read from a run's checkpoint series. At the horizon
//! they are the run's metrics; they never decrease; between checkpoints the rates predict the
//! next checkpoint exactly; the counters and the node's not-Ready seconds agree with the events
//! up to `t`; and a short restart read by hand.

use restartscope_report::{metrics_at, METRICS};
use restartscope_sim::*;

/// Every preset × seeds 1–3 × every release × both policies (KEP from 1.35 on).
fn runs() -> Vec<(String, Trace)> {
    let mut out = Vec::new();
    for p in presets::PRESETS {
        for seed in 1..=3 {
            for v in KubeVersion::ALL {
                for policy in Policy::BOTH {
                    let Ok(profile) = KubeletProfile::new(v, policy) else {
                        continue;
                    };
                    let mut sc = (p.build)();
                    sc.seed = seed;
                    let sc = sc.with_version(v);
                    let name = format!("{} seed {seed} {} {policy:?}", p.name, v.as_str());
                    let tr =
                        simulate_profile(&sc, &profile).unwrap_or_else(|e| panic!("{name}: {e:?}"));
                    out.push((name, tr));
                }
            }
        }
    }
    out
}

#[test]
fn at_the_horizon_they_are_the_run_metrics_and_rates_predict_the_next_checkpoint() {
    let runs = runs();
    assert!(runs.len() >= 13 * 3 * 12, "{} runs", runs.len());
    // Every kind of rate is exercised somewhere.
    let some = |f: fn(&Metrics) -> bool| runs.iter().any(|(_, tr)| f(&tr.metrics));
    assert!(some(|m| m.unjustified_ready_s > 0.0) && some(|m| m.unjustified_not_ready_s > 0.0));
    assert!(some(|m| m.node_not_ready_s > 0.0) && some(|m| m.evictions > 0));
    assert!(some(|m| m.pdb_wrongful_allowed_s.is_some_and(|s| s > 0.0)));
    for (name, tr) in &runs {
        assert_eq!(metrics_at(tr, tr.horizon), tr.metrics, "{name}");
        assert_eq!(metrics_at(tr, tr.horizon + 60_000), tr.metrics, "{name}");
        let cps = tr
            .checkpoints
            .as_ref()
            .expect("a single-node run has checkpoints");
        assert_eq!(cps.pdb, tr.pdb.is_some(), "{name}");
        let last = cps.points.last().expect("the horizon's checkpoint");
        assert_eq!(last.t, tr.horizon, "{name}");
        for w in cps.points.windows(2) {
            assert!(w[0].t < w[1].t, "{name}: checkpoints in time order");
            assert_eq!(
                w[0].sums.after(w[0].rates, w[1].t - w[0].t),
                w[1].sums,
                "{name} at {}",
                w[1].t
            );
        }
    }
}

#[test]
fn values_never_decrease() {
    for (name, tr) in runs() {
        let mut times: Vec<Ms> = tr
            .events
            .iter()
            .flat_map(|e| [e.t - 1, e.t, e.t + 1])
            .collect();
        times.extend(
            tr.checkpoints
                .iter()
                .flat_map(|c| c.points.iter().map(|p| p.t + 250)),
        );
        times.extend([-1, 0, tr.horizon / 3, tr.horizon]);
        times.sort_unstable();
        let mut before = metrics_at(&tr, -1);
        for t in times {
            let now = metrics_at(&tr, t);
            for m in &METRICS {
                assert!(
                    m.value(&now) >= m.value(&before),
                    "{name}: {} went from {} to {} at {t}",
                    m.key,
                    m.value(&before),
                    m.value(&now)
                );
                assert_eq!(m.applies(&now), m.applies(&tr.metrics), "{name}: {}", m.key);
            }
            before = now;
        }
    }
}

/// What the events up to `t` say: the counters, and seconds with the node not Ready.
#[derive(Default)]
struct FromEvents {
    ready_transitions: u32,
    kubelet_writes: u32,
    nlc_writes: u32,
    evictions: u32,
    node_down_ms: i64,
    down_since: Option<Ms>,
}

impl FromEvents {
    fn add(&mut self, e: &Event) {
        match (e.kind, &e.value) {
            (Kind::PodReady, _) => self.ready_transitions += 1,
            (Kind::StatusWrite, Value::Writer(Actor::Kubelet)) => self.kubelet_writes += 1,
            (Kind::StatusWrite, Value::Writer(Actor::NodeLifecycleController)) => {
                self.nlc_writes += 1
            }
            (Kind::Eviction, _) => self.evictions += 1,
            (Kind::NodeReady, Value::Condition(c)) => {
                match (*c == ConditionStatus::True, self.down_since) {
                    (true, Some(s)) => {
                        self.node_down_ms += e.t - s;
                        self.down_since = None;
                    }
                    (false, None) => self.down_since = Some(e.t),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn check(&self, name: &str, tr: &Trace, t: Ms) {
        let m = metrics_at(tr, t);
        let down = self.node_down_ms + self.down_since.map_or(0, |s| t - s);
        assert_eq!(
            (
                m.ready_transitions,
                m.kubelet_status_writes,
                m.nlc_status_writes,
                m.evictions
            ),
            (
                self.ready_transitions,
                self.kubelet_writes,
                self.nlc_writes,
                self.evictions
            ),
            "{name} at {t}"
        );
        assert_eq!(m.node_not_ready_s, down as f64 / 1000.0, "{name} at {t}");
    }
}

#[test]
fn counters_and_node_seconds_agree_with_the_events_up_to_t() {
    for (name, tr) in runs() {
        let mut acc = FromEvents::default();
        let mut i = 0;
        while i < tr.events.len() {
            let t = tr.events[i].t;
            // Just before the instant, then everything of it counted, then half a second on.
            acc.check(&name, &tr, t - 1);
            while i < tr.events.len() && tr.events[i].t == t {
                acc.add(&tr.events[i]);
                i += 1;
            }
            acc.check(&name, &tr, t);
            if tr.events.get(i).is_none_or(|e| e.t > t + 500) {
                acc.check(&name, &tr, (t + 500).min(tr.horizon));
            }
        }
        acc.check(&name, &tr, tr.horizon);
    }
}

/// short-restart, legacy kubelet, default seed: after the 20 s restart each of the three pods is
/// reported NotReady by the first SyncPod and Ready again at its next 1 s readiness probe, one
/// pod after the other, so Ready transitions go 0 → 1 at the first NotReady, and each pod adds
/// one second of unjustified NotReady (3.0 pod·s at the end).
#[test]
fn short_restart_legacy_by_hand() {
    let tr = simulate_policy(&presets::short_restart(), Policy::Legacy).unwrap();
    let not_ready: Vec<Ms> = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::PodReady && e.value == Value::Bool(false))
        .map(|e| e.t)
        .collect();
    assert_eq!(not_ready.len(), 3);
    let t1 = not_ready[0];
    assert!(t1 > tr.restarts[0].1, "after the kubelet is back");
    let before = metrics_at(&tr, t1 - 1);
    assert_eq!(before.ready_transitions, 0);
    assert_eq!(before.kubelet_status_writes, 0);
    assert_eq!(before.unjustified_not_ready_s, 0.0);
    let at = metrics_at(&tr, t1);
    assert_eq!(
        (
            at.ready_transitions,
            at.kubelet_status_writes,
            at.endpointslice_updates
        ),
        (1, 1, 1)
    );
    assert_eq!(at.unjustified_not_ready_s, 0.0);
    // Half-way through the first pod's second NotReady: one pod, 0.5 s.
    assert_eq!(metrics_at(&tr, t1 + 500).unjustified_not_ready_s, 0.5);
    // Ready again one probe period later: the integral stops growing.
    let back = metrics_at(&tr, t1 + 1_000);
    assert_eq!(
        (back.ready_transitions, back.unjustified_not_ready_s),
        (2, 1.0)
    );
    assert_eq!(
        metrics_at(&tr, not_ready[1] - 1).unjustified_not_ready_s,
        1.0
    );
    let end = metrics_at(&tr, tr.horizon);
    assert_eq!(
        (end.ready_transitions, end.unjustified_not_ready_s),
        (6, 3.0)
    );
    assert_eq!((end.node_not_ready_s, end.unjustified_ready_s), (0.0, 0.0));
    // The node stays Ready (20 s < the 40 s grace period): nothing else moves, so a checkpoint
    // at each of the six Ready changes and the horizon's.
    assert_eq!(tr.checkpoints.as_ref().unwrap().points.len(), 2 * 3 + 1);
}

#[test]
fn without_checkpoints_the_whole_run_values() {
    let mut tr = simulate_policy(&presets::long_restart(), Policy::Kep).unwrap();
    tr.checkpoints = None;
    assert_eq!(metrics_at(&tr, 0), tr.metrics);
    assert_eq!(
        METRICS[0].value_at(&tr, 0),
        tr.metrics.ready_transitions as f64
    );
}
