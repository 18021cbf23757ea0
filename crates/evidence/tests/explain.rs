//! Upstream reports' observed sequences through `explain`: the right known bug first.

use restartscope_evidence::explain::{candidates, explain};
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
