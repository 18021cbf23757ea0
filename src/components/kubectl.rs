//! `kubectl get pods -w` per run, up to the playhead: every row that `report::kubectl::rows`
//! reads from the run's timeline, NotReady rows marked, in a keyboard-focusable scroll region
//! that follows its last line. The rows are read once per run; the playhead only decides how
//! many are shown, so a playback frame touches the DOM only when a row appears or goes.

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::kubectl;

/// One printed line (keyed by its position and text, so a new run redraws what changed).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Line {
    i: usize,
    text: String,
    cond: String,
    not_ready: bool,
}

#[component]
fn KubectlPanel(lane: Lane) -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.panels, ui.playhead);
    let p = lane.index;
    // NAME is as wide as the longest pod name and kubectl's three spaces of padding (its
    // tabwriter, `printers.GetNewTabWriter`), at least the 13 the short names take.
    let name_w = Memo::new(move |_| {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.traces.get(p))
                .and_then(|t| t.pods.iter().map(|p| p.name.chars().count() + 3).max())
                .unwrap_or(0)
                .max(13)
        })
    });
    let all = Memo::new(move |_| {
        let w = name_w.get();
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.timelines.get(p))
                .map(|tl| {
                    kubectl::rows(tl, i64::MAX)
                        .into_iter()
                        .enumerate()
                        .map(|(i, r)| {
                            let line = Line {
                                i,
                                text: format!(
                                    "{:<7}{:<w$}{:<6}{:<12}{:<9}",
                                    kubectl::clock(r.t_ms),
                                    r.name,
                                    r.ready,
                                    r.status,
                                    r.restarts
                                ),
                                cond: format!("# {}", r.condition),
                                not_ready: !r.condition_ready,
                            };
                            (r.t_ms, line)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    // Rows are in time order: those up to the playhead are a prefix.
    let shown = Memo::new(move |_| {
        let t = playhead.get();
        all.with(|rows| rows.partition_point(|(at, _)| *at <= t))
    });
    let pre = NodeRef::<leptos::html::Pre>::new();
    // Keep the newest line in view as rows arrive.
    Effect::new(move |_| {
        shown.track();
        if let Some(el) = pre.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    let label = format!("kubectl get pods -w, {}", lane.kubelet);
    view! {
        <section class="kubectl" aria-label=label.clone()>
            <h2><code>"$ kubectl get pods -w"</code>" "<span class=format!("badge {}", lane.class())>{lane.kubelet.clone()}</span></h2>
            <pre node_ref=pre tabindex="0" aria-label=format!("{label}: output up to the playhead, scrollable")>
                <span class="hdr">{move || format!("{:<7}{:<w$}{:<6}{:<12}{:<9}{}\n", "TIME", "NAME", "READY", "STATUS", "RESTARTS", "# Ready condition", w = name_w.get())}</span>
                <For each=move || all.with(|rows| rows[..shown.get().min(rows.len())].iter().map(|(_, l)| l.clone()).collect::<Vec<_>>())
                    key=|l| l.clone()
                    let:l>
                    <span class:notready=l.not_ready>{l.text}<span class="cond">{l.cond}</span>"\n"</span>
                </For>
            </pre>
        </section>
    }
}

#[component]
pub fn KubectlPanels() -> impl IntoView {
    let lanes = Ui::get().lanes;
    view! {
        <div class="kubectl-pair">
            {move || lanes.get().into_iter().map(|lane| view! { <KubectlPanel lane=lane /> }).collect_view()}
        </div>
    }
}
