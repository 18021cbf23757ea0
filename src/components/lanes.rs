//! The lanes: the figure's SVG (`restartscope-figure`, the same drawing as the CLI's
//! `--format svg`, patched in place by `svg_patch`), one group per run, and a playhead line over it. A click seeks to the time
//! under the pointer.

use crate::state::Lane;
use crate::svg_patch::SvgPatcher;
use crate::ui::Ui;
use leptos::prelude::*;
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
                let x = (ev.client_x() as f64 - rect.left()) / rect.width() * r.figure.width;
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
    // The figure is patched in place (`svg_patch`): a new run changes only what differs.
    let host = NodeRef::<leptos::html::Div>::new();
    let patcher = StoredValue::new_local(None::<SvgPatcher>);
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        runs.with(|r| {
            let Some(r) = r else { return };
            patcher.update_value(|p| {
                if p.is_none() {
                    *p = SvgPatcher::new(&el);
                }
                if let Some(p) = p {
                    p.draw(&r.figure);
                }
            });
        });
    });
    let errors = ui.errors;
    let had_runs = move || runs.with(Option::is_some);
    view! {
        <section class="lanes" aria-label=move || ui.lanes.with(|l| aria_label(l))>
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
            <div class="figure" id="figure" data-playhead=move || playhead.get().to_string() on:click=on_click
                style:--fig-aspect=move || runs.with(|r| r.as_ref().map(|r| format!("{:.4}", r.figure.width / r.figure.height.max(1.0))).unwrap_or_default())>
                <div class="svg-host" node_ref=host></div>
                <div class="playhead" aria-hidden="true" style:transform=left style:display=display></div>
                {children()}
            </div>
            <p class="fig-note" id="cluster-note">"The node shown is one of a healthy multi-node cluster: the node lifecycle controller is in its normal mode and evicts at its normal rate. (A one-node cluster whose only node is down is in full disruption and never evicts: "
                <a href="fleet/?nodes=1">"see the fleet view"</a>".)"</p>
        </section>
    }
}
