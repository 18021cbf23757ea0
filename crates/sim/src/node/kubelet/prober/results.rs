//! The results cache: the last result per container and probe type, stored with the container
//! ID it belongs to; `set` reports only changes (the `Updates()` channel sees only those).
//!
//! Mirrors `pkg/kubelet/prober/results/results_manager.go` (`Set`, `Get`).

use crate::core::Few;
use crate::trace::{Outcome, ProbeKind};

#[derive(Clone, Debug)]
pub struct ResultsCache {
    /// `[startup, readiness, liveness]` per container: (container ID, result).
    slots: Few<[Option<(u32, Outcome)>; 3], 1>,
}

impl ResultsCache {
    pub fn new(n: usize) -> Self {
        ResultsCache {
            slots: Few::from_elem([None, None, None], n),
        }
    }

    /// `new` for the same containers, keeping the list's memory.
    pub fn forget(&mut self) {
        self.slots.fill([None, None, None]);
    }

    /// Stores the result; returns whether it changed (only changes are reported).
    pub fn set(&mut self, c: usize, kind: ProbeKind, container_id: u32, r: Outcome) -> bool {
        let slot = &mut self.slots[c][kind.index()];
        if *slot == Some((container_id, r)) {
            return false;
        }
        *slot = Some((container_id, r));
        true
    }

    /// `Remove`: drops the cached result unless it belongs to `keep` (another container
    /// instance's result is purged: proposal CSP, #140704).
    pub fn remove_unless(&mut self, c: usize, kind: ProbeKind, keep: Option<u32>) {
        let slot = &mut self.slots[c][kind.index()];
        if slot.is_some_and(|(id, _)| Some(id) != keep) {
            *slot = None;
        }
    }

    /// The cached result for this container instance (`Get` by container ID).
    pub fn get(&self, c: usize, kind: ProbeKind, container_id: u32) -> Option<Outcome> {
        match self.slots[c][kind.index()] {
            Some((id, o)) if id == container_id => Some(o),
            _ => None,
        }
    }
}
