//! The playback clock: one requestAnimationFrame loop advancing the playhead while playing.

use crate::app::{Runs, SPEEDS};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

type FrameCallback = Closure<dyn FnMut(f64)>;

pub fn start(
    playhead: RwSignal<i64>,
    playing: RwSignal<bool>,
    speed: RwSignal<usize>,
    runs: RwSignal<Option<Runs>>,
) {
    let Some(win) = web_sys::window() else { return };
    let last: Rc<Cell<Option<f64>>> = Rc::new(Cell::new(None));
    let cb: Rc<RefCell<Option<FrameCallback>>> = Rc::new(RefCell::new(None));
    let cb2 = cb.clone();
    let win2 = win.clone();
    *cb.borrow_mut() = Some(Closure::new(move |ts: f64| {
        let prev = last.replace(Some(ts));
        if playing.get_untracked() {
            if let Some(prev) = prev {
                let dt = (ts - prev).clamp(0.0, 100.0);
                let factor = SPEEDS[speed.get_untracked().min(SPEEDS.len() - 1)];
                let horizon = runs.with_untracked(|r| r.as_ref().map(|r| r.horizon).unwrap_or(0));
                let next = playhead.get_untracked() + (dt * factor).round() as i64;
                if next >= horizon {
                    playhead.set(horizon);
                    playing.set(false);
                } else {
                    playhead.set(next);
                }
            }
        }
        if let Some(f) = cb2.borrow().as_ref() {
            let _ = win2.request_animation_frame(f.as_ref().unchecked_ref());
        }
    }));
    if let Some(f) = cb.borrow().as_ref() {
        let _ = win.request_animation_frame(f.as_ref().unchecked_ref());
    }
    // The closure lives as long as the page.
    std::mem::forget(cb);
}
