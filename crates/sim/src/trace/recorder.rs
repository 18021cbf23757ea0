//! The recorder: where the cluster's actors put what happened. It keeps every event of the
//! nodes asked for (all of them in a single-node run; a few sampled nodes in a fleet) and, for
//! every node, the counters and integrated metrics. Written to through `core::Ctx` only.

use super::metrics::{Class, Integrator};
use super::{Actor, Event, Kind, Metrics, Ms, NodeId, Value};
use crate::rules::Rule;

/// Which nodes' events are kept in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    All,
    /// Only these nodes (others contribute counters and metrics only).
    Nodes(Vec<NodeId>),
}

pub struct Recorder {
    keep: Vec<bool>,
    /// Events of the kept nodes, in the order they happened.
    pub events: Vec<Event>,
    /// Counters per node (the integrated metrics are added by `finish`).
    pub metrics: Vec<Metrics>,
    integ: Integrator,
    touched: Vec<(NodeId, u16)>,
    /// Per-second series (fleets).
    pub series: Option<super::series::Series>,
    /// Ready pods per node over time (fleets).
    pub heat: Option<super::heat::Heat>,
}

impl Recorder {
    /// `expected`: about how many events the kept nodes will record (reserved up front, so a
    /// long trace is not copied as it grows; untouched reserved pages cost nothing).
    pub fn new(pods_per_node: &[usize], keep: &Keep, expected: usize) -> Self {
        let n = pods_per_node.len();
        Recorder {
            keep: (0..n)
                .map(|i| match keep {
                    Keep::All => true,
                    Keep::Nodes(v) => v.contains(&(i as NodeId)),
                })
                .collect(),
            events: Vec::with_capacity(expected),
            metrics: vec![Metrics::default(); n],
            integ: Integrator::new(pods_per_node),
            touched: Vec::new(),
            series: None,
            heat: None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn emit(
        &mut self,
        t: Ms,
        node: NodeId,
        kind: Kind,
        pod: Option<usize>,
        container: Option<usize>,
        value: Value,
        rule: Rule,
        by: Actor,
    ) {
        if self.keep[node as usize] {
            self.events.push(Event {
                t,
                node,
                kind,
                pod: pod.map(|p| p as u16),
                container: container.map(|c| c as u8),
                value,
                rule,
                by,
            });
        }
    }

    pub fn node_metrics(&mut self, node: NodeId) -> &mut Metrics {
        &mut self.metrics[node as usize]
    }

    /// Collect the per-second series and the Ready-pods heatmap (fleets).
    pub fn collect_series(&mut self, pods_per_node: &[usize], horizon: Ms) {
        self.series = Some(super::series::Series::default());
        self.heat = Some(super::heat::Heat::new(pods_per_node, horizon));
    }

    /// The series and heatmap, completed to the horizon.
    pub fn take_series(
        &mut self,
        horizon: Ms,
    ) -> (Option<super::series::Series>, Option<super::heat::Heat>) {
        let mut series = self.series.take();
        if let Some(s) = series.as_mut() {
            s.finish();
        }
        let mut heat = self.heat.take();
        if let Some(h) = heat.as_mut() {
            h.finish(horizon);
        }
        (series, heat)
    }

    /// A pod status write (kubelet or node lifecycle controller) for the series.
    pub fn count_write(&mut self, t: Ms) {
        if let Some(s) = self.series.as_mut() {
            s.count_write(t);
        }
    }

    pub fn touch(&mut self, node: NodeId, pod: usize) {
        self.touched.push((node, pod as u16));
    }

    /// Pods touched since the last call (deduplicated).
    pub fn take_touched(&mut self) -> Vec<(NodeId, u16)> {
        if self.touched.is_empty() {
            return Vec::new();
        }
        let mut t = std::mem::take(&mut self.touched);
        t.sort_unstable();
        t.dedup();
        t
    }

    /// The pod's metric class, and whether it is Ready and staying (`live`, for the heatmap).
    pub fn classify(&mut self, node: NodeId, pod: usize, class: Class, live: bool, now: Ms) {
        self.integ.set_pod(node, pod, class, now);
        if let Some(h) = self.heat.as_mut() {
            h.set(node, pod, live, now);
        }
    }

    /// Integrate the PodDisruptionBudget metric (node 0).
    pub fn with_pdb(&mut self) {
        self.integ.pdb = Some(None);
    }

    /// The budget allows an eviction it would refuse without the wrongful Ready (from `now`).
    pub fn pdb_over(&mut self, over: bool, now: Ms) {
        self.integ.set_pdb(over, now);
    }

    pub fn node_ready(&mut self, node: NodeId, ready: bool, now: Ms) {
        self.integ.set_node(node, ready, now);
    }

    /// Closes the integrals at the horizon and returns events and per-node metrics.
    pub fn finish(mut self, horizon: Ms) -> (Vec<Event>, Vec<Metrics>) {
        self.integ.finish(horizon);
        for (m, s) in self.metrics.iter_mut().zip(&self.integ.sums) {
            m.unjustified_ready_s = s.unjustified_ready as f64 / 1000.0;
            m.unjustified_not_ready_s = s.unjustified_not_ready as f64 / 1000.0;
            m.node_not_ready_s = s.node_not_ready as f64 / 1000.0;
        }
        if let (true, Some(m)) = (self.integ.pdb.is_some(), self.metrics.first_mut()) {
            m.pdb_wrongful_allowed_s = Some(self.integ.pdb_over_ms as f64 / 1000.0);
        }
        (self.events, self.metrics)
    }
}
