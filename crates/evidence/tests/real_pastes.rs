//! Real pastes the readers had never seen, quoted verbatim from public reports (the source on
//! each file's first line, what really happened on its second): the container runtime's own
//! journal and systemd's lines about its unit, the kubelet's "Container runtime sanity check
//! failed" and CRI calls the runtime does not answer, `kubectl describe node` with kubectl
//! 1.2–1.9's tab-aligned columns, its conditions alone, its events alone. Each is read as what it
//! is, and the restart it shows is named — or, when it shows none, none is.

mod common;
use common::{answered, paste as data};
use restartscope_evidence::{read, What};

/// systemd stopping containerd (a SIGTERM on client request) and starting it again (left-over
/// processes "while starting unit"): a container runtime restart, named from the runtime's own
/// lines.
#[test]
fn the_runtimes_own_journal_names_a_runtime_restart() {
    for f in ["32-", "34-"] {
        let ev = read(&data(f), 0).unwrap();
        assert_eq!(
            ev.format.as_str(),
            "container runtime log (containerd, CRI-O or dockerd journal)"
        );
        assert!(ev.obs.iter().all(|o| o.pod.is_none()), "{f}");
        let a = answered(f);
        assert_eq!(a.restart.as_deref(), Some("runtime-restart"), "{f}: {a:#?}");
        assert_eq!(a.bug, None);
    }
    let stop = read(&data("32-"), 0).unwrap();
    assert!(matches!(&stop.obs[0].what, What::RuntimeStopped(r) if r == "containerd"));
    let start = read(&data("34-"), 0).unwrap();
    assert!(start
        .obs
        .iter()
        .all(|o| matches!(&o.what, What::RuntimeStarted(r) if r == "containerd")));
}

/// containerd's journal with sandbox teardown only (a CNI problem; a cgroup misconfiguration):
/// said to be the runtime's log, with no stop or start, never taken for the kubelet's.
#[test]
fn a_runtime_journal_without_a_restart_is_said_to_be_one() {
    for f in ["28-", "41-"] {
        let e = read(&data(f), 0).unwrap_err();
        assert!(
            e.message.starts_with("read as the container runtime log"),
            "{f}: {e:?}"
        );
        assert!(
            e.message.contains("none a stop or a start of the runtime"),
            "{f}"
        );
        assert!(
            e.message.contains("journalctl -u containerd -u kubelet"),
            "{f}"
        );
    }
}

/// The kubelet's side of a runtime outage: "Container runtime sanity check failed" (containerd's
/// socket resetting) and CRI calls failing `code = Unavailable` while CRI-O restarts.
#[test]
fn the_kubelet_not_reaching_the_runtime_is_a_runtime_outage() {
    for f in ["21-", "37-"] {
        let ev = read(&data(f), 0).unwrap();
        assert!(
            ev.obs
                .iter()
                .any(|o| matches!(o.what, What::RuntimeDown(_))),
            "{f}: {:?}",
            ev.obs
        );
        let a = answered(f);
        assert_eq!(a.restart.as_deref(), Some("runtime-restart"), "{f}: {a:#?}");
    }
}

/// `kubectl describe node` as kubectl 1.2 printed it (tab-aligned, box-drawing rules, no
/// `Roles:`): a node, its Ready False "container runtime is down" read.
#[test]
fn describe_node_with_tabs_is_a_node_and_its_runtime_is_down() {
    let ev = read(&data("09-"), 0).unwrap();
    assert!(ev.obs.iter().all(|o| o.pod.is_none()), "{:?}", ev.obs);
    assert!(ev.obs.iter().any(|o| matches!(&o.what, What::NodeNotReadyBecause(m) if m.contains("container runtime is down"))));
    assert_eq!(answered("09-").restart.as_deref(), Some("runtime-restart"));
    // Its conditions alone (kubectl 1.7, tabs): Ready Unknown by the node controller.
    let c = read(&data("29-"), 0).unwrap();
    assert!(c.obs.iter().all(|o| o.pod.is_none()), "{:?}", c.obs);
    assert!(c.obs.iter().any(|o| matches!(&o.what, What::NodeNotReadyBecause(m) if m.contains("Kubelet stopped posting node status"))));
}

/// A node's events grepped out of `describe node` (no `Roles:`): the two Rebooted events make it
/// a node and name the reboot; kubectl 1.7's `FirstSeen LastSeen Count From …` events give two
/// kubelet starts and no reboot.
#[test]
fn a_nodes_events_alone_are_a_node() {
    let ev = read(&data("48-"), 0).unwrap();
    assert!(ev.obs.iter().all(|o| o.pod.is_none()), "{:?}", ev.obs);
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| matches!(o.what, What::NodeRebooted(_)))
            .count(),
        2
    );
    assert_eq!(answered("48-").restart.as_deref(), Some("node-reboot"));
    let old = read(&data("12-"), 0).unwrap();
    assert_eq!(
        old.obs
            .iter()
            .filter(|o| o.what == What::KubeletStarted)
            .count(),
        2
    );
    let a = answered("12-");
    assert_eq!(
        (a.restart.as_deref(), a.bug.as_deref()),
        (None, None),
        "{a:#?}"
    );
}

/// CentOS's "Stopping Kubernetes Kubelet Server..." (syslog-forwarded systemd lines; the paste
/// ends before the start): the kubelet stopped; no runtime restart, no reboot, no bug.
#[test]
fn systemd_restarting_the_kubelet_unit_is_read() {
    let ev = read(&data("60-"), 0).unwrap();
    assert!(ev.obs.iter().any(|o| o.what == What::KubeletStopped));
    assert!(ev.obs.iter().all(|o| o.pod.is_none()));
    let a = answered("60-");
    assert_eq!(
        (a.restart.as_deref(), a.bug.as_deref()),
        (None, None),
        "{a:#?}"
    );
}

/// No paste makes a reader panic, every one names its source, and the count read never goes
/// down (25 before these readers; 38 of the 78 when they were collected; 54 with reboots told
/// from kubectl get pods, systemctl status, quoted journals, every release's events columns as
/// data and lone condition rows; 55 of 79 with one more real `get pods -A -o wide`; 60 of 79
/// with `kubectl get nodes` read as each node's state; 66 of 85 with six more real `get nodes`; 67 of 86 with kubectl 1.8's `-o wide`; 68 of 88 with one more `-o wide` and a
/// kernel journal refused; 69 of 89 with a kubelet's restart in its own journal; 71 of 91 with `watch kubectl get nodes` and a printing beside cut kubelet lines; 78 of 95 with
/// the event recorder's echoes in a controller's log, node-problem-detector's own log, 1.32's
/// readiness wording and dockerd's words about its containerd; 81 of 98 with the node
/// controller's taint queue; 98 of 120 with an issue's prose around its code blocks, the graceful
/// node shutdown, logind's reboot and the kubelet's gRPC lines to its runtime; 113 of 138 with
/// eighteen incidents collected apart, as held-out cases are; 123 of 149 with eleven more, and a
/// lone condition row flush left; 152 of 191 with 42 more collected apart, 26 of them read as they
/// came; 153 of 196 with kured's own logs; 169 of 216 with twenty more collected apart, 14 of them read
/// as they came; 183 of 233 with seventeen more, 10 of them read as they came; 191 of
/// 242 with nine more, 8 read as they came; 207 of 262 with twenty more, 14 read as they came; 216 of 279
/// with seventeen more, 8 read as they came; 228 of 294 with fifteen more, 11 as they came).
#[test]
fn every_paste_is_read_or_refused() {
    let dir = format!("{}/tests/data/pastes", env!("CARGO_MANIFEST_DIR"));
    let (mut read_ok, mut all) = (0, 0);
    for f in std::fs::read_dir(dir).unwrap().flatten() {
        if f.path().extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert!(text.starts_with("# source: https://"), "{:?}", f.path());
        all += 1;
        if read(&text, 0).is_ok() {
            read_ok += 1;
        }
    }
    assert_eq!(all, 294);
    assert!(read_ok >= 228, "{read_ok} of {all} read");
}

/// `kubectl get events` rows pasted without their header, read with the column layout they fit
/// (kubectl 1.3's NAMESPACE LASTSEEN FIRSTSEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE
/// MESSAGE; 1.14's LAST SEEN TYPE REASON OBJECT MESSAGE with the MESSAGE wrapped onto the next
/// line): probe failures, no restart, no bug.
#[test]
fn events_rows_without_their_header_are_read() {
    let old = read(&data("56-"), 0).unwrap();
    assert_eq!(old.format.as_str(), "kubectl get events (table)");
    assert_eq!(
        old.obs
            .iter()
            .filter(|o| matches!(o.what, What::ProbeFailed(_)))
            .count(),
        3,
        "{:?}",
        old.obs
    );
    assert!(old
        .obs
        .iter()
        .all(|o| o.pod.as_deref() == Some("basic-sti-1-p7jnr")));
    let wrapped = read(&data("57-"), 0).unwrap();
    assert_eq!(wrapped.obs.len(), 1);
    assert_eq!(wrapped.obs[0].what, What::ProbeFailed("Readiness".into()));
    assert_eq!(
        wrapped.obs[0].pod.as_deref(),
        Some("frontend-557f465b6f-xqz9q")
    );
    for f in ["56-", "57-"] {
        let a = answered(f);
        assert_eq!(
            (a.restart.as_deref(), a.bug.as_deref()),
            (None, None),
            "{f}: {a:#?}"
        );
    }
}

/// The kernel's ring buffer is said to be what it is, with what to paste for a reboot.
#[test]
fn dmesg_is_said_to_be_the_kernels() {
    let e = read(&data("49-"), 0).unwrap_err();
    assert!(
        e.message.contains("the kernel's ring buffer (`dmesg`)"),
        "{e:?}"
    );
    assert!(e.message.contains("journalctl --list-boots"), "{e:?}");
}

/// kubernetes#17612 (kubectl 1.1): a deleted pod's `get -w po` goes 1/1 → 0/1 while
/// Terminating. The deletion explains it, and no kubelet restart shows: no bug is named on the
/// sequence's shape (it once named kubernetes#141473, 65 against 60).
#[test]
fn a_deleting_pods_notready_names_no_bug() {
    let a = answered("76-");
    assert_eq!(
        (a.bug.as_deref(), a.restart.as_deref()),
        (None, None),
        "{a:#?}"
    );
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("while it was being deleted")),
        "{a:#?}"
    );
}

/// Lines the kubelet wrote but that replay cannot place in time are said to be what they are,
/// with the one command that gives them whole: a message without its klog header (kubernetes#69007,
/// the PLEG that never relisted: the kubelet's start, not a runtime outage), lines whose header
/// was cut before the source file (kubespray#5689, openshift/installer#2344), and a Go stack
/// dump (kubernetes#96589, the kubelet crashing after a reboot).
#[test]
fn the_kubelets_words_without_their_time_are_named_and_the_whole_lines_asked_for() {
    let e = read(&data("17-"), 0).unwrap_err();
    assert!(
        e.message
            .contains("a kubelet message without its log header"),
        "{e:?}"
    );
    assert!(
        e.message
            .contains("it shows a kubelet (re)start, and a runtime outage only if it lasts"),
        "{e:?}"
    );
    assert!(
        e.message.contains("journalctl -u kubelet -o short-iso"),
        "{e:?}"
    );
    assert!(!e.message.contains("Paste instead"), "{e:?}");
    for f in ["39-", "64-"] {
        let e = read(&data(f), 0).unwrap_err();
        assert!(
            e.message
                .contains("the kubelet's log lines with their header cut off"),
            "{f}: {e:?}"
        );
    }
    let e = read(&data("73-"), 0).unwrap_err();
    assert!(e.message.contains("a Go program's stack dump"), "{e:?}");
    assert!(e.message.contains("journalctl -u kubelet -b"), "{e:?}");
}

/// kubernetes#122338: a kubelet restarted by hand says NotReady in its first status, "container
/// runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be
/// successful". That is its own start (its PLEG has not relisted once), not a runtime outage: no
/// runtime restart and no bug is named, and the reasons say so.
#[test]
fn a_kubelets_first_notready_is_its_start_not_a_runtime_outage() {
    let a = answered("89-");
    assert_eq!(
        (a.restart.as_deref(), a.bug.as_deref()),
        (None, None),
        "{a:#?}"
    );
    assert!(
        a.reasons
            .iter()
            .any(|r| r.contains("had not relisted once since the kubelet started")),
        "{a:#?}"
    );
    assert!(
        a.reasons
            .iter()
            .all(|r| !r.contains("did not answer the kubelet in time")),
        "{a:#?}"
    );
}
