//! The importer puts each pod behind every Service that selects it and gives the budget the pods
//! its own selector matches; its notes agree with each other. Manifests as users have them import
//! whole: the meshes' native-sidecar startup probes (Istio 600 × 1 s, Linkerd 120 × 1 s), and a
//! pod count over RestartScope's own limit says so, once.

use restartscope_manifest::{import_str, ErrorKind, ImportOptions};
use restartscope_sim::compare;

const FRONTEND: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: frontend}
spec:
  replicas: 2
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      initContainers:
      - name: istio-proxy
        image: proxyv2
        restartPolicy: Always
        startupProbe:
          httpGet: {path: /healthz/ready, port: 15021}
          periodSeconds: 1
          failureThreshold: 600
      containers:
      - name: server
        image: frontend
        readinessProbe:
          httpGet: {path: /_healthz, port: 8080}
          periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec:
  selector: {app: frontend}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: frontend-external}
spec:
  type: LoadBalancer
  selector: {app: frontend}
  ports: [{port: 80, targetPort: 8080}]
"#;

#[test]
fn a_pod_is_behind_every_service_that_selects_it_and_the_notes_agree() {
    let im = import_str(FRONTEND, &ImportOptions::default()).unwrap();
    for p in &im.scenario.pods {
        assert_eq!(p.services, ["frontend", "frontend-external"], "{}", p.name);
    }
    assert!(
        im.notes.iter().all(|n| !n.contains("matches none")),
        "{:#?}",
        im.notes
    );
    let naming: Vec<&String> = im
        .notes
        .iter()
        .filter(|n| n.contains("frontend-external"))
        .collect();
    assert_eq!(naming.len(), 1, "one note names the Services: {naming:#?}");
    assert!(naming[0]
        .starts_with("Deployment frontend: Services frontend, frontend-external select its pods"));
    // Both Services' slices are updated when the endpoints change.
    let [legacy, kep] = compare(&im.scenario).unwrap();
    for tr in [legacy, kep] {
        assert_eq!(tr.metrics.endpointslice_updates % 2, 0, "{:?}", tr.policy);
    }
}

#[test]
fn a_service_selecting_nothing_is_noted_and_only_it() {
    let text = format!(
        "{FRONTEND}---\napiVersion: v1\nkind: Service\nmetadata: {{name: other}}\nspec:\n  selector: {{app: other}}\n"
    );
    let im = import_str(&text, &ImportOptions::default()).unwrap();
    let none: Vec<&String> = im
        .notes
        .iter()
        .filter(|n| n.contains("matches none"))
        .collect();
    assert_eq!(none.len(), 1, "{none:#?}");
    assert!(none[0].starts_with("Service other:"), "{none:#?}");
}

#[test]
fn native_sidecar_startup_probes_of_the_meshes_import_and_run() {
    for (ft, from) in [
        (600, "failureThreshold: 600"),
        (120, "failureThreshold: 600"),
    ] {
        let text = FRONTEND.replace(from, &format!("failureThreshold: {ft}"));
        let im = import_str(&text, &ImportOptions::default()).unwrap();
        let probe = im.scenario.pods[0].init_containers[0]
            .startup_probe
            .clone()
            .unwrap();
        assert_eq!((probe.period_s, probe.failure_threshold), (1, ft));
        compare(&im.scenario).unwrap();
    }
}

#[test]
fn a_budget_covers_the_pods_its_selector_matches() {
    // No Service selects the workers; the budget's matchLabels do.
    let text = format!(
        "{FRONTEND}---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: worker}}
spec:
  replicas: 3
  selector: {{matchLabels: {{app: worker}}}}
  template:
    metadata: {{labels: {{app: worker}}}}
    spec:
      containers: [{{name: w, image: w}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: worker}}
spec:
  maxUnavailable: 1
  selector: {{matchLabels: {{app: worker}}}}
"
    );
    let im = import_str(&text, &ImportOptions::default()).unwrap();
    let pdb = im.scenario.pdb.as_ref().expect("the budget is used");
    assert_eq!(
        pdb.pods,
        [
            "worker-4dd587-vmmql",
            "worker-4dd587-szdcb",
            "worker-4dd587-9v6rj"
        ]
    );
    assert_eq!(pdb.service, None);
    assert_eq!(im.scenario.pdb_pods(), [2, 3, 4]);
    assert!(im.scenario.pods[2].services.is_empty());
}

#[test]
fn too_many_pods_is_said_once_as_restartscopes_limit() {
    let text = FRONTEND.replace("replicas: 2", "replicas: 5000");
    let e = import_str(&text, &ImportOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(
        e.message
            .starts_with("the workloads put 5000 pods on this node (Deployment frontend: 5000)"),
        "{e}"
    );
    assert!(
        e.message.contains("its own limit, not Kubernetes'")
            && e.message.contains("--replicas-on-node N"),
        "{e}"
    );
    assert_eq!(
        e.to_string().matches("RestartScope simulates").count(),
        1,
        "{e}"
    );
    let fewer = ImportOptions {
        replicas_on_node: Some(10),
    };
    assert_eq!(import_str(&text, &fewer).unwrap().scenario.pods.len(), 10);
}
