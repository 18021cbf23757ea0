//! Real pastes collected apart from the readers' work, as held-out cases are (150–191), and what
//! their first reading showed: names a reporter masked, kubectl 1.11–1.13's events columns,
//! `systemctl status` without its glyph, a session's two printings around a kubelet restart, the
//! kubelet's `Shutdown` event, RHEL's `dockerd-current`, logrus lines.

mod common;
use common::{answered, assert_has, paste, read_paste};
use restartscope_evidence::{read, Format, What};

/// microk8s#1022: one `kubectl get nodes` whose worker names the reporter masked to one
/// (`10.aa.aa.aaa`, AGE 38d, 18d, 38d, 18d): four nodes, never one node "upgraded" from v1.17.2
/// to v1.17.3 (the answer before).
#[test]
fn masked_node_names_are_distinct_nodes_not_an_upgrade() {
    let ev = read_paste("153-");
    assert_eq!(ev.format, Format::NodesTable);
    assert_has(&ev.notes, "10.aa.aa.aaa names more than one node");
    let nodes: std::collections::BTreeSet<_> =
        ev.obs.iter().filter_map(|o| o.node.clone()).collect();
    assert_eq!(nodes.len(), 5, "{nodes:?}");
    assert!(ev.notes.iter().any(|n| n.starts_with("one printing")));
    let a = answered("153-");
    assert_eq!((a.bug, a.restart), (None, None), "{}", a.headline);
}

/// Azure/AKS#1188: `kubectl get events … | grep reboot` from kubectl 1.13 (LAST SEEN TYPE REASON
/// KIND MESSAGE, printers.go's `eventColumnDefinitions` before OBJECT), the header cut by grep:
/// the node is the one its Rebooted message names, redacted with a space, and its reboot named.
#[test]
fn kubectl_1_13_events_kind_column_names_the_node_from_its_message() {
    let ev = read_paste("176-");
    assert_eq!(ev.format, Format::EventsTable);
    assert!(ev
        .notes
        .iter()
        .any(|n| n.contains("LAST SEEN TYPE REASON KIND MESSAGE")));
    let reboots: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| matches!(o.what, What::NodeRebooted(_)))
        .collect();
    assert_eq!(reboots.len(), 6);
    assert!(reboots
        .iter()
        .all(|o| o.node.as_deref() == Some("<REDACTED agentName>-1")));
    let a = answered("176-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert!(
        a.reasons
            .iter()
            .any(|r| r.starts_with("node <REDACTED agentName>-1: the kubelet's Rebooted event")),
        "{:?}",
        a.reasons
    );
}

/// flatcar#1157: `systemctl status containerd` pasted without systemd's `●`: still the unit's
/// status (its `Loaded:` line under the header), containerd started at its `Active:` time; once
/// only, so no restart is named (a boot looks the same).
#[test]
fn systemctl_status_without_its_glyph_is_read() {
    let ev = read_paste("165-");
    assert_eq!(ev.format, Format::RuntimeLog);
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::RuntimeStarted("containerd".into())));
    assert_eq!(answered("165-").restart, None);
}

/// kubernetes#117955: `kubectl get pods | grep cuda`, `systemctl restart kubelet`, the same
/// command again: the two printings read together, the restart the reporter typed said between
/// them.
#[test]
fn two_printings_around_a_kubelet_restart_are_read_together() {
    let ev = read_paste("183-");
    assert_eq!(ev.format, Format::KubectlWatch);
    assert_has(&ev.notes, "2 printings of one command, read together");
    assert!(ev.notes.iter().any(|n| n.starts_with(
        "line 33: `$ systemctl restart kubelet` between the printings: the reporter restarted the kubelet there"
    )));
    assert_eq!(answered("183-").bug, None);
}

/// siderolabs/talos#9991: describe node's Events with the kubelet's `Shutdown` event ("Shutdown
/// manager detected shutdown event", nodeshutdown_manager_linux.go, 1.23 on) before a reboot:
/// the node shutting down names a reboot, as the same line in the kubelet's log does.
#[test]
fn the_kubelets_shutdown_event_names_a_reboot() {
    let ev = read_paste("177-");
    assert!(ev.obs.iter().any(|o| matches!(&o.what,
        What::PodMessage { reason, .. } if reason == "Shutdown")
        && o.node.as_deref() == Some("rpi03")));
    let a = answered("177-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    // A cancelled shutdown is not one.
    let cancelled = "Events:\n  Type    Reason    Age   From     Message\n  ----    ------    ----  ----     -------\n  Normal  Shutdown  9m7s  kubelet  Shutdown manager detected shutdown cancellation\n";
    assert!(read(cancelled, 0).is_err());
}

/// docker/hub-feedback#1626: RHEL's `dockerd-current` losing its containerd ("transport is
/// closing") and starting new containerd processes four times: a runtime restart, said as
/// dockerd's words, never the kubelet's; the reporter's row of dots an elision.
#[test]
fn dockerd_current_restarting_its_containerd_is_a_runtime_restart() {
    let ev = read_paste("167-");
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| o.what == What::RuntimeStarted("containerd".into()))
            .count(),
        4
    );
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let a = answered("167-");
    assert_eq!(a.restart.as_deref(), Some("runtime-restart"));
    assert!(
        a.reasons.iter().all(|r| !r.contains("the kubelet says")),
        "{:?}",
        a.reasons
    );
    assert!(a
        .reasons
        .iter()
        .any(|r| r.starts_with("dockerd-current's own lines say")));
}

/// kubereboot/kured#63: kured's log after a reboot (its lock held, the node uncordoned), no
/// reboot commanded in it: where kured's lines from before the reboot are. moby#32827: dockerd's own logrus file,
/// known by its `libcontainerd: …` lines: containerd lost, then "new containerd process", a
/// runtime restart said in dockerd's words; its lines about other things said as logrus lines.
#[test]
fn logrus_lines_are_named_and_dockerds_are_read() {
    let e = read(&paste("174-"), 0).unwrap_err();
    assert!(
        e.message.starts_with("read as kured's log"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("none of its 8 lines commands a reboot"),
        "{}",
        e.message
    );
    assert!(e.message.contains("--previous"), "{}", e.message);
    let ev = read_paste("168-");
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::RuntimeStarted("containerd".into())
            && o.by.as_deref() == Some("dockerd")));
    assert_eq!(ev.unread.len(), 2);
    assert!(ev.unread.iter().all(|u| u.why.starts_with("a logrus line")));
    assert_eq!(answered("168-").restart.as_deref(), Some("runtime-restart"));
}

/// The `kubectl get no -w` an AKS lab's notes pasted (VijayRod/demo): the node Ready, NotReady
/// after `systemctl stop kubelet`, NotReady, and Ready again 14 minutes on, the author's `# 14m`
/// after the last row: read as the node's changes, its last row with the note left off.
#[test]
fn get_nodes_watch_not_ready_and_back() {
    let text: String = paste("181-")
        .lines()
        .skip(6)
        .take(4)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.ends_with("v1.30.6 # 14m"), "{text}");
    let ev = read(&text, 0).unwrap();
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let ready: Vec<_> = ev
        .obs
        .iter()
        .filter_map(|o| match o.what {
            What::NodeReady(r) => Some((r, o.line)),
            _ => None,
        })
        .collect();
    assert_eq!(ready, [(true, 1), (false, 2), (true, 4)]);
    assert!(ev.notes.iter().any(|n| n.contains("Ready again")));
}

/// canonical/microk8s#5282: describe node cut above its `Name:`: the answer says "the node", not
/// a placeholder.
#[test]
fn an_unnamed_node_is_the_node() {
    let a = answered("162-");
    assert_eq!(a.restart.as_deref(), Some("runtime-restart"));
    assert!(
        a.reasons
            .iter()
            .any(|r| r.starts_with("the node: NotReady")),
        "{:?}",
        a.reasons
    );
    assert!(a.reasons.iter().all(|r| !r.contains("node ?")));
}

/// kubereboot/kured#976: kured 1.7–1.16's reboot command for its node ("Running command:
/// [/usr/bin/nsenter -m/proc/1/ns/mnt -- /bin/systemctl reboot] for node: …"), behind the log
/// viewer's own stamps, the last line's quote lost: a node reboot named, on the node kured
/// names, in kured's words (never "the kubelet's Rebooted event"). kured#151: its lock held at
/// its start is not a reboot.
#[test]
fn kureds_reboot_command_names_a_reboot() {
    let ev = read_paste("193-");
    assert_eq!(ev.format, Format::KuredLog);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let r: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| matches!(o.what, What::NodeRebooted(_)))
        .collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].node.as_deref(), Some("d2-pool1-fc962ed3-6m7j4"));
    assert_eq!(r[0].by.as_deref(), Some("kured"));
    let a = answered("193-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert_has(&a.reasons, "kured's reboot command (line 5)");
    assert!(a.reasons.iter().all(|x| !x.contains("Rebooted event")));
    let e = read(&paste("192-"), 0).unwrap_err();
    assert!(
        e.message.contains("none of its 11 lines commands a reboot"),
        "{}",
        e.message
    );
}

/// kubernetes#120168: the pods' `get pods` rows in one code block, their status YAML in another
/// under the reporter's caption: read as one, the YAML's lines were unread rows; each block on
/// its own, the rows are read and the YAML block said.
#[test]
fn code_blocks_read_apart_when_one_reading_leaves_lines_unread() {
    let ev = read_paste("198-");
    assert_eq!(ev.format, Format::KubectlWatch);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| matches!(o.what, What::RestartCount(_)))
            .count(),
        7
    );
    assert_has(&ev.notes, "another code block");
}

/// kubernetes#85221: kube-controller-manager's MarkAllPodsNotReady ("Update ready status of pods
/// on node [X]") on nine nodes: said of each node, never of "the pod". bsycorp/kind#46: the
/// controller's lines in docker's json-file log, each at docker's time with its year.
#[test]
fn controller_lines_of_nodes_and_in_dockers_json_file() {
    let a = answered("209-");
    assert!(a.reasons[0].starts_with("node gce-scale-cluster-minion-group-4-cgqp: the node controller marked its pods NotReady"), "{:?}", a.reasons);
    assert!(a.reasons.iter().all(|r| !r.starts_with("the pod")));
    let ev = read_paste("210-");
    assert_eq!(ev.format, Format::ControllerLog);
    assert_eq!(ev.obs.len(), 4);
    assert!(!ev.yearless);
    assert!(ev.obs.iter().all(|o| o.what == What::ControllerNotReady));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("coredns-f9fd979d6-w9lb9"));
}

/// openshift/machine-config-operator#2414: a worker's journal with a line number before each
/// line and microseconds in its times: the Machine Config Daemon's "initiating reboot" (through
/// `logger`) names a reboot, and systemd stopping "Kubernetes Kubelet" is the kubelet stopping.
#[test]
fn machine_config_daemon_reboot_in_a_numbered_journal() {
    let ev = read_paste("211-");
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert!(ev.obs.iter().any(|o| o.what == What::KubeletStopped));
    let a = answered("211-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert_has(
        &a.reasons,
        "the Machine Config Daemon's \"initiating reboot\" (line 5)",
    );
}

/// aws/karpenter-provider-aws#7559, openshift/origin#17418: describe node's Events, or its
/// Conditions, pasted from the table's header without `Events:` or `Conditions:` above it: read
/// as describe's (the kubelet starting; the node controller's Unknown).
#[test]
fn describe_tables_pasted_from_their_header() {
    let ev = read_paste("219-");
    assert_eq!(ev.format, Format::Describe);
    assert!(ev.obs.iter().any(|o| o.what == What::KubeletStarted));
    let ev = read_paste("223-");
    assert_eq!(ev.format, Format::Describe);
    assert!(ev.obs.iter().any(|o| matches!(&o.what,
        What::NodeNotReadyBecause(m) if m.contains("Kubelet stopped posting node status"))));
}

/// kubernetes#52574: the e2e framework's own log of a test restarting the kubelet over ssh
/// (`STEP: Restarting kubelet`, "ssh root@…:22: command: sudo systemctl restart kubelet"), then
/// polling the node's Ready: the kubelet's restart at the command's time, the node Ready.
#[test]
fn e2e_framework_restarting_the_kubelet() {
    let ev = read_paste("228-");
    assert_eq!(ev.format, Format::E2eLog);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let started: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::KubeletStarted)
        .collect();
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].line, 6);
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::NodeReady(true) && o.node.as_deref() == Some("kubernetes-node2")));
    assert_eq!(answered("228-").bug, None);
}

/// Azure/AKS#3927: a surge upgrade's events, node-problem-detector's ContainerdStart on the new
/// surge node printed twice as it was (as `-w` prints an updated event): one start, read once,
/// and no runtime restart named (it was, before: "started 2 times").
#[test]
fn an_events_row_printed_again_is_one_event() {
    let ev = read_paste("234-");
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| matches!(o.what, What::RuntimeStarted(_)))
            .count(),
        1
    );
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("line 5: the same row as line 4")));
    assert_eq!(answered("234-").restart, None);
}

/// k3s-io/k3s#3994: `kubectl get nodes,pods -A -o wide` prints the nodes' table, then the pods'
/// under their own header, each name with its kind (`node/…`, `pod/…`): two parts, the pods'
/// read (the nodes' said), no line unread. okd-project/okd#459: a header with the reporter's
/// backtick after it. okd#493: the Machine Config Daemon's own klog line "initiating reboot".
#[test]
fn tables_of_two_kinds_a_stray_backtick_and_the_mcds_klog_reboot() {
    let ev = read_paste("253-");
    assert_eq!(ev.format, Format::KubectlWatch);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert!(ev
        .obs
        .iter()
        .any(|o| o.pod.as_deref() == Some("svclb-traefik-m2qj9")));
    assert_has(&ev.notes, "also readable, as kubectl get nodes");
    let ev = read_paste("244-");
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    let a = answered("250-");
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert_has(
        &a.reasons,
        "the Machine Config Daemon's \"initiating reboot\" (line 5)",
    );
}

/// kubernetes#126650: a pod's containerStatuses pasted alone below the reporter's `...` (its
/// `status:` line cut away): read as the status block. kubernetes#35288: a zsh prompt with a
/// space before its `%` (`host~/dir(master|✚3…) % k get node`) is a command line. Azure/AKS#587:
/// `kubectl describe node` below `kubectl get nodes` is another part, said, not unread rows.
#[test]
fn a_status_fragment_a_zsh_prompt_and_describe_below_get_nodes() {
    let ev = read_paste("269-");
    assert_eq!(ev.format, Format::PodStatus);
    assert!(ev
        .obs
        .iter()
        .any(|o| matches!(&o.what, What::ContainerState(c) if c.name == "regular")));
    let ev = read_paste("271-");
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("line 4: a command line, skipped: curiosity~")));
    let ev = read_paste("279-");
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert_has(&ev.notes, "skipped: read as kubectl describe");
}

/// kubernetes/website#12389: `kubectl get pods --watch` opened on a pod in CrashLoopBackOff
/// (NotReady from its first row), restarted (12 → 13), Running, Completed: its container's own
/// exits explain its Ready changes. It was answered "kubernetes#135795 explains this"; the
/// restart while NotReady from the first row is now the pod's fact, and no bug is named.
/// openshift/release#1169: a liveness probe that "errored" (before 1.21) is a failed probe.
#[test]
fn a_crashlooping_pod_names_no_bug_and_an_errored_probe_failed() {
    let a = answered("281-");
    assert_eq!(a.bug, None, "{}", a.headline);
    assert!(a.reasons[0].starts_with("nginx: its container restarted while the pod was NotReady (restart count 13, line 7; NotReady from line 6)"), "{:?}", a.reasons);
    let ev = read_paste("288-");
    assert!(
        ev.obs
            .iter()
            .any(|o| o.what == What::ProbeFailed("Liveness".into())
                && o.pod.as_deref() == Some("webconsole-84f8cffc88-57llq")),
        "{:#?}",
        ev.obs
    );
}
