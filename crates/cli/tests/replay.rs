//! `restartscope replay`: upstream reports' observed sequences replayed, the right known bug
//! named first; bad input exits 2 with a line number.

mod common;
use common::*;

#[test]
fn report_113646_transcript_names_the_legacy_flap_first() {
    let out = ok(&["replay", "--evidence", &data("113646-watch.txt")]);
    let first = first_verdict(&out);
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
            "png",
        ],
        &["-o", "table, json or svg"],
    );
    fails(
        &[
            "replay",
            "--evidence",
            &data("113646-watch.txt"),
            "-o",
            "svg",
            "--out",
            "",
        ],
        &["--out"],
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
    let first = first_verdict(&out);
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

/// The transcript is COMPOSED from the report's words (its thread holds no watch: see the
/// fixture's first line); the manifest is the reporter's.
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

/// Both transcripts are COMPOSED from the reports' words (neither report holds one: see the
/// fixtures' first lines).
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

/// The kubernetes#113646 transcript beside the model. The SVG draws the best-ranked run and the
/// other kubelet of its release, each with an observed lane under the reporter's pod, the
/// legend's entry, the clock's alignment in a note; no script.
#[test]
fn report_113646_svg_draws_an_observed_lane_under_the_pod_in_each_run() {
    let out = std::env::temp_dir().join(format!(
        "restartscope-replay-{}-113646.svg",
        std::process::id()
    ));
    let out = out.to_string_lossy().into_owned();
    let stdout = ok(&[
        "replay",
        "--evidence",
        &data("113646-watch.txt"),
        "-o",
        "svg",
        "--out",
        &out,
    ]);
    assert!(stdout.is_empty(), "{stdout}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(!svg.contains("<script"), "no script");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    // Two runs (legacy, KEP-4781), one observed pod: two observed lanes.
    assert_eq!(
        texts.iter().filter(|t| **t == "observed").count(),
        2,
        "{texts:?}"
    );
    assert_eq!(
        texts.iter().filter(|t| **t == "busybox-test-1").count(),
        2,
        "{texts:?}"
    );
    assert!(texts
        .iter()
        .any(|t| t.starts_with("observed Ready, from the evidence")));
    assert!(
        texts.iter().any(|t| t.contains("only relative times")),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t.contains("Legacy kubelet")));
    assert!(texts.iter().any(|t| t.contains("KEP-4781 kubelet")));
    // The observed False (line 4 of the transcript) has its tooltip.
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter_map(|n| n.text())
        .collect();
    assert!(
        titles
            .iter()
            .any(|t| t.starts_with("busybox-test-1 observed Ready=False")),
        "{titles:?}"
    );
    let _ = std::fs::remove_file(&out);
}

/// The differences in words: a time, the model's writer and rule; and as data in the JSON.
#[test]
fn report_113646_differences_name_a_time_a_writer_and_a_rule() {
    let out = ok(&["replay", "--evidence", &data("113646-watch.txt")]);
    let diff = &out[out.find("\nDifferences, per pod").expect(&out)..];
    assert!(
        diff.contains("the 1.35 legacy model (report-113646-flap) and the 1.35 KEP-4781 model"),
        "{diff}"
    );
    let line = diff
        .lines()
        .find(|l| l.contains("observed Ready=False at"))
        .expect(diff);
    assert!(line.contains(" s (line 4)"), "{line}");
    assert!(
        line.contains("writes this at") && line.contains("(kubelet, P1)"),
        "{line}"
    );
    assert!(
        line.contains("KEP-4781 model writes nothing for this pod"),
        "{line}"
    );
    assert!(diff.contains("only relative times"), "{diff}");
    let j = json(&[
        "replay",
        "--evidence",
        &data("113646-watch.txt"),
        "-o",
        "json",
    ]);
    let b = &j["beside_the_model"];
    assert_eq!(b["runs"].as_array().unwrap().len(), 2, "{b:#}");
    assert_eq!(b["observed"][0]["pod"], "busybox-test-1");
    let items = b["differences"][0]["items"].as_array().unwrap();
    let f = items
        .iter()
        .find(|d| d["kind"] == "observed_change" && d["ready"] == false)
        .expect("the observed False");
    assert_eq!(f["runs"][0]["rule"], "P1", "{f:#}");
    assert_eq!(f["runs"][0]["by"], "kubelet", "{f:#}");
    assert_eq!(f["runs"][0]["matches"], true, "{f:#}");
    assert_eq!(f["runs"][1]["matches"], false, "{f:#}");
    assert_eq!(b["differences"][0]["tolerance_s"], 16.0);
}

/// A pod in the evidence that the model's runs do not have: listed in the differences, compared
/// with the model's pod `explain` matched it with, and drawn under that pod's lane with its own
/// name: not dropped.
#[test]
fn an_observed_pod_the_model_lacks_is_listed_not_dropped() {
    let f = tmp(
        "stranger.txt",
        "NAME READY STATUS RESTARTS AGE\n\
         busybox-test-1   1/1     Running   0              3m48s\n\
         stranger-0       1/1     Running   0              9m\n\
         busybox-test-1   0/1     Running   0              4m\n\
         stranger-0       0/1     Running   0              9m12s\n\
         busybox-test-1   1/1     Running   0              4m1s\n",
    );
    let out = ok(&["replay", "--evidence", &f]);
    assert!(
        out.contains("\n  stranger-0 (times compared within"),
        "{out}"
    );
    assert!(
        out.contains("the model has no pod named stranger-0: compared with (and drawn under) its pod busybox-test-1"),
        "{out}"
    );
    assert!(out.contains("stranger-0 beside busybox-test-1"), "{out}");
    let svg = ok(&["replay", "--evidence", &f, "-o", "svg"]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    // Its lane under busybox-test-1's, in both runs, labelled with its own name.
    assert_eq!(
        texts.iter().filter(|t| **t == "stranger-0").count(),
        2,
        "{texts:?}"
    );
    assert!(
        svg.contains("<title>stranger-0 observed Ready=False"),
        "{svg}"
    );
    let j = json(&["replay", "--evidence", &f, "-o", "json"]);
    let pods = j["beside_the_model"]["differences"].as_array().unwrap();
    let s = pods.iter().find(|p| p["pod"] == "stranger-0").unwrap();
    assert_eq!(s["in_model"], false);
    assert_eq!(s["compared_with"], "busybox-test-1");
    assert_eq!(s["items"][0]["kind"], "paired");
}

/// An audit log with wall-clock times: the lease's gap puts the kubelet's stop on the model's
/// axis (the model's 0 s said in UTC), the writer is named in the differences and drawn as the
/// modelled lanes draw theirs (a K badge: `system:node:n1` is the kubelet).
#[test]
fn audit_evidence_is_aligned_by_the_lease_gap_and_names_its_writer() {
    let ev = |t: u32, uri: &str, objref: &str, body: &str| {
        format!(
            r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Request","stage":"ResponseComplete","requestURI":"{uri}","verb":"patch","user":{{"username":"system:node:n1"}},"userAgent":"kubelet/v1.34.2 (linux/amd64) kubernetes/abc","objectRef":{objref},"responseStatus":{{"code":200}},"requestReceivedTimestamp":"2026-11-30T10:{:02}:{:02}.000000Z"{body}}}"#,
            t / 60,
            t % 60
        )
    };
    let lease = |t| {
        ev(
            t,
            "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1",
            r#"{"resource":"leases","namespace":"kube-node-lease","name":"n1"}"#,
            "",
        )
    };
    let ready = |t, v: &str| {
        ev(
            t,
            "/api/v1/namespaces/default/pods/web-0/status",
            r#"{"resource":"pods","namespace":"default","name":"web-0","subresource":"status"}"#,
            &format!(
                r#","requestObject":{{"status":{{"conditions":[{{"type":"Ready","status":"{v}"}}]}}}}"#
            ),
        )
    };
    let mut lines: Vec<String> = (0..=40).step_by(10).map(lease).collect();
    lines.push(ready(5, "True"));
    lines.extend((90..200).step_by(10).map(lease));
    lines.push(ready(91, "False"));
    lines.push(ready(101, "True"));
    let f = tmp("incident-audit.jsonl", &(lines.join("\n") + "\n"));
    let out = ok(&["replay", "--evidence", &f]);
    assert!(
        out.contains(
            "the lease's gap (last renewal before it on line 5, +10 s) at the model's stop"
        ),
        "{out}"
    );
    assert!(out.contains("(the model's 0 s is 2026-11-30 "), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("observed Ready=False at"))
        .expect(&out);
    assert!(line.contains("by system:node:n1"), "{line}");
    assert!(line.contains("(kubelet, P1)"), "{line}");
    let svg = ok(&["replay", "--evidence", &f, "-o", "svg"]);
    assert!(
        svg.contains("web-0 Ready=False written by system:node:n1 (observed)"),
        "{svg}"
    );
}

/// Evidence with nothing to align its clock by (klog lines of a probe failing, no kubelet start or
/// stop, no lease, no Ready change): placed, said to be placed arbitrarily, times not compared.
#[test]
fn evidence_without_an_anchor_is_not_compared_in_time() {
    let out = ok(&["replay", "--evidence", &data("openshift-probe-failed.txt")]);
    assert!(out.contains("nothing to align by"), "{out}");
    assert!(out.contains("times not compared"), "{out}");
    let j = json(&[
        "replay",
        "--evidence",
        &data("openshift-probe-failed.txt"),
        "-o",
        "json",
    ]);
    let items = j["beside_the_model"]["differences"][0]["items"]
        .as_array()
        .unwrap();
    assert!(
        items.iter().any(|d| d["kind"] == "times_not_comparable"),
        "{items:#?}"
    );
    assert_eq!(
        j["beside_the_model"]["alignment"]["shifts"][0]["arbitrary"],
        true
    );
}
