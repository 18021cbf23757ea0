//! A node reboot the evidence only suggests — no Rebooted event — named with its strength from
//! real pastes, and never named where the paste does not show one: `kubectl get pods` whose
//! RESTARTS put every pod's last restart at one moment, pods the graceful node shutdown
//! terminated, the kubelet and kube-proxy starting together after the node's NotReady, several
//! pods' sandboxes changing at once.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::What;

fn restart_and_bug(name: &str) -> (Option<String>, Option<String>, String) {
    let a = answered(name);
    (a.restart, a.bug, a.strength)
}

/// k8s-snap after a reboot (`kubectl get pods -A`): cilium and its operator both last restarted
/// `(3m9s ago)`, the crash-looping multus on its own, every other pod not Ready without a
/// restart: a reboot, weak (inferred, no Rebooted event).
#[test]
fn pods_restarted_together_suggest_a_reboot() {
    let ev = read_paste("26-");
    let t: Vec<&What> = ev
        .obs
        .iter()
        .map(|o| &o.what)
        .filter(|w| matches!(w, What::RestartedTogether { .. }))
        .collect();
    assert_eq!(
        t,
        [&What::RestartedTogether {
            pods: 2,
            ago_ms: 189_000
        }]
    );
    let (restart, bug, strength) = restart_and_bug("26-");
    assert_eq!(
        (restart.as_deref(), bug),
        (Some("node-reboot"), None),
        "{strength}"
    );
    assert!(strength.ends_with(": weak"), "{strength}");
}

/// Pods whose RESTARTS do not say when (microk8s's kubectl: `2`), or where one pod restarted on
/// another node than the one rebooted (piraeus, `-o wide`): no moment is shown, no reboot named
/// — and no bug.
#[test]
fn restarts_without_one_moment_name_nothing() {
    for f in ["23-", "25-"] {
        let ev = read_paste(f);
        assert!(
            !ev.obs
                .iter()
                .any(|o| matches!(o.what, What::RestartedTogether { .. })),
            "{f}"
        );
        let (restart, bug, _) = restart_and_bug(f);
        assert_eq!((restart, bug), (None, None), "{f}");
    }
}

/// Graceful node shutdown (1.21, `STATUS Shutdown` in `kubectl get pods,nodes -o wide`): the
/// kubelet's node shutdown manager terminated the pods — the node was shutting down, moderate.
#[test]
fn pods_the_node_shutdown_terminated_name_a_reboot() {
    let ev = read_paste("74-");
    assert!(ev
        .obs
        .iter()
        .all(|o| o.pod.as_deref().is_none_or(|p| !p.starts_with("pod/"))));
    let shut = ev
        .obs
        .iter()
        .filter(|o| matches!(&o.what, What::PodMessage { reason, .. } if reason == "Shutdown"))
        .count();
    assert_eq!(shut, 2);
    let (restart, bug, strength) = restart_and_bug("74-");
    assert_eq!((restart.as_deref(), bug), (Some("node-reboot"), None));
    assert!(strength.ends_with(": moderate"), "{strength}");
}

/// gpud's `describe node` events: containerd refused the kubelet's GC, the node went NotReady,
/// and 41 minutes later the kubelet and kube-proxy started together: a reboot, weak — not the
/// runtime's restart (the outage ended in the kubelet's start).
#[test]
fn the_kubelet_and_kube_proxy_starting_after_notready_suggest_a_reboot() {
    let ev = read_paste("02-");
    assert!(ev.obs.iter().any(|o| o.what == What::ProxyStarted));
    assert!(ev
        .obs
        .iter()
        .any(|o| matches!(&o.what, What::RuntimeDown(m) if m.contains("containerd.sock"))));
    let a = answered("02-");
    assert_eq!(
        (a.restart.as_deref(), a.bug.as_deref()),
        (Some("node-reboot"), None)
    );
    assert!(a.strength.ends_with(": weak"), "{}", a.strength);
    assert!(a
        .reasons
        .iter()
        .any(|r| r.contains("kube-proxy started with it")));
}

/// With the kubelet's Rebooted event the reboot is strong (the events of the host shut down
/// and powered on, k3s's two boots).
#[test]
fn the_rebooted_event_is_strong() {
    for f in ["01-", "48-"] {
        let (restart, _, strength) = restart_and_bug(f);
        assert_eq!(restart.as_deref(), Some("node-reboot"), "{f}");
        assert!(strength.ends_with(": strong"), "{f}: {strength}");
    }
}

/// One pod's SandboxChanged (a CNI out of addresses, a runtime deadline), and the kubelet
/// restarted twice with no other agent: no reboot, no bug.
#[test]
fn one_pods_sandbox_or_kubelet_restarts_name_no_reboot() {
    for f in ["12-", "13-", "14-"] {
        let (restart, bug, _) = restart_and_bug(f);
        assert_eq!((restart, bug), (None, None), "{f}");
    }
    assert!(read_paste("14-")
        .obs
        .iter()
        .any(|o| o.what == What::SandboxChanged));
}

/// `describe node`'s System Info `Boot ID:` (kubectl 1.2, tabs) is read; one boot id alone says
/// nothing of a reboot (the runtime outage stays the answer).
#[test]
fn one_boot_id_is_read_and_names_no_reboot() {
    let ev = read_paste("09-");
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::BootId("d79314e4-112e-4942-a5b0-049893cf2592".into())));
    let (restart, bug, _) = restart_and_bug("09-");
    assert_eq!((restart.as_deref(), bug), (Some("runtime-restart"), None));
}

/// Control-plane pods that restarted hundreds of times over days (etcd unreachable): two last
/// restarts `(3d1h ago)` are known to the hour only, and the apiserver's is days apart — no
/// moment, no reboot, no bug.
#[test]
fn restarts_known_to_the_hour_are_no_moment() {
    let ev = read_paste("79-");
    assert!(!ev
        .obs
        .iter()
        .any(|o| matches!(o.what, What::RestartedTogether { .. })));
    let (restart, bug, _) = restart_and_bug("79-");
    assert_eq!((restart, bug), (None, None));
}

/// Reboots whose pastes do not show one by the kubelet's own signs: a kubelet start with the one
/// boot id it read (kubernetes#14408: the Rebooted event needs a boot id recorded before that
/// differs), systemd's status of a kubelet started seconds ago (kubernetes#88205, kubeadm#2499),
/// restart counts without one moment (microk8s#1520, piraeus#518). Nothing is named, and the
/// answer says why no restart kind explains it, with what a reboot would have shown.
#[test]
fn a_reboot_the_paste_does_not_show_is_unnamed_and_said_why() {
    for (f, says) in [
        ("04-", "one boot id (line 8) names no reboot"),
        ("04-", "the best, a node reboot, scores 10 of 100"),
        ("38-", "the kubelet started (line 9) (+10)"),
        ("65-", "the best, a node reboot, scores 10 of 100"),
        ("23-", "restart counts (5 pods, from line 6) say how often"),
        ("25-", "restart counts (2 pods, from line 20) say how often"),
    ] {
        let a = answered(f);
        assert_eq!((&a.restart, &a.bug), (&None, &None), "{f}");
        let why = a
            .reasons
            .iter()
            .find(|r| r.starts_with("no known restart kind explains this either"))
            .unwrap_or_else(|| panic!("{f}: {:?}", a.reasons));
        assert!(why.contains(says), "{f}: {why}");
    }
}
