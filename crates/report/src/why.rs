//! "Why pod Ready changed": every API-visible Ready change of a run grouped by the rule that
//! caused it and the direction, with the reason in plain words. Read from the timeline's Ready
//! writes. Called by the web app's "why" panel, for the whole run or up to the playhead.

use crate::timeline::Timeline;
use restartscope_sim::{Ms, Rule};

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

/// The Ready changes at or before `until` (all of them for `None`), grouped by rule and
/// direction in the order each group first happened.
pub fn lines(tl: &Timeline, until: Option<Ms>) -> Vec<WhyLine> {
    let mut out: Vec<WhyLine> = Vec::new();
    let upto = until.unwrap_or(Ms::MAX);
    for w in tl.ready_writes().into_iter().filter(|w| w.t <= upto) {
        match out
            .iter_mut()
            .find(|x| x.rule == w.rule && x.ready == w.ready)
        {
            Some(x) => x.count += 1,
            None => out.push(WhyLine {
                rule: w.rule,
                ready: w.ready,
                count: 1,
                text: reason(w.rule, w.ready),
            }),
        }
    }
    out
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

    #[test]
    fn every_rule_has_a_reason() {
        for r in Rule::ALL {
            for v in [false, true] {
                assert!(!reason(r, v).is_empty());
            }
        }
    }
}
