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
    ("Esc", "Close this help / leave presentation view"),
    ("Tab", "Move between controls"),
];

/// Runs the command of a key; false when the key is not a shortcut. `keyboard_button`: a button
/// the reader reached with the keyboard has focus (Space presses it); a button focused by a click
/// does not keep Space.
fn run(ui: Ui, key: &str, keyboard_button: bool) -> bool {
    match key {
        " " if !keyboard_button => ui.toggle_play(),
        "ArrowLeft" => ui.step_event(false),
        "ArrowRight" => ui.step_event(true),
        "+" | "=" => ui.speed.update(|s| *s = (*s + 1).min(SPEEDS.len() - 1)),
        "-" | "_" => ui.speed.update(|s| *s = s.saturating_sub(1)),
        "r" | "R" => ui.restart(),
        "p" | "P" => ui.present.update(|p| *p = !*p),
        "z" | "Z" => ui.zoom.update(|z| *z = !*z),
        "?" => ui.help.update(|h| *h = !*h),
        "Escape" => {
            if ui.help.get_untracked() {
                ui.help.set(false);
            } else if ui.present.get_untracked() {
                ui.present.set(false);
            } else {
                return false;
            }
        }
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

/// Listens for the shortcuts on the window for the page's lifetime. Typing in a field or a select
/// only lets Escape through; a focused slider keeps its own keys (arrows, Home, End, Page Up/Down)
/// and lets the rest through; a modifier key (Ctrl, ⌘, Alt) leaves the browser's own shortcuts
/// alone.
pub fn listen(ui: Ui) {
    // Whether focus last came from a pointer (a click) rather than Tab: a clicked button does not
    // keep Space. (`:focus-visible` cannot tell: a key press makes the focused button match it.)
    let by_pointer = std::rc::Rc::new(std::cell::Cell::new(false));
    let p = by_pointer.clone();
    let down = window_event_listener(leptos::ev::mousedown, move |_| p.set(true));
    std::mem::forget(down);
    let handle = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let el = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let tag = el
            .as_ref()
            .map(|e| e.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        let slider = el
            .as_ref()
            .is_some_and(|e| tag == "input" && e.get_attribute("type").as_deref() == Some("range"));
        let typing = !slider && matches!(tag.as_str(), "input" | "select" | "textarea");
        let key = ev.key();
        if key == "Tab" || key == "?" {
            by_pointer.set(false);
        }
        if typing && key != "Escape" {
            return;
        }
        let slider_key = matches!(
            key.as_str(),
            "ArrowLeft"
                | "ArrowRight"
                | "ArrowUp"
                | "ArrowDown"
                | "Home"
                | "End"
                | "PageUp"
                | "PageDown"
        );
        if slider && slider_key {
            return;
        }
        // A button focused by a click gives Space back to play/pause.
        let keyboard_button = tag == "button" && !by_pointer.get();
        if run(ui, &key, keyboard_button) {
            ev.prevent_default();
            if key == " " && tag == "button" {
                if let Some(h) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = h.blur();
                }
            }
        }
    });
    // The listener lives as long as the page: its handle is never used to remove it.
    std::mem::forget(handle);
}
