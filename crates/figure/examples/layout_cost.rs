//! Lays out a preset's figure many times (the page does this on every slider move), for
//! callgrind or perf: `cargo run --release -p restartscope-figure --example layout_cost [preset] [n]`
//! (`NO_TOOLTIPS=1`: as the page lays it out while a slider is held).
use restartscope_figure::{layout_read, LayoutOpts};
use restartscope_report::Timeline;
use restartscope_sim::{compare_default, presets};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "short-restart".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let sc = (presets::find(&name).expect("a preset's name").build)();
    let traces = compare_default(&sc).expect("the preset runs");
    let timelines: Vec<Timeline> = traces.iter().map(Timeline::new).collect();
    let tooltips = std::env::var_os("NO_TOOLTIPS").is_none();
    let opts = LayoutOpts {
        width: 1100.0,
        tooltips,
        ..LayoutOpts::default()
    };
    let t = std::time::Instant::now();
    let mut shapes = 0;
    for _ in 0..n {
        shapes += std::hint::black_box(layout_read(&traces, &timelines, &opts))
            .shapes
            .len();
    }
    println!(
        "{name}: {:.3} ms a layout, {} shapes",
        t.elapsed().as_secs_f64() * 1e3 / n as f64,
        shapes / n
    );
}
