//! The guided tour on the page (`?tour=kep-4781&step=N`): the step's title, "Step N of M", its
//! caption (numbers filled from the step's runs by `restartscope-tour`), Back / Next (also ← / →)
//! and Leave; and the header's "Tour" entry point for first-time visitors. The free-play controls
//! stay: editing any setting leaves the tour.

use crate::ui::Ui;
use leptos::prelude::*;

/// The first tour, opened from the header.
const FIRST: &str = "kep-4781";

#[component]
pub fn TourEntry() -> impl IntoView {
    let ui = Ui::get();
    view! {
        <Show when=move || ui.tour.with(Option::is_none)>
            <button id="tour-open" type="button"
                title="KEP-4781 in seven steps, each a figure with what to look at and why"
                on:click=move |_| ui.open_tour(FIRST, 1)>"▶ Tour"</button>
        </Show>
    }
}

#[component]
pub fn Tour() -> impl IntoView {
    let ui = Ui::get();
    let step = ui.step;
    view! {
        <Show when=move || step.with(Option::is_some)>
            <section class="tour" id="tour" aria-labelledby="tour-title" aria-live="polite">
                {move || step.get().map(|v| {
                    let (n, count) = (v.n, v.count);
                    view! {
                        <p class="tour-where">
                            <span class="tour-name">{v.tour_title}</span>
                            " · "<span id="tour-step">{format!("Step {n} of {count}")}</span>
                        </p>
                        // Predict, then reveal: the question in place of the title, caption
                        // and marks until the next key.
                        {move || (!ui.revealed.get()).then(|| view! {
                            <h2 id="tour-question" class="tour-question">{v.predict.clone().map(|p| p.1).unwrap_or_default()}</h2>
                            <p class="tour-caption tour-predict-hint">"The figure stops at the kubelet's return. Make your guess, then press → (or Reveal) to see what each kubelet does."</p>
                        })}
                        <div class="tour-answer" hidden=move || !ui.revealed.get()>
                        <h2 id="tour-title">{v.title}</h2>
                        {v.caption.into_iter().map(|p| view! { <p class="tour-caption">{p}</p> }).collect_view()}
                        {(!v.marks.is_empty()).then(|| view! {
                            <ol class="tour-marks" aria-label="Marks in the figure">
                                {v.marks.into_iter().map(|(t, label)| view! {
                                    <li><button type="button" class="tour-mark" on:click=move |_| ui.seek(t)>
                                        {format!("{} at {}", label, restartscope_report::kubectl::clock(t))}
                                    </button></li>
                                }).collect_view()}
                            </ol>
                        })}
                        </div>
                        <div class="tour-nav">
                            <button id="tour-back" type="button" aria-keyshortcuts="ArrowLeft"
                                disabled={n <= 1} on:click=move |_| { ui.step_tour(false); }>"◂ Back"</button>
                            <button id="tour-next" type="button" aria-keyshortcuts="ArrowRight"
                                disabled=move || { n >= count && ui.revealed.get() } on:click=move |_| { ui.step_tour(true); }>
                                {move || if ui.revealed.get() { "Next ▸" } else { "Reveal ▸" }}</button>
                            <button id="tour-leave" type="button" on:click=move |_| ui.tour.set(None)>"Leave the tour"</button>
                            <small class="tour-hint">"← / → move between steps; changing a setting leaves the tour."</small>
                        </div>
                    }
                })}
            </section>
        </Show>
    }
}
