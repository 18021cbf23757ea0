//! The metric cards: one per `report::METRICS` descriptor (title = its label, tooltip = its
//! description), a row per run labelled with the run's kubelet profile and, when two runs are
//! compared, the difference (second − first, "KEP −6 ▼ better") with whether it is better, or
//! "same". By default each value is the run's metric up to the playhead
//! (`Metric::value_at`, exact from the run's checkpoints); a switch shows whole-run totals. A
//! metric a run does not have (no PodDisruptionBudget) says so instead of a number.

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::{Metric, METRICS};
use restartscope_sim::fmt_secs;
use restartscope_sim::Ms;

/// "Metrics, 1.35 · legacy versus 1.35 · KEP", "Metrics, 1.34".
fn aria_label(lanes: &[Lane]) -> String {
    let names: Vec<&str> = lanes.iter().map(|l| l.kubelet.as_str()).collect();
    format!("Metrics, {}", names.join(" versus "))
}

#[component]
fn Card(m: &'static Metric, at: Memo<Option<Ms>>) -> impl IntoView {
    let ui = Ui::get();
    let (runs, lanes) = (ui.panels, ui.lanes);
    // A memo: a playback frame redraws the card only when one of its values changes.
    let vals = Memo::new(move |_| {
        let at = at.get();
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.traces
                        .iter()
                        .map(|t| match at {
                            Some(t_ms) => m.value_at(t, t_ms),
                            None => m.value(&t.metrics),
                        })
                        .collect::<Vec<f64>>()
                })
                .unwrap_or_default()
        })
    });
    // Whether each run has this metric (a run without a budget has no PDB metric).
    let applies = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.traces
                        .iter()
                        .map(|t| m.applies(&t.metrics))
                        .collect::<Vec<bool>>()
                })
                .unwrap_or_default()
        })
    });
    let vals = move || {
        let a = applies.get();
        if a.iter().all(|x| *x) {
            vals.get()
        } else {
            Vec::new()
        }
    };
    // `None` with one run (nothing to compare), `Some(None)` for "same".
    let delta = move || match vals()[..] {
        [a, b] => Some(m.delta(a, b)),
        _ => None,
    };
    // "KEP −6 ▼ better": the side column's table shows "−6 ▼" (`.who` and `.word` hidden).
    let delta_view = move || {
        let second = lanes.with(|l| l.get(1).map(Lane::short).unwrap_or_default());
        delta().map(|d| match d {
            None => view! { <div class="delta">"same"</div> }.into_any(),
            Some(d) => {
                let (arrow, word) = if d.better { ("▼", "better") } else { ("▲", "worse") };
                view! {
                    <div class="delta"><span class="who">{second}" "</span>{format!("{d} {arrow}")}<span class="word">" "{word}</span></div>
                }
                .into_any()
            }
        })
    };
    view! {
        <div class="card" id=format!("metric-{}", m.key) title=m.description
            class:differs=move || matches!(delta(), Some(Some(_)))>
            <h3>{m.label()}</h3>
            <div class="vals">
                {move || lanes.get().into_iter().map(|lane| {
                    let class = lane.class();
                    let value = move || match vals().get(lane.index) {
                        Some(v) => m.fmt(*v),
                        None => "no budget".to_string(),
                    };
                    view! {
                        <span class=class data-policy=class><small>{lane.kubelet}</small><b class:na=move || vals().get(lane.index).is_none()>{value}</b></span>
                    }
                }).collect_view()}
            </div>
            {delta_view}
        </div>
    }
}

#[component]
pub fn Metrics() -> impl IntoView {
    let ui = Ui::get();
    let lanes = ui.lanes;
    let whole = RwSignal::new(false);
    // The time the cards are read at; `None`: whole-run totals. A card redraws only when one of
    // its values changes.
    let at = Memo::new(move |_| (!whole.get()).then(|| ui.playhead.get()));
    view! {
        <section class="metrics" aria-label=move || lanes.with(|l| aria_label(l))>
            <p class="metrics-scope" id="metrics-scope">
                <span>{move || if whole.get() {
                    format!("Whole-run totals (0s to {})", fmt_secs((ui.horizon() as f64 / 1000.0).round()))
                } else {
                    format!("Up to the playhead ({})", fmt_secs((ui.playhead.get() as f64 / 1000.0).floor()))
                }}</span>
                " "
                <label class="whole-run"><input type="checkbox" id="metrics-whole"
                    prop:checked=move || whole.get()
                    on:change=move |ev| whole.set(event_target_checked(&ev)) />" whole run"</label>
            </p>
            // The side column's table header: the runs, in their colours (the cards name them
            // too; this line is for the eye).
            <p class="metrics-heads" aria-hidden="true">
                <span class="grow">"Metric"</span>
                {move || lanes.get().into_iter().map(|l| view! { <span class=l.class()>{l.short()}</span> }).collect_view()}
                {move || (lanes.with(Vec::len) == 2).then(|| view! { <span class="delta-head">"change"</span> })}
            </p>
            {METRICS.iter().map(|m| view! { <Card m=m at=at /> }).collect_view()}
        </section>
    }
}
