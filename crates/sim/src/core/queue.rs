//! The one event queue of a cluster: a binary heap of `(time, sequence, event)`. Events at one
//! instant run in the order they were scheduled. Every event names the node it belongs to
//! (cluster-wide events such as a node lifecycle controller pass use node 0 and say so).
//!
//! `Ctx` is what a handler gets: the clock, its node, the queue and the recorder. Actors
//! schedule and record only through it.

use crate::rules::Rule;
use crate::trace::recorder::Recorder;
use crate::trace::{Actor, Kind, Ms, ProbeKind, Value};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Index of a node in the cluster.
pub type NodeId = u16;

/// What happens. Events owned by a kubelet carry the generation (`gen`) of the kubelet process
/// that scheduled them: the cluster drops them in one place (`Cluster::dispatch`) when that
/// process is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum What {
    KubeletStop,
    KubeletStart,
    LeaseRenew {
        gen: u32,
    },
    /// One pass of the node lifecycle controller over every node.
    NlcPass,
    FirstSync {
        gen: u32,
        pod: u16,
    },
    ProbeTick {
        gen: u32,
        pod: u16,
        c: u8,
        kind: ProbeKind,
        seq: u32,
    },
    ProbeDone {
        gen: u32,
        pod: u16,
        c: u8,
        kind: ProbeKind,
        success: bool,
    },
    Truth {
        pod: u16,
        c: u8,
        idx: u16,
    },
    /// A container's warm-up ends (changes what the metrics call healthy).
    Warm {
        pod: u16,
    },
    ContainerRestart {
        gen: u32,
        pod: u16,
        c: u8,
    },
    Eviction {
        pod: u16,
        seq: u32,
    },
    TerminationDone {
        gen: u32,
        pod: u16,
    },
}

impl What {
    /// The kubelet generation an event belongs to, if it belongs to a kubelet process.
    pub fn kubelet_gen(self) -> Option<u32> {
        match self {
            What::LeaseRenew { gen }
            | What::FirstSync { gen, .. }
            | What::ProbeTick { gen, .. }
            | What::ProbeDone { gen, .. }
            | What::ContainerRestart { gen, .. }
            | What::TerminationDone { gen, .. } => Some(gen),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ev {
    pub node: NodeId,
    pub what: What,
}

#[derive(Default)]
pub struct Queue {
    seq: u64,
    heap: BinaryHeap<Reverse<(Ms, u64, Ev)>>,
}

impl Queue {
    pub fn push(&mut self, t: Ms, ev: Ev) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, ev)));
    }
    pub fn pop(&mut self) -> Option<(Ms, Ev)> {
        self.heap.pop().map(|Reverse((t, _, ev))| (t, ev))
    }
}

/// What a handler works with: now, its node, the queue and the recorder.
pub struct Ctx<'c> {
    pub now: Ms,
    pub node: NodeId,
    pub q: &'c mut Queue,
    pub rec: &'c mut Recorder,
}

impl Ctx<'_> {
    /// Schedules an event of this node.
    pub fn at(&mut self, t: Ms, what: What) {
        self.q.push(
            t,
            Ev {
                node: self.node,
                what,
            },
        );
    }

    /// Records a trace event of this node at now.
    pub fn emit(
        &mut self,
        kind: Kind,
        pod: Option<usize>,
        container: Option<usize>,
        value: Value,
        rule: Rule,
        by: Actor,
    ) {
        self.rec
            .emit(self.now, self.node, kind, pod, container, value, rule, by);
    }

    /// The pod's ground truth or API state changed: the metrics re-classify it at the end of
    /// the instant.
    pub fn touch(&mut self, pod: usize) {
        self.rec.touch(self.node, pod);
    }
}
