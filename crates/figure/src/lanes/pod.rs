//! Per-pod lanes: API PodReady with a badge per write (who wrote it), the probe marks, the
//! endpoint in the pod's Service, and the eviction countdown.

use super::Group;
use crate::builder::Builder;
use crate::figure::{ObservedPod, ObservedStep};
use crate::geom::{secs, text_w, ts, x_of, BADGE_ROW, BADGE_W, EVICT_H, PROBE_H};
use crate::glyphs::{self, ProbeGlyph};
use crate::svg::n;
use restartscope_report::describe;
use restartscope_report::timeline::{ApiReady, CountdownEnd, MarkKind};
use restartscope_sim::{fmt_secs, Actor, Kind, Ms};

/// Whether a write of the pod's Ready condition falls in the window (its lane needs the badge row).
pub fn has_writes(b: &Builder, g: &Group, p: usize) -> bool {
    g.tl.pods[p]
        .writes
        .iter()
        .any(|w| w.t >= b.t0 && w.t <= g.end)
}

/// The pod's name, its API Ready condition (`h` high) from `y + badge_row`, and above it a
/// badge per write naming the writer (pushed right where writes crowd, with a leader line).
/// `badge_row` is `BADGE_ROW`, or 0 when no write falls in the window.
pub fn ready(b: &mut Builder, g: &Group, p: usize, y: f64, badge_row: f64, h: f64) {
    let (info, pt) = (&g.tr.pods[p], &g.tl.pods[p]);
    let name = &info.name;
    let badge_y = y;
    let band_y = y + badge_row;
    b.lane_label(band_y + h / 2.0, name, "rs-label-pod");
    let why = |a| -> String {
        pt.writer_at(a)
            .map(|w| {
                format!(
                    ", written by the {} ({}: {})",
                    w.by.as_str(),
                    w.rule.id(),
                    w.rule.title()
                )
            })
            .unwrap_or_default()
    };
    // A pod the kubelet's admission turned away at its start (A1): its False says so, and Failed
    // once the status manager has written the phase (A2).
    let of = |kind| (g.tr.events.iter()).find(|e| e.kind == kind && e.pod == Some(p as u16));
    let rejected = of(Kind::PodRejected).map(|e| (e.t, e.value.text()));
    let failed = of(Kind::PodFailed).map(|e| e.t);
    let (x0, x1, t0, t1) = (b.x0, b.x1, b.t0, b.t1);
    let width = |a, z| x_of(x0, x1, t0, t1, z) - x_of(x0, x1, t0, t1, a);
    let segs = pt.ready.spans(b.t0, g.end);
    let tips = b.tooltips;
    glyphs::band(b, &segs, band_y, h, |v, a, z| {
        let class = glyphs::ready_class(*v);
        match v {
            ApiReady::True | ApiReady::False => {
                let s = if *v == ApiReady::True {
                    "True"
                } else {
                    "False"
                };
                let mut title = if tips {
                    format!(
                        "{name} Ready={s} {}–{} ({}){}",
                        ts(a),
                        ts(z),
                        ts(z - a),
                        why(a)
                    )
                } else {
                    String::new()
                };
                let mut label = s.to_string();
                if let Some((at, message)) = rejected.as_ref().filter(|r| r.0 == a) {
                    let then = failed
                        .map(|f| format!("; phase Failed at {}", ts(f)))
                        .unwrap_or_default();
                    if tips {
                        title = format!(
                            "{title}. Rejected at the kubelet's start ({}): {message}{then}",
                            ts(*at)
                        );
                    }
                    let long = if failed.is_some() {
                        "False: rejected at kubelet start, Failed"
                    } else {
                        "False: rejected at kubelet start"
                    };
                    let w = width(a, z);
                    // Room to spare: the page's canvas draws with the browser's font, a little
                    // wider than `text_w`'s estimate, and the write's badge sits at the start.
                    if let Some(l) = [long, "False: rejected", "rejected"]
                        .into_iter()
                        .find(|l| text_w(l, 9.5) + 48.0 <= w)
                    {
                        label = l.to_string();
                    }
                }
                (class, label, title)
            }
            ApiReady::Removed => (
                class,
                "removed".into(),
                if tips {
                    format!("{name} removed from the API server at {}", ts(a))
                } else {
                    String::new()
                },
            ),
        }
    });
    let mut last_right = f64::NEG_INFINITY;
    let t0 = b.t0;
    for w in pt.writes.iter().filter(|w| w.t >= t0 && w.t <= g.end) {
        let x = b.x(w.t);
        let bx = x.max(last_right + BADGE_W / 2.0 + 1.0);
        last_right = bx + BADGE_W / 2.0;
        let value = if w.ready { "True" } else { "False" };
        let title = b.tip(|| {
            format!(
                "{}: {name} Ready={value} written by the {} — {}: {}",
                ts(w.t),
                w.by.as_str(),
                w.rule.id(),
                w.rule.title()
            )
        });
        if (bx - x).abs() > 0.5 {
            b.line(x, band_y, bx, badge_y + BADGE_ROW - 1.0, "rs-leader");
        }
        glyphs::badge(b, bx, badge_y, w.by, title);
    }
}

/// Every probe execution (tick or cross, with the count toward failureThreshold where there is
/// room) and the initial results written (P1) or skipped (P1k).
pub fn probes(b: &mut Builder, g: &Group, p: usize, y: f64) {
    b.lane_label(y + PROBE_H / 2.0, "probes", "rs-label");
    let yc = y + PROBE_H / 2.0;
    let t0 = b.t0;
    let marks: Vec<_> = g.tl.pods[p]
        .probes
        .iter()
        .filter(|m| m.t >= t0 && m.t <= g.end)
        .collect();
    // x of every probe execution in this lane, to keep counters from overlapping ticks.
    let probe_xs: Vec<f64> = marks
        .iter()
        .filter(|m| m.kind == MarkKind::Executed)
        .map(|m| b.x(m.t))
        .collect();
    let mut label_end = f64::NEG_INFINITY;
    for m in marks {
        let Some(glyph) = ProbeGlyph::of(m) else {
            continue;
        };
        let x = b.x(m.t);
        let title = b.tip(|| format!("{}: {}", ts(m.t), describe(g.tr, &g.tr.events[m.event])));
        if glyph == ProbeGlyph::Failure {
            // The failure count toward failureThreshold, where one failure is not enough and
            // there is room before the next tick.
            let pv = m.value;
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
        }
        glyphs::probe(b, glyph, x, yc, title);
    }
}

/// The pod's endpoint in its Services (ready, not ready, serving while terminating, …: the same
/// conditions in each Service's slices); the lane stays empty for a pod without a Service. `strip`: a thin unlabelled strip (`h` high)
/// under the Ready band, states told by the legend and the tooltips.
pub fn endpoint(b: &mut Builder, g: &Group, p: usize, y: f64, h: f64, strip: bool) {
    if !strip {
        b.lane_label(y + h / 2.0, "endpoint", "rs-label");
    }
    let (info, pt) = (&g.tr.pods[p], &g.tl.pods[p]);
    let Some(ep) = &pt.endpoint else {
        return;
    };
    let svc = match info.services.as_slice() {
        [] => return,
        [one] => format!("Service {one}"),
        many => format!("Services {}", many.join(", ")),
    };
    let name = &info.name;
    let segs = ep.spans(b.t0, g.end);
    let tips = b.tooltips;
    glyphs::band(b, &segs, y, h, |v, a, z| {
        (
            glyphs::endpoint_class(*v),
            if strip {
                String::new()
            } else {
                v.label().to_string()
            },
            if tips {
                format!(
                    "endpoint of {name} in {svc}: {} {}–{}",
                    v.label(),
                    ts(a),
                    ts(z)
                )
            } else {
                String::new()
            },
        )
    });
}

/// Each eviction countdown: the toleration window, the part elapsed, and how it ended
/// (evicted, cancelled).
pub fn eviction(b: &mut Builder, g: &Group, p: usize, y: f64) {
    b.lane_label(y + EVICT_H / 2.0, "eviction", "rs-label");
    let (t0, t1) = (b.t0, g.end);
    for c in &g.tl.pods[p].countdowns {
        let (start, due) = (c.scheduled, c.due);
        let stop = c.end.map_or(due, |e| e.0).min(due.max(start));
        let (a, z) = (start.max(t0), due.min(t1));
        if z > a {
            let (xa, xz) = (b.x(a), b.x(z));
            let title = format!(
                "eviction scheduled at {} for {} (toleration {})",
                ts(start),
                ts(due),
                ts(due - start)
            );
            b.rect(
                xa,
                y + 1.0,
                xz - xa,
                EVICT_H - 2.0,
                "rs-evict-window",
                Some(title.clone()),
            );
            let xe = b.x(stop.min(t1).max(a));
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
            let room = match c.end {
                Some((t, _)) if t >= t0 && t <= t1 => b.x(t).min(xz) - xa,
                _ => xz - xa,
            };
            let left = fmt_secs(secs(due - start));
            let long = format!("evict after {left}");
            let label = [long, left]
                .into_iter()
                .find(|l| text_w(l, 9.5) + 6.0 <= room);
            if let (true, Some(label)) = (start >= t0, label) {
                b.text(xa + 3.0, y + EVICT_H / 2.0 + 3.3, label, "rs-in", "start");
            }
        }
        if let Some((t, how)) = c.end {
            if t >= t0 && t <= t1 {
                let x = b.x(t);
                let (class, label) = match how {
                    CountdownEnd::Evicted => ("rs-evict-mark", "evicted"),
                    CountdownEnd::Cancelled => ("rs-evict-cancel", "cancelled"),
                    CountdownEnd::Rescheduled => continue,
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

/// The pod's Ready as the evidence shows it (`restartscope replay`), `h` high from `y`, up to `end`: an
/// outlined box per observed state with a step line over it (high: True, low: False), the state
/// and its writer written at the start of each state where they fit (the tooltip always has
/// them), and dashed "not observed" boxes before the first and after the last observation.
pub fn observed(b: &mut Builder, o: &ObservedPod, end: Ms, y: f64, h: f64) {
    let name = &o.pod;
    let (t0, end) = (b.t0, end.max(b.t0));
    let mut steps: Vec<&ObservedStep> = o.steps.iter().collect();
    steps.sort_by_key(|s| s.t_ms);
    // (from, to, value, writer, first seen)
    let mut spans: Vec<(Ms, Ms, Option<bool>, &str, bool)> = Vec::new();
    if o.first_ms > t0 {
        spans.push((t0, o.first_ms, None, "", false));
    }
    for (i, s) in steps.iter().enumerate() {
        let a = s.t_ms.max(o.first_ms);
        let z = steps
            .get(i + 1)
            .map_or(o.last_ms, |n| n.t_ms)
            .min(o.last_ms);
        if z > a || (z == a && i + 1 == steps.len()) {
            spans.push((a, z.max(a), s.ready, &s.by, i == 0));
        }
    }
    if o.last_ms < end {
        spans.push((o.last_ms.max(t0), end, None, "", false));
    }
    // The last observed state at least 6 px wide, so that a change on the last line shows
    // (a watch ends at its last row: the state after it is not observed).
    let min_ms = ((6.0 / (b.x(t0 + 1000) - b.x(t0)).max(1e-6)) * 1000.0) as Ms;
    if let Some(k) = spans.iter().rposition(|s| s.2.is_some()) {
        if spans[k].1 - spans[k].0 < min_ms {
            let z = spans[k].0 + min_ms;
            spans[k].1 = z;
            if let Some(next) = spans.get_mut(k + 1) {
                next.0 = z.min(next.1);
            }
        }
    }
    let mut d = String::new();
    let mut prev: Option<(f64, f64)> = None;
    for (a, z, v, by, first) in spans {
        let (a, z) = (a.max(t0), z.min(end));
        if z < a {
            continue;
        }
        let (xa, xz) = (b.x(a), b.x(z));
        let w = (xz - xa).max(0.6);
        let when = format!("{}–{} ({})", ts(a), ts(z), ts(z - a));
        match v {
            None => {
                let side = if a < o.first_ms.max(t0 + 1) {
                    "before the evidence's first observation"
                } else {
                    "after the evidence's last observation"
                };
                let title = format!("{name}: Ready not observed {when}, {side}");
                b.rect(xa, y, w, h, "rs-obs-unknown", Some(title));
                // Under another pod's lane (the model has none of this name): say whose it is.
                let long = match &o.under {
                    Some(_) if a <= t0 => format!("{name} · not observed"),
                    _ => String::new(),
                };
                let label = [long.as_str(), "not observed"]
                    .into_iter()
                    .find(|l| !l.is_empty() && text_w(l, 9.0) + 6.0 <= w);
                if let Some(l) = label {
                    b.text(xa + 3.0, y + h / 2.0 + 3.2, l, "rs-small", "start");
                }
                prev = None;
            }
            Some(r) => {
                let value = if r { "True" } else { "False" };
                let writer = if first {
                    " (first seen)".to_string()
                } else if by.is_empty() {
                    " (the source does not say who wrote it)".to_string()
                } else {
                    format!(", written by {by}")
                };
                let title = format!("{name} observed Ready={value} {when}{writer}");
                let class = if r { "rs-obs-true" } else { "rs-obs-false" };
                b.rect(xa, y, w, h, class, Some(title));
                let ly = if r { y + 2.5 } else { y + h - 2.5 };
                match prev {
                    Some((px, py)) if (px - xa).abs() < 0.5 => {
                        d.push_str(&format!(" L{} {}", n(xa), n(py)));
                        d.push_str(&format!(" L{} {}", n(xa), n(ly)));
                    }
                    _ => d.push_str(&format!(" M{} {}", n(xa), n(ly))),
                }
                d.push_str(&format!(" L{} {}", n(xa + w), n(ly)));
                prev = Some((xa + w, ly));
                let long = if by.is_empty() || first {
                    String::new()
                } else {
                    format!("{value} · by {by}")
                };
                let label = [long, value.to_string()]
                    .into_iter()
                    .find(|l| !l.is_empty() && text_w(l, 9.5) + 6.0 <= w);
                if let Some(l) = label {
                    b.text(xa + 3.0, y + h / 2.0 + 3.3, l, "rs-in", "start");
                }
            }
        }
    }
    if !d.is_empty() {
        b.path(d.trim_start().to_string(), "rs-obs-line", None);
    }
}

/// Whether an observed step with a known writer falls in the window (its lane gets a badge row).
pub fn has_observed_writers(b: &Builder, o: &ObservedPod, end: Ms) -> bool {
    o.steps
        .iter()
        .any(|s| !s.by.is_empty() && s.t_ms >= b.t0 && s.t_ms <= end)
}

/// The model's actor a source's writer names: `system:node:…` is the kubelet, the node
/// controller's service account the node lifecycle controller; anyone else "?".
fn observed_actor(by: &str) -> Actor {
    if by.starts_with("system:node:") || by == "kubelet" {
        Actor::Kubelet
    } else if by.contains("node-controller") || by.contains("node lifecycle") {
        Actor::NodeLifecycleController
    } else {
        Actor::Scenario
    }
}

/// A badge per observed write with a known writer, as the modelled lane's (K: the kubelet,
/// N: the node lifecycle controller, ?: another writer), from `y`; pushed right where they
/// crowd, with a leader line.
pub fn observed_badges(b: &mut Builder, o: &ObservedPod, end: Ms, y: f64) {
    let mut last_right = f64::NEG_INFINITY;
    let mut steps: Vec<&ObservedStep> = o
        .steps
        .iter()
        .filter(|s| !s.by.is_empty() && s.t_ms >= b.t0 && s.t_ms <= end)
        .collect();
    steps.sort_by_key(|s| s.t_ms);
    for s in steps {
        let x = b.x(s.t_ms);
        let bx = x.max(last_right + BADGE_W / 2.0 + 1.0);
        last_right = bx + BADGE_W / 2.0;
        let value = match s.ready {
            Some(true) => "True",
            Some(false) => "False",
            None => "unknown",
        };
        let title = format!(
            "{}: {} Ready={value} written by {} (observed)",
            ts(s.t_ms),
            o.pod,
            s.by
        );
        if (bx - x).abs() > 0.5 {
            b.line(x, y + BADGE_ROW, bx, y + BADGE_ROW - 1.0, "rs-leader");
        }
        glyphs::badge(b, bx, y, observed_actor(&s.by), Some(title));
    }
}
