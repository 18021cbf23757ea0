//! One scenario-editing path: the CLI's flags and the web app's form fields, given the same
//! settings, build the same scenario (both go through `Overrides::apply`).

use restartscope::form::{fmt_num, Settings};
use restartscope_sim::{presets, KubeVersion, ProbeKind, Scenario};
use std::process::Command;

/// What the CLI resolves for these flags: the `scenario` of its JSON output.
fn cli(preset: &str, flags: &[&str]) -> Scenario {
    let out = Command::new(env!("CARGO_BIN_EXE_restartscope"))
        .args(["simulate", "--preset", preset, "--format", "json"])
        .args(flags)
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{flags:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(doc["scenario"].clone()).unwrap()
}

/// What the form builds when a person sets the same values (a version change also resets the
/// grace field to that version's default, as the app and the URL parser do).
fn form(
    preset: &str,
    downtime_s: f64,
    version: Option<&str>,
    grace_s: Option<f64>,
    seed: Option<u64>,
) -> Scenario {
    let mut s = Settings::for_preset(preset);
    s.downtime_s = downtime_s;
    if let Some(v) = version {
        s.version = v.into();
        s.grace_s = fmt_num(KubeVersion::parse(v).unwrap().default_grace_s());
    }
    if let Some(g) = grace_s {
        s.grace_s = fmt_num(g);
    }
    if let Some(n) = seed {
        s.seed = n.to_string();
    }
    s.scenario().unwrap_or_else(|e| panic!("{preset}: {e:?}"))
}

#[test]
fn cli_and_form_build_equal_scenarios() {
    for p in presets::PRESETS {
        let name = p.name;
        // The downtime alone: 6 min outlives the toleration, so the run grows to show the return.
        let a = cli(name, &["--downtime", "6m"]);
        assert_eq!(
            a,
            form(name, 360.0, None, None, None),
            "{name} --downtime 6m"
        );
        assert!(a.horizon_s >= a.kubelet.restarts[0].at_s + 360.0 + 90.0);
        // Every flag the form also has.
        let a = cli(
            name,
            &[
                "--downtime",
                "45s",
                "--kubernetes-version",
                "1.36",
                "--grace",
                "45s",
                "--seed",
                "7",
            ],
        );
        assert_eq!(
            a,
            form(name, 45.0, Some("1.36"), Some(45.0), Some(7)),
            "{name} all flags"
        );
        // A version alone: its default grace period stays implicit in both.
        let a = cli(
            name,
            &["--downtime", "1m30s", "--kubernetes-version", "main"],
        );
        assert_eq!(
            a,
            form(name, 90.0, Some("main"), None, None),
            "{name} --version"
        );
    }
}

/// The exit status and standard error of a CLI run.
fn cli_err(preset: &str, flags: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_restartscope"))
        .args(["simulate", "--preset", preset])
        .args(flags)
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(2), "{flags:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn pods_and_probe_flags_build_what_the_form_builds() {
    for p in [
        "short-restart",
        "report-136910-sidecar-startup",
        "startup-probe",
    ] {
        // The form always sets the restart (which sizes the run by the probes), so the CLI
        // gets the preset's own downtime.
        let down = format!("{}s", Settings::for_preset(p).downtime_s);
        let a = cli(
            p,
            &[
                "--downtime",
                &down,
                "--pods",
                "12",
                "--probe",
                "app.livenessProbe.periodSeconds=5",
                "--probe",
                "app.readinessProbe=off",
                "--probe=app.livenessProbe.execSeconds=0.5",
            ],
        );
        let mut s = Settings::for_preset(p);
        s.pods = "12".into();
        let app = s.probes.iter_mut().find(|c| c.name == "app").unwrap();
        app.probes[ProbeKind::Readiness.index()] = None;
        let live = app.probes[ProbeKind::Liveness.index()]
            .get_or_insert_with(|| restartscope::probes::texts(&Default::default()));
        live[1] = "5".into();
        live[5] = "0.5".into();
        let f = s.scenario().unwrap_or_else(|e| panic!("{p}: {e:?}"));
        assert_eq!(a, f, "{p}");
        assert_eq!(a.pods.len(), 12);
        assert!(a
            .pods
            .iter()
            .all(|p| p.containers[0].readiness_probe.is_none()));
    }
}

#[test]
fn pods_and_probe_flags_are_checked_in_kubernetes_words() {
    let e = cli_err("short-restart", &["--pods", "111"]);
    assert!(
        e.contains("invalid --pods \"111\": pods must be between 1 and 110 (110 is the kubelet's default maxPods"),
        "{e}"
    );
    let e = cli_err(
        "short-restart",
        &["--probe", "app.livenessProbe.successThreshold=2"],
    );
    assert!(
        e.contains(
            "containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2"
        ),
        "{e}"
    );
    let e = cli_err(
        "short-restart",
        &["--probe", "app.readinessProbe.periodSeconds=0"],
    );
    assert!(
        e.contains("containers[app].readinessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0"),
        "{e}"
    );
    let e = cli_err("short-restart", &["--probe", "db.readinessProbe=on"]);
    assert!(
        e.contains("the scenario has no container named \"db\""),
        "{e}"
    );
    let e = cli_err(
        "short-restart",
        &["--probe", "app.readiness.periodSeconds=5"],
    );
    assert!(
        e.contains("use [WORKLOAD/]CONTAINER.KIND.FIELD=VALUE"),
        "{e}"
    );
    let e = cli_err(
        "short-restart",
        &["--probe", "app.readinessProbe.periodSeconds=-1"],
    );
    assert!(e.contains("periodSeconds takes a whole number"), "{e}");
    // A downtime of up to an hour.
    let a = cli("short-restart", &["--downtime", "45m"]);
    assert_eq!(a.kubelet.restarts[0].downtime_s, 2700.0);
}

/// Two Deployments whose `server` containers probe differently: `frontend` (2 pods, readiness
/// every 10 s) and `api.v2` (1 pod, every 3 s; a workload name with a dot).
const TWO_DEPLOYMENTS: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: frontend}
spec:
  replicas: 2
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers:
      - name: server
        image: frontend
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 10}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api.v2}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: server
        image: api
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 3}
";

/// `simulate -f` of [`TWO_DEPLOYMENTS`] with these flags: the exit code, the readiness period
/// of each pod's `server` (from the JSON's scenario) and standard error.
fn two_deployments(flags: &[&str]) -> (Option<i32>, Vec<u64>, String) {
    let (code, pods, err) = two_deployments_pods(flags);
    (code, pods.into_iter().map(|(_, p)| p).collect(), err)
}

/// [`two_deployments`] with each pod's name beside its period.
fn two_deployments_pods(flags: &[&str]) -> (Option<i32>, Vec<(String, u64)>, String) {
    // A directory of its own per call: the tests run at once, and each removes its directory.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "restartscope-probe-wl-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("two.yaml");
    std::fs::write(&f, TWO_DEPLOYMENTS).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_restartscope"))
        .args(["simulate", "-f", f.to_str().unwrap(), "--format", "json"])
        .args(flags)
        .output()
        .expect("binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    let periods = serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .ok()
        .map(|doc| {
            let sc: Scenario = serde_json::from_value(doc["scenario"].clone()).unwrap();
            sc.pods
                .iter()
                .map(|p| {
                    let r = p.containers[0].readiness_probe.as_ref().unwrap();
                    (p.name.clone(), u64::from(r.period_s))
                })
                .collect()
        })
        .unwrap_or_default();
    (
        out.status.code(),
        periods,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_probe_flag_with_a_workload_changes_that_workloads_pods_only() {
    let (code, periods, err) = two_deployments(&[]);
    assert_eq!((code, periods), (Some(0), vec![10, 10, 3]), "{err}");
    // `api.v2/server`: the dots of the workload's name need no escaping.
    let (code, periods, err) =
        two_deployments(&["--probe", "api.v2/server.readinessProbe.periodSeconds=5"]);
    assert_eq!((code, periods), (Some(0), vec![10, 10, 5]), "{err}");
    let (code, periods, err) =
        two_deployments(&["--probe=frontend/server.readinessProbe.periodSeconds=7"]);
    assert_eq!((code, periods), (Some(0), vec![7, 7, 3]), "{err}");
    // Without a workload, as before: the container of that name in every pod.
    let (code, periods, err) =
        two_deployments(&["--probe", "server.readinessProbe.periodSeconds=5"]);
    assert_eq!((code, periods), (Some(0), vec![5, 5, 5]), "{err}");
    // A workload the manifest does not have, or a malformed qualifier, exits 2 and says why.
    let (code, _, err) = two_deployments(&["--probe", "web/server.readinessProbe.periodSeconds=5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "the scenario has no workload named \"web\" (its workloads: frontend, api.v2)"
        ),
        "{err}"
    );
    let (code, _, err) = two_deployments(&["--probe", "/server.readinessProbe.periodSeconds=5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("use [WORKLOAD/]CONTAINER.KIND.FIELD=VALUE"),
        "{err}"
    );
}

/// An imported Deployment's pods are its ReplicaSet's (`frontend-<pod-template-hash>-<5>`), not
/// `frontend-0`: `--probe frontend/…` still finds them by their owner, and `--pods` adds more of
/// the ReplicaSet's, which the edit reaches too.
#[test]
fn a_deployments_pods_and_their_copies_are_one_workload_under_replicaset_names() {
    let (code, pods, err) = two_deployments_pods(&[
        "--pods",
        "5",
        "--probe",
        "frontend/server.readinessProbe.periodSeconds=7",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let periods: Vec<u64> = pods.iter().map(|p| p.1).collect();
    assert_eq!(periods, [7, 7, 3, 7, 7]);
    let hash = restartscope_sim::Owner::new(restartscope_sim::OwnerKind::Deployment, "frontend")
        .pod_template_hash();
    for i in [0, 1, 3, 4] {
        let rest = pods[i].0.strip_prefix(&format!("frontend-{hash}-"));
        assert_eq!(rest.map(str::len), Some(5), "{pods:?}");
    }
    assert!(pods[2].0.starts_with("api.v2-"), "{pods:?}");
    // The same names at every run.
    let again: Vec<String> = two_deployments_pods(&["--pods", "5"])
        .1
        .into_iter()
        .map(|p| p.0)
        .collect();
    let first: Vec<String> = pods.into_iter().map(|p| p.0).collect();
    assert_eq!(again, first);
}
