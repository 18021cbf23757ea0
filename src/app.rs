//! The root of the page: reads the link into a `Ui` (provided as context), keeps the document's
//! theme attributes and the query string in step with it, recomputes the runs when a setting
//! changes or the figure's width does (`state::compute_for` with `state::figure_spec`: the
//! compact figure in presentation view and the embed; keeping the last valid runs on error), starts the playback clock and the keyboard, and
//! lays out the header, the components and the footer.

use crate::components::{
    controls::{Controls, PlaybackBar},
    event_log::EventLog,
    export::Export,
    help::Help,
    import::ImportPanel,
    kubectl::KubectlPanels,
    lanes::Lanes,
    metrics::Metrics,
    notices::Notices,
    params::Params,
    pdb::Pdb,
    presenter::Presenter,
    qr::Qr,
    restarts::{BarHandles, RestartList},
    tour::{Tour, TourEntry},
    why::Why,
};
use crate::env::now_ms;
use crate::form::Settings;
use crate::state::{figure_spec, runs_words, Runs};
use crate::ui::Ui;
use crate::url::{self, Theme};
use leptos::prelude::*;

/// Sets an attribute of `<html>` when its value changes: the style rules read these
/// (`:root[data-present="1"] …`), and even an unchanged write invalidated the page's style on
/// every slider move (each write re-matched the page's style rules).
fn set_root_attr(name: &str, value: &str) {
    if let Some(el) = document().document_element() {
        if el.get_attribute(name).as_deref() != Some(value) {
            let _ = el.set_attribute(name, value);
        }
    }
}

/// Milliseconds the address waits for the state to be still before it is written.
const URL_WRITE_DELAY_MS: u32 = 150;

/// Runs computed while a pointer is held are a drag: the panels show the last of them once no
/// new one has come for this long, or when the pointer is let go (`Ui::panels`).
pub const PANEL_REST_MS: u32 = 120;

/// Settings the audience's window receives within this many ms of the last are a drag's moves.
const STREAM_MS: f64 = 100.0;

/// Presentation view in a tour below 1680 px wide: the height (CSS px) left under the figure for
/// the tour's box (its `max-height` in style/main.css).
const TOUR_BELOW_H: f64 = 260.0;

#[component]
pub fn App() -> impl IntoView {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (initial, url_notes) = crate::imported::initial(&search);
    let ui = Ui::new(
        initial,
        url_notes,
        crate::env::prefers_reduced_motion(),
        crate::env::prefers_dark(),
    );
    provide_context(ui);

    Effect::new(move |_| {
        set_root_attr("data-theme", ui.effective_theme().as_str());
        set_root_attr("data-embed", if ui.embed { "1" } else { "0" });
        set_root_attr("data-present", if ui.present.get() { "1" } else { "0" });
        set_root_attr("data-role", ui.role.get().map_or("", |r| r.as_str()));
        // A tour step's question is open: the panels that tell what follows wait for the reveal.
        set_root_attr(
            "data-veiled",
            if ui.veiled_from().is_some() { "1" } else { "0" },
        );
        set_root_attr(
            "data-tour",
            if ui.tour.with(Option::is_some) {
                "1"
            } else {
                "0"
            },
        );
    });
    crate::env::watch_system_dark(ui.system_dark);
    crate::env::watch_visibility(ui.visible);
    // The figure moves when a view mode (presentation view, the presenter's notes), the tour or
    // the import panel comes or goes.
    crate::env::watch_figure_size(ui.shown_w, ui.view_h, ui.fig_top, ui.dpr, move || {
        ui.present.track();
        ui.role.track();
        ui.tour.track();
        ui.import_open.track();
    });
    crate::env::watch_pixel_ratio(ui.dpr);
    // The query string follows the runs on screen (never a rejected setting). A change of the
    // settings pushes a history entry, so Back returns to the previous settings; the playhead and
    // view modes replace the current one.
    // Moves within a second of the last one (a slider drag) coalesce into one entry.
    let pushed = StoredValue::new(None::<Settings>);
    let last_change = StoredValue::new(f64::NEG_INFINITY);
    // The write itself waits until the state has been still for a moment (`rest::Rest`): a
    // history write costs the browser ~5 ms, more than a slider move may take.
    let pending = StoredValue::new_local(crate::rest::Rest::new());
    let push_pending = StoredValue::new(false);
    // The address of the entry the pending write replaces (not yet written).
    let replace_q = StoredValue::new(None::<String>);
    let write_now = |push: bool, q: &str| {
        if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
            let null = wasm_bindgen::JsValue::NULL;
            let _ = if push {
                h.push_state_with_url(&null, "", Some(q))
            } else {
                h.replace_state_with_url(&null, "", Some(q))
            };
        }
    };
    Effect::new(move |_| {
        let Some(st) = ui.url_state() else {
            return;
        };
        let q = format!("?{}", url::to_query(&st));
        let changed = pushed.with_value(|p| p.as_ref().is_some_and(|p| *p != st.settings));
        let push = changed && now_ms() - last_change.get_value() > 1000.0;
        if changed {
            last_change.set_value(now_ms());
        }
        pushed.set_value(Some(st.settings));
        // A new entry while the current one's address is still waiting: write that address
        // first, so Back returns to it.
        if push && !push_pending.get_value() {
            if let Some(old) = replace_q.get_value() {
                write_now(false, &old);
            }
        }
        // A push decided for an earlier, still pending write is kept.
        push_pending.update_value(|p| *p |= push);
        replace_q.set_value((!push_pending.get_value()).then(|| q.clone()));
        let write = move || {
            let push = push_pending.get_value();
            push_pending.set_value(false);
            replace_q.set_value(None);
            write_now(push, &q);
        };
        pending.with_value(|r| r.after(URL_WRITE_DELAY_MS, write));
    });
    let last_settings = StoredValue::new(None::<Settings>);
    // A link's settings, tour step and zoom on screen, as a followed link, not an edit: no
    // history entry, and the tour stays (Back and Forward; the presenter view's other window).
    let follow = move |st: &url::UrlState| {
        pushed.set_value(Some(st.settings.clone()));
        last_settings.set_value(Some(st.settings.clone()));
        if ui.settings.with_untracked(|s| *s != st.settings) {
            ui.settings.set(st.settings.clone());
        }
        if ui.tour.with_untracked(|t| *t != st.tour) {
            ui.tour.set(st.tour.clone());
        }
        if ui.zoom.get_untracked() != st.zoom {
            ui.zoom.set(st.zoom);
        }
    };
    // Back and Forward: the screen follows the address (without pushing it again).
    let handle = window_event_listener(leptos::ev::popstate, move |_| {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        let st =
            crate::imported::reparse(&search, ui.settings.with_untracked(|s| s.custom.clone()));
        follow(&st);
        ui.present.set(st.present);
        if let Some(t) = st.t_ms {
            ui.seek(t);
        }
    });
    std::mem::forget(handle);
    crate::present::start(ui, move |st| follow(&st));

    // Leaving the tour: a setting edited while a tour step is on screen goes back to free play
    // (Back/Forward set the settings and the tour together: `last_settings` follows them).
    Effect::new(move |_| {
        let s = ui.settings.get();
        let edited = last_settings.with_value(|l| l.as_ref().is_some_and(|l| *l != s));
        last_settings.set_value(Some(s));
        if edited && ui.tour.get_untracked().is_some() {
            ui.tour.set(None);
        }
    });

    // Undo (`Ui::undo`): each edit records the settings before it. A discrete edit (`Ui::edit`:
    // K, the restart list, a bar's drag) is a step of its own; a slider's moves less than 600 ms
    // apart are one step (one drag).
    let undo_prev = StoredValue::new(ui.settings.get_untracked());
    let undo_last = StoredValue::new(f64::NEG_INFINITY);
    Effect::new(move |_| {
        let s = ui.settings.get();
        let before = undo_prev.get_value();
        if before == s {
            return;
        }
        let now = now_ms();
        if ui.undoing.get_value() {
            ui.undoing.set_value(false);
        } else if ui.fresh_edit.get_value() || now - undo_last.get_value() > 600.0 {
            ui.record(before);
        }
        ui.fresh_edit.set_value(false);
        undo_last.set_value(now);
        undo_prev.set_value(s);
    });

    // Recompute the runs whenever a setting (or the tour step) changes; a setting the model
    // rejects is not simulated: the last valid runs stay (marked as such) and the errors say why.
    // A tour step opens paused with the playhead at the end of its window.
    // A mouse button, finger or pen is down (a drag is possible); a click, a key or a link is
    // a discrete edit and updates the panels at once.
    // Listened in the capture phase (not `window_event_listener`, which bubbles): the bar
    // handles stop their pointerdown's propagation.
    let held = StoredValue::new(false);
    // The drag rests (or ends): the next layout is the whole figure, its tooltips too, even
    // while the pointer is still down.
    let resting = StoredValue::new(false);
    // When the runs were last computed (the audience's window tells a stream of moves by it).
    let last_run = StoredValue::new(f64::NEG_INFINITY);
    let panels_later = StoredValue::new_local(crate::rest::Rest::new());
    for (ev, down) in [
        ("pointerdown", true),
        ("pointerup", false),
        ("pointercancel", false),
    ] {
        let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
            held.set_value(down);
            // The hand lets go: the panels show the last run now, not 120 ms later.
            if !down && panels_later.try_with_value(crate::rest::Rest::cancel) == Some(true) {
                resting.set_value(true);
                ui.relayout.update(|n| *n += 1);
            }
        });
        if let Some(w) = web_sys::window() {
            let _ = w.add_event_listener_with_callback_and_bool(
                ev,
                wasm_bindgen::JsCast::unchecked_ref(f.as_ref()),
                true,
            );
        }
        f.forget();
    }
    Effect::new(move |shown: Option<Option<(String, usize)>>| {
        let s = ui.settings.get();
        let tour = ui.tour.get();
        ui.relayout.track();
        let t0 = now_ms();
        // Every run while a pointer is held (a drag, its first move too: drawing every
        // panel on it was the slowest move of each drag, the input-to-paint p95) until the
        // drag rests.
        // The audience's window sees no pointer: the presenter's moves reach it as a stream of
        // settings, one a frame. A run within STREAM_MS of the last is one of them (its first
        // is laid out whole, as a click); the rest's layout comes when the stream rests.
        let streaming = ui.role.get_untracked() == Some(url::Role::Audience)
            && t0 - last_run.get_value() < STREAM_MS;
        last_run.set_value(t0);
        let rapid = (held.get_value() || streaming) && !resting.get_value();
        resting.set_value(false);
        // Presentation view in a tour, on a screen narrower than 1680 px, puts the step's caption
        // under the figure (style/main.css): the figure leaves it TOUR_BELOW_H px, so the step's
        // title, its caption and Back / Next are on the screen with it (1280×720 too).
        let shown_w = ui.shown_w.get();
        let tour_below = ui.present.get()
            && tour.is_some()
            && web_sys::window()
                .and_then(|w| w.inner_width().ok())
                .and_then(|w| w.as_f64())
                .is_some_and(|w| w < 1680.0);
        let view_h = if tour_below {
            // The audience's window shows only the step's title under the figure.
            let below = if ui.role.get() == Some(url::Role::Audience) {
                100.0
            } else {
                TOUR_BELOW_H
            };
            (ui.view_h.get() - below).max(360.0)
        } else {
            ui.view_h.get()
        };
        let spec = figure_spec(
            ui.present.get(),
            ui.embed,
            shown_w,
            view_h,
            ui.fig_top.get(),
        );
        let spec = if ui.every_pod.get() && !ui.present.get() && !ui.embed {
            crate::state::FigureSpec {
                max_height: None,
                compact_fallback: false,
                ..spec
            }
        } else {
            spec
        };
        let spec = crate::state::FigureSpec {
            tooltips: !rapid,
            ..spec
        };
        let mut opened_at = None;
        ui.tours_loaded.track();
        let result = match &tour {
            Some((name, n)) => match crate::tour::compute(name, *n, spec) {
                // Not loaded yet (opened from the page): load it; the runs on screen stay.
                Ok(None) => {
                    let name = name.clone();
                    crate::tour::load(&name.clone(), move |got| match got {
                        Ok(()) => ui.tours_loaded.update(|n| *n += 1),
                        Err(e) => {
                            ui.notices.update(|n| {
                                n.push(format!("The tour {name} cannot be shown: {e}"))
                            });
                            ui.tour.set(None);
                        }
                    });
                    return shown.flatten();
                }
                Ok(Some((runs, view))) => {
                    if shown.flatten() != tour {
                        // A step that asks first opens at its question's instant, the rest
                        // veiled.
                        ui.revealed.set(view.predict.is_none());
                        opened_at = Some(view.predict.as_ref().map_or(view.t_end_ms, |p| p.0));
                        // Every control shows the step's values (the slider, the restart bars
                        // and their readouts; the link carries them): not an edit, so the tour
                        // stays and no undo step is recorded.
                        if let Some(st) = crate::tour::step_settings(name, *n) {
                            if st != s {
                                last_settings.set_value(Some(st.clone()));
                                ui.undoing.set_value(true);
                                ui.sel_restart.set(0);
                                ui.settings.set(st);
                            }
                        }
                    }
                    ui.step.set(Some(view));
                    Ok(runs)
                }
                Err(e) => {
                    ui.notices
                        .update(|n| n.push(format!("The tour step cannot be shown: {e}")));
                    ui.tour.set(None);
                    return None;
                }
            },
            None => {
                // Set only when they change: each set wakes what reads them, on every move.
                if ui.step.with_untracked(Option::is_some) {
                    ui.step.set(None);
                }
                if !ui.revealed.get_untracked() {
                    ui.revealed.set(true);
                }
                crate::memo::runs_for(&s, spec, ui.zoom.get().then(|| ui.sel_restart.get()))
            }
        };
        set_root_attr("data-model-ms", &format!("{:.3}", now_ms() - t0));
        match result {
            Ok(r) => {
                let h = r.horizon;
                panels_later.with_value(|p| {
                    if rapid {
                        p.after(PANEL_REST_MS, move || {
                            resting.set_value(true);
                            ui.relayout.update(|n| *n += 1);
                        });
                    } else {
                        p.cancel();
                    }
                });
                if !rapid {
                    ui.panels.set(Some(r.clone()));
                }
                ui.runs.set(Some(r));
                ui.valid.set(Some(s));
                // Set only when they change: each set wakes what reads them, on every move.
                if ui.errors.with_untracked(|e| !e.is_empty()) {
                    ui.errors.set(Vec::new());
                }
                if ui.playhead.get_untracked() > h {
                    ui.playhead.set(h);
                }
                if let Some(t) = opened_at {
                    ui.playing.set(false);
                    ui.playhead.set(t.min(h));
                }
            }
            Err(e) => {
                ui.errors.set(e);
                ui.playing.set(false);
            }
        }
        let dt = now_ms() - t0;
        ui.compute_ms.set(dt);
        set_root_attr("data-compute-ms", &format!("{dt:.3}"));
        tour
    });

    crate::playback::start(
        ui.playhead,
        ui.playing,
        ui.speed,
        ui.runs,
        ui.visible,
        ui.reduced,
    );
    crate::keys::listen(ui);
    expose_event_times(ui.runs);

    let dark = move || ui.effective_theme() == Theme::Dark;
    let present = ui.present;
    view! {
        <Notices />
        <Help />
        <header class="top">
            <h1>"RestartScope"</h1>
            <p class="tagline">"What a kubelet restart does to a node's pods — the legacy kubelet and "
                <a href="https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/4781-kublet-restart-pod-status">"KEP-4781"</a>
                " side by side, on one clock."</p>
            <div class="tools">
                <button id="theme-toggle" type="button" aria-label="Toggle dark theme"
                    aria-pressed=move || dark().to_string()
                    on:click=move |_| ui.theme.set(Some(if dark() { Theme::Light } else { Theme::Dark }))>
                    {move || if dark() { "☀ Light" } else { "☾ Dark" }}
                </button>
                <button id="present-toggle" type="button" aria-keyshortcuts="P" aria-pressed=move || present.get().to_string()
                    on:click=move |_| present.update(|p| *p = !*p)>"Presentation view"</button>
                <button id="presenter-open" type="button" aria-keyshortcuts="N"
                    title="Speaker notes and the controls here, the figure alone in a second window for the projector"
                    on:click=move |_| { crate::present::open(ui); }>"Presenter view"</button>
                <TourEntry />
                <button id="help-open" type="button" aria-keyshortcuts="?" on:click=move |_| ui.help.set(true)>"Keys ?"</button>
                <Qr />
                {ui.embed.then(|| view! {
                    <a id="open-full" class="button" href=move || ui.full_link() target="_blank" rel="noopener" aria-label="Open the full view in a new tab">"Full view ↗"</a>
                })}
            </div>
        </header>
        // The figure's aspect for the whole main area too: presentation view in a tour sizes the
        // caption's box under the figure from it (style/main.css).
        <main data-rejected=move || if ui.rejected() { "1" } else { "0" }
            style:--fig-aspect=move || ui.runs.with(|r| r.as_ref().map(|r| format!("{:.4}", r.figure.width / r.figure.height.max(1.0))).unwrap_or_default())>
            // The presenter's speaker notes: a band over the stage and the side (style/main.css).
            <Presenter />
            // Wide: the settings and the metrics in a column beside the figure, which
            // stays on screen (sticky) with the downtime slider in it; narrow: one column, the
            // figure first. Presentation view and the embed lay these out as before (the two
            // wrappers are `display: contents` there).
            <div class="side">
                <Controls />
                <ImportPanel />
                <Params><RestartList /></Params>
                <Metrics />
            </div>
            <div class="stage">
                <Tour />
                <PlaybackBar />
                <Lanes><BarHandles /></Lanes>
                <Why />
                <Pdb />
            </div>
            <div class="below">
                <EventLog />
                <KubectlPanels />
            </div>
            <Export />
        </main>
        <footer>
            <span>"Model: "<a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/prober/prober_manager.go">"prober_manager.go"</a>", node lifecycle controller, taint eviction, EndpointSlices — every change names its rule."</span>
            // The whole site for a machine that never loaded it (scripts/offline.mjs writes it).
            <span><a id="offline-zip" href="./restartscope-offline.zip" download>"Offline copy (zip)"</a></span>
            <span class="perf">{move || if ui.rejected() {
                "nothing simulated: a setting is rejected".to_string()
            } else {
                let ms = ui.compute_ms.get();
                let runs = runs_words(ui.lanes.with(Vec::len));
                if crate::memo::last_kept() {
                    format!("{runs} as computed before, shown in {ms:.1} ms")
                } else {
                    format!("recomputed {runs} in {ms:.1} ms")
                }
            }}</span>
        </footer>
    }
}

/// `window.__restartscopeEventTimes()`: the times (ms) of the event log, for browser tests.
fn expose_event_times(runs: RwSignal<Option<Runs>>) {
    let f = wasm_bindgen::closure::Closure::<dyn Fn() -> js_sys::Array>::new(move || {
        runs.with_untracked(|r| {
            r.as_ref()
                .map(|r| {
                    r.event_times()
                        .map(|t| wasm_bindgen::JsValue::from_f64(t as f64))
                        .collect::<js_sys::Array>()
                })
                .unwrap_or_default()
        })
    });
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__restartscopeEventTimes".into(), f.as_ref());
    }
    f.forget();
}
