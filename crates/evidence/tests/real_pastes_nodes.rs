//! Real `kubectl get nodes` pastes (kubectl 1.0's `NAME LABELS STATUS` to today's `-o wide`):
//! read as each node's state when printed, never as a restart on one printing; between
//! printings, a node's VERSION changing is an in-place kubelet upgrade, its runtime's version
//! changing a runtime restart, NotReady then Ready a weak sign, its AGE going down a re-created
//! node object.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::{read, Format, What};

fn versions(f: &str) -> Vec<(String, String)> {
    read_paste(f)
        .obs
        .iter()
        .filter_map(|o| match &o.what {
            What::KubeletVersion(v) => Some((o.node.clone().unwrap_or_default(), v.clone())),
            _ => None,
        })
        .collect()
}

/// One printing (kubectl 1.0, 1.3 headerless, 1.7 with roles in STATUS, 1.8, a node named
/// `minikube`): read, each node's state, nothing named — a NotReady node is a state at the time
/// of the paste.
#[test]
fn one_printing_is_states_not_a_restart() {
    for f in ["43-", "44-", "82-", "83-", "84-", "85-"] {
        let ev = read_paste(f);
        assert_eq!(ev.format, Format::NodesTable, "{f}");
        assert!(ev.obs.iter().all(|o| o.pod.is_none() && o.node.is_some()));
        assert!(
            ev.obs.iter().any(|o| o.what == What::NodeReady(false)),
            "{f}"
        );
        let notes = ev.notes.join("\n");
        assert!(notes.contains("one printing of `kubectl get nodes`"), "{f}");
        assert!(notes.contains("NotReady"), "{f}: {notes}");
        let a = answered(f);
        assert_eq!((a.bug, a.restart), (None, None), "{f}");
    }
    // Nodes at two versions in one printing: a mixed cluster, said so.
    let notes = read_paste("84-").notes.join("\n");
    assert!(notes.contains("different versions"), "{notes}");
}

/// sealos's upgrade, printed six times: each node's kubelet v1.16.10 → v1.17.12, named an
/// in-place kubelet upgrade, moderate (no container restart shows), both nodes with their lines,
/// the containers said unknown (1.16 and 1.17 are outside the model's releases) and the run
/// drawn beside named as the nearest the model has; the cordon said.
#[test]
fn a_version_changing_between_printings_is_an_upgrade() {
    let v = versions("80-");
    assert_eq!(v.len(), 4, "{v:?}");
    assert_eq!(v[2], ("dev-k8s-master".into(), "v1.17.12".into()));
    let a = answered("80-");
    assert_eq!(a.restart.as_deref(), Some("upgrade-1.30-to-1.31"));
    let h = &a.headline;
    for said in [
        "node dev-k8s-master's kubelet went from v1.16.10 (line 7) to v1.17.12 (line 19)",
        "node dev-k8s-node's kubelet went from v1.16.10 (line 8) to v1.17.12 (line 28)",
        "cannot say from v1.16.10's or v1.17.12's code",
        "the nearest run it has, upgrade-1.30-to-1.31 (its releases begin at 1.30)",
    ] {
        assert!(h.contains(said), "{said}: {h}");
    }
    assert!(!h.contains("only across a container-hash change"), "{h}");
    assert!(
        a.strength.ends_with("60 of 100: moderate"),
        "{}",
        a.strength
    );
    assert_eq!(
        a.reasons
            .iter()
            .filter(|r| r.contains("upgraded in place"))
            .count(),
        2,
        "{:?}",
        a.reasons
    );
    let notes = read_paste("80-").notes.join("\n");
    assert!(
        notes.contains(
            "line 20: node dev-k8s-node's STATUS Ready (line 16) → Ready,SchedulingDisabled: cordoned"
        ),
        "{notes}"
    );
}

/// kubectl 1.8's `-o wide` (EXTERNAL-IP, no INTERNAL-IP; kubernetes#57010), every node's runtime
/// `docker://Unknown`: one printing, four nodes' states, nothing named.
#[test]
fn kubectl_1_8_wide_is_read_as_states() {
    let ev = read_paste("86-");
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert_eq!(versions("86-").len(), 4);
    let a = answered("86-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// kubespray#1344 pasted the table after the upgrade first, "but before upgrade" second: every
/// node younger in the second, so it is read first, and the versions go up, not down.
#[test]
fn printings_pasted_out_of_order_are_read_by_age() {
    let ev = read_paste("81-");
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("printing 2: every node younger than in the first")));
    assert!(!ev.notes.iter().any(|n| n.contains("re-created")));
    let v = versions("81-");
    assert_eq!(v[0], ("k9s-01".into(), "v1.6.2+coreos.0".into()));
    assert_eq!(v[4], ("k9s-01".into(), "v1.6.4+coreos.0".into()));
    assert_eq!(
        answered("81-").restart.as_deref(),
        Some("upgrade-1.30-to-1.31")
    );
}

/// Two `-o wide` printings across a reboot (clearlinux#1004): kube2 Ready → NotReady; the
/// paste's last cell cut to `cri-o://1.` is no runtime change.
#[test]
fn a_cut_cell_is_no_change_and_notready_alone_names_nothing() {
    let ev = read_paste("71-");
    assert!(!ev
        .obs
        .iter()
        .any(|o| matches!(o.what, What::RuntimeStarted(_))));
    assert!(ev.obs.iter().any(|o| o.node.as_deref() == Some("kube2")
        && o.what == What::NodeReady(false)
        && o.line == 13));
    let a = answered("71-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// The output of `kubectl get nodes` above another command's (`get pods`, the kubelet's
/// journal) gives way to it: that output says more than the nodes' states.
#[test]
fn get_nodes_above_another_output_gives_way() {
    assert_eq!(read_paste("45-").format, Format::KubectlWatch);
    assert_eq!(read_paste("11-").format, Format::Klog);
    assert_eq!(answered("11-").restart.as_deref(), Some("runtime-restart"));
}

/// `kubectl get namespaces` (`NAME STATUS AGE`, `Active`) is no node table.
#[test]
fn a_namespaces_table_is_not_nodes() {
    let e = read(
        "NAME          STATUS   AGE\ndefault       Active   5d\nkube-system   Active   5d\n",
        0,
    );
    assert!(e.is_err(), "{e:?}");
}

/// kubernetes#8195 (Kubernetes 0.17, 2015): `watch kubectl get nodes`, two printings under
/// watch(1)'s header line (the command and the wall-clock time, skipped as a command line) with
/// kubectl 0.17's `NAME LABELS STATUS` columns, the shell commands between them; the second
/// printing cut off by the paste. Read as the nodes' states, the two printings told apart; the
/// kubelet restart the reporter typed is a command, not evidence, so nothing is named.
/// kubernetes#108687 (v1.16.9): one printing under a markdown heading, then the kubelet's lines
/// cut at their source file: the nodes read, nothing named.
#[test]
fn watch_printings_and_a_printing_beside_cut_kubelet_lines_are_states() {
    let ev = read_paste("90-");
    assert_eq!(ev.format, Format::NodesTable);
    assert!(ev.obs.iter().any(
        |o| o.node.as_deref() == Some("kubelet3.c.kubestack.internal")
            && o.what == What::NodeReady(false)
    ));
    assert!(
        ev.notes
            .iter()
            .any(|n| n.contains("2 printings of `kubectl get nodes`")),
        "{:?}",
        ev.notes
    );
    let ev = read_paste("91-");
    assert_eq!(ev.format, Format::NodesTable);
    let down: Vec<&str> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::NodeReady(false))
        .filter_map(|o| o.node.as_deref())
        .collect();
    assert_eq!(down, ["aaaaaaa43", "aaaaaaa35"]);
    // The kubelet's lines beside the table are said to be what they are.
    let cut: Vec<usize> = ev
        .unread
        .iter()
        .filter(|u| {
            u.why
                .starts_with("a kubelet log line with its header (level, time, process) cut off")
        })
        .map(|u| u.line)
        .collect();
    assert_eq!(cut, [17, 18, 19, 20], "{:?}", ev.unread);
    for f in ["90-", "91-"] {
        let a = answered(f);
        assert_eq!(
            (a.bug.as_deref(), a.restart.as_deref()),
            (None, None),
            "{f}"
        );
    }
}

/// A node's KERNEL-VERSION changing between two printings of `-o wide` is another kernel booted,
/// a reboot (the kubelet reads the kernel's version at its start). No real paste of two such
/// printings was found (searched 2026-12-06: OS updates, kured, Flatcar, Bottlerocket, Talos,
/// node images); this is piraeus-operator#518's real header and node1 row, printed again with
/// the kernel of an update (`5.15.0-78` → `5.15.0-79`) and a later AGE.
#[test]
fn a_kernel_version_changing_between_printings_is_a_reboot() {
    let real = common::paste("25-");
    let mut lines = real.lines().skip_while(|l| !l.starts_with("NAME "));
    let (header, row) = (lines.next().unwrap(), lines.next().unwrap());
    assert!(row.starts_with("node1 ") && row.contains("5.15.0-78-generic"));
    let again = row
        .replace("5.15.0-78-generic", "5.15.0-79-generic")
        .replacen("8d ", "9d ", 1);
    let ev = read(&format!("{header}\n{row}\n{header}\n{again}\n"), 0).unwrap();
    let r: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| matches!(o.what, What::NodeRebooted(_)))
        .collect();
    assert_eq!(r.len(), 1, "{:#?}", ev.obs);
    assert_eq!(r[0].node.as_deref(), Some("node1"));
    let a = {
        use restartscope_evidence::explain::{answer, candidates, explain_for};
        let c = candidates(&ev.obs, None, None);
        answer(&ev.obs, explain_for(&ev.obs, &c, None), None).0
    };
    assert_eq!(a.restart.as_deref(), Some("node-reboot"));
    assert!(a
        .reasons
        .iter()
        .any(|r| r.contains("its KERNEL-VERSION changed between two printings")));
}
