//! The help overlay (`?`): the keyboard shortcuts (`keys::COMMANDS`, the table the key handler runs) and the scenarios with
//! what each teaches. A dialog that opens at its top with focus on its Close button (top right);
//! Esc, the button or a click outside closes it.

use crate::keys::COMMANDS;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::presets;
use wasm_bindgen::JsCast;

#[component]
pub fn Help() -> impl IntoView {
    let open = Ui::get().help;
    // Move focus into the dialog when it opens, so Tab and Esc work from there.
    Effect::new(move |_| {
        if open.get() {
            request_animation_frame(|| {
                // The close button sits at the top, so focusing it keeps the dialog at its top.
                if let Some(el) = document().get_element_by_id("help-close") {
                    if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                        let _ = el.focus();
                    }
                }
                if let Some(d) = document().get_element_by_id("help") {
                    d.set_scroll_top(0);
                }
            });
        }
    });
    view! {
        <Show when=move || open.get()>
            <div class="overlay" on:click=move |_| open.set(false)>
                <div class="help" id="help" role="dialog" aria-modal="true" aria-labelledby="help-title"
                    on:click=|ev| ev.stop_propagation()>
                    <div class="help-head">
                        <h2 id="help-title">"Keyboard shortcuts"</h2>
                        <button type="button" id="help-close" on:click=move |_| open.set(false)>"Close"</button>
                    </div>
                    <table>
                        {COMMANDS.iter().map(|c| view! { <tr><th><kbd>{c.shown}</kbd></th><td>{c.what}</td></tr> }).collect_view()}
                    </table>
                    <ol class="preset-keys">
                        {presets::PRESETS.iter().map(|p| view! { <li><b>{p.name}</b>" — "{p.teaches}</li> }).collect_view()}
                    </ol>
                </div>
            </div>
        </Show>
    }
}
