//! [`layout`]: traces → [`Figure`]. Reads each trace once into a report timeline, then stacks
//! per trace (legacy above KEP) a header (policy and release, `report::describe::heading`) with
//! the run's metrics and the lanes (`crate::lanes`), then the axis and the legend. Group frames
//! and downtime shading go under everything. With `LayoutOpts::observed` (an incident's evidence), each pod's
//! observed lane(s) right under its Ready lane, and the evidence's pods the run cannot show after
//! the run's pods; `LayoutOpts::note` as wrapped lines under the title.

use crate::axis;
use crate::builder::Builder;
use crate::figure::{Figure, GroupBox, LayoutOpts, ObservedPod, Shape};
use crate::geom::compact as C;
use crate::geom::{
    bold_w, text_w, BADGE_ROW, EP_H, EVICT_H, GROUP_GAP, HEADER_H, KUBELET_H, LANE_GAP, LEASE_H,
    NODE_H, OBS_H, PAD, POD_GAP, PROBE_H, READY_H, TAINT_H,
};
use crate::lanes::{node, pod, Group};
use crate::legend;
use restartscope_report::describe::heading;
use restartscope_report::Timeline;
use restartscope_sim::{plural, Metrics, Trace};

/// Which optional per-pod lanes exist (the same in every group so the groups line up).
struct PodLanes {
    endpoint: bool,
    eviction: bool,
}

/// Two short header lines summarising a run's metrics.
pub fn metrics_lines(m: &Metrics) -> (String, String) {
    let a = format!(
        "{}, {}, {}",
        plural(
            m.ready_transitions.into(),
            "Ready transition",
            "Ready transitions"
        ),
        plural(
            m.endpointslice_updates.into(),
            "EndpointSlice update",
            "EndpointSlice updates"
        ),
        plural(m.evictions.into(), "eviction", "evictions"),
    );
    let b = format!(
        "status writes: kubelet {}, node lifecycle controller {} · unjustified NotReady {:.1} pod·s · unjustified Ready {:.1} pod·s",
        m.kubelet_status_writes, m.nlc_status_writes, m.unjustified_not_ready_s, m.unjustified_ready_s
    );
    (a, b)
}

/// Lays out the traces (legacy above KEP, whatever their order in `traces`).
pub fn layout(traces: &[Trace], opts: &LayoutOpts) -> Figure {
    let timelines: Vec<Timeline> = traces.iter().map(Timeline::new).collect();
    layout_read(traces, &timelines, opts)
}

/// [`layout`] for traces already read: `timelines[i]` is `Timeline::new(&traces[i])`.
pub fn layout_read(traces: &[Trace], timelines: &[Timeline], opts: &LayoutOpts) -> Figure {
    assert_eq!(traces.len(), timelines.len(), "one timeline per trace");
    let width = if opts.width.is_finite() {
        opts.width.max(240.0)
    } else {
        800.0
    };
    let horizon = traces
        .iter()
        .map(|t| t.horizon)
        .max()
        .unwrap_or(60_000)
        .max(1);
    let mut t0 = opts.t0_ms.clamp(0, horizon);
    let mut t1 = if opts.t1_ms > t0 {
        opts.t1_ms.min(horizon)
    } else {
        horizon
    };
    if t1 <= t0 {
        t0 = 0;
        t1 = horizon;
    }
    let x0 = (width * 0.16).clamp(80.0, 120.0);
    let x1 = width - 14.0;
    let mut b = Builder::new(x0, x1, t0, t1);
    b.tooltips = opts.tooltips;

    let mut order: Vec<(&Trace, &Timeline)> = traces.iter().zip(timelines).collect();
    restartscope_sim::core::sort::sort_by_key(&mut order, |(t, _)| t.policy);

    let n_pods = order.iter().map(|(t, _)| t.pods.len()).max().unwrap_or(0);
    let shown = n_pods.min(opts.max_pods);
    let lanes: Vec<PodLanes> = (0..shown)
        .map(|p| PodLanes {
            endpoint: order
                .iter()
                .any(|(t, _)| t.pods.get(p).is_some_and(|i| !i.services.is_empty())),
            eviction: order
                .iter()
                .any(|(_, tl)| tl.pods.get(p).is_some_and(|pt| !pt.countdowns.is_empty())),
        })
        .collect();

    let title = opts.title.clone().unwrap_or_else(|| {
        let pols: Vec<String> = order.iter().map(|(t, _)| heading(t)).collect();
        format!("RestartScope timeline: {}", pols.join(" vs "))
    });
    let mut y = PAD;
    if let Some(t) = &opts.title {
        b.text(PAD, y + 13.0, t.clone(), "rs-h1", "start");
        y += 24.0;
    }
    if let Some(note) = &opts.note {
        for line in wrap(note, width - 2.0 * PAD - 4.0, 10.5) {
            b.text(PAD + 4.0, y + 10.0, line, "rs-meta", "start");
            y += 14.0;
        }
        y += 4.0;
    }

    let gap = if opts.compact {
        C::GROUP_GAP
    } else {
        GROUP_GAP
    };
    let mut groups = Vec::new();
    let plot_top = y;
    for (tr, tl) in &order {
        let gy = y;
        let g = Group {
            tr,
            tl,
            end: t1.min(tr.horizon).max(t0),
        };
        let counters;
        (y, counters) = if opts.compact {
            draw_group_compact(&mut b, &g, gy, shown, &lanes, &opts.observed)
        } else {
            draw_group(
                &mut b,
                &g,
                gy,
                shown,
                &lanes,
                opts.show_probes,
                &opts.observed,
            )
        };
        let (kubelet_y, kubelet_h) = if opts.compact {
            (gy + C::HEADER_H, C::KUBELET_H)
        } else {
            (gy + HEADER_H, KUBELET_H)
        };
        groups.push(GroupBox {
            policy: tr.policy,
            y: gy,
            h: y - gy,
            kubelet_y,
            kubelet_h,
            counters,
        });
        y += gap;
    }
    if order.is_empty() {
        b.text(x0, y + 14.0, "no traces", "rs-label", "start");
        y += 24.0;
    }

    let y = axis::draw(&mut b, plot_top, y - gap + 8.0, width);
    let y = legend::draw(&mut b, y, width, opts.compact);

    let height = (y + PAD).ceil();
    let mut shapes = vec![Shape::Rect {
        x: 0.0,
        y: 0.0,
        w: width,
        h: height,
        class: "rs-bg",
        title: None,
    }];
    shapes.append(&mut b.under);
    shapes.append(&mut b.over);
    Figure {
        width,
        height,
        x0,
        x1,
        t0_ms: t0,
        t1_ms: t1,
        groups,
        shapes,
        title,
    }
}

/// One trace's header and lanes from `gy`; returns the bottom of the group and where the
/// header's counters are (x, y, w, h).
fn draw_group(
    b: &mut Builder,
    g: &Group,
    gy: f64,
    shown: usize,
    lanes: &[PodLanes],
    show_probes: bool,
    observed: &[ObservedPod],
) -> (f64, Vec<[f64; 4]>) {
    let tr = g.tr;
    // Header.
    let title = heading(tr);
    let (m1, m2) = metrics_lines(&tr.metrics);
    let lx = PAD + 4.0 + text_w(&title, 12.5).max(bold_w(&title, 12.5)) + 10.0;
    b.text(PAD + 4.0, gy + 15.0, title, "rs-h2", "start");
    b.text(lx, gy + 15.0, m1, "rs-meta", "start");
    b.text(PAD + 4.0, gy + 30.0, m2, "rs-meta", "start");
    let right = b.x1 + 10.0;
    let counters = vec![
        [lx - 2.0, gy + 3.0, right - lx + 2.0, 16.0],
        [PAD, gy + 19.0, right - PAD, 15.0],
    ];
    let top = gy + HEADER_H;
    let mut y = top;

    node::kubelet(b, g, y, KUBELET_H);
    y += KUBELET_H + LANE_GAP;
    node::lease(b, g, y);
    y += LEASE_H + LANE_GAP;
    node::node_ready(b, g, y, NODE_H);
    y += NODE_H + LANE_GAP;
    node::taints(b, g, y, TAINT_H);
    y += TAINT_H + LANE_GAP;

    for (p, pl) in lanes.iter().enumerate().take(shown) {
        if p >= tr.pods.len() {
            continue;
        }
        y += POD_GAP - LANE_GAP;
        let sep = y - POD_GAP / 2.0 + 1.0;
        b.line(PAD, sep, b.x1, sep, "rs-sep");
        pod::ready(b, g, p, y, BADGE_ROW, READY_H);
        y += BADGE_ROW + READY_H + LANE_GAP;
        y = observed_lane(b, g, p, observed, y, LANE_GAP);
        if show_probes {
            pod::probes(b, g, p, y);
            y += PROBE_H + LANE_GAP;
        }
        if pl.endpoint {
            pod::endpoint(b, g, p, y, EP_H, false);
            y += EP_H + LANE_GAP;
        }
        if pl.eviction {
            pod::eviction(b, g, p, y);
            y += EVICT_H + LANE_GAP;
        }
    }
    y = observed_only(b, g, observed, y, POD_GAP - LANE_GAP);
    y = more_pods(b, tr, shown, y);
    let bottom = y + 2.0;
    frame(b, g, gy, top, bottom);
    (bottom, counters)
}

/// The observed lanes drawn under the run's pod `p`: the evidence's pod of the same name
/// (labelled "observed") and any the evidence pairs with it (labelled with their own name), from
/// `y`; returns the new y (`y` when there are none).
fn observed_lane(
    b: &mut Builder,
    g: &Group,
    p: usize,
    observed: &[ObservedPod],
    y: f64,
    gap: f64,
) -> f64 {
    let name = &g.tr.pods[p].name;
    let mut y = y;
    for o in observed
        .iter()
        .filter(|o| o.under.as_ref().unwrap_or(&o.pod) == name)
    {
        let label = if &o.pod == name { "observed" } else { &o.pod };
        if pod::has_observed_writers(b, o, g.end) {
            pod::observed_badges(b, o, g.end, y);
            y += BADGE_ROW;
        }
        b.lane_label(y + OBS_H / 2.0, label, "rs-label-obs");
        pod::observed(b, o, g.end, y, OBS_H);
        y += OBS_H + gap;
    }
    y
}

/// The evidence's pods the run does not have, each its name and its observed lane, with a note
/// that the model has no such pod: listed, not dropped. Returns the new y.
fn observed_only(
    b: &mut Builder,
    g: &Group,
    observed: &[ObservedPod],
    y: f64,
    pod_gap: f64,
) -> f64 {
    let mut y = y;
    for o in observed.iter().filter(|o| {
        let target = o.under.as_ref().unwrap_or(&o.pod);
        !g.tr.pods.iter().any(|i| &i.name == target)
    }) {
        y += pod_gap;
        let sep = y - pod_gap / 2.0 - 1.0;
        b.line(PAD, sep, b.x1, sep, "rs-sep");
        if pod::has_observed_writers(b, o, g.end) {
            pod::observed_badges(b, o, g.end, y);
            y += BADGE_ROW;
        }
        b.lane_label(y + OBS_H / 2.0, &o.pod, "rs-label-pod");
        pod::observed(b, o, g.end, y, OBS_H);
        y += OBS_H + 1.0;
        b.text(
            b.x0,
            y + 9.0,
            format!("{}: observed only; this run has no pod of that name", o.pod),
            "rs-small",
            "start",
        );
        y += 14.0;
    }
    y
}

/// `text` in lines of at most `max_w` px at `font` px, broken at spaces.
fn wrap(text: &str, max_w: f64, font: f64) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        let next = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if text_w(&next, font) > max_w && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
            cur = word.to_string();
        } else {
            cur = next;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The compact group (`LayoutOpts::compact`): the header on one line; kubelet, node Ready, the
/// taints only when this run has some; per pod the Ready band (with the badge row only where a
/// write falls in the window), the endpoint as a thin strip under it, the eviction countdown.
fn draw_group_compact(
    b: &mut Builder,
    g: &Group,
    gy: f64,
    shown: usize,
    lanes: &[PodLanes],
    observed: &[ObservedPod],
) -> (f64, Vec<[f64; 4]>) {
    let tr = g.tr;
    let (m1, _) = metrics_lines(&tr.metrics);
    // As many of the counts as fit on the heading's line; when not even the first does (a
    // narrow embed), the heading drops the word "kubelet" to make room for it.
    let fit = |title: &str| {
        let lx = PAD + 4.0 + text_w(title, 12.5).max(bold_w(title, 12.5)) + 10.0;
        let room = b.x1 + 6.0 - lx;
        let mut shown = String::new();
        for part in m1.split(", ") {
            let next = if shown.is_empty() {
                part.to_string()
            } else {
                format!("{shown}, {part}")
            };
            if text_w(&next, 10.5) > room {
                break;
            }
            shown = next;
        }
        (lx, shown)
    };
    let mut title = heading(tr);
    let (mut lx, mut shown_m) = fit(&title);
    if shown_m.is_empty() {
        let short = title.replace(" kubelet ·", " ·");
        (lx, shown_m) = fit(&short);
        title = short;
    }
    b.text(PAD + 4.0, gy + 14.0, title, "rs-h2", "start");
    b.text(lx, gy + 14.0, shown_m, "rs-meta", "start");
    let counters = vec![[lx - 2.0, gy + 2.0, b.x1 + 10.0 - lx + 2.0, 16.0]];
    let top = gy + C::HEADER_H;
    let mut y = top;
    node::kubelet(b, g, y, C::KUBELET_H);
    y += C::KUBELET_H + C::LANE_GAP;
    node::node_ready(b, g, y, C::NODE_H);
    y += C::NODE_H + C::LANE_GAP;
    if node::any_taint(b, g) {
        node::taints(b, g, y, C::TAINT_H);
        y += C::TAINT_H + C::LANE_GAP;
    }
    for (p, pl) in lanes.iter().enumerate().take(shown) {
        if p >= tr.pods.len() {
            continue;
        }
        y += C::POD_GAP - C::LANE_GAP;
        let sep = y - C::POD_GAP / 2.0 + 1.0;
        b.line(PAD, sep, b.x1, sep, "rs-sep");
        let badges = if pod::has_writes(b, g, p) {
            BADGE_ROW
        } else {
            0.0
        };
        pod::ready(b, g, p, y, badges, C::READY_H);
        y += badges + C::READY_H;
        if pl.endpoint {
            pod::endpoint(b, g, p, y, C::EP_H, true);
            y += C::EP_H;
        }
        y += C::LANE_GAP;
        y = observed_lane(b, g, p, observed, y, C::LANE_GAP);
        if pl.eviction {
            pod::eviction(b, g, p, y);
            y += EVICT_H + C::LANE_GAP;
        }
    }
    y = observed_only(b, g, observed, y, C::POD_GAP - C::LANE_GAP);
    y = more_pods(b, tr, shown, y);
    let bottom = y + 2.0;
    frame(b, g, gy, top, bottom);
    (bottom, counters)
}

/// "… N more pods not drawn" under the lanes when some are left out; returns the new y.
fn more_pods(b: &mut Builder, tr: &Trace, shown: usize, y: f64) -> f64 {
    if tr.pods.len() <= shown {
        return y;
    }
    let more = tr.pods.len() - shown;
    b.text(
        b.x0,
        y + 9.0,
        format!(
            "… {more} more pod{} not drawn",
            if more == 1 { "" } else { "s" }
        ),
        "rs-small",
        "start",
    );
    y + 14.0
}

/// The group frame and the downtime shading, under everything drawn above.
fn frame(b: &mut Builder, g: &Group, gy: f64, top: f64, bottom: f64) {
    b.under.push(Shape::Rect {
        x: PAD / 2.0,
        y: gy,
        w: b.x1 + 10.0 - PAD / 2.0,
        h: bottom - gy,
        class: "rs-group",
        title: None,
    });
    for (a, z, up) in g.tl.kubelet_up.spans(b.t0, g.end) {
        if !up {
            let (xa, xz) = (b.x(a), b.x(z));
            b.under.push(Shape::Rect {
                x: xa,
                y: top,
                w: (xz - xa).max(0.6),
                h: bottom - top,
                class: "rs-downtime",
                title: None,
            });
        }
    }
}
