//! Trace: plain data the model produces and the CLI and web app render.

use crate::rules::Rule;
use crate::scenario::{Policy, Workload};
use serde::{Deserialize, Serialize};

/// Simulated time in integer milliseconds.
pub type Ms = i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    KubeletStop,
    KubeletStart,
    LeaseRenew,
    /// Node Ready condition in the API (value: "True" | "Unknown").
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
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::KubeletStop => "kubelet_stop",
            Kind::KubeletStart => "kubelet_start",
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
            Kind::PodReady => "pod_ready",
            Kind::StatusWrite => "status_write",
            Kind::Endpoint => "endpoint",
            Kind::EndpointsliceUpdate => "endpointslice_update",
            Kind::EvictionScheduled => "eviction_scheduled",
            Kind::EvictionCancelled => "eviction_cancelled",
            Kind::Eviction => "eviction",
            Kind::PodRemoved => "pod_removed",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
}

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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    None,
    Bool(bool),
    Probe(ProbeValue),
    Endpoint(EndpointValue),
    Text(String),
    /// A time or a duration in seconds (eviction due time, back-off).
    Seconds(f64),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub t: Ms,
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
    /// Events processed by the engine (for benchmarks).
    pub events_processed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContainerInfo {
    pub name: String,
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
    pub service: Option<String>,
    pub containers: Vec<ContainerInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub policy: Policy,
    pub horizon: Ms,
    pub grace: Ms,
    pub lease_duration: Ms,
    pub toleration: Ms,
    /// (stop, start) of each kubelet restart.
    pub restarts: Vec<(Ms, Ms)>,
    pub pods: Vec<PodInfo>,
    pub events: Vec<Event>,
    pub metrics: Metrics,
}

impl Trace {
    /// Events a user reads (no lease renewals or individual probe executions).
    pub fn notable(&self) -> impl Iterator<Item = &Event> {
        self.events
            .iter()
            .filter(|e| !matches!(e.kind, Kind::LeaseRenew | Kind::Probe))
    }

    /// API-visible PodReady changes.
    pub fn pod_ready_changes(&self, pod: u16) -> impl Iterator<Item = &Event> {
        self.events
            .iter()
            .filter(move |e| e.kind == Kind::PodReady && e.pod == Some(pod))
    }

    fn pod_name(&self, pod: Option<u16>) -> &str {
        pod.and_then(|p| self.pods.get(p as usize))
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    }

    fn container_name(&self, pod: Option<u16>, c: Option<u8>) -> &str {
        match (pod, c) {
            (Some(p), Some(c)) => self
                .pods
                .get(p as usize)
                .and_then(|p| p.containers.get(c as usize))
                .map(|c| c.name.as_str())
                .unwrap_or("?"),
            _ => "?",
        }
    }

    /// The event in plain words.
    pub fn describe(&self, e: &Event) -> String {
        let pod = self.pod_name(e.pod);
        let ctr = self.container_name(e.pod, e.container);
        let b = |v: &Value| matches!(v, Value::Bool(true));
        match e.kind {
            Kind::KubeletStop => "Kubelet stops; containers keep running".into(),
            Kind::KubeletStart => "Kubelet starts with empty memory".into(),
            Kind::LeaseRenew => "Kubelet renews the node lease".into(),
            Kind::NodeReady => match &e.value {
                Value::Text(s) => format!("Node Ready condition becomes {s}"),
                _ => "Node Ready condition changes".into(),
            },
            Kind::TaintAdded => format!("Taint node.kubernetes.io/unreachable:{} added", text(&e.value)),
            Kind::TaintRemoved => format!("Taint node.kubernetes.io/unreachable:{} removed", text(&e.value)),
            Kind::Probe => match &e.value {
                Value::Probe(p) => format!(
                    "{pod}/{ctr} {} probe: {} ({}/{})",
                    p.probe.as_str(),
                    outcome(p.result),
                    p.run.min(p.threshold),
                    p.threshold
                ),
                _ => "probe".into(),
            },
            Kind::ProbeResult => match &e.value {
                Value::Probe(p) if e.rule == Rule::P1k => format!(
                    "{pod}/{ctr} {} worker skips its initial {}: the container predates this kubelet",
                    p.probe.as_str(),
                    outcome(p.result)
                ),
                Value::Probe(p) => format!(
                    "{pod}/{ctr} {} result cached: {}",
                    p.probe.as_str(),
                    outcome(p.result)
                ),
                _ => "probe result".into(),
            },
            Kind::PodSync if e.rule == Rule::K4 => {
                format!("{pod}: SyncTerminatingPod after the kubelet started (the pod is being deleted)")
            }
            Kind::PodSync => format!("{pod}: first SyncPod after the kubelet started"),
            Kind::ContainerStarted => format!("{pod}/{ctr} Started={}", b(&e.value)),
            Kind::ContainerReady => format!("{pod}/{ctr} Ready={}", b(&e.value)),
            Kind::ContainerHealth => format!("{pod}/{ctr} actually becomes {}", text(&e.value)),
            Kind::ContainerExit => format!("{pod}/{ctr} exits"),
            Kind::ContainerRestart => format!("{pod}/{ctr} restarted as a new container"),
            Kind::PodReady => format!(
                "{pod} Ready={} written by the {}",
                if b(&e.value) { "True" } else { "False" },
                e.by.as_str()
            ),
            Kind::StatusWrite => format!("{pod}: pod status write by the {}", e.by.as_str()),
            Kind::Endpoint => match &e.value {
                Value::Endpoint(v) => format!(
                    "{pod} endpoint ready={} serving={} terminating={}",
                    v.ready, v.serving, v.terminating
                ),
                _ => format!("{pod} endpoint removed"),
            },
            Kind::EndpointsliceUpdate => format!("EndpointSlice of Service {} updated", text(&e.value)),
            Kind::EvictionScheduled => match e.value {
                Value::Seconds(s) => format!("{pod} will be evicted at {}", crate::fmt_secs(s)),
                _ => format!("{pod} eviction scheduled"),
            },
            Kind::EvictionCancelled => format!("{pod} eviction cancelled"),
            Kind::Eviction => format!("{pod} evicted: deletion timestamp set, replacement created on another node"),
            Kind::PodRemoved => format!("{pod} removed from the API server"),
        }
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Text(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Seconds(s) => format!("{s}"),
        _ => String::new(),
    }
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Unknown => "Unknown",
        Outcome::Success => "Success",
        Outcome::Failure => "Failure",
    }
}
