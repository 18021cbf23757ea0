//! Real-world-style manifests (tests/data) imported into the expected scenario.

use restartscope_manifest::{import, ImportOptions, Source};
use restartscope_sim::{
    Container, Effect, Handler, IntOrPercent, Operator, Pdb, Pod, Probe, Scenario, Toleration,
    Workload,
};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn load(names: &[&str], opts: &ImportOptions) -> restartscope_manifest::Import {
    let texts: Vec<(String, String)> = names.iter().map(|n| (n.to_string(), data(n))).collect();
    let sources: Vec<Source> = texts
        .iter()
        .map(|(n, t)| Source { name: n, text: t })
        .collect();
    import(&sources, opts).unwrap_or_else(|e| panic!("{e}"))
}

fn probe(period: u32, timeout: u32, success: u32, failure: u32, delay: u32) -> Probe {
    Probe {
        period_s: period,
        timeout_s: timeout,
        success_threshold: success,
        failure_threshold: failure,
        initial_delay_s: delay,
        ..Probe::default()
    }
}

/// The probe with its handler.
fn via(p: Probe, handler: Handler) -> Probe {
    Probe { handler, ..p }
}

fn container(name: &str) -> Container {
    Container {
        name: name.into(),
        restart_policy: None,
        startup_probe: None,
        readiness_probe: None,
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    }
}

#[test]
fn deployment_with_sidecar_every_probe_kind_and_tolerations() {
    let im = load(&["deployment-sidecar.yaml"], &ImportOptions::default());
    let sc: &Scenario = &im.scenario;
    assert_eq!(sc.pods.len(), 3);
    // A Deployment's pods are its ReplicaSet's: `web-<pod-template-hash>-<5 characters>`.
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["web-688597-w57c9", "web-688597-xkvtn", "web-688597-9hqv5"]
    );
    let envoy = Container {
        restart_policy: Some("Always".into()),
        // tcpSocket startup probe, httpGet readiness probe with every default.
        startup_probe: Some(via(probe(2, 1, 1, 30, 0), Handler::TcpSocket)),
        readiness_probe: Some(via(Probe::default(), Handler::HttpGet)),
        ..container("envoy")
    };
    let app = Container {
        // httpGet readiness, grpc liveness (its terminationGracePeriodSeconds is listed as unused).
        readiness_probe: Some(via(probe(5, 2, 2, 2, 0), Handler::HttpGet)),
        liveness_probe: Some(via(probe(20, 1, 1, 3, 15), Handler::Grpc)),
        ..container("app")
    };
    let shipper = Container {
        // exec liveness; periodSeconds: 0 is the default, as the API server's defaulting makes it.
        liveness_probe: Some(Probe::default()),
        ..container("log-shipper")
    };
    let expected = Pod {
        name: "web-688597-w57c9".into(),
        workload: Workload::Deployment,
        owner: Some("Deployment/web".into()),
        services: vec![],
        termination_grace_s: 45.0,
        init_containers: vec![container("migrate"), envoy],
        node_selector: Default::default(),
        node_affinity: vec![],
        // Every toleration, as admission and the taint eviction controller match them.
        tolerations: [
            "node.kubernetes.io/unreachable",
            "node.kubernetes.io/not-ready",
        ]
        .map(|key| Toleration {
            key: key.into(),
            operator: Operator::Exists,
            value: String::new(),
            effect: Some(Effect::NoExecute),
            toleration_seconds: Some(60),
        })
        .to_vec(),
        containers: vec![app, shipper],
    };
    assert_eq!(sc.pods[0], expected);
    // tolerationSeconds: 60 of node.kubernetes.io/unreachable.
    assert_eq!(sc.cluster.toleration_s, 60.0);
    assert_eq!(sc.kubelet.restarts.len(), 1);
    sc.validate().unwrap();
    let w = &im.workloads[0];
    assert_eq!(
        (w.kind.as_str(), w.name.as_str(), w.replicas, w.pods),
        ("Deployment", "web", 3, 3)
    );
    let unused: Vec<&str> = im.unused.iter().map(|u| u.path.as_str()).collect();
    for p in [
        "metadata.namespace",
        "spec.strategy",
        "spec.template.spec.containers[0].resources",
        "spec.template.spec.containers[0].env",
        "spec.template.spec.volumes",
        "spec.template.spec.containers[0].livenessProbe.terminationGracePeriodSeconds",
        "spec.template.spec.tolerations[1]",
        "spec.template.spec.initContainers[0].command",
    ] {
        assert!(unused.contains(&p), "{p} missing from {unused:?}");
    }
    // What the model reads is not listed.
    for p in [
        "spec.replicas",
        "spec.template.spec.terminationGracePeriodSeconds",
    ] {
        assert!(!unused.contains(&p), "{p} listed as unused");
    }
    let not_ready = im
        .unused
        .iter()
        .find(|u| u.path.ends_with("tolerations[1]"))
        .unwrap();
    assert!(not_ready
        .why
        .as_deref()
        .unwrap()
        .contains("not_ready_toleration_s"));
    assert_eq!(not_ready.line, 33);
    assert!(im.notes.iter().any(|n| n.contains("no Service")));
}

#[test]
fn replicas_on_this_node_is_a_setting() {
    let opts = ImportOptions {
        replicas_on_node: Some(1),
    };
    let im = load(&["deployment-sidecar.yaml"], &opts);
    assert_eq!(im.scenario.pods.len(), 1);
    assert_eq!((im.workloads[0].replicas, im.workloads[0].pods), (3, 1));
}

#[test]
fn statefulset_with_its_headless_service() {
    let im = load(&["statefulset.yaml"], &ImportOptions::default());
    let sc = &im.scenario;
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["db-0", "db-1"]);
    let p = &sc.pods[0];
    assert_eq!(p.owner.as_deref(), Some("StatefulSet/db"));
    assert_eq!(p.services, ["db"]);
    assert_eq!(p.termination_grace_s, 120.0);
    assert_eq!(p.workload, Workload::Deployment);
    let c = &p.containers[0];
    assert_eq!(c.readiness_probe, Some(probe(10, 5, 1, 3, 5)));
    assert_eq!(
        c.liveness_probe,
        Some(via(probe(10, 1, 1, 6, 0), Handler::TcpSocket))
    );
    assert_eq!(sc.cluster.toleration_s, 300.0, "DefaultTolerationSeconds");
    assert!(im
        .unused
        .iter()
        .any(|u| u.path == "spec.volumeClaimTemplates"));
}

#[test]
fn daemonset_has_one_pod_on_this_node_and_is_never_evicted() {
    let im = load(&["daemonset.yaml"], &ImportOptions::default());
    let sc = &im.scenario;
    assert_eq!(sc.pods.len(), 1);
    assert_eq!(sc.pods[0].name, "node-exporter-6nhns");
    assert_eq!(sc.pods[0].workload, Workload::DaemonSet);
    assert_eq!(sc.pods[0].owner.as_deref(), Some("DaemonSet/node-exporter"));
    assert_eq!(
        sc.pods[0].containers[0].liveness_probe,
        Some(via(probe(30, 1, 1, 3, 0), Handler::HttpGet))
    );
    assert!(im
        .unused
        .iter()
        .any(|u| u.path == "spec.template.spec.hostNetwork"));
    assert!(im
        .notes
        .iter()
        .any(|n| n.contains("AddOrUpdateDaemonPodTolerations")));
}

#[test]
fn cronjob_pod_template_and_parallelism() {
    let im = load(&["cronjob.yaml"], &ImportOptions::default());
    let sc = &im.scenario;
    // A CronJob's pods are its Job's, named by its scheduled minute: `report-<minute>-<5>`.
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["report-29952972-rh9h9", "report-29952972-9tslf"]);
    assert_eq!(
        sc.pods[0].containers[0].liveness_probe,
        Some(probe(60, 1, 1, 2, 0))
    );
    assert!(im.unused.iter().any(|u| u.path == "spec.schedule"));
    assert!(im
        .unused
        .iter()
        .any(|u| u.path == "spec.jobTemplate.spec.backoffLimit"));
    assert!(im
        .notes
        .iter()
        .any(|n| n.contains("restartPolicy OnFailure")));
}

#[test]
fn multi_document_file_with_service_and_budget() {
    let im = load(&["multi.yaml"], &ImportOptions::default());
    let sc = &im.scenario;
    assert_eq!(sc.pods.len(), 4);
    assert_eq!(sc.pods[0].name, "api-88cd8d-stb87");
    assert!(sc.pods.iter().all(|p| p.services == ["api"]));
    assert_eq!(
        sc.pdb,
        Some(Pdb {
            pods: sc.pods.iter().map(|p| p.name.clone()).collect(),
            service: None,
            min_available: Some(IntOrPercent::Str("75%".into())),
            max_unavailable: None,
        })
    );
    let cm = im
        .unused
        .iter()
        .find(|u| u.object == "ConfigMap api-config")
        .unwrap();
    assert_eq!(cm.document, 1);
    assert_eq!(im.workloads[0].document, 3);
}

#[test]
fn pod_json() {
    let im = load(&["pod.json"], &ImportOptions::default());
    let p = &im.scenario.pods[0];
    assert_eq!(p.name, "debug");
    // A bare Pod: its own name, no owner.
    assert_eq!(p.owner, None);
    assert_eq!(p.termination_grace_s, 5.0);
    let c = &p.containers[0];
    assert_eq!(c.startup_probe, Some(probe(1, 1, 1, 10, 0)));
    assert_eq!(
        c.readiness_probe,
        Some(via(probe(10, 3, 1, 3, 0), Handler::TcpSocket))
    );
    assert!(im
        .unused
        .iter()
        .any(|u| u.path == "spec.nodeName" && u.line == 7));
}

#[test]
fn several_files_make_one_scenario() {
    let im = load(
        &[
            "deployment-sidecar.yaml",
            "statefulset.yaml",
            "daemonset.yaml",
        ],
        &ImportOptions::default(),
    );
    assert_eq!(im.scenario.pods.len(), 3 + 2 + 1);
    assert_eq!(im.scenario.name, "web+db+node-exporter");
    assert_eq!(im.workloads[1].first_pod, 3);
    assert_eq!(im.workloads[1].source, "statefulset.yaml");
    // web tolerates 60 s, db the default 300 s: the model has one toleration, the first.
    assert_eq!(im.scenario.cluster.toleration_s, 60.0);
    assert!(im
        .notes
        .iter()
        .any(|n| n.contains("one toleration for every pod")));
}

#[test]
fn kubectl_list_output() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  spec:\n    containers: [{name: c, image: x}]\n  status: {phase: Running}\n";
    let im = restartscope_manifest::import_str(text, &ImportOptions::default()).unwrap();
    assert_eq!(im.scenario.pods[0].name, "a");
    assert!(im.unused.iter().any(|u| u.path == "items[0].status"));
}

#[cfg(feature = "toml")]
#[test]
fn the_scenario_toml_reads_back_as_the_same_scenario() {
    let im = load(
        &["deployment-sidecar.yaml", "multi.yaml"],
        &ImportOptions::default(),
    );
    let text = restartscope_manifest::scenario_toml(&im);
    let back: Scenario = toml::from_str(&text).unwrap();
    assert_eq!(back, im.scenario);
    assert!(text.contains("# Not used by the model:"));
}
