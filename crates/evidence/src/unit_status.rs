//! `systemctl status UNIT` as reporters paste it above the unit's journal lines: systemd's
//! `● kubelet.service - kubelet: The Kubernetes Node Agent` header, its `Loaded:`, `Drop-In:`,
//! `Active:`, `Docs:`, `Main PID:`, `Process:`, `Tasks:`, `Memory:`, `CPU:` and `CGroup:` keys
//! (with the `└─` tree under them), then the last journal lines, which `klog` reads as the
//! journal they are. `Active:` says when the unit last changed state (systemd's
//! `print_status_info` in `systemctl-show.c`: `active (running) since Mon 2020-02-17 13:09:39
//! UTC; 6s ago`): a start of the unit at that time, or its process's exit for `failed`,
//! `inactive (dead)` and `activating (auto-restart)` (systemd waiting `RestartSec=` to start it
//! again).

use crate::time;

/// The header line: the unit's name without `.service` (`kubelet`, `containerd`, `crio`) and
/// its description. `●` (or `○` for an inactive unit, `×` for a failed one in newer systemd,
/// `*` where the terminal has no such glyph).
pub(crate) fn header(l: &str) -> Option<(&str, &str)> {
    let t = l.trim();
    let rest = ["● ", "○ ", "× ", "* "]
        .iter()
        .find_map(|g| t.strip_prefix(g))?;
    let (unit, description) = rest.split_once(".service - ")?;
    (!unit.is_empty() && !unit.contains(' ')).then_some((unit, description))
}

/// The header pasted without its glyph (flatcar#1157: `containerd.service - containerd container
/// runtime`), known by the `Loaded:` line systemctl prints under it.
pub(crate) fn bare_header<'a>(l: &'a str, next: Option<&str>) -> Option<(&'a str, &'a str)> {
    next.filter(|n| n.trim_start().starts_with("Loaded: "))?;
    let (unit, description) = l.trim().split_once(".service - ")?;
    (!unit.is_empty() && !unit.contains(' ')).then_some((unit, description))
}

/// The keys systemctl prints under the header (`Active` included).
const KEYS: [&str; 14] = [
    "Loaded",
    "Drop-In",
    "Active",
    "Docs",
    "Main PID",
    "Process",
    "Tasks",
    "Memory",
    "CPU",
    "CGroup",
    "Status",
    "TriggeredBy",
    "Triggers",
    "IP",
];

/// A line of the block under the header: one of its keys, the tree under `Drop-In:`/`CGroup:`,
/// or systemctl's own warning ("Warning: kubelet.service changed on disk …").
pub(crate) fn in_block(l: &str) -> bool {
    let t = l.trim();
    t.starts_with("└─")
        || t.starts_with("├─")
        || t.starts_with('│')
        || t.starts_with("Warning: ")
        || t.split_once(':')
            .is_some_and(|(k, _)| KEYS.contains(&k.trim()))
}

/// What `Active:` says: `Some((true, t))` for a unit started at `t` (`active (running) since
/// …`), `Some((false, t))` for its process exited at `t` (`failed`, `inactive (dead)`,
/// `activating (auto-restart)`); `t` in ms since 1 January, as journald's yearless times are (the
/// date's local time, its zone ignored as the journal lines beside it ignore it).
pub(crate) fn active(l: &str) -> Option<(bool, i64)> {
    let v = l.trim().strip_prefix("Active:")?.trim();
    let started = v.starts_with("active (running)");
    let exited = v.starts_with("failed")
        || v.starts_with("inactive (dead)")
        || v.starts_with("activating (auto-restart)");
    if !(started || exited) {
        return None;
    }
    // `since Mon 2020-02-17 13:09:39 UTC; 6s ago`
    let since = v.split_once(" since ")?.1;
    let mut w = since.split_whitespace();
    let (_day, date, hms) = (w.next()?, w.next()?, w.next()?);
    let mut d = date.split('-');
    let (_y, m, day) = (d.next()?, d.next()?, d.next()?);
    let t = time::klog(&format!("{m:0>2}{day:0>2}"), hms.trim_end_matches(';'))?;
    Some((started, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_active() {
        assert_eq!(
            header("● kubelet.service - kubelet: The Kubernetes Node Agent"),
            Some(("kubelet", "kubelet: The Kubernetes Node Agent"))
        );
        assert_eq!(header("kubelet.service - x"), None);
        let l = "containerd.service - containerd container runtime";
        let loaded = "     Loaded: loaded (/run/systemd/system/containerd.service; enabled; preset: disabled)";
        assert_eq!(
            bare_header(l, Some(loaded)),
            Some(("containerd", "containerd container runtime"))
        );
        assert_eq!(bare_header(l, Some("Active: active")), None);
        assert_eq!(bare_header(l, None), None);
        let (up, t) =
            active("   Active: active (running) since Mon 2020-02-17 13:09:39 UTC; 6s ago")
                .unwrap();
        assert!(up);
        assert_eq!(t, time::klog("0217", "13:09:39").unwrap());
        let (up, _) = active("     Active: activating (auto-restart) (Result: exit-code) since Wed 2021-06-02 18:47:22 CEST; 5s ago").unwrap();
        assert!(!up);
        assert!(in_block("           └─10-kubeadm.conf"));
        assert!(in_block(" Main PID: 1465 (code=exited, status=1/FAILURE)"));
        assert!(!in_block(
            "Feb 17 13:09:44 k8s-master-9828 kubelet[23200]: W0217"
        ));
    }
}
