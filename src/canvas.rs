//! The figure in the page, drawn on a canvas (the SVG's ~500 elements cost ~12 ms of style,
//! layout and paint per slider move; the canvas draws it within one frame). The same
//! `restartscope_figure::Shape`s as the SVG export (`Figure::to_svg`), painted with the same
//! style (`restartscope_figure::paint`, read from the SVG's own CSS and hatch patterns), so the
//! screen and the download show one drawing. A canvas costs the browser no style, layout or
//! paint per shape: an SVG of ~500 elements took ~12 ms of main-thread rendering per slider
//! move, this ~2 ms of drawing. Used by `components::lanes`.

use restartscope_figure::paint::{self, Fill};
use restartscope_figure::{Figure, Shape};
use wasm_bindgen::prelude::*;
use web_sys::{CanvasPattern, CanvasRenderingContext2d, HtmlCanvasElement, Path2d};

// The context's style setters taking a JS string made once per class, not a Rust string
// decoded on every call (`web_sys`'s setters take `&str`).
#[wasm_bindgen]
extern "C" {
    /// A `CanvasRenderingContext2D` seen through these setters only.
    type Setters;
    #[wasm_bindgen(method, setter = font)]
    fn set_font(this: &Setters, v: &JsValue);
    #[wasm_bindgen(method, setter = fillStyle)]
    fn set_fill(this: &Setters, v: &JsValue);
    #[wasm_bindgen(method, setter = strokeStyle)]
    fn set_stroke(this: &Setters, v: &JsValue);
    #[wasm_bindgen(method, js_name = fillText)]
    fn fill_text(this: &Setters, text: &JsValue, x: f64, y: f64);
    #[wasm_bindgen(method, js_name = strokeText)]
    fn stroke_text(this: &Setters, text: &JsValue, x: f64, y: f64);
}

/// The most texts kept as JS strings, and paths as `Path2D`s, between draws (a figure has a
/// few hundred; a cache is emptied when it would grow past this).
const TEXTS_KEPT: usize = 4096;

fn js(ctx: &CanvasRenderingContext2d) -> &Setters {
    ctx.unchecked_ref()
}

/// One class's paint, ready for the context. `id` tells styles apart for `Current`.
struct Style {
    id: usize,
    fill: Option<FillStyle>,
    alpha: f64,
    stroke: Option<(String, JsValue)>,
    width: f64,
    dash: (Vec<f64>, JsValue),
    round: bool,
    font: (String, JsValue),
    halo: bool,
    /// A text's style: only texts set the font (a font set costs a CSS parse; rects and
    /// lines of other classes between texts set it back and forth, ~0.5 ms a draw).
    is_text: bool,
}

enum FillStyle {
    Color(String, JsValue),
    Hatch(usize),
}

/// What the context is set to, so a shape of another class sets only what differs.
#[derive(Default)]
struct Current {
    fill: Option<String>,
    /// The hatch pattern set as the fill (`fill` is then `None`).
    hatch: Option<usize>,
    alpha: f64,
    stroke: Option<String>,
    width: f64,
    dash: Vec<f64>,
    cap: Option<bool>,
    join: Option<bool>,
    font: Option<String>,
    align: &'static str,
}

/// Sets the context's `globalAlpha` where it is not `a` already (a filled shape of a
/// translucent class sets it; strokes and opaque fills want 1).
fn alpha(ctx: &CanvasRenderingContext2d, cur: &mut Current, a: f64) {
    if cur.alpha != a {
        ctx.set_global_alpha(a);
        cur.alpha = a;
    }
}

/// The figure px under a pointer at (`client_x`, `client_y`), for a figure of width `fig_w`
/// shown in `rect` (the canvas's box, or an overlay of the same box).
pub fn figure_point(
    fig_w: f64,
    rect: &web_sys::DomRect,
    client_x: f64,
    client_y: f64,
) -> (f64, f64) {
    let k = fig_w / rect.width().max(1.0);
    ((client_x - rect.left()) * k, (client_y - rect.top()) * k)
}

pub struct CanvasFigure {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    dark: bool,
    /// The figure's background in the theme `dark`.
    background: String,
    /// Per (class, is text): its style, made on first use (a figure uses ~40). `Style::id` is
    /// the index.
    styles: Vec<((&'static str, bool), Style)>,
    hatches: Vec<Option<CanvasPattern>>,
    /// The pixel ratio `hatches` were made for (0: to be made, for a new theme).
    hatch_dpr: f64,
    /// Each text drawn, as a JS string: decoded from wasm memory once, not on every draw
    /// (twice for a text with a halo).
    texts: std::collections::BTreeMap<String, JsValue>,
    /// Each path drawn, parsed: a `Path2D` made from its `d` once, not on every draw (a slider
    /// move redraws a figure whose probe glyphs are mostly where they were; each new one decoded
    /// the string from wasm memory and parsed it).
    /// (As `JsValue`s: the same map as `texts`, no second copy of its code in the page.)
    paths: std::collections::BTreeMap<String, JsValue>,
    /// The device px the figure covers (width, rows from the top; `data-rows`): the backing
    /// store may be taller.
    rows: (u32, u32),
}

impl CanvasFigure {
    pub fn new(canvas: HtmlCanvasElement) -> Option<CanvasFigure> {
        // Opaque (the figure paints its own background): the compositor need not blend it.
        let opts = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&opts, &"alpha".into(), &JsValue::FALSE);
        let ctx = canvas
            .get_context_with_context_options("2d", &opts)
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(CanvasFigure {
            canvas,
            ctx,
            dark: false,
            background: paint::background(false),
            styles: Vec::new(),
            hatches: Vec::new(),
            hatch_dpr: 0.0,
            rows: (0, 0),
            texts: std::collections::BTreeMap::new(),
            paths: std::collections::BTreeMap::new(),
        })
    }

    /// Draws `fig` (in `dark` colours or light) at the device pixel ratio `dpr` (`Ui::dpr`).
    pub fn draw(&mut self, fig: &Figure, dark: bool, dpr: f64) {
        if dark != self.dark {
            self.styles.clear();
            self.dark = dark;
            self.background = paint::background(dark);
            self.hatch_dpr = 0.0; // the hatches differ by theme too
        }
        let dpr = dpr.clamp(1.0, 3.0);
        let (w, h) = (
            (fig.width * dpr).round() as u32,
            (fig.height * dpr).round() as u32,
        );
        // The backing store only grows (a new width sets both): a canvas resized drops its
        // pixels and allocates new ones, ~2.3 ms of a slider move that changes the figure's
        // height (crossing the grace period adds the node's rows; a click on the track jumps
        // across it). The element shows the figure's own rows: its aspect ratio is the
        // figure's and `object-fit: cover` at the top (`style/main.css`) crops the rest.
        if self.canvas.width() != w {
            self.canvas.set_width(w);
            self.canvas.set_height(h);
        } else if self.canvas.height() < h {
            self.canvas.set_height(h);
        }
        if self.rows != (w, h) {
            let _ = self
                .canvas
                .style()
                .set_property("aspect-ratio", &format!("{w} / {h}"));
            let _ = self.canvas.set_attribute("data-rows", &h.to_string());
            self.rows = (w, h);
        }
        if dpr != self.hatch_dpr {
            self.hatches = paint::hatches(dark)
                .iter()
                .map(|h| hatch(&self.ctx, h, dpr))
                .collect();
            self.hatch_dpr = dpr;
        }
        let ctx = &self.ctx;
        let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(&self.background);
        // Rows below the figure's, left from a taller one, are cropped but cleared too.
        let all_h = f64::from(self.canvas.height()) / dpr;
        ctx.fill_rect(0.0, 0.0, fig.width, fig.height.max(all_h));
        ctx.set_text_baseline("alphabetic");
        let mut cur = Current {
            alpha: 1.0,
            ..Current::default()
        };
        if self.texts.len() > TEXTS_KEPT {
            self.texts.clear();
        }
        if self.paths.len() > TEXTS_KEPT {
            self.paths.clear();
        }
        let texts = &mut self.texts;
        let paths = &mut self.paths;
        let mut last = usize::MAX;
        for sh in &fig.shapes {
            let key = (sh.class(), matches!(sh, Shape::Text { .. }));
            let i = match self.styles.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    let i = self.styles.len();
                    self.styles.push((key, style(i, key.0, key.1, dark)));
                    i
                }
            };
            let style = &self.styles[i].1;
            if last != style.id {
                set_style(ctx, style, &mut cur);
                last = style.id;
            }
            match sh {
                Shape::Rect { x, y, w, h, .. } => {
                    let (w, h) = (w.max(0.0), h.max(0.0));
                    if fill(ctx, style, &self.hatches, &mut cur) {
                        ctx.fill_rect(*x, *y, w, h);
                    }
                    if style.stroke.is_some() {
                        alpha(ctx, &mut cur, 1.0);
                        ctx.stroke_rect(*x, *y, w, h);
                    }
                }
                Shape::Line { x1, y1, x2, y2, .. } => {
                    alpha(ctx, &mut cur, 1.0);
                    ctx.begin_path();
                    ctx.move_to(*x1, *y1);
                    ctx.line_to(*x2, *y2);
                    ctx.stroke();
                }
                Shape::Path { d, .. } => {
                    let p: &Path2d = match paths.get(d.as_str()) {
                        Some(p) => p.unchecked_ref(),
                        None => match Path2d::new_with_path_string(d) {
                            Ok(p) => paths.entry(d.clone()).or_insert(p.into()).unchecked_ref(),
                            Err(_) => continue,
                        },
                    };
                    if fill(ctx, style, &self.hatches, &mut cur) {
                        ctx.fill_with_path_2d(p);
                    }
                    if style.stroke.is_some() {
                        alpha(ctx, &mut cur, 1.0);
                        ctx.stroke_with_path(p);
                    }
                }
                Shape::Text {
                    x, y, text, anchor, ..
                } => {
                    let align = match *anchor {
                        "middle" => "center",
                        "end" => "right",
                        _ => "left",
                    };
                    if cur.align != align {
                        ctx.set_text_align(align);
                        cur.align = align;
                    }
                    let t = match texts.get(text.as_str()) {
                        Some(t) => t,
                        None => texts
                            .entry(text.clone())
                            .or_insert_with(|| JsValue::from_str(text)),
                    };
                    if style.halo && style.stroke.is_some() {
                        alpha(ctx, &mut cur, 1.0);
                        js(ctx).stroke_text(t, *x, *y);
                    }
                    if fill(ctx, style, &self.hatches, &mut cur) {
                        js(ctx).fill_text(t, *x, *y);
                    }
                }
            }
        }
    }
}

fn style(id: usize, class: &str, is_text: bool, dark: bool) -> Style {
    let p = paint::paint(class, is_text, dark);
    let dash = js_sys::Array::new();
    for d in &p.dash {
        dash.push(&JsValue::from_f64(*d));
    }
    let js = |s: String| {
        let v = JsValue::from_str(&s);
        (s, v)
    };
    Style {
        id,
        fill: match p.fill {
            Fill::None => None,
            Fill::Color(c) => {
                let (c, v) = js(c);
                Some(FillStyle::Color(c, v))
            }
            Fill::Hatch(i) => Some(FillStyle::Hatch(i)),
        },
        alpha: p.fill_opacity,
        stroke: p.stroke.map(js),
        width: p.stroke_width,
        dash: (p.dash, dash.into()),
        round: p.round,
        font: js(format!(
            "{}{}px {}",
            if p.bold { "700 " } else { "" },
            p.font_size,
            paint::font_family()
        )),
        halo: p.halo,
        is_text,
    }
}

/// The stroke, dash, caps, font and fill colour of `s`, where they differ from `cur` (a hatch
/// and an opacity are set per shape, by `fill`).
fn set_style(ctx: &CanvasRenderingContext2d, s: &Style, cur: &mut Current) {
    if let Some((c, v)) = &s.stroke {
        if cur.stroke.as_ref() != Some(c) {
            js(ctx).set_stroke(v);
            cur.stroke = Some(c.clone());
        }
        if cur.width != s.width {
            ctx.set_line_width(s.width);
            cur.width = s.width;
        }
    }
    if cur.dash != s.dash.0 {
        let _ = ctx.set_line_dash(&s.dash.1);
        cur.dash = s.dash.0.clone();
    }
    if cur.cap != Some(s.round) {
        ctx.set_line_cap(if s.round { "round" } else { "butt" });
        cur.cap = Some(s.round);
    }
    let join = s.round || s.halo;
    if cur.join != Some(join) {
        ctx.set_line_join(if join { "round" } else { "miter" });
        cur.join = Some(join);
    }
    if s.is_text && cur.font.as_ref() != Some(&s.font.0) {
        js(ctx).set_font(&s.font.1);
        cur.font = Some(s.font.0.clone());
    }
}

/// Prepares the fill of `s`; false when it has none.
fn fill(
    ctx: &CanvasRenderingContext2d,
    s: &Style,
    hatches: &[Option<CanvasPattern>],
    cur: &mut Current,
) -> bool {
    match &s.fill {
        None => false,
        Some(FillStyle::Color(c, v)) => {
            if cur.fill.as_ref() != Some(c) {
                js(ctx).set_fill(v);
                cur.fill = Some(c.clone());
                cur.hatch = None;
            }
            alpha(ctx, cur, s.alpha.min(1.0));
            true
        }
        Some(FillStyle::Hatch(i)) => match hatches.get(*i).and_then(Option::as_ref) {
            Some(p) => {
                if cur.hatch != Some(*i) {
                    ctx.set_fill_style_canvas_pattern(p);
                    cur.hatch = Some(*i);
                    cur.fill = None;
                }
                alpha(ctx, cur, 1.0);
                true
            }
            None => false,
        },
    }
}

/// A hatch as a repeating canvas pattern: the SVG pattern's lines (a tile `size` px wide with a
/// line on its edge, rotated ±45° about the origin) as the diagonal of a square tile `size·√2`
/// px wide, drawn in whole device pixels and scaled to that size.
fn hatch(ctx: &CanvasRenderingContext2d, h: &paint::Hatch, dpr: f64) -> Option<CanvasPattern> {
    let doc = web_sys::window()?.document()?;
    let tile: HtmlCanvasElement = doc.create_element("canvas").ok()?.dyn_into().ok()?;
    let n = (h.size * std::f64::consts::SQRT_2 * dpr).round().max(2.0);
    tile.set_width(n as u32);
    tile.set_height(n as u32);
    let t: CanvasRenderingContext2d = tile.get_context("2d").ok()??.dyn_into().ok()?;
    t.set_fill_style_str(h.bg);
    t.fill_rect(0.0, 0.0, n, n);
    t.set_stroke_style_str(h.line);
    // Tile px per CSS px, once the pattern is scaled to `size·√2` CSS px.
    let f = n / (h.size * std::f64::consts::SQRT_2);
    // The SVG tile clips its line (`width` wide, centred on x = 0) to the tile: what shows is a
    // band `width / 2` wide from the line's axis inwards. Rotated by +45° that is "/" with
    // 0 ≤ (x + y)/√2 ≤ width/2; by −45°, "\" with 0 ≤ (x − y)/√2 ≤ width/2 (y grows downwards).
    t.set_line_width(h.width / 2.0 * f);
    let o = h.width / 4.0 * std::f64::consts::SQRT_2 * f;
    for k in [-1.0, 0.0, 1.0, 2.0] {
        let x = k * n + o;
        t.begin_path();
        t.move_to(x, 0.0);
        t.line_to(if h.angle > 0.0 { x - n } else { x + n }, n);
        t.stroke();
    }
    let pattern = ctx
        .create_pattern_with_html_canvas_element(&tile, "repeat")
        .ok()??;
    // The tile is `n` device px; it must span exactly `size·√2` CSS px (the context is scaled
    // by `dpr`), so the lines fall where the SVG's do.
    let m = web_sys::DomMatrix::new()
        .ok()?
        .scale_self(h.size * std::f64::consts::SQRT_2 / n);
    pattern.set_transform(m.unchecked_ref());
    Some(pattern)
}
