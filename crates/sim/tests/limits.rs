//! What the API server accepts runs: no range of RestartScope's own on probe fields or the
//! termination grace (`validateProbe`: each field non-negative, int32; `SetDefaults_Probe`: 0 →
//! default). RestartScope's capacity limits say they are its own and how to get under them.

mod common;
use common::*;
use restartscope_sim::*;

/// A native sidecar as the meshes ship it: Istio's `istio-proxy` startup probe
/// (failureThreshold 600, periodSeconds 1), Linkerd's (120 × 1 s).
fn mesh(failure_threshold: u32) -> Scenario {
    let mut sc = canonical(20.0, 1);
    let mut proxy = sc.pods[0].containers[0].clone();
    proxy.name = "istio-proxy".into();
    proxy.restart_policy = Some("Always".into());
    proxy.readiness_probe = None;
    proxy.startup_probe = Some(Probe {
        period_s: 1,
        failure_threshold,
        ..Probe::default()
    });
    sc.pods[0].init_containers = vec![proxy];
    sc
}

#[test]
fn long_native_sidecar_startup_probes_run() {
    for ft in [120, 600] {
        let sc = mesh(ft).with_restart(30.0, 20.0);
        sc.validate().unwrap();
        assert!(sc.horizon_s <= limits::HORIZON_S.1);
        let [legacy, _kep] = run(&sc);
        // The legacy kubelet's new startup worker probes the proxy again after the restart
        // (every second; KEP-4781 seeds its Started from the API status instead).
        let probes = events(&legacy, Kind::Probe)
            .into_iter()
            .filter(|e| e.container == Some(0) && secs(e) > 50.0)
            .count();
        assert!(probes > 0, "ft={ft}");
    }
}

#[test]
fn periods_delays_and_graces_beyond_an_hour_are_accepted() {
    let mut sc = canonical(20.0, 1);
    let c = &mut sc.pods[0].containers[0];
    c.liveness_probe = Some(Probe {
        period_s: 7200,
        timeout_s: 4000,
        initial_delay_s: 86_400,
        failure_threshold: 1_000,
        ..Probe::default()
    });
    sc.pods[0].termination_grace_s = 7200.0;
    let sc = sc.with_restart(30.0, 20.0);
    sc.validate().unwrap();
    // The horizon stays the model's (at most 6 h) however long the probes and grace are.
    assert!(sc.horizon_s <= limits::HORIZON_S.1);
    compare(&sc).unwrap();
    let mut max = sc.clone();
    let c = &mut max.pods[0].containers[0];
    let l = c.liveness_probe.as_mut().unwrap();
    l.period_s = limits::INT32_MAX;
    l.initial_delay_s = limits::INT32_MAX;
    max.pods[0].termination_grace_s = 1e15;
    max.validate().unwrap();
    compare(&max).unwrap();
}

#[test]
fn capacity_limits_say_they_are_restartscopes() {
    let mut sc = canonical(20.0, 1).with_pods(2);
    let pod = sc.pods[0].clone();
    sc.pods = (0..1001)
        .map(|i| {
            let mut p = pod.clone();
            p.name = format!("web-{i}");
            p
        })
        .collect();
    let e = sc.validate().unwrap_err();
    let m = &e.iter().find(|e| e.field == "pods").unwrap().message;
    assert!(
        m.contains("RestartScope simulates at most 1000 (its own limit, not Kubernetes')")
            && m.contains("--replicas-on-node"),
        "{m}"
    );
    let mut sc = canonical(20.0, 1);
    let c = sc.pods[0].containers[0].clone();
    sc.pods[0].containers = (0..17)
        .map(|i| {
            let mut c = c.clone();
            c.name = format!("c{i}");
            c
        })
        .collect();
    let e = sc.validate().unwrap_err();
    assert!(
        e[0].message.contains("its own limit, not Kubernetes'"),
        "{e:?}"
    );
    let mut sc = canonical(20.0, 1);
    sc.horizon_s = 7.0 * 3600.0;
    let e = sc.validate().unwrap_err();
    assert!(
        e[0].message
            .contains("RestartScope's own limit, not Kubernetes'"),
        "{e:?}"
    );
}
