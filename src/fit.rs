//! How many pods a run's figure draws: the most that fit the height the page leaves it (down to
//! one, the rest counted under the lanes). Called by `state::assemble` on every run, so on every
//! move of a slider.

use restartscope_figure::Figure;
use std::cell::RefCell;

/// One layout of the figure: its width, height limit, compact or full, and pod limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key(u64, Option<u64>, bool, usize);

impl Key {
    pub fn new(width: f64, max_height: Option<f64>, compact: bool, max_pods: usize) -> Key {
        Key(
            width.to_bits(),
            max_height.map(f64::to_bits),
            compact,
            max_pods,
        )
    }
}

thread_local! {
    /// The pods each layout last fitted (the last 8 layouts).
    static LAST: RefCell<Vec<(Key, usize)>> = const { RefCell::new(Vec::new()) };
}

/// The figure with the most of `shown` pods that fits (`lay(p)`: the figure with `p` pods;
/// `fits`: whether it fits), and that number; with one pod when none fits.
///
/// A figure grows with its pods, so a binary search: a few layouts, not one per pod (an import
/// of 110 pods tried 48). Before it, the last answer for this layout: a drag keeps it, and two
/// layouts show it is still the answer (`p` fits and `p + 1` does not, or `p` is every pod and
/// fits), where the search takes three to six (each 0.3–0.4 ms of a slider move). The answer is
/// the search's either way.
pub fn most_pods(
    key: Key,
    shown: usize,
    lay: impl Fn(usize) -> Figure,
    fits: impl Fn(&Figure) -> bool,
) -> (Figure, usize) {
    let last = LAST.with(|l| l.borrow().iter().find(|(k, _)| *k == key).map(|(_, p)| *p));
    if let Some(p) = last.filter(|&p| (1..=shown).contains(&p)) {
        let f = lay(p);
        let ok = fits(&f);
        let still = if p == shown {
            ok || shown == 1
        } else if !ok {
            p == 1
        } else {
            !fits(&lay(p + 1))
        };
        if still {
            return (f, p);
        }
    }
    let (f, p) = search(shown, &lay, &fits);
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        l.retain(|(k, _)| *k != key);
        l.push((key, p));
        if l.len() > 8 {
            l.remove(0);
        }
    });
    (f, p)
}

/// Forgets the last answers (tests: the search alone).
pub fn forget() {
    LAST.with(|l| l.borrow_mut().clear());
}

fn search(
    shown: usize,
    lay: &impl Fn(usize) -> Figure,
    fits: &impl Fn(&Figure) -> bool,
) -> (Figure, usize) {
    let all = lay(shown);
    if shown == 1 || fits(&all) {
        return (all, shown);
    }
    let (mut lo, mut hi) = (1, shown - 1);
    let mut best = None;
    while lo <= hi {
        let mid = (lo + hi) / 2;
        let f = lay(mid);
        if fits(&f) {
            best = Some((f, mid));
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    best.unwrap_or_else(|| (lay(1), 1))
}
