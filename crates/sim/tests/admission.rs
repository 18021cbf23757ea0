//! Admission at the kubelet's start (rules A1, A2; A1s only in a hand-built profile) and a
//! user's NoExecute taint (E1u), against the Go code they follow (docs/MODEL.md): `kubelet.go` `HandlePodAdditions` and
//! `rejectPod`, `lifecycle/predicate.go` `Admit` / `generalFilter`, `kubelet_pods.go`
//! `HandlePodCleanups`, `status_manager.go` `mergePodStatus`, and `tainteviction`
//! `processPodOnNode`; and the e2e_node case of PR #124445 (`restart_test.go`: "should evict
//! running pods that do not meet the affinity after the kubelet restart").

use restartscope_sim::*;
use std::collections::BTreeMap;

fn secs(e: &Event) -> f64 {
    e.t as f64 / 1000.0
}

fn of(tr: &Trace, kind: Kind, pod: u16) -> Vec<&Event> {
    tr.events
        .iter()
        .filter(|e| e.kind == kind && e.pod == Some(pod))
        .collect()
}

fn run(sc: &Scenario, p: &KubeletProfile) -> Trace {
    let mut sc = sc.clone();
    sc.cluster.version = p.version;
    simulate_profile(&sc, p).unwrap_or_else(|e| panic!("{}: {e:?}", p.label()))
}

fn lanes(keep: impl Fn(KubeVersion) -> bool) -> Vec<KubeletProfile> {
    KubeVersion::ALL
        .into_iter()
        .filter(|v| keep(*v))
        .flat_map(KubeletProfile::defaults)
        .collect()
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The kubelet's message for a pod its node-affinity check turns away (`rejectPod`:
/// "Pod was rejected: " + `PredicateFailureError.Error()`; `nodeaffinity.ErrReasonPod`).
const NODE_AFFINITY: &str =
    "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector";

/// Admission runs again at every kubelet start, on every release: web-0's node lost the label
/// its `nodeSelector` needs at 15 s (nothing happens then: IgnoredDuringExecution); the kubelet
/// stopped at 30 s starts at 40 s and its first pod list (2 s later) rejects web-0. Ready goes
/// at once (the status manager drops the kubelet-owned conditions); housekeeping (every 2 s from
/// the start) kills the container with a 1 s grace; the next 10 s `syncBatch` reconcile writes
/// Failed, and the EndpointSlice controller drops the pod. (`predicate.go` `Admit` and
/// `generalFilter` check node affinity and NoExecute taints in every release from v1.31.14 to
/// v1.38.0-beta.0; none has the open PR #133803's `skipIgnorableChecks`.)
#[test]
fn a_relabelled_node_rejects_the_pod_at_the_kubelet_start_on_every_release() {
    let sc = presets::admission_after_relabel();
    for p in lanes(|_| true) {
        let tr = run(&sc, &p);
        let who = p.label();
        let rejected = of(&tr, Kind::PodRejected, 0);
        assert_eq!(rejected.len(), 1, "{who}");
        assert_eq!(secs(rejected[0]), 42.0, "{who}");
        assert_eq!(
            rejected[0].value,
            Value::Message(NODE_AFFINITY.into()),
            "{who}"
        );
        let ready = of(&tr, Kind::PodReady, 0);
        assert_eq!(ready.len(), 1, "{who}: Ready never comes back");
        assert_eq!(
            (secs(ready[0]), &ready[0].value),
            (42.0, &Value::Bool(false))
        );
        assert_eq!(ready[0].rule, Rule::A1);
        let exit = of(&tr, Kind::ContainerExit, 0);
        assert_eq!(exit.len(), 1, "{who}");
        assert_eq!((secs(exit[0]), exit[0].rule), (45.0, Rule::A2), "{who}");
        let failed = of(&tr, Kind::PodFailed, 0);
        assert_eq!(failed.len(), 1, "{who}");
        assert_eq!(secs(failed[0]), 50.0, "{who}");
        // Not ready at 42 s, out of the slice at 50 s.
        let eps: Vec<(f64, Value)> = of(&tr, Kind::Endpoint, 0)
            .into_iter()
            .map(|e| (secs(e), e.value.clone()))
            .collect();
        assert_eq!(eps.len(), 2, "{who}: {eps:?}");
        assert!(matches!(
            eps[0],
            (
                42.0,
                Value::Endpoint(EndpointValue {
                    ready: false,
                    serving: false,
                    ..
                })
            )
        ));
        assert_eq!(eps[1], (50.0, Value::None), "{who}");
        // Never started again; web-1 (no selector) is admitted.
        assert!(of(&tr, Kind::ContainerRestart, 0).is_empty(), "{who}");
        assert!(of(&tr, Kind::PodRejected, 1).is_empty(), "{who}");
        assert!(tr.events.iter().all(|e| e.rule != Rule::A1s), "{who}");
    }
}

/// A1s is the open PR #133803 (`NotEvictPodOnKubeletRestart`, `predicate.go`
/// `skipIgnorableChecks`), which no release has: no release profile turns it on (the release
/// profiles' switch is tested in `profile.rs`), and a profile built by hand with it shows what
/// the PR would change: a pod that has started and was admitted before passes the node-affinity
/// check, on either lane.
#[test]
fn a_hand_built_profile_with_pr_133803_keeps_the_pod() {
    let sc = presets::admission_after_relabel();
    for mut p in lanes(KubeVersion::has_kep_4781) {
        assert!(!p.rules.skip_ignorable_admission_checks, "{}", p.label());
        p.rules.skip_ignorable_admission_checks = true;
        let tr = run(&sc, &p);
        let who = p.label();
        assert!(
            tr.events.iter().all(|e| e.kind != Kind::PodRejected),
            "{who}"
        );
        let sync = of(&tr, Kind::PodSync, 0);
        assert_eq!(sync.len(), 1, "{who}");
        assert_eq!(sync[0].rule, Rule::A1s, "{who}");
        assert!(of(&tr, Kind::ContainerExit, 0).is_empty(), "{who}");
        assert!(of(&tr, Kind::PodFailed, 0).is_empty(), "{who}");
    }
}

/// Without a restart a label change touches no running pod (`IgnoredDuringExecution`).
#[test]
fn a_label_change_alone_changes_nothing() {
    let mut sc = presets::admission_after_relabel();
    // (A scenario has a restart: a 1 s runtime one late in the run, which nothing sees.)
    sc.kubelet.restarts = vec![Restart::of(RestartKind::Runtime, 80.0, 1.0)];
    for p in lanes(|_| true) {
        let tr = run(&sc, &p);
        let pods: Vec<&Event> = tr.events.iter().filter(|e| e.pod.is_some()).collect();
        assert!(
            pods.iter().all(|e| matches!(
                e.kind,
                Kind::Probe | Kind::ProbeResult | Kind::StatusWrite
            ) && e.rule != Rule::A1),
            "{}: {:?}",
            p.label(),
            pods.iter().map(|e| e.kind).collect::<Vec<_>>()
        );
        assert_eq!(
            tr.events
                .iter()
                .filter(|e| e.kind == Kind::NodeEdited)
                .count(),
            1
        );
    }
}

/// The same with `requiredDuringSchedulingIgnoredDuringExecution` (the pods of
/// kubernetes#76322, #123859 and #124586): a term `disktype In [ssd]`.
#[test]
fn a_required_node_affinity_term_is_checked_like_a_node_selector() {
    let mut sc = presets::admission_after_relabel();
    sc.pods[0].node_selector.clear();
    sc.pods[0].node_affinity = vec![SelectorTerm {
        match_expressions: vec![Requirement {
            key: "disktype".into(),
            operator: SelectorOp::In,
            values: vec!["ssd".into()],
        }],
    }];
    sc.validate().unwrap();
    let p34 = KubeletProfile::for_policy(KubeVersion::V1_34, Policy::Legacy);
    assert_eq!(of(&run(&sc, &p34), Kind::PodRejected, 0).len(), 1);
    // A second term that still matches lets it stay (terms are ORed).
    sc.pods[0].node_affinity.push(SelectorTerm {
        match_expressions: vec![Requirement {
            key: "disktype".into(),
            operator: SelectorOp::DoesNotExist,
            values: vec![],
        }],
    });
    assert!(of(&run(&sc, &p34), Kind::PodRejected, 0).is_empty());
}

#[test]
fn node_selector_requirements_match_as_labels_requirements_do() {
    let labels = map(&[("zone", "a"), ("gen", "7")]);
    let r = |key: &str, operator, values: &[&str]| Requirement {
        key: key.into(),
        operator,
        values: values.iter().map(|v| v.to_string()).collect(),
    };
    assert!(r("zone", SelectorOp::In, &["a", "b"]).matches(&labels));
    assert!(!r("zone", SelectorOp::NotIn, &["a"]).matches(&labels));
    assert!(r("rack", SelectorOp::NotIn, &["x"]).matches(&labels));
    assert!(r("gen", SelectorOp::Gt, &["6"]).matches(&labels));
    assert!(!r("gen", SelectorOp::Lt, &["7"]).matches(&labels));
    assert!(!r("zone", SelectorOp::Gt, &["1"]).matches(&labels));
    assert!(r("rack", SelectorOp::DoesNotExist, &[]).matches(&labels));
}

/// A node reboot with the label gone: the pod's containers stopped with the node, so admission
/// at boot rejects it and nothing is started again (no kill needed; Failed at the next
/// reconcile), on every release. Only PR #133803 (a hand-built profile: the allocation
/// checkpoint under the kubelet's root directory survives the reboot) would admit it and start
/// its containers anew (B2).
#[test]
fn a_node_reboot_rejects_the_pod_on_every_release() {
    let mut sc = presets::admission_after_relabel();
    sc.kubelet.restarts[0].what = RestartKind::Node;
    for p in lanes(|v| v >= KubeVersion::V1_31) {
        let tr = run(&sc, &p);
        let who = p.label();
        assert_eq!(of(&tr, Kind::PodRejected, 0).len(), 1, "{who}");
        assert!(of(&tr, Kind::ContainerRestart, 0).is_empty(), "{who}");
        assert_eq!(
            of(&tr, Kind::ContainerExit, 0).len(),
            1,
            "{who}: only the reboot's"
        );
        assert_eq!(secs(of(&tr, Kind::PodFailed, 0)[0]), 50.0, "{who}");
    }
    let mut p = KubeletProfile::for_policy(KubeVersion::V1_35, Policy::Kep);
    p.rules.skip_ignorable_admission_checks = true;
    let tr = run(&sc, &p);
    assert!(of(&tr, Kind::PodRejected, 0).is_empty());
    assert!(!of(&tr, Kind::ContainerRestart, 0).is_empty());
}

fn taint(key: &str, effect: Effect) -> Taint {
    Taint {
        key: key.into(),
        value: "infra".into(),
        effect,
    }
}

fn toleration(seconds: Option<i64>) -> Toleration {
    Toleration {
        key: "dedicated".into(),
        operator: Operator::Exists,
        value: String::new(),
        effect: Some(Effect::NoExecute),
        toleration_seconds: seconds,
    }
}

/// A user's NoExecute taint (`kubectl taint nodes N dedicated=infra:NoExecute`) at 15 s: the
/// taint eviction controller deletes a pod that does not tolerate it at once, one that tolerates
/// it for 20 s at 35 s, and leaves one that tolerates it forever; the kubelet (up) terminates the
/// deleted pods. No kubelet restart is involved.
#[test]
fn a_noexecute_taint_evicts_as_tolerations_say() {
    let mut sc = presets::admission_after_relabel();
    // (A scenario has a restart: a 1 s runtime one late in the run, which nothing sees.)
    sc.kubelet.restarts = vec![Restart::of(RestartKind::Runtime, 80.0, 1.0)];
    sc.pods = presets::web_pods(3);
    sc.pods[1].tolerations = vec![toleration(Some(20))];
    sc.pods[2].tolerations = vec![toleration(None)];
    sc.node.changes[0].labels = None;
    sc.node.changes[0].taints = Some(vec![taint("dedicated", Effect::NoExecute)]);
    sc.validate().unwrap();
    for p in lanes(|_| true) {
        let tr = run(&sc, &p);
        let who = p.label();
        let at = |pod| {
            of(&tr, Kind::Eviction, pod)
                .first()
                .map(|e| (secs(e), e.rule))
        };
        assert_eq!(at(0), Some((15.0, Rule::E1u)), "{who}");
        assert_eq!(at(1), Some((35.0, Rule::E1u)), "{who}");
        assert_eq!(at(2), None, "{who}");
        assert!(!of(&tr, Kind::PodRemoved, 0).is_empty(), "{who}");
    }
}

/// The kubelet's admission checks NoExecute taints only ("Kubelet is only interested in the
/// NoExecute taint"): a NoSchedule taint added while the kubelet is down rejects nothing, and a
/// NoExecute taint the pod tolerates neither.
#[test]
fn admission_at_start_checks_only_untolerated_noexecute_taints() {
    let p34 = KubeletProfile::for_policy(KubeVersion::V1_34, Policy::Legacy);
    let mut sc = presets::admission_after_relabel();
    sc.pods = presets::web_pods(2);
    sc.pods[0].tolerations = vec![toleration(None)];
    sc.node.changes[0].at_s = 35.0;
    sc.node.changes[0].labels = None;
    sc.node.changes[0].taints = Some(vec![taint("maintenance", Effect::NoSchedule)]);
    let tr = run(&sc, &p34);
    assert!(tr.events.iter().all(|e| e.kind != Kind::PodRejected));
    // A NoExecute taint web-0 tolerates: admitted (web-1's fate is the next test's).
    sc.node.changes[0].taints = Some(vec![taint("dedicated", Effect::NoExecute)]);
    let tr = run(&sc, &p34);
    assert!(of(&tr, Kind::PodRejected, 0).is_empty());
    assert!(of(&tr, Kind::Eviction, 0).is_empty());
    assert!(of(&tr, Kind::ContainerExit, 0).is_empty());
}

/// A pod that is being deleted when the kubelet starts is admitted again like any other:
/// `HandlePodAdditions` skips admission only for a pod whose termination the pod worker already
/// requested (`podWorkers.IsPodTerminationRequested`) or whose phase is terminal, and a kubelet
/// that has just started has no pod worker — a deletion timestamp in the API does not count
/// (`kubelet.go`, the same in v1.31.14 to v1.38.0-beta.0). A NoExecute taint added at 35 s,
/// while the kubelet is down, makes the taint eviction controller delete web-1 at once; the
/// kubelet that starts at 40 s rejects it at its first pod list (42 s, "Predicate
/// TaintToleration failed") instead of terminating it with its 30 s grace: Ready goes at once,
/// housekeeping (44 s) kills the container with a 1 s grace, the 50 s `syncBatch` writes Failed,
/// and the next housekeeping (52 s) removes the object (`filterTerminalPodsToDelete`, A2).
/// Before, the model skipped admission for a deleting pod and removed web-1 at 72 s (K4).
#[test]
fn a_pod_deleted_while_the_kubelet_is_down_is_admitted_again_and_rejected() {
    let mut sc = presets::admission_after_relabel();
    sc.pods = presets::web_pods(2);
    sc.pods[0].tolerations = vec![toleration(None)];
    sc.node.changes[0].at_s = 35.0;
    sc.node.changes[0].labels = None;
    sc.node.changes[0].taints = Some(vec![taint("dedicated", Effect::NoExecute)]);
    sc.validate().unwrap();
    for p in lanes(|v| v >= KubeVersion::V1_31) {
        let tr = run(&sc, &p);
        let who = p.label();
        let at = |kind, pod| -> Vec<(f64, Rule)> {
            of(&tr, kind, pod)
                .into_iter()
                .map(|e| (secs(e), e.rule))
                .collect()
        };
        assert_eq!(at(Kind::Eviction, 1), [(35.0, Rule::E1u)], "{who}");
        let rejected = of(&tr, Kind::PodRejected, 1);
        assert_eq!(rejected.len(), 1, "{who}");
        assert_eq!(secs(rejected[0]), 42.0, "{who}");
        assert_eq!(
            rejected[0].value,
            Value::Message(
                "Pod was rejected: Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate".into()
            ),
            "{who}"
        );
        // No SyncPod, no SyncTerminatingPod: no pod worker.
        assert!(of(&tr, Kind::PodSync, 1).is_empty(), "{who}");
        assert_eq!(at(Kind::ContainerExit, 1), [(45.0, Rule::A2)], "{who}");
        assert_eq!(at(Kind::PodFailed, 1), [(50.0, Rule::A2)], "{who}");
        assert_eq!(at(Kind::PodRemoved, 1), [(52.0, Rule::A2)], "{who}");
        // web-0 tolerates the taint: admitted, never deleted.
        assert!(of(&tr, Kind::PodRejected, 0).is_empty(), "{who}");
        assert!(of(&tr, Kind::PodRemoved, 0).is_empty(), "{who}");
    }
}

/// A pod being deleted that still fits its node is admitted and terminated as before (K4: the
/// first SyncPod of a pod with a deletion timestamp is SyncTerminatingPod, its grace honoured).
#[test]
fn a_deleting_pod_that_still_fits_is_terminated_with_its_grace() {
    let mut sc = presets::admission_after_relabel();
    sc.pods = presets::web_pods(1);
    sc.pods[0].tolerations = vec![toleration(Some(0))];
    sc.node.changes[0].at_s = 35.0;
    sc.node.changes[0].labels = None;
    sc.node.changes[0].taints = Some(vec![taint("dedicated", Effect::NoExecute)]);
    sc.validate().unwrap();
    for p in lanes(|v| v >= KubeVersion::V1_31) {
        let tr = run(&sc, &p);
        let who = p.label();
        // Tolerated for 0 s: deleted at once, admitted at the start (it tolerates the taint).
        assert_eq!(secs(of(&tr, Kind::Eviction, 0)[0]), 35.0, "{who}");
        assert!(of(&tr, Kind::PodRejected, 0).is_empty(), "{who}");
        let sync = of(&tr, Kind::PodSync, 0);
        assert_eq!((secs(sync[0]), sync[0].rule), (42.0, Rule::K4), "{who}");
        let removed = of(&tr, Kind::PodRemoved, 0);
        assert_eq!(
            (secs(removed[0]), removed[0].rule),
            (72.0, Rule::E1d),
            "{who}"
        );
    }
}

#[test]
fn tolerations_and_taints_are_validated_with_kubernetes_messages() {
    let mut sc = presets::admission_after_relabel();
    sc.pods[0].tolerations = vec![Toleration {
        key: String::new(),
        operator: Operator::Equal,
        value: String::new(),
        effect: Some(Effect::NoSchedule),
        toleration_seconds: Some(5),
    }];
    sc.node.taints = vec![
        taint("dedicated", Effect::NoExecute),
        taint("dedicated", Effect::NoExecute),
    ];
    let errs = sc.validate().unwrap_err();
    let text: Vec<&str> = errs.iter().map(|e| e.message.as_str()).collect();
    assert!(
        text.iter()
            .any(|m| m.contains("operator must be Exists when `key` is empty")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|m| m.contains("effect must be 'NoExecute' when `tolerationSeconds` is set")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|m| m.contains("taints must be unique by key and effect pair")),
        "{text:?}"
    );
}

/// The scenario file spells it as Kubernetes does, in the model's snake_case.
#[test]
fn the_node_object_reads_from_toml() {
    let sc: Scenario = toml::from_str(
        r#"
name = "x"
horizon_s = 60.0
[kubelet]
restarts = [{ at_s = 30.0, downtime_s = 10.0 }]
[node]
labels = { disktype = "ssd" }
taints = [{ key = "dedicated", value = "infra", effect = "NoSchedule" }]
[[node.changes]]
at_s = 10.0
labels = {}
[[pods]]
name = "web-0"
node_selector = { disktype = "ssd" }
tolerations = [{ key = "dedicated", operator = "Exists", effect = "NoExecute", tolerationSeconds = 30 }]
[[pods.node_affinity]]
match_expressions = [{ key = "disktype", operator = "In", values = ["ssd"] }]
[[pods.containers]]
name = "app"
"#,
    )
    .unwrap();
    sc.validate().unwrap();
    assert_eq!(sc.node.labels, map(&[("disktype", "ssd")]));
    assert_eq!(sc.pods[0].tolerations[0].toleration_seconds, Some(30));
    assert_eq!(sc.node.at(10.0).0.len(), 0);
}
