//! What stands around the output in real pastes — email and markdown quote marks, prose lines,
//! a lone row of a table — taken off or skipped and counted, and the rest read.

mod common;
use common::{answered, read_paste};
use restartscope_evidence::What;

/// A kubelet journal quoted in an email reply (every line `> `): read without the quote marks,
/// the kubelet's start by systemd and the boot id cAdvisor logs at it; said in the notes. A
/// kubelet start alone names no bug and no reboot.
#[test]
fn an_email_quote_is_read_without_its_marks() {
    let ev = read_paste("04-");
    assert_eq!(ev.format.as_str(), "kubelet log (klog)");
    assert!(ev.unread.is_empty(), "{:?}", ev.unread);
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::KubeletStarted && o.line == 5));
    assert!(ev
        .obs
        .iter()
        .any(|o| o.what == What::BootId("f74445fe-b0a4-4b42-9972-84c63accfc65".into())));
    assert!(ev
        .notes
        .iter()
        .any(|n| n.starts_with("5 lines quoted with '>'")));
    let a = answered("04-");
    assert_eq!((a.bug, a.restart), (None, None));
}
