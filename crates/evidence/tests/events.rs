//! The events reader on real `kubectl get events` / `kubectl cluster-info dump` output (sources in
//! each fixture's first line), on bad input, and on truncations (never a panic). Each test says
//! what the real sample showed that the made-up one in `readers.rs` did not. All five samples
//! failed before the reader was changed for them: the two dumps and the event router's Event were
//! taken for pod snapshots (their items carry no `kind`, and `involvedObject` says
//! `"kind": "Pod"`), the first dump then broke on its second JSON document; the two YAML files
//! went to the pod reader too.

use proptest::prelude::*;
use restartscope_evidence::{read, time, Format, What};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// (time, what, pod, node, by, line) of an observation.
type Row<'a> = (
    i64,
    &'a What,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    usize,
);

fn t(s: &str) -> i64 {
    time::rfc3339(s).unwrap()
}

#[test]
fn cluster_info_dump_kube_system_events() {
    let ev = read(&data("minikube-dump-kube-system-events.json"), 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let got: Vec<(i64, &What, Option<&str>, usize)> = ev
        .obs
        .iter()
        .map(|o| (o.t_ms, &o.what, o.pod.as_deref(), o.line))
        .collect();
    let (a, b) = (
        Some("coredns-6f6b679f8f-5m7kq"),
        Some("coredns-6f6b679f8f-rgq7r"),
    );
    let readiness = What::ProbeFailed("Readiness".into());
    assert_eq!(
        got,
        vec![
            (
                t("2024-11-17T10:19:34Z"),
                &What::ProbeFailed("Startup".into()),
                Some("kube-apiserver-minikube"),
                317
            ),
            (t("2024-11-17T10:19:43Z"), &What::PodDeleted, a, 288),
            (t("2024-11-17T10:19:48Z"), &What::ContainerStarted, a, 102),
            (t("2024-11-17T10:19:48Z"), &What::ContainerStarted, b, 226),
            (t("2024-11-17T10:19:49Z"), &What::ContainerDied, a, 133),
            (t("2024-11-17T10:19:49Z"), &readiness, a, 164),
            (t("2024-11-17T10:19:52Z"), &readiness, b, 257),
            (t("2024-11-17T10:19:55Z"), &readiness, a, 195),
            (t("2024-11-17T10:20:12Z"), &readiness, b, 257),
        ]
    );
    // The pod's deletion is on its owner: the ReplicaSet's SuccessfulDelete ("Deleted pod: …"),
    // written by the replicaset-controller, five seconds *before* the kubelet started the pod's
    // container and six before it killed it ("Stopping container coredns"). A deletion is a
    // request; the pod's own events go on after it, readiness failures included (connection
    // refused at 10:19:55): a terminating pod's, not a restart's.
    let del = ev.obs.iter().find(|o| o.what == What::PodDeleted).unwrap();
    assert_eq!(del.by.as_deref(), Some("replicaset-controller"));
    assert_eq!(del.node, None);
    let killed = ev
        .obs
        .iter()
        .find(|o| o.what == What::ContainerDied)
        .unwrap();
    assert_eq!(
        (killed.by.as_deref(), killed.node.as_deref()),
        (Some("kubelet"), Some("minikube"))
    );
    // rgq7r's readiness failed 4 times between 10:19:52 and 10:20:12 (count 4, firstTimestamp,
    // lastTimestamp): one item. Reading only lastTimestamp (as the made-up sample allowed, its
    // first and last times being equal) put the first failure 20 s late.
    assert!(
        ev.notes.iter().any(|n| n.contains("line 257")
            && n.contains("4 times")
            && n.contains("the 2 in between")),
        "{:?}",
        ev.notes
    );
    // `cluster-info dump` prints one JSON document after another; what is not an event list is
    // named, not read.
    assert!(
        ev.notes
            .iter()
            .any(|n| n.contains("ReplicationControllerList")),
        "{:?}",
        ev.notes
    );
    // Scheduled, Pulled, Created: about pods, not about what the model follows.
    assert_eq!(ev.skipped, 3);
}

#[test]
fn cluster_info_dump_default_events_node_and_a_pod_made_again() {
    let ev = read(&data("minikube-dump-default-events.json"), 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    let got: Vec<Row> = ev
        .obs
        .iter()
        .map(|o| {
            (
                o.t_ms,
                &o.what,
                o.pod.as_deref(),
                o.node.as_deref(),
                o.by.as_deref(),
                o.line,
            )
        })
        .collect();
    let (m, k, r) = (Some("minikube"), Some("kubelet"), Some("redis-0"));
    assert_eq!(
        got,
        vec![
            (
                t("2024-11-17T10:19:36Z"),
                &What::KubeletStarted,
                None,
                m,
                k,
                119
            ),
            (
                t("2024-11-17T10:19:39Z"),
                &What::NodeReady(true),
                None,
                m,
                k,
                254
            ),
            (
                1731838788520,
                &What::ProxyStarted,
                None,
                m,
                Some("kube-proxy"),
                308
            ),
            (
                t("2024-11-17T10:40:03Z"),
                &What::ContainerStarted,
                r,
                m,
                k,
                360
            ),
            (
                t("2024-11-17T11:08:51Z"),
                &What::ContainerDied,
                r,
                m,
                k,
                391
            ),
            (
                t("2024-11-17T11:08:57Z"),
                &What::ContainerStarted,
                r,
                m,
                k,
                451
            ),
        ]
    );
    // kube-proxy writes a `Starting` on the Node too (line 308): no message, `source: {}`,
    // `eventTime` with microseconds and first/lastTimestamp null (an events.k8s.io writer). It
    // is kube-proxy starting, not the kubelet.
    assert!(ev
        .obs
        .iter()
        .filter(|o| o.line == 308)
        .all(|o| o.what == What::ProxyStarted));
    // The kubelet ran before 10:19:36 (its NodeHasSufficientMemory ×8 at 10:19:21), yet the only
    // "Starting kubelet." is at 10:19:36: a start whose event never reached the API server leaves
    // none. And the kubelet names its Node by name in `involvedObject.uid` ("minikube"), the node
    // controller's RegisteredNode by the Node's real UID: match nodes by name.
    //
    // redis-0's Killing at 11:08:51 then Started at 11:08:57 looks like a container restart; the
    // involvedObject.uid says otherwise: two pods by one name (the StatefulSet's
    // "create Pod redis-0" ×2, 10:39:45 and 11:08:53). The reader says so.
    assert!(
        ev.notes.iter().any(|n| n.starts_with("redis-0 is 2 pods")
            && n.contains("77b1cabd")
            && n.contains("5c3d5e63")
            && n.contains("not a container restart")),
        "{:?}",
        ev.notes
    );
    // 9 Node events of other reasons (NodeHas*, NodeAllocatableEnforced, RegisteredNode), 2
    // Scheduled, the StatefulSet's SuccessfulCreate.
    assert_eq!(ev.skipped, 12);
    assert!(ev.unread.is_empty());
}

#[test]
fn one_event_as_yaml_from_134490() {
    let ev = read(&data("134490-event.yaml"), 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    assert_eq!(ev.obs.len(), 1);
    let o = &ev.obs[0];
    assert_eq!(o.what, What::KubeletStarted);
    assert_eq!(
        (o.node.as_deref(), o.by.as_deref(), o.pod.as_deref(), o.line),
        (Some("k8s-86"), Some("kubelet"), None, 2)
    );
    assert_eq!(o.t_ms, t("2025-10-16T01:12:12Z"));
    // `kubectl get event NAME -oyaml` is one Event, keys in alphabetical order (apiVersion first):
    // its first line looks like a pod's YAML; the `kind: Event` nine lines down decides.
}

#[test]
fn events_list_as_yaml_with_the_prompt() {
    let ev = read(&data("minikube-events-list.yaml"), 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    // The pasted prompt (`% kubectl get events -o yaml`) would be a YAML directive (`%`).
    // Newer kubelets say "Container started" where the 2024 dump says "Started container redis":
    // the reason is read, never the message.
    assert_eq!(ev.obs.len(), 1);
    let o = &ev.obs[0];
    assert_eq!(
        (
            &o.what,
            o.pod.as_deref(),
            o.node.as_deref(),
            o.by.as_deref()
        ),
        (
            &What::ContainerStarted,
            Some("log-test"),
            Some("minikube"),
            Some("kubelet")
        )
    );
    // The item's line: where `- apiVersion: v1` opens it.
    assert_eq!(o.line, 115);
    assert_eq!(o.t_ms, t("2026-03-17T08:45:30Z"));
    // The scheduler's Scheduled (eventTime with microseconds, firstTimestamp null, `source: {}`),
    // Pulling, Pulled (a message folded over two lines), Created.
    assert_eq!(ev.skipped, 4);
}

#[test]
fn node_not_ready_on_a_pod_from_the_node_controller() {
    // The one real NodeNotReady-on-a-pod Event found (an event router's output, not kubectl's,
    // same core/v1 JSON): no `kind` of its own, `managedFields` kept, and no `source.host` nor
    // `reportingInstance` — the node controller does not say which node; the event alone cannot.
    let ev = read(&data("event-tailer-nodenotready.json"), 0).unwrap();
    assert_eq!(ev.format, Format::EventsJson);
    assert_eq!(ev.obs.len(), 1);
    let o = &ev.obs[0];
    assert_eq!(
        (
            &o.what,
            o.pod.as_deref(),
            o.node.as_deref(),
            o.by.as_deref(),
            o.line
        ),
        (
            &What::ReadyChanged(false),
            Some("kube-scheduler-kind-control-plane"),
            None,
            Some("node-controller"),
            4
        )
    );
    assert_eq!(o.t_ms, t("2022-09-13T08:19:22Z"));
}

#[test]
fn events_bad_input() {
    // A dump cut inside its second document: the EventList is read, the cut is said.
    let a = data("minikube-dump-kube-system-events.json");
    let cut = &a[..a.find("\"ReplicationControllerList\"").unwrap()];
    let ev = read(cut, 0).unwrap();
    assert_eq!(ev.obs.len(), 9);
    assert!(
        ev.notes.iter().any(|n| n.contains("cut or broken")),
        "{:?}",
        ev.notes
    );
    // Cut inside the EventList: nothing to read, the line is named.
    let cut = &a[..a.find("coredns-6f6b679f8f-rgq7r.1808ba34b80df6d5").unwrap()];
    let e = read(cut, 0).unwrap_err();
    assert!(e.message.contains("not valid JSON"), "{e}");
    assert!(e.line >= 250, "{e}");
    // YAML events with a broken line.
    let y = data("minikube-events-list.yaml").replace("  reason: Pulling", "  reason: [Pulling");
    let e = read(&y, 0).unwrap_err();
    assert!(e.message.contains("not valid YAML"), "{e}");
    // A list of something else.
    let e = read(
        "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"items\":[]}",
        0,
    )
    .unwrap_err();
    assert!(e.message.contains("not a list of Events"), "{e}");
    assert!(e.message.contains("NodeList"), "{e}");
    // An Event without any time: listed with its line, and nothing else to read.
    let e = read(
        "apiVersion: v1\nkind: Event\ninvolvedObject:\n  kind: Pod\n  name: x\nreason: Started\nmetadata:\n  name: x.1\n",
        0,
    )
    .unwrap_err();
    assert!(e.message.contains("without eventTime"), "{e}");
    assert_eq!(e.line, 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn truncated_event_samples_never_panic(which in 0usize..5, cut in 0usize..16000, junk in "[ -~\n]{0,40}") {
        let name = [
            "minikube-dump-kube-system-events.json",
            "minikube-dump-default-events.json",
            "134490-event.yaml",
            "minikube-events-list.yaml",
            "event-tailer-nodenotready.json",
        ][which];
        let t = data(name);
        let mut c = cut.min(t.len());
        while !t.is_char_boundary(c) { c -= 1; }
        let s = format!("{}{}", &t[..c], junk);
        if let Err(e) = read(&s, 0) {
            prop_assert!(e.line >= 1);
        }
    }
}
