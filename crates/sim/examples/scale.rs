//! Issue 9's benchmark workload, timed without criterion: both policies and the bare
//! `BinaryHeap` loop at 100 and 1,000 pods, with the ratios the issue sets goals for.
//!
//! `cargo run --profile bench -p restartscope-sim --example scale [reps]` prints the table
//! (fastest of `reps` runs each, default 5); `make bench` runs it, criterion, and the same code in
//! wasm32. `scale run <pods> <legacy|kep>` runs one simulation once (for
//! `/usr/bin/time -v target/release/examples/scale run 1000 legacy`: peak memory).

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
            .expect("scale run <pods> <legacy|kep>");
        let policy = match args.get(2).map(String::as_str) {
            Some("kep") => Policy::Kep,
            _ => Policy::Legacy,
        };
        let sc = workload::scenario(pods);
        let t0 = now();
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
