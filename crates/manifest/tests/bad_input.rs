//! One test per class of bad input, and random bytes and truncated manifests that must never
//! panic.

use proptest::prelude::*;
use restartscope_manifest::{import_str, ErrorKind, ImportError, ImportOptions};

fn err(text: &str) -> ImportError {
    match import_str(text, &ImportOptions::default()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

const DEPLOYMENT: &str = include_str!("data/deployment-sidecar.yaml");

#[test]
fn malformed_yaml_gives_the_parsers_message_with_line_and_column() {
    // Placed at the bracket that the wrong one closes.
    let e = err("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: {app: [x}\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!((e.line, e.column), (Some(5), Some(17)), "{e}");
    assert!(
        e.to_string()
            .ends_with("mismatched bracket '[' closed by '}' at line 5 column 17"),
        "{e}"
    );
    let e = err("kind: Pod\n  name: x\n metadata: y\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.line.is_some() && e.column.is_some(), "{e}");
}

#[test]
fn malformed_json_too() {
    let e = err("{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"spec\": {\"containers\": [}\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line, Some(2), "{e}");
}

#[test]
fn a_kind_that_is_not_a_workload_is_named() {
    let e = err(
        "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n",
    );
    assert_eq!(e.kind, ErrorKind::NotWorkload);
    assert!(
        e.message.starts_with("kind Service is not a workload: "),
        "{e}"
    );
    let e = err("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n");
    assert!(
        e.message.starts_with("kind ConfigMap is not a workload"),
        "{e}"
    );
    assert!(e.message.contains("ConfigMap, Secret"), "{e}");
    assert_eq!(e.line, Some(1));
}

#[test]
fn empty_input_holds_no_object() {
    for text in ["", "# just a comment\n", "---\n---\n"] {
        let e = err(text);
        assert_eq!(e.kind, ErrorKind::NotWorkload);
        assert!(e.message.contains("no Kubernetes object"), "{e}");
    }
}

#[test]
fn documents_over_one_mib_are_refused() {
    let big = format!(
        "{DEPLOYMENT}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: big}}\ndata:\n  blob: \"{}\"\n",
        "x".repeat(1 << 20)
    );
    let e = err(&big);
    assert_eq!(e.kind, ErrorKind::TooLarge);
    assert!(
        e.message.contains("documents over 1 MiB are refused"),
        "{e}"
    );
    assert_eq!(e.line, Some(92), "the second document's `---`: {e}");
}

#[test]
fn deep_nesting_and_alias_bombs_are_refused() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(err(&deep).kind, ErrorKind::TooLarge);
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        bomb.push_str(&format!(
            "{}: &{} [*{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}]\n",
            (b'a' + i) as char,
            (b'a' + i) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char,
            (b'a' + i - 1) as char
        ));
    }
    let e = err(&bomb);
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
}

#[test]
fn unknown_or_missing_api_version() {
    let e = err(&DEPLOYMENT.replace("apiVersion: apps/v1", "apiVersion: apps/v2"));
    assert_eq!(e.kind, ErrorKind::ApiVersion);
    assert!(
        e.message
            .starts_with("apiVersion \"apps/v2\" does not serve kind Deployment: Kubernetes serves it as apps/v1"),
        "{e}"
    );
    assert_eq!(e.line, Some(3));
    let e = err(&DEPLOYMENT.replace("apiVersion: apps/v1\n", ""));
    assert_eq!(e.kind, ErrorKind::ApiVersion);
    assert!(e.message.starts_with("apiVersion is required"), "{e}");
    let e = err("apiVersion: v1\nmetadata: {name: x}\n");
    assert!(e.message.starts_with("kind is required"), "{e}");
    // A custom resource of another group is not a workload.
    let e = err("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    assert_eq!(e.kind, ErrorKind::NotWorkload);
    // A removed apiVersion of a workload is read, with a note.
    let old = DEPLOYMENT.replace("apiVersion: apps/v1", "apiVersion: extensions/v1beta1");
    let im = import_str(&old, &ImportOptions::default()).unwrap();
    assert!(im
        .notes
        .iter()
        .any(|n| n.contains("extensions/v1beta1 is no longer served")));
}

#[test]
fn a_field_of_the_wrong_type_names_its_path_and_place() {
    let e = err(&DEPLOYMENT.replace("periodSeconds: 5", "periodSeconds: five"));
    assert_eq!(e.kind, ErrorKind::Field);
    assert!(
        e.message.starts_with(
            "spec.template.spec.containers[0].readinessProbe.periodSeconds must be an integer, got a string"
        ),
        "{e}"
    );
    assert_eq!(e.line, Some(68));
    let e = err(&DEPLOYMENT.replace("failureThreshold: 30", "failureThreshold: -1"));
    assert!(
        e.message
            .ends_with("must be greater than or equal to 0, got -1"),
        "{e}"
    );
    let e = err(&DEPLOYMENT.replace(
        "            exec:\n",
        "            tcpSocket: {port: 1}\n            exec:\n",
    ));
    assert!(
        e.message.contains("must specify exactly one handler type"),
        "{e}"
    );
    assert!(e.message.contains("exec and tcpSocket"), "{e}");
}

#[test]
fn the_models_validation_speaks_kubernetes_and_points_at_the_manifest() {
    // successThreshold must be 1 for liveness (validateLivenessProbe).
    let e = err(&DEPLOYMENT.replace(
        "initialDelaySeconds: 15",
        "initialDelaySeconds: 15\n            successThreshold: 2",
    ));
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(
        e.message
            .starts_with("containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2 (Deployment web)"),
        "{e}"
    );
    // The line is said once, after the message (it was in both).
    assert_eq!(
        (e.line, e.to_string().matches("line 72").count()),
        (Some(72), 1),
        "{e}"
    );
    assert_eq!(e.errors.len(), 3, "one per replica");
    assert_eq!(
        e.message.matches("livenessProbe").count(),
        1,
        "said once: {e}"
    );
    // Probes on an ordinary init container are rejected, as by the API server.
    let e = err(&DEPLOYMENT.replace(
        "          command: [\"/migrate\", \"--up\"]\n",
        "          command: [\"/migrate\", \"--up\"]\n          readinessProbe: {exec: {command: [x]}}\n",
    ));
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("initContainers[0]"), "{e}");
    // Too many pods for the model.
    let e = err(&DEPLOYMENT.replace("replicas: 3", "replicas: 5000"));
    assert!(
        e.message
            .starts_with("the workloads put 5000 pods on this node"),
        "{e}"
    );
}

#[test]
fn a_zero_replica_workload_gives_no_pods() {
    let e = err(&DEPLOYMENT.replace("replicas: 3", "replicas: 0"));
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.starts_with("pods must list between 1"), "{e}");
}

/// Every prefix of each test manifest; of the longer quoted ones (tests/data/real), every 7th.
#[test]
fn truncated_manifests_never_panic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let real = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/real");
    let files = std::fs::read_dir(dir)
        .unwrap()
        .map(|f| (f, 1))
        .chain(std::fs::read_dir(real).unwrap().map(|f| (f, 7)));
    for (f, step) in files {
        let Ok(f) = f else { continue };
        if !f.path().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(f.path()).unwrap();
        for cut in (0..text.len())
            .step_by(step)
            .filter(|&i| text.is_char_boundary(i))
        {
            let _ = import_str(&text[..cut], &ImportOptions::default());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = import_str(&text, &ImportOptions::default());
    }

    #[test]
    fn mangled_manifests_never_panic(
        cut in 0usize..3000,
        at in 0usize..3000,
        with in proptest::sample::select(vec![":", "-", "[", "{", "\"", "'", "&a", "*a", "\n", "  ", "\t", "0", "-1", "!!str", "---\n", "null"]),
    ) {
        let mut text = DEPLOYMENT.to_string();
        let at = at.min(text.len());
        if text.is_char_boundary(at) {
            text.insert_str(at, with);
        }
        let cut = cut.min(text.len());
        if text.is_char_boundary(cut) {
            text.truncate(cut.max(at));
        }
        let _ = import_str(&text, &ImportOptions::default());
    }
}

#[test]
fn an_unrendered_helm_template_is_named_with_its_line() {
    let e = err("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n");
    assert_eq!(e.kind, ErrorKind::NotManifest);
    assert!(
        e.message
            .starts_with("line 4 holds Helm template syntax `{{ .Release.Name }}`"),
        "{e}"
    );
    // `{{` inside a string is a rendered chart's text (an alert template), not a template.
    use restartscope_manifest::inputs::helm_template_line;
    assert_eq!(
        helm_template_line("summary: \"{{ $labels.x }} down\"\n"),
        None
    );
    assert_eq!(helm_template_line("# {{ a comment }}\n"), None);
    assert_eq!(
        helm_template_line("a: 1\n{{- if .Values.on }}\n"),
        Some((2, "{{- if .Values.on }}".to_string()))
    );
}
