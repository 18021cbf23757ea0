//! Named scenarios shipped with the model. Each is also a TOML file under `crates/sim/presets/`
//! (a test keeps the files and these constructors identical), so the CLI can load, edit and
//! re-run them.

use crate::scenario::*;

/// A preset: its name, what it teaches, the upstream report it reproduces (if any), and the
/// scenario.
pub struct Preset {
    pub name: &'static str,
    pub teaches: &'static str,
    /// The kubernetes/kubernetes issue whose reporter's pod and observations the preset replays
    /// (`tests/reports.rs` checks them); `None` for the teaching presets.
    pub link: Option<&'static str>,
    pub build: fn() -> Scenario,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "short-restart",
        teaches: "A 20 s restart: the legacy kubelet flaps every healthy pod NotReady and back; KEP-4781 changes nothing.",
        link: None,
        build: short_restart,
    },
    Preset {
        name: "long-restart",
        teaches: "A 90 s outage: the control plane marks pods NotReady; legacy goes True→False→True, KEP waits for a probe.",
        link: None,
        build: long_restart,
    },
    Preset {
        name: "eviction",
        teaches: "A 6 min outage outlives the 300 s toleration: pods are evicted and Terminating under both policies. The node is one of a healthy multi-node cluster: a one-node cluster whose only node is down is in full disruption and never evicts (N4; the fleet view shows it).",
        link: None,
        build: eviction,
    },
    Preset {
        name: "startup-probe",
        teaches: "With a startup probe the legacy kubelet also resets Started, so readiness waits a full probe cycle.",
        link: None,
        build: startup_probe,
    },
    Preset {
        name: "unhealthy-during-downtime",
        teaches: "The risk KEP-4781 accepts: a pod that broke during the outage stays Ready until failureThreshold probes fail.",
        link: None,
        build: unhealthy_during_downtime,
    },
    Preset {
        name: "not-ready-before-restart",
        teaches: "A pod already NotReady: the legacy kubelet briefly reports it Ready after the restart; KEP keeps it NotReady.",
        link: None,
        build: not_ready_before_restart,
    },
    Preset {
        name: "crash-during-downtime",
        teaches: "A container that exits while the kubelet is down stays Ready in the API until the kubelet returns.",
        link: None,
        build: crash_during_downtime,
    },
    Preset {
        name: "daemonset-long-outage",
        teaches: "An 8 min outage: the Deployment pod is evicted, the DaemonSet pod tolerates it and comes back. The node is one of a healthy multi-node cluster: a one-node cluster whose only node is down is in full disruption and never evicts (N4).",
        link: None,
        build: daemonset_long_outage,
    },
    Preset {
        name: "report-113646-flap",
        teaches: "kubernetes#113646: after a 10 s restart the legacy kubelet shows the Ready pod 0/1 for one 1 s probe and its endpoint is removed and re-added; KEP-4781 keeps it 1/1.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/113646"),
        build: report_113646_flap,
    },
    Preset {
        name: "report-125397-startup-rerun",
        teaches: "kubernetes#125397 and #133579: the legacy kubelet runs the startup probe again after a restart, so the started pod is NotReady for a 60 s period plus the 10 s probe; KEP-4781 keeps Started.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/125397"),
        build: report_125397_startup_rerun,
    },
    Preset {
        name: "report-135795-notready-flip",
        teaches: "kubernetes#135795: web-2, NotReady before the restart, is reported Ready by the legacy kubelet until its probe worker first runs, so all three replicas look Ready to a PodDisruptionBudget; KEP-4781 keeps it NotReady.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/135795"),
        build: report_135795_notready_flip,
    },
    Preset {
        name: "report-136910-sidecar-startup",
        teaches: "kubernetes#136910 (1.35.0 with KEP-4781): after a kubelet restart the sidecar's startup result is never found, so when the app container crashes the pod never initializes again and the app is never restarted (RestartCount 0, Ready False); 1.35.4 (#137885), 1.36 (#137146) and the legacy kubelet restart it.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/136910"),
        build: report_136910_sidecar_startup,
    },
    Preset {
        name: "report-141155-started-by-name",
        teaches: "kubernetes#141155 (1.35–1.37 with KEP-4781): at the liveness kill near 58 s the replacement inherits Started=true by container name and is probed for readiness before its startup probe; main (#141342) and the legacy kubelet keep it Started=false.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/141155"),
        build: report_141155_started_by_name,
    },
    Preset {
        name: "report-142305-started-early",
        teaches: "kubernetes#142305 (open): containers still in their startup period become Started after a restart because SyncPod builds the status before the startup worker exists; with KEP-4781 slow-start stays Ready and liveness kills slow-start-probed.",
        link: Some("https://github.com/kubernetes/kubernetes/issues/142305"),
        build: report_142305_started_early,
    },
    Preset {
        name: "report-141473-replaced-during-partition",
        teaches: "kubernetes#141473 (1.35–1.37 with KEP-4781; preset on 1.36): web-0's container exits at 22 s while the node cannot reach the API server (20–50 s) and is replaced; the kubelet restarts at 35 s, its status write lost, so after the partition the API still names the old container Ready and the replacement inherits it (P1k, S3): Ready until its readiness probe has failed 3 times after initialDelaySeconds (60 s); main (#141487) writes it NotReady in the status its first SyncPod generates, before the worker exists (S3, canInheritProbeState); the legacy kubelet at its worker's first run (P1).",
        link: Some("https://github.com/kubernetes/kubernetes/issues/141473"),
        build: report_141473_replaced_during_partition,
    },
    Preset {
        name: "runtime-restart",
        teaches: "A 90 s container runtime restart: containers keep running and stay Ready; exec probes error and are thrown away while httpGet ones go on; 30 s after its last good runtime check the kubelet posts node Ready=False and its sync loop stops handling pods (probe results, deletions and exits wait until the runtime is back); the node lifecycle controller taints the node not-ready but leaves the pods alone (#125618), so evictions wait out the 300 s not-ready toleration. The same on both kubelets.",
        link: None,
        build: runtime_restart,
    },
    Preset {
        name: "node-reboot",
        teaches: "A 40 s node reboot: every container stops with the node while the API still says Ready (nothing reports the stop) until the kubelet is back; at boot the sandbox is new, the init container runs again first, every container starts anew (restart count + 1) and waits for its probes. The same on both kubelets.",
        link: None,
        build: node_reboot,
    },
    Preset {
        name: "upgrade-1.30-to-1.31",
        teaches: "An in-place kubelet upgrade from 1.30 to 1.31 restarts every container: 1.31 hashes a container by name and image only (PR #124220), so each one looks changed to the new kubelet; the version skew policy says drain the node before a minor upgrade. Hops from 1.31 on keep the containers (kubernetes#129385, #129659).",
        link: None,
        build: upgrade_1_30_to_1_31,
    },
    Preset {
        name: "upgrade-1.34-to-1.35",
        teaches: "An in-place kubelet upgrade from 1.34 to 1.35 keeps every container (the hash is unchanged since 1.31): the legacy lane (1.35 with ChangeContainerStatusOnKubeletRestart=true) flaps every pod NotReady and back; the KEP-4781 lane, the 1.35 default, keeps them Ready.",
        link: None,
        build: upgrade_1_34_to_1_35,
    },
    Preset {
        name: "admission-after-relabel",
        teaches: "On 1.34, as on every release from 1.31 to main (kubernetes#124586, open): the node loses the label web-0's nodeSelector needs while the pods run (IgnoredDuringExecution: nothing happens), then the kubelet restarts; admission runs again at its start and rejects web-0 (\"Pod was rejected: Predicate NodeAffinity failed\"): Ready goes, housekeeping kills its container, it ends Failed and leaves the Service; web-1 has no selector and flaps as any legacy restart does. Only the open PR #133803 (NotEvictPodOnKubeletRestart), which no release has, would skip that check for a pod the kubelet admitted before.",
        link: None,
        build: admission_after_relabel,
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
        restart_policy: None,
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
        owner: None,
        services: service.into_iter().map(str::to_string).collect(),
        termination_grace_s: 30.0,
        init_containers: vec![],
        node_selector: Default::default(),
        node_affinity: vec![],
        tolerations: vec![],
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
            restarts: vec![Restart::new(at, downtime)],
            api_unreachable: Vec::new(),
            first_sync_delay_s: 2.0,
        },
        pods,
        node: Default::default(),
        pdb: None,
        seed: 1,
        horizon_s: horizon,
    }
}

/// `n` web pods (`web-0`, …) with a readiness probe, in the Service `web`.
pub fn web_pods(n: usize) -> Vec<Pod> {
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

// The upstream reports (kubernetes/kubernetes issues replayed as presets). Each reduces the
// reporter's manifest to the model's terms;
// `tests/reports.rs` checks the reporter's observed sequence on the trace, under the kubelet the
// reporter ran. A field the report does not give keeps its Kubernetes default.

fn probe(period_s: u32, failure_threshold: u32) -> Probe {
    Probe {
        period_s,
        failure_threshold,
        ..Probe::default()
    }
}

/// kubernetes#113646 (v1.25.3): pod `busybox-test-1`, container `busybox` with a readiness probe
/// `exec: sleep 1` and every other probe field defaulted (period 10 s, timeout 1 s, thresholds
/// 1/3); the kubelet process restarted. A bare Pod; the Service shows what #78733, #106689 and
/// #131303 report: the endpoint removed and re-added. The legacy lane is the reporter's kubelet.
pub fn report_113646_flap() -> Scenario {
    let c = container("busybox");
    let pods = vec![pod("busybox-test-1", Some("busybox"), vec![c])];
    base("report-113646-flap", 30.0, 10.0, 120.0, pods)
}

/// kubernetes#125397 (and #133579, no manifest): pod `startup-exec`, container `startup` with only
/// a startup probe `sleep 10; cat /tmp/healthy`, `initialDelaySeconds: 6`, `timeoutSeconds: 15`,
/// `periodSeconds: 60` (failureThreshold defaulted to 3), ready long before the kubelet restart.
pub fn report_125397_startup_rerun() -> Scenario {
    let c = Container {
        name: "startup".into(),
        restart_policy: None,
        startup_probe: Some(Probe {
            period_s: 60,
            timeout_s: 15,
            initial_delay_s: 6,
            exec_s: 10.0,
            ..Probe::default()
        }),
        readiness_probe: None,
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    };
    let pods = vec![pod("startup-exec", Some("startup"), vec![c])];
    base("report-125397-startup-rerun", 30.0, 10.0, 200.0, pods)
}

/// kubernetes#135795: a pod NotReady before the restart (its readiness probe fails) is briefly
/// Ready, "~4 seconds", long enough for a PodDisruptionBudget to allow an eviction. The report
/// gives no manifest: three replicas with the default readiness probe, web-2 failing readiness
/// from the start, and a PodDisruptionBudget with minAvailable 2 over them, which allows no
/// disruption until the restart.
pub fn report_135795_notready_flip() -> Scenario {
    let mut pods = web_pods(3);
    pods[2].containers[0].truth = vec![Truth {
        at_s: 0.0,
        state: Health::FailingReadiness,
    }];
    let mut sc = base("report-135795-notready-flip", 60.0, 10.0, 150.0, pods);
    sc.pdb = Some(Pdb {
        pods: Vec::new(),
        service: None,
        min_available: Some(IntOrPercent::Int(2)),
        max_unavailable: None,
    });
    sc
}

/// kubernetes#136910 (v1.34.2 → v1.35.0 upgrade): a pod with a sidecar (an init container with
/// `restartPolicy: Always` and a startup probe) and one application container; after the kubelet
/// restart the application container exits (`Exit Code: 2`) and is never restarted. The report
/// gives no manifest: the sidecar's startup probe is the one of the fix's e2e test
/// (`flagProbe(0, 1, 30)`: period 1 s, failureThreshold 30), the app keeps the default readiness
/// probe; the kubelet restarts at 30 s (the upgrade) and the app exits at 90 s.
pub fn report_136910_sidecar_startup() -> Scenario {
    let mut sidecar = container("sidecar");
    sidecar.restart_policy = Some(RESTART_POLICY_ALWAYS.into());
    sidecar.readiness_probe = None;
    sidecar.startup_probe = Some(probe(1, 30));
    let mut app = container("app");
    app.truth = vec![Truth {
        at_s: 90.0,
        state: Health::Exited,
    }];
    let mut p = pod("app-0", Some("app"), vec![app]);
    p.init_containers = vec![sidecar];
    base("report-136910-sidecar-startup", 30.0, 10.0, 200.0, vec![p])
}

/// kubernetes#141155 (reproduced on k3s v1.36.2): a container with startup, readiness and
/// liveness probes fails its liveness probe and is replaced; the replacement comes up with
/// Started=true. The reporter's probe fields are not in the stored report: defaults, a startup
/// budget of 30 × 10 s and a replacement that takes 45 s to answer. The kubelet restart comes
/// after the kill and changes nothing here.
pub fn report_141155_started_by_name() -> Scenario {
    let mut c = container("app");
    c.startup_probe = Some(probe(10, 30));
    c.liveness_probe = Some(Probe::default());
    c.warmup_s = 45.0;
    c.truth = vec![Truth {
        at_s: 30.0,
        state: Health::Failing,
    }];
    let mut sc = base(
        "report-141155-started-by-name",
        150.0,
        10.0,
        250.0,
        vec![pod("probe-repro", Some("probe-repro"), vec![c])],
    );
    sc.cluster.version = KubeVersion::V1_36;
    sc
}

/// kubernetes#142305 (open; fix proposed in PR #142303): pod `slow-start`, a container with a
/// startup probe that keeps failing and no readiness probe. The model's containers have run for
/// an hour at 0 s, so each container here exits at 20 s and its replacement answers only after
/// 600 s (a startup budget of 60 × 10 s). `slow-start-probed` adds readiness and liveness probes,
/// the reporter's second case. On main, where #141155 is fixed, the replacements start with
/// Started=false.
pub fn report_142305_started_early() -> Scenario {
    let slow = |name: &str, probed: bool| {
        let mut c = container("app");
        c.startup_probe = Some(probe(10, 60));
        if probed {
            c.liveness_probe = Some(Probe::default());
        } else {
            c.readiness_probe = None;
        }
        c.warmup_s = 600.0;
        c.truth = vec![Truth {
            at_s: 20.0,
            state: Health::Exited,
        }];
        pod(name, Some("slow-start"), vec![c])
    };
    let pods = vec![slow("slow-start", false), slow("slow-start-probed", true)];
    let mut sc = base("report-142305-started-early", 60.0, 10.0, 200.0, pods);
    sc.cluster.version = KubeVersion::Main;
    sc
}

/// kubernetes#141473 (closed by #141487 on main; cherry-picks to 1.35–1.37 open): "the API server
/// records container A as Ready=true; while the API server is unavailable, container A is
/// replaced by container B; the kubelet then restarts. Container B may have started before the
/// new kubelet process" (kubernetes#141155 discussion), so B "was reported Ready until its own
/// readiness probe first ran, delayed by `initialDelaySeconds`" (#141487). The report gives no
/// manifest: two replicas with the default readiness probe plus `initialDelaySeconds: 60`; the
/// node loses the API server from 20 s to 50 s (shorter than the grace period, so the node
/// lifecycle controller never marks the pod NotReady); web-0's container exits at 22 s and its
/// replacement needs 120 s before it answers; the kubelet restarts at 35 s for 5 s.
pub fn report_141473_replaced_during_partition() -> Scenario {
    let app = |warmup_s: f64, truth: Vec<Truth>| {
        let mut c = container("app");
        c.readiness_probe = Some(Probe {
            initial_delay_s: 60,
            ..Probe::default()
        });
        c.warmup_s = warmup_s;
        c.truth = truth;
        c
    };
    let exits = vec![Truth {
        at_s: 22.0,
        state: Health::Exited,
    }];
    let pods = vec![
        pod("web-0", Some("web"), vec![app(120.0, exits)]),
        pod("web-1", Some("web"), vec![app(120.0, vec![])]),
    ];
    let mut sc = base(
        "report-141473-replaced-during-partition",
        35.0,
        5.0,
        200.0,
        pods,
    );
    sc.kubelet.api_unreachable = vec![ApiUnreachable {
        at_s: 20.0,
        duration_s: 30.0,
    }];
    sc.cluster.version = KubeVersion::V1_36;
    sc
}

/// A container-runtime restart (containerd or CRI-O restarted: `systemctl restart containerd`):
/// three web pods whose readiness probe is an httpGet and whose liveness probe is an exec.
pub fn runtime_restart() -> Scenario {
    let mut pods = web_pods(3);
    for p in pods.iter_mut() {
        let c = &mut p.containers[0];
        c.readiness_probe = Some(Probe {
            handler: Handler::HttpGet,
            ..Probe::default()
        });
        c.liveness_probe = Some(Probe::default());
    }
    let mut sc = base("runtime-restart", 30.0, 90.0, 200.0, pods);
    sc.kubelet.restarts[0].what = RestartKind::Runtime;
    sc
}

/// A node reboot: two pods with an ordinary init container (it runs 3 s) before the app.
pub fn node_reboot() -> Scenario {
    let pods = (0..2)
        .map(|i| {
            let mut init = container("migrate");
            init.readiness_probe = None;
            init.warmup_s = 3.0;
            let mut p = pod(&format!("web-{i}"), Some("web"), vec![container("app")]);
            p.init_containers = vec![init];
            p
        })
        .collect();
    let mut sc = base("node-reboot", 30.0, 40.0, 150.0, pods);
    sc.kubelet.restarts[0].what = RestartKind::Node;
    sc
}

/// kubernetes#129385 and #129659: a kubelet upgraded in place from 1.30 to 1.31 restarts the
/// node's containers ("Container … definition changed, will be restarted").
pub fn upgrade_1_30_to_1_31() -> Scenario {
    let mut sc = base("upgrade-1.30-to-1.31", 30.0, 20.0, 120.0, web_pods(3));
    sc.cluster.version = crate::releases::KubeVersion::V1_30;
    sc.kubelet.policy = Policy::Legacy;
    sc.kubelet.restarts[0].upgrade_to = Some(crate::releases::KubeVersion::V1_31);
    sc
}

/// A 1.34 kubelet upgraded in place to 1.35 (as in kubernetes#136910's report, 1.34.2 → 1.35.0).
pub fn upgrade_1_34_to_1_35() -> Scenario {
    let mut sc = base("upgrade-1.34-to-1.35", 30.0, 20.0, 120.0, web_pods(3));
    sc.cluster.version = crate::releases::KubeVersion::V1_34;
    sc.kubelet.restarts[0].upgrade_to = Some(crate::releases::KubeVersion::V1_35);
    sc
}

/// kubernetes#118497 and #124586: a running pod whose node no longer has the label its
/// `nodeSelector` names is rejected when the kubelet restarts (admission checks node affinity
/// again at start on every release, 1.31 to main; only the open PR #133803 would skip it for a
/// pod the kubelet admitted before).
pub fn admission_after_relabel() -> Scenario {
    let mut pods = web_pods(2);
    pods[0].node_selector = [("disktype".to_string(), "ssd".to_string())].into();
    let mut sc = base("admission-after-relabel", 30.0, 10.0, 90.0, pods);
    sc.cluster.version = crate::releases::KubeVersion::V1_34;
    sc.kubelet.policy = Policy::Legacy;
    sc.node.labels = [("disktype".to_string(), "ssd".to_string())].into();
    sc.node.changes.push(NodeChange {
        at_s: 15.0,
        labels: Some(Default::default()),
        taints: None,
    });
    sc
}
