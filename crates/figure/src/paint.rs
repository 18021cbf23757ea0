//! How each `rs-` class is painted, as data, for a renderer that is not a browser's SVG engine
//! (the web app draws the figure on a canvas, so a slider move is drawn within one frame). Read from the same
//! style the SVG embeds ([`Figure::css`](crate::Figure::css)), whose colours are custom
//! properties (`var(--rs-bg)`) resolved here from [`PALETTE`] (light or dark), and the hatch
//! patterns of [`Figure::defs`](crate::Figure::defs) as [`HATCHES`] (a test checks the two
//! agree), so the canvas and the SVG export cannot drift.
//!
//! The SVG carries both themes: [`theme_css`] writes the palette as custom properties three
//! times — plain light values (for engines without `light-dark()`), `light-dark(L, D)` (a host
//! page that inlines the SVG and sets `color-scheme`, like kubernetes.io, picks the theme), and
//! the dark values under `@media (prefers-color-scheme: dark)` for the SVG as its own document
//! (`<img>` on GitHub, a file opened in a browser).

pub(crate) const CSS: &str = r#".rs-figure { background: var(--rs-bg); }
.rs-figure text { font-family: "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; fill: var(--rs-fg); }
.rs-bg { fill: var(--rs-bg); }
.rs-h1 { font-size: 14px; font-weight: 700; }
.rs-h2 { font-size: 12.5px; font-weight: 700; }
.rs-meta { font-size: 10.5px; fill: var(--rs-muted); }
.rs-label { font-size: 10.5px; fill: var(--rs-muted); }
.rs-label-pod { font-size: 11px; font-weight: 700; }
.rs-hit { fill: none; }
.rs-in { font-size: 9.5px; fill: var(--rs-in); paint-order: stroke; stroke: var(--rs-bg); stroke-width: 3px; stroke-linejoin: round; }
.rs-in-sm { font-size: 8.5px; fill: var(--rs-in); paint-order: stroke; stroke: var(--rs-bg); stroke-width: 2.5px; stroke-linejoin: round; }
.rs-small { font-size: 9px; fill: var(--rs-small); }
.rs-warn { font-size: 9px; font-weight: 700; fill: var(--rs-warn); paint-order: stroke; stroke: var(--rs-bg); stroke-width: 3px; stroke-linejoin: round; }
.rs-axis-label { font-size: 10px; fill: var(--rs-muted); }
.rs-legend { font-size: 10px; fill: var(--rs-muted); }
.rs-group { fill: var(--rs-group); stroke: var(--rs-group-line); stroke-width: 1; }
.rs-downtime { fill: var(--rs-downtime); }
.rs-grid { stroke: var(--rs-grid); stroke-width: 1; }
.rs-sep { stroke: var(--rs-sep); stroke-width: 1; }
.rs-axis { stroke: var(--rs-axis); stroke-width: 1; }
.rs-up { fill: var(--rs-up); }
.rs-down { fill: url(#rs-p-down); stroke: #777777; stroke-width: 1; }
.rs-noapi { fill: #CC79A7; fill-opacity: 0.18; stroke: #CC79A7; stroke-width: 1; stroke-dasharray: 3 2; }
.rs-lease { fill: #56B4E9; fill-opacity: 0.45; stroke: #0072B2; stroke-width: 1; }
.rs-grace { stroke: var(--rs-ink); stroke-width: 1.2; stroke-dasharray: 4 3; }
.rs-renew { stroke: #0072B2; stroke-width: 1; }
.rs-expired { stroke: #D55E00; stroke-width: 1.5; }
.rs-node-true { fill: #009E73; fill-opacity: 0.25; stroke: #009E73; stroke-width: 0.5; }
.rs-node-unknown { fill: url(#rs-p-unknown); stroke: #E69F00; stroke-width: 1; }
.rs-taint-ns { fill: #E69F00; fill-opacity: 0.55; stroke: #b57d00; stroke-width: 0.5; }
.rs-taint-ne { fill: url(#rs-p-noexec); stroke: #D55E00; stroke-width: 1; }
.rs-ready-true { fill: #009E73; fill-opacity: 0.35; stroke: #009E73; stroke-width: 0.5; }
.rs-ready-false { fill: url(#rs-p-false); stroke: #D55E00; stroke-width: 1; }
.rs-removed { fill: var(--rs-removed); stroke: #999999; stroke-width: 0.5; stroke-dasharray: 2 2; }
.rs-badge-k { fill: #0072B2; }
.rs-badge-n { fill: #E69F00; }
.rs-badge-text { font-size: 8.5px; font-weight: 700; }
.rs-badge-text-k { font-size: 8.5px; font-weight: 700; fill: #ffffff !important; }
.rs-leader { stroke: var(--rs-leader); stroke-width: 0.8; }
.rs-probe-ok { fill: none; stroke: #009E73; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
.rs-probe-fail { fill: none; stroke: #D55E00; stroke-width: 1.6; stroke-linecap: round; }
.rs-probe-seed { fill: var(--rs-bg); stroke: #D55E00; stroke-width: 1.3; }
.rs-probe-kept { fill: var(--rs-bg); stroke: #009E73; stroke-width: 1.3; }
.rs-ep-ready { fill: #0072B2; fill-opacity: 0.3; stroke: #0072B2; stroke-width: 0.5; }
.rs-ep-notready { fill: var(--rs-bg); stroke: #0072B2; stroke-width: 1; stroke-dasharray: 3 2; }
.rs-ep-serving { fill: url(#rs-p-serving); stroke: #56B4E9; stroke-width: 1; }
.rs-ep-terminating { fill: url(#rs-p-term); stroke: #CC79A7; stroke-width: 1; }
.rs-evict-window { fill: var(--rs-bg); stroke: #CC79A7; stroke-width: 1; }
.rs-evict-elapsed { fill: #CC79A7; fill-opacity: 0.45; }
.rs-evict-mark { stroke: var(--rs-ink); stroke-width: 2; }
.rs-evict-cancel { stroke: var(--rs-ink); stroke-width: 1.2; stroke-dasharray: 2 2; }
"#;

/// The observed lane's classes (an incident's evidence beside the model). Kept out of
/// [`CSS`] so that a figure without evidence (every committed figure, the tour) is unchanged:
/// [`Figure::to_svg`](crate::Figure::to_svg) adds them when the figure draws one; [`paint`]
/// reads both.
pub(crate) const OBS_CSS: &str = r#".rs-label-obs { font-size: 10.5px; font-weight: 700; fill: var(--rs-fg); }
.rs-obs-true { fill: #009E73; fill-opacity: 0.08; stroke: #009E73; stroke-width: 1.2; }
.rs-obs-false { fill: #D55E00; fill-opacity: 0.12; stroke: #D55E00; stroke-width: 1.2; }
.rs-obs-unknown { fill: none; stroke: var(--rs-axis); stroke-width: 0.8; stroke-dasharray: 2 3; }
.rs-obs-line { fill: none; stroke: var(--rs-ink); stroke-width: 1.8; stroke-linejoin: round; }
"#;

/// The classes of restarts other than the kubelet's (a container runtime restart's window, a
/// node reboot's strip, node Ready=False posted by the kubelet). Like [`OBS_CSS`], kept out of
/// [`CSS`] so a figure without them is unchanged: [`Figure::document`](crate::Figure::document)
/// adds them when the figure draws one; [`paint`] reads them.
pub(crate) const KINDS_CSS: &str = r#".rs-rtdown { fill: #F0E442; fill-opacity: 0.3; stroke: #8a7f00; stroke-width: 1; stroke-dasharray: 4 2; }
.rs-nodedown { fill: var(--rs-ink); }
.rs-node-false { fill: url(#rs-p-false); stroke: #D55E00; stroke-width: 1; }
"#;

/// One colour of the figure's theme: a custom property and its light and dark values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Var {
    pub name: &'static str,
    pub light: &'static str,
    pub dark: &'static str,
}

const fn var(name: &'static str, light: &'static str, dark: &'static str) -> Var {
    Var { name, light, dark }
}

/// The theme's colours (the dark ones are the web app's dark theme). Colours that read on both
/// backgrounds (the Okabe–Ito state colours) stay literal in [`Figure::css`](crate::Figure::css).
pub const PALETTE: [Var; 19] = [
    var("--rs-bg", "#ffffff", "#1b1e23"),
    var("--rs-fg", "#1a1a1a", "#ececec"),
    var("--rs-muted", "#333333", "#c9c9c9"),
    var("--rs-small", "#444444", "#c9c9c9"),
    var("--rs-in", "#1a1a1a", "#f2f2f2"),
    var("--rs-warn", "#a33a00", "#ff9a52"),
    var("--rs-group", "#fafafa", "#20242a"),
    var("--rs-group-line", "#d0d0d0", "#3a3f47"),
    var("--rs-downtime", "#e9e9e9", "#2c3038"),
    var("--rs-grid", "#e2e2e2", "#30353c"),
    var("--rs-sep", "#d9d9d9", "#30353c"),
    var("--rs-axis", "#555555", "#aaaaaa"),
    var("--rs-leader", "#666666", "#aaaaaa"),
    var("--rs-ink", "#1a1a1a", "#e6e6e6"),
    var("--rs-up", "#0072B2", "#56b4e9"),
    var("--rs-removed", "#f0f0f0", "#2a2e35"),
    var("--rs-playhead", "#000000", "#f0e442"),
    var("--rs-hatch-down-bg", "#f4f4f4", "#2f343c"),
    var("--rs-hatch-down-line", "#9a9a9a", "#8b929c"),
];

/// `vars` as the style that declares them on `.rs-figure`, in both themes (see the module
/// doc): light values, then `light-dark()` where supported, then the dark values when the SVG
/// is its own document (`:root`) and the reader prefers dark.
pub fn theme_css(vars: &[Var]) -> String {
    let decls = |f: &dyn Fn(&Var) -> String| -> String {
        vars.iter()
            .map(|v| format!(" {}: {};", v.name, f(v)))
            .collect()
    };
    format!(
        ".rs-figure {{{}}}
@supports (color: light-dark(#000, #fff)) {{ .rs-figure {{{}}} }}
@media (prefers-color-scheme: dark) {{ :root.rs-figure {{{}}} }}
",
        decls(&|v| v.light.to_string()),
        decls(&|v| format!("light-dark({}, {})", v.light, v.dark)),
        decls(&|v| v.dark.to_string()),
    )
}

/// The hatch that changes with the theme ("kubelet down": a wide light bar glares on a dark
/// background), its pattern's presentation attributes overridden by the palette.
pub(crate) const HATCH_THEME_CSS: &str = "#rs-p-down rect { fill: var(--rs-hatch-down-bg); }
#rs-p-down line { stroke: var(--rs-hatch-down-line); }
";

/// `css` in one theme for a renderer that reads no custom properties (resvg: the CLI's PNG and
/// GIF): each `var(--name)` of [`PALETTE`] replaced by its light or dark value.
pub fn flatten(css: &str, dark: bool) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("var(") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 4..];
        match after.find(')') {
            Some(j) => {
                match palette(after[..j].trim(), dark) {
                    Some(v) => out.push_str(v),
                    None => out.push_str(&rest[i..i + 4 + j + 1]),
                }
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of `--name` in a theme.
fn palette(name: &str, dark: bool) -> Option<&'static str> {
    PALETTE
        .iter()
        .find(|v| v.name == name)
        .map(|v| if dark { v.dark } else { v.light })
}

/// `var(--x)` resolved from [`PALETTE`]; any other value as it is.
fn resolve(v: &'static str, dark: bool) -> &'static str {
    v.strip_prefix("var(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|name| palette(name.trim(), dark))
        .unwrap_or(v)
}

/// A hatch pattern: a `size`-px tile of `bg` with one vertical line of `line` (`width` px)
/// at x = 0, the tile rotated by `angle` degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hatch {
    pub id: &'static str,
    pub size: f64,
    pub angle: f64,
    pub bg: &'static str,
    pub line: &'static str,
    pub width: f64,
}

/// The patterns of [`Figure::defs`](crate::Figure::defs), in its order.
pub const HATCHES: [Hatch; 6] = [
    hatch("rs-p-down", 6.0, 45.0, "#f4f4f4", "#9a9a9a", 1.5),
    hatch("rs-p-unknown", 6.0, 45.0, "#fdf0d5", "#E69F00", 2.0),
    hatch("rs-p-noexec", 5.0, -45.0, "#fbe3d6", "#D55E00", 1.8),
    hatch("rs-p-false", 6.0, 45.0, "#fbe3d6", "#D55E00", 1.6),
    hatch("rs-p-serving", 6.0, -45.0, "#e3f2fb", "#56B4E9", 1.6),
    hatch("rs-p-term", 6.0, 45.0, "#f7e6ef", "#CC79A7", 1.6),
];

/// The hatch patterns in a theme: [`HATCHES`], but in the dark theme the "kubelet down" hatch
/// is dark too (the palette's `--rs-hatch-down-*`, as the SVG's style overrides it).
pub fn hatches(dark: bool) -> [Hatch; 6] {
    let mut h = HATCHES;
    if dark {
        h[0].bg = resolve("var(--rs-hatch-down-bg)", true);
        h[0].line = resolve("var(--rs-hatch-down-line)", true);
    }
    h
}

const fn hatch(
    id: &'static str,
    size: f64,
    angle: f64,
    bg: &'static str,
    line: &'static str,
    width: f64,
) -> Hatch {
    Hatch {
        id,
        size,
        angle,
        bg,
        line,
        width,
    }
}

/// How a shape's interior is filled.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    None,
    Color(String),
    /// Index into [`HATCHES`].
    Hatch(usize),
}

/// Everything a renderer needs to paint one class in one theme.
#[derive(Clone, Debug, PartialEq)]
pub struct Paint {
    pub fill: Fill,
    pub fill_opacity: f64,
    pub stroke: Option<String>,
    pub stroke_width: f64,
    /// Dash and gap lengths (empty: solid).
    pub dash: Vec<f64>,
    /// Round caps and joins.
    pub round: bool,
    /// Text only: px size and weight 700.
    pub font_size: f64,
    pub bold: bool,
    /// Text only: the stroke is painted under the fill (a halo; `paint-order: stroke`).
    pub halo: bool,
}

/// The font family every text uses (the SVG's `.rs-figure text` rule).
pub fn font_family() -> &'static str {
    rules(CSS)
        .find(|(sel, _)| *sel == ".rs-figure text")
        .and_then(|(_, decls)| decls.into_iter().find(|(k, _)| *k == "font-family"))
        .map(|(_, v)| v)
        .unwrap_or("sans-serif")
}

/// The figure's background colour.
pub fn background(dark: bool) -> String {
    let mut bg = String::from("#ffffff");
    for (sel, decls) in rules(CSS) {
        if sel == ".rs-figure" {
            for (k, v) in decls {
                if k == "background" {
                    bg = resolve(v, dark).to_string();
                }
            }
        }
    }
    bg
}

/// How `class` is painted on a `text` (`is_text`) or any other shape, in the light or dark
/// theme. Cascade: defaults (SVG: fill black, no stroke), then the text rule, then the class's
/// rule, each colour from the theme's [`PALETTE`].
pub fn paint(class: &str, is_text: bool, dark: bool) -> Paint {
    let mut p = Paint {
        fill: Fill::Color("#000000".into()),
        fill_opacity: 1.0,
        stroke: None,
        stroke_width: 1.0,
        dash: Vec::new(),
        round: false,
        font_size: 16.0,
        bold: false,
        halo: false,
    };
    let own = format!(".{class}");
    for (sel, decls) in rules(CSS).chain(rules(OBS_CSS)).chain(rules(KINDS_CSS)) {
        if (is_text && sel == ".rs-figure text") || sel == own {
            for (k, v) in decls {
                apply(&mut p, k, resolve(v, dark));
            }
        }
    }
    p
}

fn apply(p: &mut Paint, k: &str, v: &str) {
    let num = |v: &str| v.trim_end_matches("px").parse::<f64>().ok();
    match k {
        "fill" => {
            p.fill = if v == "none" {
                Fill::None
            } else if let Some(id) = v.strip_prefix("url(#").and_then(|r| r.strip_suffix(')')) {
                HATCHES
                    .iter()
                    .position(|h| h.id == id)
                    .map_or(Fill::None, Fill::Hatch)
            } else {
                Fill::Color(v.into())
            }
        }
        "fill-opacity" => p.fill_opacity = num(v).unwrap_or(1.0),
        "stroke" => p.stroke = (v != "none").then(|| v.to_string()),
        "stroke-width" => p.stroke_width = num(v).unwrap_or(1.0),
        "stroke-dasharray" => p.dash = v.split_whitespace().filter_map(num).collect(),
        "stroke-linecap" | "stroke-linejoin" => p.round |= v == "round",
        "font-size" => p.font_size = num(v).unwrap_or(16.0),
        "font-weight" => p.bold = v == "700" || v == "bold",
        "paint-order" => p.halo = v.starts_with("stroke"),
        _ => {}
    }
}

/// `(selector, declarations)` of every rule in `css`, one per comma-separated selector.
fn rules(
    css: &'static str,
) -> impl Iterator<Item = (&'static str, Vec<(&'static str, &'static str)>)> {
    css.split('}').flat_map(|rule| {
        let (sels, body) = rule.split_once('{').unwrap_or(("", ""));
        let decls: Vec<(&str, &str)> = body
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .map(|(k, v)| (k.trim(), v.trim().trim_end_matches("!important").trim()))
            .collect();
        sels.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(move |s| (s, decls.clone()))
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::n;

    #[test]
    fn hatches_are_the_svg_patterns() {
        let mut defs = String::from("<defs>");
        for h in HATCHES {
            defs.push_str(&format!(
                r#"<pattern id="{}" width="{s}" height="{s}" patternUnits="userSpaceOnUse" patternTransform="rotate({})"><rect width="{s}" height="{s}" fill="{}"/><line x1="0" y1="0" x2="0" y2="{s}" stroke="{}" stroke-width="{}"/></pattern>"#,
                h.id,
                n(h.angle),
                h.bg,
                h.line,
                n(h.width),
                s = n(h.size),
            ));
        }
        defs.push_str("</defs>");
        assert_eq!(defs, crate::Figure::defs());
    }

    #[test]
    fn the_dark_theme_darkens_only_the_kubelet_down_hatch() {
        assert_eq!(hatches(false), HATCHES);
        let dark = hatches(true);
        assert_eq!(dark[0].id, "rs-p-down");
        assert_ne!(dark[0].bg, HATCHES[0].bg);
        assert_eq!(dark[1..], HATCHES[1..]);
    }

    #[test]
    fn classes_resolve_as_the_svg_cascade() {
        let ready = paint("rs-ready-true", false, false);
        assert_eq!(ready.fill, Fill::Color("#009E73".into()));
        assert_eq!(ready.fill_opacity, 0.35);
        assert_eq!(ready.stroke.as_deref(), Some("#009E73"));
        assert_eq!(ready.stroke_width, 0.5);
        let f = paint("rs-ready-false", false, false);
        assert_eq!(f.fill, Fill::Hatch(3));
        assert_eq!(paint("rs-ep-notready", false, false).dash, vec![3.0, 2.0]);
        let inl = paint("rs-in", true, false);
        assert!(inl.halo && inl.font_size == 9.5 && !inl.bold);
        assert_eq!(inl.fill, Fill::Color("#1a1a1a".into()));
        assert_eq!(inl.stroke.as_deref(), Some("#ffffff"));
        assert_eq!(
            paint("rs-in", true, true).stroke.as_deref(),
            Some("#1b1e23")
        );
        assert_eq!(
            paint("rs-in", true, true).fill,
            Fill::Color("#f2f2f2".into())
        );
        assert!(paint("rs-h1", true, false).bold);
        assert_eq!(paint("rs-probe-ok", false, false).fill, Fill::None);
        assert!(paint("rs-probe-ok", false, false).round);
        assert_eq!(
            paint("rs-badge-text-k", true, true).fill,
            Fill::Color("#ffffff".into())
        );
        assert_eq!(background(false), "#ffffff");
        assert_eq!(background(true), "#1b1e23");
        assert!(font_family().starts_with("\"DejaVu Sans\""));
    }

    #[test]
    fn flatten_puts_the_palette_in_place_of_var() {
        let css = ".a { fill: var(--rs-bg); stroke: var( --rs-fg ); } .b { fill: var(--nope); }";
        assert_eq!(
            flatten(css, false),
            ".a { fill: #ffffff; stroke: #1a1a1a; } .b { fill: var(--nope); }"
        );
        assert!(flatten(css, true).starts_with(".a { fill: #1b1e23;"));
    }

    /// Every class a figure uses has a rule (a typo would paint black).
    #[test]
    fn every_class_in_the_style_has_a_rule() {
        for (sel, decls) in rules(CSS).chain(rules(OBS_CSS)).chain(rules(KINDS_CSS)) {
            assert!(sel.starts_with(".rs-"), "{sel}");
            assert!(!decls.is_empty(), "{sel}");
            for (k, v) in decls {
                if v.starts_with("var(") {
                    assert_ne!(resolve(v, false), v, "{sel} {k}: {v} is not in the palette");
                }
            }
        }
    }
}
