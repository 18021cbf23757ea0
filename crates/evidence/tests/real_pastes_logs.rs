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

/// Azure/AKS#3588 and node-problem-detector#666: an issue's prose around its code blocks. The
/// blocks are read, each on its own when together they are not one format (an error line's
/// block, then describe's Events under an `Events:` heading left outside the fence); the prose
/// and the other block are said. Ages `<invalid>` (a clock ahead of kubectl's) are now.
#[test]
fn an_issues_prose_around_its_code_blocks() {
    let ev = read_paste("99-");
    assert_eq!(ev.format, Format::Describe);
    assert!(ev.obs.iter().any(|o| o.what == What::ProxyStarted));
    assert!(
        ev.notes
            .iter()
            .any(|n| n.contains("of prose outside the markdown code blocks, skipped")),
        "{:#?}",
        ev.notes
    );
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("line 8: another code block, not read")));
    // The systemctl block read, the events block of NPD's KubeletUnhealthy said.
    let ev = read_paste("100-");
    assert_eq!(ev.format, Format::Klog);
    assert_eq!(ev.obs[0].what, What::KubeletStarted);
}

/// kubernetes#122674 and #110755: the kubelet's graceful node shutdown
/// (`nodeshutdown_manager_linux.go`): the shutdown event seen (said twice, read once), a pod
/// killed: the node was shutting down, named a reboot, moderate.
#[test]
fn the_kubelets_graceful_node_shutdown() {
    let ev = read_paste("109-");
    assert_eq!(ev.obs.len(), 1, "{:#?}", ev.obs);
    assert_eq!(ev.obs[0].node.as_deref(), Some("worker-node01"));
    let a = answered("109-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert!(a.reasons.iter().any(|r| r
        .starts_with("node worker-node01: Shutdown: the kubelet's graceful node shutdown began")));
    let ev = read_paste("110-");
    assert_eq!(ev.obs[0].pod.as_deref(), Some("client-64ccc5cc77-6jrfk"));
    let a = answered("110-");
    assert!(a
        .reasons
        .iter()
        .any(|r| r.starts_with("1 pod terminated by the kubelet's graceful node shutdown")));
}

/// kubernetes#107043 and rook#1018: a reboot in the journal itself: journalctl's `-- Reboot --`
/// after systemd stopped the kubelet, and systemd-logind's "System is rebooting.", each said as
/// what it is (not as the kubelet's Rebooted event).
#[test]
fn the_journals_own_reboot_lines() {
    let a = answered("111-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert!(a
        .reasons
        .iter()
        .any(|r| r.contains("journalctl's `-- Reboot --` between two boots' entries")));
    let ev = read_paste("116-");
    assert_eq!(ev.format, Format::Klog);
    assert_eq!(ev.obs[0].by.as_deref(), Some("systemd-logind"));
    let a = answered("116-");
    assert!(a
        .reasons
        .iter()
        .any(|r| r.contains("systemd-logind's \"System is rebooting.\"")));
}

/// kubernetes#72296: kubelet 1.11 → 1.12, "Killing container with id docker://redis:Container
/// spec hash changed (…)" (the wording before "definition changed"): a spec-hash restart.
#[test]
fn spec_hash_changed_before_1_13() {
    let ev = read_paste("114-");
    assert_eq!(ev.obs[0].what, What::SpecChanged("redis".into()));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("redis-k6p6z"));
}

/// kubernetes#129827 and #95727: containerd restarted by hand, as the kubelet saw it: its CRI
/// calls `Unavailable` (structured "ListPodSandbox with filter from runtime service failed",
/// the Evented PLEG's stream), gRPC reconnecting to containerd.sock.
#[test]
fn the_kubelets_grpc_lines_to_its_runtime() {
    for p in ["103-", "107-"] {
        let ev = read_paste(p);
        assert!(
            ev.obs.iter().any(|o| matches!(&o.what, What::RuntimeDown(m)
                if m.starts_with("container runtime not answering"))),
            "{p}: {:#?}",
            ev.obs
        );
        assert_eq!(
            answered(p).restart.as_deref(),
            Some("runtime-restart"),
            "{p}"
        );
    }
}

/// moby#42820: journal lines with their time and host cut off: refused, saying so.
#[test]
fn journal_lines_without_their_time_are_named() {
    let e = restartscope_evidence::read(&common::paste("119-"), 0).unwrap_err();
    assert!(
        e.message
            .contains("journal lines with their time and host cut off"),
        "{}",
        e.message
    );
}

/// canonical/microk8s#4342: MicroK8s runs the kubelet in its kubelite service; `snap logs`
/// prints systemd's lines about it with an ISO time and no host: its stop and start.
#[test]
fn microk8s_kubelite_is_the_kubelet() {
    let ev = read_paste("125-");
    let w: Vec<_> = ev.obs.iter().map(|o| o.what.clone()).collect();
    assert_eq!(w, vec![What::KubeletStopped, What::KubeletStarted]);
    assert!(!ev.yearless);
}

/// kubernetes-sigs/kubespray#4900: describe node cut before its Ready row; its other conditions
/// Unknown, NodeStatusUnknown, are the node controller's: the kubelet stopped posting.
#[test]
fn describe_node_cut_before_ready_still_says_unknown() {
    let ev = read_paste("127-");
    assert_eq!(ev.obs.len(), 1, "{:#?}", ev.obs);
    assert_eq!(ev.obs[0].node.as_deref(), Some("kubekm1"));
    assert_eq!(ev.obs[0].by.as_deref(), Some("node-controller"));
    assert!(matches!(&ev.obs[0].what, What::NodeNotReadyBecause(m)
        if m.starts_with("Kubelet stopped posting node status")));
}

/// labring/sealos#728: `[root@master ~]# kbs get node`, a reporter's alias after the shell's
/// prompt: a command line (never JSON's `[`), the tables under it read.
#[test]
fn an_alias_after_the_shells_prompt_is_a_command() {
    let ev = read_paste("136-");
    assert_eq!(ev.format, Format::KubectlWatch);
    assert!(ev
        .notes
        .iter()
        .any(|n| n.contains("a command line, skipped: [root@master ~]# kbs get node")));
}
