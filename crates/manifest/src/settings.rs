//! The cluster's own settings, read from the files operators have: a `KubeletConfiguration`
//! (`nodeLeaseDurationSeconds`, …; also inside OpenShift's `KubeletConfig` at
//! `spec.kubeletConfig` and kubeadm's `kubelet-config` ConfigMap), kube-controller-manager's and
//! kube-apiserver's flags — their static-pod manifests (the container's `command` and `args`),
//! kubeadm's `ClusterConfiguration` (`controllerManager.extraArgs`, `apiServer.extraArgs`; also
//! inside the `kubeadm-config` ConfigMap) or a plain file of flags
//! (`--node-monitor-grace-period=50s`) — and the kubelet's flags in kubeadm's
//! `nodeRegistration.kubeletExtraArgs`. Only what the model has a field for is set
//! (`cluster.lease_duration_s`, `cluster.node_monitor_grace_s`, `cluster.node_monitor_period_s`,
//! `cluster.toleration_s`); every other setting that bears on node health is named as not
//! modelled, never dropped silently. Each value is placed with its file and line. Used by the
//! importer (these kinds are settings, not workloads) and by the CLI's `--kubelet-config` and
//! `--controller-manager`.

use crate::yaml::{Node, Value};
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
    /// Given with an explicit flag (`--kubelet-config`, `--controller-manager`): it wins over
    /// the same setting read from a `-f` file.
    pub explicit: bool,
}

/// The not-ready toleration's field (`cluster.not_ready_toleration_s`; see
/// [`ClusterSettings::not_ready_toleration_s`]).
pub const NOT_READY_TOLERATION: &str = "the not-ready toleration of pods without one";

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
    /// The objects read as settings, in words: `KubeletConfiguration (kubelet.yaml (document
    /// 1))`, `kube-apiserver's static pod (…)`.
    pub objects: Vec<String>,
}

/// The KubeletConfiguration fields that bear on node health, and what becomes of them.
const KUBELET: &[(&str, Option<&str>, &str)] = &[
    ("nodeLeaseDurationSeconds", Some("cluster.lease_duration_s"), ""),
    ("nodeStatusUpdateFrequency", None, "the model's kubelet keeps the node Ready through its lease renewals and the status it posts when it starts; it does not post node status periodically"),
    ("nodeStatusReportFrequency", None, "the model's kubelet keeps the node Ready through its lease renewals; periodic node status reports are not modelled"),
    ("syncFrequency", None, "the model syncs each pod once after a kubelet start (first SyncPod) and on probe results; the periodic resync is not modelled"),
    ("shutdownGracePeriod", None, "the model's kubelet stops without a graceful node shutdown"),
    ("maxPods", None, "the scenario's pods are given by the manifests or --pods"),
    ("featureGates", None, "the kubelet is chosen with --policy (legacy: ChangeContainerStatusOnKubeletRestart on; kep: off, the default from 1.35) and --kubernetes-version"),
];

/// kube-apiserver flags that bear on pod eviction: the tolerations the DefaultTolerationSeconds
/// admission plugin (plugin/pkg/admission/defaulttolerationseconds) adds to a pod that has none
/// for `node.kubernetes.io/not-ready` or `node.kubernetes.io/unreachable` (300 s each by
/// default).
const APISERVER: &[(&str, Option<&str>, &str)] = &[
    (
        "--default-unreachable-toleration-seconds",
        Some("cluster.toleration_s"),
        "",
    ),
    (
        "--default-not-ready-toleration-seconds",
        Some(NOT_READY_TOLERATION),
        "",
    ),
];

/// kubelet flags (kubeadm's `nodeRegistration.kubeletExtraArgs`) that bear on node health.
/// `nodeLeaseDurationSeconds` has no flag: it is set in the KubeletConfiguration only.
const KUBELET_FLAGS: &[(&str, Option<&str>, &str)] = &[
    ("--node-status-update-frequency", None, "the model's kubelet keeps the node Ready through its lease renewals and the status it posts when it starts; it does not post node status periodically"),
    ("--sync-frequency", None, "the model syncs each pod once after a kubelet start (first SyncPod) and on probe results; the periodic resync is not modelled"),
    ("--max-pods", None, "the scenario's pods are given by the manifests or --pods"),
    ("--feature-gates", None, "the kubelet is chosen with --policy (legacy: ChangeContainerStatusOnKubeletRestart on; kep: off, the default from 1.35) and --kubernetes-version"),
    ("--config", None, "the kubelet's KubeletConfiguration file on the node: give that file with -f or --kubelet-config"),
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
    /// The setting each scenario field takes: the last one given with an explicit flag, else
    /// the last one read (files are read in the order given).
    fn chosen(&self) -> Vec<&Setting> {
        let mut out: Vec<&Setting> = Vec::new();
        for s in &self.set {
            match out.iter_mut().find(|c| c.field == s.field) {
                Some(c) if s.explicit || !c.explicit => *c = s,
                Some(_) => {}
                None => out.push(s),
            }
        }
        out
    }

    /// Sets the scenario's cluster fields these settings name (validation is the scenario's).
    /// `--default-unreachable-toleration-seconds` is the toleration DefaultTolerationSeconds
    /// gives pods that have none, so it replaces `cluster.toleration_s` only while that is the
    /// plugin's own default (300 s): a scenario whose pods tolerate another time keeps it.
    pub fn apply(&self, c: &mut Cluster) {
        for s in self.chosen() {
            match s.field {
                "cluster.lease_duration_s" => c.lease_duration_s = s.seconds,
                "cluster.node_monitor_period_s" => c.node_monitor_period_s = s.seconds,
                // As `Scenario::with_grace`: the version's default stays implicit.
                "cluster.node_monitor_grace_s" if s.seconds != c.grace_s() => {
                    c.node_monitor_grace_s = Some(s.seconds)
                }
                "cluster.toleration_s" if c.toleration_s == Cluster::default().toleration_s => {
                    c.toleration_s = s.seconds
                }
                // The DefaultTolerationSeconds plugin's not-ready toleration, as for unreachable.
                NOT_READY_TOLERATION
                    if c.not_ready_toleration_s == Cluster::default().not_ready_toleration_s =>
                {
                    c.not_ready_toleration_s = s.seconds
                }
                _ => {}
            }
        }
    }

    /// The `--node-monitor-grace-period` read, if any.
    pub fn grace_s(&self) -> Option<f64> {
        self.seconds("cluster.node_monitor_grace_s")
    }

    /// kube-apiserver's `--default-unreachable-toleration-seconds`, if read: the
    /// `node.kubernetes.io/unreachable` toleration DefaultTolerationSeconds adds to pods without
    /// one.
    pub fn unreachable_toleration_s(&self) -> Option<f64> {
        self.seconds("cluster.toleration_s")
    }

    /// kube-apiserver's `--default-not-ready-toleration-seconds`, if read: the
    /// `node.kubernetes.io/not-ready` toleration DefaultTolerationSeconds adds to pods without
    /// one.
    ///
    /// [`ClusterSettings::apply`] sets `cluster.not_ready_toleration_s` with it.
    pub fn not_ready_toleration_s(&self) -> Option<f64> {
        self.seconds(NOT_READY_TOLERATION)
    }

    fn seconds(&self, field: &str) -> Option<f64> {
        self.chosen()
            .into_iter()
            .find(|s| s.field == field)
            .map(|s| s.seconds)
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.not_modelled.is_empty() && self.other.is_empty()
    }

    pub fn extend(&mut self, o: ClusterSettings) {
        self.set.extend(o.set);
        self.not_modelled.extend(o.not_modelled);
        self.other.extend(o.other);
        self.objects.extend(o.objects);
    }

    /// These settings as given with an explicit flag (they win over `-f` files).
    pub fn explicit(mut self) -> Self {
        for s in &mut self.set {
            s.explicit = true;
        }
        self
    }

    /// One note per scenario field that two settings set to different values: both, where
    /// they were read, and which one is used.
    pub fn disagreements(&self) -> Vec<String> {
        let chosen = self.chosen();
        let mut out = Vec::new();
        for c in chosen {
            let others: Vec<&Setting> = self
                .set
                .iter()
                .filter(|s| s.field == c.field && s.seconds != c.seconds)
                .collect();
            if others.is_empty() {
                continue;
            }
            let them: Vec<String> = others
                .iter()
                .map(|s| format!("{} {} from {}", s.name, s.value, s.source))
                .collect();
            let why = if c.explicit && others.iter().any(|s| !s.explicit) {
                "the flag wins over a -f file"
            } else {
                "the last one read wins"
            };
            out.push(format!(
                "{}: {} {} from {} and {} disagree; the model uses {} {} ({why})",
                c.field,
                c.name,
                c.value,
                c.source,
                them.join(" and "),
                c.name,
                c.value,
            ));
        }
        out
    }

    /// One line per setting: what was read, from where, and what it set (or why not).
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .set
            .iter()
            .map(|s| {
                if s.field == NOT_READY_TOLERATION {
                    format!(
                        "{} {} from {} sets cluster.not_ready_toleration_s (the toleration of node.kubernetes.io/not-ready given to pods without one; it acts only once the kubelet posts its node NotReady, which this model's kubelet does not yet)",
                        s.name, s.value, s.source
                    )
                } else {
                    format!("{} {} from {} sets {}", s.name, s.value, s.source, s.field)
                }
            })
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
        let at = place_line(source, v.line);
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
                    explicit: false,
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
    let words: Vec<Word> = words.iter().map(|w| (w.clone(), None)).collect();
    flags(source, &words, Component::ControllerManager)
}

/// One word of a command line, with the line it is on in its file when known.
pub type Word = (String, Option<usize>);

/// Whose flags: each has its own table of the flags that bear on node or pod health.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component {
    ControllerManager,
    ApiServer,
    Kubelet,
}

impl Component {
    fn table(self) -> &'static [(&'static str, Option<&'static str>, &'static str)] {
        match self {
            Component::ControllerManager => KCM,
            Component::ApiServer => APISERVER,
            Component::Kubelet => KUBELET_FLAGS,
        }
    }
    /// The program: `kube-controller-manager`.
    pub fn program(self) -> &'static str {
        match self {
            Component::ControllerManager => "kube-controller-manager",
            Component::ApiServer => "kube-apiserver",
            Component::Kubelet => "kubelet",
        }
    }
}

/// `component`'s flags read from `words` (placed at `source`, `source line N`).
pub fn flags(
    source: &str,
    words: &[Word],
    component: Component,
) -> Result<ClusterSettings, String> {
    let mut out = ClusterSettings::default();
    let mut other = 0;
    let mut i = 0;
    let at = |line: Option<usize>| match line {
        Some(l) => place_line(source, l),
        None => source.to_string(),
    };
    while i < words.len() {
        let (w, line) = &words[i];
        i += 1;
        if !w.starts_with("--") {
            continue;
        }
        let (name, value) = match w.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => match words.get(i) {
                Some((v, _)) if !v.starts_with("--") => {
                    i += 1;
                    (w.clone(), v.clone())
                }
                _ => (w.clone(), "true".to_string()),
            },
        };
        let src = at(*line);
        if component == Component::ApiServer && name == "--disable-admission-plugins" {
            if value
                .split(',')
                .any(|p| p.trim() == "DefaultTolerationSeconds")
            {
                out.not_modelled.push(NotModelled {
                    name,
                    value,
                    source: src,
                    why: "with DefaultTolerationSeconds disabled, pods without a toleration get none and are never evicted; the model's pods always have one (cluster.toleration_s)",
                });
            } else {
                other += 1;
            }
            continue;
        }
        match component.table().iter().find(|(n, ..)| *n == name) {
            Some((n, Some(field), _)) => {
                let seconds = if component == Component::ApiServer {
                    // kube-apiserver takes these as whole seconds (int64 flags).
                    match value.trim().parse::<i64>() {
                        Ok(v) if v >= 0 => v as f64,
                        _ => {
                            return Err(format!(
                                "{src}: {n} must be a whole number of seconds, at least 0, got {value:?}"
                            ))
                        }
                    }
                } else {
                    parse_duration(&value).map_err(|e| format!("{src}: {n}: {e}"))?
                };
                out.set.push(Setting {
                    name: n.to_string(),
                    value,
                    seconds,
                    field,
                    source: src,
                    explicit: false,
                });
            }
            Some((n, None, why)) => out.not_modelled.push(NotModelled {
                name: n.to_string(),
                value,
                source: src,
                why,
            }),
            None => other += 1,
        }
    }
    out.other.push((source.to_string(), other));
    Ok(out)
}

/// `file (document 1), kube-controller-manager's static pod` at line 12:
/// `file (document 1) line 12, kube-controller-manager's static pod`.
fn place_line(source: &str, line: usize) -> String {
    match source.split_once(", ") {
        Some((file, what)) => format!("{file} line {line}, {what}"),
        None => format!("{source} line {line}"),
    }
}

/// The words of a container's `command` and `args`, with their lines, when it runs `program`.
fn component_words(container: &Node, program: &str) -> Option<Vec<Word>> {
    let words = |key: &str| -> Vec<Word> {
        match container.get(key).map(|n| &n.value) {
            Some(Value::Seq(s)) => s
                .iter()
                .filter_map(|n| n.as_str().map(|w| (w.to_string(), Some(n.line))))
                .collect(),
            _ => Vec::new(),
        }
    };
    let command = words("command");
    let runs = command.first().is_some_and(|c| c.0.ends_with(program))
        || container
            .get("image")
            .and_then(Node::as_str)
            .is_some_and(|i| i.contains(program));
    runs.then(|| command.into_iter().chain(words("args")).collect())
}

/// The words of a container's `command` and `args`, when it runs kube-controller-manager.
pub fn controller_manager_words(container: &Node) -> Option<Vec<String>> {
    component_words(container, "kube-controller-manager")
        .map(|w| w.into_iter().map(|(w, _)| w).collect())
}

/// A Pod (its root mapping) in `kube-system` whose container runs kube-controller-manager or
/// kube-apiserver (a control-plane static pod, as kubeadm writes to /etc/kubernetes/manifests):
/// which, and the flags of the first such container.
pub fn component_pod(root: &Node) -> Option<(Component, Vec<Word>)> {
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
    let Value::Seq(cs) = &root.get("spec")?.get("containers")?.value else {
        return None;
    };
    [Component::ControllerManager, Component::ApiServer]
        .into_iter()
        .find_map(|c| {
            cs.iter()
                .find_map(|n| component_words(n, c.program()))
                .map(|w| (c, w))
        })
}

/// A Pod (its root mapping) in `kube-system` whose container runs kube-controller-manager: the
/// flags of the first such container.
pub fn controller_manager_pod(root: &Node) -> Option<Vec<String>> {
    match component_pod(root)? {
        (Component::ControllerManager, w) => Some(w.into_iter().map(|(w, _)| w).collect()),
        _ => None,
    }
}

/// kubeadm's `extraArgs` / `kubeletExtraArgs`: a mapping `{name: value}` (kubeadm.k8s.io/v1beta2
/// and v1beta3) or a list of `{name, value}` (v1beta4), as `--name=value` words with their lines.
pub fn extra_args(node: &Node) -> Result<Vec<Word>, String> {
    match &node.value {
        Value::Map(m) => Ok(m
            .iter()
            .map(|(k, v)| (format!("--{k}={}", scalar(v)), Some(v.line)))
            .collect()),
        Value::Seq(items) => items
            .iter()
            .map(|it| {
                let name = it.get("name").and_then(Node::as_str);
                match (name, it.get("value")) {
                    (Some(n), Some(v)) => Ok((format!("--{n}={}", scalar(v)), Some(it.line))),
                    (Some(n), None) => Ok((format!("--{n}="), Some(it.line))),
                    _ => Err(format!(
                        "line {}: each extraArgs item must have a name and a value (kubeadm.k8s.io/v1beta4 Arg)",
                        it.line
                    )),
                }
            })
            .collect(),
        Value::Null => Ok(Vec::new()),
        _ => Err(format!(
            "line {}: extraArgs must be a mapping (kubeadm.k8s.io/v1beta3) or a list of name and value (v1beta4), got {}",
            node.line,
            node.kind()
        )),
    }
}
