//! Each reader on the real samples in `data/` (sources in each file's first line or its
//! `.source` file), on bad input, and on random bytes and truncations (never a panic).

use proptest::prelude::*;
use restartscope_evidence::{read, Format, What};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn report_113646_transcript_without_header_and_with_the_prompt() {
    let ev = read(&data("113646-watch.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::KubectlWatch);
    assert!(!ev.absolute);
    let whats: Vec<(i64, &What, usize)> =
        ev.obs.iter().map(|o| (o.t_ms, &o.what, o.line)).collect();
    assert_eq!(
        whats,
        vec![
            (228_000, &What::ReadyAtStart(true), 3),
            (228_000, &What::RestartCount(0), 3),
            (240_000, &What::ReadyChanged(false), 4),
            (241_000, &What::ReadyChanged(true), 5),
        ]
    );
    assert!(ev
        .obs
        .iter()
        .all(|o| o.pod.as_deref() == Some("busybox-test-1")));
    // The prompt line is the command, not a row nor a line not understood: skipped and listed.
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert!(
        ev.notes
            .iter()
            .any(|n| n.starts_with("line 2: a command line, skipped: [root@master ~]# kubectl")),
        "{:?}",
        ev.notes
    );
}

#[test]
fn audit_lease_renewals_and_a_node_problem_detector_patch() {
    let ev = read(&data("audit-gce-scale.jsonl"), 0).unwrap();
    assert_eq!(ev.format, Format::Audit);
    let leases: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::LeaseRenewed)
        .collect();
    assert_eq!(leases.len(), 2);
    assert_eq!(
        leases[0].node.as_deref(),
        Some("gce-scale-cluster-minion-group-4-zr07")
    );
    assert_eq!(
        leases[0].by.as_deref(),
        Some("system:node:gce-scale-cluster-minion-group-4-zr07")
    );
    // coordination.k8s.io/v1beta1 leases (1.14) are read like v1's; the node-problem-detector's
    // node status patch has no Ready condition: skipped, not an observation.
    assert_eq!(ev.skipped, 1);
    assert!(ev.unread.is_empty());
}

#[test]
fn audit_pod_status_patch_by_the_kubelet_gives_ready_and_the_writer() {
    let ev = read(&data("audit-pod-status-patch.jsonl"), 0).unwrap();
    assert_eq!(ev.obs.len(), 2, "{:?}", ev.obs);
    // The kubelet's version from its userAgent (`kubelet/v1.20.1 (linux/amd64) …`).
    let v = ev
        .obs
        .iter()
        .find(|o| matches!(o.what, What::KubeletVersion(_)))
        .unwrap();
    assert_eq!(v.what, What::KubeletVersion("v1.20.1".into()));
    assert_eq!(v.node.as_deref(), Some("node2"));
    let o = ev.obs.iter().find(|o| o.pod.is_some()).unwrap();
    assert_eq!(o.what, What::ReadyAtStart(true));
    assert_eq!(o.pod.as_deref(), Some("accessor"));
    assert_eq!(o.by.as_deref(), Some("system:node:node2"));
    assert_eq!(o.node.as_deref(), Some("node2"));
    assert_eq!(
        o.t_ms,
        restartscope_evidence::time::rfc3339("2021-05-24T09:29:44.384Z").unwrap()
    );
}

#[test]
fn journal_lines_of_a_kind_node_are_read_and_skipped_when_off_topic() {
    let ev = read(&data("108594-journal.txt"), 0).unwrap_err();
    // Every line is a kubelet klog line, none about what the model follows.
    assert_eq!(ev.line, 1);
    assert!(
        ev.message.contains("kubelet log") && ev.message.contains("nothing about pods"),
        "{}",
        ev.message
    );
}

#[test]
fn probe_failures_from_a_hyperkube_journal() {
    let ev = read(&data("openshift-probe-failed.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::Klog);
    assert_eq!(ev.obs.len(), 1);
    let o = &ev.obs[0];
    assert_eq!(o.what, What::ProbeFailed("Readiness".into()));
    assert_eq!(o.pod.as_deref(), Some("oauth-openshift-77f7b95df5-r4xf7"));
    assert_eq!(o.line, 2);
    // klog's own time (June 6), not the journal's (July 5).
    assert_eq!(
        o.t_ms,
        restartscope_evidence::time::klog("0606", "17:47:52.807876").unwrap()
    );
}

#[test]
fn pleg_events_in_go_struct_form() {
    let ev = read(&data("aks-pleg.txt"), 0).unwrap();
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(ev.obs[0].what, What::ContainerStarted);
    assert_eq!(ev.obs[0].pod.as_deref(), Some("nginx"));
    assert_eq!(
        ev.obs[0].by.as_deref(),
        Some("system:node:aks-nodepool1-51397738-vmss00000Z")
    );
    assert_eq!(ev.skipped, 1);
}

#[test]
fn watch_events_restarts_and_deletion() {
    let t = "EVENT      NAME    READY   STATUS        RESTARTS     AGE\n\
             ADDED      web-0   1/1     Running       0            10m\n\
             MODIFIED   web-0   0/1     Running       1 (2s ago)   10m\n\
             what is this\n\
             MODIFIED   web-0   1/1     Running       1 (12s ago)  10m\n\
             DELETED    web-0   1/1     Terminating   1 (40s ago)  11m\n";
    let ev = read(t, 3).unwrap();
    let w: Vec<&What> = ev.obs.iter().map(|o| &o.what).collect();
    assert_eq!(
        w,
        vec![
            &What::ReadyAtStart(true),
            &What::RestartCount(0),
            &What::Restarted(1),
            &What::ReadyChanged(false),
            &What::ReadyChanged(true),
            &What::PodDeleted
        ]
    );
    assert_eq!(ev.unread.len(), 1);
    assert_eq!((ev.unread[0].line, ev.unread[0].file), (4, 3));
}

#[test]
fn events_json_made_up_sample() {
    // Made up, for what no real sample found has (NodeNotReady on a pod): the shapes of core/v1
    // Events as kubectl prints them. Real samples are in `tests/events.rs`.
    let t = r#"{"apiVersion":"v1","kind":"List","items":[
 {"kind":"Event","metadata":{"name":"n1.1"},"involvedObject":{"kind":"Node","name":"n1"},"reason":"Starting","message":"Starting kubelet.","source":{"component":"kubelet","host":"n1"},"firstTimestamp":"2025-12-17T10:00:00Z","lastTimestamp":"2025-12-17T10:00:00Z"},
 {"kind":"Event","metadata":{"name":"web-2.1"},"involvedObject":{"kind":"Pod","name":"web-2"},"reason":"Unhealthy","message":"Readiness probe failed: HTTP probe failed with statuscode: 503","source":{"component":"kubelet","host":"n1"},"firstTimestamp":"2025-12-17T10:00:04Z","lastTimestamp":"2025-12-17T10:00:04Z"},
 {"kind":"Event","metadata":{"name":"web-2.2"},"involvedObject":{"kind":"Pod","name":"web-2"},"reason":"NodeNotReady","message":"Node is not ready","source":{"component":"node-controller"},"eventTime":null,"firstTimestamp":"2025-12-17T10:01:00Z","lastTimestamp":"2025-12-17T10:01:00Z"},
 {"kind":"Event","metadata":{"name":"web-2.3"},"involvedObject":{"kind":"Pod","name":"web-2"},"reason":"Pulled","message":"x","firstTimestamp":"2025-12-17T10:01:00Z"}
]}"#;
    let ev = read(t, 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    let w: Vec<(&What, usize, Option<&str>)> = ev
        .obs
        .iter()
        .map(|o| (&o.what, o.line, o.by.as_deref()))
        .collect();
    assert_eq!(
        w,
        vec![
            (&What::KubeletStarted, 2, Some("kubelet")),
            (&What::ProbeFailed("Readiness".into()), 3, Some("kubelet")),
            (&What::ReadyChanged(false), 4, Some("node-controller")),
        ]
    );
    assert_eq!(ev.skipped, 1);
}

#[test]
fn bad_input_says_which_line() {
    let e = read("", 0).unwrap_err();
    assert!(e.message.contains("empty"));
    let e = read("# comment\nhello there\n", 0).unwrap_err();
    assert_eq!(e.line, 2);
    let e = read("{\"kind\":\"List\",\n\"items\":[\n{\"kind\":\"Event\",", 0).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("not valid JSON"));
    let e = read("{\"kind\":\"Pod\"}", 0).unwrap_err();
    assert!(e.message.contains("without status"), "{e}");
    let e = read("{\"kind\":\"ConfigMap\"}", 0).unwrap_err();
    assert!(e.message.contains("not a list of Events"), "{e}");
    // A watch transcript whose rows are all broken.
    let e = read(
        "NAME READY STATUS RESTARTS AGE\nweb-0 1/1 Running x 1m\n",
        0,
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("RESTARTS"), "{e}");
    // Half an audit file: the cut line is listed, the rest read.
    let a = data("audit-gce-scale.jsonl");
    let cut = &a[..a.find('\n').unwrap() + 200];
    let ev = read(cut, 0).unwrap();
    assert_eq!(ev.unread.len(), 1);
    assert_eq!(ev.unread[0].line, 2);
}

#[test]
fn pod_status_snapshot_gives_last_transitions_and_restart_count() {
    let ev = read(&data("101044-status.yaml"), 0).unwrap();
    assert_eq!(ev.format, Format::PodStatus);
    assert!(ev.absolute);
    let t = |s| restartscope_evidence::time::rfc3339(s).unwrap();
    // The container's own state (what the pod says, written by the kubelet) is listed apart.
    let state = ev
        .obs
        .iter()
        .find(|o| matches!(o.what, What::ContainerState(_)))
        .unwrap();
    assert_eq!(state.by.as_deref(), Some("kubelet"));
    assert!(state.what.text().contains("running"), "{:?}", state.what);
    let w: Vec<(i64, &What, usize)> = ev
        .obs
        .iter()
        .filter(|o| !matches!(o.what, What::ContainerState(_)))
        .map(|o| (o.t_ms, &o.what, o.line))
        .collect();
    assert_eq!(
        w,
        vec![
            (
                t("2021-04-12T19:36:07Z"),
                &What::ConditionSince("Initialized".into(), true),
                4
            ),
            (
                t("2021-04-12T19:36:07Z"),
                &What::ConditionSince("PodScheduled".into(), true),
                16
            ),
            (t("2021-04-12T19:46:45Z"), &What::ContainerStarted, 31),
            (t("2021-04-12T19:46:45Z"), &What::RestartCount(4), 31),
            (t("2021-04-12T19:46:46Z"), &What::ReadySince(true), 8),
            (
                t("2021-04-12T19:46:46Z"),
                &What::ConditionSince("ContainersReady".into(), true),
                12
            ),
        ]
    );
    // No name in a pasted status block.
    assert!(ev
        .obs
        .iter()
        .all(|o| o.pod.as_deref() == Some("(unnamed pod)")));
    // What a snapshot cannot say is said.
    assert!(ev.notes[0].contains("snapshot"), "{:?}", ev.notes);
    assert!(
        ev.notes.iter().any(|n| n.contains("container exit")
            && n.contains("restartCount=4")
            && n.contains("lastState empty")),
        "{:?}",
        ev.notes
    );
}

#[test]
fn pod_list_as_json_with_a_node_gives_names_and_the_kubelet_version() {
    // Made up in the shape `kubectl get pod,node -o json` prints (a List of a Pod and a Node).
    let t = r#"{"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"app-0","namespace":"default","uid":"u-1"},
  "spec":{"nodeName":"n1"},
  "status":{"conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2026-02-10T10:02:00Z"}],
   "containerStatuses":[{"name":"app","ready":false,"started":false,"restartCount":0,
     "state":{"terminated":{"exitCode":2,"finishedAt":"2026-02-10T10:02:00Z"}}}]}},
 {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},
  "status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-02-10T10:05:00Z","lastTransitionTime":"2026-02-10T10:00:40Z"}],
   "nodeInfo":{"kubeletVersion":"v1.35.0"}}}
]}"#;
    let ev = read(t, 0).unwrap();
    assert_eq!(ev.format, Format::PodStatus);
    let w: Vec<(&What, Option<&str>, Option<&str>)> = ev
        .obs
        .iter()
        .map(|o| (&o.what, o.pod.as_deref(), o.node.as_deref()))
        .collect();
    assert!(
        w.contains(&(&What::ReadySince(false), Some("app-0"), Some("n1"))),
        "{w:?}"
    );
    assert!(
        w.contains(&(&What::RestartCount(0), Some("app-0"), Some("n1"))),
        "{w:?}"
    );
    assert!(
        w.contains(&(&What::ContainerDied, Some("app-0"), Some("n1"))),
        "{w:?}"
    );
    assert!(
        w.contains(&(&What::NodeReady(true), None, Some("n1"))),
        "{w:?}"
    );
    assert!(
        w.contains(&(&What::KubeletVersion("v1.35.0".into()), None, Some("n1"))),
        "{w:?}"
    );
    // The same as YAML reads the same.
    let y = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: app-0\nspec:\n  nodeName: n1\nstatus:\n  conditions:\n  - type: Ready\n    status: \"False\"\n    lastTransitionTime: \"2026-02-10T10:02:00Z\"\n";
    let ev = read(y, 0).unwrap();
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(
        (ev.obs[0].line, ev.obs[0].pod.as_deref()),
        (9, Some("app-0"))
    );
}

#[test]
fn pod_snapshot_fragments_and_placeholders() {
    // #125397's one pasted condition: a bare list item.
    let ev = read(&data("125397-conditions.yaml"), 0).unwrap();
    assert_eq!(ev.format, Format::PodStatus);
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(
        ev.obs[0].what,
        What::ConditionSince("ContainersReady".into(), true)
    );
    assert_eq!(ev.obs[0].line, 2);
    // #78733's status as posted: `image:<image>` is not YAML; the line is named.
    let e = read(&data("78733-status.yaml"), 0).unwrap_err();
    assert!(e.message.contains("not valid YAML"), "{e}");
    assert!((20..=22).contains(&e.line), "{e}");
    // With that line mended, the <time> placeholders leave nothing dated: said, not invented.
    let mended = data("78733-status.yaml").replace("image:<image>", "image: <image>");
    let e = read(&mended, 0).unwrap_err();
    assert!(e.message.contains("nothing"), "{e}");
}

#[test]
fn kubelet_version_line() {
    let ev = read(&data("kubelet-version-journal.txt"), 0).unwrap();
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(ev.obs[0].what, What::KubeletVersion("v1.34.3".into()));
    assert_eq!(ev.obs[0].node.as_deref(), Some("cp1"));
}

#[test]
fn pod_yaml_bad_input() {
    let e = read("apiVersion: v1\nkind: Pod\nstatus:\n  conditions: [\n", 0).unwrap_err();
    assert!(e.message.contains("not valid YAML"), "{e}");
    assert!(e.line >= 4, "{e}");
    let e = read("status: 3\n", 0).unwrap_err();
    assert!(e.line >= 1, "{e}");
    let e = read("kind: ConfigMap\nmetadata:\n  name: x\n", 0).unwrap_err();
    assert!(
        e.message.contains("nothing") || e.message.contains("not a Pod"),
        "{e}"
    );
    let e = read("metadata:\n  name: x\n", 0).unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    // A manifest (a Pod without status) is listed, not read.
    let e = read(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: {}\n",
        0,
    )
    .unwrap_err();
    assert!(e.message.contains("without status"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = read(&text, 0);
    }

    #[test]
    fn truncated_samples_never_panic(which in 0usize..8, cut in 0usize..4000, junk in "[ -~\n]{0,40}") {
        let name = ["113646-watch.txt", "audit-gce-scale.jsonl", "audit-pod-status-patch.jsonl", "openshift-probe-failed.txt", "aks-pleg.txt", "101044-status.yaml", "125397-conditions.yaml", "78733-status.yaml"][which];
        let t = data(name);
        let mut c = cut.min(t.len());
        while !t.is_char_boundary(c) { c -= 1; }
        let s = format!("{}{}", &t[..c], junk);
        if let Err(e) = read(&s, 0) {
            prop_assert!(e.line >= 1);
        }
    }

    #[test]
    fn random_pod_yaml_never_panics(lines in proptest::collection::vec("( {0,6}- |  {0,6})(type|status|lastTransitionTime|restartCount|conditions|containerStatuses|kind|items|state|running|startedAt): ?(\"True\"|False|Pod|List|2021-04-12T19:36:07Z|[0-9]{1,3}|\\{\\}|\\[|)", 1..12)) {
        let text = format!("status:\n{}", lines.join("\n"));
        if let Err(e) = read(&text, 0) {
            prop_assert!(e.line >= 1);
        }
    }

    #[test]
    fn random_rows_never_panic(rows in proptest::collection::vec("[a-z0-9-]{1,8} [0-9]{1,2}/[0-9]{1,2} [A-Za-z]{1,9} [0-9]{1,3} [0-9dhms]{1,6}", 1..8)) {
        let _ = read(&rows.join("\n"), 0);
    }
}

/// kubernetes#136910 as `kubectl describe pod` (composed: see the fixture's first line): the
/// prompt is listed, the sidecar and the stuck app container are read with the kubelet as their
/// writer.
#[test]
fn describe_pod_gives_each_containers_state() {
    use restartscope_evidence::ContainerSnap;
    let ev = read(&data("136910-describe.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::Describe);
    assert!(ev.notes[0].starts_with("line 2: a command line, skipped: $ kubectl describe"));
    let states: Vec<&ContainerSnap> = ev
        .obs
        .iter()
        .filter_map(|o| match &o.what {
            What::ContainerState(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(states.len(), 2, "{:?}", ev.obs);
    let side = states.iter().find(|c| c.init).unwrap();
    assert_eq!(
        (side.name.as_str(), side.state.as_str()),
        ("sidecar", "running")
    );
    let app = states.iter().find(|c| !c.init).unwrap();
    assert_eq!(app.state, "terminated");
    assert_eq!(app.reason.as_deref(), Some("Error"));
    assert_eq!(app.exit_code, Some(2));
    assert_eq!(app.restart_count, Some(0));
    assert!(ev
        .obs
        .iter()
        .all(|o| o.pod.as_deref() == Some("api-7c9d5-x2k4q")));
    assert!(ev
        .notes
        .iter()
        .any(|n| n.contains("Ready=False, ContainersReady=False")));
}

/// kubernetes#131530's State block pasted alone (real): OOMKilled, its zone (+0800) kept.
#[test]
fn describe_fragment_oomkilled() {
    let ev = read(&data("131530-describe.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::Describe);
    let c = ev
        .obs
        .iter()
        .find_map(|o| match &o.what {
            What::ContainerState(c) => Some(c.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(c.reason.as_deref(), Some("OOMKilled"));
    assert_eq!(c.restart_count, Some(0));
    let died = ev
        .obs
        .iter()
        .find(|o| o.what == What::ContainerDied)
        .unwrap();
    assert_eq!(
        Some(died.t_ms),
        restartscope_evidence::time::rfc3339("2025-04-29T06:10:51Z")
    );
}

/// kubernetes#106682's Events table (real): Age `96s`, the `From` column, an errored liveness
/// probe.
#[test]
fn describe_events_table() {
    let ev = read(&data("106682-describe-events.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::Describe);
    let w: Vec<(&What, Option<&str>, usize)> = ev
        .obs
        .iter()
        .map(|o| (&o.what, o.by.as_deref(), o.line))
        .collect();
    assert_eq!(
        w,
        vec![
            (&What::ContainerStarted, Some("kubelet"), 9),
            (&What::ProbeFailed("Liveness".into()), Some("kubelet"), 10),
        ]
    );
    assert_eq!(ev.obs[1].t_ms - ev.obs[0].t_ms, 7_000);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
}

/// kubernetes#84443's line (real, v1.14): a container-spec-hash restart, read as that.
#[test]
fn klog_definition_changed_is_a_spec_hash_restart() {
    let ev = read(&data("84443-journal.txt"), 0).unwrap();
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(ev.obs[0].what, What::SpecChanged("kube-proxy".into()));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("proxy-rb2tm"));
}

/// kubernetes#45419's journal (real, v1.6): the kubelet's NodeNotReady and the node status
/// setter's message (PLEG). Then the same line as collectors forward it: with a syslog priority,
/// behind a host prefix, under a German locale's month — each prefix added to the real line.
#[test]
fn klog_node_not_ready_pleg_and_forwarded_prefixes() {
    let text = data("45419-journal.txt");
    let ev = read(&text, 0).unwrap();
    assert_eq!(ev.obs[0].what, What::NodeReady(false));
    assert_eq!(
        ev.obs[0].node.as_deref(),
        Some("ip-10-50-20-208.ec2.internal")
    );
    match &ev.obs[1].what {
        What::NodeNotReadyBecause(m) => assert!(m.starts_with("PLEG is not healthy"), "{m}"),
        w => panic!("{w:?}"),
    }
    let line = text.lines().nth(2).unwrap();
    for forwarded in [
        format!("<30>{line}"),
        format!("10.0.0.3: {line}"),
        line.replacen("May 05", "Mai 05", 1),
    ] {
        let ev = read(&forwarded, 0).unwrap();
        assert!(
            matches!(ev.obs[0].what, What::NodeNotReadyBecause(_)),
            "{forwarded}: {:?}",
            ev.obs
        );
    }
}

/// Pre-1.21 unstructured lines, quoted from public reports: PLEG's Go struct
/// (prabhatsharma/kubernetes-the-hard-way-aws#12, v1.15-era kubelet) and the prober's
/// `Readiness probe for "pod_ns:container" failed` (kubernetes#7891).
#[test]
fn klog_pre_1_21_lines() {
    let pleg = r#"Jan 31 15:43:35 ip-10-240-0-20 kubelet[3072]: I0131 15:43:35.414429    3072 kubelet.go:1953] SyncLoop (PLEG): "untrusted3_default(70a6b852-4440-11ea-9a3e-0624b25d9900)", event: &pleg.PodLifecycleEvent{ID:"70a6b852-4440-11ea-9a3e-0624b25d9900", Type:"ContainerStarted", Data:"8dcbaa8a513e8cd85b2c26e14b09f8204383b77cb4b603308fcd98af5dc0a76d"}"#;
    let ev = read(pleg, 0).unwrap();
    assert_eq!(ev.obs[0].what, What::ContainerStarted);
    assert_eq!(ev.obs[0].pod.as_deref(), Some("untrusted3"));
    let probe = r#"Jun 12 09:49:11 k8s-master kubelet[22333]: I0612 09:49:11.818095   22333 prober.go:142] Readiness probe for "liveness-exec_default:liveness" failed (failure):"#;
    let ev = read(probe, 0).unwrap();
    assert_eq!(ev.obs[0].what, What::ProbeFailed("Readiness".into()));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("liveness-exec"));
}

/// kube-controller-manager's MarkPodsNotReady line, as `controller_utils.go` logs it (InfoS
/// "Updating ready status of pod to false" pod=…; no real line found in public reports): the
/// controller's, and the file is called a controller log, not a kubelet log.
#[test]
fn controller_lines_are_the_controllers() {
    let l = r#"I0115 10:00:40.000000       1 controller_utils.go:151] "Updating ready status of pod to false" pod="default/web-0""#;
    let ev = read(l, 0).unwrap();
    assert_eq!(ev.format, Format::ControllerLog);
    assert_eq!(ev.obs[0].what, What::ControllerNotReady);
    assert_eq!(ev.obs[0].by.as_deref(), Some("node-controller"));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("web-0"));
}

/// `kubectl get events` as a table, with `-A`'s NAMESPACE and without. NOT a quoted paste: no
/// such table of a kubelet-restart incident was found in the stored upstream reports; the rows
/// are laid out as kubectl prints them (columns from its printer), the messages are the kubelet's
/// own wording ("Readiness probe failed: …", "Container app definition changed, will be
/// restarted", the node controller's "Node is not ready").
#[test]
fn events_table_rows() {
    let t = "LAST SEEN   TYPE      REASON         OBJECT      MESSAGE\n\
             2m          Warning   NodeNotReady   pod/web-0   Node is not ready\n\
             90s         Warning   Unhealthy      pod/web-0   Readiness probe failed: HTTP probe failed with statuscode: 503\n\
             30s         Normal    Killing        pod/web-0   Container app definition changed, will be restarted\n";
    let ev = read(t, 0).unwrap();
    assert_eq!(ev.format, Format::EventsTable);
    assert!(!ev.absolute);
    let w: Vec<(i64, &What)> = ev.obs.iter().map(|o| (o.t_ms, &o.what)).collect();
    assert_eq!(
        w,
        vec![
            (-120_000, &What::ControllerNotReady),
            (-90_000, &What::ProbeFailed("Readiness".into())),
            (-30_000, &What::SpecChanged("app".into())),
        ]
    );
    let a = "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT      MESSAGE\n\
             default     5s          Warning   Unhealthy   pod/web-0   Liveness probe failed: connection refused\n";
    let ev = read(a, 0).unwrap();
    assert_eq!(ev.obs[0].what, What::ProbeFailed("Liveness".into()));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("web-0"));
}

/// kubernetes#122338's line (real, a CRI-O node's `kubenswrapper`): "Node became not ready"
/// structured, its message a list (runtime status not yet checked, PLEG not yet successful) —
/// the kubelet's own start, not a bug.
#[test]
fn klog_node_became_not_ready_structured() {
    let l = r#"Dec 15 17:25:41 single1 kubenswrapper[1832249]: I1215 17:25:41.121883 1832249 setters.go:549] "Node became not ready" node="single1" condition={Type:Ready Status:False LastHeartbeatTime:2023-12-15 17:25:41.121753163 +0800 CST m=+0.403692528 LastTransitionTime:2023-12-15 17:25:41.121753163 +0800 CST m=+0.403692528 Reason:KubeletNotReady Message:[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]}"#;
    let ev = read(l, 0).unwrap();
    match &ev.obs[0].what {
        What::NodeNotReadyBecause(m) => assert!(m.contains("PLEG is not healthy"), "{m}"),
        w => panic!("{w:?}"),
    }
    assert_eq!(ev.obs[0].node.as_deref(), Some("single1"));
}

/// A journal's times carry no year: beside a file with dated times they take that file's year
/// (said in the notes), never a shift by a guessed one; alone, they are said to be relative.
#[test]
fn a_yearless_journal_takes_another_files_year() {
    use restartscope_evidence::{align_years, time::rfc3339};
    let audit = read(&data("audit-pod-status-patch.jsonl"), 0).unwrap();
    let journal = read(&data("kubelet-version-journal.txt"), 1).unwrap();
    assert!(journal.yearless);
    let year = {
        let t = audit.obs[0].t_ms;
        (1970..2100)
            .rev()
            .find(|y| rfc3339(&format!("{y}-01-01T00:00:00Z")).unwrap() <= t)
            .unwrap()
    };
    let mut files = vec![audit, journal];
    align_years(&mut files);
    let t = files[1].obs[0].t_ms;
    let start = rfc3339(&format!("{year}-01-01T00:00:00Z")).unwrap();
    let end = rfc3339(&format!("{}-01-01T00:00:00Z", year + 1)).unwrap();
    assert!(start <= t && t < end, "{t} not in {year}");
    // Dec 15 01:35:15 of that year.
    assert_eq!(t, rfc3339(&format!("{year}-12-15T01:35:15.905Z")).unwrap());
    assert!(files[1]
        .notes
        .iter()
        .any(|n| n.contains(&format!("read as {year}"))));
    let mut alone = vec![read(&data("kubelet-version-journal.txt"), 0).unwrap()];
    align_years(&mut alone);
    assert!(alone[0].notes.iter().any(|n| n.contains("kept relative")));
}
