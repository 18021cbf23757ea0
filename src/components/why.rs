//! "Why pod Ready changed": per run, its Ready changes grouped by rule and direction with the
//! reason in words (`report::why`), headed by the run's kubelet profile ("1.35 · KEP", "1.34").

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::why;
use restartscope_sim::{fmt_secs, Policy};

/// `alone`: the release runs one kubelet (no KEP-4781 code before 1.35), said under its lines.
#[component]
fn WhyColumn(lane: Lane, alone: bool) -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.panels, ui.playhead);
    let p = lane.index;
    // Up to the playhead: the story is not told before the playhead gets there.
    // A memo: a playback frame redraws the list only when a Ready change passes the playhead.
    let lines = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.timelines.get(p))
                .map(|tl| why::lines(tl, Some(playhead.get())))
                .unwrap_or_default()
        })
    });
    // Whether the whole run has any Ready change (only then is "not yet" the right words).
    let ever = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.timelines.get(p))
                .is_some_and(|tl| !why::lines(tl, None).is_empty())
        })
    });
    // A run with no Ready change: what the API showed instead (the node's condition and who set
    // it, taints, deletions), up to the playhead.
    let quiet = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.timelines.get(p))
                .map(|tl| {
                    let t = playhead.get();
                    // The story is not told before the playhead gets there: a run whose node
                    // changes later says nothing of it yet.
                    if why::quiet_facts(tl, Some(t)).is_empty()
                        && !why::quiet_facts(tl, None).is_empty()
                    {
                        format!(
                            "No Ready change yet (up to {}).",
                            fmt_secs((t as f64 / 1000.0).floor())
                        )
                    } else {
                        why::no_ready_change(tl, Some(t))
                    }
                })
                .unwrap_or_default()
        })
    });
    let clock = Memo::new(move |_| fmt_secs((playhead.get() as f64 / 1000.0).floor()));
    let clock = move || clock.get();
    let class = lane.class();
    view! {
        <div class=format!("why-col {class}") id=format!("why-{class}")>
            <h2><span class=format!("badge {class}")>{lane.kubelet.clone()}</span>" why pod Ready changed"<small class="upto">{move || format!(" · up to {}", clock())}</small></h2>
            <ul>
                {move || {
                    let l = lines.get();
                    if l.is_empty() && ever.get() {
                        view! { <li class="none">{format!("No Ready change yet (up to {}).", clock())}</li> }.into_any()
                    } else if l.is_empty() {
                        view! { <li class="none">{move || quiet.get()}</li> }.into_any()
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
            {alone.then(|| view! { <p class="why-note" id="one-kubelet">{format!("Kubernetes {} has only the legacy kubelet (no KEP-4781 code): one run, nothing to compare it with.", lane.kubelet.split(" · ").next().unwrap_or_default())}</p> })}
        </div>
    }
}

#[component]
pub fn Why() -> impl IntoView {
    let ui = Ui::get();
    let (lanes, runs) = (ui.lanes, ui.panels);
    view! {
        <section class="why" aria-label="Why Ready changed">
            {move || {
                let lanes = lanes.get();
                // Said only where the release has no KEP-4781 kubelet, not where one lane is shown.
                let alone = lanes.len() == 1
                    && lanes[0].policy == Policy::Legacy
                    && runs.with(|r| r.as_ref().is_some_and(|r| !r.has_kep_kubelet()));
                lanes.into_iter().map(|lane| view! { <WhyColumn lane=lane alone=alone /> }).collect_view()
            }}
        </section>
    }
}
