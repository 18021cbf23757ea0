//! Back-to-back kubelet restarts, as the code behaves across them, under every kubelet
//! profile the model has: a restart that begins while the previous one's effects are still
//! unfolding behaves as the code does.
//! - The kubelet's memory does not survive its process: probe workers, the status manager's
//!   cache and the first SyncPod of a start that is cut short never happen
//!   (`kubelet.go` `Run`/`syncLoop`, `prober_manager.go` `AddPod` from SyncPod).
//! - Pod Ready written False by the node lifecycle controller (`MarkPodsNotReady`) stays False
//!   until a kubelet that lives long enough probes the pod.
//! - The taint eviction timer starts again from the new taint: the node's return removed the
//!   NoExecute taint and cancelled every pending eviction (`taint_eviction.go`
//!   `handleNodeUpdate` → `cancelWorkItem`), the next outage taints the node again and
//!   `processPodOnNode` schedules `tolerationSeconds` from then.

mod common;
use common::*;
use restartscope_sim::*;

/// Every kubelet profile: each release with the legacy kubelet, and with KEP-4781 where it has it.
/// Every profile line from 1.31 on: 1.30 also posts node Ready=False at each start (K2n), which
/// `tests/other_restarts.rs` checks on its own.
fn profiles() -> Vec<(KubeVersion, Policy)> {
    KubeVersion::ALL
        .into_iter()
        .filter(|v| *v >= KubeVersion::V1_31)
        .flat_map(|v| {
            let kep = v.has_kep_4781().then_some((v, Policy::Kep));
            [Some((v, Policy::Legacy)), kep].into_iter().flatten()
        })
        .collect()
}

fn run_as(sc: &Scenario, v: KubeVersion, p: Policy) -> Trace {
    let sc = sc.clone().with_version(v).with_policy(p);
    simulate_policy(&sc, p).unwrap_or_else(|e| panic!("{v:?} {p:?}: {e:?}"))
}

fn within(tr: &Trace, kind: Kind, from_s: f64, to_s: f64) -> Vec<&Event> {
    tr.events
        .iter()
        .filter(|e| e.kind == kind && secs(e) > from_s && secs(e) < to_s)
        .collect()
}

fn restarts(sc: Scenario, list: &[(f64, f64)]) -> Scenario {
    let list: Vec<Restart> = list
        .iter()
        .map(|&(at_s, downtime_s)| Restart::new(at_s, downtime_s))
        .collect();
    sc.with_restarts(&list)
}

/// Stopped again 1 s after a return, before the first SyncPod (2 s after the start): that
/// start wrote nothing and probed nothing; the second return behaves as one restart does.
#[test]
fn a_stop_before_the_first_sync_pod_cuts_the_start_short() {
    let sc = restarts(canonical(20.0, 1), &[(100.0, 20.0), (121.0, 20.0)]);
    for (v, p) in profiles() {
        let tr = run_as(&sc, v, p);
        let who = format!("{v:?} {p:?}");
        for kind in [
            Kind::PodSync,
            Kind::Probe,
            Kind::StatusWrite,
            Kind::PodReady,
        ] {
            assert!(
                within(&tr, kind, 120.0, 141.0).is_empty(),
                "{who}: {kind:?} between the cut-short start and the next return"
            );
        }
        let syncs = within(&tr, Kind::PodSync, 141.0, 150.0);
        assert_eq!(
            syncs.len(),
            1,
            "{who}: one first SyncPod after the second return"
        );
        // The two 20 s outages with 1 s between them never let the lease expire.
        assert_eq!(count(&tr, Kind::TaintAdded), 0, "{who}");
        let changes = ready_changes(&tr);
        match p {
            // KEP-4781: the status the API holds is kept; nothing flaps.
            Policy::Kep => assert!(changes.is_empty(), "{who}: {changes:?}"),
            // Legacy: one flap, after the second return only.
            Policy::Legacy => {
                assert_eq!(changes.len(), 2, "{who}: {changes:?}");
                assert!(changes[0].0 > 141.0 && !changes[0].1, "{who}: {changes:?}");
                assert!(changes[1].1 && changes[1].2 == Actor::Kubelet, "{who}");
            }
        }
    }
}

/// A 70 s outage lets the node lifecycle controller write the pod NotReady; the kubelet comes
/// back and is stopped again 1 s later, before its first SyncPod: nothing changes the pod's
/// status until the second return, and what the kubelet writes then is what it writes after
/// one restart of a NotReady pod (the legacy kubelet's brief Ready of #135795 included).
#[test]
fn not_ready_from_the_controller_stays_through_a_cut_short_start() {
    let sc = restarts(canonical(70.0, 1), &[(100.0, 70.0), (171.0, 20.0)]);
    let one = canonical(70.0, 1).with_restarts(&[Restart::new(100.0, 70.0)]);
    for (v, p) in profiles() {
        let tr = run_as(&sc, v, p);
        let who = format!("{v:?} {p:?}");
        let changes = ready_changes(&tr);
        let (t_false, ready, by, _) = changes[0];
        assert!(
            !ready && by == Actor::NodeLifecycleController,
            "{who}: {changes:?}"
        );
        assert!(t_false > 100.0 && t_false < 170.0, "{who}: {changes:?}");
        let next = changes
            .get(1)
            .unwrap_or_else(|| panic!("{who}: {changes:?}"));
        assert!(
            next.0 > 191.0 && next.2 == Actor::Kubelet,
            "{who}: {changes:?}"
        );
        // After the second return the pod's story is the one-restart story, 21 s later.
        let lone = run_as(&one, v, p);
        let shifted: Vec<(bool, Actor, Rule)> = ready_changes(&lone)
            .into_iter()
            .skip(1)
            .map(|c| (c.1, c.2, c.3))
            .collect();
        let after: Vec<(bool, Actor, Rule)> =
            changes.iter().skip(1).map(|c| (c.1, c.2, c.3)).collect();
        assert_eq!(after, shifted, "{who}");
        // The node came back Ready at the first return and stayed Ready (20 s < grace).
        let node: Vec<f64> = events(&tr, Kind::NodeReady).into_iter().map(secs).collect();
        assert_eq!(node.len(), 2, "{who}: {node:?}");
        assert!(node[1] >= 170.0 && node[1] < 171.0, "{who}: {node:?}");
    }
}

/// The eviction timer runs from the NoExecute taint of the outage in progress: the return
/// cancels the first timer (62 s: a toleration that is a multiple of the 5 s monitor period
/// would fire in the same millisecond as the pass that removes the taint, a race the model
/// resolves for the eviction); the second outage's taint starts a new one, and the pod is evicted
/// `tolerationSeconds` after that taint, not after the first.
#[test]
fn the_eviction_timer_starts_again_with_the_next_taint() {
    let sc = restarts(
        canonical(100.0, 1).with_toleration(62.0),
        &[(100.0, 100.0), (205.0, 200.0)],
    );
    for (v, p) in profiles() {
        let tr = run_as(&sc, v, p);
        let who = format!("{v:?} {p:?}");
        let no_execute: Vec<f64> = events(&tr, Kind::TaintAdded)
            .into_iter()
            .filter(|e| e.value == Value::Taint(TaintEffect::NoExecute))
            .map(secs)
            .collect();
        assert_eq!(no_execute.len(), 2, "{who}: {no_execute:?}");
        assert!(
            no_execute[0] < 200.0 && no_execute[1] > 205.0,
            "{who}: {no_execute:?}"
        );
        let cancelled = events(&tr, Kind::EvictionCancelled);
        assert_eq!(cancelled.len(), 1, "{who}");
        assert!(
            (secs(cancelled[0]) - 200.0).abs() < 6.0,
            "{who}: at the return"
        );
        let evicted = events(&tr, Kind::Eviction);
        assert_eq!(evicted.len(), 1, "{who}");
        let dt = secs(evicted[0]) - no_execute[1];
        assert!(
            (dt - 62.0).abs() < 0.5,
            "{who}: evicted {dt} s after the second taint"
        );
        assert!(secs(evicted[0]) > no_execute[0] + 62.0 + 30.0, "{who}");
    }
}
