//! "Why pod Ready changed": every API-visible Ready change of a run grouped by the rule that
//! caused it and the direction, with the reason in plain words. Read from the timeline's Ready
//! writes. Called by the web app's "why" panel, for the whole run or up to the playhead.

use crate::timeline::{PodTimeline, ReadyWrite, Timeline};
use restartscope_sim::{ConditionStatus, Ms, ProbeKind, Rule};

/// Ready changes of one rule in one direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyLine {
    pub rule: Rule,
    /// The direction: to Ready (true) or to NotReady.
    pub ready: bool,
    /// How many changes (all pods).
    pub count: usize,
    /// Why, in plain words ([`reason`]).
    pub text: &'static str,
}

/// The Ready changes at or before `until` (all of them for `None`), grouped by rule, direction
/// and reason in the order each group first happened.
pub fn lines(tl: &Timeline, until: Option<Ms>) -> Vec<WhyLine> {
    let mut out: Vec<WhyLine> = Vec::new();
    let upto = until.unwrap_or(Ms::MAX);
    let mut writes: Vec<(&PodTimeline, ReadyWrite)> = (tl.pods.iter())
        .flat_map(|p| p.writes.iter().map(move |w| (p, *w)))
        .filter(|(_, w)| w.t <= upto)
        .collect();
    restartscope_sim::core::sort::sort_by_key(&mut writes, |(_, w)| w.event);
    for (pod, w) in writes {
        let text = reason_of(pod, &w);
        match out
            .iter_mut()
            .find(|x| x.rule == w.rule && x.ready == w.ready && x.text == text)
        {
            Some(x) => x.count += 1,
            None => out.push(WhyLine {
                rule: w.rule,
                ready: w.ready,
                count: 1,
                text,
            }),
        }
    }
    out
}

/// Why this write changed the pod's Ready: [`reason`], made exact where one rule has causes the
/// figure tells apart. A new worker's initial value (P1) takes a pod NotReady either because a
/// container with a startup probe is no longer started (its new startup worker has no Success
/// yet: not started, so not ready, whatever readiness says — `prober_manager.go`
/// `UpdatePodStatus`, `isContainerStarted`) or, with every container started, through the
/// readiness worker's initial Failure.
pub fn reason_of(pod: &PodTimeline, w: &ReadyWrite) -> &'static str {
    if w.rule == Rule::P1 && !w.ready {
        let not_started = pod
            .containers
            .iter()
            .any(|c| c.cached[ProbeKind::Startup.index()].is_some() && !*c.started.at(w.t));
        if not_started {
            return "The restarted kubelet's new startup worker has no Success yet: the container counts as not started, so not Ready, until its startup probe succeeds.";
        }
    }
    reason(w.rule, w.ready)
}

/// Who set the node's Ready condition to `status`, and why, in words (for the figure's node
/// lane and the why panel): from the rule of the write, so a 1.30 kubelet's start-up False is
/// not blamed on a runtime outage.
pub fn node_cause(status: ConditionStatus, rule: Rule) -> &'static str {
    match (status, rule) {
        (ConditionStatus::False, Rule::K2n) => "posted by the 1.30 kubelet at its start, before its first container runtime check (\"container runtime status check may not have completed yet\"; fixed in 1.31 by #124430)",
        (ConditionStatus::False, Rule::R3) => "posted by the kubelet: its container runtime is down",
        (ConditionStatus::False, _) => "posted by the kubelet",
        (ConditionStatus::Unknown, _) => "set by the node lifecycle controller: the lease went unrenewed past the grace period",
        (ConditionStatus::True, _) => "",
    }
}

/// What the API showed up to `until` in a run in which no pod's Ready changed, read from the run:
/// the node's condition and who set it, the taints, the deletions.
pub fn quiet_facts(tl: &Timeline, until: Option<Ms>) -> Vec<String> {
    let upto = until.unwrap_or(tl.horizon);
    let mut seen: Vec<String> = Vec::new();
    for (a, z, st) in tl.node_ready.spans(0, upto) {
        if st == ConditionStatus::True {
            continue;
        }
        let cause = tl
            .node_ready_cause(a)
            .map(|(_, r)| node_cause(st, r))
            .unwrap_or("");
        let when = if z >= upto {
            format!("since {}", restartscope_sim::fmt_secs(a as f64 / 1000.0))
        } else {
            format!(
                "for {}",
                restartscope_sim::fmt_secs(((z - a) as f64 / 1000.0).round())
            )
        };
        seen.push(format!(
            "the node was Ready={} {when}{}",
            st.as_str(),
            if cause.is_empty() {
                String::new()
            } else {
                format!(" ({cause})")
            }
        ));
    }
    let tainted = tl
        .taints
        .iter()
        .any(|t| t.changes().iter().any(|(t, on)| *on && *t <= upto));
    if tainted {
        seen.push("the node controller tainted the node".into());
    }
    let evicted = (tl.pods.iter())
        .filter(|p| p.deleted.is_some_and(|t| t <= upto))
        .count();
    if evicted > 0 {
        seen.push(restartscope_sim::plural(
            evicted as u64,
            "pod was deleted",
            "pods were deleted",
        ));
    }
    seen
}

/// The why panel's sentence for a run in which no pod's Ready changed (up to `until`): what the
/// API did show instead ([`quiet_facts`]) or, when nothing changed there either, that the restart
/// was invisible.
pub fn no_ready_change(tl: &Timeline, until: Option<Ms>) -> String {
    let seen = quiet_facts(tl, until);
    if seen.is_empty() {
        "No pod's Ready changed: every pod kept its Ready condition, and the node stayed Ready: the restart was invisible to the API server's conditions and to Services.".into()
    } else {
        format!(
            "No pod's Ready changed: every pod kept its Ready condition, although {}.",
            join_and(&seen)
        )
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

/// Why API-visible PodReady changed to `ready` when `rule` caused it.
pub fn reason(rule: Rule, ready: bool) -> &'static str {
    match (rule, ready) {
        (Rule::N1, _) => "The lease went unrenewed past the grace period: the node lifecycle controller marked the pod NotReady.",
        (Rule::S2, true) => "First SyncPod after the restart: no readiness worker existed yet, so the kubelet reported Ready before any probe ran.",
        (Rule::S2, false) => "The kubelet's regenerated status had the container not started or not ready.",
        (Rule::P1, false) => "The restarted kubelet's new readiness worker began from its initial Failure: NotReady until the next probe.",
        (Rule::P1, true) => "A new worker's initial result changed the container's state.",
        (Rule::P5, true) => "A readiness probe succeeded: Ready again.",
        (Rule::P5, false) => "failureThreshold probes in a row failed: NotReady.",
        (Rule::S3, _) => "KEP-4781: the container predates this kubelet, so Ready followed the API's Ready condition until a probe result existed.",
        (Rule::P4, _) => "The container was not running, so its probes fail.",
        (Rule::P6, _) => "A liveness or startup probe failed: the kubelet killed the container.",
        (Rule::K4, _) => "The pod was deleted: the kubelet stopped its containers.",
        (Rule::K4g, _) => "The pod was deleted: the kubelet stopped its containers after 2 s, its minimum grace (terminationGracePeriodSeconds was under 2 s).",
        (Rule::K5 | Rule::Truth, _) => "The container exited; the kubelet reported it not running.",
        (Rule::K3r, _) => "The exited container was restarted.",
        (Rule::S5r, _) => "The node could reach the API server again: the status manager wrote the status it had kept while its writes failed.",
        (r, _) => r.title(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    #[test]
    fn short_restart_legacy_flaps_kep_never_changes() {
        let [legacy, kep] = compare(&presets::short_restart()).unwrap();
        let l = lines(&Timeline::new(&legacy), None);
        // Every pod: NotReady from the initial Failure (P1), Ready again after a probe (P5).
        assert_eq!(l.len(), 2, "{l:#?}");
        assert_eq!((l[0].rule, l[0].ready, l[0].count), (Rule::P1, false, 3));
        assert_eq!((l[1].rule, l[1].ready, l[1].count), (Rule::P5, true, 3));
        assert!(l[0].text.contains("initial Failure"));
        assert!(lines(&Timeline::new(&kep), None).is_empty());
    }

    #[test]
    fn up_to_the_playhead_only() {
        let [legacy, _] = compare(&presets::long_restart()).unwrap();
        let tl = Timeline::new(&legacy);
        let all = lines(&tl, None);
        assert_eq!(all[0].rule, Rule::N1);
        let first = tl.ready_writes()[0].t;
        assert!(lines(&tl, Some(first - 1)).is_empty());
        let at_first = lines(&tl, Some(first));
        assert_eq!(at_first.len(), 1);
        assert_eq!(at_first[0].rule, Rule::N1);
        let total = |l: &[WhyLine]| l.iter().map(|x| x.count).sum::<usize>();
        assert_eq!(total(&all), legacy.metrics.ready_transitions as usize);
        assert_eq!(lines(&tl, Some(legacy.horizon)), all);
    }

    fn preset_on(name: &str, version: &str) -> [restartscope_sim::Trace; 2] {
        let mut sc = (presets::find(name).unwrap().build)();
        sc.cluster.version =
            serde_json::from_value(serde_json::Value::String(version.into())).unwrap();
        compare(&sc).unwrap()
    }

    /// A container runtime restart moves no pod's Ready: the panel says what the figure draws
    /// instead — the node False posted by the kubelet (runtime down) and the taints.
    #[test]
    fn a_runtime_restart_says_what_the_node_did() {
        for tr in preset_on("runtime-restart", "1.35") {
            let tl = Timeline::new(&tr);
            assert!(lines(&tl, None).is_empty());
            let s = no_ready_change(&tl, None);
            assert!(s.contains("Ready=False"), "{s}");
            assert!(s.contains("its container runtime is down"), "{s}");
            assert!(s.contains("tainted"), "{s}");
            assert!(!s.contains("invisible"), "{s}");
            // Before the restart nothing has happened yet.
            assert!(quiet_facts(&tl, Some(1_000)).is_empty());
        }
    }

    /// A 1.30 kubelet posts node Ready=False at its start (K2n): not blamed on the runtime.
    #[test]
    fn a_1_30_start_is_not_a_runtime_outage() {
        let mut sc = presets::short_restart();
        sc.cluster.version =
            serde_json::from_value(serde_json::Value::String("1.30".into())).unwrap();
        let legacy =
            restartscope_sim::simulate_policy(&sc, restartscope_sim::Policy::Legacy).unwrap();
        let tl = Timeline::new(&legacy);
        let (a, _, st) = (tl.node_ready.spans(0, tl.horizon).into_iter())
            .find(|s| s.2 != ConditionStatus::True)
            .expect("1.30 posts False at start");
        let (_, rule) = tl.node_ready_cause(a).unwrap();
        assert_eq!(rule, Rule::K2n);
        assert!(node_cause(st, rule).contains("1.30 kubelet at its start"));
        assert!(!node_cause(st, rule).contains("runtime is down"));
    }

    /// With a startup probe, the legacy kubelet's NotReady comes from the startup worker's
    /// initial Unknown (not started, so not ready), not from the readiness worker's Failure.
    #[test]
    fn a_startup_probe_notready_is_blamed_on_the_startup_worker() {
        let [legacy, _] = preset_on("startup-probe", "1.35");
        let tl = Timeline::new(&legacy);
        let l = lines(&tl, None);
        let p1: Vec<_> = l
            .iter()
            .filter(|x| x.rule == Rule::P1 && !x.ready)
            .collect();
        assert!(!p1.is_empty(), "{l:#?}");
        // api-0 has a startup probe; web-0 has readiness only.
        assert!(
            p1.iter().any(|x| x.text.contains("startup worker")),
            "{p1:?}"
        );
        assert!(
            p1.iter().any(|x| x.text.contains("readiness worker")),
            "{p1:?}"
        );
    }

    #[test]
    fn every_rule_has_a_reason() {
        for r in Rule::ALL {
            for v in [false, true] {
                assert!(!reason(r, v).is_empty());
            }
        }
    }
}
