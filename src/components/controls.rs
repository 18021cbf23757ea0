//! The scenario controls (preset, kubelet downtime with its grace and eviction marks, what
//! restarts and an upgrade target, restart time: all of the selected restart,
//! `Ui::sel_restart`) and the playback bar (play,
//! previous/next event, from 0, stop/start the kubelet at the playhead, undo, zoom, speed, time
//! scrubber). Both edit `Ui` signals only; the recompute happens in `app.rs`.

use crate::custom::IMPORTED;
use crate::form::{downtime_pos, downtime_steps, Field, MAX_RESTART_AT_S};
use crate::state::{DEFAULT_SPEED, SPEEDS};
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::{fmt_secs, presets, words_secs, KubeVersion, Restart, RestartKind};

/// The restart the sliders edit and its index (the selected one, or the last).
fn selected(ui: Ui) -> (usize, Restart) {
    let list = ui.settings.with(|s| s.restarts());
    let i = ui.sel_restart.get().min(list.len() - 1);
    (i, list[i].clone())
}

/// " (restart 2 of 3)" when the run has several restarts.
fn which(ui: Ui) -> String {
    let n = ui.settings.with(|s| s.more_restarts.len() + 1);
    if n > 1 {
        format!(" (restart {} of {n})", selected(ui).0 + 1)
    } else {
        String::new()
    }
}

/// The slider's label for a kind: "Kubelet downtime", "Runtime downtime", "Node downtime".
fn downtime_word(what: RestartKind) -> &'static str {
    match what {
        RestartKind::Kubelet => "Kubelet downtime",
        RestartKind::Runtime => "Runtime downtime",
        RestartKind::Node => "Node downtime",
    }
}

/// Changes the selected restart (one slider move).
fn set_selected(ui: Ui, f: impl FnOnce(&mut Restart)) {
    let i = selected(ui).0;
    ui.settings.update(|s| {
        let mut l = s.restarts();
        f(&mut l[i]);
        s.set_restarts(l);
    });
}

/// The releases an upgrade may start: each minor's first release newer than the scenario's
/// version, and main (a short list; the model judges the choice).
fn upgrade_targets(version: &str) -> Vec<KubeVersion> {
    let Some(from) = KubeVersion::parse(version) else {
        return Vec::new();
    };
    KubeVersion::releases()
        .filter(|v| *v > from && v.as_str() == v.minor())
        .collect()
}

/// What restarts (kubelet, container runtime, node) and the kubelet an upgrade starts, for the
/// restart the slider drives; a container runtime restart has no upgrade.
#[component]
fn RestartKindChoice() -> impl IntoView {
    let ui = Ui::get();
    // What the controls show, read once per settings change and passed on only when it
    // changes: a slider's move changes the settings, never these.
    let kind = Memo::new(move |_| {
        let r = selected(ui).1;
        (
            r.what,
            r.upgrade_to,
            ui.settings.with(|s| s.version.clone()),
        )
    });
    let what = move || kind.with(|k| k.0);
    let set_what = move |v: String| {
        if let Some(k) = RestartKind::parse(&v) {
            ui.fresh_edit.set_value(true);
            set_selected(ui, |r| {
                r.what = k;
                if !k.stops_kubelet() {
                    r.upgrade_to = None;
                }
            });
        }
    };
    let set_upgrade = move |v: String| {
        ui.fresh_edit.set_value(true);
        set_selected(ui, |r| r.upgrade_to = KubeVersion::parse(&v));
    };
    let options = move || {
        let (now, mut l) = kind.with(|k| (k.1, upgrade_targets(&k.2)));
        if let Some(v) = now.filter(|v| !l.contains(v)) {
            l.insert(0, v);
        }
        l.into_iter()
            .map(|v| view! { <option value=v.as_str() prop:selected=now == Some(v)>{format!("kubelet → {}", v.as_str())}</option> })
            .collect_view()
    };
    view! {
        <div class="restart-kind">
            <span class="pair"><label for="restart-what">"What"</label>
            <select id="restart-what" prop:value=move || what().as_str()
                on:change=move |ev| set_what(event_target_value(&ev))>
                {RestartKind::ALL.map(|k| view! { <option value=k.as_str()>{k.label()}</option> })}
            </select></span>
            <span class="pair"><label for="upgrade-to">"Upgrade"</label>
            <select id="upgrade-to" disabled=move || !what().stops_kubelet()
                title="The kubelet that starts again is this release (an in-place upgrade)"
                on:change=move |ev| set_upgrade(event_target_value(&ev))>
                <option value="" prop:selected=move || kind.with(|k| k.1.is_none())>"none"</option>
                {options}
            </select></span>
        </div>
        <p class="field-error" id="restart-what-error" role="alert">{move || {
            let msgs: Vec<String> = [crate::form::Field::What, crate::form::Field::Restarts]
                .map(|f| ui.err_for(f)).into_iter().filter(|m| !m.is_empty()).collect();
            msgs.join("; ")
        }}</p>
    }
}

/// While a slider is held, the figure keeps the height it had when the drag began (`data-held`
/// and `--held-h` on the figure's section, `.lanes`; style/main.css narrows it instead of letting
/// it grow): on a phone, lanes that appear mid-drag (the node's rows past the grace period) would
/// otherwise push the KEP-4781 run off the screen under the finger. On the section, not the
/// root: an attribute of the root makes the browser match the whole page's style again, in the
/// drag's first move.
fn hold_figure_size(on: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(fig) = doc.get_element_by_id("figure") else {
        return;
    };
    let Some(lanes) = fig.parent_element() else {
        return;
    };
    let lanes: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(lanes);
    if on {
        let h = fig.get_bounding_client_rect().height();
        let _ = lanes.style().set_property("--held-h", &format!("{h:.0}px"));
        let _ = lanes.set_attribute("data-held", "1");
    } else {
        let _ = lanes.remove_attribute("data-held");
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let ui = Ui::get();
    let settings = ui.settings;
    let runs = ui.runs;
    // The grace and eviction marks move only when the cluster's timings do, not on each move of
    // the slider (rebuilding them on each move was part of every move's work).
    // The selected restart's kind: where it makes the node not Ready, and its pods evicted.
    let kind = Memo::new(move |_| selected(ui).1.what);
    let marks = Memo::new(move |_| {
        let kind = kind.get();
        runs.with(|r| {
            r.as_ref()
                .map(|r| restartscope_sim::downtime_marks(&r.scenario.cluster, kind))
        })
    });
    // A slider held by a pointer pauses the playback until it is let go (`change`), as a bar's
    // drag does (`restarts.rs`): each move then redraws only the figure, not the playhead's
    // panels too (the playhead's step and the panels it wakes ran in every drag frame).
    let was_playing = StoredValue::new(false);
    // The slider shows the selected restart's downtime (an undo, a link, a tour step set it),
    // written only when it is not already there: under a dragging hand it always is, and
    // writing it anyway cost each move a property set.
    let slider = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        let pos = downtime_pos(selected(ui).1.downtime_s).to_string();
        if let Some(el) = slider.get() {
            if el.value() != pos {
                el.set_value(&pos);
            }
        }
    });
    let hold = move |_: web_sys::PointerEvent| {
        was_playing.set_value(ui.playing.get_untracked());
        ui.playing.set(false);
        hold_figure_size(true);
    };
    // Let go without a `change` (a click on the thumb that moves nothing): playback goes on as
    // it was. Checked once the release's `change`, if any, has run (it fires after `pointerup`).
    let release = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        hold_figure_size(false);
        gloo_timers::callback::Timeout::new(0, move || {
            if was_playing.try_get_value() == Some(true) {
                was_playing.set_value(false);
                ui.playing.set(true);
            }
        })
        .forget();
    });
    if let Some(w) = web_sys::window() {
        for ev in ["pointerup", "pointercancel"] {
            let _ = w.add_event_listener_with_callback_and_bool(
                ev,
                wasm_bindgen::JsCast::unchecked_ref(release.as_ref()),
                true,
            );
        }
    }
    release.forget();
    view! {
        <section class="controls" aria-label="Scenario">
            <div class="control preset">
                <label for="preset">"Scenario"</label>
                <select id="preset"
                    prop:value=move || settings.with(|s| s.preset.clone())
                    on:change=move |ev| ui.pick_preset(&event_target_value(&ev))>
                    {presets::PRESETS.iter().enumerate().map(|(i, p)| view! { <option value=p.name>{format!("{} · {}", i + 1, p.name)}</option> }).collect_view()}
                    {move || settings.with(|s| s.custom.as_ref().map(|c| {
                        let label = format!("Imported: {}", c.label);
                        view! { <option value=IMPORTED selected=true>{label}</option> }
                    }))}
                </select>
                <button id="import-open" type="button" aria-expanded=move || ui.import_open.get().to_string()
                    aria-controls="import-panel" on:click=move |_| ui.import_open.update(|o| *o = !*o)>"Import your workload"</button>
                // The preset's own sentence only while its settings are untouched; otherwise
                // words from the runs on screen (the sentence described another restart).
                <p class="teaches" id="teaches">{move || settings.with(|s| match &s.custom {
                    Some(c) => c.scenario.description.clone(),
                    None if *s == crate::form::Settings::for_preset(&s.preset) => {
                        presets::find(&s.preset).map(|p| p.teaches).unwrap_or("").to_string()
                    }
                    None => ui.panels.with(|r| match r {
                        Some(r) => r.edited_words(&s.preset),
                        None => String::new(),
                    }),
                })}</p>
            </div>
            <div class="control downtime">
                <label for="downtime">{move || downtime_word(selected(ui).1.what)}{move || which(ui)}" "
                    <output id="downtime-value" for="downtime">{move || fmt_secs(selected(ui).1.downtime_s)}</output>
                </label>
                <input id="downtime" type="range" min="0" max=downtime_steps().len() - 1 step="1"
                    list="downtime-marks" node_ref=slider
                    aria-valuetext=move || words_secs(selected(ui).1.downtime_s)
                    on:input=move |ev| {
                        let pos: usize = event_target_value(&ev).parse().unwrap_or(0);
                        let v = downtime_steps().get(pos).copied().unwrap_or(0.0);
                        set_selected(ui, |r| r.downtime_s = v);
                    }
                    // Playback pauses while the slider is held and resumes when the drag ends:
                    // while dragging, each move only redraws the figure (one frame per move).
                    on:pointerdown=hold
                    on:change=move |_| {
                        was_playing.set_value(false);
                        ui.playing.set(true);
                    } />
                <div class="marks" aria-hidden="true" class:two=move || marks.get().is_some_and(|(_, g, e)| {
                    let n = (downtime_steps().len() - 1) as f64;
                    let (gp, ep) = (downtime_pos(g) as f64 / n, downtime_pos(e) as f64 / n);
                    (ep - gp).abs() < 0.35 && gp.min(ep) <= 0.2
                })>
                    {move || marks.get().map(|(first, grace_s, ev_s)| {
                        let n = (downtime_steps().len() - 1) as f64;
                        // Under the thumb's centre at that value: the thumb (16 px) travels
                        // from 8 px to the width less 8 px. A mark in the right third has its
                        // label to the left of its line.
                        let (gp, ep) = (downtime_pos(grace_s) as f64 / n, downtime_pos(ev_s) as f64 / n);
                        // Two marks close together (a narrow slider): the first's label goes to
                        // its left, so the two do not overlap.
                        let close = (ep - gp).abs() < 0.35;
                        // Too close, and the first too near the left edge for its label to go
                        // to its left: the second mark's label goes under the first's.
                        let stacked = close && gp.min(ep) <= 0.2;
                        let mark = |class: &'static str, s: f64, text: String| {
                            let p = downtime_pos(s) as f64 / n;
                            let first = p <= gp.min(ep);
                            let end = p > 0.7 || (close && first && p > 0.2);
                            let low = stacked && !first;
                            view! {
                                <span class=format!("mark {class}{}{}", if end { " end" } else { "" }, if low { " low" } else { "" })
                                    style=format!("left:calc(8px + {:.4} * (100% - 16px))", p)>{text}</span>
                            }
                        };
                        view! {
                            {mark("grace", grace_s, format!("{first} {}{}", if first == "grace" { "" } else { "≈ " }, fmt_secs(grace_s.round())))}
                            {mark("evict", ev_s, format!("eviction ≈ {}", fmt_secs(ev_s.round())))}
                        }
                    })}
                </div>
                <p class="field-error" id="downtime-error" role="alert">{move || ui.err_for(Field::Downtime)}</p>
                <RestartKindChoice/>
            </div>
            <div class="control restart-at">
                <label for="restart-at">"Restart at"{move || which(ui)}" "
                    <output for="restart-at">{move || fmt_secs(selected(ui).1.at_s)}</output>
                </label>
                // A later restart may start past 300 s: the slider reaches it.
                <input id="restart-at" type="range" min="0" step="5"
                    max=move || (MAX_RESTART_AT_S.max((selected(ui).1.at_s / 5.0).ceil() * 5.0)).to_string()
                    prop:value=move || selected(ui).1.at_s.to_string()
                    aria-valuetext=move || words_secs(selected(ui).1.at_s)
                    on:input=move |ev| {
                        let v: f64 = event_target_value(&ev).parse().unwrap_or(0.0);
                        set_selected(ui, |r| r.at_s = v);
                    }
                    on:pointerdown=hold
                    on:change=move |_| {
                        if was_playing.get_value() {
                            ui.playing.set(true);
                        }
                        was_playing.set_value(false);
                    } />
                <p class="field-error" role="alert">{move || ui.err_for(Field::RestartAt)}</p>
            </div>
        </section>
    }
}

#[component]
pub fn PlaybackBar() -> impl IntoView {
    let ui = Ui::get();
    let (playhead, playing, speed, zoom) = (ui.playhead, ui.playing, ui.speed, ui.zoom);
    view! {
        <section class="playback" aria-label="Playback">
            <button id="play" class="primary" aria-keyshortcuts="Space" on:click=move |_| ui.toggle_play()>{move || if playing.get() { "❚❚ Pause" } else { "▶ Play" }}</button>
            <button id="prev-event" title="Previous event" on:click=move |_| ui.step_event(false)>"◂ Prev event"</button>
            <button id="next-event" title="Next event" on:click=move |_| ui.step_event(true)>"Next event ▸"</button>
            <button id="restart" title="Back to 0 s" aria-keyshortcuts="R" on:click=move |_| ui.restart()>"↺ From 0"</button>
            <button id="kubelet-toggle" aria-keyshortcuts="K"
                title="Stop the kubelet at the playhead, or start it again there (K)"
                on:click=move |_| ui.toggle_kubelet()>{move || {
                    let who = crate::restarts::subject(ui.chosen_kind());
                    if ui.kubelet_down_now().is_some() { format!("▶ Start {who}") } else { format!("■ Stop {who}") }
                }}</button>
            <button id="undo" title="Undo the last edit (Ctrl+Z)" aria-keyshortcuts="Control+Z"
                disabled=move || ui.undo_len.get() == 0 on:click=move |_| { ui.undo(); }>"↶ Undo"</button>
            <button id="zoom" title="Zoom the lanes to the restart" aria-keyshortcuts="Z" aria-pressed=move || zoom.get().to_string()
                on:click=move |_| zoom.update(|z| *z = !*z)>{move || if zoom.get() { "Whole run" } else { "Zoom to restart" }}</button>
            <label for="speed">"Speed"</label>
            <select id="speed" prop:value=move || speed.get().to_string()
                on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(DEFAULT_SPEED))>
                {SPEEDS.iter().enumerate().map(|(i, s)| view! { <option value=i.to_string()>{format!("{s}×")}</option> }).collect_view()}
            </select>
            <label for="scrub" class="scrub-label">"Time " <output id="clock">{move || fmt_secs((playhead.get() as f64 / 1000.0).floor())}</output></label>
            <input id="scrub" type="range" min="0" max=move || ui.horizon().to_string() step="100"
                prop:value=move || playhead.get().to_string()
                aria-valuetext=move || words_secs(playhead.get() as f64 / 1000.0)
                on:input=move |ev| ui.seek(event_target_value(&ev).parse().unwrap_or(0)) />
            <p class="restart-msg" id="restart-msg" role="status">{move || ui.restart_msg.get()}</p>
        </section>
    }
}
