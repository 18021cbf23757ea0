//! Named scenarios shipped with the model. Each is also a TOML file under `crates/sim/presets/`
//! (a test keeps the files and these constructors identical), so the CLI can load, edit and
//! re-run them.

use crate::scenario::*;

/// A preset: its name, what it teaches, and the scenario.
pub struct Preset {
    pub name: &'static str,
    pub teaches: &'static str,
    pub build: fn() -> Scenario,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "short-restart",
        teaches: "A 20 s restart: the legacy kubelet flaps every healthy pod NotReady and back; KEP-4781 changes nothing.",
        build: short_restart,
    },
    Preset {
        name: "long-restart",
        teaches: "A 90 s outage: the control plane marks pods NotReady; legacy goes True→False→True, KEP waits for a probe.",
        build: long_restart,
    },
    Preset {
        name: "eviction",
        teaches: "A 6 min outage outlives the 300 s toleration: pods are evicted and Terminating under both policies.",
        build: eviction,
    },
    Preset {
        name: "startup-probe",
        teaches: "With a startup probe the legacy kubelet also resets Started, so readiness waits a full probe cycle.",
        build: startup_probe,
    },
    Preset {
        name: "unhealthy-during-downtime",
        teaches: "The risk KEP-4781 accepts: a pod that broke during the outage stays Ready until failureThreshold probes fail.",
        build: unhealthy_during_downtime,
    },
    Preset {
        name: "not-ready-before-restart",
        teaches: "A pod already NotReady: the legacy kubelet briefly reports it Ready after the restart; KEP keeps it NotReady.",
        build: not_ready_before_restart,
    },
    Preset {
        name: "crash-during-downtime",
        teaches: "A container that exits while the kubelet is down stays Ready in the API until the kubelet returns.",
        build: crash_during_downtime,
    },
    Preset {
        name: "daemonset-long-outage",
        teaches: "An 8 min outage: the Deployment pod is evicted, the DaemonSet pod tolerates it and comes back.",
        build: daemonset_long_outage,
    },
];

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

fn readiness() -> Probe {
    Probe::default()
}

fn container(name: &str) -> Container {
    Container {
        name: name.into(),
        startup_probe: None,
        readiness_probe: Some(readiness()),
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    }
}

fn pod(name: &str, service: Option<&str>, containers: Vec<Container>) -> Pod {
    Pod {
        name: name.into(),
        workload: Workload::Deployment,
        service: service.map(str::to_string),
        termination_grace_s: 30.0,
        containers,
    }
}

fn base(name: &str, at: f64, downtime: f64, horizon: f64, pods: Vec<Pod>) -> Scenario {
    Scenario {
        name: name.into(),
        description: find(name)
            .map(|p| p.teaches.to_string())
            .unwrap_or_default(),
        cluster: Cluster::default(),
        kubelet: Kubelet {
            policy: Policy::Kep,
            restarts: vec![Restart {
                at_s: at,
                downtime_s: downtime,
            }],
            first_sync_delay_s: 2.0,
        },
        pods,
        seed: 1,
        horizon_s: horizon,
    }
}

fn web_pods(n: usize) -> Vec<Pod> {
    (0..n)
        .map(|i| pod(&format!("web-{i}"), Some("web"), vec![container("app")]))
        .collect()
}

pub fn short_restart() -> Scenario {
    base("short-restart", 30.0, 20.0, 120.0, web_pods(3))
}

pub fn long_restart() -> Scenario {
    base("long-restart", 30.0, 90.0, 200.0, web_pods(3))
}

pub fn eviction() -> Scenario {
    base("eviction", 30.0, 360.0, 480.0, web_pods(3))
}

pub fn startup_probe() -> Scenario {
    let mut c = container("app");
    c.startup_probe = Some(Probe {
        failure_threshold: 30,
        ..Probe::default()
    });
    c.liveness_probe = Some(Probe::default());
    let mut pods = vec![pod("api-0", Some("api"), vec![c])];
    pods.extend(web_pods(1).into_iter().map(|mut p| {
        p.name = "web-0".into();
        p
    }));
    base("startup-probe", 30.0, 20.0, 120.0, pods)
}

pub fn unhealthy_during_downtime() -> Scenario {
    let mut pods = web_pods(2);
    pods[1].containers[0].liveness_probe = Some(Probe::default());
    pods[1].containers[0].truth = vec![Truth {
        at_s: 35.0,
        state: Health::Failing,
    }];
    base("unhealthy-during-downtime", 30.0, 20.0, 150.0, pods)
}

pub fn not_ready_before_restart() -> Scenario {
    let mut pods = web_pods(2);
    pods[1].containers[0].truth = vec![Truth {
        at_s: 0.0,
        state: Health::FailingReadiness,
    }];
    base("not-ready-before-restart", 60.0, 20.0, 150.0, pods)
}

pub fn crash_during_downtime() -> Scenario {
    let mut pods = web_pods(2);
    pods[1].containers[0].warmup_s = 5.0;
    pods[1].containers[0].truth = vec![Truth {
        at_s: 40.0,
        state: Health::Exited,
    }];
    base("crash-during-downtime", 30.0, 30.0, 150.0, pods)
}

pub fn daemonset_long_outage() -> Scenario {
    let mut ds = pod("node-agent", None, vec![container("agent")]);
    ds.workload = Workload::DaemonSet;
    let pods = vec![pod("web-0", Some("web"), vec![container("app")]), ds];
    base("daemonset-long-outage", 30.0, 480.0, 600.0, pods)
}
