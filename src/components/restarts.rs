//! The kubelet restarts, edited two ways: the list in the parameters panel (`RestartList`: each
//! restart's stop and downtime, add, remove) and handles on the figure's "kubelet down" bars
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

/// The parameters panel's list of kubelet restarts.
#[component]
pub fn RestartList() -> impl IntoView {
    let ui = Ui::get();
    let count = Memo::new(move |_| ui.settings.with(|s| s.more_restarts.len() + 1));
    // A value that is not a duration: said next to the list, the list unchanged.
    let typo = RwSignal::new(None::<String>);
    let set = move |i: usize, edge: Edge, text: String| {
        let Ok(v) = parse_duration(text.trim()) else {
            let what = if edge == Edge::Stop {
                "at_s"
            } else {
                "downtime_s"
            };
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
                match edge {
                    Edge::Stop => r.at_s = v,
                    Edge::Start => r.downtime_s = v,
                }
            }
            Ok(l)
        });
    };
    let row = move |i: usize| {
        let r = move || restarts_now(ui).get(i).cloned();
        let at = move || r().map_or(String::new(), |r| fmt_secs(r.at_s));
        let down = move || r().map_or(String::new(), |r| fmt_secs(r.downtime_s));
        let back = move || r().map_or(String::new(), |r| fmt_secs(r.end_s()));
        view! {
            <tr class:selected=move || ui.sel_restart.get() == i>
                <th scope="row">{i + 1}</th>
                <td><input type="text" id=format!("restart-{i}-at") aria-label=format!("Restart {}: kubelet stops at", i + 1)
                    prop:value=at on:focus=move |_| ui.sel_restart.set(i)
                    on:change=move |ev| set(i, Edge::Stop, event_target_value(&ev)) /></td>
                <td><input type="text" id=format!("restart-{i}-down") aria-label=format!("Restart {}: kubelet down for", i + 1)
                    prop:value=down on:focus=move |_| ui.sel_restart.set(i)
                    on:change=move |ev| set(i, Edge::Start, event_target_value(&ev)) /></td>
                <td class="num back">{back}</td>
                <td><button type="button" class="remove" aria-label=format!("Remove restart {}", i + 1)
                    title=format!("Remove restart {}", i + 1)
                    disabled=move || count.get() < 2
                    on:click=move |_| ui.edit_restarts(|l| restarts::remove(l, i))>"✕"</button></td>
            </tr>
        }
    };
    view! {
        <fieldset class="restart-list" id="restart-list">
            <legend>"Kubelet restarts"</legend>
            <table>
                <thead><tr><th scope="col">"#"</th><th scope="col">"Stops at"</th><th scope="col">"Down for"</th><th scope="col" class="back">"Back at"</th><th></th></tr></thead>
                <tbody>{move || (0..count.get()).map(row).collect_view()}</tbody>
            </table>
            <p class="restart-actions">
                <button type="button" id="restart-add" on:click=move |_| ui.edit_restarts(restarts::add)>"Add a restart"</button>
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

/// "Restart 1: the kubelet stops at 30 s, down 20 s".
fn valuetext(i: usize, r: &Restart) -> String {
    format!(
        "Restart {}: the kubelet stops at {}, down {}, back at {}",
        i + 1,
        fmt_secs(r.at_s),
        fmt_secs(r.downtime_s),
        fmt_secs(r.end_s())
    )
}

/// Handles on each run's "kubelet down" bars, over the figure (inside `.figure`).
#[component]
pub fn BarHandles() -> impl IntoView {
    let ui = Ui::get();
    let runs = ui.runs;
    let held = RwSignal::new(None::<Held>);
    // The restart whose marks are shown (held, or focused from the keyboard).
    let marked = RwSignal::new(None::<usize>);
    let layer = NodeRef::<leptos::html::Div>::new();
    // Time (s) under the pointer, from the layer (the figure's box) and the figure's scale.
    let t_at = move |client_x: f64| -> Option<f64> {
        let el = layer.get_untracked()?;
        let rect = el.get_bounding_client_rect();
        runs.with_untracked(|r| {
            r.as_ref().map(|r| {
                let x = (client_x - rect.left()) / rect.width().max(1.0) * r.figure.width;
                r.figure.t_of(x) as f64 / 1000.0
            })
        })
    };
    let drag_to = move |h: Held, t: f64| {
        ui.settings.update(|s| {
            let next = restarts::move_edge(&s.restarts(), h.i, h.edge, t);
            s.set_restarts(next);
        });
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if let Some(h) = held.get_untracked() {
            if let Some(t) = t_at(ev.client_x() as f64) {
                drag_to(h, t);
            }
        }
    };
    // What a screen reader hears when a drag ends (the new restart in words).
    let said = RwSignal::new(String::new());
    let on_up = move |_ev: web_sys::PointerEvent| {
        if let Some(h) = held.get_untracked() {
            if let Some(r) = restarts_now(ui).get(h.i) {
                said.set(valuetext(h.i, r));
            }
            held.set(None);
            marked.set(None);
            if h.resume {
                ui.playing.set(true);
            }
        }
    };
    // The handles of one edge of one restart in one run; only the first run's are in the tab
    // order (the runs share the restarts).
    let handle = move |g: usize, i: usize, edge: Edge| {
        let pos = move || {
            runs.with(|r| {
                let r = r.as_ref()?;
                let gb = r.figure.groups.get(g)?;
                let rs = restarts_now(ui);
                let rr = rs.get(i)?;
                let t = match edge {
                    Edge::Stop => rr.at_s,
                    Edge::Start => rr.end_s(),
                };
                let t_ms = (t * 1000.0).round() as i64;
                if t_ms < r.figure.t0_ms || t_ms > r.figure.t1_ms {
                    return None;
                }
                let (w, h) = (r.figure.width, r.figure.height.max(1.0));
                Some(format!(
                    "left:{:.3}%;top:{:.3}%;height:{:.3}%",
                    r.figure.x_of(t_ms) / w * 100.0,
                    gb.kubelet_y / h * 100.0,
                    gb.kubelet_h / h * 100.0
                ))
            })
        };
        let first = g == 0;
        let label = format!("Restart {}: when the kubelet {}", i + 1, edge.word());
        view! {
            <div class=format!("bar-edge {}", if edge == Edge::Stop { "stop" } else { "start" })
                role="slider" tabindex=if first { "0" } else { "-1" } aria-hidden=(!first).to_string()
                aria-label=label data-restart=i.to_string()
                aria-valuemin="0" aria-valuemax=move || (ui.horizon() / 1000).to_string()
                aria-valuenow=move || restarts_now(ui).get(i).map_or(0.0, |r| if edge == Edge::Stop { r.at_s } else { r.end_s() }).to_string()
                aria-valuetext=move || restarts_now(ui).get(i).map(|r| valuetext(i, r)).unwrap_or_default()
                style=move || pos().unwrap_or_else(|| "display:none".into())
                on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                on:pointerdown=move |ev: web_sys::PointerEvent| {
                    ev.stop_propagation();
                    ev.prevent_default();
                    if let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                        let _ = el.set_pointer_capture(ev.pointer_id());
                    }
                    let resume = ui.playing.get_untracked();
                    ui.playing.set(false);
                    ui.sel_restart.set(i);
                    ui.fresh_edit.set_value(true);
                    held.set(Some(Held { i, edge, resume }));
                    marked.set(Some(i));
                }
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_up
                on:focus=move |_| { ui.sel_restart.set(i); marked.set(Some(i)); }
                on:blur=move |_| if held.get_untracked().is_none() { marked.set(None) }
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    let step = if ev.shift_key() { 10.0 } else { 1.0 };
                    let d = match ev.key().as_str() {
                        "ArrowLeft" | "ArrowDown" => -step,
                        "ArrowRight" | "ArrowUp" => step,
                        _ => return,
                    };
                    ev.prevent_default();
                    ev.stop_propagation();
                    ui.edit_restarts(|l| {
                        let Some(r) = l.get(i) else { return Ok(l.to_vec()) };
                        let t = match edge { Edge::Stop => r.at_s, Edge::Start => r.end_s() } + d;
                        Ok(restarts::move_edge(l, i, edge, t))
                    });
                }>
                <span class="grip" aria-hidden="true"></span>
            </div>
        }
    };
    let groups = Memo::new(move |_| runs.with(|r| r.as_ref().map_or(0, |r| r.figure.groups.len())));
    let count = Memo::new(move |_| ui.settings.with(|s| s.more_restarts.len() + 1));
    // The grace-period and eviction marks of the held (or focused) restart: where the stop's
    // downtime makes the node NotReady and its pods evicted (`Cluster::grace_s`,
    // `eviction_downtime_estimate_s`).
    let marks = move || {
        let i = marked.get()?;
        runs.with(|r| {
            let r = r.as_ref()?;
            let rr = restarts_now(ui).get(i)?.clone();
            let c = &r.scenario.cluster;
            let w = r.figure.width;
            // A mark past the figure's end is pinned to its right edge, saying when.
            let mark = |class: &'static str, s: f64, text: String| {
                let t_ms = ((rr.at_s + s) * 1000.0).round() as i64;
                let (t_ms, class, text) = if t_ms > r.figure.t1_ms {
                    let when = format!("{text} at {} →", fmt_secs(rr.at_s + s));
                    (r.figure.t1_ms, format!("drag-mark {class} beyond"), when)
                } else {
                    (t_ms, format!("drag-mark {class}"), text)
                };
                let left = r.figure.x_of(t_ms) / w * 100.0;
                view! { <div class=class style=format!("left:{left:.3}%")><span>{text}</span></div> }
            };
            let ev_s = c.eviction_downtime_estimate_s();
            Some(view! {
                {mark("grace", c.grace_s(), format!("grace {}", fmt_secs(c.grace_s())))}
                {mark("evict", ev_s, format!("eviction ≈ {}", fmt_secs(ev_s)))}
            })
        })
    };
    view! {
        <div class="bar-handles" node_ref=layer>
            {move || (0..groups.get()).flat_map(|g| (0..count.get()).flat_map(move |i| [handle(g, i, Edge::Stop), handle(g, i, Edge::Start)])).collect_view()}
            <div class="drag-marks" aria-hidden="true">{marks}</div>
            <p class="sr-only" aria-live="polite">{move || said.get()}</p>
        </div>
    }
}
