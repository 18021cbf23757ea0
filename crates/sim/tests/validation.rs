//! Validation: accept what Kubernetes accepts, reject in Kubernetes' own field names (docs/MODEL.md).

mod common;
use common::*;
use restartscope_sim::*;

#[test]
fn validation_names_field_and_range() {
    let mut sc = canonical(20.0, 1);
    sc.kubelet.restarts[0].downtime_s = -1.0;
    sc.pods[0].containers[0]
        .readiness_probe
        .as_mut()
        .unwrap()
        .period_s = 0;
    sc.pods[0].name = "Bad Name".into();
    let errs = sc.validate().unwrap_err();
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        text.contains(
            &"kubelet.restarts[0].downtime_s must be between 0 and 3600 seconds, got -1"
                .to_string()
        ),
        "{text:?}"
    );
    // Kubernetes' name first, then where it is in the scenario.
    assert!(
        text.contains(&"containers[app].readinessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 10 (scenario field pods[0].containers[0].readiness_probe.period_s)".to_string()),
        "{text:?}"
    );
    let period = errs
        .iter()
        .find(|e| e.k8s == "containers[app].readinessProbe.periodSeconds")
        .unwrap();
    assert_eq!(
        period.field,
        "pods[0].containers[0].readiness_probe.period_s"
    );
    assert!(text.iter().any(|t| t
        .starts_with("metadata.name must be a lowercase RFC 1123 subdomain")
        && t.ends_with("got \"Bad Name\" (scenario field pods[0].name)")));
    assert!(simulate(&sc).is_err());
}

#[test]
fn validation_words_every_probe_field_as_kubernetes_does() {
    let mut sc = canonical(20.0, 1);
    let c = &mut sc.pods[0].containers[0];
    c.readiness_probe = Some(Probe {
        timeout_s: 0,
        success_threshold: 0,
        // Above int32: what the API server cannot hold (the fields are int32).
        failure_threshold: 2_147_483_648,
        initial_delay_s: 3_000_000_000,
        ..Probe::default()
    });
    c.liveness_probe = Some(Probe {
        success_threshold: 2,
        ..Probe::default()
    });
    sc.pods[0].termination_grace_s = -1.0;
    sc.cluster.toleration_s = -5.0;
    sc.cluster.node_monitor_grace_s = Some(1.0);
    let errs = sc.validate().unwrap_err();
    let msgs: Vec<&str> = errs.iter().map(|e| e.message.as_str()).collect();
    for want in [
        "containers[app].readinessProbe.timeoutSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 1",
        "containers[app].readinessProbe.successThreshold must be at least 1 (an int32: at most 2147483647), got 0; Kubernetes reads 0 as unset and uses the default, 1",
        "containers[app].readinessProbe.failureThreshold must be at least 1 (an int32: at most 2147483647), got 2147483648",
        "containers[app].readinessProbe.initialDelaySeconds must be at least 0 (seconds, an int32: at most 2147483647), got 3000000000",
        "containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2",
        "terminationGracePeriodSeconds must be at least 0 seconds, got -1",
        "--node-monitor-grace-period must be between 5s and 600s, got 1s",
    ] {
        assert!(msgs.contains(&want), "{want:?} not in {msgs:#?}");
    }
    assert!(msgs.iter().any(|m| m.starts_with(
        "tolerationSeconds must be between 0 and 86400 seconds, got -5; Kubernetes evicts at once"
    )));
    // Every message leads with the name it gives.
    for e in &errs {
        assert!(e.message.starts_with(&e.k8s), "{e:?}");
    }
}

#[test]
fn validation_accepts_what_kubernetes_accepts() {
    // periodSeconds 1 with timeoutSeconds 1, a probe that takes its whole period or longer than
    // its timeout, timeoutSeconds above periodSeconds, and a pod name with dots.
    let mut sc = canonical(20.0, 1);
    sc.pods[0].name = "web.v2-0".into();
    sc.pods[0].containers[0].readiness_probe = Some(Probe {
        period_s: 1,
        timeout_s: 1,
        exec_s: 1.0,
        ..Probe::default()
    });
    sc.pods[0].containers[0].liveness_probe = Some(Probe {
        period_s: 2,
        timeout_s: 5,
        exec_s: 3.0,
        ..Probe::default()
    });
    sc.validate().unwrap();
    let [legacy, kep] = compare(&sc).unwrap();
    assert!(!events(&legacy, Kind::Probe).is_empty());
    assert!(!events(&kep, Kind::Probe).is_empty());
    // Kubernetes rejects duplicate container names; so does the model.
    let mut sc = canonical(20.0, 1);
    let c = sc.pods[0].containers[0].clone();
    sc.pods[0].containers.push(c);
    let errs = sc.validate().unwrap_err();
    assert_eq!(errs[0].field, "pods[0].containers[1].name");
    assert!(errs[0].message.contains("is used by two containers"));
}

#[test]
fn validation_keeps_the_node_alive_while_the_kubelet_is_up() {
    let mut sc = canonical(20.0, 1);
    sc.cluster.lease_duration_s = 200.0;
    let errs = sc.validate().unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].field, "cluster.node_monitor_grace_s");
    assert!(
        errs[0].to_string().starts_with(
            "--node-monitor-grace-period must be above 57s here (a lease renewal every nodeLeaseDurationSeconds / 4 + 4 % jitter = 52s plus one --node-monitor-period of 5s), got 50s"
        ),
        "{errs:?}"
    );
}

/// `validateInitContainers`: probes only on init containers with `restartPolicy: Always`;
/// `validateInitContainerRestartPolicy`: "Always" or unset; names unique across init containers
/// and containers. The model's own: a completed init container has no truth to change.
#[test]
fn init_containers_validated_like_the_api_server() {
    let init = |name: &str, rp: Option<&str>| Container {
        name: name.into(),
        restart_policy: rp.map(str::to_string),
        startup_probe: Some(Probe::default()),
        readiness_probe: None,
        liveness_probe: None,
        warmup_s: 0.0,
        truth: vec![],
    };
    let sc = canonical(20.0, 1).with_init_containers(&[
        init("migrate", None),
        init("proxy", Some("OnFailure")),
        init("app", Some("Always")),
    ]);
    let errs = sc.validate().unwrap_err();
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(text.contains(&"initContainers[0].startupProbe may not be set for init containers without restartPolicy=Always (Kubernetes: Forbidden) (scenario field pods[0].init_containers[0].startup_probe)".to_string()), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with(
        "initContainers[1].restartPolicy must be \"Always\" (a sidecar) or unset (an ordinary init container), got \"OnFailure\""
    )), "{text:?}");
    // The regular container named like a sidecar: a duplicate, reported on the container.
    assert!(
        text.iter()
            .any(|t| t
                .starts_with("containers[0].name \"app\" is used by two containers of the pod")),
        "{text:?}"
    );
    // OnFailure is not Always, so its startup probe is forbidden too.
    assert_eq!(errs.len(), 4, "{text:?}");
    // A sidecar's probes are validated like a container's.
    let mut bad = init("proxy", Some("Always"));
    bad.startup_probe.as_mut().unwrap().success_threshold = 2;
    let errs = canonical(20.0, 1)
        .with_init_containers(&[bad])
        .validate()
        .unwrap_err();
    assert_eq!(
        errs[0].k8s,
        "initContainers[proxy].startupProbe.successThreshold"
    );
    // restartPolicy on a regular container, truth on a completed init container.
    let mut sc = canonical(20.0, 1).with_init_containers(&[Container {
        startup_probe: None,
        truth: vec![Truth {
            at_s: 5.0,
            state: Health::Exited,
        }],
        ..init("migrate", None)
    }]);
    sc.pods[0].containers[0].restart_policy = Some("Always".into());
    let fields: Vec<String> = sc
        .validate()
        .unwrap_err()
        .into_iter()
        .map(|e| e.field)
        .collect();
    assert_eq!(
        fields,
        vec![
            "pods[0].init_containers[0].truth",
            "pods[0].containers[0].restart_policy"
        ]
    );
}

/// `ValidatePodDisruptionBudgetSpec`: not both fields; a non-negative int or a percent up to
/// 100 %; the budget's Service must be one of the pods'.
#[test]
fn pdb_validated_like_the_api_server() {
    let pdb = |min: Option<IntOrPercent>, max: Option<IntOrPercent>, svc: Option<&str>| {
        canonical(20.0, 1)
            .with_pdb(Some(Pdb {
                pods: vec![],
                service: svc.map(str::to_string),
                min_available: min,
                max_unavailable: max,
            }))
            .validate()
    };
    assert!(pdb(Some(IntOrPercent::Int(1)), None, None).is_ok());
    assert!(pdb(None, Some(IntOrPercent::Str("50%".into())), Some("web")).is_ok());
    let msg = |r: Result<(), Vec<FieldError>>| -> Vec<String> {
        r.unwrap_err().into_iter().map(|e| e.message).collect()
    };
    assert_eq!(
        msg(pdb(
            Some(IntOrPercent::Int(1)),
            Some(IntOrPercent::Int(1)),
            None
        )),
        vec![
            "spec: minAvailable and maxUnavailable cannot be both set (Kubernetes: Invalid value)"
        ]
    );
    assert_eq!(
        msg(pdb(Some(IntOrPercent::Int(-1)), None, None)),
        vec!["spec.minAvailable must be greater than or equal to 0, got -1"]
    );
    assert_eq!(
        msg(pdb(None, Some(IntOrPercent::Str("120%".into())), None)),
        vec!["spec.maxUnavailable must not be greater than 100%, got \"120%\""]
    );
    assert!(
        msg(pdb(Some(IntOrPercent::Str("half".into())), None, None))[0]
            .starts_with("spec.minAvailable must be an integer or a percent")
    );
    assert_eq!(
        msg(pdb(Some(IntOrPercent::Int(1)), None, Some("api"))),
        vec!["pdb.service must name the Service of one of the pods, got \"api\""]
    );
    // TOML takes an int or a percent string.
    let sc: Scenario = toml::from_str(&format!(
        "{}\n[pdb]\nmin_available = \"50%\"\n",
        toml::to_string(&canonical(20.0, 1)).unwrap()
    ))
    .unwrap();
    assert_eq!(
        sc.pdb.unwrap().min_available,
        Some(IntOrPercent::Str("50%".into()))
    );
}
