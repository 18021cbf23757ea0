//! An event in plain words (the event log, the CLI's table, screen readers).

use crate::rules::Rule;
use crate::trace::{Event, Kind, Outcome, Trace, Value};

impl Trace {
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
                Value::Condition(s) => format!("Node Ready condition becomes {}", s.as_str()),
                _ => "Node Ready condition changes".into(),
            },
            Kind::TaintAdded => format!("Taint node.kubernetes.io/unreachable:{} added", e.value.text()),
            Kind::TaintRemoved => format!("Taint node.kubernetes.io/unreachable:{} removed", e.value.text()),
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
            Kind::ContainerHealth => format!("{pod}/{ctr} actually becomes {}", e.value.text()),
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
            Kind::EndpointsliceUpdate => format!("EndpointSlice of Service {} updated", e.value.text()),
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

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Unknown => "Unknown",
        Outcome::Success => "Success",
        Outcome::Failure => "Failure",
    }
}
