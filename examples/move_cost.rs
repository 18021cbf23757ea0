//! What one slider move costs the page's model and layout (`state::compute_for`, as the page
//! calls it at 1440×900), natively, for callgrind or perf: `cargo run --release --example
//! move_cost [preset] [n]`; `HELD=1` lays out as under a held slider (no tooltips).
use restartscope::form::Settings;
use restartscope::state::{compute_for, figure_spec, FigureSpec};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "short-restart".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let mut s = Settings::for_preset(&name);
    let spec = FigureSpec {
        tooltips: std::env::var_os("HELD").is_none(),
        ..figure_spec(false, false, 1008.0, 900.0, 154.0)
    };
    let t = std::time::Instant::now();
    for i in 0..n {
        // A drag: the downtime a little longer each move.
        let mut l = s.restarts();
        l[0].downtime_s = (i % 40) as f64 * 3.0 + 5.0;
        s.set_restarts(l);
        let r = std::hint::black_box(compute_for(&s, spec, None).expect("the preset runs"));
        if i < 3 {
            println!(
                "pods left out {}, height {}",
                r.pods_left_out, r.figure.height
            );
        }
    }
    println!(
        "{name}: {:.3} ms a move",
        t.elapsed().as_secs_f64() * 1e3 / n as f64
    );
}
