//! A step as a standalone SVG — its title, the marks, the figure of its runs in its window
//! (`restartscope_figure::layout` → `Figure::to_svg_inner`, with `Figure::css`), the highlighted
//! pod and the caption as wrapped text — and the markdown index of a tour. No external
//! references: the style and hatch patterns are embedded, as in `Figure::to_svg`.
//! `restartscope tour --out DIR` writes [`files`]; the web app draws the figure itself.

use crate::caption::{secs, wrap};
use crate::{Step, Tour};
use restartscope_figure::paint::{theme_css, Var};
use restartscope_figure::{esc, layout, Animation, Figure, Shape};
use restartscope_sim::{fmt_secs, Ms, Scenario, Trace};

/// The tour's own classes, next to the figure's `rs-` ones; their colour follows the figure's
/// theme ([`THEME`]).
const CSS: &str = r#".rs-tour-mark { stroke: var(--rs-tour); stroke-width: 1.2; stroke-dasharray: 5 3; }
.rs-tour-mark-label { font-size: 10px; font-weight: 700; fill: var(--rs-tour); }
.rs-tour-pod { fill: none; stroke: var(--rs-tour); stroke-width: 2; }
.rs-tour-caption { font-size: 11.5px; fill: var(--rs-fg); }
.rs-tour-step { font-size: 10.5px; font-weight: 700; fill: var(--rs-tour); }
"#;

/// The tour's colour, light and dark.
const THEME: [Var; 1] = [Var {
    name: "--rs-tour",
    light: "#6a3d9a",
    dark: "#c7a6ea",
}];

const PAD: f64 = 8.0;
const MARK_ROW: f64 = 13.0;
const MARK_FONT: f64 = 10.0;
const CAPTION_FONT: f64 = 11.5;
const CAPTION_LINE: f64 = 15.5;

/// Rough text width in px (the figure's own estimate is private; DejaVu Sans averages ~0.6 em).
fn text_w(s: &str, font_px: f64) -> f64 {
    s.chars().count() as f64 * font_px * 0.6
}

fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// One line about the scenario: preset, restart, grace, release, window.
pub fn scenario_line(step: &Step, sc: &Scenario) -> String {
    let restart = sc.first_restart().map_or(String::new(), |r| {
        format!(
            " · kubelet down {} at {}",
            fmt_secs(r.downtime_s),
            fmt_secs(r.at_s)
        )
    });
    let (t0, t1) = step.window();
    format!(
        "preset {}{restart} · grace {} · v{} · {} · window {}–{}",
        step.preset,
        fmt_secs(sc.cluster.grace_s()),
        sc.cluster.version.as_str(),
        match step.policies().as_slice() {
            [p] => p.label().to_string(),
            _ => "legacy and KEP-4781 kubelets".to_string(),
        },
        secs(t0),
        secs(t1)
    )
}

/// Every file of `restartscope tour --out DIR`: one SVG per step (`01-legacy-flap.svg`, …) and
/// `index.md`, as (file name, contents).
pub fn files(tour: &Tour) -> Result<Vec<(String, String)>, String> {
    files_animated(tour, None)
}

/// [`files`], each step's SVG animated when `anim` is given ([`step_svg_animated`]); then
/// without the web app's JSON, which the still tour's directory holds.
pub fn files_animated(
    tour: &Tour,
    anim: Option<&Animation>,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    // docs/tour/ holds the still figures, docs/tour/animated/ the same steps animated.
    let (flag, dir, other) = match anim {
        None => (
            "",
            "docs/tour",
            "The same steps animated (CSS only: they play inside `<img>`, as on GitHub, and hold \
still under `prefers-reduced-motion`): [animated/](animated/index.md).",
        ),
        Some(_) => (
            " --animate",
            "docs/tour/animated",
            "The still figures: [docs/tour/](../index.md).",
        ),
    };
    let mut index = format!(
        "# {}\n\n{}\n\nIn the web app, `{}` opens step N (1 to {}). These figures are generated: \
`restartscope tour --name {}{flag} --out {dir}` writes them, and `crates/cli/tests/tour.rs` fails \
when the committed copies are stale. {other}\n",
        tour.title,
        tour.intro,
        format_args!("?tour={}&step=N", tour.name),
        tour.steps.len(),
        tour.name
    );
    for (i, step) in tour.steps.iter().enumerate() {
        let n = i + 1;
        let err = |e: String| format!("tour {} step {n} ({}): {e}", tour.name, step.slug);
        let sc = step.scenario().map_err(|e| err(e.to_string()))?;
        let traces = step.traces().map_err(|e| err(e.to_string()))?;
        let caption = step.caption(&traces).map_err(err)?;
        let file = tour.file_name(n).unwrap_or_default();
        out.push((
            file.clone(),
            step_svg_animated(tour, n, step, &sc, &traces, &caption, anim),
        ));
        index.push_str(&format!(
            "\n## Step {n} of {}: {}\n\n",
            tour.steps.len(),
            step.title
        ));
        // The page asks before it shows the rest (predict, then reveal); the page of figures
        // asks before the figure.
        if let Some(p) = step.predict {
            index.push_str(&format!("> **{}**\n\n", p.question));
        }
        index.push_str(&format!("![Step {n}: {}]({file})\n\n", step.title));
        for p in &caption {
            index.push_str(p);
            index.push_str("\n\n");
        }
        index.push_str(&format!(
            "*{}.* Open it in the app: `{}`.\n",
            scenario_line(step, &sc),
            tour.link(n)
        ));
    }
    out.push(("index.md".to_string(), index));
    // The same steps as data for the web app, which loads it when the tour is opened (once:
    // with the still figures, not again beside the animated ones).
    if anim.is_none() {
        let data = tour.data()?;
        let json = serde_json::to_string(&data).map_err(|e| e.to_string())?;
        out.push((format!("{}.json", tour.name), json + "\n"));
    }
    Ok(out)
}

/// Step `n` (1-based) of `tour` as a standalone SVG document: `traces` are the step's runs and
/// `caption` its filled paragraphs ([`Step::caption`]).
pub fn step_svg(
    tour: &Tour,
    n: usize,
    step: &Step,
    sc: &Scenario,
    traces: &[Trace],
    caption: &[String],
) -> String {
    step_svg_animated(tour, n, step, sc, traces, caption, None)
}

/// [`step_svg`], its figure played by CSS keyframes when `anim` is given
/// (`restartscope_figure::Figure::animated_parts`).
pub fn step_svg_animated(
    tour: &Tour,
    n: usize,
    step: &Step,
    sc: &Scenario,
    traces: &[Trace],
    caption: &[String],
    anim: Option<&Animation>,
) -> String {
    let fig = layout(traces, &step.layout_opts());
    let (anim_css, inner) = match anim {
        Some(a) => fig.animated_parts(traces, a),
        None => (String::new(), fig.to_svg_inner()),
    };
    let width = fig.width;
    let mut body = String::new();
    let mut y = PAD;
    let heading = format!("Step {n} of {}: {}", tour.steps.len(), step.title);
    text(&mut body, PAD, y + 13.0, "rs-h1", &heading);
    y += 19.0;
    text(
        &mut body,
        PAD,
        y + 11.0,
        "rs-meta",
        &scenario_line(step, sc),
    );
    y += 20.0;

    // Mark labels in rows above the figure, each over its line.
    let marks: Vec<(Ms, String)> = step
        .marks(traces)
        .into_iter()
        .filter(|(t, _)| (fig.t0_ms..=fig.t1_ms).contains(t))
        .collect();
    let mut rows: Vec<f64> = Vec::new();
    let mut placed = Vec::new();
    for (t, label) in &marks {
        let x = fig.x_of(*t);
        let w = text_w(label, MARK_FONT);
        let left = (x - w / 2.0).clamp(PAD, (width - PAD - w).max(PAD));
        let row = match rows.iter().position(|r| left > *r + 6.0) {
            Some(r) => r,
            None => {
                rows.push(f64::MIN);
                rows.len() - 1
            }
        };
        rows[row] = left + w;
        placed.push((x, left, row, label));
    }
    let fig_y = y + rows.len() as f64 * MARK_ROW + 4.0;
    for (_, left, row, label) in &placed {
        let ty = y + (*row as f64 + 1.0) * MARK_ROW - 3.0;
        text(&mut body, *left, ty, "rs-tour-mark-label", label);
    }

    body.push_str(&format!("<g transform=\"translate(0,{})\">\n", num(fig_y)));
    body.push_str(&inner);
    body.push_str("</g>\n");

    if let (Some(top), Some(bottom)) = (
        fig.groups.first().map(|g| g.y),
        fig.groups.last().map(|g| g.y + g.h),
    ) {
        for (x, _, row, _) in &placed {
            let y_label = y + (*row as f64 + 1.0) * MARK_ROW;
            body.push_str(&format!(
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" class=\"rs-tour-mark\"/>\n",
                num(y_label.min(fig_y + top)),
                num(fig_y + bottom),
                x = num(*x)
            ));
        }
    }
    if let Some(pod) = step.pod {
        for (top, bottom) in pod_blocks(&fig, traces, pod) {
            body.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" class=\"rs-tour-pod\"><title>{}</title></rect>\n",
                num(PAD - 2.0),
                num(fig_y + top),
                num(width - 2.0 * PAD + 4.0),
                num(bottom - top),
                esc(&format!("highlighted: {}", pod_name(traces, pod)))
            ));
        }
    }

    let mut cy = fig_y + fig.height + 4.0;
    let max = ((width - 2.0 * PAD) / (CAPTION_FONT * 0.56)).floor() as usize;
    for (i, p) in caption.iter().enumerate() {
        if i > 0 {
            cy += 6.0;
        }
        for line in wrap(p, max) {
            cy += CAPTION_LINE;
            text(&mut body, PAD, cy, "rs-tour-caption", &line);
        }
    }
    cy += 8.0 + CAPTION_LINE;
    let footer = format!(
        "RestartScope tour {} · step {n} of {} · in the app: {}",
        tour.name,
        tour.steps.len(),
        tour.link(n)
    );
    text(&mut body, PAD, cy, "rs-tour-step", &footer);
    let height = (cy + PAD).ceil();

    let (w, h) = (num(width), num(height));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"rs-figure\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"rs-title rs-desc\">\n<title id=\"rs-title\">{}</title>\n<desc id=\"rs-desc\">{}</desc>\n<style>\n{}{}{CSS}{anim_css}</style>\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" class=\"rs-bg\"/>\n{body}</svg>\n",
        esc(&heading),
        esc(&caption.join(" ")),
        Figure::css(),
        theme_css(&THEME),
    )
}

fn text(out: &mut String, x: f64, y: f64, class: &str, s: &str) {
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" class=\"{class}\">{}</text>\n",
        num(x),
        num(y),
        esc(s)
    ));
}

fn pod_name(traces: &[Trace], pod: u16) -> String {
    traces
        .first()
        .and_then(|t| t.pods.get(pod as usize))
        .map_or_else(|| format!("pod {pod}"), |p| p.name.clone())
}

/// The vertical extent (figure coordinates) of the pod's lanes in each group: from the
/// separator above its name to the next separator or the group's end.
fn pod_blocks(fig: &Figure, traces: &[Trace], pod: u16) -> Vec<(f64, f64)> {
    let name = pod_name(traces, pod);
    let mut out = Vec::new();
    for g in &fig.groups {
        let (top, bottom) = (g.y, g.y + g.h);
        let seps: Vec<f64> = fig
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Line { y1, class, .. }
                    if *class == "rs-sep" && *y1 > top && *y1 < bottom =>
                {
                    Some(*y1)
                }
                _ => None,
            })
            .collect();
        let label = fig.shapes.iter().find_map(|s| match s {
            Shape::Text { y, text, class, .. }
                if *class == "rs-label-pod" && *text == name && *y > top && *y < bottom =>
            {
                Some(*y)
            }
            _ => None,
        });
        let Some(ly) = label else { continue };
        let above = seps.iter().copied().filter(|s| *s < ly).fold(top, f64::max);
        let below = seps
            .iter()
            .copied()
            .filter(|s| *s > ly)
            .fold(bottom - 2.0, f64::min);
        out.push((above + 1.0, below - 1.0));
    }
    out
}
