//! The runs the page computed lately, kept by what made them: the settings, the figure's spec
//! (its size, its tooltips) and the zoomed restart. A slider dragged back over values it has
//! passed — a presenter scrubbing across the grace period and back — shows them without
//! simulating both kubelets and laying the figure out again (`state::compute_for`: ~0.8 ms of
//! a move's ~3 ms, docs/PERFORMANCE.md).
//!
//! Called by the page's compute effect (`app.rs`) in place of `compute_for`. Holds no
//! Kubernetes logic: the runs are `compute_for`'s, which is deterministic (one seed), so a kept
//! one is the one it would compute again; a test checks that on a drag back and forth.
//!
//! Bounded twice: at most [`MAX_ENTRIES`] runs, and at most [`MAX_WEIGHT`] trace events and
//! figure shapes in all (an imported workload of a thousand pods keeps a few runs, not dozens).

use crate::form::{Field, Settings};
use crate::state::{compute_for, FigureSpec, Runs};
use std::cell::RefCell;
use std::collections::VecDeque;

/// Runs kept (the newest first).
pub const MAX_ENTRIES: usize = 48;
/// Trace events plus figure shapes kept in all (~50–100 bytes each: tens of MB at most).
pub const MAX_WEIGHT: usize = 400_000;

struct Entry {
    settings: Settings,
    spec: FigureSpec,
    zoom: Option<usize>,
    runs: Runs,
    weight: usize,
}

thread_local! {
    static KEPT: RefCell<VecDeque<Entry>> = const { RefCell::new(VecDeque::new()) };
    /// Whether the last `runs_for` gave kept runs (the footer says so, not "recomputed").
    static LAST_KEPT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the runs on screen came from the kept ones (the last `runs_for` call).
pub fn last_kept() -> bool {
    LAST_KEPT.get()
}

fn weight(r: &Runs) -> usize {
    r.traces.iter().map(|t| t.events.len()).sum::<usize>() + r.figure.shapes.len()
}

/// `compute_for(settings, spec, zoom)`, from the kept runs when these made one lately.
/// A rejected input is computed every time (its messages are cheap, and never kept).
pub fn runs_for(
    settings: &Settings,
    spec: FigureSpec,
    zoom: Option<usize>,
) -> Result<Runs, Vec<(Field, String)>> {
    let hit = KEPT.with_borrow_mut(|kept| {
        let i = kept
            .iter()
            .position(|e| e.spec == spec && e.zoom == zoom && e.settings == *settings)?;
        let e = kept.remove(i)?;
        let runs = e.runs.clone();
        kept.push_front(e);
        Some(runs)
    });
    LAST_KEPT.set(hit.is_some());
    if let Some(r) = hit {
        return Ok(r);
    }
    let r = compute_for(settings, spec, zoom)?;
    let w = weight(&r);
    if w <= MAX_WEIGHT {
        KEPT.with_borrow_mut(|kept| {
            kept.push_front(Entry {
                settings: settings.clone(),
                spec,
                zoom,
                runs: r.clone(),
                weight: w,
            });
            let mut total: usize = kept.iter().map(|e| e.weight).sum();
            while kept.len() > MAX_ENTRIES || total > MAX_WEIGHT {
                match kept.pop_back() {
                    Some(e) => total -= e.weight,
                    None => break,
                }
            }
        });
    }
    Ok(r)
}

/// How many runs are kept.
#[cfg(test)]
fn kept() -> usize {
    KEPT.with_borrow(VecDeque::len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::figure_spec;

    /// A drag back over the values it passed gets the runs computed for them, equal to a fresh
    /// computation's, and the kept runs stay within their bounds.
    #[test]
    fn a_drag_back_shows_the_runs_of_each_value_as_computed() {
        let spec = figure_spec(false, false, 1392.0, 900.0, 124.0);
        let held = FigureSpec {
            tooltips: false,
            ..spec
        };
        // 20 values and both specs: 40 runs, all kept (the bound is 48).
        let mut downs: Vec<u32> = (1..=20).map(|i| i * 27).collect();
        downs.extend(downs.clone().into_iter().rev());
        let mut seen = std::collections::HashSet::new();
        for d in downs {
            let mut s = Settings::for_preset("short-restart");
            s.downtime_s = f64::from(d);
            for sp in [held, spec] {
                let kept = runs_for(&s, sp, None).unwrap();
                assert_eq!(last_kept(), !seen.insert((d, sp.tooltips)), "downtime {d}s");
                let fresh = compute_for(&s, sp, None).unwrap();
                assert_eq!(kept.traces, fresh.traces, "downtime {d}s");
                assert_eq!(kept.figure, fresh.figure, "downtime {d}s");
                assert_eq!(kept.horizon, fresh.horizon);
            }
            assert!(kept() <= MAX_ENTRIES);
        }
        // Past the bound the oldest go.
        for d in 600..660 {
            let mut s = Settings::for_preset("short-restart");
            s.downtime_s = f64::from(d);
            runs_for(&s, held, None).unwrap();
        }
        assert_eq!(kept(), MAX_ENTRIES);
        let mut bad = Settings::for_preset("short-restart");
        bad.downtime_s = -1.0;
        assert!(runs_for(&bad, spec, None).is_err());
    }
}
