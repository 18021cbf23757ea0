//! One timeline layout for RestartScope traces, two renderers.
//!
//! [`layout`] turns traces (legacy and/or KEP-4781) into a [`Figure`]: plain positioned shapes.
//! The CLI writes [`Figure::to_svg`] to a file; the web app inserts the same [`Figure::to_svg`]
//! string into the page (overriding the `rs-` classes for its dark theme) and draws a playhead
//! with [`Figure::x_of`] / [`Figure::t_of`]. [`Figure::to_svg_inner`] and [`Figure::css`] are the
//! two halves of that string, for a host that supplies its own `<svg class="rs-figure">`.
//!
//! Every state drawn is derived from the trace events; at t = 0 the model is in steady state
//! (kubelet up, node Ready, pods Ready, endpoints ready). Nothing relies on colour alone: states
//! carry text labels and hatching, probe results differ in shape, writers are letters.

use restartscope_sim::{
    fmt_secs, Actor, EndpointValue, Event, Kind, Metrics, Ms, Outcome, Policy, Rule, Trace, Value,
};

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOpts {
    /// Figure width in px (default 800; values below 320 are raised to 320).
    pub width: f64,
    /// Start of the visible window (ms).
    pub t0_ms: i64,
    /// End of the visible window (ms); a value not above `t0_ms` (the default 0) means the
    /// traces' horizon. The window is clamped to `0..=horizon`.
    pub t1_ms: i64,
    /// Draw one tick per probe execution (default true).
    pub show_probes: bool,
    /// Heading drawn above the lanes (also the SVG `<title>`).
    pub title: Option<String>,
    /// At most this many pods per trace are drawn (default 24); a note says how many are left out.
    pub max_pods: usize,
}

impl Default for LayoutOpts {
    fn default() -> Self {
        LayoutOpts {
            width: 800.0,
            t0_ms: 0,
            t1_ms: 0,
            show_probes: true,
            title: None,
            max_pods: 24,
        }
    }
}

/// The lanes of one trace (one policy).
#[derive(Clone, Debug, PartialEq)]
pub struct GroupBox {
    pub policy: Policy,
    /// Top of the group (its header) in px.
    pub y: f64,
    /// Height of the group, header included.
    pub h: f64,
}

/// A positioned primitive. Classes are the ones styled by [`Figure::css`]; `title` becomes a
/// tooltip (`<title>` child) and is read by screen readers.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        class: &'static str,
        title: Option<String>,
    },
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        class: &'static str,
    },
    Text {
        x: f64,
        y: f64,
        text: String,
        class: &'static str,
        /// `start`, `middle` or `end`.
        anchor: &'static str,
    },
    Path {
        d: String,
        class: &'static str,
        title: Option<String>,
    },
}

/// A laid-out figure: pixel geometry plus the time window it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub width: f64,
    pub height: f64,
    /// x (px) of `t0_ms`.
    pub x0: f64,
    /// x (px) of `t1_ms`.
    pub x1: f64,
    pub t0_ms: i64,
    pub t1_ms: i64,
    /// One per trace, legacy above KEP.
    pub groups: Vec<GroupBox>,
    pub shapes: Vec<Shape>,
    /// Accessible name of the figure (SVG `<title>`).
    pub title: String,
}

// ---------------------------------------------------------------------------------------------
// Style

const CSS: &str = r#".rs-figure { background: #ffffff; }
.rs-figure text { font-family: "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; fill: #1a1a1a; }
.rs-bg { fill: #ffffff; }
.rs-h1 { font-size: 14px; font-weight: 700; }
.rs-h2 { font-size: 12.5px; font-weight: 700; }
.rs-meta { font-size: 10.5px; fill: #333333; }
.rs-label { font-size: 10.5px; fill: #333333; }
.rs-label-pod { font-size: 11px; font-weight: 700; }
.rs-in { font-size: 9.5px; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.rs-in-sm { font-size: 8.5px; paint-order: stroke; stroke: #ffffff; stroke-width: 2.5px; stroke-linejoin: round; }
.rs-small { font-size: 9px; fill: #444444; }
.rs-warn { font-size: 9px; font-weight: 700; fill: #a33a00; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.rs-axis-label { font-size: 10px; fill: #333333; }
.rs-legend { font-size: 10px; fill: #333333; }
.rs-group { fill: #fafafa; stroke: #d0d0d0; stroke-width: 1; }
.rs-downtime { fill: #e9e9e9; }
.rs-grid { stroke: #e2e2e2; stroke-width: 1; }
.rs-sep { stroke: #d9d9d9; stroke-width: 1; }
.rs-axis { stroke: #555555; stroke-width: 1; }
.rs-up { fill: #0072B2; }
.rs-down { fill: url(#rs-p-down); stroke: #777777; stroke-width: 1; }
.rs-lease { fill: #56B4E9; fill-opacity: 0.45; stroke: #0072B2; stroke-width: 1; }
.rs-grace { stroke: #1a1a1a; stroke-width: 1.2; stroke-dasharray: 4 3; }
.rs-renew { stroke: #0072B2; stroke-width: 1; }
.rs-expired { stroke: #D55E00; stroke-width: 1.5; }
.rs-node-true { fill: #009E73; fill-opacity: 0.25; stroke: #009E73; stroke-width: 0.5; }
.rs-node-unknown { fill: url(#rs-p-unknown); stroke: #E69F00; stroke-width: 1; }
.rs-taint-ns { fill: #E69F00; fill-opacity: 0.55; stroke: #b57d00; stroke-width: 0.5; }
.rs-taint-ne { fill: url(#rs-p-noexec); stroke: #D55E00; stroke-width: 1; }
.rs-ready-true { fill: #009E73; fill-opacity: 0.35; stroke: #009E73; stroke-width: 0.5; }
.rs-ready-false { fill: url(#rs-p-false); stroke: #D55E00; stroke-width: 1; }
.rs-removed { fill: #f0f0f0; stroke: #999999; stroke-width: 0.5; stroke-dasharray: 2 2; }
.rs-badge-k { fill: #0072B2; }
.rs-badge-n { fill: #E69F00; }
.rs-badge-text { font-size: 8.5px; font-weight: 700; }
.rs-badge-text-k { font-size: 8.5px; font-weight: 700; fill: #ffffff !important; }
.rs-leader { stroke: #666666; stroke-width: 0.8; }
.rs-probe-ok { fill: none; stroke: #009E73; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
.rs-probe-fail { fill: none; stroke: #D55E00; stroke-width: 1.6; stroke-linecap: round; }
.rs-probe-seed { fill: #ffffff; stroke: #D55E00; stroke-width: 1.3; }
.rs-probe-kept { fill: #ffffff; stroke: #009E73; stroke-width: 1.3; }
.rs-ep-ready { fill: #0072B2; fill-opacity: 0.3; stroke: #0072B2; stroke-width: 0.5; }
.rs-ep-notready { fill: #ffffff; stroke: #0072B2; stroke-width: 1; stroke-dasharray: 3 2; }
.rs-ep-serving { fill: url(#rs-p-serving); stroke: #56B4E9; stroke-width: 1; }
.rs-ep-terminating { fill: url(#rs-p-term); stroke: #CC79A7; stroke-width: 1; }
.rs-evict-window { fill: #ffffff; stroke: #CC79A7; stroke-width: 1; }
.rs-evict-elapsed { fill: #CC79A7; fill-opacity: 0.45; }
.rs-evict-mark { stroke: #1a1a1a; stroke-width: 2; }
.rs-evict-cancel { stroke: #1a1a1a; stroke-width: 1.2; stroke-dasharray: 2 2; }
"#;

/// Hatch patterns referenced by the classes (presentation attributes, so they need no CSS).
const DEFS: &str = concat!(
    "<defs>",
    r##"<pattern id="rs-p-down" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f4f4f4"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9a9a9a" stroke-width="1.5"/></pattern>"##,
    r##"<pattern id="rs-p-unknown" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fdf0d5"/><line x1="0" y1="0" x2="0" y2="6" stroke="#E69F00" stroke-width="2"/></pattern>"##,
    r##"<pattern id="rs-p-noexec" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="5" height="5" fill="#fbe3d6"/><line x1="0" y1="0" x2="0" y2="5" stroke="#D55E00" stroke-width="1.8"/></pattern>"##,
    r##"<pattern id="rs-p-false" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fbe3d6"/><line x1="0" y1="0" x2="0" y2="6" stroke="#D55E00" stroke-width="1.6"/></pattern>"##,
    r##"<pattern id="rs-p-serving" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" fill="#e3f2fb"/><line x1="0" y1="0" x2="0" y2="6" stroke="#56B4E9" stroke-width="1.6"/></pattern>"##,
    r##"<pattern id="rs-p-term" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f7e6ef"/><line x1="0" y1="0" x2="0" y2="6" stroke="#CC79A7" stroke-width="1.6"/></pattern>"##,
    "</defs>"
);

// ---------------------------------------------------------------------------------------------
// Geometry constants (px)

const PAD: f64 = 8.0;
const HEADER_H: f64 = 40.0;
const KUBELET_H: f64 = 14.0;
const LEASE_H: f64 = 32.0;
const NODE_H: f64 = 15.0;
const TAINT_H: f64 = 22.0;
const BADGE_ROW: f64 = 11.0;
const READY_H: f64 = 16.0;
const PROBE_H: f64 = 12.0;
const EP_H: f64 = 13.0;
const EVICT_H: f64 = 13.0;
const LANE_GAP: f64 = 4.0;
const POD_GAP: f64 = 7.0;
const GROUP_GAP: f64 = 14.0;
const BADGE_W: f64 = 11.0;

/// Rough width of `s` in px at `font_px` (DejaVu Sans averages ~0.6 em).
fn text_w(s: &str, font_px: f64) -> f64 {
    s.chars().count() as f64 * font_px * 0.6
}

fn secs(t: Ms) -> f64 {
    t as f64 / 1000.0
}

/// A time for a tooltip: `41.846s`, `6m24.907s`.
fn ts(t: Ms) -> String {
    fmt_secs(secs(t))
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Piecewise-constant state over `[t0, t1)`: `(start, end, value)`, adjacent equal values merged.
fn segments<T: Clone + PartialEq>(
    init: T,
    changes: &[(Ms, T)],
    t0: Ms,
    t1: Ms,
) -> Vec<(Ms, Ms, T)> {
    let mut raw: Vec<(Ms, Ms, T)> = Vec::new();
    let mut cur = init;
    let mut start = i64::MIN;
    for (t, v) in changes {
        if *v == cur {
            continue;
        }
        raw.push((start, *t, cur));
        cur = v.clone();
        start = *t;
    }
    raw.push((start, i64::MAX, cur));
    let mut out: Vec<(Ms, Ms, T)> = Vec::new();
    for (a, b, v) in raw {
        let (a, b) = (a.max(t0), b.min(t1));
        if b <= a {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.2 == v && last.1 == a => last.1 = b,
            _ => out.push((a, b, v)),
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PodState {
    True,
    False,
    Removed,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ep {
    Ready,
    NotReady,
    ServingTerminating,
    Terminating,
    Removed,
}

impl Ep {
    fn of(v: &EndpointValue) -> Ep {
        if v.ready {
            Ep::Ready
        } else if v.terminating && v.serving {
            Ep::ServingTerminating
        } else if v.terminating {
            Ep::Terminating
        } else {
            Ep::NotReady
        }
    }
    fn class(self) -> &'static str {
        match self {
            Ep::Ready => "rs-ep-ready",
            Ep::NotReady => "rs-ep-notready",
            Ep::ServingTerminating => "rs-ep-serving",
            Ep::Terminating => "rs-ep-terminating",
            Ep::Removed => "rs-removed",
        }
    }
    fn label(self) -> &'static str {
        match self {
            Ep::Ready => "ready",
            Ep::NotReady => "not ready",
            Ep::ServingTerminating => "serving, terminating",
            Ep::Terminating => "terminating",
            Ep::Removed => "removed",
        }
    }
}

fn writer_letter(a: Actor) -> (&'static str, &'static str, &'static str) {
    match a {
        Actor::Kubelet => ("K", "rs-badge-k", "rs-badge-text-k"),
        Actor::NodeLifecycleController => ("N", "rs-badge-n", "rs-badge-text"),
        Actor::TaintEvictionController => ("E", "rs-badge-n", "rs-badge-text"),
        Actor::EndpointsliceController => ("S", "rs-badge-n", "rs-badge-text"),
        Actor::Runtime => ("R", "rs-badge-n", "rs-badge-text"),
        Actor::Scenario => ("?", "rs-badge-n", "rs-badge-text"),
    }
}

/// Which optional per-pod lanes exist (the same in every group so the groups line up).
struct PodLanes {
    endpoint: bool,
    eviction: bool,
}

struct Builder {
    x0: f64,
    x1: f64,
    t0: Ms,
    t1: Ms,
    under: Vec<Shape>,
    over: Vec<Shape>,
}

impl Builder {
    fn x(&self, t: Ms) -> f64 {
        x_of(self.x0, self.x1, self.t0, self.t1, t)
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &'static str, title: Option<String>) {
        self.over.push(Shape::Rect {
            x,
            y,
            w,
            h,
            class,
            title,
        });
    }

    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &'static str) {
        self.over.push(Shape::Line {
            x1,
            y1,
            x2,
            y2,
            class,
        });
    }

    fn text(
        &mut self,
        x: f64,
        y: f64,
        text: impl Into<String>,
        class: &'static str,
        anchor: &'static str,
    ) {
        self.over.push(Shape::Text {
            x,
            y,
            text: text.into(),
            class,
            anchor,
        });
    }

    fn path(&mut self, d: String, class: &'static str, title: Option<String>) {
        self.over.push(Shape::Path { d, class, title });
    }

    /// A lane label in the left column, vertically centred on `yc`.
    fn lane_label(&mut self, yc: f64, text: &str, class: &'static str) {
        let font = if class == "rs-label-pod" { 11.0 } else { 10.5 };
        let max_w = self.x0 - PAD - 6.0;
        let mut s: String = text.to_string();
        if text_w(&s, font) > max_w {
            let keep = ((max_w / (font * 0.6)) as usize).saturating_sub(1).max(1);
            s = text.chars().take(keep).collect::<String>() + "…";
        }
        self.text(self.x0 - 6.0, yc + 3.5, s, class, "end");
    }

    /// A band of labelled segments: `style` gives (class, label, tooltip) for a value.
    fn band<T: Clone + PartialEq>(
        &mut self,
        segs: &[(Ms, Ms, T)],
        y: f64,
        h: f64,
        style: impl Fn(&T, Ms, Ms) -> Option<(&'static str, String, String)>,
    ) {
        for (a, b, v) in segs {
            let Some((class, label, title)) = style(v, *a, *b) else {
                continue;
            };
            let (xa, xb) = (self.x(*a), self.x(*b));
            let w = (xb - xa).max(0.6);
            self.rect(xa, y, w, h, class, Some(title));
            if !label.is_empty() && text_w(&label, 9.5) + 6.0 <= w {
                self.text(xa + w / 2.0, y + h / 2.0 + 3.3, label, "rs-in", "middle");
            }
        }
    }
}

fn x_of(x0: f64, x1: f64, t0: Ms, t1: Ms, t: Ms) -> f64 {
    let span = (t1 - t0).max(1) as f64;
    x0 + (t - t0) as f64 / span * (x1 - x0)
}

/// Axis tick step (ms) giving at most `max_ticks` ticks over `span`.
fn tick_step(span: Ms, max_ticks: f64) -> Ms {
    const STEPS_S: [i64; 17] = [
        1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800,
    ];
    for s in STEPS_S {
        if span as f64 / (s * 1000) as f64 <= max_ticks {
            return s * 1000;
        }
    }
    21_600_000
}

/// Two short header lines summarising a run's metrics.
pub fn metrics_lines(m: &Metrics) -> (String, String) {
    let a = format!(
        "{}, {}, {}",
        plural(m.ready_transitions, "Ready transition", "Ready transitions"),
        plural(
            m.endpointslice_updates,
            "EndpointSlice update",
            "EndpointSlice updates"
        ),
        plural(m.evictions, "eviction", "evictions"),
    );
    let b = format!(
        "status writes: kubelet {}, node lifecycle controller {} · unjustified NotReady {:.1} pod·s · unjustified Ready {:.1} pod·s",
        m.kubelet_status_writes, m.nlc_status_writes, m.unjustified_not_ready_s, m.unjustified_ready_s
    );
    (a, b)
}

/// Lays out the traces (legacy above KEP, whatever their order in `traces`).
pub fn layout(traces: &[Trace], opts: &LayoutOpts) -> Figure {
    let width = if opts.width.is_finite() {
        opts.width.max(320.0)
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
    let x0 = (width * 0.16).clamp(70.0, 120.0);
    let x1 = width - 14.0;
    let mut b = Builder {
        x0,
        x1,
        t0,
        t1,
        under: Vec::new(),
        over: Vec::new(),
    };

    let mut order: Vec<&Trace> = traces.iter().collect();
    order.sort_by_key(|t| t.policy);

    let n_pods = order.iter().map(|t| t.pods.len()).max().unwrap_or(0);
    let shown = n_pods.min(opts.max_pods);
    let lanes: Vec<PodLanes> = (0..shown)
        .map(|p| PodLanes {
            endpoint: order
                .iter()
                .any(|t| t.pods.get(p).is_some_and(|i| i.service.is_some())),
            eviction: order.iter().any(|t| {
                t.events
                    .iter()
                    .any(|e| e.kind == Kind::EvictionScheduled && e.pod == Some(p as u16))
            }),
        })
        .collect();

    let title = opts.title.clone().unwrap_or_else(|| {
        let pols: Vec<&str> = order.iter().map(|t| t.policy.label()).collect();
        format!("RestartScope timeline: {}", pols.join(" vs "))
    });
    let mut y = PAD;
    if let Some(t) = &opts.title {
        b.text(PAD, y + 13.0, t.clone(), "rs-h1", "start");
        y += 24.0;
    }

    let mut groups = Vec::new();
    let plot_top = y;
    for tr in &order {
        let gy = y;
        y = draw_group(&mut b, tr, gy, shown, &lanes, opts.show_probes);
        groups.push(GroupBox {
            policy: tr.policy,
            y: gy,
            h: y - gy,
        });
        y += GROUP_GAP;
    }
    if order.is_empty() {
        b.text(x0, y + 14.0, "no traces", "rs-label", "start");
        y += 24.0;
    }

    // Axis.
    let axis_y = y - GROUP_GAP + 8.0;
    let span = t1 - t0;
    let step = tick_step(span, ((x1 - x0) / 62.0).max(2.0));
    b.line(x0, axis_y, x1, axis_y, "rs-axis");
    let mut t = (t0 + step - 1).div_euclid(step) * step;
    while t <= t1 {
        let x = b.x(t);
        b.line(x, axis_y, x, axis_y + 4.0, "rs-axis");
        let label = fmt_secs(secs(t));
        let half = text_w(&label, 10.0) / 2.0;
        let anchor = if x + half > width - 2.0 {
            "end"
        } else {
            "middle"
        };
        b.text(x, axis_y + 15.0, label, "rs-axis-label", anchor);
        b.under.push(Shape::Line {
            x1: x,
            y1: plot_top,
            x2: x,
            y2: axis_y,
            class: "rs-grid",
        });
        t += step;
    }
    b.text(x0 - 16.0, axis_y + 15.0, "time", "rs-label", "end");
    let mut y = axis_y + 24.0;

    y = draw_legend(&mut b, y, width);

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

/// Draws one trace's lanes from `y`; returns the bottom of the group.
fn draw_group(
    b: &mut Builder,
    tr: &Trace,
    gy: f64,
    shown: usize,
    lanes: &[PodLanes],
    show_probes: bool,
) -> f64 {
    let (t0, t1) = (b.t0, b.t1);
    let end = t1.min(tr.horizon).max(t0);

    // Header.
    b.text(PAD + 4.0, gy + 15.0, tr.policy.label(), "rs-h2", "start");
    let (m1, m2) = metrics_lines(&tr.metrics);
    let lx = PAD + 4.0 + text_w(tr.policy.label(), 12.5) + 10.0;
    b.text(lx, gy + 15.0, m1, "rs-meta", "start");
    b.text(PAD + 4.0, gy + 30.0, m2, "rs-meta", "start");
    let top = gy + HEADER_H;
    let mut y = top;

    // Kubelet up/down.
    let kchanges: Vec<(Ms, bool)> = tr
        .events
        .iter()
        .filter_map(|e| match e.kind {
            Kind::KubeletStop => Some((e.t, false)),
            Kind::KubeletStart => Some((e.t, true)),
            _ => None,
        })
        .collect();
    let ksegs = segments(true, &kchanges, t0, end);
    b.lane_label(y + KUBELET_H / 2.0, "kubelet", "rs-label");
    for (a, z, up) in &ksegs {
        let (xa, xz) = (b.x(*a), b.x(*z));
        if *up {
            b.rect(
                xa,
                y + 4.0,
                (xz - xa).max(0.6),
                KUBELET_H - 8.0,
                "rs-up",
                Some(format!("kubelet up {}–{}", ts(*a), ts(*z))),
            );
        } else {
            b.rect(
                xa,
                y,
                (xz - xa).max(0.6),
                KUBELET_H,
                "rs-down",
                Some(format!(
                    "kubelet down {}–{} ({})",
                    ts(*a),
                    ts(*z),
                    ts(z - a)
                )),
            );
        }
    }
    // Label each whole outage (not its clipped part) in the gap.
    let mut stop: Option<Ms> = None;
    for (t, up) in &kchanges {
        match (up, stop) {
            (false, None) => stop = Some(*t),
            (true, Some(s)) => {
                down_label(b, s, *t, y);
                stop = None;
            }
            _ => {}
        }
    }
    if let Some(s) = stop {
        down_label(b, s, tr.horizon, y);
    }
    y += KUBELET_H + LANE_GAP;

    // Lease age.
    draw_lease(b, tr, y, end);
    y += LEASE_H + LANE_GAP;

    // Node Ready.
    let nchanges: Vec<(Ms, String)> = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::NodeReady)
        .map(|e| (e.t, e.value.text()))
        .collect();
    let nsegs = segments("True".to_string(), &nchanges, t0, end);
    b.lane_label(y + NODE_H / 2.0, "node Ready", "rs-label");
    b.band(&nsegs, y, NODE_H, |v, a, z| {
        let class = if v == "True" {
            "rs-node-true"
        } else {
            "rs-node-unknown"
        };
        Some((
            class,
            v.clone(),
            format!("node Ready={v} {}–{}", ts(a), ts(z)),
        ))
    });
    y += NODE_H + LANE_GAP;

    // Taints.
    b.lane_label(y + TAINT_H / 2.0, "taints", "rs-label");
    let mut any_taint = false;
    for (i, effect) in ["NoSchedule", "NoExecute"].into_iter().enumerate() {
        let ch: Vec<(Ms, bool)> = tr
            .events
            .iter()
            .filter(|e| {
                matches!(e.kind, Kind::TaintAdded | Kind::TaintRemoved) && e.value.text() == effect
            })
            .map(|e| (e.t, e.kind == Kind::TaintAdded))
            .collect();
        let segs = segments(false, &ch, t0, end);
        let ry = y + i as f64 * (TAINT_H / 2.0);
        let class = if i == 0 { "rs-taint-ns" } else { "rs-taint-ne" };
        for (a, z, on) in &segs {
            if !on {
                continue;
            }
            any_taint = true;
            let (xa, xz) = (b.x(*a), b.x(*z));
            let w = (xz - xa).max(0.6);
            b.rect(
                xa,
                ry + 0.5,
                w,
                TAINT_H / 2.0 - 1.0,
                class,
                Some(format!(
                    "taint node.kubernetes.io/unreachable:{effect} {}–{}",
                    ts(*a),
                    ts(*z)
                )),
            );
            if text_w(effect, 8.5) + 6.0 <= w {
                b.text(
                    xa + 3.0,
                    ry + TAINT_H / 2.0 - 2.6,
                    effect,
                    "rs-in-sm",
                    "start",
                );
            }
        }
    }
    if !any_taint {
        b.text(
            b.x0 + 4.0,
            y + TAINT_H / 2.0 + 3.0,
            "none",
            "rs-small",
            "start",
        );
    }
    y += TAINT_H + LANE_GAP;

    // Pods.
    for (p, pl) in lanes.iter().enumerate().take(shown) {
        let Some(info) = tr.pods.get(p) else { continue };
        let pod = p as u16;
        y += POD_GAP - LANE_GAP;
        b.line(
            PAD,
            y - POD_GAP / 2.0 + 1.0,
            b.x1,
            y - POD_GAP / 2.0 + 1.0,
            "rs-sep",
        );
        let ev: Vec<&Event> = tr.events.iter().filter(|e| e.pod == Some(pod)).collect();

        // PodReady band with writer badges.
        let badge_y = y;
        let band_y = y + BADGE_ROW;
        b.lane_label(band_y + READY_H / 2.0, &info.name, "rs-label-pod");
        let mut changes: Vec<(Ms, PodState)> = Vec::new();
        let mut writes: Vec<&Event> = Vec::new();
        for e in &ev {
            match e.kind {
                Kind::PodReady => {
                    changes.push((
                        e.t,
                        if matches!(e.value, Value::Bool(true)) {
                            PodState::True
                        } else {
                            PodState::False
                        },
                    ));
                    writes.push(e);
                }
                Kind::PodRemoved => changes.push((e.t, PodState::Removed)),
                _ => {}
            }
        }
        // Once removed the pod stays removed.
        if let Some(i) = changes.iter().position(|c| c.1 == PodState::Removed) {
            changes.truncate(i + 1);
        }
        let segs = segments(PodState::True, &changes, t0, end);
        let why = |a: Ms| -> String {
            writes
                .iter()
                .rev()
                .find(|e| e.t <= a)
                .map(|e| {
                    format!(
                        ", written by the {} ({}: {})",
                        e.by.as_str(),
                        e.rule.id(),
                        e.rule.title()
                    )
                })
                .unwrap_or_default()
        };
        let name = info.name.clone();
        b.band(&segs, band_y, READY_H, |v, a, z| {
            let dur = ts(z - a);
            Some(match v {
                PodState::True => (
                    "rs-ready-true",
                    "True".into(),
                    format!("{name} Ready=True {}–{} ({dur}){}", ts(a), ts(z), why(a)),
                ),
                PodState::False => (
                    "rs-ready-false",
                    "False".into(),
                    format!("{name} Ready=False {}–{} ({dur}){}", ts(a), ts(z), why(a)),
                ),
                PodState::Removed => (
                    "rs-removed",
                    "removed".into(),
                    format!("{name} removed from the API server at {}", ts(a)),
                ),
            })
        });
        let mut last_right = f64::NEG_INFINITY;
        for e in writes.iter().filter(|e| e.t >= t0 && e.t <= end) {
            let x = b.x(e.t);
            let bx = x.max(last_right + BADGE_W / 2.0 + 1.0);
            last_right = bx + BADGE_W / 2.0;
            let (letter, class, tclass) = writer_letter(e.by);
            let value = if matches!(e.value, Value::Bool(true)) {
                "True"
            } else {
                "False"
            };
            let title = format!(
                "{}: {name} Ready={value} written by the {} — {}: {}",
                ts(e.t),
                e.by.as_str(),
                e.rule.id(),
                e.rule.title()
            );
            if (bx - x).abs() > 0.5 {
                b.line(x, band_y, bx, badge_y + BADGE_ROW - 1.0, "rs-leader");
            }
            b.rect(
                bx - BADGE_W / 2.0,
                badge_y,
                BADGE_W,
                BADGE_ROW - 1.0,
                class,
                Some(title),
            );
            b.text(bx, badge_y + BADGE_ROW - 3.3, letter, tclass, "middle");
        }
        y = band_y + READY_H + LANE_GAP;

        // Probes.
        if show_probes {
            b.lane_label(y + PROBE_H / 2.0, "probes", "rs-label");
            let yc = y + PROBE_H / 2.0;
            // x of every probe execution in this lane, to keep counters from overlapping ticks.
            let probe_xs: Vec<f64> = ev
                .iter()
                .filter(|e| e.kind == Kind::Probe && e.t >= t0 && e.t <= end)
                .map(|e| b.x(e.t))
                .collect();
            let mut label_end = f64::NEG_INFINITY;
            for e in ev.iter().filter(|e| e.t >= t0 && e.t <= end) {
                let x = b.x(e.t);
                let title = Some(format!(
                    "{}: {}",
                    ts(e.t),
                    restartscope_report::describe(tr, e)
                ));
                match (&e.kind, &e.value) {
                    (Kind::Probe, Value::Probe(pv)) if pv.result == Outcome::Success => {
                        b.path(
                            format!(
                                "M{} {}L{} {}L{} {}",
                                n(x - 3.0),
                                n(yc),
                                n(x - 1.0),
                                n(yc + 3.0),
                                n(x + 3.0),
                                n(yc - 3.5)
                            ),
                            "rs-probe-ok",
                            title,
                        );
                    }
                    (Kind::Probe, Value::Probe(pv)) => {
                        // The failure count toward failureThreshold, where one failure is not
                        // enough and there is room before the next tick.
                        let next = probe_xs
                            .iter()
                            .copied()
                            .find(|&px| px > x + 0.5)
                            .unwrap_or(f64::INFINITY);
                        if pv.threshold > 1 && next - x >= 22.0 && x > label_end {
                            label_end = x + 20.0;
                            b.text(
                                x + 4.5,
                                yc + 3.2,
                                format!("{}/{}", pv.run.min(pv.threshold), pv.threshold),
                                "rs-small",
                                "start",
                            );
                        }
                        b.path(
                            format!(
                                "M{} {}L{} {}M{} {}L{} {}",
                                n(x - 3.0),
                                n(yc - 3.0),
                                n(x + 3.0),
                                n(yc + 3.0),
                                n(x - 3.0),
                                n(yc + 3.0),
                                n(x + 3.0),
                                n(yc - 3.0)
                            ),
                            "rs-probe-fail",
                            title,
                        );
                    }
                    (Kind::ProbeResult, Value::Probe(pv))
                        if e.rule == Rule::P1 && pv.result == Outcome::Failure =>
                    {
                        b.path(
                            format!("M{} {}h6v6h-6z", n(x - 3.0), n(yc - 3.0)),
                            "rs-probe-seed",
                            title,
                        );
                    }
                    (Kind::ProbeResult, Value::Probe(_)) if e.rule == Rule::P1k => {
                        b.path(circle(x, yc, 3.0), "rs-probe-kept", title);
                    }
                    _ => {}
                }
            }
            y += PROBE_H + LANE_GAP;
        }

        // Endpoint.
        if pl.endpoint {
            b.lane_label(y + EP_H / 2.0, "endpoint", "rs-label");
            if info.service.is_some() {
                let ch: Vec<(Ms, Ep)> = ev
                    .iter()
                    .filter(|e| e.kind == Kind::Endpoint)
                    .map(|e| match &e.value {
                        Value::Endpoint(v) => (e.t, Ep::of(v)),
                        _ => (e.t, Ep::Removed),
                    })
                    .collect();
                let segs = segments(Ep::Ready, &ch, t0, end);
                let svc = info.service.clone().unwrap_or_default();
                b.band(&segs, y, EP_H, |v, a, z| {
                    Some((
                        v.class(),
                        v.label().to_string(),
                        format!(
                            "endpoint of {name} in Service {svc}: {} {}–{}",
                            v.label(),
                            ts(a),
                            ts(z)
                        ),
                    ))
                });
            }
            y += EP_H + LANE_GAP;
        }

        // Eviction countdown.
        if pl.eviction {
            b.lane_label(y + EVICT_H / 2.0, "eviction", "rs-label");
            draw_eviction(b, &ev, y, end);
            y += EVICT_H + LANE_GAP;
        }
    }
    if tr.pods.len() > shown {
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
        y += 14.0;
    }
    let bottom = y + 2.0;

    // Group frame and downtime shading go under everything drawn above.
    let mut under = vec![Shape::Rect {
        x: PAD / 2.0,
        y: gy,
        w: b.x1 + 10.0 - PAD / 2.0,
        h: bottom - gy,
        class: "rs-group",
        title: None,
    }];
    for (a, z, up) in &ksegs {
        if !up {
            let (xa, xz) = (b.x(*a), b.x(*z));
            under.push(Shape::Rect {
                x: xa,
                y: top,
                w: (xz - xa).max(0.6),
                h: bottom - top,
                class: "rs-downtime",
                title: None,
            });
        }
    }
    b.under.extend(under);
    bottom
}

fn down_label(b: &mut Builder, stop: Ms, start: Ms, y: f64) {
    let (a, z) = (stop.max(b.t0), start.min(b.t1));
    if z <= a {
        return;
    }
    let (xa, xz) = (b.x(a), b.x(z));
    let w = xz - xa;
    let long = format!("down {}", fmt_secs(secs(start - stop)));
    let s = if text_w(&long, 9.5) + 6.0 <= w {
        long
    } else if text_w("down", 9.5) + 4.0 <= w {
        "down".to_string()
    } else {
        return;
    };
    b.text(
        xa + w / 2.0,
        y + KUBELET_H / 2.0 + 3.3,
        s,
        "rs-in",
        "middle",
    );
}

fn circle(x: f64, y: f64, r: f64) -> String {
    format!(
        "M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0z",
        n(x - r),
        n(y),
        n(2.0 * r),
        n(-2.0 * r)
    )
}

/// Lease age: a sawtooth rising from each renewal toward the dashed grace line.
fn draw_lease(b: &mut Builder, tr: &Trace, y: f64, end: Ms) {
    let (t0, grace) = (b.t0, tr.grace.max(1));
    b.lane_label(y + LEASE_H / 2.0, "lease age", "rs-label");
    let renew_interval = (tr.lease_duration / 4).max(1);
    let mut renews: Vec<Ms> = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::LeaseRenew)
        .map(|e| e.t)
        .collect();
    // The renewal before t = 0 is one interval before the first one (steady state).
    let before = renews
        .first()
        .map(|r| r - renew_interval)
        .unwrap_or(-renew_interval);
    renews.insert(0, before);
    let cap = grace as f64 * 1.3;
    let inner = LEASE_H - 2.0;
    let base = y + LEASE_H;
    let yv = |age: f64| base - age.min(cap) / cap * inner;
    let mut pts: Vec<(f64, f64)> = vec![(b.x(t0), base)];
    let mut expired: Vec<Ms> = Vec::new();
    for (i, &r) in renews.iter().enumerate() {
        let next = renews.get(i + 1).copied().unwrap_or(i64::MAX);
        let (a, z) = (r.max(t0), next.min(end));
        if z <= a {
            if r >= end {
                break;
            }
            continue;
        }
        let age_a = (a - r) as f64;
        let age_z = (z - r) as f64;
        pts.push((b.x(a), yv(age_a)));
        let cap_t = r + cap as Ms;
        if age_a < cap && age_z > cap {
            pts.push((b.x(cap_t), yv(cap)));
        }
        pts.push((b.x(z), yv(age_z)));
        if z == next {
            pts.push((b.x(z), base));
        }
        let exp_t = r + grace;
        if exp_t > a && exp_t < z {
            expired.push(exp_t);
        }
    }
    pts.push((b.x(end), base));
    let mut d = String::new();
    for (i, (px, py)) in pts.iter().enumerate() {
        d.push_str(&format!(
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            n(*px),
            n(*py)
        ));
    }
    d.push('Z');
    b.path(
        d,
        "rs-lease",
        Some(format!(
            "node lease age; the node monitor grace period is {}",
            ts(grace)
        )),
    );
    for r in renews.iter().filter(|r| **r >= t0 && **r <= end) {
        let x = b.x(*r);
        b.line(x, base - 4.0, x, base, "rs-renew");
    }
    let gy = yv(grace as f64);
    b.line(b.x0, gy, b.x1, gy, "rs-grace");
    let glabel = format!("grace {}", fmt_secs(secs(grace)));
    b.text(b.x1 - 2.0, gy - 2.0, glabel, "rs-small", "end");
    for t in expired {
        let x = b.x(t);
        b.line(x, y, x, base, "rs-expired");
        let label = "lease expired";
        if x + 3.0 + text_w(label, 9.0) < b.x1 - 60.0 {
            b.text(x + 3.0, y + 8.0, label, "rs-warn", "start");
        } else {
            b.text(x - 3.0, y + 8.0, label, "rs-warn", "end");
        }
    }
}

fn draw_eviction(b: &mut Builder, ev: &[&Event], y: f64, end: Ms) {
    let (t0, t1) = (b.t0, end);
    for (i, e) in ev.iter().enumerate() {
        if e.kind != Kind::EvictionScheduled {
            continue;
        }
        let due = match e.value {
            Value::Seconds(s) => (s * 1000.0).round() as Ms,
            _ => e.t,
        };
        let outcome = ev[i + 1..].iter().find(|x| {
            matches!(
                x.kind,
                Kind::EvictionCancelled | Kind::Eviction | Kind::EvictionScheduled
            )
        });
        let stop = outcome.map(|o| o.t).unwrap_or(due).min(due.max(e.t));
        let (a, z) = (e.t.max(t0), due.min(t1));
        if z > a {
            let (xa, xz) = (b.x(a), b.x(z));
            let title = format!(
                "eviction scheduled at {} for {} (toleration {})",
                ts(e.t),
                ts(due),
                ts(due - e.t)
            );
            b.rect(
                xa,
                y + 1.0,
                xz - xa,
                EVICT_H - 2.0,
                "rs-evict-window",
                Some(title.clone()),
            );
            let ze = stop.min(t1).max(a);
            let xe = b.x(ze);
            if xe > xa {
                b.rect(
                    xa,
                    y + 1.0,
                    xe - xa,
                    EVICT_H - 2.0,
                    "rs-evict-elapsed",
                    Some(title),
                );
            }
            // The label must end before the cancel/evict mark (which has its own label).
            let room = match outcome {
                Some(o) if o.t >= t0 && o.t <= t1 => b.x(o.t).min(xz) - xa,
                _ => xz - xa,
            };
            let left = fmt_secs(secs(due - e.t));
            let long = format!("evict after {left}");
            let label = [long, left]
                .into_iter()
                .find(|l| text_w(l, 9.5) + 6.0 <= room);
            if let (true, Some(label)) = (e.t >= t0, label) {
                b.text(xa + 3.0, y + EVICT_H / 2.0 + 3.3, label, "rs-in", "start");
            }
        }
        if let Some(o) = outcome {
            if o.t >= t0 && o.t <= t1 {
                let x = b.x(o.t);
                let (class, label) = match o.kind {
                    Kind::Eviction => ("rs-evict-mark", "evicted"),
                    Kind::EvictionCancelled => ("rs-evict-cancel", "cancelled"),
                    _ => continue,
                };
                b.line(x, y - 1.0, x, y + EVICT_H + 1.0, class);
                if x + 3.0 + text_w(label, 9.0) <= b.x1 {
                    b.text(x + 3.0, y + EVICT_H / 2.0 + 3.3, label, "rs-warn", "start");
                } else {
                    b.text(x - 3.0, y + EVICT_H / 2.0 + 3.3, label, "rs-warn", "end");
                }
            }
        }
    }
}

/// The legend, flowing left to right; returns the bottom.
fn draw_legend(b: &mut Builder, y0: f64, width: f64) -> f64 {
    enum Sw {
        Rect(&'static str, &'static str),
        Badge(&'static str, &'static str, &'static str),
        Path(&'static str),
        Dash(&'static str),
    }
    let items: Vec<(Sw, &str)> = vec![
        (Sw::Rect("rs-ready-true", "True"), "pod Ready"),
        (Sw::Rect("rs-ready-false", "False"), "pod NotReady"),
        (
            Sw::Badge("K", "rs-badge-k", "rs-badge-text-k"),
            "written by kubelet",
        ),
        (
            Sw::Badge("N", "rs-badge-n", "rs-badge-text"),
            "by node lifecycle controller",
        ),
        (Sw::Path("rs-probe-ok"), "probe success"),
        (Sw::Path("rs-probe-fail"), "probe failure"),
        (Sw::Path("rs-probe-seed"), "initial Failure written (P1)"),
        (Sw::Path("rs-probe-kept"), "initial Failure skipped (KEP)"),
        (Sw::Rect("rs-ep-ready", ""), "endpoint ready"),
        (Sw::Rect("rs-ep-notready", ""), "not ready"),
        (Sw::Rect("rs-ep-serving", ""), "serving, terminating"),
        (Sw::Rect("rs-ep-terminating", ""), "terminating"),
        (Sw::Rect("rs-node-unknown", ""), "node Unknown"),
        (Sw::Rect("rs-taint-ns", ""), "NoSchedule taint"),
        (Sw::Rect("rs-taint-ne", ""), "NoExecute taint"),
        (Sw::Dash("rs-grace"), "grace period"),
        (Sw::Rect("rs-down", ""), "kubelet down"),
    ];
    let left = PAD + 4.0;
    let right = width - PAD;
    let mut x = left;
    let mut y = y0;
    b.text(left, y + 8.0, "Legend", "rs-label-pod", "start");
    x += text_w("Legend", 11.0) + 12.0;
    for (sw, label) in items {
        let sw_w = match sw {
            Sw::Rect(_, t) if !t.is_empty() => text_w(t, 9.5) + 8.0,
            Sw::Rect(..) | Sw::Dash(_) => 18.0,
            Sw::Badge(..) => BADGE_W,
            Sw::Path(_) => 8.0,
        };
        let item_w = sw_w + 4.0 + text_w(label, 10.0) + 12.0;
        if x + item_w > right && x > left {
            x = left;
            y += 16.0;
        }
        match sw {
            Sw::Rect(class, t) => {
                b.rect(x, y, sw_w, 11.0, class, None);
                if !t.is_empty() {
                    b.text(x + sw_w / 2.0, y + 8.7, t, "rs-in", "middle");
                }
            }
            Sw::Badge(letter, class, tclass) => {
                b.rect(x, y, BADGE_W, 10.0, class, None);
                b.text(x + BADGE_W / 2.0, y + 7.7, letter, tclass, "middle");
            }
            Sw::Path(class) => {
                let (cx, cy) = (x + 4.0, y + 5.5);
                let d = match class {
                    "rs-probe-ok" => format!(
                        "M{} {}L{} {}L{} {}",
                        n(cx - 3.0),
                        n(cy),
                        n(cx - 1.0),
                        n(cy + 3.0),
                        n(cx + 3.0),
                        n(cy - 3.5)
                    ),
                    "rs-probe-fail" => format!(
                        "M{} {}L{} {}M{} {}L{} {}",
                        n(cx - 3.0),
                        n(cy - 3.0),
                        n(cx + 3.0),
                        n(cy + 3.0),
                        n(cx - 3.0),
                        n(cy + 3.0),
                        n(cx + 3.0),
                        n(cy - 3.0)
                    ),
                    "rs-probe-seed" => format!("M{} {}h6v6h-6z", n(cx - 3.0), n(cy - 3.0)),
                    _ => circle(cx, cy, 3.0),
                };
                b.path(d, class, None);
            }
            Sw::Dash(class) => b.line(x, y + 5.5, x + sw_w, y + 5.5, class),
        }
        b.text(x + sw_w + 4.0, y + 9.0, label, "rs-legend", "start");
        x += item_w;
    }
    y + 14.0
}

/// Number for SVG: one decimal, no trailing `.0`.
fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Escapes text for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

impl Figure {
    /// Pixel x of a time (ms); linear, also outside the window.
    pub fn x_of(&self, t_ms: i64) -> f64 {
        x_of(self.x0, self.x1, self.t0_ms, self.t1_ms, t_ms)
    }

    /// Time (ms, rounded) at pixel x; the inverse of [`Figure::x_of`].
    pub fn t_of(&self, x: f64) -> i64 {
        let span = (self.t1_ms - self.t0_ms).max(1) as f64;
        let w = (self.x1 - self.x0).max(1e-9);
        self.t0_ms + ((x - self.x0) / w * span).round() as i64
    }

    /// The class rules [`Figure::to_svg`] embeds. Scope: an `<svg class="rs-figure">`.
    pub fn css() -> &'static str {
        CSS
    }

    /// Hatch pattern definitions (also part of [`Figure::to_svg_inner`]).
    pub fn defs() -> &'static str {
        DEFS
    }

    /// The shapes (and the hatch `<defs>` they reference), for an `<svg class="rs-figure">`
    /// whose page includes [`Figure::css`].
    pub fn to_svg_inner(&self) -> String {
        let mut s = String::with_capacity(64 * self.shapes.len() + DEFS.len());
        s.push_str(DEFS);
        s.push('\n');
        for sh in &self.shapes {
            match sh {
                Shape::Rect {
                    x,
                    y,
                    w,
                    h,
                    class,
                    title,
                } => {
                    s.push_str(&format!(
                        r#"<rect x="{}" y="{}" width="{}" height="{}" class="{class}""#,
                        n(*x),
                        n(*y),
                        n(w.max(0.0)),
                        n(h.max(0.0))
                    ));
                    close(&mut s, "rect", title);
                }
                Shape::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    class,
                } => s.push_str(&format!(
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" class="{class}"/>"#,
                    n(*x1),
                    n(*y1),
                    n(*x2),
                    n(*y2)
                )),
                Shape::Text {
                    x,
                    y,
                    text,
                    class,
                    anchor,
                } => s.push_str(&format!(
                    r#"<text x="{}" y="{}" class="{class}" text-anchor="{anchor}">{}</text>"#,
                    n(*x),
                    n(*y),
                    esc(text)
                )),
                Shape::Path { d, class, title } => {
                    s.push_str(&format!(r#"<path d="{}" class="{class}""#, esc(d)));
                    close(&mut s, "path", title);
                }
            }
            s.push('\n');
        }
        s
    }

    /// A standalone SVG document: xmlns, viewBox, embedded style, no external references.
    pub fn to_svg(&self) -> String {
        let (w, h) = (n(self.width), n(self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"rs-figure\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"rs-title\">\n<title id=\"rs-title\">{}</title>\n<style>\n{}</style>\n{}</svg>\n",
            esc(&self.title),
            CSS,
            self.to_svg_inner()
        )
    }
}

/// Ends an element opened as `<tag ...`: with a `<title>` child when there is a title.
fn close(s: &mut String, tag: &str, title: &Option<String>) {
    match title {
        Some(t) => s.push_str(&format!("><title>{}</title></{tag}>", esc(t))),
        None => s.push_str("/>"),
    }
}

#[cfg(test)]
mod tests;
