//! The explicit forms, `--kubelet-config FILE` and `--controller-manager FILE`: a
//! KubeletConfiguration (or OpenShift's KubeletConfig), and kube-controller-manager's static pod,
//! kubeadm's ClusterConfiguration or a plain file of flags, read into [`ClusterSettings`] by the
//! readers of `settings.rs`. Called by the CLI.

use crate::settings::{
    component_pod, extra_args, flags, from_kubelet_config, ClusterSettings, Component, Word,
};
use crate::yaml::{self, Node, Value};

/// `--kubelet-config FILE`: a KubeletConfiguration, YAML or JSON (or OpenShift's KubeletConfig,
/// whose `spec.kubeletConfig` holds its fields).
pub fn read_kubelet_config(source: &str, text: &str) -> Result<ClusterSettings, String> {
    let docs = yaml::parse(text).map_err(|e| format!("{source}: {}", syntax(&e)))?;
    // OpenShift's KubeletConfig (machineconfiguration.openshift.io/v1): spec.kubeletConfig.
    let openshift = docs.iter().find_map(|d| {
        (d.root.get("kind").and_then(Node::as_str) == Some("KubeletConfig"))
            .then(|| d.root.get("spec")?.get("kubeletConfig"))
            .flatten()
    });
    if let Some(kc) = openshift {
        return from_kubelet_config(&format!("{source}, KubeletConfig spec.kubeletConfig"), kc);
    }
    let doc = docs
        .iter()
        .find(|d| d.root.get("kind").and_then(Node::as_str) == Some("KubeletConfiguration"))
        .ok_or_else(|| {
            format!("{source} holds no KubeletConfiguration (kind: KubeletConfiguration, apiVersion: kubelet.config.k8s.io/v1beta1)")
        })?;
    from_kubelet_config(source, &doc.root)
}

/// `--controller-manager FILE`: kube-controller-manager's static-pod manifest, or its flags, one
/// or more a line (`#` comments).
pub fn read_controller_manager(source: &str, text: &str) -> Result<ClusterSettings, String> {
    if let Ok(docs) = yaml::parse(text) {
        let pod = docs.iter().find_map(|d| match component_pod(&d.root) {
            Some((Component::ControllerManager, w)) => Some(w),
            _ => None,
        });
        if let Some(words) = pod {
            return flags(source, &words, Component::ControllerManager);
        }
        // kubeadm's ClusterConfiguration: controllerManager.extraArgs.
        let kubeadm = docs.iter().find_map(|d| {
            (d.root.get("kind").and_then(Node::as_str) == Some("ClusterConfiguration"))
                .then(|| d.root.get("controllerManager")?.get("extraArgs"))
                .flatten()
        });
        if let Some(args) = kubeadm {
            let words = extra_args(args).map_err(|e| format!("{source}: {e}"))?;
            return flags(
                &format!("{source}, ClusterConfiguration controllerManager.extraArgs"),
                &words,
                Component::ControllerManager,
            );
        }
        if docs.iter().any(|d| matches!(d.root.value, Value::Map(_))) {
            return Err(format!(
                "{source} is YAML but not kube-controller-manager's static pod (a Pod in kube-system whose container runs kube-controller-manager, as /etc/kubernetes/manifests/kube-controller-manager.yaml) nor a kubeadm ClusterConfiguration with controllerManager.extraArgs; give one of those or a file of its flags"
            ));
        }
    }
    let words: Vec<Word> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.starts_with('#'))
        .flat_map(|(i, l)| l.split_whitespace().map(move |w| (w.to_string(), Some(i))))
        .collect();
    if !words.iter().any(|w| w.0.starts_with("--")) {
        return Err(format!(
            "{source} holds no kube-controller-manager flag (like --node-monitor-grace-period=50s)"
        ));
    }
    flags(source, &words, Component::ControllerManager)
}

fn syntax(e: &yaml::SyntaxError) -> String {
    match (e.line, e.column) {
        (Some(l), Some(c)) => format!("{} at line {l} column {c}", e.message),
        _ => e.message.clone(),
    }
}
