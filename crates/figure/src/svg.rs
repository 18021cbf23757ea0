//! SVG output: the embedded style (every `rs-` class), the hatch patterns, number and text
//! escaping, and [`Figure::to_svg`] / [`Figure::to_svg_inner`]. The CLI writes the document; the
//! web app inserts the same string into the page.

use crate::figure::{Figure, Shape};
use crate::paint::{theme_css, PALETTE};

pub(crate) const CSS: &str = r#".rs-figure { background: var(--rs-bg); }
.rs-figure text { font-family: "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; fill: var(--rs-fg); }
.rs-bg { fill: var(--rs-bg); }
.rs-h1 { font-size: 14px; font-weight: 700; }
.rs-h2 { font-size: 12.5px; font-weight: 700; }
.rs-meta { font-size: 10.5px; fill: var(--rs-muted); }
.rs-label { font-size: 10.5px; fill: var(--rs-muted); }
.rs-label-pod { font-size: 11px; font-weight: 700; }
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

/// Hatch patterns referenced by the classes (presentation attributes, so they need no CSS).
const DEFS: &str = concat!(
    "<defs>",
    r##"<pattern id="rs-p-down" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f4f4f4"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9a9a9a" stroke-width="1.5"/></pattern>"##,
    r##"<pattern id="rs-p-unknown" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fdf0d5"/><line x1="0" y1="0" x2="0" y2="6" stroke="#E69F00" stroke-width="2"/></pattern>"##,
    r##"<pattern id="rs-p-noexec" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="5" height="5" fill="#fbe3d6"/><line x1="0" y1="0" x2="0" y2="5" stroke="#D55E00" stroke-width="1.8"/></pattern>"##,
    r##"<pattern id="rs-p-false" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fbe3d6"/><line x1="0" y1="0" x2="0" y2="6" stroke="#D55E00" stroke-width="1.6"/></pattern>"##,
    r##"<pattern id="rs-p-serving" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" fill="#e3f2fb"/><line x1="0" y1="0" x2="0" y2="6" stroke="#56B4E9" stroke-width="1.6"/></pattern>"##,
    r##"<pattern id="rs-p-term" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f7e6ef"/><line x1="0" y1="0" x2="0" y2="6" stroke="#CC79A7" stroke-width="1.6"/></pattern>"##,
    "</defs>"
);

/// Number for SVG: one decimal, no trailing `.0`.
pub fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Escapes text for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

impl Figure {
    /// The style [`Figure::to_svg`] embeds: the theme's custom properties, light and dark
    /// ([`paint::theme_css`](crate::paint::theme_css)), and the class rules. Scope: an
    /// `<svg class="rs-figure">`.
    pub fn css() -> String {
        format!(
            "{}{}{CSS}",
            theme_css(&PALETTE),
            crate::paint::HATCH_THEME_CSS
        )
    }

    /// Hatch pattern definitions (also part of [`Figure::to_svg_inner`]).
    pub fn defs() -> &'static str {
        DEFS
    }

    /// The shapes (and the hatch `<defs>` they reference), for an `<svg class="rs-figure">`
    /// whose page includes [`Figure::css`].
    pub fn to_svg_inner(&self) -> String {
        let mut s = String::with_capacity(64 * self.shapes.len() + DEFS.len());
        s.push_str(DEFS);
        s.push('\n');
        for sh in &self.shapes {
            s.push_str(&sh.to_svg());
            s.push('\n');
        }
        s
    }

    /// The root element's `width`, `height` and `viewBox` as the SVG writes them.
    pub fn size_attrs(&self) -> [(&'static str, String); 3] {
        let (w, h) = (n(self.width), n(self.height));
        [
            ("width", w.clone()),
            ("height", h.clone()),
            ("viewBox", format!("0 0 {w} {h}")),
        ]
    }

    /// A standalone SVG document: xmlns, viewBox, embedded style, no external references.
    pub fn to_svg(&self) -> String {
        self.document(&Figure::css(), &self.to_svg_inner())
    }

    /// The standalone document around `inner`, with `css` as its style.
    pub(crate) fn document(&self, css: &str, inner: &str) -> String {
        let (w, h) = (n(self.width), n(self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"rs-figure\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"rs-title\">\n<title id=\"rs-title\">{}</title>\n<style>\n{css}</style>\n{inner}</svg>\n",
            esc(&self.title),
        )
    }
}

impl Shape {
    /// The element, on one line (no newline).
    pub fn to_svg(&self) -> String {
        let mut s = String::from("<");
        s.push_str(self.tag());
        for (name, value) in self.attrs() {
            s.push_str(&format!(r#" {name}="{}""#, esc(&value)));
        }
        match (self.content(), self.title()) {
            (Some(text), _) => s.push_str(&format!(">{}</{}>", esc(text), self.tag())),
            (None, Some(t)) => s.push_str(&format!("><title>{}</title></{}>", esc(t), self.tag())),
            (None, None) => s.push_str("/>"),
        }
        s
    }

    /// The SVG element that draws it.
    pub fn tag(&self) -> &'static str {
        match self {
            Shape::Rect { .. } => "rect",
            Shape::Line { .. } => "line",
            Shape::Text { .. } => "text",
            Shape::Path { .. } => "path",
        }
    }

    /// Its `rs-` class (what [`Figure::css`] and [`crate::paint`] style).
    pub fn class(&self) -> &'static str {
        match self {
            Shape::Rect { class, .. }
            | Shape::Line { class, .. }
            | Shape::Text { class, .. }
            | Shape::Path { class, .. } => class,
        }
    }

    /// Its attributes in document order, unescaped, numbers as the SVG writes them. The same
    /// kind of shape always has the same names in the same order (the web app patches a drawn
    /// figure attribute by attribute).
    pub fn attrs(&self) -> Vec<(&'static str, String)> {
        match self {
            Shape::Rect {
                x, y, w, h, class, ..
            } => vec![
                ("x", n(*x)),
                ("y", n(*y)),
                ("width", n(w.max(0.0))),
                ("height", n(h.max(0.0))),
                ("class", class.to_string()),
            ],
            Shape::Line {
                x1,
                y1,
                x2,
                y2,
                class,
            } => vec![
                ("x1", n(*x1)),
                ("y1", n(*y1)),
                ("x2", n(*x2)),
                ("y2", n(*y2)),
                ("class", class.to_string()),
            ],
            Shape::Text {
                x,
                y,
                class,
                anchor,
                ..
            } => vec![
                ("x", n(*x)),
                ("y", n(*y)),
                ("class", class.to_string()),
                ("text-anchor", anchor.to_string()),
            ],
            Shape::Path { d, class, .. } => vec![("d", d.clone()), ("class", class.to_string())],
        }
    }

    /// The text of a `<text>`.
    pub fn content(&self) -> Option<&str> {
        match self {
            Shape::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The tooltip (a `<title>` child) of a rect or path.
    pub fn title(&self) -> Option<&str> {
        match self {
            Shape::Rect { title, .. } | Shape::Path { title, .. } => title.as_deref(),
            _ => None,
        }
    }
}
