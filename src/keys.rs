//! The keyboard: one table of commands (`COMMANDS`: keys, words, action) that drives both the
//! window key listener and the help overlay, running the same `Ui` commands as the buttons.
//! Called by `app.rs`; `components/help.rs` reads `COMMANDS`.

use crate::state::SPEEDS;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::presets;
use wasm_bindgen::JsCast;

/// One command: the keys that run it and what the help says. The key handler and the help
/// dialog both read [`COMMANDS`], so they cannot disagree.
pub struct Command {
    /// The key column of the help.
    pub shown: &'static str,
    pub what: &'static str,
    /// `KeyboardEvent.key` values that run it (none: listed for information, like Tab).
    pub keys: &'static [&'static str],
    /// Runs it for the key pressed; false when it did nothing (the key goes to the page).
    pub run: fn(Ui, &str) -> bool,
}

fn done(f: impl FnOnce()) -> bool {
    f();
    true
}

pub const COMMANDS: [Command; 15] = [
    Command {
        shown: "Space",
        what: "Play / pause",
        keys: &[" "],
        run: |ui, _| done(|| ui.toggle_play()),
    },
    Command {
        shown: "← / →",
        what: "Previous / next event (in a tour: previous / next step)",
        keys: &["ArrowLeft", "ArrowRight"],
        run: |ui, k| {
            let forward = k == "ArrowRight";
            ui.step_tour(forward) || done(|| ui.step_event(forward))
        },
    },
    Command {
        shown: "+ / −",
        what: "Faster / slower",
        keys: &["+", "=", "-", "_"],
        run: |ui, k| {
            done(|| {
                ui.speed.update(|s| {
                    *s = if matches!(k, "+" | "=") {
                        (*s + 1).min(SPEEDS.len() - 1)
                    } else {
                        s.saturating_sub(1)
                    }
                })
            })
        },
    },
    Command {
        shown: "R",
        what: "Restart from 0 s",
        keys: &["r", "R"],
        run: |ui, _| done(|| ui.restart()),
    },
    Command {
        shown: "K",
        what: "Stop the kubelet at the playhead / start it again",
        keys: &["k", "K"],
        run: |ui, _| done(|| ui.toggle_kubelet()),
    },
    Command {
        shown: "Ctrl+Z",
        what: "Undo the last edit",
        keys: &["Ctrl+z"],
        run: |ui, _| ui.undo(),
    },
    Command {
        shown: "1 … 9",
        what: "Pick one of the first nine scenarios (every scenario: the Scenario picker)",
        keys: &["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        run: |ui, k| {
            let i = k.parse::<usize>().unwrap_or(0);
            if !(1..=presets::PRESETS.len()).contains(&i) {
                return false;
            }
            done(|| ui.pick_preset(presets::PRESETS[i - 1].name))
        },
    },
    Command {
        shown: "T",
        what: "Start the guided tour (KEP-4781) / leave it",
        keys: &["t", "T"],
        run: |ui, _| {
            done(|| {
                if ui.tour.get_untracked().is_some() {
                    ui.tour.set(None);
                } else {
                    ui.open_tour(crate::tour::TOURS[0].0, 1);
                }
            })
        },
    },
    Command {
        shown: "P",
        what: "Presentation view (large type)",
        keys: &["p", "P"],
        run: |ui, _| done(|| ui.present.update(|p| *p = !*p)),
    },
    Command {
        shown: "N",
        what: "Presenter view: the controls and speaker notes here, the figure alone in a second window (for the projector)",
        keys: &["n", "N"],
        run: |ui, _| crate::present::open(ui),
    },
    Command {
        shown: "Q",
        what: "Show the link as a large QR code for the audience's phones (presentation view)",
        keys: &["q", "Q"],
        run: |ui, _| {
            if !ui.present.get_untracked() {
                return false;
            }
            done(|| ui.qr_big.update(|b| *b = !*b))
        },
    },
    Command {
        shown: "Z",
        what: "Zoom the lanes to the restart / whole run",
        keys: &["z", "Z"],
        run: |ui, _| done(|| ui.zoom.update(|z| *z = !*z)),
    },
    Command {
        shown: "?",
        what: "Show or hide this help",
        keys: &["?"],
        run: |ui, _| done(|| ui.help.update(|h| *h = !*h)),
    },
    Command {
        shown: "Esc",
        what: "Close this help or the QR code / leave the tour / leave presentation view",
        keys: &["Escape"],
        run: |ui, _| {
            if ui.help.get_untracked() {
                ui.help.set(false);
            } else if ui.qr_big.get_untracked() {
                ui.qr_big.set(false);
            } else if ui.tour.get_untracked().is_some() {
                ui.tour.set(None);
            } else if ui.present.get_untracked() {
                ui.present.set(false);
            } else {
                return false;
            }
            true
        },
    },
    Command {
        shown: "Tab",
        what: "Move between controls",
        keys: &[],
        run: |_, _| false,
    },
];

/// Runs the command of a key; false when the key is not a shortcut. `keyboard_button`: a button
/// the reader reached with the keyboard has focus (Space presses it); a button focused by a click
/// does not keep Space.
fn run(ui: Ui, key: &str, keyboard_button: bool) -> bool {
    if key == " " && keyboard_button {
        return false;
    }
    COMMANDS
        .iter()
        .find(|c| c.keys.contains(&key))
        .is_some_and(|c| (c.run)(ui, key))
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
        // With Ctrl or ⌘ only Ctrl+Z (⌘Z) is ours; the browser keeps its other shortcuts.
        if ev.alt_key() {
            return;
        }
        let ctrl = ev.ctrl_key() || ev.meta_key();
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
        let key = if ctrl {
            if ev.shift_key() || !ev.key().eq_ignore_ascii_case("z") {
                return;
            }
            "Ctrl+z".to_string()
        } else {
            ev.key()
        };
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
