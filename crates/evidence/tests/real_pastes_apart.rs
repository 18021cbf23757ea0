//! Real pastes collected apart from the readers' work, as held-out cases are (150–191), and what
//! their first reading showed: names a reporter masked, kubectl 1.11–1.13's events columns,
//! `systemctl status` without its glyph, a session's two printings around a kubelet restart, the
//! kubelet's `Shutdown` event, RHEL's `dockerd-current`, logrus lines.

mod common;
use common::{answered, paste, read_paste};
use restartscope_evidence::{read, Format, What};

/// microk8s#1022: one `kubectl get nodes` whose worker names the reporter masked to one
/// (`10.aa.aa.aaa`, AGE 38d, 18d, 38d, 18d): four nodes, never one node "upgraded" from v1.17.2
/// to v1.17.3 (the answer before).
#[test]
fn masked_node_names_are_distinct_nodes_not_an_upgrade() {
    let ev = read_paste("153-");
    assert_eq!(ev.format, Format::NodesTable);
    assert!(
        ev.notes
            .iter()
            .any(|n| n.contains("10.aa.aa.aaa names more than one node")),
        "{:?}",
        ev.notes
    );
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
    assert!(
        ev.notes
            .iter()
            .any(|n| n.contains("2 printings of one command, read together")),
        "{:?}",
        ev.notes
    );
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

/// kubereboot/kured#63: logrus lines whose writer no line names are named as what they are (a
/// daemon's own log), with the command that names it. moby#32827: dockerd's own logrus file,
/// known by its `libcontainerd: …` lines: containerd lost, then "new containerd process", a
/// runtime restart said in dockerd's words; its lines about other things said as logrus lines.
#[test]
fn logrus_lines_are_named_and_dockerds_are_read() {
    let e = read(&paste("174-"), 0).unwrap_err();
    assert!(e.message.contains("logrus"), "{}", e.message);
    assert!(e.message.contains("journalctl"), "{}", e.message);
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
