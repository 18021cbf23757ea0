//! The figure as plain data: what to draw ([`LayoutOpts`]) and what was laid out ([`Figure`]:
//! positioned [`Shape`]s, one [`GroupBox`] per trace, the time window and its pixel mapping).
//! Produced by `crate::layout`, written out by `crate::svg`; re-exported at the crate root.

use crate::geom;
use restartscope_sim::Policy;

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOpts {
    /// Figure width in px (default 800; values below 240 are raised to 240).
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
    /// A short layout for a projector (default false): one header line per run, no lease-age
    /// and probe lanes, the taints lane only when a run has taints, per pod the Ready lane
    /// (writer badges only where a write falls in the window) with the endpoint as a thin strip
    /// under it, and a legend of what those lanes can show.
    pub compact: bool,
    /// What an incident's evidence shows, per pod (`restartscope replay`): each drawn as an "observed" lane
    /// right under the modelled Ready lane of the pod of the same name, in every run; a pod the
    /// runs do not have gets its observed lane after the run's pods ("not in the model").
    pub observed: Vec<ObservedPod>,
    /// A line (wrapped) under the heading: how the evidence's clock was put on the model's axis.
    pub note: Option<String>,
    /// Tooltips on the pods' lanes (default true): each Ready span, writer badge, probe mark and
    /// endpoint span says what it is and when. The page lays a figure out without them while
    /// a slider is held (no pointer can hover then) and with them once the hand rests.
    pub tooltips: bool,
}

/// One observed Ready step of a pod: from `t_ms` (on the figure's axis, already aligned to
/// the model's clock) the pod's Ready was `ready` (`None`: unknown), written by `by` (the
/// source's writer, `system:node:n1`; empty when the source does not say).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedStep {
    pub t_ms: i64,
    pub ready: Option<bool>,
    pub by: String,
}

/// A pod's observed Ready sequence (plain data: the figure does not read evidence itself).
/// Before `first_ms` and after `last_ms` nothing was observed (drawn as "not observed").
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedPod {
    /// The pod's name in the evidence.
    pub pod: String,
    /// The modelled pod to draw it under when the run has none of its name (`None`: the pod
    /// named `pod`).
    pub under: Option<String>,
    pub steps: Vec<ObservedStep>,
    pub first_ms: i64,
    pub last_ms: i64,
}

impl ObservedPod {
    /// A pod's observed lane from the evidence's steps `(t_ms, ready, writer)`: drawn under
    /// `model_pod` when the run has no pod of its own name (`replay -o svg`, the app's replay).
    pub fn new(
        pod: &str,
        model_pod: Option<&str>,
        steps: impl IntoIterator<Item = (i64, bool, Option<String>)>,
        (first_ms, last_ms): (i64, i64),
    ) -> ObservedPod {
        ObservedPod {
            pod: pod.to_string(),
            under: model_pod.filter(|m| *m != pod).map(str::to_string),
            steps: steps
                .into_iter()
                .map(|(t_ms, ready, by)| ObservedStep {
                    t_ms,
                    ready: Some(ready),
                    by: by.unwrap_or_default(),
                })
                .collect(),
            first_ms,
            last_ms,
        }
    }
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
            compact: false,
            observed: Vec::new(),
            note: None,
            tooltips: true,
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
    /// Top and height of the group's kubelet lane (where the web app puts the handles of the
    /// "kubelet down" bars).
    pub kubelet_y: f64,
    pub kubelet_h: f64,
    /// Where the header's counters are, `[x, y, w, h]` in px (a tour step's question veils
    /// them: they would tell its answer).
    pub counters: Vec<[f64; 4]>,
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

impl Figure {
    /// Pixel x of a time (ms); linear, also outside the window.
    pub fn x_of(&self, t_ms: i64) -> f64 {
        geom::x_of(self.x0, self.x1, self.t0_ms, self.t1_ms, t_ms)
    }

    /// Time (ms, rounded) at pixel x; the inverse of [`Figure::x_of`].
    pub fn t_of(&self, x: f64) -> i64 {
        let span = (self.t1_ms - self.t0_ms).max(1) as f64;
        let w = (self.x1 - self.x0).max(1e-9);
        self.t0_ms + ((x - self.x0) / w * span).round() as i64
    }
}

impl Figure {
    /// The tooltip of the topmost titled shape at (`x`, `y`) (figure px), as a browser shows an
    /// SVG `<title>`: a rect by its box, a path by the box of its points, with `slop` px of
    /// tolerance around both (a probe mark is 7 px wide).
    pub fn title_at(&self, x: f64, y: f64, slop: f64) -> Option<&str> {
        self.shapes.iter().rev().find_map(|sh| {
            let (bx, t) = match sh {
                Shape::Rect {
                    x, y, w, h, title, ..
                } => ((*x, *y, x + w.max(0.0), y + h.max(0.0)), title.as_deref()?),
                Shape::Path { d, title, .. } => (path_box(d)?, title.as_deref()?),
                _ => return None,
            };
            (x >= bx.0 - slop && x <= bx.2 + slop && y >= bx.1 - slop && y <= bx.3 + slop)
                .then_some(t)
        })
    }
}

/// The box of a path's absolute points (`M`/`L` pairs); relative steps (`h`, `v`, `a`: the small
/// glyphs) stay within a few px of them.
fn path_box(d: &str) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut nums = Vec::new();
    let mut absolute = false;
    let mut flush = |nums: &mut Vec<f64>, absolute: bool| {
        if absolute {
            for p in nums.chunks_exact(2) {
                let (x, y) = (p[0], p[1]);
                b = Some(match b {
                    None => (x, y, x, y),
                    Some((a, c, e, f)) => (a.min(x), c.min(y), e.max(x), f.max(y)),
                });
            }
        }
        nums.clear();
    };
    let mut tok = String::new();
    for ch in d.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() || ch == '.' || (ch == '-' && tok.is_empty()) {
            tok.push(ch);
            continue;
        }
        if let Ok(v) = tok.parse::<f64>() {
            nums.push(v);
        }
        tok.clear();
        if ch == '-' {
            tok.push(ch);
        } else if ch.is_ascii_alphabetic() {
            flush(&mut nums, absolute);
            absolute = ch == 'M' || ch == 'L';
        }
    }
    flush(&mut nums, absolute);
    b
}
