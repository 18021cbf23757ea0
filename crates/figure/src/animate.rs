//! The animated SVG: the same figure played by CSS keyframes alone, for the places
//! where an iframe is stripped but an `<img>` of SVG plays (GitHub READMEs, KEPs). No script,
//! no external reference: a playhead sweeps the time axis, a veil over each run's lanes shrinks
//! from the left as it passes (what lies after the playhead is dimmed), and each run's counters
//! (Ready transitions, EndpointSlice updates, evictions) count up when the playhead crosses the
//! instants they changed (an odometer: the header line's successive texts stacked under a clip,
//! moved by a `step-end` keyframe per change). The sweep lasts [`Animation::duration_ms`], then
//! the last frame holds for [`Animation::pause_ms`] and it loops. Keyframe percentages are the
//! trace's times over the figure's window, scaled to the sweep's share of the cycle.
//!
//! The elements' own style (outside any animation) is the last frame: no veil, the playhead at
//! the window's end, the counters' final values. So `prefers-reduced-motion: reduce`, which
//! turns the animations off, shows the final frame, and so does a renderer without CSS
//! animations.

use crate::figure::{Figure, Shape};
use crate::layout::metrics_lines;
use crate::svg::{esc, n};
use restartscope_report::metrics_at;
use restartscope_sim::{Ms, Trace};

/// How the figure plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Animation {
    /// The playhead's sweep across the window, in ms.
    pub duration_ms: u64,
    /// The hold on the last frame before it loops, in ms.
    pub pause_ms: u64,
}

impl Default for Animation {
    fn default() -> Self {
        Animation {
            duration_ms: Animation::DEFAULT_MS,
            pause_ms: Animation::PAUSE_MS,
        }
    }
}

impl Animation {
    /// Default sweep: 20 s.
    pub const DEFAULT_MS: u64 = 20_000;
    /// Hold at the end: 2 s.
    pub const PAUSE_MS: u64 = 2_000;
    /// The sweep's accepted range (the CLI's `--duration`): 5 s to 120 s.
    pub const RANGE_MS: (u64, u64) = (5_000, 120_000);

    /// A sweep of `duration_ms` with the default pause.
    pub fn new(duration_ms: u64) -> Self {
        Animation {
            duration_ms,
            ..Animation::default()
        }
    }

    /// The whole cycle (sweep and pause), in seconds, as CSS writes it.
    fn cycle(&self) -> String {
        let ms = (self.duration_ms + self.pause_ms).max(1);
        format!("{}s", trim(ms as f64 / 1000.0, 3))
    }
}

/// Distance between the odometer's rows (one header line, 10.5 px text).
const ROW: f64 = 14.0;

/// A number with at most `places` decimals, no trailing zeros.
/// The veil over what lies after the playhead: from `x`, `width` wide (a number, as written).
fn veil_rect(x: f64, width: &str, top: f64, h: f64) -> String {
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{width}\" height=\"{}\" class=\"rs-veil\"/>",
        n(x),
        n(top),
        n(h)
    )
}

/// The playhead's line at `x`, from `y1` to `y2`.
fn playhead_line(x: f64, y1: f64, y2: f64) -> String {
    format!(
        "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" class=\"rs-playhead\"/>",
        n(y1),
        n(y2),
        x = n(x)
    )
}

fn trim(v: f64, places: usize) -> String {
    let s = format!("{v:.places$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// A header line's successive texts, each from the instant it is first shown.
pub type Steps = Vec<(Ms, String)>;

/// One run's counters as its header's first line writes them, at each instant of the window
/// where they change: `(t, line)`, the first at the window's start.
pub fn counter_steps(trace: &Trace, t0: Ms, t1: Ms) -> Vec<(Ms, String)> {
    header_steps(trace, t0, t1).0
}

/// Both lines of one run's header on one clock: each line's texts at the instants where a count
/// of either line changes (a Ready transition, an EndpointSlice update, an eviction, a status
/// write), and the second line's at the window's end (its pod·s accumulate between writes), so
/// no line shows a later moment than the other. Each line lists only its own changes; the first
/// of each is at the window's start.
pub fn header_steps(trace: &Trace, t0: Ms, t1: Ms) -> (Steps, Steps) {
    let key = |t: Ms| {
        let m = metrics_at(trace, t);
        (
            m.ready_transitions,
            m.endpointslice_updates,
            m.evictions,
            m.kubelet_status_writes,
            m.nlc_status_writes,
        )
    };
    let lines = |t: Ms| metrics_lines(&metrics_at(trace, t));
    let (a0, b0) = lines(t0);
    let (mut one, mut two) = (vec![(t0, a0)], vec![(t0, b0)]);
    let mut push = |t: Ms, (a, b): (String, String)| {
        if one.last().is_some_and(|l| l.1 != a) {
            one.push((t, a));
        }
        if two.last().is_some_and(|l| l.1 != b) {
            two.push((t, b));
        }
    };
    let mut last = key(t0);
    if let Some(c) = &trace.checkpoints {
        for p in &c.points {
            if p.t <= t0 || p.t > t1 {
                continue;
            }
            let k = key(p.t);
            if k != last {
                last = k;
                push(p.t, lines(p.t));
            }
        }
    }
    if t1 > t0 {
        push(t1, lines(t1));
    }
    (one, two)
}

/// The playhead's and the veil's paint, the same in the animated figure and in one moment of it.
const PLAYHEAD: &str = "stroke: var(--rs-playhead); stroke-width: 2;";
/// Light enough that what is still to come stays legible in both themes (0.82 left the dark
/// theme's lanes nearly invisible).
const VEIL: &str = "fill: var(--rs-bg); fill-opacity: 0.6;";

/// One run's counters line: its index in `shapes`, its x and y, and its successive texts
/// ([`counter_steps`]).
type Counter = (usize, f64, f64, Vec<(Ms, String)>);

/// What moves, found once in a laid-out figure: the animated SVG ([`Figure::animated_parts`])
/// and the SVG of one moment ([`Figure::moment_parts`]) both draw from it.
struct Moving {
    /// Per run: its counters line.
    counters: Vec<Counter>,
    /// Per run: the top and height of what the veil covers (the kubelet lane to the group's end).
    veils: Vec<(f64, f64)>,
    /// The playhead's top and bottom (`None` without runs).
    playhead: Option<(f64, f64)>,
}

impl Figure {
    /// The share of the cycle (percent) at which the playhead passes `t`.
    fn pct(&self, t: Ms, a: &Animation) -> f64 {
        let span = (self.t1_ms - self.t0_ms).max(1) as f64;
        let sweep = a.duration_ms as f64 / (a.duration_ms + a.pause_ms).max(1) as f64;
        ((t - self.t0_ms) as f64 / span).clamp(0.0, 1.0) * sweep * 100.0
    }

    /// The counters, veils and playhead of the figure laid out from `traces`.
    fn moving(&self, traces: &[Trace]) -> Moving {
        // Groups in the layout's order (legacy above KEP; traces of one policy in their order).
        let mut order: Vec<&Trace> = traces.iter().collect();
        order.sort_by_key(|t| t.policy);
        let mut counters = Vec::new();
        // The first lines (their indices as before), then the second lines (the full layout's).
        let mut seconds = Vec::new();
        for (g, tr) in self.groups.iter().zip(&order) {
            let (m1, m2) = metrics_lines(&tr.metrics);
            let (s1, s2) = header_steps(tr, self.t0_ms, self.t1_ms);
            let find = |dy: f64, want: &str| {
                self.shapes.iter().position(|s| {
                    matches!(s, Shape::Text { y, class, text, .. }
                        if *class == "rs-meta" && (*y - (g.y + dy)).abs() < 0.01 && text == want)
                })
            };
            for (list, at, steps) in [
                (&mut counters, find(15.0, &m1), s1),
                (&mut seconds, find(30.0, &m2), s2),
            ] {
                if let Some(at) = at {
                    if let Shape::Text { x, y, .. } = &self.shapes[at] {
                        list.push((at, *x, *y, steps));
                    }
                }
            }
        }
        counters.append(&mut seconds);
        let veils = self
            .groups
            .iter()
            .map(|g| (g.kubelet_y, g.y + g.h - 1.0 - g.kubelet_y))
            .collect();
        let playhead = match (self.groups.first(), self.groups.last()) {
            (Some(first), Some(last)) => Some((first.kubelet_y - 2.0, last.y + last.h + 2.0)),
            _ => None,
        };
        Moving {
            counters,
            veils,
            playhead,
        }
    }

    /// The shapes, each run's counters line replaced by `counter(run, x, y, steps)`; and what
    /// is drawn over them: the veils (`veil(top, height)`) and the playhead (`playhead(top,
    /// bottom)`).
    fn moving_inner(
        &self,
        m: &Moving,
        counter: impl Fn(usize, f64, f64, &[(Ms, String)]) -> String,
        veil: impl Fn(f64, f64) -> String,
        playhead: impl Fn(f64, f64) -> String,
    ) -> (String, String) {
        let mut inner = String::from(Figure::defs());
        inner.push('\n');
        for (i, sh) in self.shapes.iter().enumerate() {
            match m.counters.iter().position(|c| c.0 == i) {
                Some(gi) => {
                    let (_, x, y, steps) = &m.counters[gi];
                    inner.push_str(&counter(gi, *x, *y, steps));
                }
                None => inner.push_str(&sh.to_svg()),
            }
            inner.push('\n');
        }
        let mut over = String::new();
        for (top, h) in &m.veils {
            over.push_str(&veil(*top, *h));
            over.push('\n');
        }
        if let Some((y1, y2)) = m.playhead {
            over.push_str(&playhead(y1, y2));
            over.push('\n');
        }
        (inner, over)
    }

    /// The two halves of the animated figure: the style to add to [`Figure::css`] (the
    /// keyframes and the reduced-motion rule) and the shapes with the playhead, the veils and
    /// the counters (what [`Figure::to_svg_inner`] is for the static figure). `traces` are the
    /// ones the figure was laid out from.
    pub fn animated_parts(&self, traces: &[Trace], a: &Animation) -> (String, String) {
        let cycle = a.cycle();
        let end = trim(self.pct(self.t1_ms, a), 3);
        let w = n(self.x1 - self.x0);
        let mut css = format!(
            ".rs-playhead {{ {PLAYHEAD} transform: translateX({w}px); animation: rs-play {cycle} linear infinite; }}
@keyframes rs-play {{ 0% {{ transform: translateX(0px); }} {end}%, 100% {{ transform: translateX({w}px); }} }}
.rs-veil {{ {VEIL} transform-box: fill-box; transform-origin: 100% 0; transform: scaleX(0); animation: rs-veil {cycle} linear infinite; }}
@keyframes rs-veil {{ 0% {{ transform: scaleX(1); }} {end}%, 100% {{ transform: scaleX(0); }} }}
"
        );
        let m = self.moving(traces);
        for (gi, (_, _, _, steps)) in m.counters.iter().enumerate() {
            let last = steps.len() - 1;
            if last == 0 {
                continue;
            }
            let mut frames = String::new();
            for (i, (t, _)) in steps.iter().enumerate() {
                let row = (last - i) as f64;
                let p = if i == 0 {
                    "0".to_string()
                } else {
                    trim(self.pct(*t, a), 3)
                };
                frames.push_str(&format!(
                    " {p}% {{ transform: translateY({}px); }}",
                    n(-row * ROW)
                ));
            }
            css.push_str(&format!(
                ".rs-count-{gi} {{ animation: rs-count-{gi} {cycle} step-end infinite; }}\n@keyframes rs-count-{gi} {{{frames} }}\n"
            ));
        }
        css.push_str("@media (prefers-reduced-motion: reduce) { .rs-playhead, .rs-veil, .rs-count { animation: none; } }\n");

        // The odometer: rows of the counters' texts, the last value where the static line is,
        // the earlier ones below it, under a clip one row high.
        let counter = |gi: usize, x: f64, y: f64, steps: &[(Ms, String)]| {
            let last = steps.len() - 1;
            let mut g_svg = format!(
                "<clipPath id=\"rs-clip-c{gi}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath><g clip-path=\"url(#rs-clip-c{gi})\"><g class=\"rs-count rs-count-{gi}\">",
                n(x - 2.0),
                n(y - 11.0),
                n(self.x1 + 10.0 - x),
                n(ROW + 1.0),
            );
            for (i, (_, text)) in steps.iter().enumerate() {
                let row = (last - i) as f64;
                g_svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" class=\"rs-meta\" text-anchor=\"start\">{}</text>",
                    n(x),
                    n(y + row * ROW),
                    esc(text)
                ));
            }
            g_svg.push_str("</g></g>");
            g_svg
        };
        let veil = |top: f64, h: f64| veil_rect(self.x0, &w, top, h);
        let playhead = |y1: f64, y2: f64| playhead_line(self.x0, y1, y2);
        let (under, over) = self.moving_inner(&m, counter, veil, playhead);
        (css, under + &over)
    }

    /// The animated standalone SVG: [`Figure::to_svg`] with [`Figure::animated_parts`].
    pub fn to_svg_animated(&self, traces: &[Trace], a: &Animation) -> String {
        let (css, inner) = self.animated_parts(traces, a);
        self.document(&format!("{}{css}", Figure::css()), &inner)
    }

    /// The animated figure as it looks when its playhead is at `t` (ms; clamped to the window),
    /// without animations: the same two halves as [`Figure::animated_parts`] — the playhead at
    /// `t`, what lies after it veiled, each run's counters at their value at `t` — for a
    /// renderer that draws one frame at a time (the CLI's GIF). At the window's end it is the
    /// frame the animated SVG holds during its pause (the playhead at the end, nothing veiled).
    pub fn moment_parts(&self, traces: &[Trace], t: Ms) -> (String, String) {
        let (css, under, over) = self.moment_layers(traces, t);
        (css, under + &over)
    }

    /// [`Figure::moment_parts`] with its shapes in two layers: the style, the figure's shapes
    /// (the counters at `t`), and what is drawn over them (the veils and the playhead), so that
    /// a renderer of many moments draws the first layer only when the counters change.
    pub fn moment_layers(&self, traces: &[Trace], t: Ms) -> (String, String, String) {
        let css = format!(".rs-playhead {{ {PLAYHEAD} }}\n.rs-veil {{ {VEIL} }}\n");
        let t = t.clamp(self.t0_ms, self.t1_ms);
        let x = self.x_of(t).clamp(self.x0, self.x1);
        let m = self.moving(traces);
        let counter = |_: usize, cx: f64, cy: f64, steps: &[(Ms, String)]| {
            // The last change at or before t: the row the odometer shows then.
            let text = steps
                .iter()
                .rev()
                .find(|(st, _)| *st <= t)
                .or(steps.first())
                .map_or("", |(_, s)| s.as_str());
            format!(
                "<text x=\"{}\" y=\"{}\" class=\"rs-meta\" text-anchor=\"start\">{}</text>",
                n(cx),
                n(cy),
                esc(text)
            )
        };
        let veil = |top: f64, h: f64| veil_rect(x, &n(self.x1 - x), top, h);
        let playhead = |y1: f64, y2: f64| playhead_line(x, y1, y2);
        let (under, over) = self.moving_inner(&m, counter, veil, playhead);
        (css, under, over)
    }

    /// [`Figure::moment_parts`] as a standalone SVG (with [`Figure::css`]).
    pub fn to_svg_at(&self, traces: &[Trace], t: Ms) -> String {
        let (css, inner) = self.moment_parts(traces, t);
        self.document(&format!("{}{css}", Figure::css()), &inner)
    }
}
