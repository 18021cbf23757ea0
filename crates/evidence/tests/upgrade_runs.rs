//! An in-place kubelet upgrade beside the model's run of it: where the model knows both
//! releases the run drawn is that upgrade (the scenario's `cluster.version` and `upgrade_to`)
//! and the answer says what the model's upgrade does to the containers; outside its releases
//! the run is the nearest it has, named, and the answer says the model cannot tell. The tables
//! are laid out as `kubectl get nodes -w` prints them (no real paste of an in-range upgrade was
//! found; the out-of-range one, sealos's, is pinned in `real_pastes_nodes.rs`).

use restartscope_evidence::beside::beside;
use restartscope_evidence::explain::{answer, candidates, explain_for, OtherRestart};
use restartscope_evidence::read;
use restartscope_sim::KubeVersion;

fn table(from: &str, to: &str) -> String {
    format!("NAME   STATUS   ROLES    AGE   VERSION\nn1     Ready    <none>   5d    {from}\nn2     Ready    <none>   5d    {from}\nn1     Ready    <none>   5d    {to}\n")
}

struct Replayed {
    headline: String,
    restart: Option<String>,
    run: (KubeVersion, Option<KubeVersion>),
    drawn: Vec<String>,
}

fn replay(from: &str, to: &str) -> Replayed {
    let ev = read(&table(from, to), 0).unwrap();
    let obs = ev.obs.clone();
    let c = candidates(&obs, None, None);
    let up = c
        .iter()
        .find(|c| c.restart == Some(OtherRestart::Upgrade))
        .unwrap();
    let run = (
        up.scenario.cluster.version,
        up.scenario.kubelet.restarts[0].upgrade_to,
    );
    let (a, v) = answer(&obs, explain_for(&obs, &c, None), None);
    let b = beside(&[ev], &obs, &c, &v).unwrap();
    Replayed {
        headline: a.headline,
        restart: a.restart,
        run,
        drawn: b.names,
    }
}

#[test]
fn an_upgrade_the_model_knows_is_drawn_as_that_upgrade() {
    let r = replay("v1.34.2", "v1.35.0");
    assert_eq!(r.restart.as_deref(), Some("upgrade-1.34.2-to-1.35"));
    assert_eq!(
        r.run,
        (
            KubeVersion::parse("1.34.2").unwrap(),
            Some(KubeVersion::V1_35)
        )
    );
    assert!(
        r.drawn[0].contains("(upgrade-1.34.2-to-1.35)"),
        "{:?}",
        r.drawn
    );
    assert!(
        r.headline.contains(
            "node n1's kubelet went from v1.34.2 (line 2) to v1.35.0 (line 4), so it restarted"
        ),
        "{}",
        r.headline
    );
    assert!(
        r.headline.contains(
            "In the model's upgrade from 1.34.2 to 1.35, drawn beside, the containers keep running"
        ),
        "{}",
        r.headline
    );
    let r = replay("v1.30.4", "v1.31.2");
    assert_eq!(r.restart.as_deref(), Some("upgrade-1.30-to-1.31.2"));
    assert!(
        r.headline.contains("In the model's upgrade from 1.30 to 1.31.2, drawn beside, every container restarts too"),
        "{}",
        r.headline
    );
}

#[test]
fn an_upgrade_from_outside_the_model_is_drawn_as_the_nearest_and_said_so() {
    let r = replay("v1.29.4", "v1.31.2");
    assert_eq!(r.restart.as_deref(), Some("upgrade-1.30-to-1.31.2"));
    for said in [
        "it cannot say from v1.29.4's code",
        "the nearest run it has, upgrade-1.30-to-1.31.2 (its oldest release is 1.30)",
    ] {
        assert!(r.headline.contains(said), "{said}: {}", r.headline);
    }
    // A downgrade (a rollback) is said so; the model runs upgrades only, so beside it is the
    // upgrade between the same two releases, where the containers fare alike (kept: both
    // kubelets hash a container by its name and image), not 1.30 → 1.31's restarts.
    let r = replay("v1.35.0", "v1.34.2");
    for said in [
        "An in-place kubelet downgrade explains this: node n1's kubelet went from v1.35.0",
        "the containers keep running",
        "Drawn beside: upgrade-1.34.2-to-1.35 (the model runs upgrades only",
    ] {
        assert!(r.headline.contains(said), "{said}: {}", r.headline);
    }
    assert_eq!(r.restart.as_deref(), Some("upgrade-1.34.2-to-1.35"));
}
