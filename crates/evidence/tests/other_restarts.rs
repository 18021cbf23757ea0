//! The other restarts a node goes through — a node reboot, a container runtime restart or outage,
//! an in-place kubelet upgrade that changes the container hash — read from real pastes and
//! answered as what they are, not as a kubelet bug. The fixtures quote public reports (the source
//! on each file's first line). No real 1.30→1.31 upgrade log with the kubelet's version lines was
//! found: the upgrade class is tested on kubernetes#84443's `definition changed` line (an
//! in-place 1.13→1.14 upgrade, the same mechanism), which names the spec-hash restart, not the hop.

use restartscope_evidence::explain::{answer, candidates, explain_for, signature, OtherRestart};
use restartscope_evidence::{merge, read, What};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn answered(files: &[&str]) -> restartscope_evidence::explain::Answer {
    let evs: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(i, f)| read(&data(f), i).unwrap())
        .collect();
    let obs = merge(&evs);
    let c = candidates(&obs, None, None);
    let v = explain_for(&obs, &c, None);
    answer(&obs, v, None).0
}

#[test]
fn rebooted_event_is_read_from_the_events_table_and_yaml() {
    let t = read(&data("100236-events-reboot.txt"), 0).unwrap();
    let r = t
        .obs
        .iter()
        .find(|o| matches!(o.what, What::NodeRebooted(_)))
        .expect("a Rebooted observation");
    assert_eq!(
        r.what,
        What::NodeRebooted("37f114e1-e547-4f58-b1f1-c16268f942cf".into())
    );
    assert_eq!(r.node.as_deref(), Some("i-w0msdm7d"));
    assert!(t.obs.iter().any(|o| o.what == What::KubeletStarted));
    let y = read(&data("134503-rebooted-event.yaml"), 0).unwrap();
    assert_eq!(
        y.obs[0].what,
        What::NodeRebooted("fda92249-bc38-49ea-b0c7-e664b214e43e".into()),
        "{:?}",
        y.obs
    );
}

#[test]
fn skipping_pod_synchronization_is_the_runtime_down() {
    let j = read(&data("101056-journal.txt"), 0).unwrap();
    assert!(
        matches!(&j.obs[0].what, What::RuntimeDown(m) if m.contains("PLEG is not healthy")),
        "{:?}",
        j.obs
    );
}

#[test]
fn a_node_reboot_is_answered_as_a_reboot() {
    for f in ["100236-events-reboot.txt", "134503-rebooted-event.yaml"] {
        let a = answered(&[f]);
        assert!(
            a.headline.starts_with("A node reboot explains this"),
            "{f}: {a:#?}"
        );
        assert_eq!(a.bug, None, "{f}");
        assert_eq!(a.restart.as_deref(), Some("node-reboot"), "{f}");
        assert!(
            a.reasons.iter().any(|r| r.contains("Rebooted event")),
            "{f}"
        );
    }
    // The reboot's run has the evidence's downtime: from the node's NotReady to the kubelet's
    // start (31 and 29 minutes before `kubectl get events`).
    let ev = read(&data("100236-events-reboot.txt"), 0).unwrap();
    let c = candidates(&ev.obs, None, None);
    let reboot = c
        .iter()
        .find(|c| c.restart == Some(OtherRestart::Node))
        .unwrap();
    assert_eq!(reboot.scenario.kubelet.restarts[0].downtime_s, 120.0);
}

#[test]
fn runtime_down_or_pleg_is_answered_as_a_runtime_restart() {
    for f in [
        "101056-journal.txt",
        "45419-journal.txt",
        "jupyter-et-13-describe-node.txt",
    ] {
        let a = answered(&[f]);
        assert!(
            a.headline.starts_with("A container runtime restart"),
            "{f}: {a:#?}"
        );
        assert_eq!(a.bug, None, "{f}");
        assert_eq!(a.restart.as_deref(), Some("runtime-restart"), "{f}");
    }
}

#[test]
fn definition_changed_is_answered_as_a_spec_hash_restart() {
    let a = answered(&["84443-journal.txt"]);
    assert!(
        a.headline
            .starts_with("A container-spec-hash restart explains this"),
        "{a:#?}"
    );
    assert_eq!(a.restart.as_deref(), Some("upgrade-1.30-to-1.31"));
    assert_eq!(a.bug, None);
}

/// Each restart scores only on its own signature: a bug's watch alone gives none of them a
/// point, and a reboot's events give the runtime and the upgrade none.
#[test]
fn each_restart_scores_only_on_its_signature() {
    let w = read(&data("113646-watch.txt"), 0).unwrap();
    for k in OtherRestart::ALL {
        assert_eq!(signature(k, &w.obs).score, 0.0, "{k:?}");
    }
    let a = answered(&["113646-watch.txt"]);
    assert_eq!(a.restart, None);
    assert_eq!(a.bug.as_deref(), Some("kubernetes#113646"));
    let r = read(&data("134503-rebooted-event.yaml"), 0).unwrap();
    assert_eq!(signature(OtherRestart::Runtime, &r.obs).score, 0.0);
    assert_eq!(signature(OtherRestart::Upgrade, &r.obs).score, 0.0);
}
