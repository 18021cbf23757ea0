//! kured's own log (the Kubernetes Reboot Daemon, `kubectl logs` of its DaemonSet's pod):
//! whether a line is kured's, and the reboot it commands. Called by `klog` for the logrus and
//! slog lines it reads. Mirrors kured's `cmd/kured/main.go` (`rebootAsRequired`,
//! `invokeReboot`) and `pkg/reboot` across its releases:
//! - 1.0–1.3: "Commanding reboot"; 1.4–1.6 (kured#134): "Commanding reboot for node: NODE";
//!   1.7–1.16: "Running command: [/usr/bin/nsenter -m/proc/1/ns/mnt -- /bin/systemctl reboot]
//!   for node: NODE"; the logrus rewrite and slog (1.17 on): "Triggering reboot for node NODE".
//!   Each is the reboot commanded: the node goes down right after ("Waiting for reboot" until
//!   kured's pod dies); a reboot command that fails ends kured (`log.Fatalf`) instead.
//! - After the reboot, a new kured finds it holds the lock ("Holding lock", "Uncordoning node",
//!   "Releasing lock"): an earlier kured on the node took the lock and did not release it, most
//!   often before the reboot it commanded, not always (kured#151: "No reboot was done in that
//!   log"). Not read as a reboot.

/// The starts of kured's messages, of every release (startup, lock, drain, reboot).
const MESSAGES: [&str; 26] = [
    "Kubernetes Reboot Daemon",
    "Starting Kubernetes Reboot Daemon",
    "Binding node-id command flag",
    "Node ID: ",
    "Lock Annotation: ",
    "Lock TTL",
    "Reboot Sentinel: ",
    "Reboot on: ",
    "Reboot schedule: ",
    "Reboot check command: ",
    "Reboot command: ",
    "Blocking Pod Selectors",
    "Holding lock",
    "Uncordoning node ",
    "Releasing lock",
    "Delaying lock release",
    "Reboot not required",
    "Reboot required",
    "Acquired reboot lock",
    "Lock already held",
    "Draining node ",
    "Commanding reboot",
    "Running command: ",
    "Triggering reboot",
    "Waiting for reboot",
    "Adding node ",
];

/// Whether a message (a logrus or slog line's `msg`) is kured's.
pub(crate) fn is_kured(msg: &str) -> bool {
    MESSAGES.iter().any(|m| msg.starts_with(m))
}

/// The reboot kured commands in this message: the node it names, if it names one, and what it
/// commanded in kured's words.
pub(crate) fn reboot(msg: &str) -> Option<(Option<String>, String)> {
    let node = |rest: &str| {
        let n = rest.trim().trim_matches('"');
        (!n.is_empty()).then(|| n.to_string())
    };
    if let Some(rest) = msg.strip_prefix("Commanding reboot") {
        return Some((
            rest.strip_prefix(" for node:").and_then(node),
            format!("kured: {msg}"),
        ));
    }
    if let Some(rest) = msg.strip_prefix("Triggering reboot for node") {
        return Some((node(rest), format!("kured: {msg}")));
    }
    // 1.7–1.16's `invokeReboot`: the reboot command (by default `systemctl reboot` through
    // nsenter), run for the node.
    if msg.starts_with("Running command: ") {
        let (cmd, rest) = msg.rsplit_once(" for node:")?;
        return Some((node(rest), format!("kured: {cmd} for node")));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reboot_commanded_by_each_release() {
        // kured#976 (1.7–1.16).
        let m = "Running command: [/usr/bin/nsenter -m/proc/1/ns/mnt -- /bin/systemctl reboot] for node: d2-pool1-fc962ed3-6m7j4";
        let (n, w) = reboot(m).unwrap();
        assert_eq!(n.as_deref(), Some("d2-pool1-fc962ed3-6m7j4"));
        assert!(w.starts_with("kured: Running command: [/usr/bin/nsenter"));
        assert_eq!(
            reboot("Commanding reboot for node: n1")
                .unwrap()
                .0
                .as_deref(),
            Some("n1")
        );
        assert_eq!(reboot("Commanding reboot").unwrap().0, None);
        assert_eq!(
            reboot("Triggering reboot for node w1")
                .unwrap()
                .0
                .as_deref(),
            Some("w1")
        );
        // After the reboot: kured's lock, not a reboot.
        for m in [
            "Holding lock",
            "Uncordoning node n1",
            "Releasing lock",
            "Reboot required",
        ] {
            assert!(is_kured(m));
            assert_eq!(reboot(m), None);
        }
        assert!(!is_kured("libcontainerd: new containerd process, pid: 1"));
    }
}
