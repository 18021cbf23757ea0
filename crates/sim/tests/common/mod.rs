#![allow(dead_code)]
use restartscope_sim::*;

/// SPEC §6: one healthy pod with only a readiness probe (period 10 s), grace 50 s.
pub fn canonical(downtime_s: f64, seed: u64) -> Scenario {
    Scenario {
        name: "canonical".into(),
        description: String::new(),
        cluster: Cluster::default(),
        kubelet: Kubelet {
            policy: Policy::Kep,
            restarts: vec![Restart::new(100.0, downtime_s)],
            api_unreachable: Vec::new(),
            first_sync_delay_s: 2.0,
        },
        pods: vec![Pod {
            name: "web-0".into(),
            workload: Workload::Deployment,
            owner: None,
            services: vec!["web".into()],
            termination_grace_s: 30.0,
            init_containers: vec![],
            node_selector: Default::default(),
            node_affinity: vec![],
            tolerations: vec![],
            containers: vec![Container {
                name: "app".into(),
                restart_policy: None,
                startup_probe: None,
                readiness_probe: Some(Probe::default()),
                liveness_probe: None,
                warmup_s: 0.0,
                truth: vec![],
            }],
        }],
        node: Default::default(),
        pdb: None,
        seed,
        horizon_s: 100.0 + downtime_s + 120.0,
    }
}

/// (t seconds, ready, writer, rule) of every API PodReady change of pod 0.
pub fn ready_changes(tr: &Trace) -> Vec<(f64, bool, Actor, Rule)> {
    tr.pod_ready_changes(0)
        .map(|e| {
            (
                e.t as f64 / 1000.0,
                matches!(e.value, Value::Bool(true)),
                e.by,
                e.rule,
            )
        })
        .collect()
}

pub fn first(tr: &Trace, kind: Kind) -> Option<&Event> {
    tr.events.iter().find(|e| e.kind == kind)
}

pub fn count(tr: &Trace, kind: Kind) -> usize {
    tr.events.iter().filter(|e| e.kind == kind).count()
}

pub fn run(sc: &Scenario) -> [Trace; 2] {
    compare(sc).expect("valid scenario")
}

pub fn secs(e: &Event) -> f64 {
    e.t as f64 / 1000.0
}

pub fn events(tr: &Trace, kind: Kind) -> Vec<&Event> {
    tr.events.iter().filter(|e| e.kind == kind).collect()
}
