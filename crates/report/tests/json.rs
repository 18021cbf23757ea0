//! The JSON trace format (`json::render`, written by the model's small writer) against serde's
//! reading of the same data: the scenario, each run's metrics and PodDisruptionBudget series are
//! the values serde_json writes for those types, and each event is the line the behaviour test
//! hashes. (The scenario's bytes are checked in `restartscope-sim`'s `tests/json_read.rs`; the
//! events' bytes by `crates/cli/tests/traces.rs`'s digests.)

use restartscope_report::{json, pdb};
use restartscope_sim::presets::PRESETS;
use restartscope_sim::{compare_default, Scenario};
use serde_json::Value as J;

#[test]
fn the_trace_document_holds_what_serde_writes() {
    for p in PRESETS {
        let sc: Scenario = (p.build)();
        let traces = compare_default(&sc).unwrap();
        let text = json::render(&sc, &traces);
        assert!(text.ends_with("}\n"), "{}", p.name);
        let doc: J = serde_json::from_str(&text).unwrap();
        assert_eq!(
            doc["scenario"],
            serde_json::to_value(&sc).unwrap(),
            "{}",
            p.name
        );
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), traces.len());
        for (run, tr) in runs.iter().zip(&traces) {
            assert_eq!(run["policy"], tr.policy.as_str());
            assert_eq!(run["kubelet"], tr.kubelet.as_str());
            assert_eq!(run["metrics"], serde_json::to_value(&tr.metrics).unwrap());
            match pdb::series(tr) {
                Some(s) => assert_eq!(run["pdb"], serde_json::to_value(&s).unwrap()),
                None => assert!(run.get("pdb").is_none()),
            }
            let events = run["events"].as_array().unwrap();
            assert_eq!(events.len(), tr.events.len());
            for (v, e) in events.iter().zip(&tr.events) {
                let line: J = serde_json::from_str(&json::event_line(tr, e)).unwrap();
                assert_eq!(v, &line);
            }
        }
    }
}
