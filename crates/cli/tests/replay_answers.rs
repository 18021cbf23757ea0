//! `restartscope replay`'s answer: "no known bug" when the evidence shows none, a bug named only
//! on its signature and only when the stated release can have it, every readable file kept.

mod common;
use common::*;

/// kubernetes#101044's pasted `status:` block (a real paste): Ready True since a time, restart
/// count 4, no kubelet restart in it. Every release reaches that state: the answer is "no known
/// bug", said with its reason, and no bug leads the ranking (before: a bug scored 100 on it).
#[test]
fn a_snapshot_with_no_ready_change_names_no_bug() {
    let out = ok(&["replay", "--evidence", &data("101044-status.yaml")]);
    assert!(out.contains("Answer: No known bug explains this."), "{out}");
    assert!(out.contains("no Ready change was observed"), "{out}");
    assert!(out.contains("evidence: ") && out.contains("weak"), "{out}");
    assert!(out.contains("collect next:"), "{out}");
    assert!(out.contains("journalctl -u kubelet -o short-iso"), "{out}");
    let j = json(&[
        "replay",
        "--evidence",
        &data("101044-status.yaml"),
        "-o",
        "json",
    ]);
    assert_eq!(j["answer"]["bug"], serde_json::Value::Null, "{j:#}");
    assert_eq!(j["verdicts"][0]["preset"], serde_json::Value::Null, "{j:#}");
    for v in j["verdicts"].as_array().unwrap() {
        if v["preset"].is_string() {
            assert!(v["score"].as_f64().unwrap() <= 50.0, "{v:#}");
        }
    }
}

/// A file that cannot be read is skipped and said; the others are read and answered.
#[test]
fn an_unreadable_file_never_loses_the_others() {
    let junk = tmp("junk-beside.txt", "# a comment\nhello\n");
    let out = ok(&[
        "replay",
        "--evidence",
        &junk,
        "--evidence",
        &data("113646-watch.txt"),
        "--evidence",
        "/nonexistent/evidence.txt",
    ]);
    assert!(out.contains("skipped: invalid evidence"), "{out}");
    assert!(out.contains("junk-beside.txt: line 2"), "{out}");
    assert!(
        out.contains("skipped: cannot read evidence /nonexistent"),
        "{out}"
    );
    assert!(
        out.contains("Answer: kubernetes#113646 explains this"),
        "{out}"
    );
    let j = json(&[
        "replay",
        "--evidence",
        &junk,
        "--evidence",
        &data("113646-watch.txt"),
        "-o",
        "json",
    ]);
    assert_eq!(j["skipped_files"].as_array().unwrap().len(), 1, "{j:#}");
    assert_eq!(j["files"].as_array().unwrap().len(), 1, "{j:#}");
}

/// A bug the stated release cannot have is out of the ranking, listed as not possible.
#[test]
fn a_bug_the_stated_release_cannot_have_is_out_of_the_list() {
    let out = ok(&[
        "replay",
        "--evidence",
        &data("136910-pod-node.yaml"),
        "--kubernetes-version",
        "1.21.2",
    ]);
    assert!(out.contains("not possible on v1.21.2: "), "{out}");
    assert!(!first_verdict(&out).contains("report-136910"), "{out}");
    assert!(out.contains("Answer: No known bug explains this."), "{out}");
    let j = json(&[
        "replay",
        "--evidence",
        &data("136910-pod-node.yaml"),
        "--kubernetes-version",
        "1.21.2",
        "-o",
        "json",
    ]);
    assert!(j["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v["preset"] != "report-136910-sidecar-startup"));
}

/// kubernetes#136910 pasted as `kubectl describe pod` with `--kubernetes-version 1.35.0` — the
/// report's own text (three describe fragments under the reporter's sentences): named first,
/// alone, said to be one snapshot, and weak: the fragments do not say the running container is
/// a sidecar, so the answer says what it assumed and what would make it no bug.
#[test]
fn report_136910_describe_on_1_35_0_names_the_bug_first_alone() {
    let out = ok(&[
        "replay",
        "--evidence",
        &data("136910-describe.txt"),
        "--kubernetes-version",
        "1.35.0",
    ]);
    assert!(
        out.contains("Answer: kubernetes#136910 explains this")
            && out.contains("on one snapshot, if the running container is a sidecar"),
        "{out}"
    );
    assert!(
        first_verdict(&out).contains("report-136910-sidecar-startup"),
        "{out}"
    );
    assert_eq!(out.matches("Answer: ").count(), 1, "{out}");
    assert!(out.contains("evidence: one snapshot"), "{out}");
    assert!(out.contains("— weak"), "{out}");
    assert!(out.contains("restartPolicy: Never"), "{out}");
    assert!(out.contains("status.initContainerStatuses"), "{out}");
    // The whole describe of such a pod (composed: see its first line) says which container is
    // the init container: the same answer, without the condition, and moderate.
    let whole = ok(&[
        "replay",
        "--evidence",
        &data("136910-describe-composed.txt"),
        "--kubernetes-version",
        "1.35.0",
    ]);
    assert!(
        whole.contains("Answer: kubernetes#136910 explains this")
            && whole.contains("on one snapshot\n")
            && whole.contains("beside a running sidecar")
            && whole.contains("— moderate"),
        "{whole}"
    );
    let j = json(&[
        "replay",
        "--evidence",
        &data("136910-describe.txt"),
        "--kubernetes-version",
        "1.35.0",
        "-o",
        "json",
    ]);
    assert_eq!(j["answer"]["bug"], "kubernetes#136910", "{j:#}");
    assert_eq!(j["verdicts"][0]["preset"], "report-136910-sidecar-startup");
    // On 1.35.4 (fixed) the same paste names no bug.
    let fixed = ok(&[
        "replay",
        "--evidence",
        &data("136910-describe.txt"),
        "--kubernetes-version",
        "1.35.4",
    ]);
    assert!(
        fixed.contains("Answer: No known bug explains this."),
        "{fixed}"
    );
    assert!(fixed.contains("not possible on v1.35.4"), "{fixed}");
    // The SVG's title says the answer too.
    let svg = ok(&[
        "replay",
        "--evidence",
        &data("136910-describe.txt"),
        "--kubernetes-version",
        "1.35.0",
        "-o",
        "svg",
    ]);
    assert!(svg.contains("kubernetes#136910 explains this"), "{svg}");
}

/// Real pastes of incidents with no kubelet bug: each answers "no known bug" with the pod's or
/// the node's own reason, and no bug leads the ranking.
#[test]
fn real_incidents_without_a_kubelet_bug_name_no_bug() {
    for (file, reason) in [
        ("131530-describe.txt", "OOMKilled"),
        ("106682-describe-events.txt", "no Ready change was observed"),
        (
            "event-tailer-nodenotready.json",
            "the node controller marked it NotReady",
        ),
        (
            "events-table-node-down.txt",
            "fog-fast: the node controller marked it NotReady",
        ),
        (
            "describe-nodeaffinity-rejected.txt",
            "the kubelet rejected the pod at admission",
        ),
        ("zh-journal-cni.txt", "network plugin (CNI) is not ready"),
        ("json-journal-kops.txt", "no Ready change was observed"),
        (
            "118497-journal.txt",
            "ubuntu-sleep-2: the kubelet rejected the pod at admission",
        ),
        (
            "portainer-5314-describe.txt",
            "container centos-new is in CrashLoopBackOff, last exit Completed (code 0), restarted 6 times",
        ),
        (
            "kcm-endpoint-disappear.txt",
            "node 11.2.3.10: the node controller marked its pods NotReady",
        ),
        // kubernetes#28154 (v1.2): the kubelet's start, NodeNotReady, NodeReady — no pod's Ready.
        (
            "28154-events-old-kubectl.txt",
            "no Ready change was observed around the kubelet restart",
        ),
        ("events-table-all-namespaces.txt", "no Ready change was observed"),
        ("klog-411-probe.txt", "no Ready change was observed"),
        // openebs#33: the kubelet exits at start (no kubeconfig), nothing else.
        (
            "openebs-33-syslog.txt",
            "no Ready change was observed around the kubelet restart",
        ),
        // kubernetes#136910's real fragments without the kubelet's version: no bug named, and
        // the version asked for.
        ("136910-describe.txt", "give --kubernetes-version"),
        // istio#11045's session: a Job's pod 1/2 beside a running istio-proxy.
        ("istio-11045-session.txt", "no Ready change was observed"),
        // describe node cut by its reporters: the kubelet stopped posting status.
        (
            "describe-node-lease-th.txt",
            "the node controller marked the node Unknown",
        ),
        (
            "describe-node-unknown-ja.txt",
            "the node controller marked the node Unknown",
        ),
        // Liveness restarts: Ready False→True around a container restart (RESTARTS up on the
        // NotReady row). Before, #113646 (the legacy flap) was named first for the second,
        // at 95 against 15.
        (
            "liveness-restarts-ko-watch.txt",
            "payment-5664c755cc-4tgn7: its container restarted while the pod was NotReady",
        ),
        (
            "liveness-restart-vi-watch.txt",
            "live: its container restarted while the pod was NotReady",
        ),
        // The same lab's describe, grepped: Events rows without their header (refused before).
        ("liveness-describe-grep-vi.txt", "no Ready change was observed"),
        // New pods starting (a rollout, a replacement): before, #142305 was named first for the
        // rollout, at 80 against 30.
        (
            "rollout-recreate-zh-watch.txt",
            "pc-deployment-675d469f8b-grn8z: created in the evidence",
        ),
        (
            "replacement-timestamped-pt-watch.txt",
            "flooding-api-64c64bf-rq55w: created in the evidence",
        ),
        (
            "oomkilled-watch.txt",
            "its container restarted while the pod was NotReady",
        ),
    ] {
        let out = ok(&["replay", "--evidence", &data(file)]);
        assert!(
            out.contains("Answer: No known bug explains this."),
            "{file}: {out}"
        );
        let answer: String = out
            .lines()
            .skip_while(|l| !l.starts_with("Answer:"))
            .take_while(|l| !l.starts_with("How each"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(answer.contains(reason), "{file}: {answer}");
        let j = json(&["replay", "--evidence", &data(file), "-o", "json"]);
        assert_eq!(
            j["verdicts"][0]["preset"],
            serde_json::Value::Null,
            "{file}"
        );
        assert_eq!(j["answer"]["bug"], serde_json::Value::Null, "{file}");
        // The SVG's title says the same answer.
        let svg = ok(&["replay", "--evidence", &data(file), "-o", "svg"]);
        assert!(
            svg.contains("no known bug explains this")
                && svg.matches("explains this").count()
                    == svg.matches("no known bug explains this").count(),
            "{file}: the SVG names a bug"
        );
    }
}

/// One `1/1` row (no change, no restart) and one status write of unknown content (an audit log at
/// level Metadata): nothing to compare, so no candidate scores (one row scored 80 for three
/// bugs before), and the answer is "no known bug".
#[test]
fn one_row_or_one_unknown_status_write_scores_no_bug() {
    let one = tmp(
        "one-row.txt",
        "NAME    READY   STATUS    RESTARTS   AGE\nweb-0   1/1     Running   0          4m1s\n",
    );
    for f in [one, data("audit-gce-scale.jsonl")] {
        let j = json(&["replay", "--evidence", &f, "-o", "json"]);
        assert_eq!(j["answer"]["bug"], serde_json::Value::Null, "{f}");
        for v in j["verdicts"].as_array().unwrap() {
            assert_eq!(v["score"].as_f64().unwrap(), 0.0, "{f}: {v:#}");
        }
    }
}

/// A pod created in the evidence and then Ready is a new pod starting; beside a kubelet restart
/// (openebs#33's syslog: both files real, unrelated) the reason says what would tell
/// kubernetes#142305 apart, and still names no bug on the rollout.
#[test]
fn a_created_pod_is_a_start_and_says_what_would_tell_a_bug() {
    let alone = ok(&[
        "replay",
        "--evidence",
        &data("rollout-recreate-zh-watch.txt"),
    ]);
    assert!(alone.contains("created in the evidence"), "{alone}");
    assert!(!alone.contains("unless the kubelet restarted"), "{alone}");
    let beside = ok(&[
        "replay",
        "--evidence",
        &data("rollout-recreate-zh-watch.txt"),
        "--evidence",
        &data("openebs-33-syslog.txt"),
    ]);
    assert!(
        beside.contains("Answer: No known bug explains this.")
            && beside.contains("unless the kubelet restarted inside its startup period"),
        "{beside}"
    );
}
