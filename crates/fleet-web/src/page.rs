//! The page (bin `fleet-page`): reads the form and the address, starts a worker per setting
//! change (terminating the previous one: a run in progress is cancelled, and a generation
//! number drops anything it had already posted), shows its progress, paints the results
//! (`draw`) and plays them back: play/pause, a scrubber and one playhead across the heatmaps
//! and charts. Holds no Kubernetes logic: every number and sentence comes from the worker.

use crate::dom::{doc, el, on, set_attr};
use crate::draw;
use crate::js::{esc, get, list, num, text};
use crate::results::{self, Run};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{
    Element, HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent, MessageEvent, Worker,
};

/// The worker's loader (Trunk `data-type="worker"` with `data-loader-shim`) as Trunk names it;
/// a release build's is content-hashed and named by the page's `<meta name="fleet-worker">`
/// (`scripts/hash-workers.sh`), so a cached worker never runs against a newer page.
const WORKER: &str = "./fleet-worker_loader.js";

/// The worker's URL: the page's `fleet-worker` meta, else Trunk's name.
fn worker_url() -> String {
    doc()
        .query_selector("meta[name=fleet-worker]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_else(|| WORKER.to_string())
}

/// Seconds a whole run takes to play.
const PLAY_S: f64 = 20.0;
/// The form's settings: the CLI's flag names, from the model's one list (a constant: no model
/// code comes into the page).
use restartscope_sim::fleet::edit::KEYS;

#[derive(Default)]
struct State {
    worker: Option<Worker>,
    generation: u32,
    runs: Vec<Run>,
    horizon: f64,
    t: f64,
    playing: bool,
    last_frame: Option<f64>,
    theme: Option<String>,
    raf: Option<Closure<dyn FnMut(f64)>>,
}

thread_local! {
    static ST: RefCell<State> = RefCell::new(State::default());
}

pub fn start() {
    console_panic();
    let q = location_query();
    let theme = param(&q, "theme").filter(|t| t == "light" || t == "dark");
    let dark = theme.as_deref() == Some("dark")
        || (theme.is_none()
            && web_sys::window()
                .unwrap()
                .match_media("(prefers-color-scheme: dark)")
                .ok()
                .flatten()
                .is_some_and(|m| m.matches()));
    apply_theme(dark);
    ST.with(|s| s.borrow_mut().theme = theme);
    let form = el("settings");
    on(&form, "change", |_| {
        let q = form_query();
        push_query(&q, false);
        compute(&q);
    });
    on(&form, "submit", |e| {
        e.prevent_default();
        let q = form_query();
        push_query(&q, false);
        compute(&q);
    });
    on(&el("theme"), "click", |_| {
        let dark = doc()
            .document_element()
            .unwrap()
            .get_attribute("data-theme")
            != Some("dark".into());
        apply_theme(dark);
        ST.with(|s| s.borrow_mut().theme = Some(if dark { "dark" } else { "light" }.into()));
        push_query(&location_query(), true);
    });
    on(&el("play"), "click", |_| toggle_play());
    on(&el("scrub"), "input", |_| {
        let v: HtmlInputElement = el("scrub").unchecked_into();
        seek(v.value_as_number());
    });
    on(&web_sys::window().unwrap(), "popstate", |_| {
        compute(&location_query());
    });
    on(&web_sys::window().unwrap(), "keydown", |e| {
        let k: KeyboardEvent = e.unchecked_into();
        let tag = k
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .map(|e| e.tag_name())
            .unwrap_or_default();
        let typing = matches!(
            tag.as_str(),
            "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON" | "A"
        );
        if k.ctrl_key() || k.meta_key() || k.alt_key() || typing {
            return;
        }
        match k.key().as_str() {
            " " => {
                k.prevent_default();
                toggle_play();
            }
            "Home" => seek(0.0),
            _ => {}
        }
    });
    compute(&q);
}

fn console_panic() {
    std::panic::set_hook(Box::new(|p| {
        web_sys::console::error_1(&p.to_string().into());
    }));
}

fn location_query() -> String {
    let s = web_sys::window()
        .unwrap()
        .location()
        .search()
        .unwrap_or_default();
    s.trim_start_matches('?').to_string()
}

fn param(q: &str, k: &str) -> Option<String> {
    web_sys::UrlSearchParams::new_with_str(q).ok()?.get(k)
}

/// The form's settings as a query string.
fn form_query() -> String {
    let p = web_sys::UrlSearchParams::new().unwrap();
    for k in KEYS {
        let Some(e) = doc().get_element_by_id(&format!("f-{k}")) else {
            continue;
        };
        let v = if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
            if i.type_() == "checkbox" {
                i.checked().to_string()
            } else {
                i.value()
            }
        } else if let Some(s) = e.dyn_ref::<HtmlSelectElement>() {
            s.value()
        } else {
            continue;
        };
        p.append(k, v.trim());
    }
    p.to_string().as_string().unwrap_or_default()
}

/// Puts `q` (plus the theme, if chosen) in the address: a new entry, or the current one.
fn push_query(q: &str, replace: bool) {
    let p = web_sys::UrlSearchParams::new_with_str(q).unwrap();
    p.delete("theme");
    if let Some(t) = ST.with(|s| s.borrow().theme.clone()) {
        p.append("theme", &t);
    }
    let url = format!("?{}", p.to_string().as_string().unwrap_or_default());
    if url == format!("?{}", location_query()) {
        return;
    }
    let h = web_sys::window().unwrap().history().unwrap();
    let _ = if replace {
        h.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        h.push_state_with_url(&JsValue::NULL, "", Some(&url))
    };
}

fn apply_theme(dark: bool) {
    let root = doc().document_element().unwrap();
    set_attr(&root, "data-theme", if dark { "dark" } else { "light" });
    let b = el("theme");
    b.set_text_content(Some(if dark { "Light theme" } else { "Dark theme" }));
    set_attr(&b, "aria-pressed", if dark { "true" } else { "false" });
}

/// Cancels the run in progress (terminates its worker) and starts one for `q`.
fn compute(q: &str) {
    let generation = ST.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(w) = s.worker.take() {
            w.terminate();
        }
        s.generation += 1;
        s.playing = false;
        s.generation
    });
    let main = el("main");
    set_attr(&main, "data-state", "computing");
    set_attr(&main, "aria-busy", "true");
    set_progress(0.0, "Starting the model…");
    el("play").set_text_content(Some("Play"));
    let opts = web_sys::WorkerOptions::new();
    let w = match Worker::new_with_options(&worker_url(), &opts) {
        Ok(w) => w,
        Err(e) => {
            web_sys::console::error_2(&"fleet worker".into(), &e);
            return;
        }
    };
    let query = q.to_string();
    let onmsg = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        if ST.with(|s| s.borrow().generation) != generation {
            return; // a cancelled run
        }
        let d = e.data();
        match text(&d, "kind").as_str() {
            "ready" => ST.with(|s| {
                if let Some(w) = &s.borrow().worker {
                    let _ = w.post_message(&JsValue::from_str(&query));
                }
            }),
            "settings" => on_settings(&d),
            "progress" => {
                let x = num(&d, "share");
                set_progress(x, &format!("Computing… {:.0} %", x * 100.0));
            }
            "result" => on_result(&d),
            _ => {
                set_progress(0.0, &text(&d, "message"));
                set_attr(&el("main"), "data-state", "error");
            }
        }
    });
    w.set_onmessage(Some(onmsg.as_ref().unchecked_ref()));
    onmsg.forget();
    ST.with(|s| s.borrow_mut().worker = Some(w));
}

fn set_progress(x: f64, label: &str) {
    let p: web_sys::HtmlProgressElement = el("progress").unchecked_into();
    p.set_value(x);
    el("progress-text").set_text_content(Some(label));
}

fn on_settings(d: &JsValue) {
    let values = get(d, "values");
    let sel: HtmlSelectElement = el("f-version").unchecked_into();
    let up: HtmlSelectElement = el("f-upgrade-to").unchecked_into();
    if sel.length() == 0 {
        for v in list(d, "versions") {
            let v = v.as_string().unwrap_or_default();
            // The same releases for the in-place upgrade's target (after "none").
            for s in [&sel, &up] {
                let o = doc().create_element("option").unwrap();
                set_attr(&o, "value", &v);
                o.set_text_content(Some(&v));
                let _ = s.append_child(&o);
            }
        }
    }
    let focused = doc().active_element();
    let used = web_sys::UrlSearchParams::new().unwrap();
    for k in KEYS {
        let v = text(&values, k);
        used.append(k, &v);
        let Some(e) = doc().get_element_by_id(&format!("f-{k}")) else {
            continue;
        };
        if focused.as_ref() == Some(&e) {
            continue; // being edited: its change starts the next run
        }
        if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
            if i.type_() == "checkbox" {
                i.set_checked(v == "true");
            } else {
                i.set_value(&v);
            }
        } else if let Some(s) = e.dyn_ref::<HtmlSelectElement>() {
            s.set_value(&v);
        }
    }
    // The address holds what runs (a rejected value never stays there).
    push_query(&used.to_string().as_string().unwrap_or_default(), true);
    let notes: Vec<String> = list(d, "notice")
        .iter()
        .filter_map(|n| n.as_string())
        .collect();
    let n = el("notice");
    if notes.is_empty() {
        n.set_hidden(true);
    } else {
        let more = match notes.len() {
            1 => String::new(),
            k => format!(" (and {} more)", k - 1),
        };
        n.set_text_content(Some(&format!("{}{more}", notes[0])));
        n.set_hidden(false);
    }
    el("summary").set_text_content(Some(&text(d, "summary")));
    let version = text(&values, "version");
    let back: Element = el("back").into();
    set_attr(&back, "href", &format!("../?version={version}"));
    let horizon = num(d, "horizon_s");
    let scrub: HtmlInputElement = el("scrub").unchecked_into();
    scrub.set_max(&horizon.to_string());
    scrub.set_value("0");
    ST.with(|s| {
        let mut s = s.borrow_mut();
        s.horizon = horizon;
        s.t = 0.0;
        s.runs.clear();
    });
    // Placeholders for the runs (their labels), filled when the result comes.
    let html: String = list(d, "labels")
        .iter()
        .filter_map(|l| l.as_string())
        .map(|l| {
            format!(
                r#"<section class="run"><h2>{}</h2><p>Computing…</p></section>"#,
                esc(&l)
            )
        })
        .collect();
    el("runs").set_inner_html(&html);
    el("totals").set_inner_html("");
    el("words").set_text_content(None);
    el("samples").set_inner_html("");
}

fn toggle_play() {
    let (playing, done) = ST.with(|s| {
        let mut s = s.borrow_mut();
        let done = !s.runs.is_empty();
        if done {
            s.playing = !s.playing;
            if s.playing && s.t >= s.horizon {
                s.t = 0.0;
            }
            s.last_frame = None;
        }
        (s.playing, done)
    });
    if !done {
        return;
    }
    let b = el("play");
    b.set_text_content(Some(if playing { "Pause" } else { "Play" }));
    set_attr(&b, "aria-pressed", if playing { "true" } else { "false" });
    if playing {
        request_frame();
    }
}

fn request_frame() {
    ST.with(|s| {
        let mut s = s.borrow_mut();
        if s.raf.is_none() {
            s.raf = Some(Closure::new(frame));
        }
        if let Some(c) = &s.raf {
            let _ = web_sys::window()
                .unwrap()
                .request_animation_frame(c.as_ref().unchecked_ref());
        }
    });
}

fn frame(now: f64) {
    let next = ST.with(|s| {
        let mut s = s.borrow_mut();
        if !s.playing {
            return None;
        }
        let dt = s.last_frame.map_or(0.0, |l| (now - l) / 1000.0);
        s.last_frame = Some(now);
        s.t = (s.t + dt * s.horizon / PLAY_S).min(s.horizon);
        if s.t >= s.horizon {
            s.playing = false;
        }
        Some((s.t, s.playing))
    });
    let Some((t, playing)) = next else {
        return;
    };
    show_time(t);
    if playing {
        request_frame();
    } else {
        el("play").set_text_content(Some("Play"));
        set_attr(&el("play"), "aria-pressed", "false");
    }
}

fn seek(t: f64) {
    let t = ST.with(|s| {
        let mut s = s.borrow_mut();
        s.t = t.clamp(0.0, s.horizon);
        s.t
    });
    show_time(t);
}

/// Moves the playheads, the scrubber and the readout to `t` seconds.
fn show_time(t: f64) {
    let heads = doc().query_selector_all(".playhead").unwrap();
    for i in 0..heads.length() {
        let Some(h) = heads.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else {
            continue;
        };
        let span: f64 = h
            .get_attribute("data-span")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.0);
        let _ = h
            .style()
            .set_property("left", &format!("{:.3}%", (t / span * 100.0).min(100.0)));
    }
    let scrub: HtmlInputElement = el("scrub").unchecked_into();
    scrub.set_value_as_number(t);
    let secs = t.floor() as usize;
    let clock = format!("{} s", secs);
    set_attr(&scrub, "aria-valuetext", &clock);
    el("clock").set_text_content(Some(&clock));
    let text = ST.with(|s| {
        s.borrow()
            .runs
            .iter()
            .map(|r| {
                let at = |v: &Vec<f64>| v.get(secs).copied().unwrap_or(0.0);
                format!(
                    "{}: {} status writes/s, {} slice updates/s, {} nodes not Ready, lowest ready-endpoint share {:.0} %",
                    r.label,
                    draw::fmt_num(at(&r.writes)),
                    draw::fmt_num(at(&r.slices)),
                    draw::fmt_num(at(&r.down)),
                    at(&r.share) * 100.0
                )
            })
            .collect::<Vec<_>>()
            .join(" · ")
    });
    el("readout").set_text_content(Some(&text));
}

fn on_result(d: &JsValue) {
    let runs = results::render(d);
    let main = el("main");
    set_attr(&main, "data-state", "done");
    set_attr(&main, "aria-busy", "false");
    set_attr(
        &main,
        "data-elapsed-ms",
        &format!("{:.0}", num(d, "elapsed_ms")),
    );
    set_attr(
        &main,
        "data-wasm-memory",
        &format!("{:.0}", num(d, "wasm_memory_bytes")),
    );
    set_progress(
        1.0,
        &format!("Done: computed in {:.2} s", num(d, "elapsed_ms") / 1000.0),
    );
    ST.with(|s| s.borrow_mut().runs = runs);
    seek(0.0);
}
