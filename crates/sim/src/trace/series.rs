//! Per-second series of a run, for a fleet: status writes and EndpointSlice updates counted in
//! the second they happen, and, sampled at each second, the share of ready endpoints per
//! Service and the number of nodes whose Ready condition is not True. Memory grows with the
//! horizon in seconds, not with events. Filled by the recorder (counts) and the cluster
//! (samples).

use super::Ms;
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Series {
    /// Second of each sample.
    pub t_s: Vec<u32>,
    /// Pod status writes (kubelet, node lifecycle controller, taint eviction) in each second.
    pub status_writes: Vec<u32>,
    /// EndpointSlice updates in each second.
    pub endpointslice_updates: Vec<u32>,
    /// Nodes whose Ready condition is not True, at each second.
    pub nodes_not_ready: Vec<u32>,
    /// Per Service (in name order): ready endpoints ÷ endpoints listed at the start, at each second.
    pub ready_endpoint_share: Vec<Vec<f32>>,
}

impl Series {
    fn slot(v: &mut Vec<u32>, t: Ms) -> &mut u32 {
        let s = (t.max(0) / 1000) as usize;
        if v.len() <= s {
            v.resize(s + 1, 0);
        }
        &mut v[s]
    }
    pub fn count_write(&mut self, t: Ms) {
        *Self::slot(&mut self.status_writes, t) += 1;
    }
    pub fn count_slice_updates(&mut self, t: Ms, n: u32) {
        *Self::slot(&mut self.endpointslice_updates, t) += n;
    }
    /// The state at second `s`.
    pub fn sample(&mut self, s: u32, nodes_not_ready: u32, share: impl Iterator<Item = f32>) {
        self.t_s.push(s);
        self.nodes_not_ready.push(nodes_not_ready);
        for (i, v) in share.enumerate() {
            if self.ready_endpoint_share.len() <= i {
                self.ready_endpoint_share.push(Vec::new());
            }
            self.ready_endpoint_share[i].push(v);
        }
    }
    /// Pads the counters to the sampled length.
    pub fn finish(&mut self) {
        let n = self.t_s.len();
        self.status_writes.resize(n, 0);
        self.endpointslice_updates.resize(n, 0);
    }
}
