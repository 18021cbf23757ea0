//! `restarts`' unit tests.
use super::*;

fn v(score: f64, restart: Option<&str>) -> Verdict {
    Verdict {
        candidate: restart.unwrap_or("a bug").into(),
        kubelet: String::new(),
        preset: Some(restart.unwrap_or("report-x").into()),
        known_bug: restart.is_none().then(|| "kubernetes#1".into()),
        fixed_in: None,
        restart: restart.map(str::to_string),
        score,
        why: Vec::new(),
    }
}

fn boot(id: &str, line: usize, file: usize) -> Obs {
    Obs {
        t_ms: 0,
        pod: None,
        node: Some("n1".into()),
        what: What::BootId(id.into()),
        by: None,
        line,
        file,
    }
}

/// Two boot ids of one node that differ (two files read together) are a reboot between
/// them, as strong as the Rebooted event; one boot id says nothing.
#[test]
fn a_changed_boot_id_is_a_reboot() {
    let one = [boot("d79314e4", 21, 0)];
    assert_eq!(signature(OtherRestart::Node, &one).score, 0.0);
    let two = [boot("d79314e4", 21, 0), boot("f74445fe", 8, 1)];
    let s = signature(OtherRestart::Node, &two);
    assert_eq!(s.score, 70.0, "{:?}", s.why);
}

/// "container runtime is down" beside a PLEG last seen Go's largest duration ago is the
/// kubelet's first seconds (its PLEG has never relisted), not a runtime outage.
#[test]
fn a_pleg_that_never_relisted_is_no_outage() {
    let o = |m: &str| Obs {
        t_ms: 0,
        pod: None,
        node: None,
        what: What::RuntimeDown(m.into()),
        by: None,
        line: 4,
        file: 0,
    };
    let start = [o("container runtime is down PLEG is not healthy: pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s")];
    assert_eq!(signature(OtherRestart::Runtime, &start).score, 0.0);
    let down = [o("container runtime is down")];
    assert_eq!(signature(OtherRestart::Runtime, &down).score, 70.0);
}

/// Ties never favour a bug; a weaker signature, or one under `NAMED_AT`, is not named.
#[test]
fn named_only_on_a_signature_at_least_the_bugs() {
    let ranked = [v(80.0, None), v(80.0, Some("node-reboot"))];
    assert_eq!(named(&ranked, Some(80.0)), Some(1));
    assert_eq!(named(&ranked, Some(80.5)), None);
    let weak = [v(40.0, Some("runtime-restart"))];
    assert_eq!(named(&weak, None), None);
    assert_eq!(
        short(None, Some("upgrade-1.30-to-1.31")),
        "an in-place kubelet upgrade explains this"
    );
}

fn kubelet(v: &str, line: usize) -> Obs {
    Obs {
        t_ms: 0,
        pod: None,
        node: Some("n1".into()),
        what: What::KubeletVersion(v.into()),
        by: None,
        line,
        file: 0,
    }
}

/// A kubelet seen at an older release later is a downgrade (a rollback), said so; the run
/// beside is the upgrade between the same releases, and the containers' fate is the hash's:
/// kept from 1.31 on, restarted across 1.31 either way.
#[test]
fn a_rollback_is_a_downgrade_and_its_containers_fare_as_the_hash_says() {
    let obs = [kubelet("v1.35.2", 2), kubelet("v1.34.4", 5)];
    let h = OtherRestart::Upgrade.headline(&obs);
    assert!(
        h.starts_with("An in-place kubelet downgrade explains this: node n1's kubelet went from v1.35.2 (line 2) to v1.34.4 (line 5)"),
        "{h}"
    );
    assert!(h.contains("the containers keep running"), "{h}");
    assert_eq!(
        super::super::upgrade::run(&obs).unwrap().name(),
        "upgrade-1.34.4-to-1.35.2"
    );
    assert!(super::super::upgrade::why(&obs, 70.0)[0].contains("downgraded in place"));
    let across = [kubelet("v1.31.3", 2), kubelet("v1.30.8", 9)];
    let h = OtherRestart::Upgrade.headline(&across);
    assert!(h.contains("every container restarts too"), "{h}");
    assert!(h.contains("upgrade-1.30-to-1.31"), "{h}");
    // Two patches of one minor the model has as one release: its kubelet restarted.
    let patch = [kubelet("v1.30.2", 2), kubelet("v1.30.8", 5)];
    let h = OtherRestart::Upgrade.headline(&patch);
    assert!(
        h.starts_with("An in-place kubelet upgrade explains this"),
        "{h}"
    );
    assert!(
        h.contains("the containers keep running: the patches of one minor"),
        "{h}"
    );
    assert!(!h.contains("1.31"), "{h}");
    // An upgrade stays an upgrade.
    let up = [kubelet("v1.34.4", 2), kubelet("v1.35.2", 5)];
    assert!(OtherRestart::Upgrade
        .headline(&up)
        .starts_with("An in-place kubelet upgrade explains this"));
}
