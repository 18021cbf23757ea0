//! The metric cards: one per `report::METRICS` descriptor (title = its label, tooltip = its
//! description), a row per run labelled with the run's kubelet profile and, when two runs are
//! compared, the difference (second − first, "KEP −6 ▼ better") with whether it is better, or
//! "same". Each value is the run's whole-run total, the number the figure's header and the
//! exports print, so the cards never contradict them; beside it, while the playhead is before
//! the end and less has happened, the share so far ("4 so far", `Metric::value_at`, exact from
//! the run's checkpoints). The difference compares the totals. A metric a run does not have (no
//! PodDisruptionBudget) says so instead of a number.

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
    // Memos: a playback frame redraws the card only when one of its values changes.
    let vals = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.traces
                        .iter()
                        .map(|t| m.value(&t.metrics))
                        .collect::<Vec<f64>>()
                })
                .unwrap_or_default()
        })
    });
    // The value up to the playhead, per run; `None` at the end of the run.
    let so_far = Memo::new(move |_| {
        let at = at.get();
        runs.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.traces
                        .iter()
                        .map(|t| at.map(|t_ms| m.value_at(t, t_ms)))
                        .collect::<Vec<Option<f64>>>()
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
                    // In the reader's locale (the exports group with ",").
                    let value = move || match vals().get(lane.index) {
                        Some(v) => crate::env::locale_number(&m.fmt_raw(*v)),
                        None => "no budget".to_string(),
                    };
                    // "4 so far" while less than the total has happened by the playhead.
                    let part = move || {
                        let total = *vals().get(lane.index)?;
                        let now = (*so_far.get().get(lane.index)?)?;
                        (m.fmt_raw(now) != m.fmt_raw(total)).then(|| {
                            format!("{} so far", crate::env::locale_number(&m.fmt_raw(now)))
                        })
                    };
                    view! {
                        // Spaces between the parts and the runs: the text reads "1.35 · legacy 129.3
                        // 4 so far; …", not "129.3148.2", when copied or read aloud (the flex
                        // layout ignores them).
                        <span class=class data-policy=class><small>{lane.kubelet}</small>" "<b class:na=move || vals().get(lane.index).is_none()>{value}</b>
                            " "<i class="sofar">{part}</i></span>" "
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
    // The playhead the "so far" shares are read at; `None` at the end of the run (the share is
    // the total). A card redraws only when one of its values changes.
    let at = Memo::new(move |_| {
        let t = ui.playhead.get();
        (t < ui.horizon()).then_some(t)
    });
    view! {
        <section class="metrics" aria-label=move || lanes.with(|l| aria_label(l))>
            <p class="metrics-scope" id="metrics-scope">
                <span>{move || format!("Whole run (0s to {})", fmt_secs((ui.horizon() as f64 / 1000.0).round()))}</span>
                {move || at.get().map(|t| format!(" · so far: up to the playhead ({})", fmt_secs((t as f64 / 1000.0).floor())))}
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
