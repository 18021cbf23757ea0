//! A deadline that moves: "when the moves rest, do this". The page's rest timers (the address
//! written once the settings rest, the panels and the figure's tooltips laid out once a drag
//! rests, the figure's words once it is drawn) were a new `setTimeout` and a `clearTimeout` on
//! every slider move, each with a new closure handed to JavaScript (0.12–0.15 ms of a move in a
//! CPU profile). Here a move only moves the deadline and swaps the boxed action in wasm; one
//! timer is armed at a time, and when it fires early (the deadline moved) it arms itself for
//! what is left.
//!
//! Used by `app.rs`, `components/lanes.rs` and `components/qr.rs`; no Kubernetes logic.

use std::cell::RefCell;
use std::rc::Rc;

#[derive(Default)]
struct State {
    due: f64,
    armed: bool,
    action: Option<Box<dyn FnOnce()>>,
}

/// One pending action, run `ms` after the last [`Rest::after`].
#[derive(Clone, Default)]
pub struct Rest(Rc<RefCell<State>>);

impl Rest {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `action` `ms` from now, in place of the pending one, if any.
    pub fn after(&self, ms: u32, action: impl FnOnce() + 'static) {
        let arm = {
            let mut st = self.0.borrow_mut();
            st.due = crate::env::now_ms() + f64::from(ms);
            st.action = Some(Box::new(action));
            !std::mem::replace(&mut st.armed, true)
        };
        if arm {
            arm_timer(self.0.clone(), ms);
        }
    }

    /// Drops the pending action (its timer, if armed, finds nothing to do); whether there was
    /// one.
    pub fn cancel(&self) -> bool {
        self.0.borrow_mut().action.take().is_some()
    }
}

fn arm_timer(st: Rc<RefCell<State>>, ms: u32) {
    gloo_timers::callback::Timeout::new(ms, move || {
        let left = st.borrow().due - crate::env::now_ms();
        // Timers fire up to a millisecond early or late; a deadline that moved re-arms.
        if left > 1.0 {
            arm_timer(st, left.ceil() as u32);
            return;
        }
        let action = {
            let mut s = st.borrow_mut();
            s.armed = false;
            s.action.take()
        };
        if let Some(f) = action {
            f();
        }
    })
    .forget();
}
