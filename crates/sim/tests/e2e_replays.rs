//! Kubernetes' own e2e_node tests of a kubelet restart, replayed on the model: the scenario
//! files in `crates/sim/replays/` quote their pods (names, containers, probes) from
//! `test/e2e_node/container_lifecycle_test.go`'s SIGDescribe "Not Change Container Status"
//! (KEP-4781's e2e), and `make oracle` runs the same files through each release's real prober
//! and status managers (`oracle/vectors/<release>/e2e-*.json`, compared by `tests/oracle.rs`).
//!
//! The e2e's check, `watchPodStatusDuringKubeletRestart`: from before the kubelet is stopped
//! until 5 s after it is healthy again, any container (the restartable init container, in the
//! sidecar cases) with RestartCount > 0, Started not true, or Ready other than it was, fails the
//! test. Here: the release's default kubelet passes it on every release whose own source has
//! the test, over seeds 1–20; the legacy kubelet (`ChangeContainerStatusOnKubeletRestart=true`)
//! fails it for every probed pod, which is why the e2e runs with the gate at its default.

use restartscope_sim::*;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn replay(name: &str) -> Scenario {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("replays/{name}.toml"));
    let text = std::fs::read_to_string(&file).unwrap();
    let sc: Scenario = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        text.starts_with("# kubernetes/kubernetes test/e2e_node/container_lifecycle_test.go @ v1."),
        "{name}: the first line names the test it replays"
    );
    sc
}

/// Released model versions from `since` on (the e2e is in those releases' source).
fn releases_since(since: &str) -> Vec<KubeVersion> {
    let from: KubeVersion =
        serde_json::from_value(serde_json::Value::String(since.into())).unwrap();
    KubeVersion::releases()
        .filter(|v| v.release().released && *v >= from)
        .collect()
}

fn run(sc: &Scenario, v: KubeVersion, policy: Policy, seed: u64) -> Trace {
    let mut sc = sc.clone();
    sc.seed = seed;
    sc.cluster.version = v;
    simulate_policy(&sc, policy).unwrap_or_else(|e| panic!("{} {v:?}: {e:?}", sc.name))
}

/// The containers the e2e watches in pod `p`: the restartable init container when the pod has
/// one (`InitContainerStatuses[0]`), else every regular container.
fn watched(sc: &Scenario, p: usize) -> Vec<u8> {
    let pod = &sc.pods[p];
    if pod.init_containers.is_empty() {
        (0..pod.containers.len() as u8).collect()
    } else {
        vec![0]
    }
}

/// What the watch would report for pod `p` from `from` on: a Started or Ready change of a
/// watched container, or a restart of one.
fn watch_failures(sc: &Scenario, tr: &Trace, p: usize, from: Ms) -> Vec<String> {
    let w = watched(sc, p);
    tr.events
        .iter()
        .filter(|e| e.t >= from && e.pod == Some(p as u16))
        .filter(|e| e.container.is_some_and(|c| w.contains(&c)))
        .filter(|e| {
            matches!(
                e.kind,
                Kind::ContainerStarted | Kind::ContainerReady | Kind::ContainerRestart
            )
        })
        .map(|e| {
            format!(
                "{:.3}s {} {}/{} {}",
                e.t as f64 / 1000.0,
                e.kind.as_str(),
                sc.pods[p].name,
                e.container.unwrap(),
                e.value.text()
            )
        })
        .collect()
}

fn probed(sc: &Scenario, p: usize) -> bool {
    let pod = &sc.pods[p];
    watched(sc, p).iter().any(|&c| {
        let c = pod.all_containers().nth(c as usize).unwrap();
        c.startup_probe.is_some() || c.readiness_probe.is_some()
    })
}

fn check(name: &str, since: &str, want_ready: bool) {
    let sc = replay(name);
    let restart = (sc.kubelet.restarts[0].at_s * 1000.0) as Ms;
    let versions = releases_since(since);
    assert!(!versions.is_empty());
    for v in versions {
        for seed in SEEDS {
            let tr = run(&sc, v, Policy::Kep, seed);
            for p in 0..sc.pods.len() {
                let f = watch_failures(&sc, &tr, p, restart);
                assert!(f.is_empty(), "{name} {} seed {seed}: {f:?}", v.as_str());
                // The state the e2e checked before the restart holds to the end.
                let ready = (tr.events.iter())
                    .rfind(|e| e.kind == Kind::PodReady && e.pod == Some(p as u16))
                    .map(|e| e.value == Value::Bool(true));
                assert!(
                    ready.is_none_or(|r| r == want_ready),
                    "{name} {} seed {seed}: pod {} Ready {ready:?}",
                    v.as_str(),
                    sc.pods[p].name
                );
            }
            let legacy = run(&sc, v, Policy::Legacy, seed);
            for p in 0..sc.pods.len() {
                let f = watch_failures(&sc, &legacy, p, restart);
                assert_eq!(
                    !f.is_empty(),
                    probed(&sc, p),
                    "{name} {} seed {seed} legacy, pod {}: {f:?}",
                    v.as_str(),
                    sc.pods[p].name
                );
            }
        }
    }
}

/// "a Pod is running": eight pods, no probe to startup and readiness on two containers.
#[test]
fn a_running_pod_keeps_its_status_across_a_kubelet_restart() {
    check("e2e-not-change-container-status", "1.35", true);
}

/// "a Pod is running with a restartable init container": the sidecar's status is watched.
#[test]
fn a_running_sidecar_keeps_its_status_across_a_kubelet_restart() {
    check(
        "e2e-not-change-container-status-restartable-init",
        "1.35",
        true,
    );
}

/// "a Pod transitions from Ready to NotReady before kubelet restart" (in the source from 1.37;
/// kubernetes#135795): NotReady stays NotReady; the legacy kubelet reports it Ready at the
/// first SyncPod.
#[test]
fn a_not_ready_pod_stays_not_ready_across_a_kubelet_restart() {
    check("e2e-not-change-container-status-not-ready", "1.37", false);
}

/// The pods are the e2e's: every It()'s pod name, in the file.
#[test]
fn the_replays_name_the_e2e_pods() {
    let names =
        |n: &str| -> Vec<String> { replay(n).pods.iter().map(|p| p.name.clone()).collect() };
    assert_eq!(names("e2e-not-change-container-status").len(), 8);
    assert_eq!(
        names("e2e-not-change-container-status-restartable-init").len(),
        4
    );
    assert_eq!(names("e2e-not-change-container-status-not-ready").len(), 4);
    assert!(names("e2e-not-change-container-status")
        .contains(&"pod-mc-with-startup-and-readiness-probes".to_string()));
}
