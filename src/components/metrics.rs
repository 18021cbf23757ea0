//! The metric cards: one per `report::METRICS` descriptor (title = its label, tooltip = its
//! description), a row per run labelled with the run's kubelet profile and, when two runs are
//! compared, the difference (second − first, "KEP −6 ▼ better") with whether it is better, or
//! "same".

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::{Metric, METRICS};
use restartscope_sim::fmt_secs;

/// "Metrics, 1.35 · legacy versus 1.35 · KEP", "Metrics, 1.34".
fn aria_label(lanes: &[Lane]) -> String {
    let names: Vec<&str> = lanes.iter().map(|l| l.kubelet.as_str()).collect();
    format!("Metrics, {}", names.join(" versus "))
}

#[component]
fn Card(m: &'static Metric) -> impl IntoView {
    let ui = Ui::get();
    let (runs, lanes) = (ui.runs, ui.lanes);
    let vals = move || {
        runs.with(|r| {
            r.as_ref()
                .map(|r| r.traces.iter().map(|t| m.value(&t.metrics)).collect())
                .unwrap_or_else(Vec::new)
        })
    };
    // `None` with one run (nothing to compare), `Some(None)` for "same".
    let delta = move || match vals()[..] {
        [a, b] => Some(m.delta(a, b)),
        _ => None,
    };
    let delta_text = move || {
        let second = lanes.with(|l| l.get(1).map(Lane::short).unwrap_or_default());
        delta().map(|d| match d {
            None => "same".to_string(),
            Some(d) => format!(
                "{second} {d} {}",
                if d.better { "▼ better" } else { "▲ worse" }
            ),
        })
    };
    view! {
        <div class="card" id=format!("metric-{}", m.key) title=m.description
            class:differs=move || matches!(delta(), Some(Some(_)))>
            <h3>{m.label()}</h3>
            <div class="vals">
                {move || lanes.get().into_iter().map(|lane| {
                    let class = lane.class();
                    let value = move || vals().get(lane.index).map(|v| m.fmt(*v)).unwrap_or_default();
                    view! {
                        <span class=class data-policy=class><small>{lane.kubelet}</small><b>{value}</b></span>
                    }
                }).collect_view()}
            </div>
            {move || delta_text().map(|t| view! { <div class="delta">{t}</div> })}
        </div>
    }
}

#[component]
pub fn Metrics() -> impl IntoView {
    let ui = Ui::get();
    let lanes = ui.lanes;
    view! {
        <section class="metrics" aria-label=move || lanes.with(|l| aria_label(l))>
            <p class="metrics-scope" id="metrics-scope">{move || format!(
                "Whole-run totals (0s to {}), not up to the playhead",
                fmt_secs((ui.horizon() as f64 / 1000.0).round())
            )}</p>
            {METRICS.iter().map(|m| view! { <Card m=m /> }).collect_view()}
        </section>
    }
}
