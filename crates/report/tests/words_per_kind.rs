//! The words beside the figure, for every restart kind: every preset with its first restart
//! made a kubelet restart, a container runtime restart and a node reboot, on every kubelet
//! profile, at three downtimes. Each sentence and row is checked against the run's own events:
//! the why lines count the header's transitions and name a probe the pod has; a run with no
//! Ready change says what the node did, and blames the runtime only where it stopped and the
//! 1.30 start only on 1.30; the kubectl rows show one condition change per transition and
//! change STATUS or RESTARTS only when the kubelet wrote; the caption's counts are the header's;
//! the downtime slider's eviction mark is where this kind's evictions start.

use restartscope_report::{kubectl, watch, why, Timeline};
use restartscope_sim::{
    compare_default, presets, ConditionStatus, Kind, KubeVersion, Ms, ProbeKind, RestartKind, Rule,
    Scenario, Trace,
};

const DOWNTIMES: [f64; 3] = [15.0, 90.0, 400.0];

fn variant(base: &Scenario, kind: RestartKind, v: KubeVersion, down: f64) -> Scenario {
    let mut sc = base.clone();
    sc.cluster.version = v;
    if sc.kubelet.restarts.is_empty() {
        return sc;
    }
    let r = &mut sc.kubelet.restarts[0];
    r.what = kind;
    r.downtime_s = down;
    if kind == RestartKind::Runtime {
        r.upgrade_to = None;
    }
    sc.horizon_s = sc.horizon_s.max(r.at_s + down + 120.0);
    sc
}

fn runs() -> Vec<(String, Scenario, Vec<Trace>)> {
    let mut out = Vec::new();
    for p in presets::PRESETS {
        let base = (p.build)();
        for kind in RestartKind::ALL {
            for v in KubeVersion::ALL {
                for down in DOWNTIMES {
                    let sc = variant(&base, kind, v, down);
                    // Settings Kubernetes rejects (an upgrade to an older release, …) are not
                    // simulated: nothing to say.
                    if let Ok(traces) = compare_default(&sc) {
                        let what = format!("{} {} {} {down}s", p.name, kind.label(), v.as_str());
                        out.push((what, sc, traces));
                    }
                }
            }
        }
    }
    assert!(out.len() > 500, "{}", out.len());
    out
}

fn has_probe(tl: &Timeline, pod: usize, kind: ProbeKind) -> bool {
    tl.pods[pod]
        .containers
        .iter()
        .any(|c| c.cached[kind.index()].is_some())
}

#[test]
fn every_sentence_and_row_agrees_with_its_run() {
    for (what, sc, traces) in runs() {
        let caption = watch::watch_line(&traces);
        for tr in &traces {
            let tl = Timeline::new(tr);
            let n = tr.metrics.ready_transitions;
            // The caption's count is the header's.
            assert!(
                caption.contains(&format!("({n} Ready transition")),
                "{what}: {caption}"
            );
            // Why: the lines add up to the header's transitions; each P1 line names a worker
            // the pod has.
            let lines = why::lines(&tl, None);
            let total: usize = lines.iter().map(|l| l.count).sum();
            assert_eq!(total as u32, n, "{what} {}", tr.kubelet);
            for (p, pod) in tl.pods.iter().enumerate() {
                for w in pod.writes.iter().filter(|w| w.rule == Rule::P1 && !w.ready) {
                    let text = why::reason_of(pod, w);
                    if text.contains("startup worker") {
                        assert!(has_probe(&tl, p, ProbeKind::Startup), "{what}: {text}");
                    } else {
                        assert!(has_probe(&tl, p, ProbeKind::Readiness), "{what}: {text}");
                    }
                }
            }
            // No Ready change: the sentence says what the node did, and why, from the run.
            let runtime_stopped = tr.events.iter().any(|e| e.kind == Kind::RuntimeStop);
            let node_false = tl
                .node_ready
                .changes()
                .iter()
                .any(|(_, s)| *s != ConditionStatus::True);
            if lines.is_empty() {
                let s = why::no_ready_change(&tl, None);
                assert_eq!(s.contains("the node was Ready="), node_false, "{what}: {s}");
                assert_eq!(
                    s.contains("invisible"),
                    why::quiet_facts(&tl, None).is_empty()
                );
            }
            for (t, st, _, rule) in &tl.node_ready_writes {
                let cause = why::node_cause(*st, *rule);
                if cause.contains("runtime is down") {
                    assert!(runtime_stopped, "{what} at {t}: {cause}");
                }
                if cause.contains("1.30") {
                    assert!(tr.kubelet.contains("1.30"), "{what} at {t}: {cause}");
                }
            }
            // kubectl: a condition change per transition; STATUS and RESTARTS move only with a
            // kubelet write (not while the kubelet is down, when only the node lifecycle
            // controller writes).
            let rows = kubectl::rows(&tl, tr.horizon);
            for pod in &tl.pods {
                let mine: Vec<_> = rows.iter().filter(|r| r.name == pod.name).collect();
                for w in mine.windows(2) {
                    let moved = w[0].status != w[1].status || w[0].restarts != w[1].restarts;
                    if moved
                        && pod.removed.is_none_or(|t| t > w[1].t_ms)
                        && !w[1].status.eq("Terminating")
                    {
                        assert!(
                            pod.kubelet_writes.iter().any(|k| k.t == w[1].t_ms),
                            "{what} {}: {} {} changed with no kubelet write at {}",
                            tr.kubelet,
                            pod.name,
                            w[1].status,
                            w[1].t_ms
                        );
                    }
                }
            }
        }
        // The eviction mark: where this kind's evictions start, within a few seconds.
        let r = &sc.kubelet.restarts[..];
        // (One restart, and no partition between node and API server that starts the lease's
        // grace period earlier.)
        let alone = r.len() == 1 && sc.kubelet.api_unreachable.is_empty();
        if let Some(r0) = r.first().filter(|_| alone) {
            let (_, _, ev_s) = restartscope_sim::downtime_marks(&sc.cluster, r0.what);
            for tr in &traces {
                let first: Option<Ms> = tr
                    .events
                    .iter()
                    .find(|e| e.kind == Kind::Eviction)
                    .map(|e| e.t);
                if let Some(t) = first {
                    let after = t as f64 / 1000.0 - r0.at_s;
                    if after < r0.downtime_s {
                        assert!(
                            (after - ev_s).abs() <= 15.0,
                            "{what} {}: evicted {after:.1}s into the downtime, the mark says {ev_s:.1}s",
                            tr.kubelet
                        );
                    }
                }
            }
        }
    }
}
