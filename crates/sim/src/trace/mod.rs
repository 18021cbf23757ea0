//! Trace: plain data the model produces and the CLI and web app render. Typed values (taints,
//! conditions, writers, health) rather than strings; `recorder` collects events and metrics
//! while the cluster runs, `metrics` integrates the time-based metrics as state changes,
//! `checkpoints` keeps a single-node run's metrics as they grow (metrics at any time).

pub mod checkpoints;
pub mod heat;
pub mod metrics;
pub mod recorder;
pub mod series;

use crate::rules::Rule;
use crate::scenario::{ContainerRole, Health, Policy, Workload};

fn regular() -> ContainerRole {
    ContainerRole::Regular
}
fn is_regular(r: &ContainerRole) -> bool {
    *r == ContainerRole::Regular
}
use serde::{Deserialize, Serialize};

/// Index of a node in the cluster.
pub type NodeId = u16;

/// Simulated time in integer milliseconds.
pub type Ms = i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    KubeletStop,
    /// The kubelet starts (value: the release, when this start is an in-place upgrade).
    KubeletStart,
    /// The container runtime stops (R1) or is back (`RuntimeStart`); the kubelet keeps running.
    RuntimeStop,
    RuntimeStart,
    /// The node shuts down (B1: every container stops with it) or has booted (`NodeBoot`).
    NodeShutdown,
    NodeBoot,
    /// The node loses the API server (value false) or reaches it again (true).
    ApiReachable,
    LeaseRenew,
    /// Node Ready condition in the API (value: [`ConditionStatus`]).
    NodeReady,
    TaintAdded,
    TaintRemoved,
    /// One probe execution finished (value: [`ProbeValue`]).
    Probe,
    /// The kubelet's results cache changed (value: [`ProbeValue`]).
    ProbeResult,
    /// First SyncPod after a kubelet start.
    PodSync,
    ContainerStarted,
    ContainerReady,
    /// Ground truth changed (value: the health).
    ContainerHealth,
    ContainerExit,
    ContainerRestart,
    /// SyncPod did not start a regular container: the pod has not initialized (K3i).
    ContainerWaiting,
    /// API-visible PodReady (value: bool).
    PodReady,
    /// A pod status write to the API server (value: the writer).
    StatusWrite,
    /// Endpoint conditions of a pod (value: [`EndpointValue`]).
    Endpoint,
    /// One EndpointSlice update of a Service (value: the service name).
    EndpointsliceUpdate,
    EvictionScheduled,
    EvictionCancelled,
    Eviction,
    PodRemoved,
    /// The kubelet's admission at start rejected the pod (A1; value: the status message,
    /// "Pod was rejected: …").
    PodRejected,
    /// The API pod's phase is Failed (A2): out of every EndpointSlice.
    PodFailed,
    /// A user changed the node object's labels or taints (value: the node's labels and taints
    /// from then on, as `kubectl get node` would list them).
    NodeEdited,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::KubeletStop => "kubelet_stop",
            Kind::KubeletStart => "kubelet_start",
            Kind::RuntimeStop => "runtime_stop",
            Kind::RuntimeStart => "runtime_start",
            Kind::NodeShutdown => "node_shutdown",
            Kind::NodeBoot => "node_boot",
            Kind::ApiReachable => "api_reachable",
            Kind::LeaseRenew => "lease_renew",
            Kind::NodeReady => "node_ready",
            Kind::TaintAdded => "taint_added",
            Kind::TaintRemoved => "taint_removed",
            Kind::Probe => "probe",
            Kind::ProbeResult => "probe_result",
            Kind::PodSync => "pod_sync",
            Kind::ContainerStarted => "container_started",
            Kind::ContainerReady => "container_ready",
            Kind::ContainerHealth => "container_health",
            Kind::ContainerExit => "container_exit",
            Kind::ContainerRestart => "container_restart",
            Kind::ContainerWaiting => "container_waiting",
            Kind::PodReady => "pod_ready",
            Kind::StatusWrite => "status_write",
            Kind::Endpoint => "endpoint",
            Kind::EndpointsliceUpdate => "endpointslice_update",
            Kind::EvictionScheduled => "eviction_scheduled",
            Kind::EvictionCancelled => "eviction_cancelled",
            Kind::Eviction => "eviction",
            Kind::PodRemoved => "pod_removed",
            Kind::PodRejected => "pod_rejected",
            Kind::PodFailed => "pod_failed",
            Kind::NodeEdited => "node_edited",
        }
    }
}

/// Defined with the scenario's types (a scenario edits probes by kind).
pub use crate::scenario::ProbeKind;

/// A value in the prober's results cache (`results.Result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Unknown,
    Success,
    Failure,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    Scenario,
    Kubelet,
    Runtime,
    NodeLifecycleController,
    TaintEvictionController,
    EndpointsliceController,
}

impl Actor {
    pub fn as_str(self) -> &'static str {
        match self {
            Actor::Scenario => "scenario",
            Actor::Kubelet => "kubelet",
            Actor::Runtime => "runtime",
            Actor::NodeLifecycleController => "node-lifecycle-controller",
            Actor::TaintEvictionController => "taint-eviction-controller",
            Actor::EndpointsliceController => "endpointslice-controller",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeValue {
    pub probe: ProbeKind,
    pub result: Outcome,
    /// Consecutive equal results so far (the worker's resultRun).
    pub run: u32,
    /// The threshold that must be reached for this result to be cached.
    pub threshold: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointValue {
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
}

/// A condition's status (`v1.ConditionStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConditionStatus {
    True,
    False,
    Unknown,
}

impl ConditionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
            ConditionStatus::Unknown => "Unknown",
        }
    }
}

/// The effect of the `node.kubernetes.io/unreachable` taint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaintEffect {
    NoSchedule,
    NoExecute,
}

impl TaintEffect {
    pub fn as_str(self) -> &'static str {
        match self {
            TaintEffect::NoSchedule => "NoSchedule",
            TaintEffect::NoExecute => "NoExecute",
        }
    }
}

/// Why a container stopped, when the model knows more than "it exited".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitReason {
    /// Killed by the kubelet because this probe crossed its failure threshold (P6).
    ProbeFailed(ProbeKind),
}

impl ExitReason {
    pub fn text(self) -> String {
        match self {
            ExitReason::ProbeFailed(k) => format!("killed: {} probe failed", k.as_str()),
        }
    }
}

/// Words for a container's ground truth.
pub fn health_text(h: Health) -> &'static str {
    match h {
        Health::Healthy => "healthy",
        Health::FailingReadiness => "failing readiness",
        Health::Failing => "failing",
        Health::Exited => "exited",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    None,
    Bool(bool),
    Probe(ProbeValue),
    Endpoint(EndpointValue),
    /// Node Ready condition.
    Condition(ConditionStatus),
    Taint(TaintEffect),
    /// Who wrote a pod status.
    Writer(Actor),
    /// A container's ground truth.
    Health(Health),
    Exit(ExitReason),
    /// A Service (EndpointSlice updates).
    Service(String),
    /// A time or a duration in seconds (eviction due time, back-off).
    Seconds(f64),
    /// A Kubernetes release (the kubelet an in-place upgrade starts).
    Release(String),
    /// A message the kubelet wrote (a rejected pod's `status.message`).
    Message(String),
}

impl Value {
    /// The value as the JSON trace format and the event log word it.
    pub fn text(&self) -> String {
        match self {
            Value::None => String::new(),
            Value::Bool(b) => b.to_string(),
            Value::Condition(c) => c.as_str().into(),
            Value::Taint(t) => t.as_str().into(),
            Value::Writer(a) => a.as_str().into(),
            Value::Health(h) => health_text(*h).into(),
            Value::Exit(r) => r.text(),
            Value::Service(s) => s.clone(),
            Value::Seconds(s) => format!("{s}"),
            Value::Release(r) => r.clone(),
            Value::Message(m) => m.clone(),
            Value::Probe(_) | Value::Endpoint(_) => String::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub t: Ms,
    /// The node the event belongs to (0 in a single-node run).
    #[serde(default)]
    pub node: u16,
    pub kind: Kind,
    pub pod: Option<u16>,
    pub container: Option<u8>,
    pub value: Value,
    pub rule: Rule,
    pub by: Actor,
}

/// SPEC §5.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub ready_transitions: u32,
    pub kubelet_status_writes: u32,
    pub nlc_status_writes: u32,
    pub endpointslice_updates: u32,
    /// Pod-seconds with API PodReady false while every container is running and healthy.
    pub unjustified_not_ready_s: f64,
    /// Pod-seconds with API PodReady true while some container is failing or exited.
    pub unjustified_ready_s: f64,
    pub evictions: u32,
    /// Seconds the node's Ready condition was not True.
    pub node_not_ready_s: f64,
    /// Seconds the PodDisruptionBudget allowed more evictions than it would have had the
    /// wrongfully Ready pods (API Ready while a container is failing, warming up or stopped)
    /// counted as unhealthy; `None` without a budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb_wrongful_allowed_s: Option<f64>,
    /// Events processed by the engine (for benchmarks).
    pub events_processed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContainerInfo {
    pub name: String,
    /// Regular container, ordinary init container or sidecar (absent in JSON: regular).
    #[serde(default = "regular", skip_serializing_if = "is_regular")]
    pub role: ContainerRole,
    /// Probe periods (s) by kind, `None` where the container has no such probe.
    pub probes: [Option<ProbeInfo>; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeInfo {
    pub period_s: u32,
    pub success_threshold: u32,
    pub failure_threshold: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PodInfo {
    pub name: String,
    pub workload: Workload,
    /// The Services whose EndpointSlices list the pod (`Pod::services`).
    #[serde(
        rename = "service",
        alias = "services",
        default,
        serialize_with = "crate::scenario::one_or_many::serialize",
        deserialize_with = "crate::scenario::one_or_many::deserialize"
    )]
    pub services: Vec<String>,
    pub containers: Vec<ContainerInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub policy: Policy,
    /// The kubelet profile's label, e.g. "1.35 · default (KEP-4781)".
    pub kubelet: String,
    /// The feature gates the profile sets away from the release's defaults
    /// ("ChangeContainerStatusOnKubeletRestart=true"; empty: the release's default kubelet).
    #[serde(default)]
    pub feature_gates: String,
    /// A proposal's source ("ContainerScopedProbes, unmerged PR #140704 at 1b5df269"); empty
    /// for a release's kubelet.
    #[serde(default)]
    pub proposal: String,
    /// The node this trace shows (0 in a single-node run).
    #[serde(default)]
    pub node: u16,
    pub horizon: Ms,
    pub grace: Ms,
    pub lease_duration: Ms,
    /// The node lifecycle controller's passes: the first at `nlc_phase`, then every
    /// `--node-monitor-period` (`nlc_period`; 0 in a trace written before they were recorded).
    /// Its grace period counts from the pass that first saw a renewal (`probeTimestamp`), so the
    /// figure can mark when the check falls due and when it fires.
    #[serde(default)]
    pub nlc_phase: Ms,
    #[serde(default)]
    pub nlc_period: Ms,
    pub toleration: Ms,
    /// (stop, start) of each restart that stops the kubelet (a kubelet restart or a node
    /// reboot).
    pub restarts: Vec<(Ms, Ms)>,
    /// (stop, start) of each node reboot (also in `restarts`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reboots: Vec<(Ms, Ms)>,
    /// (stop, start) of each container-runtime restart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtime_down: Vec<(Ms, Ms)>,
    /// (start, release) of each in-place kubelet upgrade.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<(Ms, String)>,
    pub pods: Vec<PodInfo>,
    /// The PodDisruptionBudget over node 0's pods, if the scenario has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pdb: Option<crate::disruption::Budget>,
    pub events: Vec<Event>,
    pub metrics: Metrics,
    /// The metrics as they grew (`checkpoints::Checkpoints::at`): a single-node run's, `None`
    /// for a fleet's sampled node. Not part of the JSON trace format (derived bookkeeping).
    #[serde(skip)]
    pub checkpoints: Option<checkpoints::Checkpoints>,
}

impl Trace {
    /// API-visible PodReady changes.
    pub fn pod_ready_changes(&self, pod: u16) -> impl Iterator<Item = &Event> {
        self.events
            .iter()
            .filter(move |e| e.kind == Kind::PodReady && e.pod == Some(pod))
    }
}
