//! `simulate --format png|gif`: the figure as pictures, for the places that show
//! neither SVG nor its CSS animation (slides: Google Slides and Keynote play a GIF; chat, issue
//! trackers that strip SVG). Called by `main.rs` once the options are checked ([`RasterArgs`]).
//!
//! Both are drawn from the SVG the CLI writes: the same shapes (`Figure::to_svg_inner`, or
//! `Figure::moment_parts` for a frame of the animation), with the style in one theme
//! (`Figure::css_flat`: resvg reads no `var()` and no media query, so the theme is chosen
//! here, light by default). resvg (<https://github.com/linebender/resvg>) parses and paints it,
//! its text shaped with the system's fonts (fontdb scans the system font directories; Debian's
//! `fonts-dejavu-core` gives the style's first family, DejaVu Sans); without a font it fails
//! rather than draw a figure without text.
//!
//! - PNG: the static figure (what `--format svg` draws), `--scale` pixels per figure px,
//!   encoded by tiny-skia.
//! - GIF: the animated SVG's frames at `--fps` over `--duration` (the playhead at
//!   t = i / fps of the sweep, what lies after it veiled, the counters at their value then),
//!   then the frame the animated SVG holds during its pause (the playhead at the end), shown
//!   for that pause; it loops forever (NETSCAPE2.0). Each frame after the first is only the
//!   box of the pixels that changed, the unchanged ones in it transparent, drawn over the
//!   previous frame (disposal "keep"): the playhead moves a few pixels per frame, so frames
//!   are small. Each frame's palette is its own (`gif::Frame::from_rgba_speed`: exact when the
//!   box has at most 256 colours, NeuQuant otherwise), so the figure keeps its colours.

use restartscope_figure::{paint, Animation, Figure};
use restartscope_sim::{Ms, Trace};
use resvg::{tiny_skia, usvg};
use std::sync::Arc;

/// PNG or GIF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Png,
    Gif,
}

/// The checked options of `--format png|gif`.
#[derive(Clone, Debug)]
pub struct RasterArgs {
    pub kind: Kind,
    /// Pixels per figure px.
    pub scale: f32,
    pub dark: bool,
    /// GIF: frames per second of the sweep.
    pub fps: u32,
    /// GIF: the sweep and the hold at the end (`--duration`, the animated SVG's pause).
    pub anim: Animation,
}

impl RasterArgs {
    /// `--scale`'s default: 2 for a PNG (sharp on a high-density screen; GitHub shrinks it to
    /// the column, where it reads at the SVG's size), 1 for a GIF (four times the pixels in
    /// every frame would quadruple its size and its time).
    pub fn default_scale(kind: Kind) -> f32 {
        match kind {
            Kind::Png => 2.0,
            Kind::Gif => 1.0,
        }
    }
    pub const FPS: u32 = 10;
    pub const FPS_RANGE: (u32, u32) = (1, 25);
    pub const SCALE_RANGE: (f32, f32) = (0.5, 4.0);
    /// NeuQuant's sampling (1 best, 30 fastest) where a frame has more than 256 colours. It
    /// hardly matters here: only the first frame is large. long-restart's GIF (20 s, 10 fps),
    /// measured: speed 1 448,008 bytes in 4.3 s (user CPU, a debug build with these crates
    /// optimised), 10 446,148 bytes in 3.4 s, 20 445,284 in 3.5 s, 30 445,644 in 3.8 s.
    const SPEED: i32 = 10;
}

/// The parser's options, with the system's fonts. An error when no font can be found for the
/// figure's text.
fn options() -> Result<usvg::Options<'static>, String> {
    let mut db = usvg::fontdb::Database::new();
    db.load_system_fonts();
    let families = [
        usvg::fontdb::Family::Name("DejaVu Sans"),
        usvg::fontdb::Family::SansSerif,
    ];
    let query = usvg::fontdb::Query {
        families: &families,
        ..usvg::fontdb::Query::default()
    };
    if db.query(&query).is_none() {
        // The generic family may name a font that is not installed: take any.
        let any = db
            .faces()
            .find_map(|f| f.families.first().map(|(n, _)| n.clone()));
        match any {
            Some(name) => db.set_sans_serif_family(name),
            _ => {
                return Err(format!(
                    "no font found for the figure's text ({} faces in the system font directories): install DejaVu Sans (Debian: apt-get install fonts-dejavu-core)",
                    db.len()
                ))
            }
        }
    }
    Ok(usvg::Options {
        fontdb: Arc::new(db),
        ..usvg::Options::default()
    })
}

/// An SVG document parsed with `opt`.
fn parse(svg: &str, opt: &usvg::Options) -> Result<usvg::Tree, String> {
    usvg::Tree::from_str(svg, opt).map_err(|e| format!("cannot draw the figure: {e}"))
}

/// One SVG document drawn at `scale` on the figure's background.
fn draw(
    svg: &str,
    opt: &usvg::Options,
    scale: f32,
    dark: bool,
) -> Result<tiny_skia::Pixmap, String> {
    let tree = parse(svg, opt)?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("figure too small")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("cannot draw {}×{} px", size.width(), size.height()))?;
    pixmap.fill(parse_hex(&paint::background(dark)));
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// `#rrggbb` as an opaque colour (white if it is not one).
fn parse_hex(s: &str) -> tiny_skia::Color {
    let v = u32::from_str_radix(s.trim_start_matches('#'), 16).unwrap_or(0xffffff);
    tiny_skia::Color::from_rgba8((v >> 16) as u8, (v >> 8) as u8, v as u8, 255)
}

/// The static figure as PNG bytes.
pub fn png(fig: &Figure, a: &RasterArgs) -> Result<Vec<u8>, String> {
    let opt = options()?;
    let svg = fig.document(&Figure::css_flat(a.dark), &fig.to_svg_inner());
    draw(&svg, &opt, a.scale, a.dark)?
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// The moment `t` of the animation drawn in two layers (`Figure::moment_layers`): the figure's
/// shapes, drawn again only when they differ from `base`'s (the counters changed), and the
/// veils and playhead over them. Painted in the order of the moment's SVG
/// (`Figure::moment_parts`), so the pixels are the ones that SVG draws (tests/raster.rs
/// compares the two).
fn moment(
    fig: &Figure,
    traces: &[Trace],
    t: Ms,
    a: &RasterArgs,
    opt: &usvg::Options,
    base: &mut Option<(String, tiny_skia::Pixmap)>,
) -> Result<tiny_skia::Pixmap, String> {
    let (css, under, over) = fig.moment_layers(traces, t);
    let style = format!(
        "{}{}",
        Figure::css_flat(a.dark),
        paint::flatten(&css, a.dark)
    );
    if base.as_ref().is_none_or(|(u, _)| *u != under) {
        let pm = draw(&fig.document(&style, &under), opt, a.scale, a.dark)?;
        *base = Some((under, pm));
    }
    let mut pm = base.as_ref().map(|(_, p)| p.clone()).ok_or("no frame")?;
    let tree = parse(&fig.document(&style, &over), opt)?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(a.scale, a.scale),
        &mut pm.as_mut(),
    );
    Ok(pm)
}

/// The trace time (ms) at `ms` into a sweep of `sweep_ms` across the figure's window.
fn time_at(fig: &Figure, ms: u64, sweep_ms: u64) -> Ms {
    let f = ms as f64 / sweep_ms.max(1) as f64;
    fig.t0_ms + ((fig.t1_ms - fig.t0_ms) as f64 * f).round() as Ms
}

/// Frames of the sweep (one per 1/fps); the GIF has one more, the held last frame.
fn sweep_frames(a: &RasterArgs) -> usize {
    ((a.anim.duration_ms * a.fps as u64) as f64 / 1000.0)
        .round()
        .max(1.0) as usize
}

/// The animation as GIF bytes (`traces`: the ones the figure was laid out from).
pub fn gif(fig: &Figure, traces: &[Trace], a: &RasterArgs) -> Result<Vec<u8>, String> {
    let opt = options()?;
    let n = sweep_frames(a);
    let enc_err = |e: gif::EncodingError| format!("cannot encode the GIF: {e}");
    // Delays in 1/100 s, rounded where they add up (7 fps: 14, 14, 15, …).
    let cs = |i: usize| (i as f64 * 100.0 / a.fps as f64).round() as u64;
    // Frame i: the moment i / fps into the sweep, shown 1 / fps; the last (i = n), the sweep's
    // end held for the pause.
    let when = |i: usize| -> (Ms, u64) {
        let (ms, delay) = if i < n {
            ((i as u64 * 1000) / a.fps as u64, cs(i + 1) - cs(i))
        } else {
            (a.anim.duration_ms, a.anim.pause_ms.div_ceil(10).max(1))
        };
        let t = time_at(fig, ms.min(a.anim.duration_ms), a.anim.duration_ms);
        (t, delay)
    };
    let mut base = None;
    let mut frame_at = |i: usize| -> Result<(tiny_skia::Pixmap, u64), String> {
        let (t, delay) = when(i);
        Ok((moment(fig, traces, t, a, &opt, &mut base)?, delay))
    };
    let (first, delay) = frame_at(0)?;
    let (w, h) = (dim(first.width())?, dim(first.height())?);
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &[]).map_err(enc_err)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(enc_err)?;
        let mut px = first.data().to_vec();
        let mut frame = gif::Frame::from_rgba_speed(w, h, &mut px, RasterArgs::SPEED);
        let mut prev = first;
        let mut delay = delay;
        for i in 1..=n + 1 {
            frame.delay = delay.min(u16::MAX as u64) as u16;
            frame.dispose = gif::DisposalMethod::Keep;
            enc.write_frame(&frame).map_err(enc_err)?;
            if i > n {
                break;
            }
            let (pm, d) = frame_at(i)?;
            frame = changed(&prev, &pm)?;
            prev = pm;
            delay = d;
        }
    }
    Ok(out)
}

fn dim(v: u32) -> Result<u16, String> {
    u16::try_from(v).map_err(|_| format!("a GIF is at most 65535 px wide or high, not {v}"))
}

/// The box of `next`'s pixels that differ from `prev`, the unchanged ones in it transparent
/// (one pixel when nothing changed). The pixmaps are opaque: premultiplied RGBA is plain RGBA.
/// Rows and 64-byte runs are compared as slices (fast in a debug build too).
fn changed(
    prev: &tiny_skia::Pixmap,
    next: &tiny_skia::Pixmap,
) -> Result<gif::Frame<'static>, String> {
    const RUN: usize = 64;
    let w = next.width() as usize;
    let stride = w * 4;
    let (a, b) = (prev.data(), next.data());
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (ra, rb)) in a
        .chunks_exact(stride)
        .zip(b.chunks_exact(stride))
        .enumerate()
    {
        if ra == rb {
            continue;
        }
        let runs = stride.div_ceil(RUN);
        let run = |k: usize| (k * RUN)..((k + 1) * RUN).min(stride);
        let first = (0..runs).find(|&k| ra[run(k)] != rb[run(k)]).unwrap_or(0);
        let last = (0..runs)
            .rev()
            .find(|&k| ra[run(k)] != rb[run(k)])
            .unwrap_or(first);
        let lo = run(first).start
            + (0..RUN)
                .find(|i| ra[run(first).start + i] != rb[run(first).start + i])
                .unwrap_or(0);
        let end = run(last).end;
        let hi = (run(last).start..end)
            .rev()
            .find(|&i| ra[i] != rb[i])
            .unwrap_or(lo);
        x0 = x0.min(lo / 4);
        x1 = x1.max(hi / 4);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 == usize::MAX {
        (x0, y0, x1, y1) = (0, 0, 0, 0);
    }
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut px = Vec::with_capacity(bw * bh * 4);
    for y in y0..=y1 {
        let row = y * stride;
        let (ra, rb) = (
            &a[row + x0 * 4..row + (x1 + 1) * 4],
            &b[row + x0 * 4..row + (x1 + 1) * 4],
        );
        if ra == rb {
            px.resize(px.len() + bw * 4, 0);
            continue;
        }
        for (p, q) in ra.chunks_exact(4).zip(rb.chunks_exact(4)) {
            px.extend_from_slice(if p == q { &[0, 0, 0, 0] } else { q });
        }
    }
    let mut f =
        gif::Frame::from_rgba_speed(dim(bw as u32)?, dim(bh as u32)?, &mut px, RasterArgs::SPEED);
    f.left = dim(x0 as u32)?;
    f.top = dim(y0 as u32)?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_figure::{layout, LayoutOpts};
    use restartscope_sim::{presets, simulate_policy, Policy};

    /// Drawn in layers, a moment has the pixels of its SVG drawn as one document.
    #[test]
    fn the_layers_draw_the_moments_svg() {
        let sc = (presets::find("long-restart").unwrap().build)();
        let traces: Vec<Trace> = Policy::BOTH
            .iter()
            .map(|p| simulate_policy(&sc, *p).unwrap())
            .collect();
        let fig = layout(&traces, &LayoutOpts::default());
        let opt = options().unwrap();
        for dark in [false, true] {
            let a = RasterArgs {
                kind: Kind::Gif,
                scale: 1.0,
                dark,
                fps: 10,
                anim: Animation::default(),
            };
            let mut base = None;
            for f in [0.0, 0.3, 0.55, 1.0] {
                let t = fig.t0_ms + ((fig.t1_ms - fig.t0_ms) as f64 * f) as Ms;
                let layered = moment(&fig, &traces, t, &a, &opt, &mut base).unwrap();
                let (css, inner) = fig.moment_parts(&traces, t);
                let style = format!("{}{}", Figure::css_flat(dark), paint::flatten(&css, dark));
                let whole = draw(&fig.document(&style, &inner), &opt, 1.0, dark).unwrap();
                assert!(layered.data() == whole.data(), "t = {t} ms, dark {dark}");
            }
        }
    }
}
