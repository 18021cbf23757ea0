//! RestartScope web app (Leptos CSR): renders traces of the `restartscope-sim` model, read
//! through `restartscope-report` (timeline, notable events, metrics, why, kubectl rows) and drawn
//! by `restartscope-figure`. It holds no Kubernetes logic of its own.

pub mod app;
pub mod canvas;
pub mod components;
pub mod custom;
pub mod env;
pub mod export;
pub mod fit;
pub mod form;
pub mod imported;
pub mod importer;
pub mod keys;
pub mod memo;
pub mod pack;
pub mod playback;
pub mod present;
pub mod probes;
pub mod rest;
pub mod restarts;
pub mod state;
pub mod tour;
pub mod ui;
pub mod url;
pub mod words;

use wasm_bindgen::JsCast;

/// Whether a query string asks for the fleet view (`view=fleet`).
pub fn fleet_view(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .any(|kv| kv == "view=fleet")
}

/// Mounts the app and installs the panic panel.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_fatal(&info.to_string());
    }));
    // `?view=fleet…` is the fleet view, its own bundle under fleet/ (loaded only when opened):
    // the same query goes there.
    if let Some(loc) = web_sys::window().map(|w| w.location()) {
        let search = loc.search().unwrap_or_default();
        if fleet_view(&search) {
            let _ = loc.replace(&format!("fleet/{search}"));
            return;
        }
    }
    // The static loading skeleton of index.html gives way to the app.
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("skeleton"))
    {
        el.remove();
    }
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let q = search.clone();
    tour::preload(&search, move || {
        imported::preload(&q, || leptos::mount::mount_to_body(app::App))
    });
    if let Some(w) = web_sys::window() {
        if w.location()
            .search()
            .unwrap_or_default()
            .contains("debug-panic=1")
        {
            panic!("debug-panic=1 asked for a test panic");
        }
    }
}

/// A visible error panel with a reload button: a panic never leaves a blank page.
pub fn show_fatal(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.get_element_by_id("fatal").is_some() {
        return;
    }
    let Ok(div) = doc.create_element("div") else {
        return;
    };
    div.set_id("fatal");
    let _ = div.set_attribute("role", "alert");
    let esc = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    div.set_inner_html(&format!(
        "<h2>RestartScope hit an internal error</h2><p>Nothing you did is lost from the link; \
         reload to start again.</p><pre>{esc}</pre><button type=\"button\" id=\"fatal-reload\">Reload</button>"
    ));
    if let Some(body) = doc.body() {
        let _ = body.append_child(&div);
    }
    if let Some(btn) = doc.get_element_by_id("fatal-reload") {
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(|| {
            if let Some(w) = web_sys::window() {
                let _ = w.location().reload();
            }
        });
        if let Ok(el) = btn.dyn_into::<web_sys::HtmlElement>() {
            el.set_onclick(Some(cb.as_ref().unchecked_ref()));
        }
        cb.forget();
    }
}
