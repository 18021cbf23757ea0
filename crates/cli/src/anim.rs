//! The animation's and the pictures' options, checked: `--animate [--duration DUR]` (`simulate`
//! and `tour`) and `--format png|gif`'s `--scale`, `--theme`, `--fps`: pictures for the places that strip
//! iframes and scripts (GitHub, KEPs) or play only GIFs (slides). Called by
//! `main.rs` and `tour.rs`; a bad value is a one-line [`UserError`] naming the flag (exit 2).

use crate::{args, duration, in_range, raster, UserError};
use restartscope_figure::Animation;

/// `--format png|gif`'s options: `--scale`, `--theme`, and for a GIF `--fps` and `--duration`
/// (`--animate` is allowed and changes nothing: a GIF is animated).
pub fn raster_args(
    kind: raster::Kind,
    anim: &args::AnimOpts,
    o: &args::RasterOpts,
) -> Result<raster::RasterArgs, UserError> {
    use raster::{Kind, RasterArgs};
    let mut a = RasterArgs {
        kind,
        scale: RasterArgs::default_scale(kind),
        dark: false,
        fps: RasterArgs::FPS,
        anim: Animation::default(),
    };
    if let Some(v) = &o.scale {
        let (lo, hi) = RasterArgs::SCALE_RANGE;
        a.scale = v
            .parse::<f32>()
            .ok()
            .filter(|s| (lo..=hi).contains(s))
            .ok_or_else(|| {
                format!(
                    "invalid --scale {v:?}; use a number from {lo} to {hi} (pixels per figure px)"
                )
            })?;
    }
    if let Some(v) = &o.theme {
        a.dark = match v.as_str() {
            "light" => false,
            "dark" => true,
            _ => return Err(format!("invalid --theme {v:?}; accepted values: light, dark").into()),
        };
    }
    match kind {
        Kind::Png => {
            if o.fps.is_some() {
                return Err("--fps goes with --format gif".into());
            }
            if anim.animate || anim.duration.is_some() {
                let flag = if anim.animate {
                    "--animate"
                } else {
                    "--duration"
                };
                return Err(format!(
                    "{flag} goes with --format svg or gif (a PNG is the final frame)"
                )
                .into());
            }
        }
        Kind::Gif => {
            if let Some(v) = &o.fps {
                let (lo, hi) = RasterArgs::FPS_RANGE;
                a.fps = v
                    .parse::<u32>()
                    .ok()
                    .filter(|f| (lo..=hi).contains(f))
                    .ok_or_else(|| format!("invalid --fps {v:?}; use a whole number of frames per second from {lo} to {hi}"))?;
            }
            let with_anim = args::AnimOpts {
                animate: true,
                duration: anim.duration.clone(),
            };
            a.anim = animation(&with_anim)?.unwrap_or_default();
        }
    }
    Ok(a)
}

/// `--animate [--duration DUR]` (shared by `simulate` and `tour`): `None` without `--animate`.
pub fn animation(o: &args::AnimOpts) -> Result<Option<Animation>, UserError> {
    let Some(value) = &o.duration else {
        return Ok(o.animate.then(Animation::default));
    };
    if !o.animate {
        return Err("--duration goes with --animate".into());
    }
    let v = duration("--duration", value)?;
    let (lo, hi) = Animation::RANGE_MS;
    in_range(
        "--duration",
        value,
        "the animation's sweep",
        v,
        (lo as f64 / 1000.0, hi as f64 / 1000.0),
    )?;
    Ok(Some(Animation::new((v * 1000.0).round() as u64)))
}
