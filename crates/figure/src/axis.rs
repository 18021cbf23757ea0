//! The time axis under the groups: ticks at a round step, their labels, and grid lines drawn
//! under the lanes.

use crate::builder::Builder;
use crate::figure::Shape;
use crate::geom::{secs, text_w};
use restartscope_sim::{fmt_secs, Ms};

/// Axis tick step (ms) giving at most `max_ticks` ticks over `span`.
pub fn tick_step(span: Ms, max_ticks: f64) -> Ms {
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

/// The axis at `axis_y`, grid lines up to `plot_top`; returns the y below the axis labels.
pub fn draw(b: &mut Builder, plot_top: f64, axis_y: f64, width: f64) -> f64 {
    let (x0, x1, t0, t1) = (b.x0, b.x1, b.t0, b.t1);
    let step = tick_step(t1 - t0, ((x1 - x0) / 62.0).max(2.0));
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
    axis_y + 24.0
}
