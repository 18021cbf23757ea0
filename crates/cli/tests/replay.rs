//! `restartscope replay`: upstream reports' observed sequences replayed, the right known bug
//! named first; bad input exits 2 with a line number.

mod common;
use common::*;

fn data(name: &str) -> String {
    format!(
        "{}/../evidence/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn tmp(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("restartscope-replay-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn report_113646_transcript_names_the_legacy_flap_first() {
    let out = ok(&["replay", "--evidence", &data("113646-watch.txt")]);
    let first = out
        .lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .unwrap();
    assert!(
        first.contains("report-113646-flap") && first.contains("legacy"),
        "{out}"
    );
    assert!(out.contains("fix: 1.35"), "{out}");
    assert!(
        out.contains("Ready→False") && out.contains("line 4"),
        "{out}"
    );
    let j = json(&[
        "replay",
        "--evidence",
        &data("113646-watch.txt"),
        "-o",
        "json",
    ]);
    assert_eq!(j["verdicts"][0]["preset"], "report-113646-flap");
    // Ready first seen, the restart count on that row, Ready→False, Ready→True.
    assert_eq!(j["files"][0]["observations"].as_array().unwrap().len(), 4);
}

#[test]
fn report_135795_notready_pod_briefly_ready_names_the_legacy_flip_first() {
    // kubernetes#135795 quotes no transcript; its words ("NotReady pod … briefly marked Ready
    // … ~4 seconds") as the NotReady pod's watch rows would show them.
    let f = tmp(
        "135795.txt",
        "NAME    READY   STATUS    RESTARTS   AGE\n\
         web-2   0/1     Running   0          5m\n\
         web-2   1/1     Running   0          5m20s\n\
         web-2   0/1     Running   0          5m24s\n",
    );
    let j = json(&["replay", "--evidence", &f, "-o", "json"]);
    assert_eq!(
        j["verdicts"][0]["preset"], "report-135795-notready-flip",
        "{j:#}"
    );
    assert!(j["verdicts"][0]["kubelet"]
        .as_str()
        .unwrap()
        .contains("legacy"));
    // With the cluster's release given, its KEP-4781 kubelet is among the candidates and does
    // not explain it.
    let j = json(&[
        "replay",
        "--evidence",
        &f,
        "--kubernetes-version",
        "1.36.4",
        "-o",
        "json",
    ]);
    let kep = j["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["candidate"] == "1.36.4 · default (KEP-4781)")
        .unwrap();
    assert!(kep["score"].as_f64().unwrap() < 70.0, "{kep:#}");
}

#[test]
fn audit_and_klog_samples_are_listed_with_lines_not_understood() {
    let out = ok(&[
        "replay",
        "--evidence",
        &data("audit-pod-status-patch.jsonl"),
        "--evidence",
        &data("openshift-probe-failed.txt"),
    ]);
    assert!(out.contains("system:node:node2"), "{out}");
    assert!(out.contains("Readiness probe failed"), "{out}");
    let f = tmp("mixed.txt", "I0101 00:00:01.000000 1 kubelet.go:1] \"Starting kubelet main sync loop\"\nnot a log line\n");
    let out = ok(&["replay", "--evidence", &f]);
    assert!(out.contains("not understood: 1 line"), "{out}");
    assert!(out.contains("mixed.txt:2:"), "{out}");
}

#[test]
fn bad_input_exits_2_with_the_line() {
    let f = tmp(
        "bad.json",
        "{\"kind\":\"List\",\n\"items\":[\n{\"kind\":\"Event\",\n",
    );
    fails(
        &["replay", "--evidence", &f],
        &["invalid evidence", "bad.json: line 3", "not valid JSON"],
    );
    let f = tmp("junk.txt", "# a comment\nhello\n");
    fails(&["replay", "--evidence", &f], &["junk.txt: line 2"]);
    fails(
        &["replay", "--evidence", "/nonexistent/x"],
        &["cannot read evidence"],
    );
    fails(
        &[
            "replay",
            "--evidence",
            &data("113646-watch.txt"),
            "-o",
            "svg",
        ],
        &["-o"],
    );
    fails(
        &[
            "replay",
            "--evidence",
            &data("113646-watch.txt"),
            "--kubernetes-version",
            "1.99",
        ],
        &["--kubernetes-version"],
    );
}

#[test]
fn report_136910_pod_and_node_yaml_names_the_kep_sidecar_bug_first() {
    let out = ok(&["replay", "--evidence", &data("136910-pod-node.yaml")]);
    let first = out
        .lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .unwrap();
    assert!(
        first.contains("report-136910-sidecar-startup") && first.contains("KEP-4781"),
        "{out}"
    );
    assert!(out.contains("fix: 1.35.4 (#137885)"), "{out}");
    // The snapshot's limits and the node's kubelet are listed.
    assert!(out.contains("note: a pod's YAML is a snapshot"), "{out}");
    assert!(out.contains("kubelet v1.35.0"), "{out}");
    assert!(out.contains("restart count 0"), "{out}");
}

#[test]
fn report_125397_transcript_with_the_reporters_manifest_names_the_startup_rerun_first() {
    let j = json(&[
        "replay",
        "--evidence",
        &data("125397-watch.txt"),
        "--manifest",
        &data("125397-pod.yaml"),
        "-o",
        "json",
    ]);
    assert_eq!(
        j["verdicts"][0]["preset"], "report-125397-startup-rerun",
        "{j:#}"
    );
    // On the reporter's manifest every release's legacy kubelet does the same: said, not hidden.
    let l131 = j["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["candidate"] == "1.31 · default (legacy)")
        .unwrap();
    assert!(
        l131["why"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("indistinguishable")),
        "{l131:#}"
    );
}

#[test]
fn an_older_kubernetes_version_ranks_the_oldest_legacy_line_and_ties_are_said() {
    let out = ok(&["replay", "--evidence", &data("113646-watch.txt")]);
    assert!(
        out.contains("candidates share the top score") || out.contains("indistinguishable"),
        "{out}"
    );
    let j = json(&[
        "replay",
        "--evidence",
        &data("113646-watch.txt"),
        "--kubernetes-version",
        "1.25.3",
        "-o",
        "json",
    ]);
    let first_release = j["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["preset"].is_null())
        .unwrap();
    assert_eq!(
        first_release["candidate"], "1.31 · default (legacy)",
        "{j:#}"
    );
}

#[test]
fn reports_142305_and_141473_name_their_bugs_first() {
    for (file, preset) in [
        ("142305-watch.txt", "report-142305-started-early"),
        (
            "141473-watch.txt",
            "report-141473-replaced-during-partition",
        ),
    ] {
        let j = json(&["replay", "--evidence", &data(file), "-o", "json"]);
        assert_eq!(j["verdicts"][0]["preset"], preset, "{file}: {j:#}");
    }
}
