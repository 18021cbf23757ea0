//! Each reader on the real samples in `data/` (sources in each file's first line or its
//! `.source` file), on bad input, and on random bytes and truncations (never a panic).

use proptest::prelude::*;
use restartscope_evidence::explain::{answer, candidates, explain_for};
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

/// kubernetes#108594: a kind node's graceful node shutdown, its kubelet killing a pod
/// ("Shutdown manager killing pod with gracePeriod", `nodeshutdown_manager.go`); the other lines
/// (the pod workers' teardown) are about things replay does not follow, and skipped.
#[test]
fn journal_lines_of_a_graceful_node_shutdown() {
    let ev = read(&data("108594-journal.txt"), 0).unwrap();
    assert_eq!(ev.format, Format::Klog);
    assert_eq!(ev.obs.len(), 1, "{:?}", ev.obs);
    assert_eq!(ev.obs[0].pod.as_deref(), Some("test-term"));
    assert!(
        matches!(&ev.obs[0].what, What::PodMessage { reason, message }
        if reason == "Shutdown" && message.contains("graceful node shutdown"))
    );
    assert_eq!(ev.skipped, 5);
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

/// kubernetes#52773's `kubectl get nodes` (real, kubectl 1.7's columns, no ROLES): read as
/// each node's state when printed (was refused, and before that "a table of another command's
/// output"). One printing: four nodes at two kubelet versions is a cluster mid-upgrade, not an
/// upgrade seen on any one node: nothing named.
#[test]
fn get_nodes_table_is_read_as_states() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/52773-get-nodes.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let ev = read(&text, 0).unwrap();
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| o.what == What::NodeReady(true))
            .count(),
        4
    );
    let notes = ev.notes.join("\n");
    assert!(
        notes.contains(
            "different versions (v1.6.1.17+f04cb2d1cde1c7-dirty, v1.7.3-11+f747daa02c9ffb)"
        ) && notes.contains("one printing of `kubectl get nodes`"),
        "{notes}"
    );
    let c = candidates(&ev.obs, None, None);
    let a = answer(&ev.obs, explain_for(&ev.obs, &c, None), None).0;
    assert_eq!((a.bug, a.restart), (None, None));
}

/// istio/istio#11045's session (real): three commands and their outputs pasted as one. Read as
/// one it was refused at its first table (`kubectl get jobs`); each command's output is now read
/// on its own: the `kubectl get pods` table is the file's evidence, the others are said.
#[test]
fn a_pasted_session_reads_each_commands_output() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/istio-11045-session.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let ev = read(&text, 0).unwrap();
    assert_eq!(ev.format, Format::KubectlWatch);
    assert!(ev
        .obs
        .iter()
        .all(|o| o.pod.as_deref() == Some("pi-6tq7q") && o.line == 9));
    let notes = ev.notes.join("\n");
    assert!(
        notes.contains("read lines 8–11, after `$ kubectl get pods` alone")
            && notes.contains("lines 3–6, after `$ kubectl get jobs`: skipped: not a format")
            && notes.contains("lines 13–42, after `$ kubectl describe job pi`: skipped"),
        "{notes}"
    );
}
