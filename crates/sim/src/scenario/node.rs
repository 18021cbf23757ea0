//! The node object as admission reads it: its labels and taints, the changes a user makes to
//! them during the story (`kubectl label` / `kubectl taint`), and a pod's `nodeSelector` and
//! `tolerations`. A leaf beside `types.rs`, which re-exports it; read by the kubelet's admission
//! at start (`node/kubelet/admission.rs`) and the taint eviction controller.
//!
//! Mirrors `k8s.io/api/core/v1` `Taint`, `Toleration` (`ToleratesTaint`) and
//! `k8s.io/component-helpers/scheduling/corev1` (`FindMatchingUntoleratedTaint`, the node
//! selector match of `nodeaffinity`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `v1.TaintEffect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Effect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::NoSchedule => "NoSchedule",
            Effect::PreferNoSchedule => "PreferNoSchedule",
            Effect::NoExecute => "NoExecute",
        }
    }
}

/// `v1.Taint` (`kubectl taint nodes NODE key=value:effect`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Taint {
    pub key: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    pub effect: Effect,
}

/// `v1.TolerationOperator`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Operator {
    #[default]
    Equal,
    Exists,
}

/// `v1.Toleration`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Toleration {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    #[serde(default)]
    pub operator: Operator,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// Empty: every effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(
        default,
        alias = "tolerationSeconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// `(*Toleration).ToleratesTaint`: an empty effect matches every effect, an empty key (with
    /// `Exists`) every key; `Exists` ignores the value.
    pub fn tolerates(&self, t: &Taint) -> bool {
        if self.effect.is_some_and(|e| e != t.effect) {
            return false;
        }
        if !self.key.is_empty() && self.key != t.key {
            return false;
        }
        match self.operator {
            Operator::Equal => self.value == t.value,
            Operator::Exists => true,
        }
    }
}

/// `v1.NodeSelectorOperator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SelectorOp {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

/// `v1.NodeSelectorRequirement` (a `matchExpressions` entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub key: String,
    pub operator: SelectorOp,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

impl Requirement {
    /// `labels.Requirement.Matches` as `nodeaffinity` builds it from a node selector requirement.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        let have = labels.get(&self.key);
        let int = |s: &str| s.parse::<i64>().ok();
        match self.operator {
            SelectorOp::In => have.is_some_and(|v| self.values.contains(v)),
            SelectorOp::NotIn => have.is_none_or(|v| !self.values.contains(v)),
            SelectorOp::Exists => have.is_some(),
            SelectorOp::DoesNotExist => have.is_none(),
            SelectorOp::Gt | SelectorOp::Lt => {
                let (Some(v), Some(bound)) = (
                    have.and_then(|v| int(v)),
                    self.values.first().and_then(|b| int(b)),
                ) else {
                    return false;
                };
                if self.operator == SelectorOp::Gt {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }
}

/// `v1.NodeSelectorTerm`: its `matchExpressions`, all of which must match (an empty term
/// matches no node).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectorTerm {
    #[serde(default)]
    pub match_expressions: Vec<Requirement>,
}

/// `nodeaffinity`'s admission check (`GetRequiredNodeAffinity(pod).Match(node)`): every
/// `nodeSelector` pair is a node label, and, when the pod has
/// `requiredDuringSchedulingIgnoredDuringExecution`, one of its terms matches.
pub fn affinity_matches(
    selector: &BTreeMap<String, String>,
    terms: &[SelectorTerm],
    labels: &BTreeMap<String, String>,
) -> bool {
    selector_matches(selector, labels)
        && (terms.is_empty()
            || terms.iter().any(|t| {
                !t.match_expressions.is_empty()
                    && t.match_expressions.iter().all(|r| r.matches(labels))
            }))
}

/// A change to the node object at `at_s`: the labels and/or the taints it has from then on (a
/// field left out stays as it was).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeChange {
    pub at_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taints: Option<Vec<Taint>>,
}

/// The node object: `metadata.labels`, `spec.taints` (the user's; the node lifecycle
/// controller's `unreachable` / `not-ready` taints are the model's own) and their changes, in
/// time order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeObject {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<NodeChange>,
}

impl NodeObject {
    pub fn is_default(&self) -> bool {
        *self == NodeObject::default()
    }

    /// The labels and taints the node has at `t_s` (a change at `t_s` applies).
    pub fn at(&self, t_s: f64) -> (&BTreeMap<String, String>, &[Taint]) {
        let (mut labels, mut taints) = (&self.labels, self.taints.as_slice());
        for ch in self.changes.iter().filter(|c| c.at_s <= t_s) {
            if let Some(l) = &ch.labels {
                labels = l;
            }
            if let Some(t) = &ch.taints {
                taints = t;
            }
        }
        (labels, taints)
    }
}

/// The node-selector half of `nodeaffinity`'s admission check: every `nodeSelector` pair is a
/// node label (`labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(node.Labels)`).
pub fn selector_matches(
    selector: &BTreeMap<String, String>,
    labels: &BTreeMap<String, String>,
) -> bool {
    selector.iter().all(|(k, v)| labels.get(k) == Some(v))
}

/// `corev1.FindMatchingUntoleratedTaint` over the taints `keep` selects: the first such taint
/// no toleration tolerates.
pub fn untolerated<'t>(
    taints: &'t [Taint],
    tolerations: &[Toleration],
    keep: impl Fn(&Taint) -> bool,
) -> Option<&'t Taint> {
    taints
        .iter()
        .filter(|t| keep(t))
        .find(|t| !tolerations.iter().any(|tol| tol.tolerates(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: &str, effect: Effect) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect,
        }
    }

    #[test]
    fn tolerations_match_as_tolerates_taint_does() {
        let t = taint("dedicated", "gpu", Effect::NoExecute);
        let tol = |key: &str, op, value: &str, effect| Toleration {
            key: key.into(),
            operator: op,
            value: value.into(),
            effect,
            toleration_seconds: None,
        };
        assert!(tol("dedicated", Operator::Equal, "gpu", None).tolerates(&t));
        assert!(tol("dedicated", Operator::Exists, "", Some(Effect::NoExecute)).tolerates(&t));
        assert!(tol("", Operator::Exists, "", None).tolerates(&t));
        assert!(!tol("dedicated", Operator::Equal, "cpu", None).tolerates(&t));
        assert!(!tol("dedicated", Operator::Exists, "", Some(Effect::NoSchedule)).tolerates(&t));
        assert!(!tol("other", Operator::Exists, "", None).tolerates(&t));
    }

    #[test]
    fn changes_apply_from_their_time_and_keep_what_they_leave_out() {
        let mut n = NodeObject::default();
        n.labels.insert("disk".into(), "ssd".into());
        n.changes.push(NodeChange {
            at_s: 20.0,
            labels: Some(BTreeMap::new()),
            taints: None,
        });
        n.changes.push(NodeChange {
            at_s: 40.0,
            labels: None,
            taints: Some(vec![taint("k", "", Effect::NoExecute)]),
        });
        let sel: BTreeMap<String, String> = [("disk".to_string(), "ssd".to_string())].into();
        assert!(selector_matches(&sel, n.at(19.9).0));
        assert!(!selector_matches(&sel, n.at(20.0).0));
        assert!(n.at(39.0).1.is_empty());
        assert_eq!(n.at(40.0).1.len(), 1);
        assert!(n.at(40.0).0.is_empty());
    }
}
