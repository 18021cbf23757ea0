//! The disruption controller's arithmetic for a PodDisruptionBudget: which pods the budget covers
//! (the pods its selector matches, `getPodsForPdb`: named by the scenario, or a Service's pods), `expectedPods`, `desiredHealthy` and `disruptionsAllowed`.
//! A leaf (reads the scenario only): the cluster integrates the "eviction allowed on a wrongful
//! Ready" metric with it, the report crate draws the `disruptionsAllowed` series from a trace
//! with it (`Trace::pdb`), so both compute the same numbers.
//!
//! Mirrors `pkg/controller/disruption/disruption.go`: `getExpectedPodCount` (maxUnavailable and
//! a percent minAvailable scale the controllers' replicas; an int minAvailable counts the pods the
//! selector lists), `intstr.GetScaledValueFromIntOrPercent(…, roundUp=true)`, `countHealthyPods`
//! (pods with a deletion timestamp do not count; Ready = `IsPodReady`, the API's condition) and
//! `updatePdbStatus` (`disruptionsAllowed = currentHealthy − desiredHealthy`, 0 when negative or
//! when `expectedCount ≤ 0`). The eviction API (`/evict`) allows an eviction while it is > 0.

use crate::scenario::{IntOrPercent, Scenario};
use serde::{Deserialize, Serialize};

/// A PodDisruptionBudget as the model runs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// The Service whose pods the budget covers, when the scenario names a Service rather than
    /// the pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// The pods it covers (indices into the scenario's pods).
    pub pods: Vec<u16>,
    pub min_available: Option<IntOrPercent>,
    pub max_unavailable: Option<IntOrPercent>,
}

/// The budget's status at one moment (`PodDisruptionBudgetStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetStatus {
    pub current_healthy: i64,
    pub desired_healthy: i64,
    pub expected_pods: i64,
    pub disruptions_allowed: i64,
}

impl Budget {
    /// The scenario's budget, if it has one (the scenario must be valid).
    pub fn of(sc: &Scenario) -> Option<Budget> {
        let pdb = sc.pdb.as_ref()?;
        Some(Budget {
            service: sc.pdb_service().map(str::to_string),
            pods: sc.pdb_pods(),
            min_available: pdb.min_available.clone(),
            max_unavailable: pdb.max_unavailable.clone(),
        })
    }

    /// `getExpectedPodCount` → (expectedCount, desiredHealthy) while `listed` of the covered pods
    /// still exist. The controllers' scale is the number of pods the scenario gives the Service
    /// (replacements of evicted pods are not simulated, the scale stays).
    pub fn expected(&self, listed: i64) -> (i64, i64) {
        let scale = self.pods.len() as i64;
        if let Some(max) = &self.max_unavailable {
            let max = max.scaled(scale, true).unwrap_or(0);
            (scale, (scale - max).max(0))
        } else if let Some(min) = &self.min_available {
            match min {
                IntOrPercent::Int(n) => (listed, *n),
                IntOrPercent::Str(_) => (scale, min.scaled(scale, true).unwrap_or(0)),
            }
        } else {
            (0, 0)
        }
    }

    /// `updatePdbStatus` with `healthy` pods Ready and not being deleted, of `listed` existing.
    pub fn status(&self, listed: i64, healthy: i64) -> BudgetStatus {
        let (expected, desired) = self.expected(listed);
        let allowed = healthy - desired;
        BudgetStatus {
            current_healthy: healthy,
            desired_healthy: desired,
            expected_pods: expected,
            disruptions_allowed: if expected <= 0 || allowed <= 0 {
                0
            } else {
                allowed
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(min: Option<IntOrPercent>, max: Option<IntOrPercent>) -> Budget {
        Budget {
            service: Some("web".into()),
            pods: vec![0, 1, 2],
            min_available: min,
            max_unavailable: max,
        }
    }

    #[test]
    fn rounding_and_limits_follow_the_disruption_controller() {
        use IntOrPercent::*;
        // minAvailable 2 of 3: one disruption with 3 healthy, none with 2.
        let b = budget(Some(Int(2)), None);
        assert_eq!(b.status(3, 3).disruptions_allowed, 1);
        assert_eq!(b.status(3, 2).disruptions_allowed, 0);
        // An int minAvailable counts the listed pods: none listed, nothing allowed.
        assert_eq!(b.status(0, 0).expected_pods, 0);
        // 50 % of 3 rounds up to 2 (GetScaledValueFromIntOrPercent, roundUp).
        let b = budget(Some(Str("50%".into())), None);
        assert_eq!(b.status(3, 3).desired_healthy, 2);
        // maxUnavailable 34 % of 3 → ceil(1.02) = 2 unavailable → desiredHealthy 1.
        let b = budget(None, Some(Str("34%".into())));
        assert_eq!(b.status(3, 3).desired_healthy, 1);
        assert_eq!(b.status(3, 3).disruptions_allowed, 2);
        // maxUnavailable above the scale: desiredHealthy 0, never negative.
        let b = budget(None, Some(Int(5)));
        assert_eq!(b.status(3, 0).desired_healthy, 0);
        assert_eq!(b.status(3, 0).disruptions_allowed, 0);
        // Neither field: expectedPods 0, nothing allowed.
        assert_eq!(budget(None, None).status(3, 3).disruptions_allowed, 0);
    }
}
