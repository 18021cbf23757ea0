//! [`Track`]: one value of the timeline over time (piecewise constant), with lookup by time and
//! spans over a window. Used by every object of [`super::Timeline`].

use restartscope_sim::Ms;

/// A value that changes at instants: the initial value and each change, in time order.
/// Changes at one instant collapse into the last of them, and a change to the current value is
/// not recorded, so consecutive pieces always differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    init: T,
    changes: Vec<(Ms, T)>,
}

impl<T: Clone + PartialEq> Track<T> {
    pub fn new(init: T) -> Self {
        Track {
            init,
            changes: Vec::new(),
        }
    }

    /// The value is `v` from `t` on (`t` never decreases between calls).
    pub fn set(&mut self, t: Ms, v: T) {
        if let Some(last) = self.changes.last_mut() {
            if last.0 == t {
                last.1 = v;
                let n = self.changes.len();
                let before = if n >= 2 {
                    &self.changes[n - 2].1
                } else {
                    &self.init
                };
                if *before == self.changes[n - 1].1 {
                    self.changes.pop();
                }
                return;
            }
        }
        if v != *self.last() {
            self.changes.push((t, v));
        }
    }

    /// The value at `t` (after every change at or before `t`).
    pub fn at(&self, t: Ms) -> &T {
        match self.changes.partition_point(|c| c.0 <= t) {
            0 => &self.init,
            i => &self.changes[i - 1].1,
        }
    }

    /// The value before any change.
    pub fn initial(&self) -> &T {
        &self.init
    }

    /// The value after every change.
    pub fn last(&self) -> &T {
        self.changes.last().map_or(&self.init, |c| &c.1)
    }

    /// Every change `(t, new value)` in time order.
    pub fn changes(&self) -> &[(Ms, T)] {
        &self.changes
    }

    /// The pieces of constant value clipped to `[t0, t1)`: `(start, end, value)`, none empty,
    /// neighbours different.
    pub fn spans(&self, t0: Ms, t1: Ms) -> Vec<(Ms, Ms, T)> {
        let mut out = Vec::new();
        let mut piece = |a: Ms, b: Ms, v: &T| {
            let (a, b) = (a.max(t0), b.min(t1));
            if b > a {
                out.push((a, b, v.clone()));
            }
        };
        let mut start = Ms::MIN;
        let mut cur = &self.init;
        for (t, v) in &self.changes {
            piece(start, *t, cur);
            start = *t;
            cur = v;
        }
        piece(start, Ms::MAX, cur);
        out
    }
}
