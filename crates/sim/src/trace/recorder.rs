//! The recorder: where the cluster's actors put what happened. It keeps every event of the
//! nodes asked for (all of them in a single-node run; a few sampled nodes in a fleet) and, for
//! every node, the counters and integrated metrics; in a single-node run also the checkpoint
//! series of node 0's metrics (`checkpoints.rs`), one at the end of each instant that changed a
//! counter or a rate. Written to through `core::Ctx` only.

use super::checkpoints::{secs, Checkpoint, Checkpoints};
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
    /// Counters per node (the integrated metrics and `events_processed` are added by `finish`).
    pub metrics: Vec<Metrics>,
    /// Events processed per node, apart from `metrics`: counted at every event, so eight nodes'
    /// counts share a cache line instead of one node's `Metrics` taking one or two.
    processed: Vec<u64>,
    integ: Integrator,
    touched: Vec<(NodeId, u16)>,
    /// Per-second series (fleets).
    pub series: Option<super::series::Series>,
    /// Ready pods per node over time (fleets).
    pub heat: Option<super::heat::Heat>,
    /// Node 0's checkpoints, when asked for.
    checkpoints: Option<Vec<Checkpoint>>,
    /// A counter or a rate may have changed since the last checkpoint.
    dirty: bool,
}

impl Recorder {
    /// `expected`: about how many events the kept nodes will record (reserved up front, so a
    /// long trace is not copied as it grows; untouched reserved pages cost nothing).
    /// `checkpoints`: record node 0's checkpoint series.
    pub fn new(pods_per_node: &[usize], keep: &Keep, expected: usize, checkpoints: bool) -> Self {
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
            processed: vec![0; n],
            integ: Integrator::new(pods_per_node),
            touched: Vec::new(),
            series: None,
            heat: None,
            checkpoints: (checkpoints && n > 0).then(Vec::new),
            dirty: false,
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

    /// Whether the node's events are kept (so a caller can skip building an event's value).
    #[inline]
    pub fn keeps(&self, node: NodeId) -> bool {
        self.keep[node as usize]
    }

    /// A node's counters, to add to (not `events_processed`: see `count_event`).
    pub fn node_metrics(&mut self, node: NodeId) -> &mut Metrics {
        self.dirty = true;
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

    /// One event processed by the engine (a benchmark figure; no checkpoint of its own).
    #[inline]
    pub fn count_event(&mut self, node: NodeId) {
        self.processed[node as usize] += 1;
    }

    /// `n` events processed for the node without the queue (a quiet node's lease renewals).
    pub fn count_events(&mut self, node: NodeId, n: u64) {
        self.processed[node as usize] += n;
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

    /// Pods touched since the last call (deduplicated), swapped into `into` (cleared first), so
    /// the two buffers are reused from instant to instant.
    pub fn take_touched(&mut self, into: &mut Vec<(NodeId, u16)>) {
        into.clear();
        if self.touched.is_empty() {
            return;
        }
        std::mem::swap(&mut self.touched, into);
        crate::core::sort::sort_dedup(into);
    }

    /// The pod's metric class, and whether it is Ready and staying (`live`, for the heatmap).
    pub fn classify(&mut self, node: NodeId, pod: usize, class: Class, live: bool, now: Ms) {
        self.dirty |= self.integ.set_pod(node, pod, class, now);
        if let Some(h) = self.heat.as_mut() {
            h.set(node, pod, live, now);
        }
    }

    /// Integrate the PodDisruptionBudget metric (node 0).
    pub fn with_pdb(&mut self) {
        self.integ.pdb = true;
    }

    /// The budget allows an eviction it would refuse without the wrongful Ready (from `now`).
    pub fn pdb_over(&mut self, over: bool, now: Ms) {
        self.dirty |= self.integ.set_pdb(over, now);
    }

    pub fn node_ready(&mut self, node: NodeId, ready: bool, now: Ms) {
        self.dirty |= self.integ.set_node(node, ready, now);
    }

    /// The end of the instant `now` (after the re-classification): node 0's checkpoint, if a
    /// counter or a rate changed since the last one.
    #[inline]
    pub fn end_instant(&mut self, now: Ms) {
        if self.dirty {
            self.checkpoint(now);
        }
    }

    #[inline(never)]
    fn checkpoint(&mut self, now: Ms) {
        self.dirty = false;
        let Some(points) = self.checkpoints.as_mut() else {
            return;
        };
        let (sums, rates) = self.integ.closed(0, now);
        self.metrics[0].events_processed = self.processed[0];
        let cp = Checkpoint::new(now, &self.metrics[0], sums, rates);
        if points.last().unwrap_or(&Checkpoint::default()).changed(&cp) {
            points.push(cp);
        }
    }

    /// Closes the integrals at the horizon and returns events, per-node metrics and node 0's
    /// checkpoints (ending with the horizon's).
    pub fn finish(mut self, horizon: Ms) -> (Vec<Event>, Vec<Metrics>, Option<Checkpoints>) {
        for (m, &e) in self.metrics.iter_mut().zip(&self.processed) {
            m.events_processed = e;
        }
        for (m, s) in self.metrics.iter_mut().zip(self.integ.finish(horizon)) {
            m.unjustified_ready_s = secs(s.unjustified_ready);
            m.unjustified_not_ready_s = secs(s.unjustified_not_ready);
            m.node_not_ready_s = secs(s.node_not_ready);
        }
        let pdb = self.integ.pdb;
        if let (true, Some(m)) = (pdb, self.metrics.first_mut()) {
            m.pdb_wrongful_allowed_s = Some(secs(self.integ.closed(0, horizon).0.pdb_over));
        }
        let checkpoints = self.checkpoints.take().map(|mut points| {
            // Nothing grows after the horizon: the last checkpoint is the run's metrics.
            let (sums, _) = self.integ.closed(0, horizon);
            points.retain(|c| c.t < horizon);
            points.push(Checkpoint::new(
                horizon,
                &self.metrics[0],
                sums,
                Default::default(),
            ));
            Checkpoints { points, pdb }
        });
        (self.events, self.metrics, checkpoints)
    }
}
