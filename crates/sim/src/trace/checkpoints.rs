//! The checkpoint series: node 0's cumulative metrics as they grow, for a reader that shows
//! them at any time `t` (the web app's metric cards follow the playhead). The recorder appends a
//! [`Checkpoint`] at the end of every instant where a counter or a rate of the integrator
//! changed: the counters, the sums closed at that instant and the rates in force from then on.
//! The value at `t` is the last checkpoint at or before `t` plus rate × (t − its time), exact in
//! integer milliseconds. The series ends with a checkpoint at the horizon (rates zero), equal to
//! the run's `Metrics`. Memory is proportional to changes; only single-node runs record it
//! (`cluster::Setup::checkpoints`), fleets do not. Read by `restartscope_report::metrics_at`.

use super::metrics::{Rates, Sums};
use super::{Metrics, Ms};

/// Node 0's metrics at the end of the instant `t`, and the rates from `t` on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkpoint {
    pub t: Ms,
    pub ready_transitions: u32,
    pub kubelet_status_writes: u32,
    pub nlc_status_writes: u32,
    pub endpointslice_updates: u32,
    pub evictions: u32,
    /// Events processed up to the end of the instant (a benchmark figure, not extrapolated).
    pub events_processed: u64,
    /// Integrated milliseconds up to `t`.
    pub sums: Sums,
    pub rates: Rates,
}

impl Checkpoint {
    pub fn new(t: Ms, m: &Metrics, sums: Sums, rates: Rates) -> Self {
        Checkpoint {
            t,
            ready_transitions: m.ready_transitions,
            kubelet_status_writes: m.kubelet_status_writes,
            nlc_status_writes: m.nlc_status_writes,
            endpointslice_updates: m.endpointslice_updates,
            evictions: m.evictions,
            events_processed: m.events_processed,
            sums,
            rates,
        }
    }

    /// Whether `next` changes a counter or a rate (if not, this checkpoint extrapolates to it).
    pub fn changed(&self, next: &Checkpoint) -> bool {
        (
            self.ready_transitions,
            self.kubelet_status_writes,
            self.nlc_status_writes,
            self.endpointslice_updates,
            self.evictions,
            self.rates,
        ) != (
            next.ready_transitions,
            next.kubelet_status_writes,
            next.nlc_status_writes,
            next.endpointslice_updates,
            next.evictions,
            next.rates,
        )
    }

    /// The metrics at `t ≥ self.t` (`pdb`: the run has a PodDisruptionBudget).
    pub fn metrics_at(&self, t: Ms, pdb: bool) -> Metrics {
        let s = self.sums.after(self.rates, t - self.t);
        Metrics {
            ready_transitions: self.ready_transitions,
            kubelet_status_writes: self.kubelet_status_writes,
            nlc_status_writes: self.nlc_status_writes,
            endpointslice_updates: self.endpointslice_updates,
            unjustified_not_ready_s: secs(s.unjustified_not_ready),
            unjustified_ready_s: secs(s.unjustified_ready),
            evictions: self.evictions,
            node_not_ready_s: secs(s.node_not_ready),
            pdb_wrongful_allowed_s: pdb.then(|| secs(s.pdb_over)),
            events_processed: self.events_processed,
        }
    }
}

/// Integrated milliseconds as the metrics write them (seconds).
pub fn secs(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

/// A single-node run's checkpoints, in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checkpoints {
    pub points: Vec<Checkpoint>,
    /// The run has a PodDisruptionBudget (`pdb_wrongful_allowed_s` is `Some`).
    pub pdb: bool,
}

impl Checkpoints {
    /// The metrics at the end of the instant `t` (everything that happened at `t` counted):
    /// zero before the first checkpoint, the run's totals from the horizon on.
    pub fn at(&self, t: Ms) -> Metrics {
        match self.points.partition_point(|c| c.t <= t) {
            0 => Checkpoint::default().metrics_at(0, self.pdb),
            i => self.points[i - 1].metrics_at(t, self.pdb),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_checkpoint_plus_rate() {
        let rates = Rates {
            unjustified_not_ready: 2,
            node_not_ready: true,
            ..Rates::default()
        };
        let a = Checkpoint {
            t: 1_000,
            ready_transitions: 2,
            rates,
            ..Checkpoint::default()
        };
        let b = Checkpoint {
            t: 3_000,
            ready_transitions: 4,
            sums: Sums::default().after(rates, 2_000),
            ..Checkpoint::default()
        };
        let cps = Checkpoints {
            points: vec![a, b],
            pdb: true,
        };
        assert_eq!(
            cps.at(999),
            Metrics {
                pdb_wrongful_allowed_s: Some(0.0),
                ..Metrics::default()
            }
        );
        let m = cps.at(1_500);
        assert_eq!(m.ready_transitions, 2);
        assert_eq!((m.unjustified_not_ready_s, m.node_not_ready_s), (1.0, 0.5));
        let m = cps.at(10_000);
        assert_eq!(m.ready_transitions, 4);
        assert_eq!((m.unjustified_not_ready_s, m.node_not_ready_s), (4.0, 2.0));
        assert!(a.changed(&b) && !b.changed(&Checkpoint { t: 5, ..b }));
    }
}
