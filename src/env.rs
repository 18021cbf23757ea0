//! The reader's environment: colour scheme, reduced motion, and whether the page can be seen
//! (hidden tab, or an embedding iframe scrolled out of view).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn media(q: &str) -> Option<web_sys::MediaQueryList> {
    web_sys::window()?.match_media(q).ok().flatten()
}

/// A number the model wrote (`"59721000"`, `"12.5"`) as the reader's locale writes it
/// (`Intl.NumberFormat`: "59,721,000" in en, "59.721.000" in de), with the same decimals; text
/// that is not a number is left as it is. Exports keep one fixed grouping (`restartscope_sim::group`).
pub fn locale_number(raw: &str) -> String {
    let Ok(v) = raw.parse::<f64>() else {
        return raw.to_string();
    };
    let decimals = raw.split_once('.').map_or(0, |(_, d)| d.len()) as u32;
    number_format(decimals)
        .call1(&JsValue::UNDEFINED, &v.into())
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| raw.to_string())
}

thread_local! {
    /// One `Intl.NumberFormat`'s bound `format` per count of decimals: making one per number
    /// put 38–40 ms of a page load's CPU profile in its constructor (the metrics' numbers).
    static FORMATS: std::cell::RefCell<Vec<(u32, js_sys::Function)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn number_format(decimals: u32) -> js_sys::Function {
    FORMATS.with_borrow_mut(|fs| {
        if let Some((_, f)) = fs.iter().find(|(d, _)| *d == decimals) {
            return f.clone();
        }
        let opts = js_sys::Object::new();
        for k in ["minimumFractionDigits", "maximumFractionDigits"] {
            let _ = js_sys::Reflect::set(&opts, &k.into(), &decimals.into());
        }
        let f = js_sys::Intl::NumberFormat::new(&js_sys::Array::new(), &opts).format();
        fs.push((decimals, f.clone()));
        f
    })
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

/// CSS px width of the figure (`#figure`), in 10-px steps; before it is on the page, the
/// window's width less the page margins. Measured on the figure's section less the figure's
/// 1-px borders: the presenter's window shows the figure narrower than that when even its
/// shortest layout is taller than the height left (style/main.css), and the layout must not
/// follow that width down.
pub fn figure_width() -> f64 {
    let Some(win) = web_sys::window() else {
        return 1200.0;
    };
    let shown = win
        .document()
        .and_then(|d| d.get_element_by_id("figure"))
        .and_then(|el| el.parent_element())
        .map(|el| el.client_width() as f64 - 2.0)
        .filter(|w| *w > 0.0);
    let w = shown.unwrap_or_else(|| {
        win.inner_width()
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(1200.0)
            - 24.0
    });
    (w / 10.0).floor() * 10.0
}

/// CSS px height of the window, in 10-px steps.
pub fn view_height() -> f64 {
    let h = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(720.0);
    (h / 10.0).floor() * 10.0
}

/// CSS px from the top of the page to the figure's (`#figure`), in 10-px steps rounded up;
/// `None` before it is on the page.
pub fn figure_top() -> Option<f64> {
    let win = web_sys::window()?;
    let el = win.document()?.get_element_by_id("figure")?;
    let top = el.get_bounding_client_rect().top() + win.scroll_y().unwrap_or(0.0);
    Some((top / 10.0).ceil() * 10.0)
}

/// The window's device pixel ratio.
pub fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio())
}

/// Keeps `dpr` equal to [`device_pixel_ratio`]: a zoom, or the window moved to another screen,
/// ends the match of `(resolution: …dppx)` for the ratio now; each listener acts once.
pub fn watch_pixel_ratio(dpr: RwSignal<f64>) {
    let d = sync_pixel_ratio(dpr);
    let Some(m) = media(&format!("(resolution: {d}dppx)")) else {
        return;
    };
    let mut fired = false;
    let cb = Closure::<dyn FnMut()>::new(move || {
        if !std::mem::replace(&mut fired, true) {
            watch_pixel_ratio(dpr);
        }
    });
    let _ = m.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
    cb.forget();
}

/// Sets `dpr` to [`device_pixel_ratio`] if it differs, and returns it.
fn sync_pixel_ratio(dpr: RwSignal<f64>) -> f64 {
    let d = device_pixel_ratio();
    if d != dpr.get_untracked() {
        dpr.set(d);
    }
    d
}

/// Keeps `width` equal to [`figure_width`], `height` to [`view_height`] and `top` to
/// [`figure_top`] (and `dpr`, which a zoom changes with the size): once the page is mounted,
/// after the first paint, on every resize, and after `relayout` changes (a view mode that moves
/// the figure).
pub fn watch_figure_size(
    width: RwSignal<f64>,
    height: RwSignal<f64>,
    top: RwSignal<f64>,
    dpr: RwSignal<f64>,
    relayout: impl Fn() + 'static,
) {
    let update = move || {
        sync_pixel_ratio(dpr);
        let w = figure_width();
        if (w - width.get_untracked()).abs() >= 10.0 {
            width.set(w);
        }
        let h = view_height();
        if h != height.get_untracked() {
            height.set(h);
        }
        if let Some(t) = figure_top() {
            if t != top.get_untracked() {
                top.set(t);
            }
        }
    };
    request_animation_frame(update);
    let handle = window_event_listener(leptos::ev::resize, move |_| update());
    std::mem::forget(handle);
    Effect::new(move |first: Option<()>| {
        relayout();
        if first.is_some() {
            request_animation_frame(update);
        } else {
            // The first run comes after the mount, with the page on the document and before
            // the figure's own effect (created later) has laid it out: measured now, the figure
            // is laid out and drawn once, at its size, not first at the window's width guess
            // and again a frame later (a second model run and a visible jump).
            update();
        }
    });
}

thread_local! {
    /// The window's `Performance`, looked up once: `window()` and `.performance()` are two calls
    /// into the browser each (0.1 ms of a slider move's profile, read several times a move).
    static PERF: Option<web_sys::Performance> = web_sys::window().and_then(|w| w.performance());
}

/// `performance.now()` (ms since the page's start; 0 where there is no window).
pub fn now_ms() -> f64 {
    PERF.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}
