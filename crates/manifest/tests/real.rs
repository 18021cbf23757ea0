//! Manifests and cluster configurations quoted from public projects (tests/data/real, each
//! with its source on its first line): what the importer makes of them as users have them —
//! workloads, settings alone (kubeadm, OpenShift, a control-plane static pod), and what is not
//! a manifest (a kustomization). Then the readers' mechanics on small inputs: JSON streams,
//! templates of other engines, a named probe port, nested blocks placed at their key, flow
//! collections over lines as Kubernetes reads them.
#![allow(clippy::result_large_err)]

use restartscope_manifest::yaml::{self, Node, Value};
use restartscope_manifest::{import, import_any, ErrorKind, ImportOptions, Imported, Source};

fn real(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/real/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn any(names: &[&str]) -> Result<Imported, restartscope_manifest::ImportError> {
    let texts: Vec<(String, String)> = names.iter().map(|n| (n.to_string(), real(n))).collect();
    let sources: Vec<Source> = texts
        .iter()
        .map(|(n, t)| Source { name: n, text: t })
        .collect();
    import_any(&sources, &ImportOptions::default())
}

fn scenario(names: &[&str]) -> restartscope_manifest::Import {
    match any(names).unwrap_or_else(|e| panic!("{e}")) {
        Imported::Scenario(im) => im,
        Imported::Settings(s) => panic!("settings only: {}", s.message()),
    }
}

fn settings_only(names: &[&str]) -> restartscope_manifest::SettingsOnly {
    match any(names).unwrap_or_else(|e| panic!("{e}")) {
        Imported::Settings(s) => s,
        Imported::Scenario(im) => panic!("a scenario: {:?}", im.workloads),
    }
}

#[test]
fn a_replication_controller_is_a_workload() {
    let im = scenario(&["replicationcontroller-nginx.yaml"]);
    assert_eq!(im.workloads.len(), 1);
    let w = &im.workloads[0];
    assert_eq!(
        (w.kind.as_str(), w.name.as_str()),
        ("ReplicationController", "nginx")
    );
    assert_eq!((w.replicas, w.pods), (3, 3));
    // spec.selector is a plain label map in a ReplicationController: read, not used.
    assert!(
        im.unused.iter().any(|u| u.path == "spec.selector"),
        "{:?}",
        im.unused
    );
}

#[test]
fn microservices_demo_frontend_lists_its_probe_handlers_as_not_used() {
    let im = scenario(&["microservices-demo-frontend.yaml"]);
    assert_eq!(im.scenario.pods.len(), 3);
    let p = &im.scenario.pods[0].containers[0];
    assert_eq!(p.readiness_probe.as_ref().unwrap().initial_delay_s, 10);
    let h = im
        .unused
        .iter()
        .find(|u| u.path == "spec.template.spec.containers[0].readinessProbe.httpGet")
        .unwrap_or_else(|| panic!("{:?}", im.unused));
    assert_eq!(h.line, 41);
    let why = h.why.as_deref().unwrap();
    assert!(
        why.starts_with("httpGet (path: /_healthz, port: 8080"),
        "{why}"
    );
    assert!(why.contains("the model does not run"), "{why}");
    // A nested block is placed at its key (`resources:`), not at its first entry below.
    let r = im
        .unused
        .iter()
        .find(|u| u.path == "spec.template.spec.containers[0].resources")
        .unwrap();
    assert_eq!(r.line, 84);
}

#[test]
fn an_istio_injected_deployment() {
    let im = scenario(&["istio-injected-hello.yaml"]);
    assert_eq!(im.workloads[0].pods, 7);
    let pod = &im.scenario.pods[0];
    assert_eq!(pod.init_containers[0].name, "istio-init");
    let proxy = &pod.containers[1];
    assert_eq!(proxy.name, "istio-proxy");
    let r = proxy.readiness_probe.as_ref().unwrap();
    assert_eq!(
        (r.period_s, r.failure_threshold, r.initial_delay_s),
        (2, 30, 1)
    );
}

/// tektoncd/pipeline's controller: its `args: [` runs over 20 lines, with comments and a blank
/// line, a trailing comma, and closes with `]` at the column of `args` — not indented past the
/// key, as YAML 1.2 wants, but as go-yaml (so kubectl) and PyYAML read it.
#[test]
fn tekton_pipelines_controller_closes_its_args_at_the_keys_column() {
    let im = scenario(&["tekton-pipeline-controller.yaml"]);
    let w = &im.workloads[0];
    assert_eq!(
        (w.kind.as_str(), w.name.as_str(), w.replicas, w.pods),
        ("Deployment", "tekton-pipelines-controller", 1, 1)
    );
    let pod = &im.scenario.pods[0];
    // Its ReplicaSet's pod.
    assert_eq!(pod.name, "tekton-pipelines-controller-5c556d-wd5xt");
    // The Service in the second document selects it.
    assert_eq!(pod.services, ["tekton-pipelines-controller"]);
    let c = &pod.containers[0];
    assert_eq!(c.name, "tekton-pipelines-controller");
    for p in [&c.liveness_probe, &c.readiness_probe] {
        let p = p.as_ref().unwrap();
        assert_eq!(
            (
                p.initial_delay_s,
                p.period_s,
                p.timeout_s,
                p.failure_threshold
            ),
            (5, 10, 5, 3)
        );
        assert_eq!(p.handler, restartscope_sim::Handler::HttpGet);
    }
    assert_eq!(c.startup_probe, None);
    // The flow sequence and the block after it are placed where they are in the file (line 1
    // is the source comment).
    let at = |path: &str| {
        let u = im
            .unused
            .iter()
            .find(|u| u.path == format!("spec.template.spec.containers[0].{path}"))
            .unwrap_or_else(|| panic!("{path}: {:?}", im.unused));
        (u.line, u.column)
    };
    assert_eq!(at("args"), (66, 15));
    assert_eq!(at("volumeMounts"), (87, 9));
    assert_eq!(at("livenessProbe.httpGet").0, 136);
    // The args as PyYAML reads them: 10 flags, each with its value.
    let docs = yaml::parse(&real("tekton-pipeline-controller.yaml")).unwrap();
    assert_eq!(docs.len(), 2);
    let args = docs[0]
        .root
        .get("spec")
        .and_then(|n| n.get("template"))
        .and_then(|n| n.get("spec"))
        .and_then(|n| n.get("containers"))
        .and_then(|n| match &n.value {
            Value::Seq(v) => v.first(),
            _ => None,
        })
        .and_then(|n| n.get("args"))
        .unwrap();
    let Value::Seq(args) = &args.value else {
        panic!("{args:?}")
    };
    let args: Vec<&str> = args.iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(args.len(), 20);
    assert_eq!(
        args[..4],
        [
            "-kubeconfig-writer-image",
            "ko://github.com/tektoncd/pipeline/cmd/kubeconfigwriter",
            "-git-image",
            "ko://github.com/tektoncd/pipeline/cmd/git-init"
        ]
    );
    assert_eq!(args[18], "-shell-image-win");
    assert!(args[19].starts_with("mcr.microsoft.com/powershell:nanoserver@sha256:b6d5ff84"));
}

#[test]
fn a_kubeadm_configuration_alone_is_cluster_settings() {
    let s = settings_only(&["kubeadm-config-v1beta2.yaml"]);
    let from = s.from.join("; ");
    assert!(from.contains("kubeadm ClusterConfiguration"), "{from}");
    assert!(from.contains("kubeadm JoinConfiguration"), "{from}");
    assert_eq!(s.settings.grace_s(), Some(16.0));
    assert_eq!(s.settings.unreachable_toleration_s(), Some(30.0));
    assert_eq!(s.settings.not_ready_toleration_s(), Some(30.0));
    let lines = s.settings.lines().join("\n");
    for want in [
        "--node-monitor-grace-period 16s from kubeadm-config-v1beta2.yaml (document 2) line 17, ClusterConfiguration controllerManager.extraArgs sets cluster.node_monitor_grace_s",
        "--node-monitor-period 2s from kubeadm-config-v1beta2.yaml (document 2) line 18",
        "--default-unreachable-toleration-seconds 30 from kubeadm-config-v1beta2.yaml (document 2) line 22, ClusterConfiguration apiServer.extraArgs sets cluster.toleration_s",
        "--default-not-ready-toleration-seconds 30 from kubeadm-config-v1beta2.yaml (document 2) line 21, ClusterConfiguration apiServer.extraArgs sets cluster.not_ready_toleration_s",
    ] {
        assert!(lines.contains(want), "{want:?} not in\n{lines}");
    }
    // `import` (the web app's) says what was read and what is missing.
    let text = real("kubeadm-config-v1beta2.yaml");
    let e = import(
        &[Source {
            name: "kubeadm.yaml",
            text: &text,
        }],
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::SettingsOnly);
    assert!(
        e.message.contains("cluster settings and no workload"),
        "{e}"
    );
    assert!(e.message.contains("--preset short-restart"), "{e}");
}

#[test]
fn the_api_servers_unreachable_toleration_goes_to_pods_without_one() {
    // DefaultTolerationSeconds gives the frontend's pods (no toleration of their own) the
    // API server's --default-unreachable-toleration-seconds.
    let im = scenario(&[
        "microservices-demo-frontend.yaml",
        "kubeadm-config-v1beta2.yaml",
    ]);
    assert_eq!(im.scenario.cluster.toleration_s, 30.0);
    assert_eq!(im.scenario.cluster.node_monitor_grace_s, Some(16.0));
    assert_eq!(im.scenario.cluster.node_monitor_period_s, 2.0);
    assert!(im
        .settings
        .lines()
        .iter()
        .any(|l| l.starts_with("--default-unreachable-toleration-seconds 30")));
}

#[test]
fn the_kubeadm_config_configmap_is_read_inside() {
    let s = settings_only(&["kubeadm-config-configmap.yaml"]);
    assert_eq!(s.from.len(), 1);
    assert!(
        s.from[0].starts_with("ConfigMap kubeadm-config (kubeadm-config-configmap.yaml (document 1): kubeadm ClusterConfiguration"),
        "{:?}",
        s.from
    );
    // apiServer.extraArgs authorization-mode: read, not about node health.
    let lines = s.settings.lines().join("\n");
    assert!(
        lines.contains("1 other setting in kubeadm-config-configmap.yaml (document 1), ClusterConfiguration apiServer.extraArgs"),
        "{lines}"
    );
}

#[test]
fn an_embedded_cluster_configuration_is_placed_at_the_files_lines() {
    // The mechanics of a block scalar's lines (the kubeadm-config quoted above sets nothing).
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubeadm-config\n  namespace: kube-system\ndata:\n  ClusterConfiguration: |\n    apiVersion: kubeadm.k8s.io/v1beta3\n    kind: ClusterConfiguration\n    controllerManager:\n      extraArgs:\n        node-monitor-grace-period: 20s\n";
    let Imported::Settings(s) = import_any(
        &[Source {
            name: "cm.yaml",
            text,
        }],
        &ImportOptions::default(),
    )
    .unwrap() else {
        panic!("settings")
    };
    assert_eq!(
        s.settings.set[0].source,
        "cm.yaml (document 1) line 12, ClusterConfiguration controllerManager.extraArgs"
    );
    // The same as `-o json` prints it: placed within the string.
    let json = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kubeadm-config","namespace":"kube-system"},"data":{"ClusterConfiguration":"apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n  - name: node-monitor-grace-period\n    value: 20s\n"}}"#;
    let Imported::Settings(s) = import_any(
        &[Source {
            name: "cm.json",
            text: json,
        }],
        &ImportOptions::default(),
    )
    .unwrap() else {
        panic!("settings")
    };
    assert_eq!(s.settings.grace_s(), Some(20.0));
    assert!(
        s.settings.set[0]
            .source
            .contains("ConfigMap kubeadm-config data.ClusterConfiguration"),
        "{:?}",
        s.settings.set
    );
}

#[test]
fn an_openshift_kubeletconfig_is_read_as_kubelet_settings() {
    let s = settings_only(&["openshift-kubeletconfig.yaml"]);
    assert!(
        s.from[0].starts_with("OpenShift KubeletConfig"),
        "{:?}",
        s.from
    );
    let lines = s.settings.lines().join("\n");
    assert!(
        lines.contains("maxPods 100 from openshift-kubeletconfig.yaml (document 1) line 12, KubeletConfig spec.kubeletConfig is not modelled"),
        "{lines}"
    );
    assert!(
        lines.contains(
            "2 other settings in openshift-kubeletconfig.yaml (document 1), KubeletConfig spec"
        ),
        "{lines}"
    );
}

#[test]
fn a_kube_apiserver_static_pod_is_settings_not_a_workload() {
    let s = settings_only(&["kube-apiserver-static-pod.yaml"]);
    assert!(
        s.from[0].starts_with("kube-apiserver's static pod"),
        "{:?}",
        s.from
    );
    assert_eq!(s.settings.unreachable_toleration_s(), None);
    assert!(s.settings.set.is_empty());
}

#[test]
fn a_kustomization_is_named_with_the_command_that_renders_it() {
    let e = match any(&["kustomization-helloworld.yaml"]) {
        Err(e) => e,
        Ok(_) => panic!("imported a kustomization"),
    };
    assert_eq!(e.kind, ErrorKind::NotManifest);
    assert!(e.message.contains("kustomize Kustomization"), "{e}");
    assert!(
        e.message
            .contains("kustomize build DIR | restartscope simulate -f -"),
        "{e}"
    );
    // Without kind, by its keys.
    let e = restartscope_manifest::import_str(
        "resources:\n- deployment.yaml\n",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotManifest, "{e}");
}

const POD_JSON: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"x"}]}}"#;

#[test]
fn json_objects_one_after_another_as_kubectl_reads_them() {
    let b = POD_JSON.replace("\"a\"", "\"b\"");
    for text in [
        format!("{POD_JSON}{b}"),
        format!("{POD_JSON}\n{b}\n"),
        format!("  {POD_JSON}\n\n{b}"),
    ] {
        let im = restartscope_manifest::import_str(&text, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let names: Vec<&str> = im.scenario.pods.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
    }
    // Lines and columns are the file's: the second object's unused `image`.
    let im =
        restartscope_manifest::import_str(&format!("{POD_JSON}\n{b}"), &ImportOptions::default())
            .unwrap();
    let u: Vec<(usize, usize)> = im
        .unused
        .iter()
        .filter(|u| u.path.ends_with("image"))
        .map(|u| (u.line, u.column))
        .collect();
    assert_eq!(u, [(1, 99), (2, 99)]);
    let list = format!(r#"{{"apiVersion":"v1","kind":"List","items":[{POD_JSON},{b}]}}"#);
    let im = restartscope_manifest::import_str(&list, &ImportOptions::default()).unwrap();
    assert_eq!(im.scenario.pods.len(), 2);
    // A syntax error in the second object is placed in the file.
    let e = restartscope_manifest::import_str(
        &format!("{POD_JSON}\n{{\"a\": [}}"),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
}

#[test]
fn templates_of_other_engines_are_named() {
    let err =
        |t: &str| restartscope_manifest::import_str(t, &ImportOptions::default()).unwrap_err();
    let e = err("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {% if x %}a{% endif %}\n");
    assert_eq!(e.kind, ErrorKind::NotManifest);
    assert!(e.message.contains("Jinja"), "{e}");
    let e = err("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Name }}\n");
    assert!(
        e.message.contains("Go template syntax `{{ .Name }}`"),
        "{e}"
    );
    let e = err("#@ load(\"@ytt:data\", \"data\")\napiVersion: v1\nkind: Pod\nmetadata:\n  name: #@ data.values.name\nspec:\n  containers: [{name: a}]\n");
    assert!(e.message.contains("ytt"), "{e}");
    assert!(e.message.starts_with("line 1 "), "{e}");
    let e = err("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${REPLICAS}\n");
    assert!(
        e.message
            .contains("`${REPLICAS}`, an environment variable placeholder"),
        "{e}"
    );
    assert!(e.message.contains("envsubst"), "{e}");
    let e = err("kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:00\n");
    assert_eq!(e.kind, ErrorKind::NotManifest);
    assert!(e.message.contains("`kubeadm join` command"), "{e}");
}

#[test]
fn a_named_probe_port_no_container_port_has_is_a_note() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: app\n    ports:\n    - name: http\n      containerPort: 8080\n    readinessProbe:\n      httpGet: {path: /, port: http}\n    livenessProbe:\n      tcpSocket:\n        port: metrics\n";
    let im = restartscope_manifest::import_str(text, &ImportOptions::default()).unwrap();
    let notes: Vec<&String> = im
        .notes
        .iter()
        .filter(|n| n.contains("names no port"))
        .collect();
    assert_eq!(notes.len(), 1, "{:?}", im.notes);
    assert!(
        notes[0].contains("livenessProbe.tcpSocket.port \"metrics\" (line 14)"),
        "{}",
        notes[0]
    );
    assert!(
        notes[0].contains("its ports are named http"),
        "{}",
        notes[0]
    );
}

#[test]
fn settings_that_disagree_are_noted_and_an_explicit_flag_wins() {
    use restartscope_manifest::settings_files::read_controller_manager;
    let a = read_controller_manager("a.flags", "--node-monitor-grace-period=20s\n").unwrap();
    let b = read_controller_manager("b.flags", "--node-monitor-grace-period=30s\n").unwrap();
    let mut both = a.clone();
    both.extend(b.clone());
    assert_eq!(both.grace_s(), Some(30.0));
    let d = both.disagreements();
    assert_eq!(d.len(), 1);
    assert!(
        d[0].contains("a.flags line 1") && d[0].contains("b.flags line 1"),
        "{}",
        d[0]
    );
    assert!(
        d[0].ends_with("the model uses --node-monitor-grace-period 30s (the last one read wins)"),
        "{}",
        d[0]
    );
    let mut flag_wins = a.explicit();
    flag_wins.extend(b);
    assert_eq!(flag_wins.grace_s(), Some(20.0));
    assert!(flag_wins.disagreements()[0].ends_with("(the flag wins over a -f file)"));
}

/// Istio's injector test data with `readiness.status.sidecar.istio.io/*` annotations (the
/// proxy's readinessProbe: failureThreshold 300, periodSeconds 200, initialDelaySeconds 100).
/// Its Deployment is named `statusPort`, which the API server refuses (metadata.name must be a
/// lowercase RFC 1123 subdomain): so does the import, placed at the workload.
#[test]
fn istio_test_data_with_a_name_kubernetes_refuses() {
    let e = match any(&["istio-injected-status-annotations.yaml"]) {
        Err(e) => e,
        Ok(_) => panic!("imported a Deployment named statusPort"),
    };
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(
        e.message
            .contains("metadata.name must be a lowercase RFC 1123 subdomain"),
        "{e}"
    );
    assert!(
        e.message
            .contains("got \"statusPort\" (Deployment statusPort)"),
        "{e}"
    );
    assert_eq!(
        e.message.matches("metadata.name").count(),
        1,
        "said once: {e}"
    );
    assert!(e.line.is_some(), "placed: {e}");
}

/// A parsed document as Python's `json.dumps(yaml.safe_load(text))` prints it (PyYAML, which
/// reads indentation as go-yaml does): the expected values below are PyYAML's.
fn json(n: &Node) -> String {
    match &n.value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::Seq(v) => format!("[{}]", v.iter().map(json).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k:?}: {}", json(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[test]
fn flow_collections_over_lines_close_at_any_indentation() {
    for (text, want) in [
        // Comments, a blank line, a trailing comma; `]` at the key's column, a key after it.
        (
            "c:\n  args: [\n    # a comment\n    \"a\", \"b\", # after an entry\n\n    # after a blank line\n    'c',\n  ]\n  next: 1\n",
            r#"{"c": {"args": ["a", "b", "c"], "next": 1}}"#,
        ),
        // `]` left of the key's column.
        (
            "c:\n  args: [\n    a,\n ]\n  next: 1\n",
            r#"{"c": {"args": ["a"], "next": 1}}"#,
        ),
        // `]` at column 1, two levels down, and the block going on.
        (
            "c:\n  d:\n    args: [a,\n    b,\n]\n  e: 2\n",
            r#"{"c": {"d": {"args": ["a", "b"]}, "e": 2}}"#,
        ),
        // Entries at and left of the key's column (yaml-test-suite 9C9N).
        (
            "c:\n  args: [a,\n  b,\nc]\n",
            r#"{"c": {"args": ["a", "b", "c"]}}"#,
        ),
        // Flow mappings, with comments, a sequence inside, `}` at the key's column and at 1.
        (
            "c:\n  m: {\n    # c\n    a: 1, # t\n    b: \"x\",\n  }\n  n: {\n    a: [1,\n  2],\n}\n",
            r#"{"c": {"m": {"a": 1, "b": "x"}, "n": {"a": [1, 2]}}}"#,
        ),
        // In a block sequence's entries.
        (
            "- name: x\n  args: [\n    a,\n  ]\n- name: y\n  args: [\n  b]\n",
            r#"[{"name": "x", "args": ["a"]}, {"name": "y", "args": ["b"]}]"#,
        ),
        // A quoted scalar's next line left of the key (folded), and nested collections.
        (
            "c:\n  args: [\n    \"a\n  b\",\n  ]\n",
            r#"{"c": {"args": ["a b"]}}"#,
        ),
        (
            "c:\n  args: [\n    {a: 1,\n  b: [2,\n3]},\n  ]\n",
            r#"{"c": {"args": [{"a": 1, "b": [2, 3]}]}}"#,
        ),
        (
            "spec:\n  containers:\n  - name: a\n    command: [\"sh\", \"-c\",\n    \"echo hi\"]\n    args: [\n    ]\n",
            r#"{"spec": {"containers": [{"name": "a", "command": ["sh", "-c", "echo hi"], "args": []}]}}"#,
        ),
    ] {
        let docs = yaml::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(docs.len(), 1, "{text}");
        assert_eq!(json(&docs[0].root), want, "{text}");
    }
    // Still refused, as by PyYAML: a key over lines, a block key left of its mapping after the
    // flow sequence, an unclosed or extra bracket, a block entry inside brackets.
    for (text, line) in [
        ("k: {\nk\n:\nv\n}\n", 3),
        ("c:\n  args: [a,\n  b]\n next: 1\n", 4),
        ("c:\n  args: [a,\n  b\n", 2),
        ("c: [a, b]]\n", 1),
        ("c:\n  args: [\n  - a\n  ]\n", 3),
    ] {
        let e = yaml::parse(text).expect_err(text);
        assert_eq!(e.line, Some(line), "{text}: {e:?}");
    }
}
