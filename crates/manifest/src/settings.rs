//! The cluster's own settings, read from the files operators have: a `KubeletConfiguration`
//! (`nodeLeaseDurationSeconds`, …) and kube-controller-manager's flags — its static-pod manifest
//! (the container's `command` and `args`) or a plain file of flags
//! (`--node-monitor-grace-period=50s`). Only what the model has a field for is set
//! (`cluster.lease_duration_s`, `cluster.node_monitor_grace_s`, `cluster.node_monitor_period_s`);
//! every other setting that bears on node health is named as not modelled, never dropped
//! silently. Used by the importer (those two kinds are settings, not workloads) and by the CLI's
//! `--kubelet-config` and `--controller-manager`.

use crate::yaml::{self, Node, Value};
use restartscope_sim::{parse_duration, Cluster};

/// One setting read and applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// Kubernetes' name: `nodeLeaseDurationSeconds`, `--node-monitor-grace-period`.
    pub name: String,
    /// As written: `40`, `50s`.
    pub value: String,
    pub seconds: f64,
    /// The scenario's field it sets: `cluster.lease_duration_s`.
    pub field: &'static str,
    /// Where it was read: a file name (and `line N` when known).
    pub source: String,
}

/// A setting read that the model has no field for.
#[derive(Clone, Debug, PartialEq)]
pub struct NotModelled {
    pub name: String,
    pub value: String,
    pub source: String,
    /// Why, in words.
    pub why: &'static str,
}

/// What a settings file gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterSettings {
    pub set: Vec<Setting>,
    pub not_modelled: Vec<NotModelled>,
    /// Settings read that do not bear on node or pod health in the model (counted, per source).
    pub other: Vec<(String, usize)>,
}

/// The KubeletConfiguration fields that bear on node health, and what becomes of them.
const KUBELET: &[(&str, Option<&str>, &str)] = &[
    ("nodeLeaseDurationSeconds", Some("cluster.lease_duration_s"), ""),
    ("nodeStatusUpdateFrequency", None, "the model's kubelet keeps the node Ready through its lease renewals and the status it posts when it starts; it does not post node status periodically"),
    ("nodeStatusReportFrequency", None, "the model's kubelet keeps the node Ready through its lease renewals; periodic node status reports are not modelled"),
    ("syncFrequency", None, "the model syncs each pod once after a kubelet start (first SyncPod) and on probe results; the periodic resync is not modelled"),
    ("shutdownGracePeriod", None, "the model's kubelet stops without a graceful node shutdown"),
    ("maxPods", None, "the scenario's pods are given by the manifests or --pods (at most 110)"),
    ("featureGates", None, "the kubelet is chosen with --policy (legacy: ChangeContainerStatusOnKubeletRestart on; kep: off, the default from 1.35) and --kubernetes-version"),
];

/// kube-controller-manager flags that bear on node health, and what becomes of them.
const KCM: &[(&str, Option<&str>, &str)] = &[
    ("--node-monitor-grace-period", Some("cluster.node_monitor_grace_s"), ""),
    ("--node-monitor-period", Some("cluster.node_monitor_period_s"), ""),
    ("--pod-eviction-timeout", None, "removed in Kubernetes 1.27 (it had no effect since taint-based eviction); pods are evicted after their unreachable toleration (tolerationSeconds, cluster.toleration_s)"),
    ("--node-startup-grace-period", None, "the model's node has started before the run"),
    ("--node-eviction-rate", None, "the model uses Kubernetes' default, 0.1 nodes per second"),
    ("--secondary-node-eviction-rate", None, "the model uses Kubernetes' default, 0.01 nodes per second"),
    ("--unhealthy-zone-threshold", None, "the model uses Kubernetes' default, 0.55"),
    ("--large-cluster-size-threshold", None, "the model uses Kubernetes' default, 50 nodes"),
    ("--controllers", None, "the model always runs the node lifecycle, taint eviction and EndpointSlice controllers"),
];

impl ClusterSettings {
    /// Sets the scenario's cluster fields these settings name (validation is the scenario's).
    pub fn apply(&self, c: &mut Cluster) {
        for s in &self.set {
            match s.field {
                "cluster.lease_duration_s" => c.lease_duration_s = s.seconds,
                "cluster.node_monitor_period_s" => c.node_monitor_period_s = s.seconds,
                // As `Scenario::with_grace`: the version's default stays implicit.
                "cluster.node_monitor_grace_s" if s.seconds != c.grace_s() => {
                    c.node_monitor_grace_s = Some(s.seconds)
                }
                _ => {}
            }
        }
    }

    /// The `--node-monitor-grace-period` read, if any.
    pub fn grace_s(&self) -> Option<f64> {
        self.set
            .iter()
            .find(|s| s.field == "cluster.node_monitor_grace_s")
            .map(|s| s.seconds)
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.not_modelled.is_empty() && self.other.is_empty()
    }

    pub fn extend(&mut self, o: ClusterSettings) {
        self.set.extend(o.set);
        self.not_modelled.extend(o.not_modelled);
        self.other.extend(o.other);
    }

    /// One line per setting: what was read, from where, and what it set (or why not).
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .set
            .iter()
            .map(|s| format!("{} {} from {} sets {}", s.name, s.value, s.source, s.field))
            .collect();
        out.extend(self.not_modelled.iter().map(|n| {
            format!(
                "{} {} from {} is not modelled: {}",
                n.name, n.value, n.source, n.why
            )
        }));
        out.extend(self.other.iter().filter(|(_, n)| *n > 0).map(|(src, n)| {
            let what = if *n == 1 { "setting" } else { "settings" };
            format!("{n} other {what} in {src} do not bear on node or pod health in the model: not read")
        }));
        out
    }
}

fn scalar(n: &Node) -> String {
    match &n.value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => s.clone(),
        Value::Seq(_) => "[…]".into(),
        Value::Map(m) => {
            let keys: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}: {}", scalar(v)))
                .collect();
            format!("{{{}}}", keys.join(", "))
        }
    }
}

/// A KubeletConfiguration document (its root mapping) from `source`.
pub fn from_kubelet_config(source: &str, root: &Node) -> Result<ClusterSettings, String> {
    let mut out = ClusterSettings::default();
    let Value::Map(m) = &root.value else {
        return Err(format!(
            "{source}: a KubeletConfiguration must be a mapping"
        ));
    };
    let mut other = 0;
    for (k, v) in m {
        if k == "apiVersion" || k == "kind" {
            continue;
        }
        let at = format!("{source} line {}", v.line);
        match KUBELET.iter().find(|(name, ..)| name == k) {
            Some((name, Some(field), _)) => {
                let seconds = match &v.value {
                    Value::Int(i) if *i > 0 => *i as f64,
                    _ => {
                        return Err(format!(
                            "{at}: {name} must be a positive whole number of seconds, got {}",
                            scalar(v)
                        ))
                    }
                };
                out.set.push(Setting {
                    name: name.to_string(),
                    value: scalar(v),
                    seconds,
                    field,
                    source: at,
                });
            }
            Some((name, None, why)) => out.not_modelled.push(NotModelled {
                name: name.to_string(),
                value: scalar(v),
                source: at,
                why,
            }),
            None => other += 1,
        }
    }
    out.other.push((source.to_string(), other));
    Ok(out)
}

/// kube-controller-manager's flags (`--name=value` or `--name value`; other words, the program's
/// name, are skipped).
pub fn from_flags(source: &str, words: &[String]) -> Result<ClusterSettings, String> {
    let mut out = ClusterSettings::default();
    let mut other = 0;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if !w.starts_with("--") {
            continue;
        }
        let (name, value) = match w.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => match words.get(i) {
                Some(v) if !v.starts_with("--") => {
                    i += 1;
                    (w.clone(), v.clone())
                }
                _ => (w.clone(), "true".to_string()),
            },
        };
        match KCM.iter().find(|(n, ..)| *n == name) {
            Some((n, Some(field), _)) => {
                let seconds = parse_duration(&value).map_err(|e| format!("{source}: {n}: {e}"))?;
                out.set.push(Setting {
                    name: n.to_string(),
                    value,
                    seconds,
                    field,
                    source: source.to_string(),
                });
            }
            Some((n, None, why)) => out.not_modelled.push(NotModelled {
                name: n.to_string(),
                value,
                source: source.to_string(),
                why,
            }),
            None => other += 1,
        }
    }
    out.other.push((source.to_string(), other));
    Ok(out)
}

/// The words of a container's `command` and `args`, when it runs kube-controller-manager.
pub fn controller_manager_words(container: &Node) -> Option<Vec<String>> {
    let words = |key: &str| -> Vec<String> {
        match container.get(key).map(|n| &n.value) {
            Some(Value::Seq(s)) => s
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let command = words("command");
    let runs = command
        .first()
        .is_some_and(|c| c.ends_with("kube-controller-manager"))
        || container
            .get("image")
            .and_then(Node::as_str)
            .is_some_and(|i| i.contains("kube-controller-manager"));
    runs.then(|| command.into_iter().chain(words("args")).collect())
}

/// A Pod (its root mapping) in `kube-system` whose container runs kube-controller-manager: the
/// flags of the first such container.
pub fn controller_manager_pod(root: &Node) -> Option<Vec<String>> {
    if root.get("kind").and_then(Node::as_str) != Some("Pod") {
        return None;
    }
    let ns = root
        .get("metadata")
        .and_then(|m| m.get("namespace"))
        .and_then(Node::as_str);
    if ns != Some("kube-system") {
        return None;
    }
    match &root.get("spec")?.get("containers")?.value {
        Value::Seq(cs) => cs.iter().find_map(controller_manager_words),
        _ => None,
    }
}

/// `--kubelet-config FILE`: a KubeletConfiguration, YAML or JSON.
pub fn read_kubelet_config(source: &str, text: &str) -> Result<ClusterSettings, String> {
    let docs = yaml::parse(text).map_err(|e| format!("{source}: {}", syntax(&e)))?;
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
        if let Some(words) = docs.iter().find_map(|d| controller_manager_pod(&d.root)) {
            return from_flags(source, &words);
        }
        if docs.iter().any(|d| matches!(d.root.value, Value::Map(_))) {
            return Err(format!(
                "{source} is YAML but not kube-controller-manager's static pod (a Pod in kube-system whose container runs kube-controller-manager, as /etc/kubernetes/manifests/kube-controller-manager.yaml); give that file or a file of its flags"
            ));
        }
    }
    let words: Vec<String> = text
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split_whitespace().map(str::to_string))
        .collect();
    if !words.iter().any(|w| w.starts_with("--")) {
        return Err(format!(
            "{source} holds no kube-controller-manager flag (like --node-monitor-grace-period=50s)"
        ));
    }
    from_flags(source, &words)
}

fn syntax(e: &yaml::SyntaxError) -> String {
    match (e.line, e.column) {
        (Some(l), Some(c)) => format!("{} at line {l} column {c}", e.message),
        _ => e.message.clone(),
    }
}
