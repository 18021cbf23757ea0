//! Events tables of every kubectl release, as real reports pasted them: kubectl 1.0's (2015:
//! dates for times, no TYPE, `{kubelet node}` sources, lower-case reasons), `describe`'s of the
//! same time, `get events -w` mixed with its generic printer's rows. Their columns are data
//! (`event_row::LAYOUTS`); what the rows say is `reasons.rs`'s.

mod common;
use common::{answered, paste, read_paste};
use restartscope_evidence::{read, time, What};

fn whats(name: &str) -> Vec<(usize, What)> {
    read_paste(name)
        .obs
        .into_iter()
        .map(|o| (o.line, o.what))
        .collect()
}

/// 2015 describe rows without their header, tab-separated (`killing`, `created`, `started`):
/// read with describe's columns before 1.5, at their own dates, on a pod unnamed (the
/// SubobjectPath is a container's). Container restarts by the kubelet: no bug, no restart.
#[test]
fn kubectl_1_0_describe_rows_with_tabs() {
    let ev = read_paste("15-");
    assert_eq!(ev.format.as_str(), "kubectl get events (table)");
    assert!(ev.absolute);
    assert_eq!(
        whats("15-"),
        [
            (4, What::ContainerDied),
            (6, What::ContainerStarted),
            (7, What::ContainerDied)
        ]
    );
    assert_eq!(
        ev.obs[0].t_ms,
        time::rfc1123z("Tue, 07 Apr 2015 12:08:30 -0700").unwrap()
    );
    assert!(ev.notes.iter().any(|n| n.contains(
        "read with kubectl's columns FIRST SEEN LAST SEEN COUNT FROM SUBOBJECT REASON MESSAGE"
    )));
    let a = answered("15-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// kubectl 1.0's `get events` (FIRSTSEEN … KIND SUBOBJECT REASON SOURCE MESSAGE, dates, no
/// TYPE): every row understood — the node controller's `created` of three nodes — and none
/// about what replay follows: refused as holding nothing, not as not understood.
#[test]
fn kubectl_1_0_get_events_rows_are_understood() {
    let e = read(&paste("18-"), 0).unwrap_err();
    assert!(
        e.message.contains("holds nothing about pods")
            && e.message.contains("its 3 lines are about other things"),
        "{e:?}"
    );
}

/// `describe minions` (2015): its node conditions' LastProbeTime make it a node; `starting`
/// "Starting kubelet." is the kubelet's start, on that node, at its date.
#[test]
fn kubectl_1_0_describe_minion() {
    let ev = read_paste("19-");
    let start: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::KubeletStarted)
        .collect();
    assert_eq!(start.len(), 1);
    assert_eq!(
        start[0].node.as_deref(),
        Some("kubernetes-minion-agug.c.golden-system-455.internal")
    );
    assert_eq!(
        start[0].t_ms,
        time::rfc1123z("Thu, 26 Mar 2015 15:39:53 -0700").unwrap()
    );
}

/// describe's 2015 events with the reporter's `<SNIP>` between rows: the elisions skipped and
/// said, the three `killing` rows read.
#[test]
fn snipped_rows_are_elisions() {
    let ev = read_paste("55-");
    assert_eq!(
        ev.obs
            .iter()
            .filter(|o| o.what == What::ContainerDied)
            .count(),
        3
    );
    assert_eq!(
        ev.notes
            .iter()
            .filter(|n| n.contains("an elision, skipped: <SNIP>"))
            .count(),
        3
    );
}

/// `kubectl get events -w` that went on with its generic printer (`NAME AGE`): those rows are
/// skipped and said; the table's own rows (Pulled, Created) are about other things.
#[test]
fn a_watch_mixed_with_generic_rows() {
    let e = read(&paste("58-"), 0).unwrap_err();
    assert!(
        e.message.contains("holds nothing about pods") && !e.message.contains("not understood"),
        "{e:?}"
    );
}
