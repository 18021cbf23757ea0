//! An event in plain words: the web app's event log, the CLI's table, the figure's tooltips and
//! screen readers all call [`describe`].

use restartscope_sim::{fmt_secs, Event, Kind, Outcome, Rule, Trace, Value};

/// The pod's name, `?` when the event has none.
pub fn pod_name(tr: &Trace, pod: Option<u16>) -> &str {
    pod.and_then(|p| tr.pods.get(p as usize))
        .map(|p| p.name.as_str())
        .unwrap_or("?")
}

/// The container's name, `?` when the event has none.
pub fn container_name(tr: &Trace, pod: Option<u16>, c: Option<u8>) -> &str {
    match (pod, c) {
        (Some(p), Some(c)) => tr
            .pods
            .get(p as usize)
            .and_then(|p| p.containers.get(c as usize))
            .map(|c| c.name.as_str())
            .unwrap_or("?"),
        _ => "?",
    }
}

/// A run's heading: the policy's words and the release, "Legacy kubelet · 1.35",
/// "KEP-4781 kubelet · main", "Legacy kubelet · 1.34". The release is the first part of the
/// profile label `trace.kubelet` ("1.35 · KEP", "1.34"). The figure's group titles use it.
pub fn heading(tr: &Trace) -> String {
    let release = tr.kubelet.split(" · ").next().unwrap_or_default();
    // Which kubelet the release runs by default (KEP-4781 from 1.35; the gate set to true
    // restores the legacy one).
    if !tr.proposal.is_empty() {
        return format!("CSP proposal · {release} (unmerged PR #140704)");
    }
    let which = if tr.feature_gates.is_empty() {
        "default"
    } else {
        "opt-in gate"
    };
    if release.is_empty() {
        tr.policy.label().to_string()
    } else {
        format!("{} · {release} ({which})", tr.policy.label())
    }
}

/// A results-cache value as Kubernetes spells it.
pub fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Unknown => "Unknown",
        Outcome::Success => "Success",
        Outcome::Failure => "Failure",
    }
}

/// "kubelet down 20s at 30s", "container runtime down 1m30s at 20s", "node down 2m at 1m",
/// with " (kubelet → 1.31)" for an upgrade: a restart in words for headings and titles.
pub fn restart_words(r: &restartscope_sim::Restart) -> String {
    use restartscope_sim::RestartKind;
    let what = match r.what {
        RestartKind::Kubelet => "kubelet",
        RestartKind::Runtime => "container runtime",
        RestartKind::Node => "node",
    };
    let upgrade = r
        .upgrade_to
        .map_or(String::new(), |v| format!(" (kubelet → {})", v.as_str()));
    format!(
        "{what} down {} at {}{upgrade}",
        restartscope_sim::fmt_secs(r.downtime_s),
        restartscope_sim::fmt_secs(r.at_s)
    )
}

/// The taint's key: `not-ready` when the kubelet posted Ready=False (R3, R4, K2n), else
/// `unreachable` (the node lifecycle controller set Unknown).
pub fn taint_key(rule: Rule) -> &'static str {
    match rule {
        Rule::R3 | Rule::R4 | Rule::K2n => "not-ready",
        _ => "unreachable",
    }
}

/// The event in plain words.
pub fn describe(tr: &Trace, e: &Event) -> String {
    let pod = pod_name(tr, e.pod);
    let ctr = container_name(tr, e.pod, e.container);
    let b = |v: &Value| matches!(v, Value::Bool(true));
    match e.kind {
        Kind::KubeletStop if e.rule == Rule::B1 => "Kubelet stops with the node".into(),
        Kind::KubeletStop => "Kubelet stops; containers keep running".into(),
        Kind::KubeletStart => match &e.value {
            Value::Release(r) => format!("Kubelet {r} starts (in-place upgrade) with empty memory"),
            _ => "Kubelet starts with empty memory".into(),
        },
        Kind::RuntimeStop => {
            "Container runtime stops: containers keep running under their shims, the kubelet keeps running".into()
        }
        Kind::RuntimeStart => "Container runtime is back".into(),
        Kind::NodeShutdown => "Node shuts down: every container stops".into(),
        Kind::NodeBoot => "Node has booted: no container runs until the kubelet starts them".into(),
        Kind::ApiReachable if b(&e.value) => {
            "The node reaches the API server again: lease renewed, kept pod statuses written"
                .into()
        }
        Kind::ApiReachable => {
            "The node cannot reach the API server: lease renewals and pod status writes fail; the kubelet keeps probing"
                .into()
        }
        Kind::LeaseRenew => "Kubelet renews the node lease".into(),
        Kind::NodeEdited => format!("The node object changes: {}", e.value.text()),
        Kind::PodRejected => format!(
            "Kubelet admission rejects {pod} at start: phase Failed, \"{}\"; its containers are killed",
            e.value.text()
        ),
        Kind::PodFailed => format!("{pod} is Failed in the API: out of its Services' EndpointSlices"),
        Kind::NodeReady => match &e.value {
            Value::Condition(s) => format!("Node Ready condition becomes {}", s.as_str()),
            _ => "Node Ready condition changes".into(),
        },
        Kind::TaintAdded => format!(
            "Taint node.kubernetes.io/{}:{} added",
            taint_key(e.rule),
            e.value.text()
        ),
        Kind::TaintRemoved => format!(
            "Taint node.kubernetes.io/{}:{} removed",
            taint_key(e.rule),
            e.value.text()
        ),
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
            Value::Probe(p) if e.rule == Rule::P1s => format!(
                "{pod}/{ctr} {} result seeded {}: the sidecar's status says Started",
                p.probe.as_str(),
                outcome(p.result)
            ),
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
            format!(
                "{pod}: SyncTerminatingPod after the kubelet started (the pod is being deleted)"
            )
        }
        Kind::PodSync => format!("{pod}: first SyncPod after the kubelet started"),
        Kind::ContainerStarted => format!("{pod}/{ctr} Started={}", b(&e.value)),
        Kind::ContainerReady => format!("{pod}/{ctr} Ready={}", b(&e.value)),
        Kind::ContainerHealth => format!("{pod}/{ctr} actually becomes {}", e.value.text()),
        Kind::ContainerExit => format!("{pod}/{ctr} exits"),
        Kind::ContainerRestart => format!("{pod}/{ctr} restarted as a new container"),
        Kind::ContainerWaiting => format!(
            "{pod}/{ctr} not restarted: the pod has not initialized (its last sidecar has no startup Success)"
        ),
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
        Kind::EndpointsliceUpdate => {
            format!("EndpointSlice of Service {} updated", e.value.text())
        }
        Kind::EvictionScheduled => match e.value {
            Value::Seconds(s) => format!("{pod} will be evicted at {}", fmt_secs(s)),
            _ => format!("{pod} eviction scheduled"),
        },
        Kind::EvictionCancelled => format!("{pod} eviction cancelled"),
        Kind::Eviction => {
            format!("{pod} evicted: deletion timestamp set, replacement created on another node")
        }
        Kind::PodRemoved => format!("{pod} removed from the API server"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    #[test]
    fn every_event_of_every_preset_has_words() {
        for p in presets::PRESETS {
            for tr in restartscope_sim::compare_default(&(p.build)()).unwrap() {
                for e in &tr.events {
                    let s = describe(&tr, e);
                    assert!(!s.is_empty() && !s.contains("?/"), "{}: {s}", p.name);
                }
            }
        }
    }

    #[test]
    fn names_the_pod_and_writer() {
        let [legacy, _] = compare(&presets::short_restart()).unwrap();
        let e = legacy
            .events
            .iter()
            .find(|e| e.kind == Kind::PodReady)
            .unwrap();
        let s = describe(&legacy, e);
        assert!(s.starts_with(&legacy.pods[e.pod.unwrap() as usize].name));
        assert!(s.ends_with("written by the kubelet"), "{s}");
    }

    #[test]
    fn headings_name_the_policy_and_the_release() {
        use restartscope_sim::{compare_default, KubeVersion};
        let mut sc = presets::short_restart();
        let names = |sc: &restartscope_sim::Scenario| {
            compare_default(sc)
                .unwrap()
                .iter()
                .map(heading)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&sc),
            [
                "Legacy kubelet · 1.35 (opt-in gate)",
                "KEP-4781 kubelet · 1.35 (default)"
            ]
        );
        sc.cluster.version = KubeVersion::Main;
        assert_eq!(
            names(&sc),
            [
                "Legacy kubelet · main (opt-in gate)",
                "KEP-4781 kubelet · main (default)"
            ]
        );
        sc.cluster.version = KubeVersion::V1_34;
        assert_eq!(names(&sc), ["Legacy kubelet · 1.34 (default)"]);
    }
}
