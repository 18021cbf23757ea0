//! Kubelet journals as reporters paste them, beyond the kubelet's own lines: journalctl's lines
//! between entries, systemd's lines about the kubelet unit, the sync loop's probe results.
//! Samples quoted from public reports (sources in each file's first line).

use restartscope_evidence::{read, What};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// kubernetes/klog#411's lines (real): `"SyncLoop (probe)" probe="liveness" status="unhealthy"`
/// (kubelet.go, syncLoopIteration) is a failed liveness probe of default/test. Before, the file
/// was refused as holding "nothing about pods".
#[test]
fn syncloop_probe_is_a_probe_result() {
    let ev = read(&data("klog-411-probe.txt"), 0).unwrap();
    let w: Vec<(Option<&str>, &What, usize)> = ev
        .obs
        .iter()
        .map(|o| (o.pod.as_deref(), &o.what, o.line))
        .collect();
    assert_eq!(
        w,
        vec![(Some("test"), &What::ProbeFailed("Liveness".into()), 2)]
    );
    assert_eq!(ev.skipped, 1);
    // Readiness: "ready" is a success (not a failure), "" is the container set not ready.
    let ok = r#"I0617 12:46:23.668491  118528 kubelet.go:2447] "SyncLoop (probe)" probe="readiness" status="ready" pod="default/test""#;
    assert!(read(ok, 0).is_err());
    let not = r#"I0617 12:46:23.668491  118528 kubelet.go:2447] "SyncLoop (probe)" probe="readiness" status="" pod="default/test""#;
    assert_eq!(
        read(not, 0).unwrap().obs[0].what,
        What::ProbeFailed("Readiness".into())
    );
}

/// kubernetes#112874's `journalctl` (real): journalctl's "-- Logs begin at … --" is its own line,
/// passed over, not "not understood"; the kubelet lines (status manager, volumes) are about
/// other things, so the file is refused saying that, not that a line could not be read.
#[test]
fn journalctl_own_lines_are_not_the_kubelets() {
    let e = read(&data("112874-journal.txt"), 0).unwrap_err();
    assert!(
        e.message.contains("holds nothing about pods") && !e.message.contains("not understood"),
        "{}",
        e.message
    );
}

/// openebs/openebs#33's syslog (real): systemd's "kubelet.service: Main process exited,
/// code=exited, status=1/FAILURE" is the kubelet stopping (it failed at start: no kubeconfig).
#[test]
fn systemd_main_process_exited_is_a_kubelet_stop() {
    let ev = read(&data("openebs-33-syslog.txt"), 0).unwrap();
    let w: Vec<(&What, usize)> = ev.obs.iter().map(|o| (&o.what, o.line)).collect();
    assert_eq!(w, vec![(&What::KubeletStopped, 4)]);
    assert_eq!(ev.obs[0].node.as_deref(), Some("ubuntu-xenial"));
}

/// journalctl's "-- Reboot --" between two boots' entries: the host rebooted before the next
/// entry. COMPOSED: the marker inserted into kubernetes#108594's real lines — no kubelet journal
/// with the marker was found (find_string "-- Reboot --" finds other daemons' journals and
/// code comments).
#[test]
fn journalctl_reboot_marker_is_a_node_reboot() {
    let real = data("108594-journal.txt");
    let lines: Vec<&str> = real.lines().skip(1).collect();
    let text = format!("{}\n-- Reboot --\n{}\n", lines[0], lines[1..].join("\n"));
    let ev = read(&text, 0).unwrap();
    let r = ev
        .obs
        .iter()
        .find(|o| matches!(o.what, What::NodeRebooted(_)))
        .unwrap();
    assert_eq!((r.line, r.node.as_deref()), (2, Some("kind-worker")));
    assert_eq!(
        r.t_ms,
        ev.obs
            .iter()
            .find(|o| o.line == 3)
            .map_or(r.t_ms, |o| o.t_ms)
    );
}

/// `kubectl describe node` as reporters cut it (real, see the fixtures' first lines): starting
/// at `Taints:` (before: refused as "plain text"), its Conditions table found a node's by its
/// heartbeat columns, Ready Unknown "Kubelet stopped posting node status." read as the node
/// controller's write, the Lease's RenewTime as the last renewal, and an event with no message
/// (kube-proxy's `Starting`) not "not understood".
#[test]
fn describe_node_fragments() {
    use restartscope_evidence::{time::rfc3339, Format};
    let th = read(&data("describe-node-lease-th.txt"), 0).unwrap();
    assert_eq!(th.format, Format::Describe);
    let w: Vec<(&What, Option<&str>, i64)> = th
        .obs
        .iter()
        .map(|o| (&o.what, o.by.as_deref(), o.t_ms))
        .collect();
    assert_eq!(
        w,
        vec![
            (
                &What::LeaseRenewed,
                Some("kubelet"),
                rfc3339("2026-10-04T12:06:10Z").unwrap()
            ),
            (
                &What::NodeNotReadyBecause("Kubelet stopped posting node status.".into()),
                Some("node-controller"),
                rfc3339("2026-10-04T12:07:03Z").unwrap()
            ),
        ]
    );
    let ja = read(&data("describe-node-unknown-ja.txt"), 0).unwrap();
    assert!(ja.unread.is_empty(), "{:?}", ja.unread);
    assert!(ja.obs.iter().any(|o| o.what == What::KubeletStarted));
    assert!(ja.obs.iter().any(
        |o| matches!(&o.what, What::NodeNotReadyBecause(m) if m.starts_with("Kubelet stopped"))
    ));
}

/// A grepped describe (real, see the fixture): Events rows without their header, below a line
/// of the probe's spec. Refused before ("plain text"); the rows are read as describe's events.
#[test]
fn describe_event_rows_without_their_header() {
    let ev = read(&data("liveness-describe-grep-vi.txt"), 0).unwrap();
    assert_eq!(ev.format, restartscope_evidence::Format::Describe);
    let w: Vec<(&What, usize)> = ev.obs.iter().map(|o| (&o.what, o.line)).collect();
    assert_eq!(
        w,
        vec![
            (&What::ProbeFailed("Liveness".into()), 4),
            (&What::ContainerDied, 5)
        ]
    );
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
}
