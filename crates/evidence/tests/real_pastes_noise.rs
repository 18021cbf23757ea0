//! What stands around the output in real pastes — email and markdown quote marks, prose lines,
//! a lone row of a table — taken off or skipped and counted, and the rest read.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::What;

/// A kubelet journal quoted in an email reply (every line `> `): read without the quote marks,
/// the kubelet's start by systemd and the boot id cAdvisor logs at it; said in the notes. A
/// kubelet start alone names no bug and no reboot.
#[test]
fn an_email_quote_is_read_without_its_marks() {
    let ev = read_paste("04-");
    assert_eq!(ev.format.as_str(), "kubelet log (klog)");
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::KubeletStarted && o.line == 5));
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::BootId("f74445fe-b0a4-4b42-9972-84c63accfc65".into())));
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("5 lines quoted (an email or markdown quote")));
    let a = answered("04-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// A node's Ready condition pasted alone — its row without the table's header (PLEG), or its
/// Reason and Message only (the runtime down) — is the node's NotReady, written by the kubelet:
/// the runtime outage, moderate (the kubelet's words alone), and no bug.
#[test]
fn a_lone_ready_condition_is_the_nodes() {
    for (f, says) in [
        ("07-", "PLEG is not healthy"),
        ("42-", "container runtime is down"),
    ] {
        let ev = read_paste(f);
        assert_eq!(
            ev.format.as_str(),
            "kubectl describe (a snapshot and its events)"
        );
        assert!(
            ev.obs.iter().any(|o| o.pod.is_none()
                && o.by.as_deref() == Some("kubelet")
                && matches!(&o.what, What::NodeNotReadyBecause(m) if m.starts_with(says))),
            "{f}: {:?}",
            ev.obs
        );
        let a = answered(f);
        assert_eq!(
            (a.bug.as_deref(), a.restart.as_deref()),
            (None, Some("runtime-restart")),
            "{f}"
        );
        assert!(a.strength.ends_with(": moderate"), "{f}: {}", a.strength);
    }
}

/// A Conditions table trimmed of its time columns (`Type Status Reason Message`): its node
/// condition types make it a node's, its columns are its header's; Ready Unknown is the node
/// controller's "Kubelet stopped posting node status.", no bug.
#[test]
fn a_trimmed_conditions_table_is_read_by_its_header() {
    let ev = read_paste("68-");
    assert!(ev.obs.iter().any(|o| o.by.as_deref() == Some("node-controller")
        && matches!(&o.what, What::NodeNotReadyBecause(m) if m == "Kubelet stopped posting node status.")));
    let a = answered("68-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// A markdown bullet, a code fence, the command, then `kubectl get deploy,pod -o wide`: the
/// prose, the fence and the deployment's table are skipped and said; the pods are read (new pods
/// ContainerCreating beside running ones, no restart), no bug.
#[test]
fn prose_and_another_kinds_table_before_the_pods() {
    let ev = read_paste("75-");
    assert_eq!(ev.format.as_str(), "kubectl get pods -w");
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| matches!(o.what, What::ReadyAtStart(_)))
            .count(),
        7
    );
    assert!(ev.obs.iter().all(|o| o
        .pod
        .as_deref()
        .is_some_and(|p| p.starts_with("nginx-deployment-"))));
    assert!(ev
        .notes
        .iter()
        .any(|n| n.contains("a line above the output, skipped: - After node1 is back")));
    let a = answered("75-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// The e2e framework's log (a flake report; inside a prow build log): the node's Ready
/// condition as the test saw it, said once until it changes (a line the paste cut short is the
/// one before). "container runtime is down" is the runtime outage; the kubelet's "container
/// runtime status check may not have completed yet" (just started) names nothing.
#[test]
fn the_e2e_frameworks_view_of_the_node() {
    let ev = read_paste("10-");
    assert_eq!(
        ev.format.as_str(),
        "e2e test framework log (the node's conditions as the test saw them)"
    );
    assert_eq!(ev.obs.len(), 1, "{:?}", ev.obs);
    assert_eq!(
        ev.obs[0].node.as_deref(),
        Some("e2e-gce-master-1-minion-11ke")
    );
    let a = answered("10-");
    assert_eq!(
        (a.bug.as_deref(), a.restart.as_deref()),
        (None, Some("runtime-restart"))
    );
    let a = answered("69-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// One journal line pasted in markdown's inline code (`` ` Oct 28 … ` `` over two lines): read
/// without the marks; "definition changed, will be restarted" is a spec-hash restart (an
/// in-place kubelet upgrade, 1.13→1.14 here), weak on one line, and no bug.
#[test]
fn inline_code_marks_are_taken_off() {
    let ev = read_paste("22-");
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(ev.obs[0].what, What::SpecChanged("kube-proxy".into()));
    let a = answered("22-");
    assert_eq!(
        (a.bug.as_deref(), a.restart.as_deref()),
        (None, Some("upgrade-1.30-to-1.31"))
    );
    assert!(a
        .headline
        .starts_with("A container-spec-hash restart explains this"));
    assert!(a.strength.ends_with(": weak"), "{}", a.strength);
}

/// sudo's password prompt under `sudo kubectl …` (`[sudo] password for USER: `, its
/// `passprompt`): no real paste with one was found, so 26's real `sudo k8s kubectl get pods -A`
/// is taken with the prompt as sudo prints it put under its command. The prompt is skipped and
/// said, never taken for JSON, and the table reads as without it.
#[test]
fn sudos_password_prompt_is_skipped() {
    let real = common::paste("26-");
    let with: String = real
        .lines()
        .flat_map(|l| {
            let mut v = vec![l.to_string()];
            if l.starts_with("$ sudo k8s kubectl get pods -A") {
                v.push("[sudo] password for ubuntu: ".into());
            }
            v
        })
        .collect::<Vec<_>>()
        .join("\n");
    let a = restartscope_evidence::read(&real, 0).unwrap();
    let b = restartscope_evidence::read(&with, 0).unwrap();
    assert_eq!(a.format, b.format);
    assert_eq!(
        a.obs.iter().map(|o| &o.what).collect::<Vec<_>>(),
        b.obs.iter().map(|o| &o.what).collect::<Vec<_>>()
    );
    assert!(
        b.notes
            .iter()
            .any(|n| n.contains("sudo's password prompt, skipped")),
        "{:#?}",
        b.notes
    );
    // Above JSON (a real Event, `tests/data/event-tailer-nodenotready.json`): its `[` is not
    // the JSON's.
    let json = std::fs::read_to_string(format!(
        "{}/tests/data/event-tailer-nodenotready.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let a = restartscope_evidence::read(&json, 0).unwrap();
    let b = restartscope_evidence::read(&format!("[sudo] password for ubuntu: \n{json}"), 0)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(a.obs.len(), b.obs.len());
    assert_eq!(a.format, b.format);
}

/// A node's Ready row pasted alone and flush left (as moby#44300's reporter pasted theirs):
/// gesis-orc#21's real row (paste 07) without its two spaces of indent. Its message holds ": "
/// ("PLEG is not healthy: …"): still the row, not a `key: value` line.
#[test]
fn a_lone_ready_row_flush_left() {
    let real = common::paste("07-");
    let row = real.lines().nth(3).unwrap();
    assert!(row.starts_with("  Ready "));
    let ev = restartscope_evidence::read(row.trim_start(), 0).unwrap();
    assert_eq!(ev.obs.len(), 1, "{:#?}", ev.obs);
    assert!(
        matches!(&ev.obs[0].what, What::NodeNotReadyBecause(m) if m.starts_with("PLEG is not healthy"))
    );
}
