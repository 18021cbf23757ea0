//! Geometry shared by every part of the layout: lane heights and gaps (px), the time → x
//! mapping, text width estimates and time labels.

use restartscope_sim::{fmt_secs, Ms};

pub const PAD: f64 = 8.0;
pub const HEADER_H: f64 = 40.0;
pub const KUBELET_H: f64 = 14.0;
pub const LEASE_H: f64 = 32.0;
pub const NODE_H: f64 = 15.0;
pub const TAINT_H: f64 = 22.0;
pub const BADGE_ROW: f64 = 11.0;
pub const READY_H: f64 = 16.0;
pub const PROBE_H: f64 = 12.0;
pub const EP_H: f64 = 13.0;
pub const EVICT_H: f64 = 13.0;
/// The observed lane (the evidence's Ready under the modelled one).
pub const OBS_H: f64 = 15.0;
pub const LANE_GAP: f64 = 4.0;
pub const POD_GAP: f64 = 7.0;
pub const GROUP_GAP: f64 = 14.0;
pub const BADGE_W: f64 = 11.0;

/// Heights used by the compact layout (`LayoutOpts::compact`).
pub mod compact {
    pub const HEADER_H: f64 = 20.0;
    pub const KUBELET_H: f64 = 13.0;
    pub const NODE_H: f64 = 14.0;
    pub const TAINT_H: f64 = 18.0;
    pub const READY_H: f64 = 14.0;
    /// The endpoint strip right under a pod's Ready band.
    pub const EP_H: f64 = 4.0;
    pub const LANE_GAP: f64 = 3.0;
    pub const POD_GAP: f64 = 5.0;
    pub const GROUP_GAP: f64 = 8.0;
}

/// Rough width of `s` in px at `font_px` (DejaVu Sans averages ~0.6 em).
pub fn text_w(s: &str, font_px: f64) -> f64 {
    s.chars().count() as f64 * font_px * 0.6
}

/// Width of `s` in DejaVu Sans Bold at `font_px`, from its glyphs' advances (em, measured with
/// the canvas's `measureText`): a heading of capitals and digits ("CSP proposal · 1.38
/// (unmerged PR #140704)", 315 px at 12.5 px) is wider than `text_w` says (308 px) and ran
/// into the counts beside it.
pub fn bold_w(s: &str, font_px: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | 'J' => 0.36,
            'f' | 't' | 'r' => 0.47,
            'm' | 'w' | 'M' | 'W' => 1.05,
            'a'..='z' => 0.69,
            'L' | 'E' | 'F' | 'T' => 0.69,
            'A'..='Z' => 0.84,
            '0'..='9' => 0.70,
            ' ' => 0.35,
            '.' | ',' | '·' | ':' | ';' => 0.40,
            '(' | ')' | '[' | ']' | '-' => 0.46,
            _ => 0.84,
        })
        .sum();
    em * font_px
}

/// x (px) of time `t` when `t0..t1` spans `x0..x1`; linear, also outside the window.
pub fn x_of(x0: f64, x1: f64, t0: Ms, t1: Ms, t: Ms) -> f64 {
    let span = (t1 - t0).max(1) as f64;
    x0 + (t - t0) as f64 / span * (x1 - x0)
}

pub fn secs(t: Ms) -> f64 {
    t as f64 / 1000.0
}

/// A time for a tooltip: `41.846s`, `6m24.907s`.
pub fn ts(t: Ms) -> String {
    fmt_secs(secs(t))
}
