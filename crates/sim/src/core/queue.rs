//! The one event queue of a cluster: a timing wheel of 1-ms buckets in front of a binary heap of
//! `(time, sequence, event)` (`Queue`). Events at one instant run in the order they were
//! scheduled. Every event names the node it belongs to (cluster-wide events such as a node
//! lifecycle controller pass use node 0 and say so).
//!
//! `Ctx` is what a handler gets: the clock, its node, the queue and the recorder. Actors
//! schedule and record only through it.

use crate::rules::Rule;
use crate::trace::recorder::Recorder;
pub use crate::trace::NodeId;
use crate::trace::{Actor, Kind, Ms, ProbeKind, Value};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What happens. Events owned by a kubelet carry the generation (`gen`) of the kubelet process
/// that scheduled them: the cluster drops them in one place (`Cluster::dispatch`) when that
/// process is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum What {
    KubeletStop,
    KubeletStart,
    /// The node loses the API server (`kubelet.api_unreachable`); the network, not a kubelet
    /// process, so no generation.
    ApiLost,
    /// The node reaches the API server again.
    ApiBack,
    LeaseRenew {
        gen: u32,
    },
    /// One pass of the node lifecycle controller over every node.
    NlcPass,
    /// The node lifecycle controller's NoExecute tainting pass (fleets only).
    TaintingPass,
    /// A readiness-driven rollout checks its current batch (fleets only).
    RolloutPoll,
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
        /// The worker's ticker key when the probe started (read by the proposal CSP only).
        seq: u32,
    },
    Truth {
        pod: u16,
        c: u8,
        idx: u16,
    },
    /// The PLEG's relist sees that the container exited.
    PlegRelist {
        gen: u32,
        pod: u16,
        c: u8,
    },
    /// The PLEG's relist sees the container SyncPod started: the sync loop runs a SyncPod,
    /// whose status shows the new container (K3r).
    PlegStarted {
        gen: u32,
        pod: u16,
    },
    /// A container's warm-up ends (changes what the metrics call healthy).
    Warm {
        pod: u16,
    },
    /// SyncPod starts an exited container; `checked`: `doBackOff` already allowed it.
    ContainerRestart {
        gen: u32,
        pod: u16,
        c: u8,
        checked: bool,
    },
    Eviction {
        pod: u16,
        seq: u32,
    },
    TerminationDone {
        gen: u32,
        pod: u16,
    },
    /// The container runtime stops (R1) and is back (R4); the node shuts down (B1) and has
    /// booted (B2). Not a kubelet process's events: no generation.
    RuntimeStop,
    RuntimeStart,
    NodeShutdown,
    NodeBoot,
    /// `syncNodeStatus` posts the node's Ready condition (scheduled only when it may change).
    NodeStatus {
        gen: u32,
    },
    /// `updateRuntimeUp` finds the runtime answering again (R4).
    RuntimeCheck {
        gen: u32,
    },
    /// The sync loop wakes from its back-off with `runtimeErrors` clear and runs again (R4).
    SyncLoopResume {
        gen: u32,
    },
    /// `syncLoopIteration` takes the results the workers due at this instant set inside their
    /// `doProbe` (P1's initial values among them) from the prober's channels (P1d).
    ProbeUpdates {
        gen: u32,
    },
    /// An ordinary init container that re-runs after a reboot exits 0 (B2).
    InitDone {
        pod: u16,
        c: u8,
    },
    /// The PLEG reports it and SyncPod starts the next init container (B2).
    InitNext {
        gen: u32,
        pod: u16,
    },
    /// Housekeeping has killed a rejected pod's containers (A2).
    OrphanKilled {
        gen: u32,
        pod: u16,
    },
    /// The status manager's reconcile writes a rejected pod's Failed phase (A2).
    PodFailed {
        gen: u32,
        pod: u16,
    },
    /// The status manager's `syncBatch` tick after the node reached the API server again (S5r).
    StatusSync {
        gen: u32,
    },
    /// Housekeeping removes a Failed pod with a deletion timestamp no pod worker knows (A2).
    PodCleanup {
        gen: u32,
        pod: u16,
    },
    /// A user changes the node object (`NodeObject::changes[idx]`); not a kubelet's event.
    NodeEdit {
        idx: u16,
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
            | What::PlegRelist { gen, .. }
            | What::PlegStarted { gen, .. }
            | What::TerminationDone { gen, .. }
            | What::NodeStatus { gen }
            | What::RuntimeCheck { gen }
            | What::SyncLoopResume { gen }
            | What::ProbeUpdates { gen }
            | What::InitNext { gen, .. }
            | What::OrphanKilled { gen, .. }
            | What::PodFailed { gen, .. }
            | What::PodCleanup { gen, .. }
            | What::StatusSync { gen } => Some(gen),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ev {
    pub node: NodeId,
    pub what: What,
}

/// Width of the timing wheel in milliseconds (a power of two): events less than ~16 s ahead go
/// straight into a bucket; later ones wait in a heap until the window reaches them.
const WHEEL: usize = 1 << 14;

/// The event queue: a timing wheel of 1-ms buckets (FIFO within a bucket, which is the
/// scheduling order) in front of a binary heap for events beyond the wheel. Pops in
/// `(time, scheduling order)`, like a heap of `(time, sequence)`, at O(1) per event. Buckets are
/// linked lists threaded through one slab of slots, so no bucket allocates. A new event takes
/// the lowest free slot: the events pending at once stay packed at the start of the slab (a
/// fleet schedules every probe at t = 0 and far fewer later; a stack of free slots left the
/// later ones scattered over the whole slab, one cache line each).
pub struct Queue {
    /// The instant being drained; the wheel holds `[cursor, cursor + WHEEL)`.
    cursor: Ms,
    slots: Vec<Slot>,
    /// Free slots: bit `i % 64` of `free[i / 64]`.
    free: Vec<u64>,
    /// Bit `w % 64` of `has_free[w / 64]`: `free[w]` is not 0.
    has_free: Vec<u64>,
    /// No `has_free` word below this one is non-zero.
    low: usize,
    head: Vec<u32>,
    tail: Vec<u32>,
    occupied: Vec<u64>,
    /// Events at `cursor + WHEEL` or later, by (time, sequence).
    far: BinaryHeap<Reverse<(Ms, u64, Ev)>>,
    seq: u64,
    /// Events set aside instead of queued (`capture`). Not in the page (feature `small-code`).
    #[cfg(not(feature = "small-code"))]
    capturing: bool,
    #[cfg(not(feature = "small-code"))]
    captured: Vec<(Ms, Ev)>,
}

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    ev: Ev,
    next: u32,
}

thread_local! {
    /// The last dropped queue's buckets, for the next queue of this thread: the page runs two
    /// or three kubelets on every slider move, each with a new queue, and 128 KB of buckets
    /// allocated and cleared for each was a sixth of the move's model and layout.
    static SPARE: std::cell::Cell<Option<(Vec<u32>, Vec<u32>)>> = const { std::cell::Cell::new(None) };
}

impl Drop for Queue {
    fn drop(&mut self) {
        let buckets = (
            std::mem::take(&mut self.head),
            std::mem::take(&mut self.tail),
        );
        let _ = SPARE.try_with(|s| s.set(Some(buckets)));
    }
}

impl Default for Queue {
    fn default() -> Self {
        // A bucket's head and tail mean something only while its `occupied` bit is set, so
        // buckets another queue used need no clearing.
        let (head, tail) = SPARE
            .try_with(|s| s.take())
            .ok()
            .flatten()
            .unwrap_or_else(|| (vec![0; WHEEL], vec![0; WHEEL]));
        Queue {
            cursor: -1,
            slots: Vec::new(),
            free: Vec::new(),
            has_free: Vec::new(),
            low: 0,
            head,
            tail,
            occupied: vec![0; WHEEL / 64],
            far: BinaryHeap::new(),
            seq: 0,
            #[cfg(not(feature = "small-code"))]
            capturing: false,
            #[cfg(not(feature = "small-code"))]
            captured: Vec::new(),
        }
    }
}

fn slot(t: Ms) -> usize {
    (t as u64 as usize) & (WHEEL - 1)
}

impl Queue {
    /// Schedules `ev` at `t` (not before the instant being drained).
    pub fn push(&mut self, t: Ms, ev: Ev) {
        #[cfg(not(feature = "small-code"))]
        if self.capturing {
            self.captured.push((t, ev));
            return;
        }
        debug_assert!(t >= self.cursor, "event scheduled in the past");
        if t < self.cursor + WHEEL as Ms {
            self.append(slot(t.max(self.cursor)), ev);
        } else {
            self.seq += 1;
            self.far.push(Reverse((t, self.seq, ev)));
        }
    }

    /// The lowest free slot, holding `s`.
    fn take_slot(&mut self, s: Slot) -> u32 {
        while let Some(&h) = self.has_free.get(self.low) {
            if h != 0 {
                let w = self.low * 64 + h.trailing_zeros() as usize;
                let bits = self.free[w];
                self.free[w] = bits & (bits - 1);
                if self.free[w] == 0 {
                    self.has_free[self.low] &= !(1 << (w % 64));
                }
                let i = w * 64 + bits.trailing_zeros() as usize;
                self.slots[i] = s;
                return i as u32;
            }
            self.low += 1;
        }
        let i = self.slots.len();
        self.slots.push(s);
        if i.is_multiple_of(64) {
            self.free.push(0);
            if i.is_multiple_of(4096) {
                self.has_free.push(0);
            }
        }
        i as u32
    }

    fn free_slot(&mut self, i: u32) {
        let (i, w) = (i as usize, i as usize / 64);
        self.free[w] |= 1 << (i % 64);
        self.has_free[w / 64] |= 1 << (w % 64);
        self.low = self.low.min(w / 64);
    }

    fn append(&mut self, b: usize, ev: Ev) {
        let i = self.take_slot(Slot { ev, next: NIL });
        if !self.is_occupied(b) {
            self.head[b] = i;
            self.occupied[b / 64] |= 1 << (b % 64);
        } else {
            let t = self.tail[b] as usize;
            self.slots[t].next = i;
        }
        self.tail[b] = i;
    }

    /// Reorders the slab as the wheel will pop it (bucket by bucket from the cursor on), for a
    /// burst scheduled in another order: a fleet schedules every probe at t = 0 node by node, and
    /// their first ticks, in random phases, would each read a slot far from the last one. Pops
    /// the same events in the same order; free slots go last.
    pub fn pack(&mut self) {
        let n = self.slots.len();
        // order[k]: the slot that moves to k. Each bucket's new range is known at once: its
        // head and tail are rewritten as its list is read.
        let mut order = vec![NIL; n];
        let mut k = 0;
        let start = slot(self.cursor);
        for b in (start..WHEEL).chain(0..start) {
            if !self.is_occupied(b) {
                continue;
            }
            let mut i = self.head[b];
            self.head[b] = k as u32;
            while i != NIL {
                order[k] = i;
                k += 1;
                i = self.slots[i as usize].next;
            }
            self.tail[b] = k as u32 - 1;
        }
        let live = k;
        for (w, &bits) in self.free.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                order[k] = (w * 64 + bits.trailing_zeros() as usize) as u32;
                k += 1;
                bits &= bits - 1;
            }
        }
        debug_assert_eq!(k, n);
        // Slot k takes the one at order[k], cycle by cycle.
        for first in 0..n {
            if order[first] == NIL {
                continue;
            }
            let held = self.slots[first];
            let mut k = first;
            loop {
                let from = order[k] as usize;
                order[k] = NIL;
                if from == first {
                    self.slots[k] = held;
                    break;
                }
                self.slots[k] = self.slots[from];
                k = from;
            }
        }
        for b in 0..WHEEL {
            if self.is_occupied(b) {
                let (a, z) = (self.head[b], self.tail[b]);
                for i in a..z {
                    self.slots[i as usize].next = i + 1;
                }
                self.slots[z as usize].next = NIL;
            }
        }
        self.free.fill(0);
        self.has_free.fill(0);
        self.low = self.has_free.len();
        for i in live..n {
            self.free_slot(i as u32);
        }
    }

    /// While on, what handlers schedule is set aside (`captured`) instead of queued: the
    /// cluster runs some handlers ahead of the queue and checks what they schedule
    /// (`cluster/eager.rs`).
    #[cfg(not(feature = "small-code"))]
    pub fn capture(&mut self, on: bool) {
        self.capturing = on;
    }

    /// The last event set aside while capturing, if any.
    #[cfg(not(feature = "small-code"))]
    pub fn captured(&mut self) -> Option<(Ms, Ev)> {
        self.captured.pop()
    }

    /// The next event in (time, scheduling order).
    pub fn pop(&mut self) -> Option<(Ms, Ev)> {
        loop {
            let b = slot(self.cursor);
            if self.is_occupied(b) {
                let i = self.head[b];
                let Slot { ev, next } = self.slots[i as usize];
                self.head[b] = next;
                if next == NIL {
                    self.occupied[b / 64] &= !(1 << (b % 64));
                }
                self.free_slot(i);
                return Some((self.cursor, ev));
            }
            if !self.advance() {
                return None;
            }
        }
    }

    /// Bucket `b` holds events (its `head` and `tail` are slots).
    fn is_occupied(&self, b: usize) -> bool {
        self.occupied[b / 64] & (1 << (b % 64)) != 0
    }

    /// Moves to the next instant that has events; false when there is none.
    fn advance(&mut self) -> bool {
        let next = match (self.next_occupied(), self.far.peek()) {
            (Some(a), Some(Reverse((b, _, _)))) => a.min(*b),
            (Some(a), None) => a,
            (None, Some(Reverse((b, _, _)))) => *b,
            (None, None) => return false,
        };
        self.cursor = next;
        // Far events that the window now reaches enter their buckets before anything else is
        // scheduled there, so each bucket stays in scheduling order.
        while let Some(Reverse((t, _, _))) = self.far.peek() {
            if *t >= next + WHEEL as Ms {
                break;
            }
            let Some(Reverse((t, _, ev))) = self.far.pop() else {
                break;
            };
            self.append(slot(t), ev);
        }
        true
    }

    /// The earliest time after `cursor` whose bucket holds events.
    fn next_occupied(&self) -> Option<Ms> {
        let start = slot(self.cursor + 1);
        let words = WHEEL / 64;
        let (w0, b0) = (start / 64, start % 64);
        for k in 0..=words {
            let w = (w0 + k) % words;
            let mut bits = self.occupied[w];
            if k == 0 {
                bits &= !0u64 << b0;
            } else if k == words {
                bits &= !(!0u64 << b0);
            }
            if bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                let ahead = (i + WHEEL - start) % WHEEL;
                return Some(self.cursor + 1 + ahead as Ms);
            }
        }
        None
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(n: u16) -> Ev {
        Ev {
            node: n,
            what: What::KubeletStop,
        }
    }

    /// The wheel pops exactly what a heap of (time, sequence) pops, including events scheduled
    /// at the current instant, in the far future, and across the wheel's wrap; `pack` changes none
    /// of it.
    #[test]
    fn pops_in_time_then_scheduling_order() {
        let mut q = Queue::default();
        let mut reference: BinaryHeap<Reverse<(Ms, u64, u16)>> = BinaryHeap::new();
        let mut seq = 0u64;
        let mut x: u64 = 12345;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut id = 0u16;
        let mut push = |q: &mut Queue, r: &mut BinaryHeap<_>, t: Ms, id: &mut u16| {
            *id = id.wrapping_add(1);
            seq += 1;
            q.push(t, ev(*id));
            r.push(Reverse((t, seq, *id)));
        };
        for _ in 0..200 {
            let t = rnd(100_000) as Ms;
            push(&mut q, &mut reference, t, &mut id);
        }
        q.pack();
        let mut popped = 0;
        while let Some((t, e)) = q.pop() {
            if popped % 1_000 == 999 {
                // With free slots and a cursor past 0.
                q.pack();
            }
            let Reverse((rt, _, rid)) = reference.pop().unwrap();
            assert_eq!((t, e.node), (rt, rid), "after {popped} pops");
            popped += 1;
            if popped < 5_000 {
                for _ in 0..rnd(3) {
                    let dt = match rnd(4) {
                        0 => 0,
                        1 => rnd(20),
                        2 => rnd(20_000),
                        _ => rnd(200_000),
                    } as Ms;
                    push(&mut q, &mut reference, t + dt, &mut id);
                }
            }
        }
        assert!(reference.is_empty());
        assert!(popped > 5_000);
    }
}
