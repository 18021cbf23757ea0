//! `klog::read`'s tests: lines as the kubelet, journald and collectors print them.
use super::*;
use crate::klog_says::value;

/// A `--logging-format=json` line and a "Pod was rejected" status patch, laid out as the
/// kubelet writes them (no real line of either was found in public reports): field names from
/// `prober.go` (`probeType`, `pod` as an object under JSON) and `status_manager.go`.
#[test]
fn json_line_and_rejected_patch() {
    let j = r#"{"ts":1700000000123.5,"caller":"prober/prober.go:107","msg":"Probe failed","v":0,"probeType":"Readiness","pod":{"name":"web-0","namespace":"default"},"containerName":"app","probeResult":"failure"}"#;
    let ev = read(j);
    assert_eq!(ev.obs[0].what, What::ProbeFailed("Readiness".into()));
    assert_eq!(ev.obs[0].pod.as_deref(), Some("web-0"));
    assert_eq!(ev.obs[0].t_ms, 1_700_000_000_123);
    assert!(!ev.yearless);
    let p = r#"I0319 10:00:00.000000    1234 status_manager.go:874] "Patch status for pod" pod="default/web-0" patch="{\"status\":{\"message\":\"Pod was rejected: Node didn't have enough resource: cpu\",\"phase\":\"Failed\",\"reason\":\"OutOfcpu\"}}""#;
    let ev = read(p);
    assert!(
        matches!(&ev.obs[0].what, What::PodMessage { reason, message } if reason == "OutOfcpu" && message.starts_with("Pod was rejected")),
        "{:?}",
        ev.obs
    );
    assert_eq!(ev.obs[1].what, What::PodPhase("Failed".into()));
}

/// A kind worker's kubelet journal (Kubernetes' own e2e of LeaderWorkerSet, March 2025, at
/// -v=4): the event recorder's "Started" echo, then the PLEG's ContainerStarted for the
/// sandbox and the container 0.34 s later: one start, not three.
#[test]
fn an_events_echo_and_the_kubelets_own_line_are_one() {
    let j = r#"Mar 16 04:31:22 kind-worker kubelet[202]: I0316 04:31:22.318990     202 event.go:389] "Event occurred" object="lws-e2e-thznm/lws-1" fieldPath="spec.containers{c}" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="Started container c"
Mar 16 04:31:22 kind-worker kubelet[202]: I0316 04:31:22.661747     202 kubelet.go:2506] "SyncLoop (PLEG): event for pod" pod="lws-e2e-thznm/lws-1" event={"ID":"4ba4f666-f410-4d32-a8c5-f961e3332096","Type":"ContainerStarted","Data":"0782dd0d297258a8f747621ef2b2e349c72bbede25c0d2740eb3eea125d0dbd7"}
Mar 16 04:31:22 kind-worker kubelet[202]: I0316 04:31:22.661920     202 kubelet.go:2506] "SyncLoop (PLEG): event for pod" pod="lws-e2e-thznm/lws-1" event={"ID":"4ba4f666-f410-4d32-a8c5-f961e3332096","Type":"ContainerStarted","Data":"f87c41877224033289de84a7c29c2d9d66f71ef7a88ec595780f882775ebc1d4"}"#;
    let ev = read(j);
    assert_eq!(ev.obs.len(), 1, "{:?}", ev.obs);
    assert_eq!(ev.obs[0].what, What::ContainerStarted);
    assert_eq!(ev.obs[0].pod.as_deref(), Some("lws-1"));
    assert_eq!(ev.obs[0].node.as_deref(), Some("kind-worker"));
    // Without the echo, the PLEG's two lines are both read, as before.
    let own: String = j.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(read(&own).obs.len(), 2);
}

/// `journalctl -o short-iso`, as replay's own refusals ask for it: kubernetes#122338's line
/// (paste 89) with the prefix short-iso prints instead of `Dec 15 17:25:41` (no real paste
/// of this format was found): the time has its year and zone, before systemd 248 as
/// `+0800`, after as `+08:00`.
#[test]
fn short_iso_journal_lines_have_their_year() {
    let msg = r#"single1 kubenswrapper[1832249]: I1215 17:25:41.121883 1832249 setters.go:549] "Node became not ready" node="single1" condition={Type:Ready Status:False LastHeartbeatTime:2023-12-15 17:25:41.121753163 +0800 CST m=+0.403692528 LastTransitionTime:2023-12-15 17:25:41.121753163 +0800 CST m=+0.403692528 Reason:KubeletNotReady Message:[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]}"#;
    for stamp in ["2023-12-15T17:25:41+0800", "2023-12-15T17:25:41+08:00"] {
        let ev = read(&format!("{stamp} {msg}"));
        assert!(!ev.yearless);
        assert_eq!(ev.obs.len(), 1, "{:?}", ev.obs);
        assert_eq!(
            ev.obs[0].t_ms,
            crate::time::rfc3339("2023-12-15T09:25:41Z").unwrap()
        );
        assert_eq!(ev.obs[0].node.as_deref(), Some("single1"));
        assert!(matches!(ev.obs[0].what, What::NodeNotReadyBecause(_)));
    }
}

#[test]
fn journal_and_bare_klog() {
    let l = parse(r#"Mar 08 19:24:47 kind-worker kubelet[202]: I0308 19:24:47.410550     202 pod_workers.go:638] "Pod is being removed by the kubelet, begin teardown" pod="default/test-term""#).unwrap();
    assert_eq!(l.host, Some("kind-worker"));
    assert!(l.klog);
    assert_eq!(value(l.msg, "pod").as_deref(), Some("default/test-term"));
    let l = parse(r#"I1220 03:18:01.710490    1233 prober.go:120] "Probe failed" probeType="Readiness" pod="kube-system/kube-apiserver-k8s-0""#).unwrap();
    assert_eq!(value(l.msg, "probeType").as_deref(), Some("Readiness"));
    assert!(parse("hello world").is_none());
}

/// The kubelet's version at its start before 1.21 (`server.go:416] Version: v1.20.2`), as a
/// kubeadm lab's `journalctl -u kubelet` printed it: the version, beside systemd's start.
#[test]
fn the_kubelets_version_before_structured_logging() {
    let j = "Jan 29 06:42:41 kworker2.mylab.com systemd[1]: Started kubelet: The Kubernetes Node Agent.\nJan 29 06:42:41 kworker2.mylab.com kubelet[26549]: I0129 06:42:41.387538   26549 server.go:416] Version: v1.20.2";
    let ev = read(j);
    assert_eq!(ev.obs.len(), 2, "{:?}", ev.obs);
    assert_eq!(ev.obs[0].what, What::KubeletStarted);
    assert_eq!(ev.obs[1].what, What::KubeletVersion("v1.20.2".into()));
    assert_eq!(ev.obs[1].node.as_deref(), Some("kworker2.mylab.com"));
}
