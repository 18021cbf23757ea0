//! The playback clock: one requestAnimationFrame loop advancing the playhead while playing and
//! visible, and stopped otherwise (an idle loop cost ~0.8 ms of every frame in a CPU profile);
//! an effect starts it again when Play is pressed or the tab shows. Under reduced motion the
//! playhead jumps from event to event instead of gliding. In the presenter view's audience window
//! the presenter's messages move the playhead instead (`follow_until`, called by `present.rs`).

use crate::state::{Runs, SPEEDS};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Under reduced motion, the longest wait (wall ms) for the next event while playing.
const REDUCED_WAIT_MS: f64 = 1000.0;

type FrameCallback = Closure<dyn FnMut(f64)>;

thread_local! {
    /// `performance.now()` until which another window drives the playhead (`present.rs`).
    static FOLLOW_UNTIL: Cell<f64> = const { Cell::new(0.0) };
}

/// Another window (the presenter's) drives the playhead until `until` (`performance.now()`
/// ms): this clock keeps running but does not advance it meanwhile.
pub fn follow_until(until: f64) {
    FOLLOW_UNTIL.with(|f| f.set(until));
}

pub fn start(
    playhead: RwSignal<i64>,
    playing: RwSignal<bool>,
    speed: RwSignal<usize>,
    runs: RwSignal<Option<Runs>>,
    visible: RwSignal<bool>,
    reduced: bool,
) {
    let Some(win) = web_sys::window() else { return };
    let last: Rc<Cell<Option<f64>>> = Rc::new(Cell::new(None));
    // Virtual clock for reduced motion (the playhead shows the last event before it).
    let virt: Rc<Cell<Option<i64>>> = Rc::new(Cell::new(None));
    // Wall time of the last jump under reduced motion.
    let jumped: Rc<Cell<Option<f64>>> = Rc::new(Cell::new(None));
    let cb: Rc<RefCell<Option<FrameCallback>>> = Rc::new(RefCell::new(None));
    // A frame is requested (the loop runs).
    let running = Rc::new(Cell::new(false));
    let cb2 = cb.clone();
    let win2 = win.clone();
    let running2 = running.clone();
    *cb.borrow_mut() = Some(Closure::new(move |ts: f64| {
        let prev = last.replace(Some(ts));
        if playing.get_untracked() && visible.get_untracked() {
            if let Some(prev) = prev.filter(|_| ts >= FOLLOW_UNTIL.with(Cell::get)) {
                let dt = (ts - prev).clamp(0.0, 100.0);
                let factor = SPEEDS[speed.get_untracked().min(SPEEDS.len() - 1)];
                let step = (dt * factor).round() as i64;
                let now = playhead.get_untracked();
                runs.with_untracked(|r| {
                    let Some(r) = r else { return };
                    if reduced {
                        // No gliding: the playhead jumps to the next event when the clock
                        // reaches it, or after REDUCED_WAIT_MS of wall time, whichever is first,
                        // so Play never shows nothing for seconds.
                        let v = virt.get().filter(|v| *v >= now).unwrap_or(now) + step;
                        virt.set(Some(v));
                        let waited = ts - jumped.get().unwrap_or(ts);
                        if jumped.get().is_none() {
                            jumped.set(Some(ts));
                        }
                        let next = r.step_from(now, true);
                        let due = next.is_some_and(|t| t <= v) || waited >= REDUCED_WAIT_MS;
                        if due {
                            jumped.set(Some(ts));
                            match next {
                                Some(t) if t < r.horizon => {
                                    // Later events the clock has passed too: the last of them.
                                    let last = r
                                        .log
                                        .iter()
                                        .map(|&(p, i)| r.traces[p].events[i].t)
                                        .filter(|&e| e > t && e <= v)
                                        .max()
                                        .unwrap_or(t);
                                    virt.set(Some(v.max(last)));
                                    playhead.set(last);
                                }
                                _ => {
                                    playhead.set(r.horizon);
                                    playing.set(false);
                                }
                            }
                        }
                    } else if now + step >= r.horizon {
                        playhead.set(r.horizon);
                        playing.set(false);
                    } else {
                        playhead.set(now + step);
                    }
                });
            }
        } else {
            virt.set(None);
            jumped.set(None);
            // Paused or hidden: the loop stops; the effect below starts it again.
            last.set(None);
            running2.set(false);
            return;
        }
        if let Some(f) = cb2.borrow().as_ref() {
            let _ = win2.request_animation_frame(f.as_ref().unchecked_ref());
        }
    }));
    Effect::new(move |_| {
        if playing.get() && visible.get() && !running.get() {
            if let Some(f) = cb.borrow().as_ref() {
                if win
                    .request_animation_frame(f.as_ref().unchecked_ref())
                    .is_ok()
                {
                    running.set(true);
                }
            }
        }
    });
    // The closure lives as long as the page (the effect holds it).
}
