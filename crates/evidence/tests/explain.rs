//! Upstream reports' observed sequences through `explain`: the right known bug first.

use restartscope_evidence::explain::{candidates, explain, explain_for};
use restartscope_evidence::read;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn top(text: &str) -> Vec<restartscope_evidence::explain::Verdict> {
    let ev = read(text, 0).unwrap();
    let c = candidates(&ev.obs, None, None);
    explain(&ev.obs, &c)
}

#[test]
fn report_113646_is_the_legacy_flap() {
    let v = top(&data("113646-watch.txt"));
    for x in v.iter().take(5) {
        eprintln!("{:5.1} {} | {}", x.score, x.candidate, x.why.join(" / "));
    }
    assert_eq!(
        v[0].preset.as_deref(),
        Some("report-113646-flap"),
        "{:#?}",
        &v[..3]
    );
    assert!(v[0].kubelet.contains("legacy"));
    assert!(v[0].fixed_in.as_deref().unwrap().starts_with("1.35"));
    // KEP-4781 kubelets write nothing: far behind.
    let kep = v
        .iter()
        .find(|x| x.preset.is_none() && x.kubelet.contains("KEP-4781"))
        .unwrap();
    assert!(kep.score < v[0].score - 30.0, "{kep:?}");
}

/// kubernetes#135795 gives no transcript: "pods that were NOT Ready before the restart [are]
/// briefly marked as Ready … we observed ~4 seconds". Its sequence as a watch would show it
/// (made up from the report's words: the NotReady pod's rows; the report says nothing of the
/// others).
pub const REPORT_135795: &str = "\
NAME    READY   STATUS    RESTARTS   AGE
web-2   0/1     Running   0          5m
web-2   1/1     Running   0          5m20s
web-2   0/1     Running   0          5m24s
";

#[test]
fn report_135795_is_the_legacy_notready_flip() {
    let v = top(REPORT_135795);
    for x in v.iter().take(5) {
        eprintln!("{:5.1} {} | {}", x.score, x.candidate, x.why.join(" / "));
    }
    assert_eq!(
        v[0].preset.as_deref(),
        Some("report-135795-notready-flip"),
        "{:#?}",
        &v[..3]
    );
}

/// kubernetes#136910: the stuck pod as `kubectl get pod,node -o yaml` shows it (composed from the
/// report's and the fix's words: see the fixture's first line). What a snapshot gives that a watch
/// would not: restartCount 0 beside a terminated container, and the node's kubeletVersion.
#[test]
fn report_136910_snapshot_is_the_kep_sidecar_bug_on_its_release() {
    let v = top(&data("136910-pod-node.yaml"));
    for x in v.iter().take(5) {
        eprintln!("{:5.1} {} | {}", x.score, x.candidate, x.why.join(" / "));
    }
    assert_eq!(
        v[0].preset.as_deref(),
        Some("report-136910-sidecar-startup"),
        "{:#?}",
        &v[..3]
    );
    assert!(v[0].kubelet.contains("KEP-4781"));
    assert!(v[0].fixed_in.as_deref().unwrap().contains("1.35.4"));
    // A release the node does not run is marked down and says why.
    let other = v
        .iter()
        .find(|x| x.candidate == "1.36 · default (KEP-4781)")
        .unwrap();
    assert!(
        other
            .why
            .iter()
            .any(|w| w.contains("v1.35.0") && w.contains("not this release")),
        "{other:?}"
    );
    // The legacy NotReady flip ends NotReady too, but has no container exit.
    let flip = v
        .iter()
        .find(|x| x.preset.as_deref() == Some("report-135795-notready-flip"))
        .unwrap();
    assert!(flip.score < v[0].score, "{flip:?}");
    assert!(
        flip.why.iter().any(|w| w.contains("container exit")),
        "{flip:?}"
    );
}

/// kubernetes#125397: written from the report's words (COMPOSED, see the fixture; the report's
/// thread in the issues corpus holds a manifest, one condition and `systemctl status kubelet`,
/// no watch): the startup probe's rerun
/// keeps the pod NotReady for tens of seconds, which a 1 s flap (#113646) does not explain.
#[test]
fn report_125397_is_the_legacy_startup_rerun() {
    let v = top(&data("125397-watch.txt"));
    for x in v.iter().take(5) {
        eprintln!("{:5.1} {} | {}", x.score, x.candidate, x.why.join(" / "));
    }
    assert_eq!(
        v[0].preset.as_deref(),
        Some("report-125397-startup-rerun"),
        "{:#?}",
        &v[..3]
    );
    let flap = v
        .iter()
        .find(|x| x.preset.as_deref() == Some("report-113646-flap"))
        .unwrap();
    assert!(flap.score < v[0].score - 15.0, "{flap:?}");
    // #141473's replaced container would show in RESTARTS, which stays 0.
    let replaced = v
        .iter()
        .find(|x| x.preset.as_deref() == Some("report-141473-replaced-during-partition"))
        .unwrap();
    assert!(replaced.score < v[0].score, "{replaced:?}");
}

/// The legacy kubelets of every release write the same sequence: without a version they are said
/// to be indistinguishable; with the reporter's (v1.25.3, older than the model's oldest line)
/// 1.31's legacy kubelet stands for it and the others are marked down.
#[test]
fn the_evidence_version_ranks_its_release_first() {
    let ev = read(&data("113646-watch.txt"), 0).unwrap();
    let c = candidates(&ev.obs, None, None);
    let v = explain(&ev.obs, &c);
    let legacy: Vec<_> = v
        .iter()
        .filter(|x| x.preset.is_none() && x.kubelet.contains("legacy"))
        .collect();
    assert!(legacy.len() > 3);
    assert!(legacy.iter().all(|x| x.score == legacy[0].score));
    assert!(legacy
        .iter()
        .all(|x| x.why.iter().any(|w| w.contains("indistinguishable"))));
    let v = explain_for(&ev.obs, &c, Some("v1.25.3"));
    let first = v.iter().find(|x| x.preset.is_none()).unwrap();
    assert_eq!(first.candidate, "1.31 · default (legacy)", "{first:?}");
    let l134 = v
        .iter()
        .find(|x| x.candidate == "1.34 · default (legacy)")
        .unwrap();
    assert!(l134.score <= first.score - 10.0, "{l134:?}");
    assert!(l134.why.iter().any(|w| w.contains("v1.25.3")), "{l134:?}");
    assert_eq!(v[0].preset.as_deref(), Some("report-113646-flap"));
    // The kubelet's own "Kubelet version" line does the same.
    let mut obs = ev.obs.clone();
    obs.extend(read(&data("kubelet-version-journal.txt"), 1).unwrap().obs);
    let v = explain(&obs, &c);
    let first = v.iter().find(|x| x.preset.is_none()).unwrap();
    assert_eq!(first.candidate, "1.34 · default (legacy)", "{first:?}");
}

/// kubernetes#142305 and #141473: sequences written from the reports' words (COMPOSED, see the
/// fixtures' first lines: the reports, found in the issues corpus by their titles and by "after
/// kubelet restart pod goes Ready … kubectl get pods -w", give a manifest and prose, no
/// transcript): the right bug first, far ahead of the next.
#[test]
fn reports_142305_and_141473_from_their_words() {
    for (file, preset, margin) in [
        ("142305-watch.txt", "report-142305-started-early", 40.0),
        (
            "141473-watch.txt",
            "report-141473-replaced-during-partition",
            25.0,
        ),
    ] {
        let v = top(&data(file));
        for x in v.iter().take(3) {
            eprintln!("{:5.1} {} | {}", x.score, x.candidate, x.why.join(" / "));
        }
        assert_eq!(
            v[0].preset.as_deref(),
            Some(preset),
            "{file}: {:#?}",
            &v[..3]
        );
        assert!(v[0].kubelet.contains("KEP-4781"), "{file}");
        assert!(v[1].score < v[0].score - margin, "{file}: {:#?}", &v[..2]);
    }
}

/// `kubectl get pod -o yaml --watch` (kubernetes#78733's way of watching) prints one document per
/// change: snapshots that differ are read as a sequence, the first as the state before.
#[test]
fn successive_snapshots_are_a_sequence() {
    let doc = |ready: &str, t: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: busybox-test-1\nstatus:\n  conditions:\n  - type: Ready\n    status: \"{ready}\"\n    lastTransitionTime: \"{t}\"\n  containerStatuses:\n  - name: busybox\n    restartCount: 0\n    state:\n      running:\n        startedAt: \"2022-11-05T10:00:00Z\"\n")
    };
    let text = [
        doc("True", "2022-11-05T10:00:05Z"),
        doc("False", "2022-11-05T10:04:00Z"),
        doc("True", "2022-11-05T10:04:01Z"),
    ]
    .join("---\n");
    let v = top(&text);
    assert_eq!(
        v[0].preset.as_deref(),
        Some("report-113646-flap"),
        "{:#?}",
        &v[..2]
    );
    assert!(v[0].why[0].contains("True→False→True"), "{:?}", v[0].why);
}

/// #113646's real transcript with the same flap in the kubelet's journal (made up: "Patch status
/// for pod" lines at wall-clock times, the shape `scripts/replay-scale.sh` writes): two files,
/// two clocks, one flap. Merged by time, the two files' Ready changes read True→False→True→
/// False→True and every candidate scored 40; a pod's Ready changes now come from one file (the
/// one that saw most), so the pair ranks as the transcript alone does.
#[test]
fn one_flap_in_two_files_is_one_flap() {
    use restartscope_evidence::merge;
    let watch = read(&data("113646-watch.txt"), 0).unwrap();
    let journal = "\
Dec 01 10:00:00 node-1 kubelet[2000]: I1201 10:00:00.000000    2000 status_manager.go:874] \"Patch status for pod\" pod=\"default/busybox-test-1\" podUID=\"u1\" patch=\"{\\\"status\\\":{\\\"conditions\\\":[{\\\"type\\\":\\\"Ready\\\",\\\"status\\\":\\\"True\\\"}]}}\"
Dec 01 10:00:01 node-1 systemd[1]: Stopping kubelet.service - kubelet: The Kubernetes Node Agent...
Dec 01 10:00:11 node-1 systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.
Dec 01 10:00:12 node-1 kubelet[2000]: I1201 10:00:12.000000    2000 status_manager.go:874] \"Patch status for pod\" pod=\"default/busybox-test-1\" podUID=\"u1\" patch=\"{\\\"status\\\":{\\\"conditions\\\":[{\\\"type\\\":\\\"Ready\\\",\\\"status\\\":\\\"False\\\"}]}}\"
Dec 01 10:00:13 node-1 kubelet[2000]: I1201 10:00:13.000000    2000 status_manager.go:874] \"Patch status for pod\" pod=\"default/busybox-test-1\" podUID=\"u1\" patch=\"{\\\"status\\\":{\\\"conditions\\\":[{\\\"type\\\":\\\"Ready\\\",\\\"status\\\":\\\"True\\\"}]}}\"
";
    let journal = read(journal, 1).unwrap();
    let alone = top(&data("113646-watch.txt"));
    let files = [watch, journal];
    let obs = merge(&files);
    let c = candidates(&obs, None, None);
    let both = explain(&obs, &c);
    assert_eq!(
        both[0].preset.as_deref(),
        Some("report-113646-flap"),
        "{:#?}",
        &both[..3]
    );
    assert_eq!(both[0].score, alone[0].score, "{:#?}", &both[..3]);
    assert!(both[0].score > 60.0, "{:#?}", &both[..3]);
    // Drawn the same way: the pod's observed lane has the one flap (two changes), not two.
    let b = restartscope_evidence::beside::beside(&files, &obs, &c, &both).unwrap();
    let lane = b.lanes.iter().find(|l| l.pod == "busybox-test-1").unwrap();
    let changes: Vec<bool> = lane
        .steps
        .iter()
        .filter(|s| s.kind == "changed")
        .map(|s| s.ready)
        .collect();
    assert_eq!(changes, [false, true], "{lane:?}");
}
