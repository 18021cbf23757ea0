//! The PodDisruptionBudget card, shown when the scenario has a budget: per run, the budget's
//! `disruptionsAllowed` at the playhead (with currentHealthy / desiredHealthy, as `kubectl get pdb`
//! and the disruption controller's status have them) and a step chart of it over the whole run
//! with the playhead, so a reader sees how long a wrongful Ready (#135795) would let an eviction
//! through. Everything is read from `report::pdb` (the disruption controller's arithmetic).

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::pdb;

/// The chart's size in its own units (scaled to the card's width).
const W: f64 = 300.0;
const H: f64 = 40.0;

#[component]
fn PdbRow(lane: Lane) -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.panels, ui.playhead);
    let p = lane.index;
    let series = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.traces.get(p))
                .and_then(pdb::series)
                .map(|s| {
                    (
                        s,
                        runs.with_untracked(|r| r.as_ref().map_or(1, |r| r.horizon)),
                    )
                })
        })
    });
    let now = Memo::new(move |_| {
        let t = playhead.get();
        series.with(|s| s.as_ref().and_then(|(s, _)| pdb::at(s, t)))
    });
    // The step line of disruptionsAllowed over the run (0 at the bottom).
    let path = move || {
        series.with(|s| {
            let Some((s, horizon)) = s else {
                return String::new();
            };
            let max = s
                .iter()
                .map(|p| p.status.disruptions_allowed)
                .max()
                .unwrap_or(0)
                .max(1) as f64;
            let x = |t: i64| t as f64 / (*horizon).max(1) as f64 * W;
            let y = |v: i64| H - 2.0 - v as f64 / max * (H - 6.0);
            let mut d = String::new();
            for (i, pt) in s.iter().enumerate() {
                let end = s.get(i + 1).map_or(*horizon, |q| q.t_ms);
                let v = y(pt.status.disruptions_allowed);
                d.push_str(&format!(
                    "{}{:.1},{:.1} L{:.1},{:.1} ",
                    if i == 0 { "M" } else { "L" },
                    x(pt.t_ms),
                    v,
                    x(end),
                    v
                ));
            }
            d
        })
    };
    let head = move || {
        series.with(|s| {
            s.as_ref()
                .map(|(_, h)| format!("{:.1}", playhead.get() as f64 / (*h).max(1) as f64 * W))
                .unwrap_or_else(|| "0".to_string())
        })
    };
    let class = lane.class();
    view! {
        <div class=format!("pdb-row {class}")>
            <small>{lane.kubelet.clone()}</small>
            <b class="pdb-allowed">{move || now.get().map(|s| s.disruptions_allowed.to_string()).unwrap_or_default()}</b>
            <span class="pdb-detail">{move || now.get().map(|s| format!(
                "disruptionsAllowed · currentHealthy {} / desiredHealthy {} of {}",
                s.current_healthy, s.desired_healthy, s.expected_pods
            )).unwrap_or_default()}</span>
            <svg class="pdb-chart" viewBox=format!("0 0 {W} {H}") preserveAspectRatio="none" aria-hidden="true">
                <path d=path class="pdb-line" />
                <line x1=head x2=head y1="0" y2=H.to_string() class="pdb-head" />
            </svg>
        </div>
    }
}

#[component]
pub fn Pdb() -> impl IntoView {
    let ui = Ui::get();
    let has = Memo::new(move |_| {
        ui.panels.with(|r| {
            r.as_ref()
                .is_some_and(|r| r.traces.iter().any(|t| t.pdb.is_some()))
        })
    });
    view! {
        <Show when=move || has.get()>
            <section class="pdb card" id="pdb" aria-label="PodDisruptionBudget">
                <h3>"PodDisruptionBudget: evictions allowed now"</h3>
                {move || ui.lanes.get().into_iter().map(|lane| view! { <PdbRow lane=lane /> }).collect_view()}
                <p class="pdb-note">"What /evict would answer at the playhead: a pod wrongfully Ready counts as healthy and can let an eviction through (the line over the run; the mark is the playhead)."</p>
            </section>
        </Show>
    }
}
