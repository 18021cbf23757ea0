//! `simulate --format png|gif`: the PNG is the static figure at `--scale` (2 by
//! default), drawn with its text and its colours; the GIF is the animated SVG's frames
//! (`--duration` × `--fps`, then the held last frame), loops forever, its playhead moves, and
//! stays under a size budget. Bad values exit 2 naming the flag; binary output refuses a
//! terminal. Decoded with the `gif` and `png` crates. The frames decoded here are written as
//! PNG to Cargo's test temp dir (`raster-*.png`) for a look.

mod common;

use common::{fails, ok, run};
use std::path::{Path, PathBuf};

/// The GIF of long-restart at the defaults (20 s at 10 fps, scale 1) stays under this size
/// (measured: 446,148 bytes).
const GIF_BUDGET: usize = 560 * 1024;
/// The PNG of long-restart at the default scale 2 (measured: 275,293 bytes).
const PNG_BUDGET: usize = 400 * 1024;

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// The figure's size in px, as the SVG says.
fn svg_size(preset: &str) -> (u32, u32) {
    let svg = ok(&["simulate", "--preset", preset, "--format", "svg"]);
    let attr = |name: &str| -> u32 {
        let i = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let v: f64 = svg[i..i + svg[i..].find('"').unwrap()].parse().unwrap();
        v.round() as u32
    };
    (attr("width"), attr("height"))
}

/// Writes the output to a file and returns its bytes.
fn make(name: &str, args: &[&str]) -> Vec<u8> {
    let path = temp(name);
    let p = path.to_str().unwrap();
    let mut all = args.to_vec();
    all.extend_from_slice(&["--out", p]);
    assert_eq!(ok(&all), "", "{args:?}: nothing on stdout with --out");
    std::fs::read(&path).unwrap()
}

struct Png {
    w: u32,
    h: u32,
    rgba: Vec<u8>,
}

fn decode_png(bytes: &[u8]) -> Png {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut r = dec.read_info().expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    Png {
        w: info.width,
        h: info.height,
        rgba: buf,
    }
}

fn write_png(path: &Path, w: u32, h: u32, rgba: &[u8]) {
    let f = std::fs::File::create(path).unwrap();
    let mut e = png::Encoder::new(std::io::BufWriter::new(f), w, h);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    e.write_header().unwrap().write_image_data(rgba).unwrap();
}

/// Whether a pixel within `tol` of `rgb` is in the image.
fn has_colour(rgba: &[u8], rgb: [u8; 3], tol: u8) -> bool {
    rgba.chunks_exact(4)
        .any(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= tol))
}

/// A decoded GIF: its size, loop count, each frame's delay and the whole picture after it.
struct Gif {
    w: u32,
    h: u32,
    repeat: gif::Repeat,
    delays: Vec<u16>,
    frames: Vec<Vec<u8>>,
}

fn decode_gif(bytes: &[u8]) -> Gif {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).expect("a GIF");
    let (w, h) = (dec.width() as u32, dec.height() as u32);
    let mut canvas = vec![0u8; (w * h * 4) as usize];
    let (mut delays, mut frames) = (Vec::new(), Vec::new());
    while let Some(f) = dec.read_next_frame().expect("a frame") {
        assert!(
            matches!(
                f.dispose,
                gif::DisposalMethod::Keep | gif::DisposalMethod::Any
            ),
            "frames are drawn over the previous one"
        );
        for y in 0..f.height as u32 {
            for x in 0..f.width as u32 {
                let s = ((y * f.width as u32 + x) * 4) as usize;
                let px = &f.buffer[s..s + 4];
                if px[3] == 0 {
                    continue;
                }
                let d = (((y + f.top as u32) * w + x + f.left as u32) * 4) as usize;
                canvas[d..d + 4].copy_from_slice(px);
            }
        }
        delays.push(f.delay);
        frames.push(canvas.clone());
    }
    let repeat = dec.repeat();
    Gif {
        w,
        h,
        repeat,
        delays,
        frames,
    }
}

#[test]
fn the_png_is_the_static_figure_with_text_and_colours() {
    let (w, h) = svg_size("long-restart");
    let bytes = make(
        "lr.png",
        &["simulate", "--preset", "long-restart", "--format", "png"],
    );
    eprintln!("long-restart PNG (scale 2): {} bytes", bytes.len());
    assert!(bytes.len() <= PNG_BUDGET, "{} bytes", bytes.len());
    let png = decode_png(&bytes);
    assert_eq!((png.w, png.h), (2 * w, 2 * h), "scale 2 by default");
    // Not blank: the background, the kubelet's up bar (#0072B2), the pod Ready lane (#009E73 at
    // 35 % over the group's #fafafa), the NotReady hatch (#D55E00), text (near black).
    assert_eq!(&png.rgba[..4], &[255, 255, 255, 255], "white background");
    for (what, rgb) in [
        ("kubelet up", [0x00, 0x72, 0xb2]),
        ("pod Ready", [163, 218, 203]),
        ("NotReady hatch", [0xd5, 0x5e, 0x00]),
        ("text", [0x1a, 0x1a, 0x1a]),
    ] {
        assert!(has_colour(&png.rgba, rgb, 4), "no {what} colour {rgb:?}");
    }
    let one = decode_png(&make(
        "lr-1.png",
        &[
            "simulate",
            "--preset",
            "long-restart",
            "-o",
            "png",
            "--scale",
            "1",
        ],
    ));
    assert_eq!((one.w, one.h), (w, h));
}

#[test]
fn the_dark_theme_paints_the_dark_background() {
    let png = decode_png(&make(
        "lr-dark.png",
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--format",
            "png",
            "--scale",
            "1",
            "--theme",
            "dark",
        ],
    ));
    assert_eq!(&png.rgba[..4], &[0x1b, 0x1e, 0x23, 255]);
    assert!(has_colour(&png.rgba, [0xec, 0xec, 0xec], 4), "light text");
}

#[test]
fn the_gif_plays_the_animation_and_loops() {
    let (w, h) = svg_size("long-restart");
    let bytes = make(
        "lr-short.gif",
        &[
            "simulate",
            "--preset",
            "long-restart",
            "--format",
            "gif",
            "--duration",
            "5s",
            "--fps",
            "4",
        ],
    );
    let g = decode_gif(&bytes);
    assert_eq!((g.w, g.h), (w, h), "scale 1 by default");
    assert_eq!(g.repeat, gif::Repeat::Infinite);
    assert_eq!(
        g.frames.len(),
        5 * 4 + 1,
        "duration × fps, and the held last frame"
    );
    let sweep: u32 = g.delays[..20].iter().map(|&d| d as u32).sum();
    assert_eq!(sweep, 500, "the sweep lasts 5 s: {:?}", g.delays);
    assert_eq!(*g.delays.last().unwrap(), 200, "the last frame holds 2 s");
    for i in [0, 10, 20] {
        write_png(
            &temp(&format!("raster-frame-{i:02}.png")),
            g.w,
            g.h,
            &g.frames[i],
        );
    }
    // The playhead moves: the veil shrinks, the frames differ.
    assert_ne!(g.frames[1], g.frames[10]);
    assert_ne!(g.frames[10], g.frames[20]);
    // The first frame is all veiled (the kubelet's bar under the 82 % white veil), the last
    // one not at all.
    assert!(
        has_colour(&g.frames[0], [209, 230, 241], 4),
        "frame 0: no veiled bar"
    );
    assert!(
        has_colour(&g.frames[20], [0x00, 0x72, 0xb2], 4),
        "last frame: no bar"
    );
    for i in [0, 10, 20] {
        write_png(
            &temp(&format!("raster-frame-{i:02}.png")),
            g.w,
            g.h,
            &g.frames[i],
        );
    }
}

#[test]
fn the_default_gif_stays_under_its_budget() {
    let start = std::time::Instant::now();
    let bytes = make(
        "lr.gif",
        &["simulate", "--preset", "long-restart", "--format", "gif"],
    );
    eprintln!(
        "long-restart GIF (20 s, 10 fps): {} bytes in {:.1} s (a debug build)",
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        bytes.len() <= GIF_BUDGET,
        "{} bytes > {GIF_BUDGET}",
        bytes.len()
    );
    let g = decode_gif(&bytes);
    assert_eq!(g.frames.len(), 20 * 10 + 1);
    assert!(g.delays[..200].iter().all(|&d| d == 10), "10 fps");
}

#[test]
fn bad_raster_options_exit_2_naming_the_flag() {
    let out = temp("bad.gif");
    let out = out.to_str().unwrap();
    let sim = |more: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["simulate", "--preset", "short-restart", "--out", out]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(more.iter().map(|s| s.to_string()));
        v
    };
    for (args, wants) in [
        (
            &["-o", "gif", "--fps", "0"][..],
            &["--fps", "\"0\"", "1 to 25"][..],
        ),
        (&["-o", "gif", "--fps", "abc"], &["--fps", "\"abc\""]),
        (&["-o", "gif", "--fps", "26"], &["--fps"]),
        (&["-o", "gif", "--scale", "0"], &["--scale", "0.5 to 4"]),
        (&["-o", "png", "--scale", "x"], &["--scale"]),
        (
            &["-o", "png", "--theme", "blue"],
            &["--theme", "light, dark"],
        ),
        (
            &["-o", "png", "--fps", "10"],
            &["--fps goes with --format gif"],
        ),
        (
            &["-o", "png", "--duration", "10s"],
            &["--duration goes with --format svg or gif"],
        ),
        (
            &["-o", "svg", "--scale", "2"],
            &["--scale goes with --format png or gif"],
        ),
        (
            &["-o", "table", "--fps", "2"],
            &["--fps goes with --format gif"],
        ),
        (
            &["-o", "gif", "--duration", "2s"],
            &["--duration", "out of range"],
        ),
        (&["-o", "bmp"], &["--format", "png, gif"]),
    ] {
        let a = sim(args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        fails(&a, wants);
    }
}

/// Binary to a terminal: refused (status 2, naming --out); to a pipe it is written.
#[test]
fn binary_output_needs_a_file_or_a_pipe() {
    let piped = run(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "png",
        "--scale",
        "0.5",
    ]);
    assert!(piped.status.success());
    assert!(piped.stdout.starts_with(b"\x89PNG"), "PNG on a pipe");
    // A file that cannot be written: status 1, as for every format.
    let bad = run(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "png",
        "--out",
        "/nonexistent-dir/x.png",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot write /nonexistent-dir/x.png"));
    // A terminal: util-linux's `script` runs the command on a pseudo-terminal.
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("no /usr/bin/script: the terminal case is not tested");
        return;
    }
    let cmd = format!(
        "{} simulate --preset short-restart --format gif",
        common::BIN
    );
    let out = std::process::Command::new("/usr/bin/script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("restartscope: error: --format gif writes binary data: give --out FILE"),
        "{text}"
    );
    assert_eq!(text.trim().lines().count(), 1, "{text}");
}

/// No font in the system's font directories: status 1 and a message saying what to install,
/// not a figure without text. fontdb reads its directories from fontconfig's file, which
/// `FONTCONFIG_FILE` replaces here by one that lists an empty directory.
#[test]
fn no_font_is_an_error_not_a_figure_without_text() {
    let empty = temp("no-fonts");
    std::fs::create_dir_all(&empty).unwrap();
    let conf = temp("no-fonts.conf");
    std::fs::write(
        &conf,
        format!(
            "<?xml version=\"1.0\"?>\n<fontconfig><dir>{}</dir></fontconfig>\n",
            empty.display()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(common::BIN)
        .args([
            "simulate",
            "--preset",
            "short-restart",
            "-o",
            "png",
            "--out",
        ])
        .arg(temp("no-fonts.png"))
        .env("FONTCONFIG_FILE", &conf)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("restartscope: error: no font found"),
        "{err}"
    );
    assert!(err.contains("fonts-dejavu-core"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
