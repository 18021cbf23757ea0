//! Behaviour preserved: every preset × seeds 1–5 × versions 1.31/1.34/1.35 × both policies, as
//! the CLI's JSON events and metrics, hashed (FNV-1a 64) and compared with the digests recorded
//! before the engine was rebuilt (`tests/baseline/digests.txt`). A deliberate change of behaviour
//! updates the file in the same commit and is listed, with its Kubernetes source, in
//! `tests/baseline/CHANGES.md`.
//!
//! `RESTARTSCOPE_TRACE_DIR=dir cargo test -p restartscope-cli --test traces` also writes every
//! case's JSON lines there, to diff against a run of an older commit.
//! `RESTARTSCOPE_BLESS=1` rewrites the digest file.

use restartscope_report::json;
use restartscope_sim::{presets, simulate_policy, KubeVersion, Policy, Trace};

fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The trace as the JSON format shows it: one line per event, then the metrics of SPEC §5.
fn lines(tr: &Trace) -> String {
    let mut out = String::new();
    for e in &tr.events {
        out.push_str(&json::event_line(tr, e));
        out.push('\n');
    }
    let m = &tr.metrics;
    out.push_str(&format!(
        "metrics ready_transitions={} kubelet_status_writes={} nlc_status_writes={} endpointslice_updates={} unjustified_not_ready_s={:.3} unjustified_ready_s={:.3} evictions={} node_not_ready_s={:.3}\n",
        m.ready_transitions,
        m.kubelet_status_writes,
        m.nlc_status_writes,
        m.endpointslice_updates,
        m.unjustified_not_ready_s,
        m.unjustified_ready_s,
        m.evictions,
        m.node_not_ready_s
    ));
    out
}

fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in presets::PRESETS {
        for seed in 1..=5u64 {
            for v in ["1.31", "1.34", "1.35"] {
                for (pname, policy) in [("legacy", Policy::Legacy), ("kep", Policy::Kep)] {
                    let mut sc = (p.build)();
                    sc.seed = seed;
                    sc.cluster.version = KubeVersion::parse(v).unwrap();
                    let key = format!("{} seed={seed} version={v} policy={pname}", p.name);
                    // Releases before 1.35 have no KEP-4781 kubelet: the refusal is recorded.
                    let text = match simulate_policy(&sc, policy) {
                        Ok(tr) => lines(&tr),
                        Err(e) => format!("refused: {}\n", e[0].message),
                    };
                    out.push((key, text));
                }
            }
        }
    }
    out
}

#[test]
fn traces_match_the_recorded_digests() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/baseline");
    let cases = cases();
    if let Ok(dir) = std::env::var("RESTARTSCOPE_TRACE_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        for (key, text) in &cases {
            let name = key.replace([' ', '='], "_");
            std::fs::write(
                std::path::Path::new(&dir).join(format!("{name}.jsonl")),
                text,
            )
            .unwrap();
        }
    }
    let got: String = cases
        .iter()
        .map(|(k, text)| format!("{k} {:016x}\n", fnv(text.as_bytes(), 0xcbf2_9ce4_8422_2325)))
        .collect();
    let path = here.join("digests.txt");
    if std::env::var("RESTARTSCOPE_BLESS").is_ok() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/baseline/digests.txt");
    let diff: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(w, g)| w != g)
        .map(|(w, g)| format!("  want {w}\n  got  {g}"))
        .collect();
    assert!(
        diff.is_empty() && want.lines().count() == got.lines().count(),
        "{} of {} traces differ from the recorded behaviour (set RESTARTSCOPE_TRACE_DIR to dump them):\n{}",
        diff.len(),
        cases.len(),
        diff.join("\n")
    );
}
