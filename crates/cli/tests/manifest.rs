//! `restartscope simulate --manifest` and `restartscope import`.

mod common;
use common::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../manifest/tests/data");

fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

fn tmp(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!(
        "restartscope-manifest-{}-{name}",
        std::process::id()
    ));
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Succeeds; returns stdout and stderr.
fn run_ok(args: &[&str]) -> (String, String) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

#[test]
fn simulate_a_manifest_with_the_usual_options() {
    let m = data("multi.yaml");
    let (out, err) = run_ok(&[
        "simulate",
        "--manifest",
        &m,
        "--downtime",
        "90s",
        "--format",
        "json",
        "--kubernetes-version",
        "1.36",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sc = &j["scenario"];
    assert_eq!(sc["pods"].as_array().unwrap().len(), 4);
    assert_eq!(sc["pods"][0]["service"], "api");
    assert_eq!(sc["kubelet"]["restarts"][0]["downtime_s"], 90.0);
    assert_eq!(sc["cluster"]["version"], "1.36");
    assert!(
        err.contains("imported Deployment api: 4 of 4 pods"),
        "{err}"
    );
    assert!(err.contains("not used by the model"), "{err}");
}

#[test]
fn several_manifests_and_replicas_on_this_node() {
    let (a, b) = (data("deployment-sidecar.yaml"), data("daemonset.yaml"));
    let (out, _) = run_ok(&[
        "simulate",
        "--manifest",
        &a,
        "--manifest",
        &b,
        "--replicas-on-node",
        "1",
        "--format",
        "json",
        "--policy",
        "kep",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let pods: Vec<&str> = j["scenario"]["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    // As their controllers name them: the Deployment's ReplicaSet's pod, the DaemonSet's.
    assert_eq!(pods, ["web-688597-w57c9", "node-exporter-6nhns"]);
}

#[test]
fn import_prints_a_scenario_file_that_simulate_reads() {
    let m = data("deployment-sidecar.yaml");
    let (toml, _) = run_ok(&["import", "--manifest", &m]);
    assert!(toml.starts_with("# Imported from Kubernetes manifests"));
    assert!(
        toml.contains("#   Deployment web: spec.template.spec.containers[0].resources (line 61)")
    );
    assert!(toml.contains("restart_policy = \"Always\""));
    let f = tmp("web.toml", &toml);
    let from_file = json(&["simulate", "--scenario", &f, "--format", "json"]);
    let (direct, _) = run_ok(&["simulate", "--manifest", &m, "--format", "json"]);
    let direct: serde_json::Value = serde_json::from_str(&direct).unwrap();
    assert_eq!(from_file["scenario"], direct["scenario"]);
    assert_eq!(from_file["runs"], direct["runs"]);
}

#[test]
fn bad_manifests_exit_2_with_one_message() {
    let bad = tmp("bad.yaml", "kind: Pod\n  x: [\n");
    fails(
        &["simulate", "--manifest", &bad],
        &["invalid manifest", "bad.yaml", "at line 2 column 4"],
    );
    let svc = tmp(
        "svc.yaml",
        "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n",
    );
    fails(
        &["simulate", "--manifest", &svc],
        &["kind Service is not a workload", "svc.yaml"],
    );
    let wrong = tmp(
        "wrong.yaml",
        &std::fs::read_to_string(data("pod.json"))
            .unwrap()
            .replace("\"timeoutSeconds\": 3", "\"timeoutSeconds\": \"3\""),
    );
    fails(
        &["import", "--manifest", &wrong],
        &[
            "spec.containers[0].readinessProbe.timeoutSeconds must be an integer, got a string",
            "at line 14 column 75",
        ],
    );
    fails(
        &["simulate", "--manifest", "/no/such.yaml"],
        &["cannot read manifest file /no/such.yaml"],
    );
    fails(
        &[
            "simulate",
            "--manifest",
            &data("pod.json"),
            "--preset",
            "short-restart",
        ],
        &[
            "holds workloads (Pod debug)",
            "with --preset, -f takes cluster settings only",
        ],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--replicas-on-node",
            "2",
        ],
        &["--replicas-on-node goes with --manifest"],
    );
    fails(
        &[
            "simulate",
            "--manifest",
            &data("pod.json"),
            "--replicas-on-node",
            "0",
        ],
        &["invalid --replicas-on-node \"0\""],
    );
    fails(&["import"], &["import needs --manifest FILE"]);
    fails(
        &["import", "--manifest", &data("pod.json"), "--preset", "x"],
        &["unexpected argument '--preset'"],
    );
}
