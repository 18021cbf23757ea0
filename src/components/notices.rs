//! The notice naming the link parameters that were ignored (`url::parse`), with a dismiss button:
//! the first few in full, then how many more (hundreds of unknown parameters stay one line).

use crate::ui::Ui;
use leptos::prelude::*;

/// How many ignored parameters the notice names in full.
const SHOWN: usize = 3;

#[component]
pub fn Notices() -> impl IntoView {
    let notices = Ui::get().notices;
    view! {
        <Show when=move || notices.with(|n| !n.is_empty())>
            <div class="notice" role="status" id="url-notice">
                <p>"Some link parameters were ignored, defaults used instead:"</p>
                <ul>{move || {
                    let all = notices.get();
                    let more = all.len().saturating_sub(SHOWN);
                    let mut items: Vec<String> = all.into_iter().take(SHOWN).collect();
                    if more > 0 {
                        items.push(format!("and {more} more"));
                    }
                    items.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()
                }}</ul>
                <button type="button" id="notice-dismiss" on:click=move |_| notices.set(Vec::new())>"Dismiss"</button>
            </div>
        </Show>
    }
}
