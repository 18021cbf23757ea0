//! Ready pods per node over time, for a fleet's heatmap: the fewest pods whose API Ready is True
//! (and that are not going away) on each node during each time column. At most `MAX_COLS`
//! columns of whole seconds, so memory is nodes × columns bytes whatever the horizon. Filled by
//! the cluster (`settle`: each pod whose state may have changed), read by the fleet view.

use super::{Ms, NodeId};

/// Columns of the heatmap at most.
pub const MAX_COLS: u32 = 960;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heat {
    /// Milliseconds per column (a whole number of seconds).
    pub col_ms: Ms,
    pub cols: u32,
    pub nodes: u32,
    /// Column-major: `cells[col * nodes + node]` = fewest Ready pods on `node` during `col`
    /// (capped at 255; a node has at most 111 pods).
    pub cells: Vec<u8>,
    /// Pods per node (the most a cell can hold).
    pub pods: Vec<u16>,
    ready_now: Vec<u16>,
    pod_ready: Vec<Vec<bool>>,
    /// The last column filled.
    filled: Option<u32>,
}

impl Heat {
    pub fn new(pods_per_node: &[usize], horizon: Ms) -> Self {
        let horizon = horizon.max(0);
        let secs = (horizon / 1000 + 1) as u32;
        let col_ms = secs.div_ceil(MAX_COLS).max(1) as Ms * 1000;
        let cols = ((horizon / col_ms) + 1) as u32;
        let nodes = pods_per_node.len() as u32;
        Heat {
            col_ms,
            cols,
            nodes,
            cells: vec![u8::MAX; cols as usize * nodes as usize],
            pods: pods_per_node.iter().map(|&p| p as u16).collect(),
            ready_now: vec![0; nodes as usize],
            pod_ready: pods_per_node.iter().map(|&p| vec![false; p]).collect(),
            filled: None,
        }
    }

    fn col(&self, t: Ms) -> u32 {
        ((t.max(0) / self.col_ms) as u32).min(self.cols - 1)
    }

    /// Every column up to `t`'s starts from the counts now.
    fn advance(&mut self, t: Ms) {
        let target = self.col(t);
        let first = self.filled.map_or(0, |c| c + 1);
        let n = self.nodes as usize;
        for c in first..=target {
            for (cell, &r) in self.cells[c as usize * n..(c as usize + 1) * n]
                .iter_mut()
                .zip(&self.ready_now)
            {
                *cell = r.min(255) as u8;
            }
        }
        self.filled = Some(self.filled.map_or(target, |f| f.max(target)));
    }

    /// The pod is Ready and staying (`ready`) from `now` on. At t = 0 this is the initial state.
    pub fn set(&mut self, node: NodeId, pod: usize, ready: bool, now: Ms) {
        let (n, p) = (node as usize, pod);
        if self.pod_ready[n][p] == ready {
            return;
        }
        if now > 0 {
            self.advance(now);
        }
        self.pod_ready[n][p] = ready;
        if ready {
            self.ready_now[n] += 1;
        } else {
            self.ready_now[n] -= 1;
            if now > 0 {
                let i = self.col(now) as usize * self.nodes as usize + n;
                self.cells[i] = self.cells[i].min(self.ready_now[n].min(255) as u8);
            }
        }
    }

    /// Fills the columns up to the horizon.
    pub fn finish(&mut self, horizon: Ms) {
        self.advance(horizon);
    }

    /// Fewest Ready pods on `node` during column `col`.
    pub fn at(&self, node: u32, col: u32) -> u8 {
        self.cells[col as usize * self.nodes as usize + node as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dip_shows_in_its_column_only() {
        let mut h = Heat::new(&[2, 2], 10_000);
        for n in 0..2 {
            for p in 0..2 {
                h.set(n, p, true, 0);
            }
        }
        assert_eq!((h.col_ms, h.cols), (1000, 11));
        h.set(1, 0, false, 3_200);
        h.set(1, 0, true, 3_700);
        h.set(0, 1, false, 5_000);
        h.finish(10_000);
        assert_eq!(h.at(1, 2), 2);
        assert_eq!(h.at(1, 3), 1);
        assert_eq!(h.at(1, 4), 2);
        assert_eq!(h.at(0, 4), 2);
        assert_eq!(h.at(0, 5), 1);
        assert_eq!(h.at(0, 10), 1);
    }

    #[test]
    fn long_horizons_use_wider_columns() {
        let h = Heat::new(&[1], 4 * 3600 * 1000);
        assert!(h.cols <= MAX_COLS);
        assert_eq!(h.col_ms % 1000, 0);
    }
}
