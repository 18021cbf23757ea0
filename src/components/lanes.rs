//! The lanes: the figure (`restartscope-figure`, the same drawing as the CLI's `--format svg`,
//! drawn on a canvas by `canvas.rs`), one group per run, and a playhead line over it. A click
//! seeks to the time under the pointer; hovering a shape shows its tooltip (the SVG's
//! `<title>`). The canvas's fallback content lists the figure's words for screen readers and
//! find-in-page. For an embedding page (and the browser tests) the canvas carries
//! `data-groups` (each run's box, figure px: `top height;…`), `data-text-min` (the smallest
//! text, figure px) and `data-settled` ("1" once the words describe the drawing).

use crate::canvas::{figure_point, CanvasFigure};
use crate::state::Lane;
use crate::ui::Ui;
use crate::url::Theme;
use leptos::prelude::*;
use restartscope_figure::{esc, Figure, Shape};
use wasm_bindgen::JsCast;

/// "Timeline: 1.35 · legacy above, 1.35 · KEP below", "Timeline: 1.34".
fn aria_label(lanes: &[Lane]) -> String {
    match lanes {
        [one] => format!("Timeline: {}", one.kubelet),
        [a, b] => format!("Timeline: {} above, {} below", a.kubelet, b.kubelet),
        _ => {
            let names: Vec<&str> = lanes.iter().map(|l| l.kubelet.as_str()).collect();
            format!("Timeline: {}", names.join(", "))
        }
    }
}

/// `children`: what `app.rs` lays over the figure (the restart bars' handles).
#[component]
pub fn Lanes(children: Children) -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.runs, ui.playhead);
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(target) = ev.current_target() else {
            return;
        };
        let Ok(el) = target.dyn_into::<web_sys::Element>() else {
            return;
        };
        let rect = el.get_bounding_client_rect();
        let t = runs.with_untracked(|r| {
            r.as_ref().map(|r| {
                let (x, _) = figure_point(r.figure.width, &rect, ev.client_x() as f64, 0.0);
                r.figure.t_of(x).clamp(0, r.horizon)
            })
        });
        if let Some(t) = t {
            ui.seek(t);
        }
    };
    let left = move || {
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    format!(
                        "translateX({:.3}%)",
                        r.figure.x_of(playhead.get()) / r.figure.width * 100.0
                    )
                })
                .unwrap_or_default()
        })
    };
    let display = move || {
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    let t = playhead.get();
                    if t < r.figure.t0_ms || t > r.figure.t1_ms {
                        "none"
                    } else {
                        "block"
                    }
                })
                .unwrap_or("none")
        })
    };
    // Drawn on every new run or theme; the words (fallback content) follow once the figure
    // has stayed put for 150 ms, so a drag pays only for the drawing.
    let cv = NodeRef::<leptos::html::Canvas>::new();
    let words = NodeRef::<leptos::html::Div>::new();
    let drawer = StoredValue::new_local(None::<CanvasFigure>);
    let pending = StoredValue::new_local(crate::rest::Rest::new());
    // What the canvas's attributes say (written only when that changes: each write is a call
    // into the browser and restyles the element, on every move of a drag).
    let said = StoredValue::new_local((String::new(), true));
    Effect::new(move |_| {
        let Some(el) = cv.get() else { return };
        // Redrawn sharp after a zoom or on another screen.
        let dpr = ui.dpr.get();
        let dark = ui.effective_theme() == Theme::Dark;
        runs.with(|r| {
            let Some(r) = r else { return };
            drawer.update_value(|d| {
                if d.is_none() {
                    *d = CanvasFigure::new(el.clone());
                }
                if let Some(d) = d {
                    d.draw(&r.figure, dark, dpr);
                }
            });
            let groups = groups_attr(&r.figure);
            said.update_value(|(g, settled)| {
                if *g != groups {
                    let _ = el.set_attribute("data-groups", &groups);
                    *g = groups;
                }
                if std::mem::replace(settled, false) {
                    let _ = el.set_attribute("data-settled", "0");
                }
            });
            let fig = r.figure.clone();
            pending.with_value(|p| {
                p.after(150, move || {
                    if let (Some(w), Some(c)) = (words.get_untracked(), cv.get_untracked()) {
                        w.set_inner_html(&words_html(&fig));
                        let _ = c.set_attribute("data-text-min", &format!("{:.2}", min_text(&fig)));
                        let _ = c.set_attribute("data-settled", "1");
                        said.update_value(|s| s.1 = true);
                    }
                });
            });
        });
    });
    let tip = NodeRef::<leptos::html::Div>::new();
    let shown_tip = StoredValue::new_local(None::<String>);
    let on_hover = move |ev: web_sys::PointerEvent| {
        let Some(tip) = tip.get_untracked() else {
            return;
        };
        let Some(el) = cv.get_untracked() else { return };
        let rect = el.get_bounding_client_rect();
        let text = runs.with_untracked(|r| {
            let r = r.as_ref()?;
            if ev.buttons() != 0 || rect.width() <= 0.0 {
                return None;
            }
            let k = r.figure.width / rect.width();
            let (x, y) = figure_point(
                r.figure.width,
                &rect,
                ev.client_x() as f64,
                ev.client_y() as f64,
            );
            r.figure
                .title_at(x, y, 3.0 * k.max(1.0))
                .map(str::to_string)
        });
        show_tip(&tip, shown_tip, text, &ev, &rect);
    };
    let on_leave = move |_| {
        if let Some(tip) = tip.get_untracked() {
            let _ = web_sys::HtmlElement::style(&tip).set_property("display", "none");
            shown_tip.set_value(None);
        }
    };
    let errors = ui.errors;
    let had_runs = move || runs.with(Option::is_some);
    view! {
        <section class="lanes" aria-label=move || ui.lanes.with(|l| aria_label(l))
            style:--fig-aspect=move || runs.with(|r| r.as_ref().map(|r| format!("{:.4}", r.figure.width / r.figure.height.max(1.0))).unwrap_or_default())>
            <Show when=move || ui.rejected()>
                <div class="rejected" id="rejected" role="alert">
                    <p><strong>"Nothing was simulated: Kubernetes (and so the model) rejects this setting."</strong></p>
                    <ul>
                        {move || errors.get().into_iter().map(|(f, m)| view! { <li><b>{f.label()}</b>": "{m}</li> }).collect_view()}
                    </ul>
                    <p class="previous">{move || if had_runs() {
                        "Below, dimmed: the previous valid setting, not this one. The address and Copy link keep the previous valid setting too."
                    } else {
                        "Change the setting to see a run."
                    }}</p>
                </div>
            </Show>
            <div class="figure" id="figure" data-playhead=move || playhead.get().to_string() on:click=on_click>
                <canvas class="rs-canvas" node_ref=cv role="img"
                    aria-label=move || runs.with(|r| r.as_ref().map(|r| r.figure.title.clone()).unwrap_or_default())
                    on:pointermove=on_hover on:pointerleave=on_leave>
                    <div class="rs-words" node_ref=words></div>
                </canvas>
                <div class="fig-tip" role="tooltip" node_ref=tip style="display:none"></div>
                <div class="playhead" aria-hidden="true" style:transform=left style:display=display></div>
                // A tour step's question: what follows its instant stays veiled until the next
                // key (`Ui::reveal`).
                {move || ui.veiled_from().and_then(|t| runs.with(|r| r.as_ref().map(|r| {
                    let f = &r.figure;
                    let x = (f.x_of(t) / f.width * 100.0).clamp(0.0, 100.0);
                    // The headers' counters are whole-run totals: they would tell the answer.
                    let covers = (f.groups.iter())
                        .flat_map(|g| g.counters.iter())
                        .map(|[cx, cy, cw, ch]| {
                            let style = format!(
                                "left:{:.3}%;top:{:.3}%;width:{:.3}%;height:{:.3}%",
                                cx / f.width * 100.0,
                                cy / f.height * 100.0,
                                (cw / f.width * 100.0).min(100.0 - cx / f.width * 100.0),
                                ch / f.height * 100.0
                            );
                            view! { <div class="veil-counts" aria-hidden="true" style=style></div> }
                        })
                        .collect_view();
                    view! {
                        {covers}
                        <div class="veil" id="veil" style:left=format!("{x:.3}%")
                            on:click=move |ev: web_sys::MouseEvent| { ev.stop_propagation(); ui.reveal(); }>
                            <p>"What happens next?"<br/><small>"Predict, then press → or click to reveal"</small></p>
                        </div>
                    }
                })))}
                {children()}
            </div>
            // The figure left pods out to stay on one screen: draw them all on request.
            {move || {
                let left = runs.with(|r| r.as_ref().map_or(0, |r| r.pods_left_out));
                let every = ui.every_pod.get();
                (left > 0 || every).then(|| view! {
                    <button type="button" id="every-pod" class="every-pod" aria-pressed=every.to_string()
                        on:click=move |_| ui.every_pod.update(|e| *e = !*e)>
                        {if every { "Fit the figure to the window".to_string() } else { format!("Draw every pod ({left} more per run; taller than the window)") }}
                    </button>
                })
            }}
            <p class="fig-note" id="cluster-note">"The node shown is one of a healthy multi-node cluster: the node lifecycle controller is in its normal mode and evicts at its normal rate. (A one-node cluster whose only node is down is in full disruption and never evicts: "
                <a href="fleet/?nodes=1&downtime=7m">"see the fleet view, one node down 7 minutes"</a>".)"</p>
        </section>
    }
}

/// Each run's box in figure px, `top height;top height`.
fn groups_attr(fig: &Figure) -> String {
    let v: Vec<String> = fig
        .groups
        .iter()
        .map(|g| format!("{:.1} {:.1}", g.y, g.h))
        .collect();
    v.join(";")
}

/// The figure's words in drawing order, for the canvas's fallback content: each text, and
/// each shape's tooltip (as the SVG's `<title>`s were read).
fn words_html(fig: &Figure) -> String {
    let mut s = String::new();
    for sh in &fig.shapes {
        if let Some(t) = sh.content().or(sh.title()) {
            s.push_str("<p>");
            s.push_str(&esc(t));
            s.push_str("</p>");
        }
    }
    s
}

/// The smallest font size of a text in the figure (figure px; `data-text-min`).
fn min_text(fig: &Figure) -> f64 {
    fig.shapes
        .iter()
        .filter_map(|sh| match sh {
            Shape::Text { class, text, .. } if !text.trim().is_empty() => {
                Some(restartscope_figure::paint::paint(class, true, false).font_size)
            }
            _ => None,
        })
        .fold(f64::INFINITY, f64::min)
}

/// Shows `text` (or hides the tooltip) next to the pointer, inside the figure.
fn show_tip(
    tip: &web_sys::HtmlDivElement,
    shown: StoredValue<Option<String>, LocalStorage>,
    text: Option<String>,
    ev: &web_sys::PointerEvent,
    rect: &web_sys::DomRect,
) {
    let style = web_sys::HtmlElement::style(tip);
    let Some(text) = text else {
        if shown.with_value(Option::is_some) {
            let _ = style.set_property("display", "none");
            shown.set_value(None);
        }
        return;
    };
    if shown.with_value(|s| s.as_deref() != Some(text.as_str())) {
        tip.set_text_content(Some(&text));
        let _ = style.set_property("display", "block");
        shown.set_value(Some(text));
    }
    let x = ev.client_x() as f64 - rect.left();
    let y = ev.client_y() as f64 - rect.top();
    // Left of the pointer in the figure's right half, so it stays inside.
    let (left, shift) = if x > rect.width() / 2.0 {
        (x - 12.0, "-100%")
    } else {
        (x + 14.0, "0")
    };
    let _ = style.set_property("left", &format!("{left:.0}px"));
    let _ = style.set_property("top", &format!("{:.0}px", y + 16.0));
    let _ = style.set_property("transform", &format!("translateX({shift})"));
}
