//! The notice naming the link parameters that were ignored (`url::parse`), with a dismiss button.

use crate::ui::Ui;
use leptos::prelude::*;

#[component]
pub fn Notices() -> impl IntoView {
    let notices = Ui::get().notices;
    view! {
        <Show when=move || notices.with(|n| !n.is_empty())>
            <div class="notice" role="status" id="url-notice">
                <p>"Some link parameters were ignored, defaults used instead:"</p>
                <ul>{move || notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                <button type="button" id="notice-dismiss" on:click=move |_| notices.set(Vec::new())>"Dismiss"</button>
            </div>
        </Show>
    }
}
