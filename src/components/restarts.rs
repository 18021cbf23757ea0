//! The kubelet restarts, edited two ways: the list in the parameters panel (`RestartList`: each
//! restart's kind, stop and downtime, add, remove) and handles on the figure's "kubelet down" bars
//! (`BarHandles`: drag a bar's stop or return with mouse, touch or pen; or focus it and press
//! ←/→, Shift for 10 s), with the grace-period and eviction marks drawn while one is held. Both
//! go through `restarts.rs` (pure edits) and `Ui` (undo steps); the model judges the result.

use crate::restarts::{self, Edge};
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::{fmt_secs, parse_duration, Restart};
use wasm_bindgen::JsCast;

fn restarts_now(ui: Ui) -> Vec<Restart> {
    ui.settings.with(|s| s.restarts())
}

/// The rows of the list: static markup (numbers only), `n` rows; the values are set by
/// `patch_rows`.
fn rows_html(n: usize) -> String {
    (0..n)
        .map(|i| {
            let k = i + 1;
            format!(
                "<tr data-restart=\"{i}\"><th scope=\"row\">{k}</th><td class=\"what\"></td>\
                 <td><input type=\"text\" id=\"restart-{i}-at\" aria-label=\"Restart {k}: kubelet stops at\"></td>\
                 <td><input type=\"text\" id=\"restart-{i}-down\" aria-label=\"Restart {k}: kubelet down for\"></td>\
                 <td class=\"num back\"></td>\
                 <td><button type=\"button\" class=\"remove\" aria-label=\"Remove restart {k}\" title=\"Remove restart {k}\">✕</button></td></tr>"
            )
        })
        .collect()
}

/// The list's rows for `list` (rebuilt when the count changes; otherwise only the values).
fn patch_rows(body: &web_sys::Element, list: &[Restart], sel: usize) {
    if body.child_element_count() as usize != list.len() {
        body.set_inner_html(&rows_html(list.len()));
    }
    let rows = body.children();
    for (i, r) in list.iter().enumerate() {
        let Some(tr) = rows.item(i as u32) else {
            return;
        };
        let _ = tr.class_list().toggle_with_force("selected", i == sel);
        let cells = tr.get_elements_by_tag_name("input");
        for (k, v) in [r.at_s, r.downtime_s].into_iter().enumerate() {
            if let Some(inp) = cells
                .item(k as u32)
                .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                let text = fmt_secs(v);
                if inp.value() != text {
                    inp.set_value(&text);
                }
            }
        }
        // Each cell written only when its words change: a slider's move changes one time.
        let set_text = |sel: &str, text: &str| {
            if let Some(td) = tr.query_selector(sel).ok().flatten() {
                if td.text_content().as_deref() != Some(text) {
                    td.set_text_content(Some(text));
                }
            }
        };
        set_text(".back", &fmt_secs(r.end_s()));
        let up = r.upgrade_to.map(|v| format!(" → {}", v.as_str()));
        set_text(
            ".what",
            &format!("{}{}", restarts::subject(r.what), up.unwrap_or_default()),
        );
        if let Some(td) = tr.query_selector(".what").ok().flatten() {
            if td.get_attribute("title").as_deref() != Some(r.what.label()) {
                let _ = td.set_attribute("title", r.what.label());
            }
        }
        if let Some(b) = tr.query_selector("button").ok().flatten() {
            let _ = b.toggle_attribute_with_force("disabled", list.len() < 2);
        }
    }
}

/// The row (restart index) an event came from.
fn row_of(ev: &web_sys::Event) -> Option<(web_sys::Element, usize)> {
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let i = el
        .closest("tr")
        .ok()??
        .get_attribute("data-restart")?
        .parse()
        .ok()?;
    Some((el, i))
}

/// The parameters panel's list of kubelet restarts. The rows are plain elements patched in
/// place (`patch_rows`: a view per row would cost the page ~9 KB of wasm); their events are
/// handled on the table body.
#[component]
pub fn RestartList() -> impl IntoView {
    let ui = Ui::get();
    let body = NodeRef::<leptos::html::Tbody>::new();
    Effect::new(move |_| {
        let list = restarts_now(ui);
        let sel = ui.sel_restart.get();
        if let Some(b) = body.get() {
            patch_rows(&b, &list, sel);
        }
    });
    // A value that is not a duration: said next to the list, the list unchanged.
    let typo = RwSignal::new(None::<String>);
    let on_change = move |ev: web_sys::Event| {
        let Some((el, i)) = row_of(&ev) else { return };
        let Some(inp) = el.dyn_ref::<web_sys::HtmlInputElement>() else {
            return;
        };
        let stop = inp.id().ends_with("-at");
        let text = inp.value();
        let Ok(v) = parse_duration(text.trim()) else {
            let what = if stop { "at_s" } else { "downtime_s" };
            typo.set(Some(format!(
                "kubelet.restarts[{i}].{what} must be a duration like 45, 45s or 1m30s; got {:?}",
                text.trim()
            )));
            return;
        };
        typo.set(None);
        ui.sel_restart.set(i);
        ui.edit_restarts(|l| {
            let mut l = l.to_vec();
            if let Some(r) = l.get_mut(i) {
                if stop {
                    r.at_s = v;
                } else {
                    r.downtime_s = v;
                }
            }
            Ok(l)
        });
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some((el, i)) = row_of(&ev) {
            if el.closest("button").ok().flatten().is_some() {
                ui.edit_restarts(|l| restarts::remove(l, i));
            }
        }
    };
    let on_focus = move |ev: web_sys::FocusEvent| {
        if let Some((_, i)) = row_of(&ev) {
            ui.sel_restart.set(i);
        }
    };
    view! {
        <fieldset class="restart-list" id="restart-list">
            <legend>"Kubelet restarts"</legend>
            <table>
                <thead><tr><th scope="col">"#"</th><th scope="col">"What"</th><th scope="col">"Stops at"</th><th scope="col">"Down for"</th><th scope="col" class="back">"Back at"</th><th></th></tr></thead>
                <tbody node_ref=body on:change=on_change on:click=on_click on:focusin=on_focus></tbody>
            </table>
            <p class="restart-actions">
                <button type="button" id="restart-add" on:click=move |_| ui.edit_restarts(|l| restarts::add(l, untrack(|| ui.chosen_kind())))>"Add a restart"</button>
                <small class="range">{format!("Up to {}; durations like 45s or 1m30s. K stops or starts the kubelet at the playhead.", restarts::MAX)}</small>
            </p>
            <p class="field-error" id="restarts-error" role="alert">{move || {
                let msgs: Vec<String> = typo.get().into_iter()
                    .chain(ui.restart_msg.get())
                    .chain(Some(ui.err_for(crate::form::Field::Restarts)).filter(|m| !m.is_empty()))
                    .collect();
                msgs.join("; ")
            }}</p>
        </fieldset>
    }
}

/// A held handle: which restart and edge, and whether playback ran before it.
#[derive(Clone, Copy, PartialEq)]
struct Held {
    i: usize,
    edge: Edge,
    resume: bool,
}

/// "Restart 1: the kubelet stops at 30s, down 20s, back at 50s".
fn valuetext(i: usize, r: &Restart) -> String {
    format!(
        "Restart {}: the {} stops at {}, down {}, back at {}",
        i + 1,
        restarts::subject(r.what),
        fmt_secs(r.at_s),
        fmt_secs(r.downtime_s),
        fmt_secs(r.end_s())
    )
}

fn edge_at(r: &Restart, edge: Edge) -> f64 {
    match edge {
        Edge::Stop => r.at_s,
        Edge::Start => r.end_s(),
    }
}

/// The handle element an event came from: its restart and edge.
fn handle_of(ev: &web_sys::Event) -> Option<(web_sys::HtmlElement, usize, Edge)> {
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let el = el.closest(".bar-edge").ok()??;
    let i = el.get_attribute("data-restart")?.parse().ok()?;
    let edge = if el.class_list().contains("stop") {
        Edge::Stop
    } else {
        Edge::Start
    };
    Some((el.dyn_into().ok()?, i, edge))
}

/// The attributes each handle was last given, by name (only `patch_handles` writes them):
/// compared here, not read back from the element, which cost a call into the browser and a
/// string's decoding per attribute (9 a handle) on every slider move.
type Written = Vec<Vec<(&'static str, String)>>;

fn set(
    el: &web_sys::Element,
    said: &mut Vec<(&'static str, String)>,
    name: &'static str,
    value: &str,
) {
    match said.iter_mut().find(|(n, _)| *n == name) {
        Some((_, v)) if v == value => {}
        Some((_, v)) => {
            let _ = el.set_attribute(name, value);
            value.clone_into(v);
        }
        None => {
            let _ = el.set_attribute(name, value);
            said.push((name, value.to_string()));
        }
    }
}

/// Puts one handle per edge of every restart on every run's kubelet lane (only the first run's
/// in the tab order: the runs share the restarts), reusing the elements there are, so a drag's
/// pointer capture and the keyboard focus survive a recompute.
fn patch_handles(
    host: &web_sys::Element,
    written: &mut Written,
    r: &crate::state::Runs,
    list: &[Restart],
) {
    let doc = document();
    let fig = &r.figure;
    let (w, h) = (fig.width, fig.height.max(1.0));
    let want = fig.groups.len() * list.len() * 2;
    while (host.child_element_count() as usize) < want {
        let Ok(d) = doc.create_element("div") else {
            return;
        };
        let _ = d.set_attribute("role", "slider");
        let _ = d.set_attribute("aria-valuemin", "0");
        if let Ok(g) = doc.create_element("span") {
            let _ = g.set_attribute("class", "grip");
            let _ = g.set_attribute("aria-hidden", "true");
            let _ = d.append_child(&g);
        }
        let _ = host.append_child(&d);
    }
    while host.child_element_count() as usize > want {
        if let Some(last) = host.last_element_child() {
            last.remove();
        }
    }
    written.resize_with(want, Vec::new);
    let max = (r.horizon / 1000).to_string();
    let children = host.children();
    let mut k = 0;
    for (g, gb) in fig.groups.iter().enumerate() {
        for (i, rr) in list.iter().enumerate() {
            for edge in [Edge::Stop, Edge::Start] {
                let Some(el) = children.item(k) else { return };
                let said = &mut written[k as usize];
                k += 1;
                let first = g == 0;
                let t = edge_at(rr, edge);
                let t_ms = (t * 1000.0).round() as i64;
                let kind = if edge == Edge::Stop { "stop" } else { "start" };
                set(&el, said, "class", &format!("bar-edge {kind}"));
                set(&el, said, "tabindex", if first { "0" } else { "-1" });
                set(
                    &el,
                    said,
                    "aria-hidden",
                    if first { "false" } else { "true" },
                );
                set(&el, said, "data-restart", &i.to_string());
                set(
                    &el,
                    said,
                    "aria-label",
                    &format!(
                        "Restart {}: when the {} {}",
                        i + 1,
                        restarts::subject(rr.what),
                        edge.word()
                    ),
                );
                set(&el, said, "aria-valuemax", &max);
                set(&el, said, "aria-valuenow", &crate::form::fmt_num(t));
                set(&el, said, "aria-valuetext", &valuetext(i, rr));
                let style = if t_ms < fig.t0_ms || t_ms > fig.t1_ms {
                    "display:none".to_string()
                } else {
                    format!(
                        "left:{:.3}%;top:{:.3}%;height:{:.3}%",
                        fig.x_of(t_ms) / w * 100.0,
                        gb.kubelet_y / h * 100.0,
                        gb.kubelet_h / h * 100.0
                    )
                };
                set(&el, said, "style", &style);
            }
        }
    }
}

/// The grace-period and eviction marks of restart `i` while one of its handles is held or
/// focused: where its downtime makes the node Unknown and its pods evicted
/// (`Cluster::grace_s`, `eviction_downtime_estimate_s`); a mark past the figure's end is pinned
/// to its right edge, saying when: (class, style, text) of each.
fn marks_of(r: &crate::state::Runs, rr: &Restart) -> [(String, String, String); 2] {
    let c = &r.scenario.cluster;
    let fig = &r.figure;
    let mark = |class: &str, s: f64, text: String| {
        let t_ms = ((rr.at_s + s) * 1000.0).round() as i64;
        let (t_ms, class, text) = if t_ms > fig.t1_ms {
            let when = format!("{text} at {} →", fmt_secs(rr.at_s + s));
            (fig.t1_ms, format!("drag-mark {class} beyond"), when)
        } else {
            (t_ms, format!("drag-mark {class}"), text)
        };
        let left = format!("left:{:.3}%", fig.x_of(t_ms) / fig.width * 100.0);
        (class, left, text)
    };
    // Where this restart's kind makes the node not Ready, and its pods evicted.
    let (first, first_s, ev_s) = restartscope_sim::downtime_marks(c, rr.what);
    let approx = if first == "grace" { "" } else { "≈ " };
    [
        mark(
            "grace",
            first_s,
            format!("{first} {approx}{}", fmt_secs(first_s.round())),
        ),
        mark(
            "evict",
            ev_s,
            format!("eviction ≈ {}", fmt_secs(ev_s.round())),
        ),
    ]
}

/// Handles on each run's "kubelet down" bars, over the figure (inside `.figure`). The handles
/// are plain elements patched in place (`patch_handles`); their events are handled here, on
/// their container.
#[component]
pub fn BarHandles() -> impl IntoView {
    let ui = Ui::get();
    let runs = ui.runs;
    let held = StoredValue::new(None::<Held>);
    // The restart whose marks are shown (held, or focused from the keyboard).
    let marked = RwSignal::new(None::<usize>);
    // What a screen reader hears when a drag ends (the new restart in words).
    let said = RwSignal::new(String::new());
    let host = NodeRef::<leptos::html::Div>::new();
    let written = StoredValue::new_local(Written::new());
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        let list = ui.settings.with(|s| s.restarts());
        runs.with(|r| {
            if let Some(r) = r {
                written.update_value(|w| patch_handles(&el, w, r, &list));
            }
        });
    });
    // Time (s) under the pointer, from the handles' box (the figure's) and the figure's scale.
    let t_at = move |client_x: f64| -> Option<f64> {
        let rect = host.get_untracked()?.get_bounding_client_rect();
        runs.with_untracked(|r| {
            r.as_ref().map(|r| {
                let (x, _) = crate::canvas::figure_point(r.figure.width, &rect, client_x, 0.0);
                r.figure.t_of(x) as f64 / 1000.0
            })
        })
    };
    let on_down = move |ev: web_sys::PointerEvent| {
        let Some((el, i, edge)) = handle_of(&ev) else {
            return;
        };
        ev.stop_propagation();
        ev.prevent_default();
        let _ = el.set_pointer_capture(ev.pointer_id());
        let _ = el.focus();
        let resume = ui.playing.get_untracked();
        ui.playing.set(false);
        ui.sel_restart.set(i);
        ui.fresh_edit.set_value(true);
        held.set_value(Some(Held { i, edge, resume }));
        marked.set(Some(i));
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        let Some(h) = held.get_value() else { return };
        if let Some(t) = t_at(ev.client_x() as f64) {
            ui.settings.update(|s| {
                let next = restarts::move_edge(&s.restarts(), h.i, h.edge, t);
                s.set_restarts(next);
            });
        }
    };
    let on_up = move |_ev: web_sys::PointerEvent| {
        let Some(h) = held.get_value() else { return };
        if let Some(r) = restarts_now(ui).get(h.i) {
            said.set(valuetext(h.i, r));
        }
        held.set_value(None);
        marked.set(None);
        if h.resume {
            ui.playing.set(true);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some((_, i, edge)) = handle_of(&ev) else {
            return;
        };
        let step = if ev.shift_key() { 10.0 } else { 1.0 };
        let d = match ev.key().as_str() {
            "ArrowLeft" | "ArrowDown" => -step,
            "ArrowRight" | "ArrowUp" => step,
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        ui.edit_restarts(|l| {
            let t = l.get(i).map_or(0.0, |r| edge_at(r, edge)) + d;
            Ok(restarts::move_edge(l, i, edge, t))
        });
    };
    let marks = move || {
        let i = marked.get()?;
        let rr = restarts_now(ui).get(i)?.clone();
        runs.with(|r| r.as_ref().map(|r| marks_of(r, &rr)))
    };
    let mark = move |k: usize| {
        view! {
            <div class=move || marks().map_or("drag-mark".into(), |m| m[k].0.clone())
                style=move || marks().map_or("display:none".into(), |m| m[k].1.clone())>
                <span>{move || marks().map(|m| m[k].2.clone())}</span>
            </div>
        }
    };
    view! {
        <div class="bar-handles">
            <div class="bar-edges" node_ref=host
                on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up on:pointercancel=on_up
                on:keydown=on_key
                on:focusin=move |ev: web_sys::FocusEvent| if let Some((_, i, _)) = handle_of(&ev) { ui.sel_restart.set(i); marked.set(Some(i)); }
                on:focusout=move |_| if held.get_value().is_none() { marked.set(None) }></div>
            <div class="drag-marks" aria-hidden="true">{mark(0)}{mark(1)}</div>
            <p class="sr-only" aria-live="polite">{move || said.get()}</p>
        </div>
    }
}
