//! The operator's knobs (`Overrides::pods`, `Overrides::probes`): how many pods, any probe of any
//! container, and the messages validation gives for them in Kubernetes' names.

use restartscope_sim::*;

fn preset(name: &str) -> Scenario {
    (presets::find(name).unwrap().build)()
}

fn set(container: &str, kind: ProbeKind, o: ProbeOverrides) -> ProbeEdit {
    ProbeEdit {
        workload: None,
        container: container.into(),
        kind,
        change: ProbeChange::Set(o),
    }
}

fn messages(r: Result<Scenario, Vec<FieldError>>) -> Vec<String> {
    r.unwrap_err().into_iter().map(|e| e.message).collect()
}

#[test]
fn fewer_pods_keep_the_first_more_copy_the_first_as_healthy_replicas() {
    let sc = preset("unhealthy-during-downtime").with_pods(1);
    assert_eq!(sc.pods.len(), 1);
    assert_eq!(sc.pods[0].name, "web-0");
    let sc = preset("unhealthy-during-downtime").with_pods(5);
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["web-0", "web-1", "web-2", "web-3", "web-4"]);
    // web-1 keeps its own story; the copies are web-0's spec.
    assert!(!sc.pods[1].containers[0].truth.is_empty());
    assert_eq!(sc.pods[3].containers, sc.pods[0].containers);
    assert_eq!(sc.pods[3].services, ["web"]);
    // A template with a truth schedule is copied without it.
    let sc = preset("report-136910-sidecar-startup").with_pods(3);
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["app-0", "app-1", "app-2"]);
    assert!(!sc.pods[0].containers[0].truth.is_empty());
    assert!(sc.pods[2].containers[0].truth.is_empty());
    assert_eq!(sc.pods[2].init_containers[0].name, "sidecar");
    // A name without an index gets -1, -2, …; names in use are skipped.
    let sc = preset("report-141155-started-by-name").with_pods(3);
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["probe-repro", "probe-repro-1", "probe-repro-2"]);
    let sc = preset("startup-probe").with_pods(3);
    let names: Vec<&str> = sc.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["api-0", "web-0", "api-1"]);
    assert!(sc.validate().is_ok());
}

#[test]
fn pods_override_simulates_and_is_limited_to_max_pods() {
    let o = Overrides {
        pods: Some(12),
        ..Overrides::default()
    };
    let sc = o.apply(preset("long-restart")).unwrap();
    let [legacy, kep] = compare(&sc).unwrap();
    assert_eq!(legacy.pods.len(), 12);
    assert_eq!(kep.pods.len(), 12);
    for n in [0, MAX_PODS + 1] {
        let o = Overrides {
            pods: Some(n),
            ..Overrides::default()
        };
        let m = messages(o.apply(preset("long-restart")));
        assert_eq!(
            m,
            [format!("pods must be between 1 and 110, got {n}: 110 is the kubelet's default maxPods, the most pods one node runs")]
        );
    }
    let o = Overrides {
        pods: Some(MAX_PODS),
        ..Overrides::default()
    };
    assert_eq!(o.apply(preset("short-restart")).unwrap().pods.len(), 110);
}

#[test]
fn every_probe_field_of_every_container_is_a_knob() {
    let o = Overrides {
        pods: Some(4),
        probes: vec![
            set(
                "app",
                ProbeKind::Liveness,
                ProbeOverrides {
                    initial_delay_s: Some(5),
                    period_s: Some(3),
                    timeout_s: Some(2),
                    failure_threshold: Some(4),
                    exec_s: Some(0.5),
                    ..ProbeOverrides::default()
                },
            ),
            set(
                "sidecar",
                ProbeKind::Startup,
                ProbeOverrides {
                    period_s: Some(2),
                    ..ProbeOverrides::default()
                },
            ),
            ProbeEdit {
                workload: None,
                container: "app".into(),
                kind: ProbeKind::Readiness,
                change: ProbeChange::Remove,
            },
        ],
        ..Overrides::default()
    };
    let sc = o.apply(preset("report-136910-sidecar-startup")).unwrap();
    for p in &sc.pods {
        let app = &p.containers[0];
        assert_eq!(app.readiness_probe, None);
        // Added with the Kubernetes defaults, then the fields set.
        assert_eq!(
            app.liveness_probe,
            Some(Probe {
                initial_delay_s: 5,
                period_s: 3,
                timeout_s: 2,
                success_threshold: 1,
                failure_threshold: 4,
                exec_s: 0.5,
                handler: Default::default(),
            })
        );
        let side = p.init_containers[0].startup_probe.as_ref().unwrap();
        assert_eq!((side.period_s, side.failure_threshold), (2, 30));
    }
    // Changing the period changes the runs.
    let base = compare(&preset("report-136910-sidecar-startup")).unwrap();
    let edited = compare(&sc).unwrap();
    assert_ne!(base[0].events.len(), edited[0].events.len());
}

#[test]
fn probe_knobs_are_validated_in_kubernetes_words() {
    let o = Overrides {
        probes: vec![
            set(
                "app",
                ProbeKind::Liveness,
                ProbeOverrides {
                    success_threshold: Some(2),
                    period_s: Some(0),
                    ..ProbeOverrides::default()
                },
            ),
            set(
                "app",
                ProbeKind::Readiness,
                ProbeOverrides {
                    exec_s: Some(-1.0),
                    ..ProbeOverrides::default()
                },
            ),
        ],
        pods: Some(3),
        ..Overrides::default()
    };
    let errs = o.apply(preset("short-restart")).unwrap_err();
    // One message per setting and pod, the same words in every pod.
    let mut m: Vec<String> = errs.iter().map(|e| e.message.clone()).collect();
    m.dedup();
    m.sort();
    m.dedup();
    assert_eq!(
        m,
        [
            "containers[app].livenessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 10",
            "containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2",
            "containers[app].readinessProbe.execSeconds (the model's own: how long one probe runs) must be between 0 and 3600 seconds, got -1",
        ]
    );
    assert!(errs
        .iter()
        .any(|e| e.field == "pods[2].containers[0].liveness_probe.success_threshold"));
    // A sidecar's probe is named as an init container's.
    let o = Overrides {
        probes: vec![set(
            "sidecar",
            ProbeKind::Startup,
            ProbeOverrides {
                success_threshold: Some(3),
                ..ProbeOverrides::default()
            },
        )],
        ..Overrides::default()
    };
    assert_eq!(
        messages(o.apply(preset("report-136910-sidecar-startup"))),
        ["initContainers[sidecar].startupProbe.successThreshold must be 1 for a startup probe, got 3"]
    );
    // A container the scenario does not have.
    let o = Overrides {
        probes: vec![set("db", ProbeKind::Readiness, ProbeOverrides::default())],
        ..Overrides::default()
    };
    assert_eq!(
        messages(o.apply(preset("short-restart"))),
        ["containers[db].readinessProbe: the scenario has no container named \"db\" (its containers: app)"]
    );
}

/// Two workloads with a container of the same name: `frontend-0`, `frontend-1` and `api-0`,
/// each with an `app` container (as the import names the pods of two Deployments).
fn two_workloads() -> Scenario {
    let mut sc = preset("short-restart").with_pods(3);
    for (p, name) in sc
        .pods
        .iter_mut()
        .zip(["frontend-0", "frontend-1", "api-0"])
    {
        p.name = name.into();
    }
    sc
}

#[test]
fn a_probe_edit_of_one_workload_leaves_the_other_workloads_pods_alone() {
    let sc = two_workloads();
    assert_eq!(sc.workload_names(), ["frontend", "api"]);
    let before = sc.pods[2].containers[0].readiness_probe.clone();
    let edit = ProbeEdit {
        workload: Some("frontend".into()),
        ..set(
            "app",
            ProbeKind::Readiness,
            ProbeOverrides {
                period_s: Some(7),
                ..ProbeOverrides::default()
            },
        )
    };
    let out = sc.clone().with_probe(&edit).unwrap();
    for p in &out.pods[..2] {
        assert_eq!(
            p.containers[0].readiness_probe.as_ref().unwrap().period_s,
            7
        );
    }
    assert_eq!(out.pods[2].containers[0].readiness_probe, before);
    // Without a workload, every pod's `app`.
    let all = sc
        .clone()
        .with_probe(&ProbeEdit {
            workload: None,
            ..edit.clone()
        })
        .unwrap();
    assert!(all
        .pods
        .iter()
        .all(|p| p.containers[0].readiness_probe.as_ref().unwrap().period_s == 7));
    // A workload the scenario does not have, or a container it does not have, is named.
    let e = sc
        .clone()
        .with_probe(&ProbeEdit {
            workload: Some("web".into()),
            ..edit.clone()
        })
        .unwrap_err();
    assert!(
        e.message
            .contains("no workload named \"web\" (its workloads: frontend, api)"),
        "{}",
        e.message
    );
    let e = sc
        .with_probe(&ProbeEdit {
            container: "db".into(),
            ..edit
        })
        .unwrap_err();
    assert!(
        e.message
            .contains("workload \"frontend\" has no container named \"db\""),
        "{}",
        e.message
    );
}

#[test]
fn probe_keys_take_an_optional_workload() {
    let k = parse_probe_key("frontend.v2/server.readinessProbe.periodSeconds").unwrap();
    assert_eq!(k.workload, Some("frontend.v2"));
    assert_eq!(k.container, "server");
    assert_eq!(k.kind, ProbeKind::Readiness);
    assert_eq!(k.field, Some(ProbeField::Period));
    let k = parse_probe_key("app.livenessProbe").unwrap();
    assert_eq!((k.workload, k.container, k.field), (None, "app", None));
    for bad in [
        "/app.livenessProbe",
        "a/b/app.livenessProbe",
        "w/app.b.livenessProbe",
        "w/.livenessProbe",
    ] {
        assert_eq!(parse_probe_key(bad), None, "{bad}");
    }
    assert_eq!(
        probe_key(Some("a.b"), "c", ProbeKind::Startup),
        "a.b/c.startupProbe"
    );
}
