//! `-f/--manifest` as operators pipe and point it — standard input, directories,
//! multi-document streams as `helm template` and `kustomize build` print them, `kind: List`, and
//! a chart's unrendered template refused with its file and line.

mod common;
use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../manifest/tests/data");

/// Runs with `input` on standard input: (status, stdout, stderr).
fn piped(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn pods(doc: &str) -> Vec<String> {
    let j: serde_json::Value = serde_json::from_str(doc).unwrap();
    j["scenario"]["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("restartscope-inputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: NAME
  labels: {app: NAME}
spec:
  containers:
    - name: app
      image: nginx
      readinessProbe:
        httpGet: {path: /, port: 80}
";

fn pod(name: &str) -> String {
    POD.replace("NAME", name)
}

#[test]
fn standard_input() {
    let yaml = std::fs::read_to_string(format!("{DATA}/deployment-sidecar.yaml")).unwrap();
    let (code, out, err) = piped(&["simulate", "-f", "-", "-o", "json"], &yaml);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        pods(&out),
        ["web-688597-w57c9", "web-688597-xkvtn", "web-688597-9hqv5"]
    );
    // The same as reading the file.
    let file = ok_stdout(&[
        "simulate",
        "-f",
        &format!("{DATA}/deployment-sidecar.yaml"),
        "-o",
        "json",
    ]);
    assert_eq!(out, file);
    let (code, out, _) = piped(&["import", "-f", "-"], &yaml);
    assert_eq!(code, 0);
    assert!(out.contains("# Deployment web: 3 pod(s)"), "{out}");
    let (code, _, err) = piped(&["simulate", "-f", "-", "-f", "-"], &yaml);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("given twice"), "{err}");
    let (code, _, err) = piped(&["simulate", "-f", "-"], "kind: Pod\n  x: [\n");
    assert_eq!(code, 2);
    assert!(err.contains("invalid manifest standard input:"), "{err}");
}

fn ok_stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_directory_recursively_in_sorted_order() {
    let d = tmpdir("dir");
    std::fs::create_dir_all(d.join("b/nested")).unwrap();
    std::fs::write(d.join("b/nested/z.yml"), pod("zeta")).unwrap();
    std::fs::write(d.join("b/a.yaml"), pod("alpha")).unwrap();
    std::fs::write(d.join("c.json"), r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"gamma"},"spec":{"containers":[{"name":"app","image":"x"}]}}"#).unwrap();
    std::fs::write(d.join("README.md"), "not a manifest: {{ ignored }}").unwrap();
    std::fs::write(d.join("a.yaml"), pod("first")).unwrap();
    let dir = d.to_str().unwrap();
    let out = ok_stdout(&["simulate", "-f", dir, "-o", "json"]);
    assert_eq!(pods(&out), ["first", "alpha", "zeta", "gamma"]);
    let empty = tmpdir("empty");
    fails(
        &["simulate", "-f", empty.to_str().unwrap()],
        &["holds no .yaml, .yml or .json file"],
    );
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&empty);
}

/// What `helm template` prints: `---` and a `# Source:` comment before each document, empty
/// documents where a template rendered nothing, strings that still hold `{{ }}` (alert texts).
#[test]
fn a_helm_template_stream() {
    let stream = format!(
        "---\n# Source: web/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web\n---\n# Source: web/templates/empty.yaml\n---\n# Source: web/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations:\n    summary: \"{{{{ $labels.instance }}}} is down\"\nspec:\n  selector: {{app: web}}\n---\n# Source: web/templates/pod.yaml\n{}",
        pod("web")
    );
    let (code, out, err) = piped(&["simulate", "-f", "-", "-o", "json"], &stream);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pods(&out), ["web"]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["scenario"]["pods"][0]["service"], "web");
    // kustomize build: plain `---` between documents.
    let kustomized = format!("{}---\n{}", pod("one"), pod("two"));
    let (code, out, _) = piped(&["simulate", "-f", "-", "-o", "json"], &kustomized);
    assert_eq!(code, 0);
    assert_eq!(pods(&out), ["one", "two"]);
}

/// `kubectl get pods -o yaml` prints a `kind: List`.
#[test]
fn a_kind_list() {
    let items: String = ["a", "b"]
        .iter()
        .map(|n| {
            pod(n)
                .lines()
                .enumerate()
                .map(|(i, l)| {
                    if i == 0 {
                        format!("- {l}\n")
                    } else {
                        format!("  {l}\n")
                    }
                })
                .collect::<String>()
        })
        .collect();
    let list =
        format!("apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n{items}");
    let (code, out, err) = piped(&["simulate", "-f", "-", "-o", "json"], &list);
    assert_eq!(code, 0, "{err}\n{list}");
    assert_eq!(pods(&out), ["a", "b"]);
}

#[test]
fn an_unrendered_chart_is_named_with_its_line() {
    let d = tmpdir("helm");
    let f = d.join("deployment.yaml");
    std::fs::write(
        &f,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {{ .Values.replicaCount }}\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    fails(
        &["simulate", "-f", path],
        &[
            path,
            "line 6 holds Helm template syntax `{{ .Values.replicaCount }}`",
            "helm template",
        ],
    );
    let (code, _, err) = piped(
        &["import", "-f", "-"],
        "{{- if .Values.enabled }}\napiVersion: v1\nkind: Pod\n{{- end }}\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("standard input: line 1 holds Helm template syntax"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A kustomization in a directory is skipped with a note (the other files are read as they
/// are); given as a file, it is refused with the command that renders it.
#[test]
fn a_kustomization_in_a_directory_is_skipped_with_a_note() {
    let real = format!(
        "{}/../manifest/tests/data/real/kustomization-helloworld.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let d = tmpdir("kustomize");
    std::fs::copy(&real, d.join("kustomization.yaml")).unwrap();
    std::fs::write(d.join("pod.yaml"), pod("web")).unwrap();
    let dir = d.to_str().unwrap();
    let out = run(&["simulate", "-f", dir, "-o", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("kustomization.yaml is a kustomization: skipped"),
        "{err}"
    );
    assert!(err.contains(&format!("kustomize build {dir}")), "{err}");
    fails(
        &["simulate", "-f", &real],
        &[
            "kustomize Kustomization",
            "kustomize build DIR | restartscope simulate -f -",
        ],
    );
    std::fs::remove_file(d.join("pod.yaml")).unwrap();
    fails(
        &["simulate", "-f", dir],
        &["holds a kustomization", "and no other .yaml"],
    );
    let _ = std::fs::remove_dir_all(&d);
}
