//! Every mark the figure draws, each in one function that both the lanes and the legend call:
//! state rectangles (with their label inside when it fits) and the class of each state, writer
//! badges, probe marks, the grace-period line. Changing a glyph here changes it everywhere.

use crate::builder::Builder;
use crate::geom::{text_w, BADGE_ROW, BADGE_W};
use crate::svg::{n, push_n};
use restartscope_report::timeline::{ApiReady, EndpointState, MarkKind, ProbeMark};
use restartscope_sim::{Actor, ConditionStatus, Ms, Outcome, Rule, TaintEffect};

/// A box in figure coordinates: x, y, width, height.
pub type Area = (f64, f64, f64, f64);

pub fn ready_class(v: ApiReady) -> &'static str {
    match v {
        ApiReady::True => "rs-ready-true",
        ApiReady::False => "rs-ready-false",
        ApiReady::Removed => "rs-removed",
    }
}

pub fn endpoint_class(v: EndpointState) -> &'static str {
    match v {
        EndpointState::Ready => "rs-ep-ready",
        EndpointState::NotReady => "rs-ep-notready",
        EndpointState::ServingTerminating => "rs-ep-serving",
        EndpointState::Terminating => "rs-ep-terminating",
        EndpointState::Removed => "rs-removed",
    }
}

/// Node Ready: True; False (posted by the kubelet: its container runtime is down); Unknown (set
/// by the node lifecycle controller: nothing heard from the kubelet).
pub fn node_class(v: ConditionStatus) -> &'static str {
    match v {
        ConditionStatus::True => "rs-node-true",
        ConditionStatus::False => "rs-node-false",
        ConditionStatus::Unknown => "rs-node-unknown",
    }
}

/// The kubelet lane: a thin bar while up, a full-height hatched box while down.
pub fn kubelet(b: &mut Builder, (x, y, w, h): Area, up: bool, title: Option<String>) {
    let class = if up { "rs-up" } else { "rs-down" };
    b.rect(x, y, w, h, class, title);
}

/// A box of one state with `label` centred inside when it fits.
pub fn state(
    b: &mut Builder,
    (x, y, w, h): Area,
    class: &'static str,
    label: &str,
    title: Option<String>,
) {
    b.rect(x, y, w, h, class, title);
    if !label.is_empty() && text_w(label, 9.5) + 6.0 <= w {
        b.text(x + w / 2.0, y + h / 2.0 + 3.3, label, "rs-in", "middle");
    }
}

/// A band of state boxes over time: `style` gives (class, label, tooltip) for a value.
pub fn band<T>(
    b: &mut Builder,
    segs: &[(Ms, Ms, T)],
    y: f64,
    h: f64,
    style: impl Fn(&T, Ms, Ms) -> (&'static str, String, String),
) {
    // A state shorter than MIN_STATE_W (a 1 s flap in a two-minute window is 3–5 px) is drawn
    // MIN_STATE_W wide, centred on its span and over its neighbours (drawn after them), so it
    // stays visible in an exported figure without the text around it; its tooltip keeps its
    // real times.
    let mut short = Vec::new();
    for (i, (a, z, v)) in segs.iter().enumerate() {
        let (xa, xz) = (b.x(*a), b.x(*z));
        if xz - xa < MIN_STATE_W && segs.len() > 1 {
            short.push(i);
            continue;
        }
        let (class, label, title) = style(v, *a, *z);
        state(
            b,
            (xa, y, (xz - xa).max(0.6), h),
            class,
            &label,
            (!title.is_empty()).then_some(title),
        );
    }
    let (lo, hi) = match (segs.first(), segs.last()) {
        (Some(f), Some(l)) => (b.x(f.0), b.x(l.1)),
        _ => return,
    };
    for i in short {
        let (a, z, v) = &segs[i];
        let (class, _, title) = style(v, *a, *z);
        let mid = (b.x(*a) + b.x(*z)) / 2.0;
        let x = (mid - MIN_STATE_W / 2.0).clamp(lo, (hi - MIN_STATE_W).max(lo));
        state(
            b,
            (x, y, MIN_STATE_W, h),
            class,
            "",
            (!title.is_empty()).then_some(title),
        );
    }
}

/// The narrowest a state is drawn (px).
pub const MIN_STATE_W: f64 = 4.0;

/// A taint: its effect written at the left when it fits, after its key when that is
/// `not-ready` and fits too (`unreachable`, the kubelet's silence, is the figure's usual one).
pub fn taint(
    b: &mut Builder,
    (x, y, w, h): Area,
    effect: TaintEffect,
    key: &'static str,
    title: Option<String>,
) {
    let class = match effect {
        TaintEffect::NoSchedule => "rs-taint-ns",
        TaintEffect::NoExecute => "rs-taint-ne",
    };
    b.rect(x, y, w, h, class, title);
    if !b.taint_keys.contains(&key) {
        b.taint_keys.push(key);
    }
    let keyed = format!("{key}:{}", effect.as_str());
    let label = if key != "unreachable" && text_w(&keyed, 8.5) + 6.0 <= w {
        keyed.as_str()
    } else {
        effect.as_str()
    };
    if text_w(label, 8.5) + 6.0 <= w {
        b.text(x + 3.0, y + h - 2.1, label, "rs-in-sm", "start");
    }
}

/// A container runtime restart's window on the kubelet lane (the kubelet keeps running).
pub fn runtime_down(b: &mut Builder, (x, y, w, h): Area, title: Option<String>) {
    b.rect(x, y, w, h, "rs-rtdown", title);
}

/// A node reboot: a strip along the top of the kubelet lane, over the kubelet's down bar.
pub fn node_down(b: &mut Builder, (x, y, w, _): Area, title: Option<String>) {
    b.rect(x, y, w, 3.0, "rs-nodedown", title);
}

/// Who wrote a pod's Ready condition: a lettered badge centred on `cx`, top at `y`.
pub fn badge(b: &mut Builder, cx: f64, y: f64, writer: Actor, title: Option<String>) {
    let (letter, class, tclass) = match writer {
        Actor::Kubelet => ("K", "rs-badge-k", "rs-badge-text-k"),
        Actor::NodeLifecycleController => ("N", "rs-badge-n", "rs-badge-text"),
        Actor::TaintEvictionController => ("E", "rs-badge-n", "rs-badge-text"),
        Actor::EndpointsliceController => ("S", "rs-badge-n", "rs-badge-text"),
        Actor::Runtime => ("R", "rs-badge-n", "rs-badge-text"),
        Actor::Scenario => ("?", "rs-badge-n", "rs-badge-text"),
    };
    b.rect(
        cx - BADGE_W / 2.0,
        y,
        BADGE_W,
        BADGE_ROW - 1.0,
        class,
        title,
    );
    b.text(cx, y + BADGE_ROW - 3.3, letter, tclass, "middle");
}

/// The probe marks: a tick, a cross, a square (initial Failure written, P1), a circle (initial
/// value skipped, P1k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeGlyph {
    Success,
    Failure,
    InitialFailure,
    InitialSkipped,
}

impl ProbeGlyph {
    /// The glyph of a probe mark, if it is drawn.
    pub fn of(m: &ProbeMark) -> Option<ProbeGlyph> {
        match m.kind {
            MarkKind::Executed if m.value.result == Outcome::Success => Some(ProbeGlyph::Success),
            // An exec probe whose error was thrown away while the runtime was down (R2): no
            // result, so no mark (the event log names it).
            MarkKind::Executed if m.value.result == Outcome::Unknown => None,
            MarkKind::Executed => Some(ProbeGlyph::Failure),
            MarkKind::Cached if m.rule == Rule::P1 && m.value.result == Outcome::Failure => {
                Some(ProbeGlyph::InitialFailure)
            }
            MarkKind::InitialSkipped => Some(ProbeGlyph::InitialSkipped),
            MarkKind::Cached => None,
        }
    }
}

/// A probe mark centred on (`x`, `yc`).
pub fn probe(b: &mut Builder, g: ProbeGlyph, x: f64, yc: f64, title: Option<String>) {
    let (d, class) = match g {
        ProbeGlyph::Success => (
            path_d(&[
                ('M', x - 3.0, yc),
                ('L', x - 1.0, yc + 3.0),
                ('L', x + 3.0, yc - 3.5),
            ]),
            "rs-probe-ok",
        ),
        ProbeGlyph::Failure => (
            path_d(&[
                ('M', x - 3.0, yc - 3.0),
                ('L', x + 3.0, yc + 3.0),
                ('M', x - 3.0, yc + 3.0),
                ('L', x + 3.0, yc - 3.0),
            ]),
            "rs-probe-fail",
        ),
        ProbeGlyph::InitialFailure => {
            let mut d = path_d(&[('M', x - 3.0, yc - 3.0)]);
            d.push_str("h6v6h-6z");
            (d, "rs-probe-seed")
        }
        ProbeGlyph::InitialSkipped => (circle(x, yc, 3.0), "rs-probe-kept"),
    };
    debug_assert_eq!(class, probe_class(g));
    b.path(d, class, title);
}

/// The class a probe mark is drawn with (the legend shows a mark only when the lanes drew one).
pub fn probe_class(g: ProbeGlyph) -> &'static str {
    match g {
        ProbeGlyph::Success => "rs-probe-ok",
        ProbeGlyph::Failure => "rs-probe-fail",
        ProbeGlyph::InitialFailure => "rs-probe-seed",
        ProbeGlyph::InitialSkipped => "rs-probe-kept",
    }
}

/// A path's `d` from its commands and their points (`M3 4L5 6`): a probe mark is drawn per
/// probe run on every slider move, so its points are written straight into one string.
fn path_d(cmds: &[(char, f64, f64)]) -> String {
    let mut d = String::with_capacity(cmds.len() * 10);
    for &(c, x, y) in cmds {
        d.push(c);
        push_n(&mut d, x);
        d.push(' ');
        push_n(&mut d, y);
    }
    d
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

/// The dashed node-monitor grace period line from `xa` to `xb` at `y`.
pub fn grace(b: &mut Builder, xa: f64, xb: f64, y: f64) {
    b.line(xa, y, xb, y, "rs-grace");
}

/// The observed lane in small, for the legend: True then False, outlined, with the step line.
pub fn observed_sample(b: &mut Builder, (x, y, w, h): Area) {
    let half = w / 2.0;
    b.rect(x, y, half, h, "rs-obs-true", None);
    b.rect(x + half, y, half, h, "rs-obs-false", None);
    b.path(
        format!(
            "M{} {} L{} {} L{} {} L{} {}",
            n(x),
            n(y + 2.0),
            n(x + half),
            n(y + 2.0),
            n(x + half),
            n(y + h - 2.0),
            n(x + w),
            n(y + h - 2.0)
        ),
        "rs-obs-line",
        None,
    );
}
