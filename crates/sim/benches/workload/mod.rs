//! The benchmark workload, in one place for the criterion bench (`benches/node.rs`),
//! the quick table (`examples/scale.rs`, `make bench`) and the wasm32 run (`crates/bench-wasm`,
//! `scripts/bench-wasm.sh`): one node, one simulated hour, every pod with a readiness and a
//! liveness probe (Kubernetes defaults: period 10 s), kubelet restarts of 20 s at 600 s, 90 s at
//! 1800 s and 400 s at 2700 s.
//!
//! `bare_loop` is the floor any engine must pay for it: a `BinaryHeap` of the same probe workers
//! (one per container × probe), each rescheduling itself every period until the horizon, and
//! nothing else.
//!
//! `measure` times both policies and the bare loop at 100 and 1,000 pods with a clock the caller
//! passes (`Instant` natively, `performance.now()` in wasm), so the native and the wasm figures
//! come from the same code.

use restartscope_sim::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// The pod counts measured.
pub const SIZES: [usize; 2] = [100, 1000];

/// One node, `pods` pods (readiness + liveness each), one simulated hour, three restarts.
pub fn scenario(pods: usize) -> Scenario {
    let mut sc = presets::long_restart();
    sc.name = format!("bench-{pods}");
    sc.horizon_s = 3600.0;
    sc.kubelet.restarts = [(600.0, 20.0), (1800.0, 90.0), (2700.0, 400.0)]
        .map(|(at_s, downtime_s)| Restart::new(at_s, downtime_s))
        .to_vec();
    let template = sc.pods[0].clone();
    sc.pods = (0..pods)
        .map(|i| {
            let mut p = template.clone();
            p.name = format!("web-{i}");
            p.containers[0].readiness_probe = Some(Probe::default());
            p.containers[0].liveness_probe = Some(Probe::default());
            p
        })
        .collect();
    sc
}

/// The probe workers of the scenario (one per container × configured probe) ticking every
/// period from a spread first tick until the horizon, on a bare `BinaryHeap`. Returns the number
/// of ticks.
pub fn bare_loop(sc: &Scenario) -> u64 {
    let horizon = (sc.horizon_s * 1000.0) as u64;
    let periods: Vec<u64> = sc
        .pods
        .iter()
        .flat_map(|p| &p.containers)
        .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
        .flatten()
        .map(|p| u64::from(p.period_s) * 1000)
        .collect();
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = periods
        .iter()
        .enumerate()
        .map(|(w, &period)| Reverse(((w as u64 * 7919) % period, w as u32)))
        .collect();
    let mut ticks = 0;
    while let Some(Reverse((t, w))) = heap.pop() {
        ticks += 1;
        let next = t + periods[w as usize];
        if next < horizon {
            heap.push(Reverse((next, w)));
        }
    }
    ticks
}

/// Milliseconds of one run: the fastest of at least `reps` runs and at least `BUDGET_MS` in all
/// (so short runs are repeated more often: the minimum filters out a busy machine's stalls).
fn time_ms<T>(now: &dyn Fn() -> f64, reps: u32, mut f: impl FnMut() -> T) -> (f64, T) {
    const BUDGET_MS: f64 = 500.0;
    let mut best = f64::INFINITY;
    let mut out = None;
    let (start, mut n) = (now(), 0);
    while n < reps.max(1) || now() - start < BUDGET_MS {
        let t0 = now();
        let r = std::hint::black_box(f());
        best = best.min(now() - t0);
        out = Some(r);
        n += 1;
    }
    (best, out.unwrap())
}

/// One engine run: pods, policy, wall time, engine events processed, trace events kept.
pub struct Run {
    pub pods: usize,
    pub policy: Policy,
    pub ms: f64,
    pub events_processed: u64,
    pub trace_events: usize,
}

/// One bare-loop run.
pub struct Bare {
    pub pods: usize,
    pub ms: f64,
    pub ticks: u64,
}

/// Everything `measure` timed.
pub struct Report {
    pub runs: Vec<Run>,
    pub bare: Vec<Bare>,
}

/// Times `simulate_policy` for both policies and the bare loop at each of `SIZES` (fastest of
/// at least `reps` runs and half a second each). `now` returns milliseconds.
pub fn measure(now: &dyn Fn() -> f64, reps: u32) -> Report {
    let mut report = Report {
        runs: Vec::new(),
        bare: Vec::new(),
    };
    for pods in SIZES {
        let sc = scenario(pods);
        for policy in Policy::BOTH {
            let (ms, tr) = time_ms(now, reps, || simulate_policy(&sc, policy).unwrap());
            report.runs.push(Run {
                pods,
                policy,
                ms,
                events_processed: tr.metrics.events_processed,
                trace_events: tr.events.len(),
            });
        }
        let (ms, ticks) = time_ms(now, reps, || bare_loop(&sc));
        report.bare.push(Bare { pods, ms, ticks });
    }
    report
}

impl Report {
    pub fn run(&self, pods: usize, policy: Policy) -> &Run {
        self.runs
            .iter()
            .find(|r| r.pods == pods && r.policy == policy)
            .expect("measured")
    }
    pub fn bare(&self, pods: usize) -> &Bare {
        self.bare.iter().find(|b| b.pods == pods).expect("measured")
    }
}

/// A table for people, then one `RESULT <key> <ms>` line per timing for scripts.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [small, large] = SIZES;
        writeln!(
            f,
            "workload: 1 node, 1 simulated hour, readiness + liveness per pod, \
             restarts 20 s @ 600 s, 90 s @ 1800 s, 400 s @ 2700 s"
        )?;
        writeln!(
            f,
            "{:>6}  {:<10} {:>10}  {:>17}  {:>12}",
            "pods", "run", "ms", "events processed", "trace events"
        )?;
        for pods in SIZES {
            for policy in Policy::BOTH {
                let r = self.run(pods, policy);
                writeln!(
                    f,
                    "{:>6}  {:<10} {:>10.2}  {:>17}  {:>12}",
                    pods,
                    policy.as_str(),
                    r.ms,
                    r.events_processed,
                    r.trace_events
                )?;
            }
            let b = self.bare(pods);
            writeln!(
                f,
                "{:>6}  {:<10} {:>10.2}  {:>17}  {:>12}",
                pods,
                "bare loop",
                b.ms,
                format!("{} ticks", b.ticks),
                "-"
            )?;
        }
        for policy in Policy::BOTH {
            let (s, l) = (self.run(small, policy), self.run(large, policy));
            writeln!(
                f,
                "{:<6}  {large}/{small} pods: {:.1}x (goal <= 12x)   engine/bare loop at {large} pods: {:.1}x (goal <= 4x)",
                policy.as_str(),
                l.ms / s.ms,
                l.ms / self.bare(large).ms
            )?;
        }
        for r in &self.runs {
            writeln!(f, "RESULT {}-{} {:.3}", r.policy.as_str(), r.pods, r.ms)?;
        }
        for b in &self.bare {
            writeln!(f, "RESULT bare-{} {:.3}", b.pods, b.ms)?;
        }
        Ok(())
    }
}
