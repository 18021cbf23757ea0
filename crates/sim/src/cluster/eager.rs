//! The first probe of each worker of a large fleet, run node by node before the queue starts.
//!
//! `Cluster::new` starts every worker of every node with a tick at a random phase of its
//! period. On a node whose events are not kept, a worker whose probe keeps passing sleeps after
//! that first probe (`prober/worker.rs`): its tick, its `ProbeDone` and the tick it leaves
//! behind are, in time order, one visit per worker to records spread over the whole fleet, and
//! past a few thousand nodes most are cache misses. The same handlers run here instead, one
//! node's workers after another, each at the times the queue would have run them, for the
//! workers nothing can disturb before their probe returns. The results are the same: such a
//! worker reads and writes only its own state (its tick and probe change nothing else), and
//! its events count as processed as they would have. The first tick stays in the queue (it is
//! popped as the stale tick it has become); the other two are counted here. The page (feature
//! `small-code`) runs them through the queue.

use super::{Cluster, Rollout, FIRST_ROLLOUT_POLL};
use crate::core::{ms, Ctx, Ev, NodeId, What};
use crate::node::kubelet::prober::first_tick;
use crate::node::kubelet::prober::probe_spec;
use crate::nodes::NodeSetup;
use crate::trace::{Ms, ProbeKind};

/// What the cluster keeps for this.
#[derive(Default)]
pub(super) struct Eager {
    /// Per node, before when only its own lease renewals and probes can happen on it.
    pub undisturbed: Vec<Ms>,
    pub slept: Slept,
}

/// The workers whose first tick ran ahead of the queue: their tick in the queue is stale, and
/// the dispatch drops it at once, without a look at the worker (the cache miss it spares).
#[derive(Default)]
pub(super) struct Slept {
    /// Per node, the index of its first pod's first bit.
    base: Vec<usize>,
    /// Bits per pod: 3 per container of the largest pod.
    per_pod: usize,
    bits: Vec<u64>,
}

impl Slept {
    fn new(spec: &[&[crate::scenario::Pod]]) -> Self {
        let most = spec.iter().flat_map(|s| s.iter()).map(|p| p.n_containers());
        let per_pod = 3 * most.max().unwrap_or(0);
        let mut base = Vec::with_capacity(spec.len());
        let mut at = 0;
        for s in spec {
            base.push(at);
            at += s.len() * per_pod;
        }
        Slept {
            base,
            per_pod,
            bits: vec![0; at.div_ceil(64)],
        }
    }

    fn bit(&self, node: usize, pod: usize, c: usize, kind: ProbeKind) -> usize {
        self.base[node] + pod * self.per_pod + 3 * c + kind.index()
    }

    fn set(&mut self, node: usize, pod: usize, c: usize, kind: ProbeKind) {
        let i = self.bit(node, pod, c, kind);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// Whether this worker's first tick ran ahead of the queue.
    #[inline]
    pub(super) fn has(&self, node: usize, pod: u16, c: u8, kind: ProbeKind) -> bool {
        if self.bits.is_empty() {
            return false;
        }
        let i = self.bit(node, pod as usize, c as usize, kind);
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }
}

/// Before when a rollout that waits for Ready can stop a kubelet (`Cluster::poll_rollout`): its
/// first poll is at 1 s, the first batch counts as done only once each of its nodes has started
/// again (`restart_idx > 0`: from its own restarts, the only starts before then), and the next
/// batch stops `pause` after the poll that sees it done.
pub(super) fn first_rollout_stop(r: &Rollout, nodes: &[NodeSetup]) -> Ms {
    let started = r.batches.first().into_iter().flatten().map(|&n| {
        let restarts = nodes.get(n as usize).map_or(&[][..], |ns| ns.restarts);
        let starts = restarts.iter().map(|x| ms(x.at_s + x.downtime_s));
        starts.min().unwrap_or(Ms::MAX)
    });
    started
        .fold(FIRST_ROLLOUT_POLL, Ms::max)
        .saturating_add(r.pause)
}

/// Before when nothing but its own lease renewals and probes can happen on the node, as far as
/// its setup says: its first restart, its first truth change, and the first stop a rollout that
/// waits for Ready can make (`rollout_stop`). `kubelet.api_unreachable` windows lower it later
/// (`Cluster::api_unreachable`). Nothing else reaches an untouched node first: the control
/// plane evicts only from a node that stopped renewing its lease.
pub(super) fn undisturbed_until(ns: &NodeSetup, rollout_stop: Option<Ms>) -> Ms {
    let mut until = rollout_stop.unwrap_or(Ms::MAX);
    for r in ns.restarts {
        until = until.min(ms(r.at_s)).min(ms(r.at_s + r.downtime_s));
    }
    for p in ns.pods {
        for c in p.all_containers() {
            for t in &c.truth {
                until = until.min(ms(t.at_s));
            }
        }
    }
    until
}

impl Cluster<'_> {
    /// Runs the first tick and probe of every worker that will sleep after them before its
    /// node can be disturbed and before the horizon, node by node (see the module's comment).
    pub(super) fn first_probes_by_node(&mut self) {
        self.queue.capture(true);
        let mut slept = Slept::new(&self.spec);
        for n in 0..self.nodes.len() {
            let id = n as NodeId;
            let spec = self.spec[n];
            let until = self.eager.undisturbed[n];
            let node = &mut self.nodes[n];
            let (k, rt) = (&mut node.kubelet, &mut node.runtime);
            if !k.elide {
                continue;
            }
            let seed = k.seed;
            for (pi, pod) in spec.iter().enumerate() {
                for (ci, c) in pod.all_containers().enumerate() {
                    for kind in ProbeKind::ALL {
                        let Some(pr) = probe_spec(c, kind) else {
                            continue;
                        };
                        let period = pr.period_s as Ms * 1000;
                        let t = first_tick(seed, id, pi, ci, kind, period);
                        // The tick it leaves behind is counted here, so it must be one the
                        // queue would have reached.
                        if t + period > self.horizon {
                            continue;
                        }
                        let Some(exec) = k.first_tick_sleeps(rt, &self.api, id, pi, ci, kind, t)
                        else {
                            continue;
                        };
                        // Anything at the millisecond the probe returns came first in the queue.
                        if t + exec >= until {
                            continue;
                        }
                        let mut cx = Ctx {
                            now: t,
                            node: id,
                            q: &mut self.queue,
                            rec: &mut self.rec,
                        };
                        // The tick schedules the next one, then the probe's return.
                        k.probe_tick(&mut cx, rt, &mut self.api, pi, ci, kind, 0);
                        let done = cx.q.captured();
                        let next = cx.q.captured();
                        let Some((
                            at,
                            Ev {
                                what: What::ProbeDone { success, seq, .. },
                                ..
                            },
                        )) = done
                        else {
                            unreachable!("the probe runs");
                        };
                        debug_assert!(at == t + exec && success && cx.q.captured().is_none());
                        debug_assert!(matches!(
                            next,
                            Some((at, Ev { what: What::ProbeTick { seq: 0, .. }, .. }))
                                if at == t + period
                        ));
                        cx.now = at;
                        k.probe_done(&mut cx, rt, &mut self.api, pi, ci, kind, success, seq);
                        // The worker sleeps: the next tick is stale.
                        debug_assert!(cx.q.captured().is_none());
                        debug_assert!(!k.tick_is_current(pi, ci, kind, 0));
                        debug_assert!(rt.changed.is_empty());
                        // The probe's return and the stale tick, as the queue would have.
                        self.rec.count_events(id, 2);
                        slept.set(n, pi, ci, kind);
                    }
                }
            }
        }
        self.queue.capture(false);
        self.eager.slept = slept;
    }
}
