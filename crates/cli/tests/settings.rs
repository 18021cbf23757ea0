//! The cluster's own settings in — `--kubelet-config` (a KubeletConfiguration) and
//! `--controller-manager` (its static pod or a flags file) set the scenario's lease and node
//! monitor settings, name what was read and from where, and say what the model does not have;
//! the importer reads both kinds as settings, not workloads.

mod common;
use common::*;

const KUBELET_CONFIG: &str = "apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
nodeLeaseDurationSeconds: 20
nodeStatusUpdateFrequency: 4s
cgroupDriver: systemd
";

const KCM_POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager
  namespace: kube-system
spec:
  containers:
  - name: kube-controller-manager
    image: registry.k8s.io/kube-controller-manager:v1.35.0
    command:
    - kube-controller-manager
    - --allocate-node-cidrs=true
    - --node-monitor-grace-period=20s
    - --node-monitor-period=2s
    - --pod-eviction-timeout=1m
";

fn file(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!(
        "restartscope-settings-{}-{name}",
        std::process::id()
    ));
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// Succeeds: (stdout as JSON, stderr).
fn run_json(args: &[&str]) -> (serde_json::Value, String) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

#[test]
fn kubelet_config_and_controller_manager_set_the_scenario() {
    let kc = file("kc.yaml", KUBELET_CONFIG);
    let kcm = file("kcm.yaml", KCM_POD);
    let (doc, err) = run_json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--kubelet-config",
        &kc,
        "--controller-manager",
        &kcm,
        "-o",
        "json",
    ]);
    let c = &doc["scenario"]["cluster"];
    assert_eq!(c["lease_duration_s"], 20.0);
    assert_eq!(c["node_monitor_grace_s"], 20.0);
    assert_eq!(c["node_monitor_period_s"], 2.0);
    for want in [
        &format!("nodeLeaseDurationSeconds 20 from {kc} line 3 sets cluster.lease_duration_s"),
        &format!(
            "--node-monitor-grace-period 20s from {kcm} line 13 sets cluster.node_monitor_grace_s"
        ),
        "nodeStatusUpdateFrequency 4s",
        "is not modelled",
        "--pod-eviction-timeout 1m",
    ] {
        assert!(err.contains(want), "{want:?} not in {err}");
    }
    // A flag given as well wins over the file.
    let (doc, _) = run_json(&[
        "simulate",
        "--preset",
        "short-restart",
        "--controller-manager",
        &kcm,
        "--grace",
        "45s",
        "-o",
        "json",
    ]);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 45.0);
    // A flags file, for the fleet.
    let flags = file(
        "kcm.flags",
        "# kube-controller-manager\n--node-monitor-grace-period=45s --node-monitor-period 3s\n",
    );
    let (doc, err) = run_json(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "4",
        "--controller-manager",
        &flags,
        "--kubelet-config",
        &kc,
        "-o",
        "json",
    ]);
    let c = &doc["fleet"]["cluster"];
    assert_eq!(c["node_monitor_grace_s"], 45.0);
    assert_eq!(c["node_monitor_period_s"], 3.0);
    assert_eq!(c["lease_duration_s"], 20.0);
    assert!(err.contains("--node-monitor-period 3s from"), "{err}");
}

#[test]
fn the_importer_reads_both_kinds_as_settings_not_workloads() {
    let pod = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../manifest/tests/data/pod.json"
    ))
    .unwrap();
    let all = file(
        "all.yaml",
        &format!("{KUBELET_CONFIG}---\n{KCM_POD}---\n{pod}"),
    );
    let (doc, err) = run_json(&["simulate", "-f", &all, "-o", "json"]);
    let pods: Vec<&str> = doc["scenario"]["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(pods, ["debug"], "kube-controller-manager is not a workload");
    assert_eq!(doc["scenario"]["cluster"]["lease_duration_s"], 20.0);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 20.0);
    assert!(
        err.contains("kube-controller-manager's static pod sets cluster.node_monitor_grace_s"),
        "{err}"
    );
    let out = run(&["import", "-f", &all]);
    let toml = String::from_utf8_lossy(&out.stdout);
    assert!(
        toml.contains("# cluster setting: nodeLeaseDurationSeconds 20"),
        "{toml}"
    );
    assert!(toml.contains("lease_duration_s = 20.0"), "{toml}");
}

#[test]
fn bad_settings_files_exit_2() {
    let kc = file(
        "not-kc.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelet-config",
            &kc,
        ],
        &["--kubelet-config", "holds no KubeletConfiguration"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--controller-manager",
            &kc,
        ],
        &[
            "--controller-manager",
            "not kube-controller-manager's static pod",
        ],
    );
    let bad = file("bad.flags", "--node-monitor-grace-period=soon\n");
    fails(
        &[
            "fleet",
            "--preset",
            "rolling-upgrade",
            "--controller-manager",
            &bad,
        ],
        &["--node-monitor-grace-period", "invalid duration \"soon\""],
    );
    let lease = file(
        "lease.yaml",
        "kind: KubeletConfiguration\nnodeLeaseDurationSeconds: \"40\"\n",
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelet-config",
            &lease,
        ],
        &["nodeLeaseDurationSeconds must be a positive whole number of seconds"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--kubelet-config",
            "/no/such.yaml",
        ],
        &["--kubelet-config: cannot read /no/such.yaml"],
    );
    // Read, but Kubernetes' rules reject the result: the scenario's validation names it.
    let short = file("short.flags", "--node-monitor-grace-period=6s\n");
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--controller-manager",
            &short,
        ],
        &["--node-monitor-grace-period must be above"],
    );
}

fn real(name: &str) -> String {
    format!(
        "{}/../manifest/tests/data/real/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `-f` takes cluster settings as clusters keep them: alone they run the short-restart preset;
/// beside --preset they set its cluster; with `fleet`, the fleet's. A flag wins over a file,
/// with a note.
#[test]
fn cluster_settings_given_with_f() {
    let kubeadm = real("kubeadm-config-v1beta2.yaml");
    let (doc, err) = run_json(&["simulate", "-f", &kubeadm, "-o", "json"]);
    assert!(
        err.contains(
            "holds cluster settings and no workload: running preset short-restart with them"
        ),
        "{err}"
    );
    let c = &doc["scenario"]["cluster"];
    assert_eq!(c["node_monitor_grace_s"], 16.0);
    assert_eq!(c["node_monitor_period_s"], 2.0);
    assert_eq!(c["toleration_s"], 30.0);
    assert!(
        err.contains("--default-not-ready-toleration-seconds 30 from"),
        "{err}"
    );
    // Beside a preset, and beside a workload's manifest.
    let (doc, _) = run_json(&[
        "simulate",
        "--preset",
        "short-restart",
        "-f",
        &kubeadm,
        "-o",
        "json",
    ]);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 16.0);
    let frontend = real("microservices-demo-frontend.yaml");
    let (doc, err) = run_json(&["simulate", "-f", &frontend, "-f", &kubeadm, "-o", "json"]);
    assert_eq!(doc["scenario"]["pods"].as_array().unwrap().len(), 3);
    assert_eq!(doc["scenario"]["cluster"]["toleration_s"], 30.0);
    assert!(
        err.contains("restartscope: imported Deployment frontend"),
        "{err}"
    );
    // The explicit flag wins, and the note says so.
    let kcm = file("kcm-30.flags", "--node-monitor-grace-period=30s\n");
    let (doc, err) = run_json(&[
        "simulate",
        "-f",
        &kubeadm,
        "--controller-manager",
        &kcm,
        "-o",
        "json",
    ]);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 30.0);
    assert!(err.contains("disagree; the model uses --node-monitor-grace-period 30s (the flag wins over a -f file)"), "{err}");
    // The fleet.
    let (doc, err) = run_json(&["fleet", "-f", &kubeadm, "--nodes", "4", "-o", "json"]);
    assert!(
        err.contains("running fleet preset rolling-upgrade"),
        "{err}"
    );
    assert_eq!(doc["fleet"]["cluster"]["node_monitor_grace_s"], 16.0);
    // Workloads where only settings fit.
    fails(
        &["simulate", "--preset", "short-restart", "-f", &frontend],
        &[
            "holds workloads (Deployment frontend)",
            "with --preset, -f takes cluster settings only",
        ],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "-f", &frontend],
        &["with fleet, -f takes cluster settings only"],
    );
    // `import` makes a scenario of workloads: settings alone say so.
    fails(
        &["import", "-f", &kubeadm],
        &["cluster settings and no workload"],
    );
}
