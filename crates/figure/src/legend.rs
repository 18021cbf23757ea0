//! The legend under the axis, flowing left to right. Every swatch is drawn by the same glyph
//! function (and state → class mapping) as the lanes, so the legend cannot drift from them.

use crate::builder::Builder;
use crate::geom::{text_w, BADGE_W, PAD};
use crate::glyphs::{self, ProbeGlyph};
use restartscope_report::timeline::{ApiReady, EndpointState};
use restartscope_sim::{Actor, ConditionStatus, TaintEffect};

enum Swatch {
    /// A state box with its label inside.
    State(&'static str, &'static str),
    KubeletDown,
    /// Only in a figure that draws it (`kubelet.api_unreachable`).
    NoApi,
    /// A container runtime restart's window; a node reboot's strip (only where drawn).
    RuntimeDown,
    NodeDown,
    Taint(TaintEffect),
    Badge(Actor),
    Probe(ProbeGlyph),
    Grace,
    /// The observed lane (an incident's evidence): only in a figure that draws one.
    Observed,
}

fn items() -> [(Swatch, &'static str); 23] {
    use glyphs::{endpoint_class as ep, node_class, ready_class};
    [
        (
            Swatch::State(ready_class(ApiReady::True), "True"),
            "pod Ready",
        ),
        (
            Swatch::State(ready_class(ApiReady::False), "False"),
            "pod NotReady",
        ),
        (Swatch::Badge(Actor::Kubelet), "written by kubelet"),
        (
            Swatch::Badge(Actor::NodeLifecycleController),
            "by node lifecycle controller",
        ),
        (Swatch::Probe(ProbeGlyph::Success), "probe success"),
        (Swatch::Probe(ProbeGlyph::Failure), "probe failure"),
        (
            Swatch::Probe(ProbeGlyph::InitialFailure),
            "initial Failure written (P1)",
        ),
        (
            Swatch::Probe(ProbeGlyph::InitialSkipped),
            "initial Failure skipped (KEP)",
        ),
        (
            Swatch::State(ep(EndpointState::Ready), ""),
            "endpoint ready",
        ),
        (Swatch::State(ep(EndpointState::NotReady), ""), "not ready"),
        (
            Swatch::State(ep(EndpointState::ServingTerminating), ""),
            "serving, terminating",
        ),
        (
            Swatch::State(ep(EndpointState::Terminating), ""),
            "terminating",
        ),
        (
            Swatch::State(node_class(ConditionStatus::Unknown), ""),
            "node Unknown",
        ),
        (
            Swatch::State(node_class(ConditionStatus::False), ""),
            "node False (posted by the kubelet)",
        ),
        (Swatch::Taint(TaintEffect::NoSchedule), "NoSchedule taint"),
        (Swatch::Taint(TaintEffect::NoExecute), "NoExecute taint"),
        (Swatch::Grace, "grace period"),
        (Swatch::KubeletDown, "kubelet down"),
        (Swatch::RuntimeDown, "container runtime down"),
        (Swatch::NodeDown, "node down (reboot)"),
        (Swatch::NoApi, "API server unreachable"),
        (
            Swatch::Observed,
            "observed Ready, from the evidence (line up: True, down: False)",
        ),
        (Swatch::State("rs-obs-unknown", ""), "not observed"),
    ]
}

/// The class an item's swatch is drawn with (what the lanes draw for it).
fn class_of(sw: &Swatch) -> Option<&'static str> {
    match sw {
        Swatch::State(class, _) => Some(class),
        Swatch::KubeletDown => Some("rs-down"),
        Swatch::NoApi => Some("rs-noapi"),
        Swatch::RuntimeDown => Some("rs-rtdown"),
        Swatch::NodeDown => Some("rs-nodedown"),
        Swatch::Taint(TaintEffect::NoSchedule) => Some("rs-taint-ns"),
        Swatch::Taint(_) => Some("rs-taint-ne"),
        Swatch::Badge(Actor::Kubelet) => Some("rs-badge-k"),
        Swatch::Badge(_) => Some("rs-badge-n"),
        Swatch::Observed => Some("rs-obs-line"),
        Swatch::Probe(g) => Some(glyphs::probe_class(*g)),
        Swatch::Grace => Some("rs-grace"),
    }
}

/// The legend from `y0`, wrapping at the figure's right edge; returns the bottom. It lists only
/// what the lanes drew (a reader looks for each swatch in the figure; a legend of states that
/// never happen hides the ones that do); `compact` also leaves out the probe marks and the
/// lease's grace line, which the compact layout does not draw.
pub fn draw(b: &mut Builder, y0: f64, width: f64, compact: bool) -> f64 {
    let drawn: std::collections::HashSet<&'static str> = b
        .under
        .iter()
        .chain(&b.over)
        .filter_map(|s| match s {
            crate::figure::Shape::Rect { class, .. }
            | crate::figure::Shape::Path { class, .. }
            | crate::figure::Shape::Line { class, .. } => Some(*class),
            _ => None,
        })
        .collect();
    let left = PAD + 4.0;
    let right = width - PAD;
    let mut x = left;
    let mut y = y0;
    // The taints' keys when one is `not-ready` (else they are all `unreachable`, as the
    // tooltips say, and the entries keep their short words).
    let keys = if b.taint_keys.contains(&"not-ready") {
        format!(" ({})", b.taint_keys.join(", "))
    } else {
        String::new()
    };
    b.text(left, y + 8.0, "Legend", "rs-label-pod", "start");
    x += text_w("Legend", 11.0) + 12.0;
    for (sw, label) in items() {
        if compact && matches!(sw, Swatch::Probe(_) | Swatch::Grace) {
            continue;
        }
        if class_of(&sw).is_some_and(|c| !drawn.contains(c)) {
            continue;
        }
        let label = match sw {
            Swatch::Taint(_) => format!("{label}{keys}"),
            _ => label.to_string(),
        };
        let label = label.as_str();
        let sw_w = match sw {
            Swatch::State(_, t) if !t.is_empty() => text_w(t, 9.5) + 8.0,
            Swatch::State(..)
            | Swatch::KubeletDown
            | Swatch::NoApi
            | Swatch::RuntimeDown
            | Swatch::NodeDown
            | Swatch::Taint(_)
            | Swatch::Grace => 18.0,
            Swatch::Observed => 30.0,
            Swatch::Badge(_) => BADGE_W,
            Swatch::Probe(_) => 8.0,
        };
        let item_w = sw_w + 4.0 + text_w(label, 10.0) + 12.0;
        if x + item_w > right && x > left {
            x = left;
            y += 16.0;
        }
        let area = (x, y, sw_w, 11.0);
        match sw {
            Swatch::State(class, t) => glyphs::state(b, area, class, t, None),
            Swatch::KubeletDown => glyphs::kubelet(b, area, false, None),
            Swatch::NoApi => b.rect(area.0, area.1, area.2, area.3, "rs-noapi", None),
            Swatch::RuntimeDown => glyphs::runtime_down(b, area, None),
            Swatch::NodeDown => {
                glyphs::kubelet(b, area, false, None);
                glyphs::node_down(b, area, None);
            }
            Swatch::Taint(effect) => glyphs::taint(b, area, effect, "unreachable", None),
            Swatch::Badge(writer) => glyphs::badge(b, x + BADGE_W / 2.0, y, writer, None),
            Swatch::Probe(g) => glyphs::probe(b, g, x + 4.0, y + 5.5, None),
            Swatch::Grace => glyphs::grace(b, x, x + sw_w, y + 5.5),
            Swatch::Observed => glyphs::observed_sample(b, area),
        }
        b.text(x + sw_w + 4.0, y + 9.0, label, "rs-legend", "start");
        x += item_w;
    }
    y + 14.0
}
