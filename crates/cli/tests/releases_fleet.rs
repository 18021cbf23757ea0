//! Runs the built `restartscope` binary: kubelet releases (`versions`) and fleets (`fleet`).

mod common;
use common::*;

/// Releases before 1.35 have no KEP-4781 code, so they run the legacy kubelet only; `versions` lists every profile.
#[test]
fn versions_and_releases_without_kep() {
    // --policy kep on a release before 1.35 is refused; without --policy the release's one
    // kubelet runs alone, with a note (it was refused before).
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubernetes-version",
            "1.34",
            "--policy",
            "kep",
        ],
        &[
            "1.34 has only the legacy kubelet",
            "1.35",
            "--policy legacy",
        ],
    );
    let alone = run(&[
        "simulate",
        "--preset",
        "short-restart",
        "--kubernetes-version",
        "1.34",
        "--format",
        "json",
    ]);
    assert!(alone.status.success());
    let err = String::from_utf8_lossy(&alone.stderr);
    assert!(
        err.contains("note: Kubernetes 1.34 has only the legacy kubelet (KEP-4781 arrived in 1.35): running it alone"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
    assert_eq!(doc["runs"].as_array().map(Vec::len), Some(1), "{doc}");
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--kubernetes-version",
        "1.34",
        "--policy",
        "legacy",
        "--format",
        "json",
    ]);
    assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
    let text = ok(&["versions"]);
    for v in ["1.31", "1.34", "1.35", "1.35.4", "1.36", "1.37", "main"] {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{v} "))),
            "{v}: {text}"
        );
    }
    assert!(text.contains("#141342"));
}

/// `restartscope fleet` — table with the saving, JSON with totals and series, errors
/// exit 2 with one message.
#[test]
fn fleet_command() {
    let text = ok(&["fleet", "--preset", "rolling-upgrade", "--nodes", "20"]);
    assert!(text.contains("KEP saves"), "{text}");
    assert!(text.contains("In words:"), "{text}");
    let doc = json(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "20",
        "--format",
        "json",
    ]);
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["policy"], "legacy");
    assert_eq!(runs[1]["kubelet"], "1.35 · default (KEP-4781)");
    // 20 nodes × 31 pods, each flapping once under legacy; none under KEP.
    assert_eq!(runs[0]["totals"]["ready_transitions"], 20 * 31 * 2);
    assert_eq!(runs[1]["totals"]["ready_transitions"], 0);
    let t = runs[0]["totals"]["watch_events"].as_u64().unwrap();
    assert_eq!(
        t,
        runs[0]["totals"]["endpointslice_updates"].as_u64().unwrap() * 20
    );
    assert_eq!(runs[0]["restarted_nodes"], 20);
    let series = &runs[0]["series"];
    let n = series["t_s"].as_array().unwrap().len();
    assert_eq!(series["status_writes"].as_array().unwrap().len(), n);
    assert_eq!(series["ready_endpoint_share"].as_array().unwrap().len(), 5);
    fails(
        &[
            "fleet",
            "--preset",
            "rolling-upgrade",
            "--pods-per-node",
            "200",
        ],
        &["pods per node must be between 1 and 110"],
    );
    fails(
        &["fleet", "--preset", "nope"],
        &["unknown fleet preset", "rolling-upgrade"],
    );
    fails(
        &[
            "fleet",
            "--preset",
            "rolling-upgrade",
            "--kubernetes-version",
            "1.34",
            "--policy",
            "kep",
        ],
        &["1.34 has only the legacy kubelet"],
    );
    let alone = run(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "10",
        "--kubernetes-version",
        "1.34",
    ]);
    assert!(alone.status.success(), "{alone:?}");
    assert!(String::from_utf8_lossy(&alone.stderr).contains("running it alone"));
    let legacy = ok(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "10",
        "--kubernetes-version",
        "1.34",
        "--policy",
        "legacy",
    ]);
    assert!(legacy.contains("1.34"), "{legacy}");
    let waited = json(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "20",
        "--wait-ready",
        "--format",
        "json",
    ]);
    assert_eq!(waited["fleet"]["rolling"]["wait_ready"], true);
    assert_eq!(
        waited["runs"][0]["totals"]["ready_transitions"],
        20 * 31 * 2
    );
}

/// Any kubelets side by side on one clock, labelled by profile.
#[test]
fn kubelets_side_by_side() {
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--kubelets",
        "1.34,1.35:kep,main:kep",
        "--format",
        "json",
    ]);
    let labels: Vec<&str> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kubelet"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "1.34 · default (legacy)",
            "1.35 · default (KEP-4781)",
            "main · default (KEP-4781)"
        ]
    );
    let text = ok(&[
        "simulate",
        "--preset",
        "report-141155-started-by-name",
        "--kubelets",
        "1.35:kep,main:kep",
    ]);
    assert!(text.contains("main − 1.35"), "{text}");
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelets",
            "1.31:kep",
        ],
        &["1.31 has only the legacy kubelet"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelets",
            "1.35",
            "--policy",
            "kep",
        ],
        &["either --kubelets or --policy"],
    );
}

/// A rollout that waits for Ready and stalls says so, in the table and the JSON. The
/// fleet file is the JSON output's own `fleet`, with an app that fails readiness from 1 s.
#[test]
fn a_stalled_rollout_says_so() {
    let args = [
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "6",
        "--batch",
        "2",
        "--wait-ready",
    ];
    let text = ok(&args);
    assert!(text.contains("waiting for Ready"), "{text}");
    assert!(!text.contains("did not finish"), "{text}");
    let mut doc = json(&[&args[..], &["--format", "json"]].concat());
    doc["fleet"]["template"]["containers"][0]["truth"] =
        serde_json::json!([{"at_s": 1.0, "state": "failing-readiness"}]);
    let path = std::env::temp_dir().join(format!("restartscope-stall-{}.json", std::process::id()));
    std::fs::write(&path, doc["fleet"].to_string()).unwrap();
    let file = path.to_str().unwrap();
    let text = ok(&["fleet", "--scenario", file]);
    assert!(
        text.contains("The rollout did not finish")
            && text.contains("1.35 · default (KEP-4781) restarted 2 of 6 nodes"),
        "{text}"
    );
    let doc = json(&["fleet", "--scenario", file, "--format", "json"]);
    assert_eq!(doc["runs"][0]["restarted_nodes"], 6);
    assert_eq!(doc["runs"][1]["restarted_nodes"], 2);
    let _ = std::fs::remove_file(&path);
}

/// Exact patch releases (as `kubectl get nodes` prints them) and the ContainerScopedProbes
/// proposal lane (kubernetes PR #140704). A patch runs its
/// line's rules under its own name; the JSON says which kubelet is the release's default and
/// marks the proposal with its PR and commit.
#[test]
fn exact_versions_and_the_csp_proposal_lane() {
    let doc = json(&[
        "simulate",
        "--preset",
        "report-141473-replaced-during-partition",
        "--kubelets",
        "1.36.4:legacy,1.36.4,1.38+csp",
        "--format",
        "json",
    ]);
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs[0]["kubelet"], "1.36.4 · legacy (opt-in gate)");
    assert_eq!(runs[0]["default"], false);
    assert_eq!(
        runs[0]["feature_gates"],
        "ChangeContainerStatusOnKubeletRestart=true"
    );
    assert_eq!(runs[1]["kubelet"], "1.36.4 · default (KEP-4781)");
    assert_eq!(runs[1]["default"], true);
    assert_eq!(runs[2]["kubelet"], "1.38 · proposal CSP (#140704)");
    assert_eq!(runs[2]["default"], false);
    assert!(runs[2]["proposal"]
        .as_str()
        .unwrap()
        .contains("unmerged PR #140704 at 1b5df269"));
    let text = ok(&[
        "simulate",
        "--preset",
        "short-restart",
        "--kubernetes-version",
        "v1.35.9",
    ]);
    assert!(text.contains("Kubernetes v1.35.9"), "{text}");
    assert!(text.contains("--feature-gates=ChangeContainerStatusOnKubeletRestart=true"));
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelets",
            "1.36+csp",
        ],
        &["targets 1.38"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubernetes-version",
            "1.37.9",
        ],
        &["1.37 runs from 1.37 to 1.37.2"],
    );
    let versions = ok(&["versions"]);
    assert!(versions.contains("1.36.4   2026-08-11  1.36"), "{versions}");
    assert!(versions.contains("1.38"));
}
