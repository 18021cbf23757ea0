//! `--restart AT:DOWNTIME`, repeatable: every restart is simulated and shown in the
//! JSON and the figure; bad input exits 2 with one message in the model's field names.

mod common;
use common::{fails, json, ok};

#[test]
fn several_restarts_are_all_simulated_and_drawn() {
    let args = [
        "simulate",
        "--preset",
        "short-restart",
        "--restart",
        "30s:20s",
        "--restart",
        "2m:1m30s",
        "--policy",
        "legacy",
        "--format",
        "json",
    ];
    let j = json(&args);
    let run = &j["runs"][0];
    let kinds = |k: &str| {
        run["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == k)
            .map(|e| e["t"].as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds("kubelet_stop"), [30.0, 120.0]);
    assert_eq!(kinds("kubelet_start"), [50.0, 210.0]);
    // The horizon shows the last return and what follows.
    assert!(j["scenario"]["horizon_s"].as_f64().unwrap() >= 210.0 + 90.0);
    let svg = ok(&[
        "simulate",
        "--preset",
        "short-restart",
        "--restart",
        "30s:20s",
        "--restart",
        "2m:1m30s",
        "--policy",
        "legacy",
        "--format",
        "svg",
    ]);
    assert!(
        svg.contains("down 20s") && svg.contains("down 1m30s"),
        "both restarts drawn"
    );
}

#[test]
fn bad_restarts_are_refused_in_the_models_words() {
    fails(
        &["simulate", "--preset", "short-restart", "--restart", "30s"],
        &["--restart", "AT:DOWNTIME"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--restart",
            "30s:20s",
            "--restart",
            "40s:10s",
        ],
        &["kubelet.restarts[1].at_s must not be before the previous kubelet restart ends"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--restart",
            "30s:20s",
            "--downtime",
            "10s",
        ],
        &["kubelet.restarts", "not both"],
    );
}
