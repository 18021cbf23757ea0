//! The page (bin `fleet-page`): reads the form and the address, starts a worker per setting
//! change (terminating the previous one: a run in progress is cancelled, and a generation
//! number drops anything it had already posted), shows its progress, paints the results
//! (`draw`) and plays them back: play/pause, a scrubber and one playhead across the heatmaps
//! and charts. Holds no Kubernetes logic: every number and sentence comes from the worker.

use crate::draw::{self, Line};
use crate::js::{esc, get, list, num, text};
use js_sys::{Float32Array, Uint32Array};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{
    Document, Element, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    KeyboardEvent, MessageEvent, Worker,
};

/// The worker's loader (Trunk `data-type="worker"` with `data-loader-shim`).
const WORKER: &str = "./fleet-worker_loader.js";
/// Seconds a whole run takes to play.
const PLAY_S: f64 = 20.0;
/// The form's settings (the CLI's flag names).
const KEYS: [&str; 11] = [
    "nodes",
    "zones",
    "pods-per-node",
    "services",
    "batch",
    "downtime",
    "pause",
    "wait-ready",
    "version",
    "policy",
    "seed",
];

/// One run's series, for the readout at the playhead.
struct Run {
    label: String,
    writes: Vec<f64>,
    slices: Vec<f64>,
    down: Vec<f64>,
    /// The lowest ready-endpoint share over the Services, each second.
    share: Vec<f64>,
}

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

fn doc() -> Document {
    web_sys::window().unwrap().document().unwrap()
}

fn el(id: &str) -> HtmlElement {
    doc()
        .get_element_by_id(id)
        .unwrap_or_else(|| panic!("#{id} missing"))
        .unchecked_into()
}

fn on(target: &web_sys::EventTarget, ev: &str, f: impl FnMut(web_sys::Event) + 'static) {
    let c = Closure::<dyn FnMut(web_sys::Event)>::new(f);
    let _ = target.add_event_listener_with_callback(ev, c.as_ref().unchecked_ref());
    c.forget();
}

fn set_attr(e: &Element, k: &str, v: &str) {
    let _ = e.set_attribute(k, v);
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
    let w = match Worker::new_with_options(WORKER, &opts) {
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
    if sel.length() == 0 {
        for v in list(d, "versions") {
            let v = v.as_string().unwrap_or_default();
            let o = doc().create_element("option").unwrap();
            set_attr(&o, "value", &v);
            o.set_text_content(Some(&v));
            let _ = sel.append_child(&o);
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

fn floats(v: &JsValue) -> Vec<f64> {
    if let Some(a) = v.dyn_ref::<Uint32Array>() {
        a.to_vec().into_iter().map(f64::from).collect()
    } else if let Some(a) = v.dyn_ref::<Float32Array>() {
        a.to_vec().into_iter().map(f64::from).collect()
    } else {
        Vec::new()
    }
}

fn on_result(d: &JsValue) {
    let runs_js = list(d, "runs");
    let horizon = ST.with(|s| s.borrow().horizon);
    let mut runs = Vec::new();
    let mut html = String::new();
    let mut shares_all: Vec<Vec<Vec<f64>>> = Vec::new();
    for r in &runs_js {
        let share: Vec<Vec<f64>> = list(r, "share").iter().map(floats).collect();
        let len = floats(&get(r, "down")).len();
        let lowest: Vec<f64> = (0..len)
            .map(|i| share.iter().map(|s| s[i]).fold(1.0, f64::min))
            .collect();
        runs.push(Run {
            label: text(r, "label"),
            writes: floats(&get(r, "writes")),
            slices: floats(&get(r, "slices")),
            down: floats(&get(r, "down")),
            share: lowest,
        });
        shares_all.push(share);
    }
    let top = |f: fn(&Run) -> &Vec<f64>| {
        runs.iter()
            .flat_map(|r| f(r).iter().copied())
            .fold(0.0, f64::max)
    };
    let (tw, ts, td) = (top(|r| &r.writes), top(|r| &r.slices), top(|r| &r.down));
    for (i, (r, run)) in runs_js.iter().zip(&runs).enumerate() {
        let span = num(r, "cols") * num(r, "col_s");
        let secs = run.down.len().saturating_sub(1).max(1) as f64;
        let cls = ["l0", "l1", "l2", "l3", "l4"];
        let mut share_lines: Vec<Line> = shares_all[i]
            .iter()
            .take(5)
            .enumerate()
            .map(|(k, v)| Line {
                values: draw::reduce(v, true),
                class: cls[k],
            })
            .collect();
        if shares_all[i].len() > 5 {
            share_lines.push(Line {
                values: draw::reduce(&run.share, true),
                class: "lmin",
            });
        }
        let chart = |title: &str, lines: Vec<Line>, top: f64, unit: &str| {
            let label = format!("{title}, {}", run.label);
            format!(
                r#"<figure class="series"><figcaption>{}</figcaption><div class="plot">{}<div class="playhead" data-span="{secs}"></div></div></figure>"#,
                esc(title),
                draw::chart(&label, &lines, secs, top, unit)
            )
        };
        let one = |v: &Vec<f64>| {
            vec![Line {
                values: draw::reduce(v, false),
                class: "l0",
            }]
        };
        html.push_str(&format!(
            r#"<section class="run" aria-labelledby="run-{i}"><h2 id="run-{i}">{label}</h2>
<figure class="heat"><figcaption>Ready pods per node (rows: {nodes} nodes, top = node 0; columns: {col} s each)</figcaption>
<div class="plot"><canvas id="heat-{i}" role="img" aria-label="Heatmap of Ready pods per node over time, {label}"></canvas><div class="playhead" data-span="{span}"></div></div></figure>
{}{}{}{}</section>"#,
            chart(
                "Ready endpoints per Service (share)",
                share_lines,
                1.0,
                "= all"
            ),
            chart("Pod status writes per second", one(&run.writes), tw, "/s"),
            chart("EndpointSlice updates per second", one(&run.slices), ts, "/s"),
            chart("Nodes not Ready", one(&run.down), td, "nodes"),
            label = esc(&run.label),
            nodes = num(r, "nodes"),
            col = num(r, "col_s"),
        ));
    }
    el("runs").set_inner_html(&html);
    for (i, r) in runs_js.iter().enumerate() {
        let c: HtmlCanvasElement = el(&format!("heat-{i}")).unchecked_into();
        draw::paint_heat(
            &c,
            get(r, "heat").unchecked_ref(),
            num(r, "heat_w") as u32,
            num(r, "heat_h") as u32,
        );
    }
    totals_table(d, &runs_js);
    el("words").set_text_content(Some(&text(d, "words")));
    samples(d, &runs_js);
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
    ST.with(|s| {
        let mut s = s.borrow_mut();
        s.runs = runs;
        s.horizon = horizon;
    });
    seek(0.0);
}

fn totals_table(d: &JsValue, runs: &[JsValue]) {
    let keys: Vec<String> = list(d, "keys")
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    let mut h = String::from(
        r#"<caption>Totals over the whole run</caption><thead><tr><th scope="col">metric</th>"#,
    );
    for r in runs {
        h.push_str(&format!(
            r#"<th scope="col">{}</th>"#,
            esc(&text(r, "label"))
        ));
    }
    if runs.len() == 2 {
        h.push_str(r#"<th scope="col">KEP saves</th>"#);
    }
    h.push_str("</tr></thead><tbody>");
    for (row, key) in list(d, "rows").iter().zip(&keys) {
        let cells: Vec<String> = js_sys::Array::from(row)
            .iter()
            .filter_map(|c| c.as_string())
            .collect();
        h.push_str(&format!(
            r#"<tr data-key="{key}"><th scope="row">{}</th>"#,
            esc(&cells[0])
        ));
        for (j, c) in cells.iter().enumerate().skip(1) {
            let run = runs.get(j - 1).map(|r| text(r, "policy"));
            let attr = run.map_or(String::new(), |p| format!(r#" data-policy="{p}""#));
            h.push_str(&format!("<td{attr}>{}</td>", esc(c)));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody>");
    el("totals").set_inner_html(&h);
}

fn samples(d: &JsValue, runs: &[JsValue]) {
    let mut h = String::new();
    for r in runs {
        h.push_str(&format!("<h3>{}</h3><ul>", esc(&text(r, "label"))));
        for s in list(r, "samples") {
            h.push_str(&format!(
                "<li>{}</li>",
                esc(&s.as_string().unwrap_or_default())
            ));
        }
        h.push_str("</ul>");
    }
    let link = get(d, "link");
    if let Some(l) = link.as_string() {
        h.push_str(&format!(
            r#"<p>The single-node view cannot load a fleet node (its pods are the fleet's template) by link; <a href="{}">the same restart (release, downtime, start, seed) with the short-restart preset's pods</a> shows the mechanism one node at a time.</p>"#,
            esc(&l)
        ));
    }
    el("samples").set_inner_html(&h);
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
