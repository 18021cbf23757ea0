//! The event log at the playhead: the notable events of every run on one clock
//! (`report::notable::merged`), seven before the playhead and four from it, each in words
//! (`report::describe`) with its run, rule and source function — and, where the run's release runs
//! the rule differently, that variant and its PR (`KubeletProfile::rule_variant`). A click seeks.

use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::{describe, kubectl};
use restartscope_sim::KubeletProfile;

#[component]
pub fn EventLog() -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.panels, ui.playhead);
    // Which slice of the log is shown: a playback frame redraws the list only when it moves.
    let window = Memo::new(move |_| {
        let t = playhead.get();
        runs.with(|r| r.as_ref().map(|r| r.log_window(t)))
    });
    let items = move || {
        let lanes = ui.lanes.get();
        let Some((from, split, to)) = window.get() else {
            return Vec::new();
        };
        runs.with(|r| {
            let Some(r) = r else { return Vec::new() };
            r.log[from..to]
                .iter()
                .enumerate()
                .filter_map(|(k, &(p, i))| {
                    let tr = &r.traces[p];
                    let e = &tr.events[i];
                    // Where this run's release runs the rule differently, with the PR.
                    let v = r.scenario.cluster.version;
                    let profile = if tr.proposal.is_empty() {
                        KubeletProfile::for_policy(v, tr.policy)
                    } else {
                        KubeletProfile::csp(v)
                    };
                    let variant = profile
                        .rule_variant(e.rule)
                        .map(|v| format!(" · {v}"))
                        .unwrap_or_default();
                    Some((
                        e.t,
                        lanes.get(p)?.clone(),
                        describe(tr, e),
                        e.rule,
                        from + k < split,
                        from + k + 1 == split,
                        variant,
                    ))
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="log" aria-label="Event log at the playhead">
            <h2>"Events"</h2>
            <ol>
                {move || items().into_iter().map(|(t, lane, text, rule, past, current, variant)| view! {
                    <li class:past=past class:current=current class:future=!past>
                        <button class="event" on:click=move |_| ui.seek(t)
                            title=format!("{} — {}", rule.title(), rule.source())>
                            <span class="t">{kubectl::clock(t)}</span>
                            <span class=format!("badge {}", lane.class()) title=lane.kubelet.clone()>{lane.short()}</span>
                            <span class="text">{text}</span>
                            <span class="rule"><b>{rule.id()}</b>" "{rule.source()}{variant}</span>
                        </button>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}
