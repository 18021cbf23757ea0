//! The time-based metrics of SPEC §5 (`unjustified_not_ready_s`, `unjustified_ready_s`,
//! `node_not_ready_s`), integrated as state changes: each pod carries its current class and
//! since when; a change closes the interval. Cost is proportional to changes, not to pods ×
//! instants. The cluster re-classifies the pods touched during an instant at its end.

use crate::trace::Ms;
use crate::trace::NodeId;

/// What a pod counts towards right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// API Ready agrees with the ground truth, or the pod is deleted (not counted).
    Fine,
    /// PodReady true while some container is failing, warming up or stopped.
    UnjustifiedReady,
    /// PodReady false while every container runs, has warmed up and is healthy.
    UnjustifiedNotReady,
}

impl Class {
    pub fn of(deleted: bool, api_ready: bool, healthy: bool) -> Class {
        if deleted || api_ready == healthy {
            Class::Fine
        } else if api_ready {
            Class::UnjustifiedReady
        } else {
            Class::UnjustifiedNotReady
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Clock {
    class: Class,
    since: Ms,
}

/// Integrated milliseconds per node.
#[derive(Clone, Debug, Default)]
pub struct Sums {
    pub unjustified_ready: i64,
    pub unjustified_not_ready: i64,
    pub node_not_ready: i64,
}

#[derive(Default)]
pub struct Integrator {
    pods: Vec<Vec<Clock>>,
    node_down_since: Vec<Option<Ms>>,
    pub sums: Vec<Sums>,
    /// The PodDisruptionBudget metric: `None` without a budget, `Some(Some(t))` while it
    /// over-allows (since `t`).
    pub pdb: Option<Option<Ms>>,
    /// Milliseconds the budget over-allowed.
    pub pdb_over_ms: i64,
}

impl Integrator {
    pub fn new(pods_per_node: &[usize]) -> Self {
        Integrator {
            pods: pods_per_node
                .iter()
                .map(|&n| {
                    vec![
                        Clock {
                            class: Class::Fine,
                            since: 0,
                        };
                        n
                    ]
                })
                .collect(),
            node_down_since: vec![None; pods_per_node.len()],
            sums: vec![Sums::default(); pods_per_node.len()],
            pdb: None,
            pdb_over_ms: 0,
        }
    }

    fn close(sums: &mut Sums, c: Clock, now: Ms) {
        let dt = now - c.since;
        match c.class {
            Class::Fine => {}
            Class::UnjustifiedReady => sums.unjustified_ready += dt,
            Class::UnjustifiedNotReady => sums.unjustified_not_ready += dt,
        }
    }

    /// The pod is in `class` from `now` on.
    pub fn set_pod(&mut self, node: NodeId, pod: usize, class: Class, now: Ms) {
        let c = &mut self.pods[node as usize][pod];
        if c.class != class {
            Self::close(&mut self.sums[node as usize], *c, now);
            *c = Clock { class, since: now };
        }
    }

    /// The node's Ready condition is True (`ready`) or not from `now` on.
    pub fn set_node(&mut self, node: NodeId, ready: bool, now: Ms) {
        let since = &mut self.node_down_since[node as usize];
        match (ready, *since) {
            (false, None) => *since = Some(now),
            (true, Some(s)) => {
                self.sums[node as usize].node_not_ready += now - s;
                *since = None;
            }
            _ => {}
        }
    }

    /// The budget over-allows (`over`) from `now` on.
    pub fn set_pdb(&mut self, over: bool, now: Ms) {
        let Some(since) = self.pdb.as_mut() else {
            return;
        };
        match (over, *since) {
            (true, None) => *since = Some(now),
            (false, Some(s)) => {
                self.pdb_over_ms += now - s;
                *since = None;
            }
            _ => {}
        }
    }

    /// Closes every open interval at the horizon.
    pub fn finish(&mut self, horizon: Ms) {
        if let Some(Some(s)) = self.pdb.as_mut().map(Option::take) {
            self.pdb_over_ms += horizon - s;
        }
        for (n, pods) in self.pods.iter_mut().enumerate() {
            for c in pods.iter_mut() {
                Self::close(&mut self.sums[n], *c, horizon);
                c.since = horizon;
            }
            if let Some(s) = self.node_down_since[n].take() {
                self.sums[n].node_not_ready += horizon - s;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn intervals_add_up() {
        let mut m = Integrator::new(&[2]);
        m.set_pod(0, 0, Class::UnjustifiedNotReady, 1_000);
        m.set_pod(0, 0, Class::UnjustifiedNotReady, 2_000);
        m.set_pod(0, 0, Class::Fine, 4_500);
        m.set_pod(0, 1, Class::UnjustifiedReady, 3_000);
        m.set_node(0, false, 1_000);
        m.set_node(0, true, 3_000);
        m.finish(10_000);
        assert_eq!(m.sums[0].unjustified_not_ready, 3_500);
        assert_eq!(m.sums[0].unjustified_ready, 7_000);
        assert_eq!(m.sums[0].node_not_ready, 2_000);
    }
}
