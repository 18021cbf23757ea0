//! Runs the built `restartscope` binary.

use serde_json::Value as J;
use std::path::PathBuf;

mod common;
use common::*;

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let dir = std::env::temp_dir().join(format!(
            "restartscope-cli-test-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Tmp(dir)
    }
    fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const PRESETS: [&str; 20] = [
    "short-restart",
    "long-restart",
    "eviction",
    "startup-probe",
    "unhealthy-during-downtime",
    "not-ready-before-restart",
    "crash-during-downtime",
    "daemonset-long-outage",
    "report-113646-flap",
    "report-125397-startup-rerun",
    "report-135795-notready-flip",
    "report-136910-sidecar-startup",
    "report-141155-started-by-name",
    "report-142305-started-early",
    "report-141473-replaced-during-partition",
    "runtime-restart",
    "node-reboot",
    "upgrade-1.30-to-1.31",
    "upgrade-1.34-to-1.35",
    "admission-after-relabel",
];

#[test]
fn presets_lists_all_with_descriptions() {
    let out = ok(&["presets"]);
    assert_eq!(out.lines().count(), PRESETS.len(), "{out}");
    for (line, name) in out.lines().zip(PRESETS) {
        assert!(line.starts_with(name), "{line}");
        assert!(line.len() > name.len() + 20, "no description: {line}");
    }
}

#[test]
fn help_and_version() {
    for args in [&["--help"][..], &["-h"], &["help"], &["simulate", "--help"]] {
        let out = ok(args);
        assert!(out.contains("Usage:") && out.contains("--preset"), "{out}");
    }
    // The program's version at every level.
    for args in [
        &["--version"][..],
        &["-V"],
        &["simulate", "--version"],
        &["fleet", "-V"],
    ] {
        let v = ok(args);
        assert_eq!(
            v.trim(),
            format!("restartscope {}", env!("CARGO_PKG_VERSION")),
            "{args:?}"
        );
    }
}

#[test]
fn table_for_a_preset() {
    let out = ok(&["simulate", "--preset", "short-restart"]);
    for want in [
        "short-restart",
        "Legacy kubelet",
        "KEP-4781 kubelet",
        "KEP − legacy",
        "Ready transitions",
        "EndpointSlice updates",
        "Unjustified NotReady",
        "P1    A new probe worker writes its initial result",
        "Kubelet stops; containers keep running [K1]",
        "(no pod Ready changes",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // One policy: no difference column.
    let out = ok(&["simulate", "--preset", "long-restart", "--policy", "kep"]);
    assert!(out.contains("KEP-4781 kubelet") && !out.contains("Legacy kubelet"));
    assert!(!out.contains("KEP − legacy"));
    assert!(out.contains("node-lifecycle-controller  N1"));
}

#[test]
fn every_preset_in_every_format() {
    for p in PRESETS {
        for f in ["table", "json", "svg"] {
            let out = ok(&["simulate", "--preset", p, "--format", f]);
            assert!(!out.is_empty(), "{p} {f}");
        }
    }
}

#[test]
fn json_shape() {
    let doc = json(&["simulate", "--preset", "long-restart", "--format", "json"]);
    assert_eq!(doc["scenario"]["name"], "long-restart");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["policy"], "legacy");
    assert_eq!(runs[1]["policy"], "kep");
    // Each run names its kubelet profile next to its policy.
    assert_eq!(runs[0]["kubelet"], "1.35 · legacy (opt-in gate)");
    assert_eq!(runs[1]["kubelet"], "1.35 · default (KEP-4781)");
    let text = ok(&["simulate", "--preset", "long-restart", "--format", "json"]);
    assert!(
        text.contains("\"policy\": \"kep\",\n      \"kubelet\": \"1.35 · default (KEP-4781)\",")
    );
    for run in runs {
        let m = &run["metrics"];
        for k in [
            "ready_transitions",
            "kubelet_status_writes",
            "nlc_status_writes",
            "endpointslice_updates",
            "unjustified_not_ready_s",
            "unjustified_ready_s",
            "evictions",
        ] {
            assert!(m[k].is_number(), "metric {k}");
        }
        let events = run["events"].as_array().unwrap();
        assert!(!events.is_empty());
        let mut last_t = f64::NEG_INFINITY;
        for e in events {
            let t = e["t"].as_f64().unwrap();
            assert!(t >= last_t);
            last_t = t;
            assert!(e["kind"].is_string() && e["rule"].is_string() && e["by"].is_string());
            assert!(e["pod"].is_string() || e["pod"].is_null());
            assert!(e["container"].is_string() || e["container"].is_null());
            assert!(e.as_object().unwrap().contains_key("value"));
        }
        let ready: Vec<&J> = events.iter().filter(|e| e["kind"] == "pod_ready").collect();
        assert_eq!(ready.len() as u64, m["ready_transitions"].as_u64().unwrap());
        assert!(ready
            .iter()
            .all(|e| e["value"].is_boolean() && e["pod"].is_string()));
        let nlc = ready
            .iter()
            .filter(|e| e["by"] == "node-lifecycle-controller")
            .count();
        assert_eq!(nlc, 3);
        let probe = events.iter().find(|e| e["kind"] == "probe").unwrap();
        assert_eq!(probe["container"], "app");
        assert_eq!(probe["value"]["probe"], "readiness");
        assert!(probe["value"]["result"] == "success" || probe["value"]["result"] == "failure");
        let ep = events.iter().find(|e| e["kind"] == "endpoint").unwrap();
        assert!(ep["value"]["serving"].is_boolean());
        let stop = events.iter().find(|e| e["kind"] == "kubelet_stop").unwrap();
        assert_eq!(stop["t"], 30.0);
        assert!(stop["pod"].is_null() && stop["value"].is_null());
        assert_eq!(stop["rule"], "K1");
    }
    let one = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--format",
        "json",
        "--policy",
        "legacy",
    ]);
    assert_eq!(one["runs"].as_array().unwrap().len(), 1);
    assert_eq!(one["scenario"]["kubelet"]["policy"], "legacy");
}

#[test]
fn svg_output_and_out_file() {
    let out = ok(&["simulate", "--preset", "eviction", "--format", "svg"]);
    assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(out.trim_end().ends_with("</svg>"));
    // The groups' headings (the caption under the title names both runs too).
    let legacy = out.find(">Legacy kubelet · ").unwrap();
    let kep = out.find(">KEP-4781 kubelet · ").unwrap();
    assert!(legacy < kep);
    let tmp = Tmp::new("svg");
    let path = tmp.0.join("x.svg").to_string_lossy().into_owned();
    let printed = ok(&[
        "simulate", "--preset", "eviction", "--format", "svg", "--out", &path,
    ]);
    assert!(printed.is_empty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), out);
}

#[test]
fn flags_change_the_scenario() {
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--format=json",
        "--downtime",
        "1m30s",
        "--grace",
        "40s",
        "--kubernetes-version",
        "1.31",
        "--policy",
        "legacy",
        "--seed",
        "7",
    ]);
    let sc = &doc["scenario"];
    assert_eq!(sc["kubelet"]["restarts"][0]["downtime_s"], 90.0);
    // 40 s is 1.31's default grace period: it stays implicit.
    assert!(sc["cluster"]["node_monitor_grace_s"].is_null(), "{sc}");
    assert_eq!(sc["cluster"]["version"], "1.31");
    assert_eq!(sc["seed"], 7);
    // The run shows 90 s after the kubelet returns at 2 min (the preset showed 70 s).
    assert_eq!(sc["horizon_s"], 30.0 + 90.0 + 90.0);
    // A 90 s outage against a 40 s grace: the NLC marks the pods NotReady.
    assert_eq!(doc["runs"][0]["metrics"]["nlc_status_writes"], 3);
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--format=json",
        "--grace",
        "45s",
    ]);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 45.0);
    // No --downtime: the preset's horizon.
    assert_eq!(doc["scenario"]["horizon_s"], 120.0);
}

#[test]
fn a_long_downtime_shows_the_return_and_the_eviction() {
    // short-restart's horizon is 2 min; a 6 min outage runs to its return and 90 s beyond.
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--format=json",
        "--downtime",
        "6m",
    ]);
    assert_eq!(doc["scenario"]["horizon_s"], 30.0 + 360.0 + 90.0);
    for run in doc["runs"].as_array().unwrap() {
        let kinds: Vec<&str> = run["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["kind"].as_str())
            .collect();
        assert!(kinds.contains(&"kubelet_start"), "{kinds:?}");
        assert_eq!(run["metrics"]["evictions"], 3);
    }
}

#[test]
fn output_is_deterministic() {
    let a = ok(&[
        "simulate",
        "--preset",
        "daemonset-long-outage",
        "--format",
        "json",
    ]);
    let b = ok(&[
        "simulate",
        "--preset",
        "daemonset-long-outage",
        "--format",
        "json",
    ]);
    assert_eq!(a, b);
}

#[test]
fn scenario_round_trips_through_json_and_toml() {
    let tmp = Tmp::new("roundtrip");
    for p in PRESETS {
        let doc = json(&[
            "simulate",
            "--preset",
            p,
            "--format",
            "json",
            "--downtime",
            "45s",
        ]);
        let sc = &doc["scenario"];
        let as_json = tmp.file(
            &format!("{p}.json"),
            &serde_json::to_string_pretty(sc).unwrap(),
        );
        let as_toml = tmp.file(&format!("{p}.toml"), &toml::to_string(sc).unwrap());
        let no_ext = tmp.file(&format!("{p}-scenario"), &toml::to_string(sc).unwrap());
        for file in [&as_json, &as_toml, &no_ext] {
            let again = json(&["simulate", "--scenario", file, "--format", "json"]);
            assert_eq!(&again["scenario"], sc, "{file}");
            assert_eq!(again["runs"], doc["runs"], "{file}");
        }
    }
}

/// Usage errors are clap's (one line here: the message and its tip, no usage block), each
/// naming the option or command.
#[test]
fn usage_errors() {
    fails(&[], &["no command", "presets", "simulate"]);
    fails(
        &["frobnicate"],
        &[
            "unrecognized subcommand 'frobnicate'",
            "restartscope --help",
        ],
    );
    fails(
        &["simulat", "--preset", "short-restart"],
        &["a similar subcommand exists: 'simulate'"],
    );
    fails(&["--frob"], &["unexpected argument '--frob'"]);
    fails(&["presets", "extra"], &["unexpected argument 'extra'"]);
    fails(
        &["simulate"],
        &["--preset NAME or --scenario FILE", "short-restart"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--scenario",
            "x.toml",
        ],
        &["not both"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--colour"],
        &[
            "unexpected argument '--colour'",
            "restartscope simulate --help",
        ],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--downtim", "5s"],
        &[
            "unexpected argument '--downtim'",
            "a similar argument exists: '--downtime'",
        ],
    );
    fails(
        &["simulate", "--preset"],
        &["a value is required for '--preset <NAME>'"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "stray"],
        &["unexpected argument 'stray'"],
    );
    // Options that do not repeat (all but --manifest, --restart and --probe) are refused twice.
    fails(
        &["simulate", "--preset", "a", "--preset", "b"],
        &["the argument '--preset <NAME>' cannot be used multiple times"],
    );
    // The kubelet release is --kubernetes-version; --version is the program's.
    fails(
        &["simulate", "--preset", "short-restart", "--version", "1.36"],
        &[
            "--version is the program's version",
            "--kubernetes-version 1.36",
        ],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "--version=main"],
        &["--kubernetes-version main"],
    );
}

#[test]
fn value_errors() {
    fails(
        &["simulate", "--preset", "nope"],
        &[
            "unknown preset \"nope\"",
            "short-restart",
            "daemonset-long-outage",
        ],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--downtime", "5x"],
        &["--downtime", "invalid duration \"5x\"", "6m30s"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--downtime", "2h"],
        &[
            "--downtime 2h is out of range",
            "kubelet downtime (kubelet.restarts[0].downtime_s) must be between 0s and 1h",
        ],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--grace", "1s"],
        &["--grace 1s is out of range: --node-monitor-grace-period must be between 5s and 10m"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--grace", "-3s"],
        &["--grace", "invalid duration"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--policy", "new"],
        &["invalid --policy \"new\"", "legacy, kep, both"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--format", "xml"],
        &["invalid --format \"xml\"", "table, markdown, json, svg"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubernetes-version",
            "1.29",
        ],
        &[
            "invalid --kubernetes-version \"1.29\"",
            "oldest release the model knows, 1.30",
        ],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--seed", "-1"],
        &["invalid --seed \"-1\"", "non-negative integer"],
    );
}

#[test]
fn scenario_file_errors() {
    let tmp = Tmp::new("errors");
    let missing = tmp.0.join("missing.toml").to_string_lossy().into_owned();
    fails(
        &["simulate", "--scenario", &missing],
        &["cannot read scenario file", "missing.toml"],
    );

    let bad_json = tmp.file("bad.json", "{\"name\": \"x\",");
    fails(
        &["simulate", "--scenario", &bad_json],
        &["invalid scenario file", "bad.json", "line 1"],
    );

    let bad_toml = tmp.file("bad.toml", "name = \"x\"\nhorizon_s = 100\ncolour = 3\n");
    fails(
        &["simulate", "--scenario", &bad_toml],
        &["invalid scenario file", "bad.toml", "line"],
    );

    let garbage = tmp.file("scenario.txt", "not a scenario");
    fails(
        &["simulate", "--scenario", &garbage],
        &["not valid JSON", "nor TOML"],
    );

    // Parses, but fails validation: every field named with its range, on one line.
    let doc = json(&["simulate", "--preset", "short-restart", "--format", "json"]);
    let mut sc = doc["scenario"].clone();
    sc["horizon_s"] = J::from(5.0);
    sc["pods"][0]["name"] = J::from("Web_0");
    sc["pods"][1]["containers"][0]["readiness_probe"]["failure_threshold"] = J::from(0);
    let invalid = tmp.file("invalid.json", &sc.to_string());
    fails(
        &["simulate", "--scenario", &invalid],
        &[
            "invalid scenario",
            "horizon_s must be between 10 and 21600 seconds, got 5",
            "metadata.name must be a lowercase RFC 1123 subdomain",
            "got \"Web_0\" (scenario field pods[0].name)",
            "readinessProbe.failureThreshold must be at least 1 (an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 3 (scenario field pods[1].containers[0].readiness_probe.failure_threshold)",
        ],
    );
    let invalid_toml = tmp.file("invalid.toml", &toml::to_string(&sc).unwrap());
    fails(
        &["simulate", "--scenario", &invalid_toml],
        &["horizon_s must be between 10 and 21600 seconds"],
    );

    // No restart to apply --downtime to.
    let mut sc = doc["scenario"].clone();
    sc["kubelet"]["restarts"] = J::Array(vec![]);
    let none = tmp.file("none.json", &sc.to_string());
    fails(
        &["simulate", "--scenario", &none, "--downtime", "30s"],
        &["--downtime", "no kubelet restart"],
    );
    fails(
        &["simulate", "--scenario", &none],
        &["kubelet.restarts must list between 1 and 20 restarts, got 0"],
    );
}

#[test]
fn unwritable_output_is_not_a_panic() {
    let out = run(&[
        "simulate",
        "--preset",
        "short-restart",
        "--out",
        "/nonexistent-dir/x.txt",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write /nonexistent-dir/x.txt") && !err.contains("panicked"));
}
