//! `systemctl status kubelet|crio|containerd` blocks, as real reports paste them above the
//! unit's journal lines: the header and keys are the unit's, `Active: … since T` is a start of
//! the unit at T (or its process's exit, for `failed` and `activating (auto-restart)`), and the
//! journal lines under it are read as the journal.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::{time, What};

/// kubeadm master after a reboot (CentOS 7): `Active: active (running) since Mon 2020-02-17
/// 13:09:39 UTC; 6s ago` is the kubelet's start; the prompt without its `[` is a command line;
/// the journal lines under it are the kubelet's. A kubelet start with no Ready change names no
/// bug.
#[test]
fn active_since_is_the_units_start() {
    let ev = read_paste("38-");
    assert_eq!(ev.format.as_str(), "kubelet log (klog)");
    let start: Vec<_> = ev
        .obs
        .iter()
        .filter(|o| o.what == What::KubeletStarted)
        .collect();
    assert_eq!(start.len(), 1, "{:?}", ev.obs);
    assert_eq!(start[0].line, 9);
    assert_eq!(start[0].t_ms, time::klog("0217", "13:09:39").unwrap());
    assert!(ev.notes[0].contains("a command line, skipped: 2) steven_rui_zhang"));
    // Only the journal line the search tool cut mid-prefix is not understood.
    assert_eq!(ev.unread.len(), 1, "{:?}", ev.unread);
    let a = answered("38-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// kubeadm after a reboot, every line indented four spaces: `activating (auto-restart)` is the
/// kubelet's process exited (systemd waits to start it again), then the journal's own start
/// and stop of the unit.
#[test]
fn auto_restart_is_the_units_exit() {
    let ev = read_paste("65-");
    let got: Vec<(usize, &What)> = ev.obs.iter().map(|o| (o.line, &o.what)).collect();
    assert_eq!(
        got,
        [
            (9, &What::KubeletStopped),
            (17, &What::KubeletStarted),
            (19, &What::KubeletStopped)
        ]
    );
    let a = answered("65-");
    assert_eq!((a.bug, a.restart), (None, None));
}

/// CRI-O failed to start after a node reboot (`Active: failed (Result: exit-code)`): the
/// runtime's unit, not the kubelet's; the runtime down is named, no bug.
#[test]
fn a_failed_runtime_unit_is_the_runtime_down() {
    let ev = read_paste("36-");
    assert_eq!(
        ev.format.as_str(),
        "container runtime log (containerd, CRI-O or dockerd journal)"
    );
    assert_eq!(ev.obs.len(), 1);
    assert_eq!(ev.obs[0].what, What::RuntimeStopped("CRI-O".into()));
    let a = answered("36-");
    assert_eq!(
        (a.bug, a.restart.as_deref()),
        (None, Some("runtime-restart"))
    );
}
