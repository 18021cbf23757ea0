//! The time-based metrics of SPEC §5 (`unjustified_not_ready_s`, `unjustified_ready_s`,
//! `node_not_ready_s`, `pdb_wrongful_allowed_s`), integrated as state changes: each pod carries
//! its current class, each node the rates in force (how many pods are unjustifiedly Ready or
//! NotReady, whether the node is not Ready, whether the budget over-allows) and since when; a
//! change first adds rate × elapsed to the sums. Cost is proportional to changes, not to pods ×
//! instants; times never go back. The cluster re-classifies the pods touched during an instant
//! at its end. The checkpoint series (`checkpoints.rs`) reads the sums closed at an instant and
//! the rates.

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

/// Integrated milliseconds of one node (`pdb_over`: node 0, with a budget).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    pub unjustified_ready: i64,
    pub unjustified_not_ready: i64,
    pub node_not_ready: i64,
    pub pdb_over: i64,
}

/// The rates the sums grow at, per millisecond.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// Pods in [`Class::UnjustifiedReady`].
    pub unjustified_ready: u32,
    /// Pods in [`Class::UnjustifiedNotReady`].
    pub unjustified_not_ready: u32,
    /// The node's Ready condition is not True.
    pub node_not_ready: bool,
    /// The PodDisruptionBudget over-allows.
    pub pdb_over: bool,
}

impl Sums {
    /// These sums `dt` ms later at `rates`.
    pub fn after(mut self, rates: Rates, dt: Ms) -> Sums {
        self.unjustified_ready += rates.unjustified_ready as i64 * dt;
        self.unjustified_not_ready += rates.unjustified_not_ready as i64 * dt;
        self.node_not_ready += rates.node_not_ready as i64 * dt;
        self.pdb_over += rates.pdb_over as i64 * dt;
        self
    }
}

#[derive(Clone, Debug)]
struct NodeInteg {
    classes: Vec<Class>,
    sums: Sums,
    rates: Rates,
    /// The sums are closed up to here.
    at: Ms,
}

impl NodeInteg {
    fn advance(&mut self, now: Ms) {
        if now != self.at {
            self.sums = self.sums.after(self.rates, now - self.at);
            self.at = now;
        }
    }
}

#[derive(Default)]
pub struct Integrator {
    nodes: Vec<NodeInteg>,
    /// Whether node 0 has a PodDisruptionBudget (its metric is `None` otherwise).
    pub pdb: bool,
}

impl Integrator {
    pub fn new(pods_per_node: &[usize]) -> Self {
        Integrator {
            nodes: pods_per_node
                .iter()
                .map(|&n| NodeInteg {
                    classes: vec![Class::Fine; n],
                    sums: Sums::default(),
                    rates: Rates::default(),
                    at: 0,
                })
                .collect(),
            pdb: false,
        }
    }

    /// The pod is in `class` from `now` on. Returns whether a rate changed (as do the others).
    #[inline]
    pub fn set_pod(&mut self, node: NodeId, pod: usize, class: Class, now: Ms) -> bool {
        let n = &mut self.nodes[node as usize];
        let old = n.classes[pod];
        if old == class {
            return false;
        }
        n.advance(now);
        n.classes[pod] = class;
        let r = &mut n.rates;
        match old {
            Class::Fine => {}
            Class::UnjustifiedReady => r.unjustified_ready -= 1,
            Class::UnjustifiedNotReady => r.unjustified_not_ready -= 1,
        }
        match class {
            Class::Fine => {}
            Class::UnjustifiedReady => r.unjustified_ready += 1,
            Class::UnjustifiedNotReady => r.unjustified_not_ready += 1,
        }
        true
    }

    /// The node's Ready condition is True (`ready`) or not from `now` on.
    pub fn set_node(&mut self, node: NodeId, ready: bool, now: Ms) -> bool {
        let n = &mut self.nodes[node as usize];
        let change = n.rates.node_not_ready == ready;
        if change {
            n.advance(now);
            n.rates.node_not_ready = !ready;
        }
        change
    }

    /// The budget over node 0's pods over-allows (`over`) from `now` on.
    pub fn set_pdb(&mut self, over: bool, now: Ms) -> bool {
        let Some(n) = self.nodes.first_mut().filter(|_| self.pdb) else {
            return false;
        };
        let change = n.rates.pdb_over != over;
        if change {
            n.advance(now);
            n.rates.pdb_over = over;
        }
        change
    }

    /// The node's sums closed at `now` (not before the last change) and the rates in force.
    pub fn closed(&mut self, node: NodeId, now: Ms) -> (Sums, Rates) {
        let n = &mut self.nodes[node as usize];
        n.advance(now);
        (n.sums, n.rates)
    }

    /// Closes every node's sums at the horizon and returns them.
    pub fn finish(&mut self, horizon: Ms) -> Vec<Sums> {
        self.nodes
            .iter_mut()
            .map(|n| {
                n.advance(horizon);
                n.sums
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn intervals_add_up() {
        let mut m = Integrator::new(&[2]);
        m.pdb = true;
        m.set_pod(0, 0, Class::UnjustifiedNotReady, 1_000);
        m.set_node(0, false, 1_000);
        m.set_pod(0, 0, Class::UnjustifiedNotReady, 2_000);
        m.set_node(0, false, 2_000);
        m.set_pod(0, 1, Class::UnjustifiedReady, 3_000);
        m.set_node(0, true, 3_000);
        m.set_pdb(true, 3_500);
        let (s, r) = m.closed(0, 4_000);
        assert_eq!(
            (s.unjustified_not_ready, s.unjustified_ready),
            (3_000, 1_000)
        );
        assert_eq!((s.node_not_ready, s.pdb_over), (2_000, 500));
        assert_eq!((r.unjustified_not_ready, r.unjustified_ready), (1, 1));
        assert!(!r.node_not_ready && r.pdb_over);
        m.set_pod(0, 0, Class::Fine, 4_500);
        let s = m.finish(10_000)[0];
        assert_eq!(s.unjustified_not_ready, 3_500);
        assert_eq!(s.unjustified_ready, 7_000);
        assert_eq!(s.node_not_ready, 2_000);
        assert_eq!(s.pdb_over, 6_500);
    }
}
