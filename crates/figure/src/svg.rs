//! SVG output: the embedded style (every `rs-` class), the hatch patterns, number and text
//! escaping, and [`Figure::to_svg`] / [`Figure::to_svg_inner`]. The CLI writes the document; the
//! web app inserts the same string into the page.

use crate::figure::{Figure, Shape};
use crate::paint::{theme_css, CSS, KINDS_CSS, OBS_CSS, PALETTE};

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
    let mut out = String::new();
    push_n(&mut out, v);
    out
}

/// Appends [`n`]`(v)` to `out`, without a string of its own: a path's points are written
/// straight into its `d`.
pub fn push_n(out: &mut String, v: f64) {
    // In tenths as an integer: the same digits as `{:.1}` of the rounded value (that value is
    // the double nearest k/10, which prints as k/10), without the float formatter's exact
    // mode, a fifth of the figure's layout time on a slider move.
    let k = (v * 10.0).round();
    if !k.is_finite() || k.abs() >= 1e15 {
        let r = k / 10.0;
        out.push_str(&if r == r.trunc() {
            format!("{}", r as i64)
        } else {
            format!("{r:.1}")
        });
        return;
    }
    let k = k as i64;
    if k < 0 {
        out.push('-');
    }
    let a = k.unsigned_abs();
    push_u64(out, a / 10);
    if !a.is_multiple_of(10) {
        out.push('.');
        out.push((b'0' + (a % 10) as u8) as char);
    }
}

/// The decimal digits of `v`.
fn push_u64(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
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

    /// [`Figure::css`] in one theme, for a renderer without custom properties or media queries
    /// (resvg: the CLI's PNG and GIF): the class rules with the palette's light or dark values
    /// in place of `var()` ([`paint::flatten`](crate::paint::flatten)).
    pub fn css_flat(dark: bool) -> String {
        crate::paint::flatten(&format!("{}{CSS}", crate::paint::HATCH_THEME_CSS), dark)
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
        let mut css = Figure::css();
        if self.draws_observed() {
            css.push_str(OBS_CSS);
        }
        self.document(&css, &self.to_svg_inner())
    }

    /// The style of the observed lanes (`LayoutOpts::observed`), which [`Figure::css`] leaves
    /// out: [`Figure::to_svg`] adds it when the figure draws one; a host drawing such a figure
    /// with [`Figure::to_svg_inner`] adds it to [`Figure::css`].
    pub fn observed_css() -> &'static str {
        OBS_CSS
    }

    /// Whether an observed lane (or its legend entry) is drawn.
    pub fn draws_observed(&self) -> bool {
        self.shapes
            .iter()
            .any(|s| s.class().starts_with("rs-obs-") || s.class() == "rs-label-obs")
    }

    /// The style of restarts other than the kubelet's (a runtime restart, a node reboot, node
    /// Ready=False), which [`Figure::css`] leaves out: [`Figure::document`] adds it when the
    /// figure draws one; a host drawing such a figure with [`Figure::to_svg_inner`] adds it.
    pub fn kinds_css() -> &'static str {
        KINDS_CSS
    }

    /// Whether a runtime restart, a node reboot or node Ready=False is drawn.
    pub fn draws_kinds(&self) -> bool {
        self.shapes
            .iter()
            .any(|s| matches!(s.class(), "rs-rtdown" | "rs-nodedown" | "rs-node-false"))
    }

    /// The standalone document around `inner` (the root element, its title and size), with
    /// `css` as its style (and [`Figure::kinds_css`] when the figure draws those marks).
    pub fn document(&self, css: &str, inner: &str) -> String {
        let kinds;
        let css = if self.draws_kinds() && !css.contains(".rs-rtdown") {
            kinds = format!("{css}{KINDS_CSS}");
            kinds.as_str()
        } else {
            css
        };
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

#[cfg(test)]
mod n_tests {
    use super::n;

    /// The formula `n` replaced: `{:.1}` of the value rounded to tenths.
    fn by_formatter(v: f64) -> String {
        let r = (v * 10.0).round() / 10.0;
        if r == r.trunc() {
            format!("{}", r as i64)
        } else {
            format!("{r:.1}")
        }
    }

    #[test]
    fn the_same_digits_as_the_float_formatter() {
        // Ties at the hundredths (x.x5, exact in binary or not), negatives, -0, large values.
        let mut vs = vec![
            0.0, -0.0, 0.05, 0.25, -0.25, 0.75, 1.25, -1.05, 999.95, -0.04, 1e14,
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x % 4_000_000) as f64 / 1000.0 - 2000.0;
            vs.push(v);
            vs.push(v / 7.0);
            vs.push((x % 40_000) as f64 / 100.0 + 0.005);
        }
        for v in vs {
            assert_eq!(n(v), by_formatter(v), "n({v:?})");
        }
        assert_eq!(n(f64::NAN), by_formatter(f64::NAN));
    }
}
