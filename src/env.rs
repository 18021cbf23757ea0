//! The reader's environment: colour scheme, reduced motion, and whether the page can be seen
//! (hidden tab, or an embedding iframe scrolled out of view).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn media(q: &str) -> Option<web_sys::MediaQueryList> {
    web_sys::window()?.match_media(q).ok().flatten()
}

pub fn prefers_reduced_motion() -> bool {
    media("(prefers-reduced-motion: reduce)").is_some_and(|m| m.matches())
}

pub fn prefers_dark() -> bool {
    media("(prefers-color-scheme: dark)").is_some_and(|m| m.matches())
}

pub fn watch_system_dark(sig: RwSignal<bool>) {
    let Some(m) = media("(prefers-color-scheme: dark)") else {
        return;
    };
    let cb = Closure::<dyn FnMut()>::new(move || sig.set(prefers_dark()));
    let _ = m.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
    cb.forget();
}

/// `visible` is false while the tab is hidden or the page is scrolled out of its viewport
/// (an iframe's viewport is the embedding page's).
pub fn watch_visibility(visible: RwSignal<bool>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let tab_visible = RwSignal::new(doc.visibility_state() == web_sys::VisibilityState::Visible);
    let on_screen = RwSignal::new(true);
    Effect::new(move |_| visible.set(tab_visible.get() && on_screen.get()));
    let d2 = doc.clone();
    let cb = Closure::<dyn FnMut()>::new(move || {
        tab_visible.set(d2.visibility_state() == web_sys::VisibilityState::Visible)
    });
    let _ = doc.add_event_listener_with_callback("visibilitychange", cb.as_ref().unchecked_ref());
    cb.forget();
    let io_cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(e) = entries
            .iter()
            .last()
            .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
        {
            on_screen.set(e.is_intersecting());
        }
    });
    if let Ok(io) = web_sys::IntersectionObserver::new(io_cb.as_ref().unchecked_ref()) {
        if let Some(root) = doc.document_element() {
            io.observe(&root);
        }
    }
    io_cb.forget();
}
