//! `kubectl get pods -w` per run, up to the playhead: every row that `report::kubectl::rows`
//! reads from the run's timeline, NotReady rows marked, in a keyboard-focusable scroll region
//! that follows its last line.

use crate::state::Lane;
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_report::kubectl;

#[component]
fn KubectlPanel(lane: Lane) -> impl IntoView {
    let ui = Ui::get();
    let (runs, playhead) = (ui.runs, ui.playhead);
    let p = lane.index;
    let rows = move || {
        runs.with(|r| {
            r.as_ref()
                .and_then(|r| r.timelines.get(p))
                .map(|tl| kubectl::rows(tl, playhead.get()))
                .unwrap_or_default()
        })
    };
    let pre = NodeRef::<leptos::html::Pre>::new();
    let count = move || rows().len();
    // Keep the newest line in view as rows arrive.
    Effect::new(move |_| {
        count();
        if let Some(el) = pre.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    let label = format!("kubectl get pods -w, {}", lane.kubelet);
    view! {
        <section class="kubectl" aria-label=label.clone()>
            <h2><code>"$ kubectl get pods -w"</code>" "<span class=format!("badge {}", lane.class())>{lane.kubelet.clone()}</span></h2>
            <pre node_ref=pre tabindex="0" aria-label=format!("{label}: output up to the playhead, scrollable")>
                <span class="hdr">{format!("{:<7}{:<13}{:<6}{:<12}{:<9}{}\n", "TIME", "NAME", "READY", "STATUS", "RESTARTS", "# Ready condition")}</span>
                {move || {
                    rows().into_iter().map(|r| {
                        let line = format!("{:<7}{:<13}{:<6}{:<12}{:<9}", kubectl::clock(r.t_ms), r.name, r.ready, r.status, r.restarts);
                        view! { <span class:notready=!r.condition_ready>{line}<span class="cond">{format!("# {}", r.condition)}</span>"\n"</span> }
                    }).collect_view()
                }}
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
