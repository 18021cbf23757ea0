//! One node with 100 pods over one simulated hour, both policies; reports events/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use restartscope_sim::*;

fn hundred_pods_one_hour() -> Scenario {
    let mut sc = presets::long_restart();
    sc.name = "bench".into();
    sc.horizon_s = 3600.0;
    sc.kubelet.restarts = vec![
        Restart {
            at_s: 600.0,
            downtime_s: 20.0,
        },
        Restart {
            at_s: 1800.0,
            downtime_s: 90.0,
        },
        Restart {
            at_s: 2700.0,
            downtime_s: 400.0,
        },
    ];
    let template = sc.pods[0].clone();
    sc.pods = (0..100)
        .map(|i| {
            let mut p = template.clone();
            p.name = format!("web-{i}");
            p.containers[0].liveness_probe = Some(Probe::default());
            p
        })
        .collect();
    sc
}

fn bench(c: &mut Criterion) {
    let sc = hundred_pods_one_hour();
    let events = simulate_policy(&sc, Policy::Legacy)
        .unwrap()
        .metrics
        .events_processed;
    eprintln!("100 pods, 1 simulated hour: {events} engine events per policy");
    let mut g = c.benchmark_group("node");
    g.throughput(Throughput::Elements(events));
    g.bench_function("100 pods x 1 h (legacy)", |b| {
        b.iter(|| simulate_policy(&sc, Policy::Legacy).unwrap())
    });
    g.finish();
    let mut g = c.benchmark_group("presets");
    for p in presets::PRESETS {
        let sc = (p.build)();
        g.bench_function(format!("{} (both policies)", p.name), |b| {
            b.iter(|| compare(&sc).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
