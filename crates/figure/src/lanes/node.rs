//! Node-level lanes: kubelet up/down (with each outage's length; a container runtime restart's
//! window, a node reboot and an in-place upgrade on the same lane), the node lease's age against
//! the grace period, the node's Ready condition (False posted by the kubelet, Unknown by the node
//! lifecycle controller) and the taints, each named by its key (`not-ready`, `unreachable`).

use super::Group;
use crate::builder::Builder;
use crate::geom::{secs, text_w, ts, LEASE_H};
use crate::glyphs;
use crate::svg::n;
use restartscope_report::describe::taint_key;
use restartscope_report::timeline::TAINTS;
use restartscope_sim::{fmt_secs, Kind, Ms, RestartKind, TaintEffect, Trace, Value};

/// Kubelet up (thin bar) or down (hatched), each outage labelled with its length; behind it,
/// the windows in which the node cannot reach the API server (`kubelet.api_unreachable`, K2u)
/// and the container runtime's restarts ("runtime down": the kubelet keeps running); a node
/// reboot as a strip over its outage ("node down"); an upgrade's release at the kubelet's start.
pub fn kubelet(b: &mut Builder, g: &Group, y: f64, h: f64) {
    b.lane_label(y + h / 2.0, "kubelet", "rs-label");
    let cut: Vec<(Ms, Ms)> =
        g.tl.api_up
            .spans(b.t0, g.end)
            .into_iter()
            .filter(|s| !s.2)
            .map(|s| (s.0, s.1))
            .collect();
    for &(a, z) in &cut {
        let (xa, xz) = (b.x(a), b.x(z));
        let title = format!(
            "API server unreachable from the node {}–{} ({}): lease renewals and status writes fail",
            ts(a),
            ts(z),
            ts(z - a)
        );
        b.rect(xa, y, (xz - xa).max(0.6), h, "rs-noapi", Some(title));
    }
    let runtime = clipped(b, &g.tr.runtime_down, g.end);
    for &(a, z, stop, start) in &runtime {
        let (xa, xz) = (b.x(a), b.x(z));
        let title = format!(
            "{} {}–{} ({}): container runtime down, the kubelet keeps running",
            RestartKind::Runtime.label(),
            ts(stop),
            ts(start),
            ts(start - stop)
        );
        glyphs::runtime_down(b, (xa, y, (xz - xa).max(0.6), h), Some(title));
    }
    for (a, z, up) in g.tl.kubelet_up.spans(b.t0, g.end) {
        let (xa, xz) = (b.x(a), b.x(z));
        let w = (xz - xa).max(0.6);
        if up {
            let title = format!("kubelet up {}–{}", ts(a), ts(z));
            let bar = (h - 8.0).max(4.0);
            glyphs::kubelet(b, (xa, y + (h - bar) / 2.0, w, bar), true, Some(title));
        } else {
            let title = format!("kubelet down {}–{} ({})", ts(a), ts(z), ts(z - a));
            glyphs::kubelet(b, (xa, y, w, h), false, Some(title));
        }
    }
    let reboots = clipped(b, &g.tr.reboots, g.end);
    for &(a, z, stop, start) in &reboots {
        let (xa, xz) = (b.x(a), b.x(z));
        let title = format!(
            "{} {}–{} ({}): node down, every container stops",
            RestartKind::Node.label(),
            ts(stop),
            ts(start),
            ts(start - stop)
        );
        glyphs::node_down(b, (xa, y, (xz - xa).max(0.6), h), Some(title));
    }
    // Label each whole outage (not its clipped part) in the gap.
    for (stop, start) in g.tl.outages() {
        let node = reboots.iter().any(|r| r.2 < start && stop < r.3);
        down_label(
            b,
            stop,
            start,
            y,
            h,
            if node { "node down" } else { "down" },
        );
    }
    for &(_, _, stop, start) in &runtime {
        let (a, z) = (stop.max(b.t0), start.min(b.t1));
        let w = b.x(z) - b.x(a);
        if let Some(s) = ["runtime down", "runtime"]
            .into_iter()
            .find(|s| text_w(s, 9.5) + 6.0 <= w)
        {
            b.text(b.x(a) + 3.0, y + h - 2.0, s, "rs-in", "start");
        }
    }
    for (t, release) in &g.tr.upgrades {
        if *t >= b.t0 && *t < b.t1.min(g.end) {
            let label = format!("kubelet → {release}");
            b.text(b.x(*t) + 3.0, y + h - 2.0, label, "rs-in", "start");
        }
    }
    for (a, z) in cut {
        let (xa, xz) = (b.x(a), b.x(z));
        let w = xz - xa;
        if let Some(s) = ["API unreachable", "no API"]
            .into_iter()
            .find(|s| text_w(s, 9.5) + 6.0 <= w)
        {
            b.text(xa + 3.0, y + h - 2.0, s, "rs-in", "start");
        }
    }
}

/// The windows `(stop, start)` within the figure's time and `end`: `(a, z, stop, start)`.
fn clipped(b: &Builder, spans: &[(Ms, Ms)], end: Ms) -> Vec<(Ms, Ms, Ms, Ms)> {
    spans
        .iter()
        .map(|&(stop, start)| (stop.max(b.t0), start.min(end).min(b.t1), stop, start))
        .filter(|s| s.1 > s.0)
        .collect()
}

/// "down 20s" ("node down 20s" for a reboot) in an outage's gap, shorter when it does not fit.
fn down_label(b: &mut Builder, stop: Ms, start: Ms, y: f64, h: f64, word: &str) {
    let (a, z) = (stop.max(b.t0), start.min(b.t1));
    if z <= a {
        return;
    }
    let (xa, xz) = (b.x(a), b.x(z));
    let w = xz - xa;
    let long = format!("{word} {}", fmt_secs(secs(start - stop)));
    let s = if text_w(&long, 9.5) + 6.0 <= w {
        long
    } else if text_w(word, 9.5) + 4.0 <= w {
        word.to_string()
    } else if text_w("down", 9.5) + 4.0 <= w {
        "down".to_string()
    } else {
        return;
    };
    b.text(xa + w / 2.0, y + h / 2.0 + 3.3, s, "rs-in", "middle");
}

/// Lease age: a sawtooth rising from each renewal toward the dashed grace line, with the
/// renewals as ticks; and, each named for what it is, when the lease expires (`renewTime +
/// leaseDurationSeconds`: information, nothing acts on it) and when the node lifecycle
/// controller's grace check falls due (`probeTimestamp + gracePeriod`, counted from the pass that
/// saw the last renewal). The node goes Unknown at the controller's next pass, in the node Ready
/// lane below.
pub fn lease(b: &mut Builder, g: &Group, y: f64) {
    let lease = &g.tl.lease;
    let (t0, end, grace) = (b.t0, g.end, lease.grace);
    b.lane_label(y + LEASE_H / 2.0, "lease age", "rs-label");
    let renews = &lease.renewals;
    let cap = grace as f64 * 1.3;
    let inner = LEASE_H - 2.0;
    let base = y + LEASE_H;
    let yv = |age: f64| base - age.min(cap) / cap * inner;
    let mut pts: Vec<(f64, f64)> = vec![(b.x(t0), base)];
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
    glyphs::grace(b, b.x0, b.x1, gy);
    let glabel = format!("grace {}", fmt_secs(secs(grace)));
    b.text(b.x1 - 2.0, gy - 2.0, glabel, "rs-small", "end");
    // Each mark's label at the top of the lane: the lease's expiry to the left of its line, the
    // controller's deadline (which comes later) to the right of its own, so the two read apart;
    // either goes to the other side near an edge, and a row lower if it would still overlap.
    let mut last_label: Option<(f64, f64)> = None;
    let mut label_at = |b: &mut Builder, x: f64, label: &str, class: &'static str, left: bool| {
        let w = text_w(label, 9.0);
        let right = if left {
            x - 3.0 - w < b.x0
        } else {
            x + 3.0 + w < b.x1 - 60.0
        };
        let (a, z) = if right {
            (x + 3.0, x + 3.0 + w)
        } else {
            (x - 3.0 - w, x - 3.0)
        };
        let row = match last_label {
            Some((la, lz)) if a < lz + 4.0 && z > la - 4.0 => 18.0,
            _ => 8.0,
        };
        last_label = Some((a, z));
        if right {
            b.text(x + 3.0, y + row, label, class, "start");
        } else {
            b.text(x - 3.0, y + row, label, class, "end");
        }
    };
    let checks = lease.grace_checks();
    for t in lease.expiries().into_iter().filter(|t| *t > t0 && *t < end) {
        // Only the expiries of a quiet spell the figure shows (a renewal renews before it).
        let x = b.x(t);
        b.line(x, y, x, base, "rs-renew");
        label_at(b, x, "lease expires", "rs-small", true);
    }
    for c in checks.iter().filter(|c| c.due > t0 && c.due < end) {
        let x = b.x(c.due);
        b.line(x, y, x, base, "rs-expired");
        label_at(b, x, "grace ends (NLC)", "rs-warn", false);
    }
}

/// The node's Ready condition.
pub fn node_ready(b: &mut Builder, g: &Group, y: f64, h: f64) {
    b.lane_label(y + h / 2.0, "node Ready", "rs-label");
    let segs = g.tl.node_ready.spans(b.t0, g.end);
    glyphs::band(b, &segs, y, h, |v, a, z| {
        let s = v.as_str();
        let cause =
            g.tl.node_ready_cause(a)
                .map(|(_, rule)| restartscope_report::why::node_cause(*v, rule))
                .unwrap_or("");
        let by = if cause.is_empty() {
            String::new()
        } else {
            format!(" ({cause})")
        };
        (
            glyphs::node_class(*v),
            s.to_string(),
            format!("node Ready={s} {}–{}{by}", ts(a), ts(z)),
        )
    });
}

/// Each taint added with `effect`: when, and its key (`not-ready` or `unreachable`, from the
/// rule that added it).
fn taint_adds(tr: &Trace, effect: TaintEffect) -> Vec<(Ms, &'static str)> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::TaintAdded && e.value == Value::Taint(effect))
        .map(|e| (e.t, taint_key(e.rule)))
        .collect()
}

/// Whether either taint is on at some time in the window.
pub fn any_taint(b: &Builder, g: &Group) -> bool {
    TAINTS.into_iter().any(|effect| {
        g.tl.taint(effect)
            .spans(b.t0, g.end)
            .iter()
            .any(|(_, _, on)| *on)
    })
}

/// The taints, NoSchedule above NoExecute, each named by its key; "none" when neither is ever
/// on.
pub fn taints(b: &mut Builder, g: &Group, y: f64, h: f64) {
    b.lane_label(y + h / 2.0, "taints", "rs-label");
    let mut any_taint = false;
    for (i, effect) in TAINTS.into_iter().enumerate() {
        let ry = y + i as f64 * (h / 2.0);
        let adds = taint_adds(g.tr, effect);
        for (a, z, on) in g.tl.taint(effect).spans(b.t0, g.end) {
            if !on {
                continue;
            }
            any_taint = true;
            let key = adds
                .iter()
                .take_while(|(t, _)| *t <= a)
                .last()
                .map_or("unreachable", |k| k.1);
            let (xa, xz) = (b.x(a), b.x(z));
            let title = format!(
                "taint node.kubernetes.io/{key}:{} {}–{}",
                effect.as_str(),
                ts(a),
                ts(z)
            );
            let area = (xa, ry + 0.5, (xz - xa).max(0.6), h / 2.0 - 1.0);
            glyphs::taint(b, area, effect, key, Some(title));
        }
    }
    if !any_taint {
        b.text(b.x0 + 4.0, y + h / 2.0 + 3.0, "none", "rs-small", "start");
    }
    // A user's change of the node's labels or taints (`node.changes`: what the kubelet's
    // admission reads at its next start, and a NoExecute taint the taint eviction controller acts
    // on): a mark and the node's labels and taints from then on.
    for e in g.tr.events.iter().filter(|e| e.kind == Kind::NodeEdited) {
        if e.t >= b.t0 && e.t < b.t1.min(g.end) {
            let x = b.x(e.t);
            let now = e.value.text();
            let title = format!("{}: the node's labels and taints now: {now}", ts(e.t));
            b.line(x, y, x, y + h, "rs-evict-mark");
            b.rect(x - 4.0, y, 8.0, h, "rs-hit", Some(title));
            let room = b.x1 - x - 6.0;
            let label = [format!("node → {now}"), "node edited".to_string()]
                .into_iter()
                .find(|s| text_w(s, 9.5) <= room);
            if let Some(s) = label {
                b.text(x + 3.0, y + h / 2.0 + 3.3, s, "rs-in", "start");
            }
        }
    }
}
