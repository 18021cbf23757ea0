//! The benchmark workload (one node, one simulated hour), timed without criterion: both
//! policies and the bare `BinaryHeap` loop at 100 and 1,000 pods, with the ratios that have goals
//! (1,000 / 100 pods ≤ 12×, engine / bare loop ≤ 4×: docs/PERFORMANCE.md).
//!
//! `cargo run --profile bench -p restartscope-sim --example scale [reps]` prints the table
//! (fastest of at least `reps` runs and half a second, default 5); `make bench` runs it through
//! `scripts/bench-wasm.sh` next to the same code in wasm32.
//!
//! `scale run <pods> <legacy|kep|bare>` runs one simulation (or the bare loop) once, for
//! `/usr/bin/time -v target/release/examples/scale run 1000 legacy` (peak memory) or
//! `valgrind --tool=callgrind` (instruction counts, which a busy machine does not disturb).

use restartscope_sim::{simulate_policy, Policy};

#[path = "../benches/workload/mod.rs"]
mod workload;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = std::time::Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1000.0;
    if args.first().map(String::as_str) == Some("run") {
        let pods: usize = args
            .get(1)
            .and_then(|s| s.parse().ok())
            .expect("scale run <pods> <legacy|kep|bare>");
        let sc = workload::scenario(pods);
        let t0 = now();
        let policy = match args.get(2).map(String::as_str) {
            Some("kep") => Policy::Kep,
            Some("bare") => {
                let ticks = workload::bare_loop(&sc);
                println!(
                    "{pods} pods, bare loop: {:.2} ms, {ticks} ticks",
                    now() - t0
                );
                return;
            }
            _ => Policy::Legacy,
        };
        let tr = simulate_policy(&sc, policy).expect("valid scenario");
        println!(
            "{pods} pods, {}: {:.2} ms, {} events processed, {} trace events",
            policy.as_str(),
            now() - t0,
            tr.metrics.events_processed,
            tr.events.len()
        );
        return;
    }
    let reps = args
        .first()
        .map(|s| s.parse().expect("reps: a whole number"))
        .unwrap_or(5);
    print!("{}", workload::measure(&now, reps));
}
