//! The scenario's serde types and their Kubernetes defaults (`SetDefaults_Probe`, the node
//! monitor grace period by version). A leaf: `validate.rs` and `edit.rs` build on it, `mod.rs`
//! re-exports it.

pub use super::kinds::{Handler, RestartKind};
use super::node::{NodeObject, SelectorTerm, Toleration};
use super::one_or_many;
pub use super::owner::{Owner, OwnerKind, OWNER_KINDS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which kubelet we model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// The kubelet before KEP-4781 (or v1.35 with `ChangeContainerStatusOnKubeletRestart=true`).
    Legacy,
    /// KEP-4781: v1.35 default (`ChangeContainerStatusOnKubeletRestart=false`).
    Kep,
}

impl Policy {
    pub const BOTH: [Policy; 2] = [Policy::Legacy, Policy::Kep];
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Legacy => "legacy",
            Policy::Kep => "kep",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Policy::Legacy => "Legacy kubelet",
            Policy::Kep => "KEP-4781 kubelet",
        }
    }
}

/// A Kubernetes release (`crate::releases`: every patch release, its profile line and date).
pub use crate::releases::KubeVersion;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    pub version: KubeVersion,
    /// Overrides the version's node monitor grace period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_monitor_grace_s: Option<f64>,
    #[serde(default = "d_monitor_period")]
    pub node_monitor_period_s: f64,
    #[serde(default = "d_lease")]
    pub lease_duration_s: f64,
    /// Toleration of `node.kubernetes.io/unreachable:NoExecute` given by DefaultTolerationSeconds.
    #[serde(default = "d_toleration")]
    pub toleration_s: f64,
    /// Toleration of `node.kubernetes.io/not-ready:NoExecute` that the DefaultTolerationSeconds
    /// admission plugin gives every pod without one (`--default-not-ready-toleration-seconds`,
    /// 300; `plugin/pkg/admission/defaulttolerationseconds`). It applies once the kubelet posts
    /// node Ready=False (the node lifecycle controller then taints `not-ready`): during a
    /// container-runtime restart longer than 30 s (rule R3) and the 1.30 kubelet's start (K2n).
    #[serde(default = "d_toleration", skip_serializing_if = "is_d_toleration")]
    pub not_ready_toleration_s: f64,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            version: KubeVersion::V1_35,
            node_monitor_grace_s: None,
            node_monitor_period_s: d_monitor_period(),
            lease_duration_s: d_lease(),
            toleration_s: d_toleration(),
            not_ready_toleration_s: d_toleration(),
        }
    }
}

impl Cluster {
    pub fn grace_s(&self) -> f64 {
        self.node_monitor_grace_s
            .unwrap_or_else(|| self.version.default_grace_s())
    }

    /// Roughly the kubelet downtime from which pods get evicted: the node goes Unknown about one
    /// grace period after the last renewal (N1), the NoExecute taint lands one NLC pass later
    /// (N2), and the toleration runs from there (E1). Within ± one renew interval and one pass.
    pub fn eviction_downtime_estimate_s(&self) -> f64 {
        self.grace_s() + self.node_monitor_period_s + self.toleration_s
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restart {
    /// When the kubelet process stops (or the runtime, or the node: `what`).
    pub at_s: f64,
    /// How long it stays down.
    pub downtime_s: f64,
    /// What restarts: the kubelet (the default), the container runtime, or the whole node.
    #[serde(default, skip_serializing_if = "RestartKind::is_kubelet")]
    pub what: RestartKind,
    /// The kubelet that starts again is this release (an in-place upgrade; a kubelet or node
    /// restart only). From then on the node runs that release's kubelet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade_to: Option<KubeVersion>,
}

/// A window in which the node cannot reach the API server (a network partition between the node
/// and the control plane). The kubelet keeps running: it probes, restarts containers and keeps
/// its status manager's cache, but its lease renewals and pod status writes fail
/// (`nodelease`, `status_manager.go` `syncPod`), so the node lifecycle controller sees the
/// node as it would see a stopped kubelet. When the window ends the status manager writes what
/// it holds (`syncBatch`). Kubernetes has no setting for this; the node's conditions call it
/// unreachable (`node.kubernetes.io/unreachable`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiUnreachable {
    /// When the node loses the API server.
    pub at_s: f64,
    /// How long it stays cut off.
    pub duration_s: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kubelet {
    /// The policy used by [`crate::simulate`]; [`crate::compare`] runs both.
    #[serde(default = "d_policy")]
    pub policy: Policy,
    pub restarts: Vec<Restart>,
    /// Windows in which the node cannot reach the API server, in time order (none by default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_unreachable: Vec<ApiUnreachable>,
    /// Time from kubelet start to each pod's first SyncPod (ours: how long start-up takes).
    #[serde(default = "d_first_sync")]
    pub first_sync_delay_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Workload {
    Deployment,
    DaemonSet,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pod {
    pub name: String,
    #[serde(default = "d_workload")]
    pub workload: Workload,
    /// The workload that made the pod, `KIND/NAME` (`Deployment/web`, [`Owner`]): what
    /// `Pod::workload_name` gives and how `with_pods` names copies; absent: a bare Pod, or pods
    /// named `<workload>-<index>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Every Service whose selector matches this pod (none, one or several): the EndpointSlice
    /// controller lists the pod in each one's slices. Read as `service = "web"` (one Service, the
    /// scenario files before Services were a list), `service = ["web", "web-headless"]` or
    /// `services = [...]`; written as `service`, a string for one Service and a list for more.
    #[serde(
        rename = "service",
        alias = "services",
        default,
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "one_or_many::serialize",
        deserialize_with = "one_or_many::deserialize"
    )]
    pub services: Vec<String>,
    #[serde(default = "d_term_grace")]
    pub termination_grace_s: f64,
    /// `spec.initContainers`, in order: ordinary init containers (no `restart_policy`; they ran to
    /// completion before the story starts and stay completed) and sidecars (`restart_policy =
    /// "Always"`: restartable init containers, running, with their own probes, counted in the
    /// pod's readiness). The engine numbers a pod's containers init containers first, then
    /// `containers` (`Pod::container`), as Kubernetes lists `initContainerStatuses` first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    pub containers: Vec<Container>,
    /// `spec.nodeSelector` and `spec.tolerations`: what the kubelet's admission checks again at
    /// each start (`node/kubelet/admission.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_selector: BTreeMap<String, String>,
    /// `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`'s terms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub node_affinity: Vec<SelectorTerm>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
}

/// What a container of the pod is (`podutil.IsRestartableInitContainer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContainerRole {
    /// `spec.containers`.
    Regular,
    /// An ordinary init container: ran to completion (exit 0) before the regular containers.
    Init,
    /// A restartable init container (`restartPolicy: Always`).
    Sidecar,
}

impl ContainerRole {
    pub fn as_str(self) -> &'static str {
        match self {
            ContainerRole::Regular => "regular",
            ContainerRole::Init => "init",
            ContainerRole::Sidecar => "sidecar",
        }
    }
}

/// The kubelet's `minimumGracePeriodInSeconds` (`pkg/kubelet/kuberuntime/kuberuntime_container.go`
/// `killContainer`): a container is given at least 2 s to stop, whatever
/// `terminationGracePeriodSeconds` says (0 and 1 are raised to 2; rule K4g).
pub const MINIMUM_GRACE_PERIOD_S: f64 = 2.0;

impl Pod {
    /// How long the kubelet's kill of this pod's containers takes: `terminationGracePeriodSeconds`,
    /// at least [`MINIMUM_GRACE_PERIOD_S`] (`killContainer`).
    pub fn kill_grace_s(&self) -> f64 {
        self.termination_grace_s.max(MINIMUM_GRACE_PERIOD_S)
    }
}

/// `restartPolicy: Always` on an init container (the only value Kubernetes accepts there).
pub const RESTART_POLICY_ALWAYS: &str = "Always";

impl Pod {
    /// Init containers and containers: the engine's container count.
    pub fn n_containers(&self) -> usize {
        self.init_containers.len() + self.containers.len()
    }
    /// Container `i` in the engine's numbering (init containers first).
    pub fn container(&self, i: usize) -> &Container {
        let n = self.init_containers.len();
        if i < n {
            &self.init_containers[i]
        } else {
            &self.containers[i - n]
        }
    }
    /// Every container in the engine's numbering.
    pub fn all_containers(&self) -> impl Iterator<Item = &Container> {
        self.init_containers.iter().chain(&self.containers)
    }
    /// What container `i` is.
    pub fn role(&self, i: usize) -> ContainerRole {
        match self.init_containers.get(i) {
            None => ContainerRole::Regular,
            Some(c) if c.restart_policy.as_deref() == Some(RESTART_POLICY_ALWAYS) => {
                ContainerRole::Sidecar
            }
            Some(_) => ContainerRole::Init,
        }
    }
    /// An ordinary init container (completed; never probed, never restarted in the model).
    pub fn is_completed_init(&self, i: usize) -> bool {
        self.role(i) == ContainerRole::Init
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Container {
    pub name: String,
    /// `restartPolicy` of an init container: `"Always"` makes it a sidecar (restartable init
    /// container); absent, an ordinary init container. Rejected on regular containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    /// How long a freshly started container takes before it answers probes successfully.
    #[serde(default)]
    pub warmup_s: f64,
    /// Ground truth over time; before the first entry the container is healthy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truth: Vec<Truth>,
}

/// Which probe of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProbeKind {
    Startup,
    Readiness,
    Liveness,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 3] = [
        ProbeKind::Startup,
        ProbeKind::Readiness,
        ProbeKind::Liveness,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startup",
            ProbeKind::Readiness => "readiness",
            ProbeKind::Liveness => "liveness",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    /// The field of a Kubernetes container: `startupProbe`, `readinessProbe`, `livenessProbe`.
    pub fn k8s(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startupProbe",
            ProbeKind::Readiness => "readinessProbe",
            ProbeKind::Liveness => "livenessProbe",
        }
    }
    /// A Kubernetes field name back to its kind (`readinessProbe` → readiness).
    pub fn from_k8s(s: &str) -> Option<ProbeKind> {
        Self::ALL.into_iter().find(|k| k.k8s() == s)
    }
}

/// A probe, with the Kubernetes defaults of `SetDefaults_Probe`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    #[serde(default = "d_period")]
    pub period_s: u32,
    #[serde(default = "d_timeout")]
    pub timeout_s: u32,
    #[serde(default = "d_one")]
    pub success_threshold: u32,
    #[serde(default = "d_three")]
    pub failure_threshold: u32,
    #[serde(default)]
    pub initial_delay_s: u32,
    /// Ours: how long one probe takes to run (an exec probe `sleep 1`).
    #[serde(default = "d_exec")]
    pub exec_s: f64,
    /// The probe's handler (`exec`, `httpGet`, `tcpSocket`, `grpc`): exec by default, as
    /// `exec_s` describes. It matters while the container runtime is down: an exec probe runs
    /// through the runtime (CRI `ExecSync`) and its error is thrown away, the others reach the
    /// container's network directly (rule R2).
    #[serde(default, skip_serializing_if = "Handler::is_exec")]
    pub handler: Handler,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            period_s: d_period(),
            timeout_s: d_timeout(),
            success_threshold: 1,
            failure_threshold: 3,
            initial_delay_s: 0,
            exec_s: d_exec(),
            handler: Handler::Exec,
        }
    }
}

/// What the container really is from `at_s` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Health {
    /// Answers every probe.
    Healthy,
    /// Running, passes liveness, fails readiness (e.g. a dependency is down).
    FailingReadiness,
    /// Hung: fails every probe.
    Failing,
    /// The process exits at `at_s` (one event). A restarted container is healthy.
    Exited,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Truth {
    pub at_s: f64,
    pub state: Health,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub cluster: Cluster,
    pub kubelet: Kubelet,
    pub pods: Vec<Pod>,
    /// The node object's labels and taints, and their changes (`scenario/node.rs`).
    #[serde(default, skip_serializing_if = "NodeObject::is_default")]
    pub node: NodeObject,
    /// A PodDisruptionBudget over some of the pods (`policy/v1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb: Option<Pdb>,
    #[serde(default = "d_seed")]
    pub seed: u64,
    pub horizon_s: f64,
}

/// `intstr.IntOrString` as a PodDisruptionBudget takes it: `2` or `"50%"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrPercent {
    Int(i64),
    Str(String),
}

impl IntOrPercent {
    /// `intstr.GetScaledValueFromIntOrPercent(v, total, roundUp)`: an int as is, `"N%"` as
    /// N × total / 100 rounded up (`math.Ceil`) or down. `None` for a string that is not a percent.
    pub fn scaled(&self, total: i64, round_up: bool) -> Option<i64> {
        match self {
            IntOrPercent::Int(v) => Some(*v),
            IntOrPercent::Str(s) => {
                let n: i64 = s.strip_suffix('%')?.parse().ok()?;
                let x = n * total;
                Some(if round_up {
                    (x + 99).div_euclid(100)
                } else {
                    x.div_euclid(100)
                })
            }
        }
    }
}

/// A PodDisruptionBudget (`policy/v1` `PodDisruptionBudgetSpec`). Its selector picks pods by
/// their labels, as the disruption controller does (`pkg/controller/disruption` `getPodsForPdb`:
/// `spec.selector` against the pods' labels); the model's pods carry no labels, so the budget
/// names the pods its selector matches (`pods`, as the importer finds them from `matchLabels`
/// and each workload's template labels) or, as scenario files did before, a Service whose pods
/// it covers (`service`). Set `min_available` or `max_unavailable` (not both, as the API server
/// requires).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pdb {
    /// The pods the budget's selector matches, by `metadata.name`; empty: those of `service`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pods: Vec<String>,
    /// The Service whose pods the budget covers when `pods` is empty; absent too: the first
    /// pod's first Service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrPercent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrPercent>,
}

impl Scenario {
    /// The Service the PDB covers when it names no pods: its `service`, else the first pod's
    /// first Service. `None` without a budget or when it names its pods.
    pub fn pdb_service(&self) -> Option<&str> {
        let pdb = self.pdb.as_ref()?;
        if !pdb.pods.is_empty() {
            return None;
        }
        pdb.service.as_deref().or_else(|| {
            self.pods
                .iter()
                .find_map(|p| p.services.first().map(String::as_str))
        })
    }

    /// The pods the PDB covers (indices into `pods`): those it names, else those behind
    /// [`Scenario::pdb_service`]. Empty without a budget.
    pub fn pdb_pods(&self) -> Vec<u16> {
        let Some(pdb) = &self.pdb else {
            return Vec::new();
        };
        let covered = |p: &Pod| {
            if pdb.pods.is_empty() {
                self.pdb_service()
                    .is_some_and(|s| p.services.iter().any(|x| x == s))
            } else {
                pdb.pods.contains(&p.name)
            }
        };
        self.pods
            .iter()
            .enumerate()
            .filter(|(_, p)| covered(p))
            .map(|(i, _)| i as u16)
            .collect()
    }
}

pub(super) fn d_monitor_period() -> f64 {
    5.0
}
pub(super) fn d_lease() -> f64 {
    40.0
}
pub(super) fn d_toleration() -> f64 {
    300.0
}
fn is_d_toleration(v: &f64) -> bool {
    *v == d_toleration()
}
pub(super) fn d_policy() -> Policy {
    Policy::Kep
}
pub(super) fn d_first_sync() -> f64 {
    2.0
}
pub(super) fn d_workload() -> Workload {
    Workload::Deployment
}
pub(super) fn d_term_grace() -> f64 {
    30.0
}
pub(super) fn d_period() -> u32 {
    10
}
pub(super) fn d_timeout() -> u32 {
    1
}
pub(super) fn d_one() -> u32 {
    1
}
pub(super) fn d_three() -> u32 {
    3
}
pub(super) fn d_exec() -> f64 {
    1.0
}
pub(super) fn d_seed() -> u64 {
    1
}

impl Restart {
    /// A kubelet restart at `at_s`, down `downtime_s`.
    pub fn new(at_s: f64, downtime_s: f64) -> Restart {
        Restart {
            at_s,
            downtime_s,
            what: RestartKind::Kubelet,
            upgrade_to: None,
        }
    }

    /// A restart of this kind.
    pub fn of(what: RestartKind, at_s: f64, downtime_s: f64) -> Restart {
        Restart {
            what,
            ..Restart::new(at_s, downtime_s)
        }
    }

    /// When the kubelet is back (s).
    pub fn end_s(&self) -> f64 {
        self.at_s + self.downtime_s
    }
}

impl Scenario {
    /// The first kubelet restart (the one the slider and `--downtime` change).
    pub fn first_restart(&self) -> Option<&Restart> {
        self.kubelet.restarts.first()
    }
}
