//! The keyboard: one table of shortcuts (the help overlay lists it) and one window listener that
//! runs the same `Ui` commands as the buttons. Called by `app.rs`; `components/help.rs` reads
//! `SHORTCUTS`.

use crate::state::SPEEDS;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::presets;
use wasm_bindgen::JsCast;

pub const SHORTCUTS: [(&str, &str); 10] = [
    ("Space", "Play / pause"),
    ("← / →", "Previous / next event"),
    ("+ / −", "Faster / slower"),
    ("R", "Restart from 0 s"),
    ("1 … 9", "Pick one of the first nine scenarios"),
    ("P", "Presentation view (large type)"),
    ("Z", "Zoom the lanes to the restart / whole run"),
    ("?", "Show or hide this help"),
    ("Esc", "Close this help"),
    ("Tab", "Move between controls"),
];

/// Runs the command of a key; false when the key is not a shortcut. `tag` is the lower-case tag
/// name of the focused element.
fn run(ui: Ui, key: &str, tag: &str) -> bool {
    match key {
        " " if tag != "button" => ui.toggle_play(),
        "ArrowLeft" => ui.step_event(false),
        "ArrowRight" => ui.step_event(true),
        "+" | "=" => ui.speed.update(|s| *s = (*s + 1).min(SPEEDS.len() - 1)),
        "-" | "_" => ui.speed.update(|s| *s = s.saturating_sub(1)),
        "r" | "R" => ui.restart(),
        "p" | "P" => ui.present.update(|p| *p = !*p),
        "z" | "Z" => ui.zoom.update(|z| *z = !*z),
        "?" => ui.help.update(|h| *h = !*h),
        "Escape" => ui.help.set(false),
        d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
            let i = (d.as_bytes()[0] - b'0') as usize;
            if !(1..=presets::PRESETS.len()).contains(&i) {
                return false;
            }
            ui.pick_preset(presets::PRESETS[i - 1].name);
        }
        _ => return false,
    }
    true
}

/// Listens for the shortcuts on the window for the page's lifetime. Typing in a field only lets
/// Escape through; a modifier key (Ctrl, ⌘, Alt) leaves the browser's own shortcuts alone.
pub fn listen(ui: Ui) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let tag = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|e| e.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        let typing = matches!(tag.as_str(), "input" | "select" | "textarea");
        let key = ev.key();
        if typing && key != "Escape" {
            return;
        }
        if run(ui, &key, &tag) {
            ev.prevent_default();
        }
    });
    // The listener lives as long as the page: its handle is never used to remove it.
    std::mem::forget(handle);
}
