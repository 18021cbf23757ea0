//! The PodDisruptionBudget card: the budget's status (`disruptionsAllowed`, currentHealthy,
//! desiredHealthy, expectedPods) over time, read from a trace's API events with the disruption
//! controller's arithmetic of the model (`restartscope_sim::disruption::Budget`), so it is what
//! `/evict` would have answered at each moment. Called by the web app's PDB card and the CLI's
//! JSON (`pdb` per run).
//!
//! Replays `pod_ready` (the API's Ready condition, whoever wrote it), `eviction` (deletion
//! timestamp: the pod stops counting as healthy, `countHealthyPods`) and `pod_removed` (no longer
//! listed). Every pod starts Ready (the steady state at t = 0).

use restartscope_sim::disruption::BudgetStatus;
use restartscope_sim::{Kind, Ms, Trace, Value};
use serde::Serialize;

/// The budget's status from `t_ms` until the next point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    pub t_ms: Ms,
    #[serde(flatten)]
    pub status: BudgetStatus,
}

/// The step series of the budget's status (one point at 0, then one per change), or `None`
/// when the run has no PodDisruptionBudget.
pub fn series(tr: &Trace) -> Option<Vec<Point>> {
    let b = tr.pdb.as_ref()?;
    let n = tr.pods.len();
    let covered: Vec<bool> = (0..n).map(|i| b.pods.contains(&(i as u16))).collect();
    let (mut ready, mut deleted, mut removed) = (vec![true; n], vec![false; n], vec![false; n]);
    let status = |ready: &[bool], deleted: &[bool], removed: &[bool]| {
        let listed = (0..n).filter(|&i| covered[i] && !removed[i]).count() as i64;
        let healthy = (0..n)
            .filter(|&i| covered[i] && !removed[i] && !deleted[i] && ready[i])
            .count() as i64;
        b.status(listed, healthy)
    };
    let mut out = vec![Point {
        t_ms: 0,
        status: status(&ready, &deleted, &removed),
    }];
    for e in tr.events.iter().filter(|e| e.node == tr.node) {
        let Some(p) = e.pod.map(usize::from).filter(|&p| p < n && covered[p]) else {
            continue;
        };
        match e.kind {
            Kind::PodReady => ready[p] = e.value == Value::Bool(true),
            Kind::Eviction => deleted[p] = true,
            Kind::PodRemoved => removed[p] = true,
            _ => continue,
        }
        let s = status(&ready, &deleted, &removed);
        let last = out.last_mut().expect("a first point");
        if last.status == s {
            continue;
        }
        if last.t_ms == e.t {
            last.status = s;
        } else {
            out.push(Point {
                t_ms: e.t,
                status: s,
            });
        }
    }
    // Changes within one instant that cancel out leave equal neighbours: merge them.
    out.dedup_by(|b, a| a.status == b.status);
    Some(out)
}

/// The status in force at `t`.
pub fn at(series: &[Point], t: Ms) -> Option<BudgetStatus> {
    match series.partition_point(|p| p.t_ms <= t) {
        0 => None,
        i => Some(series[i - 1].status),
    }
}

/// Seconds with `disruptionsAllowed > 0` (an eviction would have been let through).
pub fn allowed_s(series: &[Point], horizon: Ms) -> f64 {
    let mut total = 0;
    for (i, p) in series.iter().enumerate() {
        let end = series.get(i + 1).map_or(horizon, |q| q.t_ms).min(horizon);
        if p.status.disruptions_allowed > 0 && end > p.t_ms {
            total += end - p.t_ms;
        }
    }
    total as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    /// #135795 with minAvailable 2 of 3: one disruption allowed while all three look Ready
    /// (from 0 s until web-2's readiness failures land; on the legacy kubelet again during its
    /// flip after the restart), none otherwise. The series and the model's metric agree: here
    /// every allowed second is a wrongful one.
    #[test]
    fn disruptions_allowed_follow_the_api_ready_conditions() {
        let sc = (presets::find("report-135795-notready-flip").unwrap().build)();
        let [legacy, kep] = compare(&sc).unwrap();
        for tr in [&legacy, &kep] {
            let s = series(tr).expect("the preset has a budget");
            assert_eq!(s[0].t_ms, 0);
            assert_eq!(
                s[0].status,
                BudgetStatus {
                    current_healthy: 3,
                    desired_healthy: 2,
                    expected_pods: 3,
                    disruptions_allowed: 1
                }
            );
            assert!(s
                .windows(2)
                .all(|w| w[0].t_ms < w[1].t_ms && w[0].status != w[1].status));
            assert_eq!(at(&s, 1_000).unwrap().disruptions_allowed, 1);
            let allowed = allowed_s(&s, tr.horizon);
            let wrongful = tr.metrics.pdb_wrongful_allowed_s.unwrap();
            assert!(
                (allowed - wrongful).abs() < 1e-9,
                "{}: {allowed} {wrongful}",
                tr.kubelet
            );
        }
        let kep_s = series(&kep).unwrap();
        assert_eq!(
            at(&kep_s, kep.restarts[0].1 + 5_000)
                .unwrap()
                .disruptions_allowed,
            0
        );
        assert!(
            allowed_s(&series(&legacy).unwrap(), legacy.horizon) > allowed_s(&kep_s, kep.horizon)
        );
        // No budget, no series.
        let sc = (presets::find("short-restart").unwrap().build)();
        assert!(series(&compare(&sc).unwrap()[0]).is_none());
    }
}
