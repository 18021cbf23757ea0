//! What the importer refuses before reading an object: documents kept beside manifests that are
//! not Kubernetes objects (a kustomization, a Helm chart's `Chart.yaml`, a kubeconfig, a `kubeadm
//! join` command), named with what to give instead; and an `apiVersion` the API server does not
//! serve a kind under. Called by `objects.rs`.

use crate::read::{Ctx, Obj};
use crate::yaml::{Node, Value};
use crate::{ErrorKind, ImportError};

/// Top-level keys of a kustomization (kustomize's `types.Kustomization`), of which a
/// `kustomization.yaml` without `kind` has at least one.
const KUSTOMIZE_KEYS: &[&str] = &[
    "resources",
    "bases",
    "components",
    "patches",
    "patchesStrategicMerge",
    "patchesJson6902",
    "namePrefix",
    "nameSuffix",
    "commonLabels",
    "configMapGenerator",
    "secretGenerator",
    "helmCharts",
];

/// A document that is not a Kubernetes object but something kept beside manifests — a
/// kustomization, a Helm chart's `Chart.yaml`, a kubeconfig, a `kubeadm join` command — named,
/// with what to give instead.
pub(crate) fn not_a_manifest(cx: &Ctx, root: &Node) -> Option<ImportError> {
    let refuse = |m: String| Some(cx.error(ErrorKind::NotManifest, m, Some(root)));
    match &root.value {
        Value::Str(t) => {
            let t = t.trim();
            let short: String = t.chars().take(60).collect();
            let what = if t.starts_with("kubeadm join") {
                "a `kubeadm join` command (as `kubeadm token create --print-join-command` prints it)"
                    .to_string()
            } else {
                format!("a line of text (`{short}`)")
            };
            refuse(format!(
                "the document is {what}, not a Kubernetes object: give the workloads' manifests (as `kubectl get deployment NAME -o yaml` prints them)"
            ))
        }
        Value::Map(_) => {
            let kind = root.get("kind").and_then(Node::as_str);
            let api = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
            let kustomize = match kind {
                Some("Kustomization") => true,
                Some("Component") => api.starts_with("kustomize.config.k8s.io/"),
                None => KUSTOMIZE_KEYS.iter().any(|k| root.get(k).is_some()),
                _ => false,
            };
            if kustomize {
                return refuse("this is a kustomize Kustomization (kustomization.yaml), not a manifest: it lists manifests and the changes kustomize makes to them; render it first: `kustomize build DIR | restartscope simulate -f -` (or `kubectl kustomize DIR | restartscope simulate -f -`)".into());
            }
            if kind.is_none()
                && matches!(api, "v1" | "v2")
                && root.get("name").is_some()
                && root.get("version").is_some()
            {
                return refuse("this is a Helm chart's Chart.yaml, not a manifest: render the chart first: `helm template RELEASE CHART | restartscope simulate -f -`".into());
            }
            if kind == Some("Config") && root.get("clusters").is_some() {
                return refuse("this is a kubeconfig (kind Config: how to reach clusters), not a manifest: give the workloads' manifests (as `kubectl get deployment NAME -o yaml` prints them)".into());
            }
            None
        }
        _ => None,
    }
}

/// `apiVersion` must be one Kubernetes serves `kind` under.
pub(crate) fn check_api(
    cx: &Ctx,
    o: &Obj,
    api: &str,
    kind: &str,
    served: &[&str],
) -> Result<(), ImportError> {
    if served.contains(&api) {
        return Ok(());
    }
    Err(cx.error(
        ErrorKind::ApiVersion,
        format!(
            "{} {api:?} does not serve kind {kind}: Kubernetes serves it as {}",
            o.at("apiVersion"),
            served.join(", ")
        ),
        o.node.get("apiVersion"),
    ))
}
