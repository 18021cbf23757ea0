//! Real pastes of logs other than the kubelet's own lines: the event recorder's echo of an event
//! in kube-controller-manager's log (`Event(v1.ObjectReference{…})`, `"Event occurred"`),
//! node-problem-detector's statuses, and the kubelet's readiness wording of 1.32 and later.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::time::clock_text;
use restartscope_evidence::{Format, What};

/// kubernetes#105838: kube-controller-manager's `"Event occurred"` lines, reason NodeNotReady on
/// each pod: the node lifecycle controller's MarkPodsNotReady, named pod by pod.
#[test]
fn controller_event_occurred_marks_pods_not_ready() {
    let ev = read_paste("53-");
    assert_eq!(ev.format, Format::ControllerLog);
    let marked: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::ControllerNotReady)
        .collect();
    assert_eq!(marked.len(), 6, "{:#?}", ev.obs);
    assert_eq!(
        marked[0].pod.as_deref(),
        Some("hello-world-864d8949b-6dfvs")
    );
    assert!(marked
        .iter()
        .all(|o| o.by.as_deref() == Some("node-controller")));
    let a = answered("53-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// minikube#6822: the controller's `Event(v1.ObjectReference{Kind:"Node", … Name:"docker2"…})`
/// NodeNotReady: node docker2 NotReady, written by kube-controller-manager (its
/// node_lifecycle_controller.go lines say whose log it is), not a kubelet's.
#[test]
fn controller_node_event_echo_is_the_named_node() {
    let ev = read_paste("93-");
    assert_eq!(ev.format, Format::ControllerLog);
    let nr: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::NodeReady(false))
        .collect();
    assert_eq!(nr.len(), 2, "{:#?}", ev.obs);
    assert!(nr.iter().all(|o| o.node.as_deref() == Some("docker2")
        && o.by.as_deref() == Some("kube-controller-manager")));
}

/// acs-engine#863: a containerized kube-controller-manager's klog behind journald's `dockerd[…]`,
/// the first line behind a stray '[': read as the controller's, about the agent node it names
/// (not the master whose journal it is), and not as dockerd's own log.
#[test]
fn containerized_controller_lines_behind_a_stray_bracket() {
    let ev = read_paste("94-");
    assert_eq!(ev.format, Format::ControllerLog);
    assert_eq!(ev.obs.len(), 2, "{:#?}", ev.obs);
    assert!(ev
        .obs
        .iter()
        .all(|o| o.node.as_deref() == Some("k8s-agentpool1-18420427-2")));
    assert_eq!(ev.obs[0].what, What::NodeReady(false));
    assert_eq!(ev.obs[1].what, What::ControllerNotReady);
}

/// node-problem-detector#1258: containerd killed four times, each start seen by NPD's
/// systemd-monitor, at the journal line's time (not NPD's): a container runtime restart.
#[test]
fn npd_containerd_starts_name_a_runtime_restart() {
    let ev = read_paste("92-");
    assert_eq!(ev.format, Format::NpdLog);
    let starts: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::RuntimeStarted("containerd".into()))
        .collect();
    assert_eq!(starts.len(), 4);
    // Timestamp:2026-04-27 10:09:16.308077, logged by NPD at 10:09:16.558795.
    assert_eq!(starts[0].t_ms % 1000, 308);
    assert_eq!(clock_text(starts[0].t_ms), "10:09:16");
    let a = answered("92-");
    assert_eq!(a.restart.as_deref(), Some("runtime-restart"), "{a:#?}");
    assert_eq!(a.bug, None);
    assert!(
        a.reasons.iter().any(|r| r.contains("started 4 times")),
        "{:#?}",
        a.reasons
    );
}

/// kops#16763: one ContainerdStart, at the node's boot (02:05:43; NPD logged it at 02:06:49):
/// a runtime's first start looks the same, so no restart is named.
#[test]
fn one_npd_start_is_not_named_a_restart() {
    let ev = read_paste("77-");
    assert_eq!(ev.format, Format::NpdLog);
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(clock_text(ev.obs[0].t_ms), "02:05:43");
    let a = answered("77-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// kubernetes#138889: the kubelet of 1.32 and later logs a readiness failure as "SyncLoop
/// (probe)" status="not ready" (before, status=""): each is a readiness probe failure.
#[test]
fn syncloop_probe_not_ready_is_a_readiness_failure() {
    let ev = read_paste("95-");
    let failed = ev
        .obs
        .iter()
        .filter(|o| {
            o.what == What::ProbeFailed("Readiness".into())
                && o.pod.as_deref() == Some("northftpmaster-0")
        })
        .count();
    assert_eq!(failed, 4);
}

/// moby#36945: dockerd's health checks of its containerd failing and its event stream closing:
/// the runtime not answering, as dockerd (not a kubelet) says; named a runtime outage.
#[test]
fn dockerd_says_containerd_is_not_answering() {
    let ev = read_paste("78-");
    assert_eq!(ev.format, Format::RuntimeLog);
    assert!(ev
        .obs
        .iter()
        .all(|o| matches!(&o.what, What::RuntimeDown(m) if m.contains("as dockerd says"))));
    let a = answered("78-");
    assert_eq!(a.restart.as_deref(), Some("runtime-restart"));
    assert!(
        a.reasons.iter().any(
            |r| r.starts_with("dockerd's own lines say the container runtime is not answering")
        ),
        "{:#?}",
        a.reasons
    );
    assert!(!a.reasons.iter().any(|r| r.contains("the kubelet says")));
}

/// kubernetes#83044: the kernel's journal lines of a memory cgroup OOM kill beside one of
/// dockerd's: refused as the kernel's, not as "the container runtime log".
#[test]
fn kernel_journal_is_named_the_kernels() {
    let e = restartscope_evidence::read(&common::paste("88-"), 0).unwrap_err();
    assert!(
        e.message
            .starts_with("read as journal lines: 7 of them the kernel's"),
        "{}",
        e.message
    );
}

/// kubernetes#77981 and #110028: the node lifecycle controller's "Node … is unresponsive as of
/// …. Adding it to the Taint queue." (Ready Unknown, the kubelet stopped posting), said every
/// 5 s while it lasts: one observation per node, the node it names, written by the controller.
/// "… was in a taint queue, but it's ready now" is about another node and reads as nothing.
#[test]
fn taint_queue_lines_are_the_node_controllers() {
    for (paste, node) in [("96-", "k8s-worker3"), ("97-", "kind-worker")] {
        let ev = read_paste(paste);
        assert_eq!(ev.format, Format::ControllerLog, "{paste}");
        assert_eq!(ev.obs.len(), 1, "{paste}: {:#?}", ev.obs);
        let o = &ev.obs[0];
        assert_eq!(o.node.as_deref(), Some(node));
        assert_eq!(
            o.what,
            What::NodeNotReadyBecause("Kubelet stopped posting node status.".into())
        );
        assert_eq!(o.by.as_deref(), Some("node-controller"));
    }
    // schu/kubedee#26: the pre-structured "is NotReady as of", in kube-controller-manager's
    // journal.
    let ev = read_paste("98-");
    assert_eq!(ev.format, Format::ControllerLog);
    assert_eq!(ev.obs.len(), 1, "{:#?}", ev.obs);
    assert_eq!(ev.obs[0].what, What::NodeReady(false));
    assert_eq!(
        ev.obs[0].node.as_deref(),
        Some("kubedee-test-worker-2ajv8y")
    );
}
