//! Drawing the worker's results: the nodes × time heatmap of Ready pods into a canvas (one pixel
//! per column and node row; rows of many nodes show the fewest Ready pods of their nodes), and
//! the per-second series as small SVG line charts (at most `POINTS` points: the largest count or
//! smallest share of the seconds each point covers). No Kubernetes logic: numbers in, pixels out.

use crate::js::esc;
use js_sys::Uint8ClampedArray;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// Rows of the heatmap at most (nodes are grouped above this).
pub const MAX_ROWS: u32 = 400;
/// Points per chart at most.
pub const POINTS: usize = 600;

/// Okabe–Ito stops: all pods Ready (bluish green), half (yellow), none (vermillion).
const STOPS: [(f64, [u8; 3]); 3] = [
    (0.0, [0xD5, 0x5E, 0x00]),
    (0.5, [0xF0, 0xE4, 0x42]),
    (1.0, [0x00, 0x9E, 0x73]),
];

/// The colour of a share of Ready pods (0…1).
pub fn colour(share: f64) -> [u8; 3] {
    let s = share.clamp(0.0, 1.0);
    let (a, b) = if s <= 0.5 {
        (STOPS[0], STOPS[1])
    } else {
        (STOPS[1], STOPS[2])
    };
    let t = (s - a.0) / (b.0 - a.0);
    let mix = |i: usize| (a.1[i] as f64 + (b.1[i] as f64 - a.1[i] as f64) * t).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// RGBA pixels of the heatmap (`cells` column-major: `cells[col * nodes + node]`) and its size.
pub fn heat_pixels(cells: &[u8], cols: u32, nodes: u32, pods: u32) -> (Vec<u8>, u32, u32) {
    let rows = nodes.clamp(1, MAX_ROWS);
    let per = nodes.div_ceil(rows).max(1);
    let rows = nodes.div_ceil(per).max(1);
    let mut px = vec![0u8; (cols * rows * 4) as usize];
    for c in 0..cols {
        let col = &cells[(c * nodes) as usize..((c + 1) * nodes) as usize];
        for r in 0..rows {
            let lo = (r * per) as usize;
            let hi = ((r + 1) * per).min(nodes) as usize;
            let fewest = col[lo..hi].iter().copied().min().unwrap_or(0);
            let [red, g, b] = colour(fewest as f64 / pods.max(1) as f64);
            let i = ((r * cols + c) * 4) as usize;
            px[i..i + 4].copy_from_slice(&[red, g, b, 255]);
        }
    }
    (px, cols, rows)
}

/// Paints heatmap pixels (RGBA, `w` × `h`, from `heat_pixels` in the worker) into `canvas`
/// (sized to the data; CSS stretches it).
pub fn paint_heat(canvas: &HtmlCanvasElement, px: &Uint8ClampedArray, w: u32, h: u32) {
    canvas.set_width(w);
    canvas.set_height(h);
    let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    if let Ok(img) = ImageData::new_with_js_u8_clamped_array_and_sh(px, w, h) {
        let _ = ctx.put_image_data(&img, 0.0, 0.0);
    }
}

/// `v` reduced to at most `POINTS` values, each the max (or, `min`, the min) of its seconds.
pub fn reduce(v: &[f64], min: bool) -> Vec<f64> {
    if v.len() <= POINTS {
        return v.to_vec();
    }
    let per = v.len().div_ceil(POINTS);
    v.chunks(per)
        .map(|c| {
            c.iter().copied().fold(
                if min {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                },
                |a, b| if min { a.min(b) } else { a.max(b) },
            )
        })
        .collect()
}

/// One line of a chart.
pub struct Line {
    pub values: Vec<f64>,
    /// CSS class (its colour and dash).
    pub class: &'static str,
}

/// A chart's y axis: from `bottom` to `top`, its ends written as `{n} {unit}`, or as percentages.
pub struct Axis<'a> {
    pub bottom: f64,
    pub top: f64,
    pub unit: &'a str,
    pub percent: bool,
}

impl Axis<'_> {
    fn text(&self, v: f64) -> String {
        if self.percent {
            format!("{:.0} %", v * 100.0)
        } else {
            format!("{} {}", fmt_num(v), self.unit)
        }
    }
}

/// Where a share chart's axis starts: the highest of 98, 95, 90, 80, 60, 40, 20 and 0 % that
/// keeps `lowest` (the lowest share shown) at least 15 % of the chart above the bottom edge; 0 when
/// nothing dips. A dip to 98.9 % then fills half the chart instead of a pixel at its top; the
/// caption and the bottom label say where the axis starts.
pub fn share_floor(lowest: f64) -> f64 {
    if lowest.is_nan() || lowest >= 1.0 {
        return 0.0;
    }
    [0.98, 0.95, 0.9, 0.8, 0.6, 0.4, 0.2]
        .into_iter()
        .find(|b| lowest >= b + (1.0 - b) * 0.15)
        .unwrap_or(0.0)
}

/// A line chart as SVG: `lines` over `seconds` seconds on `axis` (a `top` of 0 is drawn as 1),
/// with an accessible label and the axis's ends written on it (the bottom only when it is not 0).
pub fn chart(label: &str, lines: &[Line], seconds: f64, axis: &Axis) -> String {
    const W: f64 = 600.0;
    const H: f64 = 90.0;
    let top = if axis.top > axis.bottom {
        axis.top
    } else {
        axis.bottom + 1.0
    };
    let span = top - axis.bottom;
    let mut s = format!(
        r#"<svg class="chart" viewBox="0 0 {W} {H}" preserveAspectRatio="none" role="img" aria-label="{} (y from {} to {})"><rect class="chart-bg" x="0" y="0" width="{W}" height="{H}"/>"#,
        esc(label),
        esc(&axis.text(axis.bottom)),
        esc(&axis.text(top))
    );
    for l in lines {
        let n = l.values.len().max(2) - 1;
        let mut d = String::with_capacity(l.values.len() * 12);
        for (i, v) in l.values.iter().enumerate() {
            let x = i as f64 / n as f64 * W;
            let y = H - 2.0 - ((v - axis.bottom) / span).clamp(0.0, 1.0) * (H - 4.0);
            d.push_str(&format!("{}{x:.1},{y:.1}", if i == 0 { "M" } else { "L" }));
        }
        s.push_str(&format!(
            r#"<path class="{}" d="{d}" vector-effect="non-scaling-stroke"/>"#,
            l.class
        ));
    }
    s.push_str("</svg>");
    let _ = seconds;
    let bottom = if axis.bottom != 0.0 {
        format!(
            r#"<div class="chart-bottom">{}</div>"#,
            esc(&axis.text(axis.bottom))
        )
    } else {
        String::new()
    };
    format!(
        r#"<div class="chart-box"><div class="chart-top">{}</div>{s}{bottom}</div>"#,
        esc(&axis.text(top))
    )
}

/// A number for an axis or readout (no decimals above 10).
pub fn fmt_num(v: f64) -> String {
    if v.abs() >= 10.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_from_vermillion_to_green() {
        assert_eq!(colour(0.0), [0xD5, 0x5E, 0x00]);
        assert_eq!(colour(1.0), [0x00, 0x9E, 0x73]);
        assert_eq!(colour(0.5), [0xF0, 0xE4, 0x42]);
    }

    #[test]
    fn many_nodes_share_a_row_showing_the_fewest_ready() {
        // 2 columns × 1000 nodes (3 per row), node 1 (row 0) down to 0 in column 1.
        let mut cells = vec![10u8; 2000];
        cells[1000 + 1] = 0;
        let (px, w, h) = heat_pixels(&cells, 2, 1000, 10);
        assert_eq!((w, h), (2, 334));
        assert_eq!(&px[4..7], &colour(0.0));
        assert_eq!(&px[0..3], &colour(1.0));
    }

    #[test]
    fn a_share_axis_starts_below_the_lowest_share() {
        assert_eq!(share_floor(1.0), 0.0);
        assert_eq!(share_floor(0.989), 0.98);
        assert_eq!(share_floor(0.98), 0.95);
        assert_eq!(share_floor(0.95), 0.9);
        assert_eq!(share_floor(0.85), 0.8);
        assert_eq!(share_floor(0.5), 0.4);
        assert_eq!(share_floor(0.3), 0.0);
        assert_eq!(share_floor(0.0), 0.0);
        assert_eq!(share_floor(f64::NAN), 0.0);
    }

    #[test]
    fn a_chart_draws_its_axis_ends() {
        let line = Line {
            values: vec![1.0, 0.9, 1.0],
            class: "l0",
        };
        let axis = Axis {
            bottom: 0.9,
            top: 1.0,
            unit: "",
            percent: true,
        };
        let svg = chart("share", &[line], 3.0, &axis);
        // 0.9 on the bottom edge (90 - 2), 1 on the top (2).
        assert!(svg.contains("M0.0,2.0L300.0,88.0L600.0,2.0"), "{svg}");
        assert!(svg.contains(r#"<div class="chart-top">100 %</div>"#));
        assert!(svg.contains(r#"<div class="chart-bottom">90 %</div>"#));
        let counts = Axis {
            bottom: 0.0,
            top: 0.0,
            unit: "/s",
            percent: false,
        };
        let svg = chart("writes", &[], 3.0, &counts);
        assert!(svg.contains(r#"<div class="chart-top">1 /s</div>"#));
        assert!(!svg.contains("chart-bottom"));
    }

    #[test]
    fn reduce_keeps_peaks() {
        let mut v = vec![0.0; 6000];
        v[4321] = 9.0;
        let r = reduce(&v, false);
        assert!(r.len() <= POINTS);
        assert_eq!(r.iter().copied().fold(0.0, f64::max), 9.0);
    }
}
