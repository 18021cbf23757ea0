//! The page: controls, the two policies' lanes on one clock, kubectl panels, event log, metrics.

use crate::form::{downtime_pos, downtime_steps, fmt_num, Field, Settings, MAX_RESTART_AT_S};
use crate::url::{self, Theme};
use leptos::prelude::*;
use restartscope_figure::{layout_read, Figure, LayoutOpts};
use restartscope_report::{describe, kubectl, notable, why, Timeline, METRICS};
use restartscope_sim::{compare, fmt_secs, presets, words_secs, Policy, Trace};
use std::sync::Arc;
use wasm_bindgen::JsCast;

pub const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
const DEFAULT_SPEED: usize = 4; // 4×

/// Both runs of the current settings, with their figure.
#[derive(Clone)]
pub struct Runs {
    pub scenario: Arc<restartscope_sim::Scenario>,
    pub traces: Arc<[Trace; 2]>,
    /// The two traces read once (state at any time).
    pub timelines: Arc<[Timeline; 2]>,
    pub figure: Arc<Figure>,
    pub svg: Arc<String>,
    /// Notable events of both runs, in time order: (policy index, event index).
    pub log: Arc<Vec<(usize, usize)>>,
    pub horizon: i64,
}

pub fn compute(settings: &Settings) -> Result<Runs, Vec<(Field, String)>> {
    compute_at_width(settings, 1200.0, false)
}

/// `width` is the figure's layout width: narrower means larger text once scaled to the page
/// (presentation view uses 860).
/// `zoom` narrows the figure to the restart: from 10 s before the stop to 45 s after the return.
pub fn compute_at_width(
    settings: &Settings,
    width: f64,
    zoom: bool,
) -> Result<Runs, Vec<(Field, String)>> {
    let sc = settings.scenario()?;
    let traces = compare(&sc).map_err(|es| {
        es.into_iter()
            .map(|e| (crate::form::field_of_path(&e.field), e.to_string()))
            .collect::<Vec<_>>()
    })?;
    let timelines = [Timeline::new(&traces[0]), Timeline::new(&traces[1])];
    let figure = layout_read(
        &traces,
        &timelines,
        &LayoutOpts {
            width,
            t0_ms: if zoom {
                (ms_of(sc.kubelet.restarts[0].at_s) - 10_000).max(0)
            } else {
                0
            },
            t1_ms: if zoom {
                ms_of(sc.kubelet.restarts[0].at_s + sc.kubelet.restarts[0].downtime_s) + 45_000
            } else {
                0
            },
            ..LayoutOpts::default()
        },
    );
    let svg = figure.to_svg();
    let log = notable::merged(&traces);
    Ok(Runs {
        scenario: Arc::new(sc),
        horizon: traces[0].horizon,
        timelines: Arc::new(timelines),
        traces: Arc::new(traces),
        figure: Arc::new(figure),
        svg: Arc::new(svg),
        log: Arc::new(log),
    })
}

fn ms_of(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

#[component]
pub fn App() -> impl IntoView {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (initial, url_notes) = url::parse(&search);
    let reduced = crate::env::prefers_reduced_motion();
    let settings = RwSignal::new(initial.settings.clone());
    let errors = RwSignal::new(Vec::<(Field, String)>::new());
    let runs = RwSignal::new(None::<Runs>);
    let playhead = RwSignal::new(initial.t_ms.unwrap_or(0));
    // Autoplay unless the link pins a time or the reader prefers reduced motion.
    let playing = RwSignal::new(initial.t_ms.is_none() && !reduced);
    let speed = RwSignal::new(initial.speed.unwrap_or(DEFAULT_SPEED));
    let compute_ms = RwSignal::new(0.0f64);
    let notices = RwSignal::new(url_notes);
    let theme = RwSignal::new(initial.theme);
    let system_dark = RwSignal::new(crate::env::prefers_dark());
    let embed = initial.embed;
    let present = RwSignal::new(initial.present);
    let zoom = RwSignal::new(initial.zoom);
    let help = RwSignal::new(false);
    let visible = RwSignal::new(true);
    let copied = RwSignal::new(false);
    let effective_theme = move || {
        theme.get().unwrap_or(if system_dark.get() {
            Theme::Dark
        } else {
            Theme::Light
        })
    };
    Effect::new(move |_| {
        let t = effective_theme();
        let p = present.get();
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-theme", t.as_str());
            let _ = el.set_attribute("data-embed", if embed { "1" } else { "0" });
            let _ = el.set_attribute("data-present", if p { "1" } else { "0" });
        }
    });
    crate::env::watch_system_dark(system_dark);
    crate::env::watch_visibility(visible);
    // The query string follows the screen (the playhead only when paused, not every frame).
    let url_state = move || url::UrlState {
        settings: settings.get(),
        t_ms: Some(if playing.get() {
            playhead.get_untracked()
        } else {
            playhead.get()
        }),
        speed: Some(speed.get()),
        theme: theme.get(),
        embed,
        present: present.get(),
        zoom: zoom.get(),
    };
    Effect::new(move |_| {
        let q = url::to_query(&url_state());
        if let Some(w) = web_sys::window() {
            if let Ok(h) = w.history() {
                let _ = h.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&format!("?{q}")),
                );
            }
        }
    });

    // Recompute both runs whenever a setting changes; keep the last valid run on error.
    Effect::new(move |_| {
        let s = settings.get();
        let width = if present.get() { 860.0 } else { 1200.0 };
        let t0 = now_ms();
        let result = compute_at_width(&s, width, zoom.get());
        let pure = now_ms() - t0;
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-model-ms", &format!("{pure:.3}"));
        }
        match result {
            Ok(r) => {
                let h = r.horizon;
                runs.set(Some(r));
                errors.set(Vec::new());
                playhead.update(|p| *p = (*p).min(h));
            }
            Err(e) => errors.set(e),
        }
        let dt = now_ms() - t0;
        compute_ms.set(dt);
        if let Some(el) = document().document_element() {
            let _ = el.set_attribute("data-compute-ms", &format!("{dt:.3}"));
        }
    });

    crate::playback::start(playhead, playing, speed, runs, visible, reduced);
    expose_event_times(runs);

    let horizon = move || runs.with(|r| r.as_ref().map(|r| r.horizon).unwrap_or(1));
    let err_for = move |f: Field| {
        errors.with(|es| {
            es.iter()
                .filter(|(g, _)| *g == f)
                .map(|(_, m)| m.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })
    };

    let step_event = move |forward: bool| {
        runs.with_untracked(|r| {
            let Some(r) = r else { return };
            let now = playhead.get_untracked();
            let times = r.log.iter().map(|&(p, i)| r.traces[p].events[i].t);
            let target = if forward {
                times.filter(|&t| t > now).min()
            } else {
                times.filter(|&t| t < now).max()
            };
            if let Some(t) = target {
                playing.set(false);
                playhead.set(t);
            }
        });
    };

    let toggle_play = move || {
        if !playing.get_untracked() && playhead.get_untracked() >= horizon() {
            playhead.set(0);
        }
        playing.update(|p| *p = !*p);
    };
    let pick_preset = move |name: &str| {
        settings.set(Settings::for_preset(name));
        playhead.set(0);
        playing.set(!reduced);
    };
    let _keys = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let tag = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map(|e| e.tag_name().to_ascii_lowercase())
            .unwrap_or_default();
        let typing = matches!(tag.as_str(), "input" | "select" | "textarea");
        let key = ev.key();
        if typing && key != "Escape" {
            return;
        }
        let handled = match key.as_str() {
            " " if tag != "button" => {
                toggle_play();
                true
            }
            "ArrowLeft" => {
                step_event(false);
                true
            }
            "ArrowRight" => {
                step_event(true);
                true
            }
            "+" | "=" => {
                speed.update(|s| *s = (*s + 1).min(SPEEDS.len() - 1));
                true
            }
            "-" | "_" => {
                speed.update(|s| *s = s.saturating_sub(1));
                true
            }
            "r" | "R" => {
                playhead.set(0);
                playing.set(true);
                true
            }
            "p" | "P" => {
                present.update(|p| *p = !*p);
                true
            }
            "z" | "Z" => {
                zoom.update(|z| *z = !*z);
                true
            }
            "?" => {
                help.update(|h| *h = !*h);
                true
            }
            "Escape" => {
                help.set(false);
                true
            }
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                let i = (d.as_bytes()[0] - b'0') as usize;
                if (1..=presets::PRESETS.len()).contains(&i) {
                    pick_preset(presets::PRESETS[i - 1].name);
                    true
                } else {
                    false
                }
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
        }
    });
    let link = move || {
        let q = url::to_query(&url::UrlState {
            t_ms: Some(playhead.get_untracked()),
            ..url_state()
        });
        let base = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .map(|h| h.split(['?', '#']).next().unwrap_or("").to_string())
            .unwrap_or_default();
        format!("{base}?{q}")
    };
    let file_stem = move || {
        runs.with_untracked(|r| {
            r.as_ref()
                .map(|r| {
                    format!(
                        "restartscope-{}-{}s",
                        r.scenario.name, r.scenario.kubelet.restarts[0].downtime_s
                    )
                })
                .unwrap_or_else(|| "restartscope".into())
        })
    };

    view! {
        <Notices notices=notices />
        <Help open=help />
        <header class="top">
            <h1>"RestartScope"</h1>
            <p class="tagline">"What a kubelet restart does to a node's pods — the legacy kubelet and "
                <a href="https://github.com/kubernetes/enhancements/tree/master/keps/sig-node/4781-kublet-restart-pod-status">"KEP-4781"</a>
                " side by side, on one clock."</p>
            <div class="tools">
                <button id="theme-toggle" type="button" aria-label="Toggle dark theme"
                    aria-pressed=move || (effective_theme() == Theme::Dark).to_string()
                    on:click=move |_| theme.set(Some(if effective_theme() == Theme::Dark { Theme::Light } else { Theme::Dark }))>
                    {move || if effective_theme() == Theme::Dark { "☀ Light" } else { "☾ Dark" }}
                </button>
                <button id="present-toggle" type="button" aria-keyshortcuts="P" aria-pressed=move || present.get().to_string()
                    on:click=move |_| present.update(|p| *p = !*p)>"Presentation view"</button>
                <button id="help-open" type="button" aria-keyshortcuts="?" on:click=move |_| help.set(true)>"Keys ?"</button>
            </div>
        </header>
        <main>
            <section class="controls" aria-label="Scenario">
                <div class="control preset">
                    <label for="preset">"Scenario"</label>
                    <select id="preset"
                        prop:value=move || settings.with(|s| s.preset.clone())
                        on:change=move |ev| pick_preset(&event_target_value(&ev))>
                        {presets::PRESETS.iter().enumerate().map(|(i, p)| view! { <option value=p.name>{format!("{} · {}", i + 1, p.name)}</option> }).collect_view()}
                    </select>
                    <p class="teaches" id="teaches">{move || settings.with(|s| presets::find(&s.preset).map(|p| p.teaches).unwrap_or(""))}</p>
                </div>
                <div class="control downtime">
                    <label for="downtime">"Kubelet downtime "
                        <output id="downtime-value" for="downtime">{move || fmt_secs(settings.with(|s| s.downtime_s))}</output>
                    </label>
                    <input id="downtime" type="range" min="0" max=downtime_steps().len() - 1 step="1"
                        list="downtime-marks"
                        prop:value=move || downtime_pos(settings.with(|s| s.downtime_s)).to_string()
                        aria-valuetext=move || words_secs(settings.with(|s| s.downtime_s))
                        on:input=move |ev| {
                            let pos: usize = event_target_value(&ev).parse().unwrap_or(0);
                            let v = downtime_steps().get(pos).copied().unwrap_or(0.0);
                            settings.update(|s| s.downtime_s = v);
                            playing.set(true);
                        } />
                    <div class="marks" aria-hidden="true">
                        {move || runs.with(|r| r.as_ref().map(|r| {
                            let n = (downtime_steps().len() - 1) as f64;
                            let grace_s = r.scenario.cluster.grace_s();
                            let g = downtime_pos(grace_s) as f64 / n * 100.0;
                            let ev_s = r.scenario.cluster.eviction_downtime_estimate_s();
                            let e = downtime_pos(ev_s) as f64 / n * 100.0;
                            view! {
                                <span class="mark grace" style=format!("left:{g:.2}%")>{format!("grace {}", fmt_secs(grace_s))}</span>
                                <span class="mark evict" style=format!("left:{e:.2}%")>{format!("eviction ≈ {}", fmt_secs(ev_s))}</span>
                            }
                        }))}
                    </div>
                    <p class="field-error" id="downtime-error" role="alert">{move || err_for(Field::Downtime)}</p>
                </div>
                <div class="control restart-at">
                    <label for="restart-at">"Restart at "
                        <output for="restart-at">{move || fmt_secs(settings.with(|s| s.restart_at_s))}</output>
                    </label>
                    <input id="restart-at" type="range" min="0" max=MAX_RESTART_AT_S step="5"
                        prop:value=move || settings.with(|s| s.restart_at_s).to_string()
                        aria-valuetext=move || words_secs(settings.with(|s| s.restart_at_s))
                        on:input=move |ev| {
                            let v: f64 = event_target_value(&ev).parse().unwrap_or(0.0);
                            settings.update(|s| s.restart_at_s = v);
                        } />
                    <p class="field-error" role="alert">{move || err_for(Field::RestartAt)}</p>
                </div>
            </section>

            <details class="params">
                <summary>"Parameters"</summary>
                <div class="param-grid">
                    <div class="control">
                        <label for="version">"Kubernetes version"</label>
                        <select id="version" prop:value=move || settings.with(|s| s.version.clone())
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                settings.update(|s| {
                                    if let Some(k) = restartscope_sim::KubeVersion::parse(&v) {
                                        s.grace_s = fmt_num(k.default_grace_s());
                                    }
                                    s.version = v;
                                });
                            }>
                            <option value="1.31">"1.31 (grace 40 s)"</option>
                            <option value="1.34">"1.34 (grace 50 s)"</option>
                            <option value="1.35">"1.35 (grace 50 s)"</option>
                        </select>
                    </div>
                    {[
                        Field::Grace,
                        Field::Toleration,
                        Field::FirstSync,
                        Field::Seed,
                        Field::Period,
                        Field::FailureThreshold,
                        Field::SuccessThreshold,
                        Field::Exec,
                    ].into_iter().map(|f| {
                        let range = f.range_text();
                        let get = move |s: &Settings| match f {
                            Field::Grace => s.grace_s.clone(),
                            Field::Toleration => s.toleration_s.clone(),
                            Field::FirstSync => s.first_sync_s.clone(),
                            Field::Seed => s.seed.clone(),
                            Field::Period => s.period_s.clone(),
                            Field::FailureThreshold => s.failure_threshold.clone(),
                            Field::SuccessThreshold => s.success_threshold.clone(),
                            _ => s.exec_s.clone(),
                        };
                        let err_id = format!("{}-error", f.id());
                        view! {
                            <div class="control" class:invalid=move || !err_for(f).is_empty()>
                                <label for=f.id()>{f.label()}</label>
                                <input id=f.id() type="text" inputmode="decimal" aria-describedby=err_id.clone()
                                    prop:value=move || settings.with(get)
                                    aria-invalid=move || (!err_for(f).is_empty()).to_string()
                                    on:change=move |ev| {
                                        let v = event_target_value(&ev);
                                        settings.update(|s| match f {
                                            Field::Grace => s.grace_s = v,
                                            Field::Toleration => s.toleration_s = v,
                                            Field::FirstSync => s.first_sync_s = v,
                                            Field::Seed => s.seed = v,
                                            Field::Period => s.period_s = v,
                                            Field::FailureThreshold => s.failure_threshold = v,
                                            Field::SuccessThreshold => s.success_threshold = v,
                                            _ => s.exec_s = v,
                                        });
                                    } />
                                <small class="range">{range}</small>
                                <p class="field-error" id=err_id role="alert">{move || err_for(f)}</p>
                            </div>
                        }
                    }).collect_view()}
                </div>
                <p class="field-error" role="alert">{move || { let a = err_for(Field::Preset); let b = err_for(Field::Version); format!("{a}{b}") }}</p>
            </details>

            <section class="playback" aria-label="Playback">
                <button id="play" class="primary" aria-keyshortcuts="Space" on:click=move |_| toggle_play()>{move || if playing.get() { "❚❚ Pause" } else { "▶ Play" }}</button>
                <button id="prev-event" title="Previous event" on:click=move |_| step_event(false)>"◂ Prev event"</button>
                <button id="next-event" title="Next event" on:click=move |_| step_event(true)>"Next event ▸"</button>
                <button id="restart" title="Back to 0 s" aria-keyshortcuts="R" on:click=move |_| { playhead.set(0); playing.set(true); }>"↺ From 0"</button>
                <button id="zoom" title="Zoom the lanes to the restart" aria-keyshortcuts="Z" aria-pressed=move || zoom.get().to_string()
                    on:click=move |_| zoom.update(|z| *z = !*z)>{move || if zoom.get() { "Whole run" } else { "Zoom to restart" }}</button>
                <label for="speed">"Speed"</label>
                <select id="speed" prop:value=move || speed.get().to_string()
                    on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(DEFAULT_SPEED))>
                    {SPEEDS.iter().enumerate().map(|(i, s)| view! { <option value=i.to_string()>{format!("{s}×")}</option> }).collect_view()}
                </select>
                <label for="scrub" class="scrub-label">"Time " <output id="clock">{move || fmt_secs((playhead.get() as f64 / 1000.0).floor())}</output></label>
                <input id="scrub" type="range" min="0" max=move || horizon().to_string() step="100"
                    prop:value=move || playhead.get().to_string()
                    aria-valuetext=move || words_secs(playhead.get() as f64 / 1000.0)
                    on:input=move |ev| {
                        playing.set(false);
                        playhead.set(event_target_value(&ev).parse().unwrap_or(0));
                    } />
            </section>

            <Why runs=runs />
            <Metrics runs=runs />

            <section class="lanes" aria-label="Timeline: legacy above, KEP-4781 below">
                <div class="figure" id="figure" data-playhead=move || playhead.get().to_string()
                    on:click=move |ev: web_sys::MouseEvent| {
                        let Some(target) = ev.current_target() else { return };
                        use wasm_bindgen::JsCast;
                        let Ok(el) = target.dyn_into::<web_sys::Element>() else { return };
                        let rect = el.get_bounding_client_rect();
                        runs.with_untracked(|r| if let Some(r) = r {
                            let x = (ev.client_x() as f64 - rect.left()) / rect.width() * r.figure.width;
                            let t = r.figure.t_of(x).clamp(0, r.horizon);
                            playing.set(false);
                            playhead.set(t);
                        });
                    }>
                    <div class="svg-host" inner_html=move || runs.with(|r| r.as_ref().map(|r| (*r.svg).clone()).unwrap_or_default())></div>
                    <div class="playhead" aria-hidden="true"
                        style:left=move || runs.with(|r| r.as_ref().map(|r| format!("{:.3}%", r.figure.x_of(playhead.get()) / r.figure.width * 100.0)).unwrap_or_default())
                        style:display=move || runs.with(|r| r.as_ref().map(|r| {
                            let t = playhead.get();
                            if t < r.figure.t0_ms || t > r.figure.t1_ms { "none" } else { "block" }
                        }).unwrap_or("none"))></div>
                </div>
            </section>

            <div class="below">
                <EventLog runs=runs playhead=playhead playing=playing />
                <div class="kubectl-pair">
                    {[0usize, 1].into_iter().map(|p| view! { <KubectlPanel runs=runs playhead=playhead policy=p /> }).collect_view()}
                </div>
            </div>
            <section class="export" aria-label="Share and export">
                <button id="copy-link" type="button" on:click=move |_| {
                    crate::export::copy_text(&link());
                    copied.set(true);
                }>{move || if copied.get() { "✓ Link copied" } else { "Copy link" }}</button>
                <button id="download-svg" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                    let _ = crate::export::download_text(&format!("{}.svg", file_stem()), "image/svg+xml", &r.svg);
                })>"Download SVG"</button>
                <button id="download-png" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                    let _ = crate::export::download_png(&format!("{}.png", file_stem()), &r.svg, r.figure.width, r.figure.height);
                })>"Download PNG"</button>
                <button id="download-json" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                    let json = restartscope_report::json::render(&r.scenario, &r.traces[..]);
                    let _ = crate::export::download_text(&format!("{}.json", file_stem()), "application/json", &json);
                })>"Download JSON trace"</button>
                <span class="hint">"Same SVG and JSON as the "<code>"restartscope"</code>" command line."</span>
            </section>
        </main>
        <footer>
            <span>"Model: "<a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/prober/prober_manager.go">"prober_manager.go"</a>", node lifecycle controller, taint eviction, EndpointSlices — every change names its rule."</span>
            <span class="perf">{move || format!("recomputed both runs in {:.1} ms", compute_ms.get())}</span>
        </footer>
    }
}

#[component]
fn Metrics(runs: RwSignal<Option<Runs>>) -> impl IntoView {
    view! {
        <section class="metrics" aria-label="Metrics, legacy versus KEP-4781">
            {METRICS.iter().map(|m| {
                let vals = move || runs.with(|r| r.as_ref().map(|r| (m.value(&r.traces[0].metrics), m.value(&r.traces[1].metrics))).unwrap_or((0.0, 0.0)));
                view! {
                    <div class="card" id=format!("metric-{}", m.key) title=m.description
                        class:differs=move || { let (a, b) = vals(); m.delta(a, b).is_some() }>
                        <h3>{m.label()}</h3>
                        <div class="vals">
                            <span class="legacy" data-policy="legacy"><small>"legacy "</small>{move || m.fmt(vals().0)}</span>
                            <span class="kep" data-policy="kep"><small>"KEP "</small>{move || m.fmt(vals().1)}</span>
                        </div>
                        <div class="delta">{move || {
                            let (a, b) = vals();
                            match m.delta(a, b) {
                                None => "same".to_string(),
                                Some(d) => format!("KEP {d} {}", if d.better { "▼ better" } else { "▲ worse" }),
                            }
                        }}</div>
                    </div>
                }
            }).collect_view()}
        </section>
    }
}

#[component]
fn EventLog(
    runs: RwSignal<Option<Runs>>,
    playhead: RwSignal<i64>,
    playing: RwSignal<bool>,
) -> impl IntoView {
    let items = move || {
        runs.with(|r| {
            let Some(r) = r else { return Vec::new() };
            let now = playhead.get();
            let split = r
                .log
                .partition_point(|&(p, i)| r.traces[p].events[i].t <= now);
            let from = split.saturating_sub(7);
            let to = (split + 4).min(r.log.len());
            r.log[from..to]
                .iter()
                .enumerate()
                .map(|(k, &(p, i))| {
                    let tr = &r.traces[p];
                    let e = &tr.events[i];
                    (
                        e.t,
                        p,
                        describe(tr, e),
                        e.rule,
                        from + k < split,
                        from + k + 1 == split,
                    )
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="log" aria-label="Event log at the playhead">
            <h2>"Events"</h2>
            <ol>
                {move || items().into_iter().map(|(t, p, text, rule, past, current)| {
                    let pol = if p == 0 { Policy::Legacy } else { Policy::Kep };
                    view! {
                        <li class:past=past class:current=current class:future=!past>
                            <button class="event" on:click=move |_| { playing.set(false); playhead.set(t); }
                                title=format!("{} — {}", rule.title(), rule.source())>
                                <span class="t">{kubectl::clock(t)}</span>
                                <span class=format!("badge {}", pol.as_str())>{if p == 0 { "legacy" } else { "KEP" }}</span>
                                <span class="text">{text}</span>
                                <span class="rule"><b>{rule.id()}</b>" "{rule.source()}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn KubectlPanel(
    runs: RwSignal<Option<Runs>>,
    playhead: RwSignal<i64>,
    policy: usize,
) -> impl IntoView {
    let title = if policy == 0 { "legacy" } else { "KEP-4781" };
    let rows = move || {
        runs.with(|r| {
            r.as_ref()
                .map(|r| kubectl::rows(&r.timelines[policy], playhead.get()))
                .unwrap_or_default()
        })
    };
    view! {
        <section class="kubectl" aria-label=format!("kubectl get pods -w, {title}")>
            <h2><code>"$ kubectl get pods -w"</code>" "<span class=format!("badge {}", if policy == 0 { "legacy" } else { "kep" })>{title}</span></h2>
            <pre>
                <span class="hdr">{format!("{:<7}{:<13}{:<6}{:<12}{:<9}{}\n", "TIME", "NAME", "READY", "STATUS", "RESTARTS", "# Ready condition")}</span>
                {move || {
                    let rows = rows();
                    let skip = rows.len().saturating_sub(14);
                    rows.into_iter().skip(skip).map(|r| {
                        let line = format!("{:<7}{:<13}{:<6}{:<12}{:<9}", kubectl::clock(r.t_ms), r.name, r.ready, r.status, r.restarts);
                        view! { <span class:notready=!r.condition_ready>{line}<span class="cond">{format!("# {}\n", r.condition)}</span></span> }
                    }).collect_view()
                }}
            </pre>
        </section>
    }
}

#[component]
fn Why(runs: RwSignal<Option<Runs>>) -> impl IntoView {
    view! {
        <section class="why" aria-label="Why Ready changed">
            {[0usize, 1].into_iter().map(|p| {
                let lines = move || runs.with(|r| r.as_ref().map(|r| why::lines(&r.timelines[p], None)).unwrap_or_default());
                view! {
                    <div class=format!("why-col {}", if p == 0 { "legacy" } else { "kep" }) id=format!("why-{}", if p == 0 { "legacy" } else { "kep" })>
                        <h2><span class=format!("badge {}", if p == 0 { "legacy" } else { "kep" })>{if p == 0 { "Legacy kubelet" } else { "KEP-4781 kubelet" }}</span>" why pod Ready changed"</h2>
                        <ul>
                            {move || {
                                let l = lines();
                                if l.is_empty() {
                                    view! { <li class="none">"Never: the restart was invisible to the API server and to Services."</li> }.into_any()
                                } else {
                                    l.into_iter().map(|why::WhyLine { rule, ready: v, count: n, text }| view! {
                                        <li>
                                            <span class=if v { "to true" } else { "to false" }>{if v { "→ Ready" } else { "→ NotReady" }}</span>
                                            <span class="n">{format!("×{n}")}</span>
                                            <span class="text">{text}</span>
                                            <span class="rule" title=rule.source()>{rule.id()}</span>
                                        </li>
                                    }).collect_view().into_any()
                                }
                            }}
                        </ul>
                    </div>
                }
            }).collect_view()}
        </section>
    }
}

#[component]
fn Notices(notices: RwSignal<Vec<String>>) -> impl IntoView {
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

pub const SHORTCUTS: [(&str, &str); 10] = [
    ("Space", "Play / pause"),
    ("← / →", "Previous / next event"),
    ("+ / −", "Faster / slower"),
    ("R", "Restart from 0 s"),
    ("1 … 8", "Pick a scenario"),
    ("P", "Presentation view (large type)"),
    ("Z", "Zoom the lanes to the restart / whole run"),
    ("?", "Show or hide this help"),
    ("Esc", "Close this help"),
    ("Tab", "Move between controls"),
];

#[component]
fn Help(open: RwSignal<bool>) -> impl IntoView {
    // Move focus into the dialog when it opens, so Tab and Esc work from there.
    Effect::new(move |_| {
        if open.get() {
            request_animation_frame(|| {
                if let Some(el) = document().get_element_by_id("help-close") {
                    if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                        let _ = el.focus();
                    }
                }
            });
        }
    });
    view! {
        <Show when=move || open.get()>
            <div class="overlay" on:click=move |_| open.set(false)>
                <div class="help" id="help" role="dialog" aria-modal="true" aria-labelledby="help-title"
                    on:click=|ev| ev.stop_propagation()>
                    <h2 id="help-title">"Keyboard shortcuts"</h2>
                    <table>
                        {SHORTCUTS.iter().map(|(k, what)| view! { <tr><th><kbd>{*k}</kbd></th><td>{*what}</td></tr> }).collect_view()}
                    </table>
                    <ol class="preset-keys">
                        {presets::PRESETS.iter().map(|p| view! { <li><b>{p.name}</b>" — "{p.teaches}</li> }).collect_view()}
                    </ol>
                    <button type="button" id="help-close" on:click=move |_| open.set(false)>"Close"</button>
                </div>
            </div>
        </Show>
    }
}

/// `window.__restartscopeEventTimes()`: the times (ms) of the event log, for browser tests.
fn expose_event_times(runs: RwSignal<Option<Runs>>) {
    let f = wasm_bindgen::closure::Closure::<dyn Fn() -> js_sys::Array>::new(move || {
        runs.with_untracked(|r| {
            r.as_ref()
                .map(|r| {
                    r.log
                        .iter()
                        .map(|&(p, i)| {
                            wasm_bindgen::JsValue::from_f64(r.traces[p].events[i].t as f64)
                        })
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
