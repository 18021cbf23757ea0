//! The benchmark workload (see `workload/mod.rs`): one node, one simulated hour, readiness + liveness
//! per pod, restarts of 20 s, 90 s and 400 s — at 100 and 1,000 pods, per policy, next to a bare
//! `BinaryHeap` loop ticking the same probe workers. Then every preset, both policies.
//!
//! `cargo bench -p restartscope-sim --bench node`; the quick table is
//! `cargo run --profile bench -p restartscope-sim --example scale`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use restartscope_sim::*;
use std::time::Duration;

#[allow(dead_code)] // `measure` and the report are for the example and the wasm run
mod workload;

fn node(c: &mut Criterion) {
    let mut g = c.benchmark_group("node 1 h");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    for pods in workload::SIZES {
        let sc = workload::scenario(pods);
        for policy in Policy::BOTH {
            let events = simulate_policy(&sc, policy)
                .unwrap()
                .metrics
                .events_processed;
            g.throughput(Throughput::Elements(events));
            g.bench_with_input(BenchmarkId::new(policy.as_str(), pods), &sc, |b, sc| {
                b.iter(|| simulate_policy(sc, policy).unwrap())
            });
        }
        let ticks = workload::bare_loop(&sc);
        g.throughput(Throughput::Elements(ticks));
        g.bench_with_input(BenchmarkId::new("bare loop", pods), &sc, |b, sc| {
            b.iter(|| workload::bare_loop(sc))
        });
    }
    g.finish();
}

fn presets(c: &mut Criterion) {
    let mut g = c.benchmark_group("presets");
    for p in presets::PRESETS {
        let sc = (p.build)();
        g.bench_function(format!("{} (both policies)", p.name), |b| {
            b.iter(|| compare(&sc).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, node, presets);
criterion_main!(benches);
