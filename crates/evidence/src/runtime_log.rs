//! The container runtime's own journal, and systemd's lines about its unit: containerd's,
//! CRI-O's and dockerd's (`containerd[2514]: time=… level=info msg="…"`, "Stopping containerd
//! container runtime..."), read for their stops and starts. Called by `klog::read` for each
//! journal line whose process is a runtime or systemd. Mirrors no Kubernetes file: the words are
//! the runtimes' (containerd's `cmd/containerd`, CRI-O's `server`, moby's `cmd/dockerd`) and
//! their units' descriptions.

use crate::types::What;

/// The runtimes whose units and processes the journal names, as (unit or process names, the
/// unit's systemd description, the name said).
pub(crate) const RUNTIMES: [(&[&str], &str, &str); 3] = [
    (
        &["containerd"],
        "containerd container runtime",
        "containerd",
    ),
    (
        &["crio", "cri-o"],
        "Container Runtime Interface for OCI (CRI-O)",
        "CRI-O",
    ),
    (
        // `dockerd-current`: RHEL's and CentOS's docker 1.13 package.
        &["dockerd", "docker", "dockerd-current"],
        "Docker Application Container Engine",
        "dockerd",
    ),
];

/// A line of the container runtime's own log, or of systemd about the runtime's unit: `None`
/// when it is neither; `Some(None)` for one that says no stop or start; `Some(Some(what))` for
/// a stop or a start. systemd names the unit (`containerd.service: …`) or its description
/// ("Stopping containerd container runtime..."); the runtime's own lines come from its process
/// (`containerd[2514]: time=… level=info msg="…"`). A unit's mount or scope
/// (`run-containerd-runc-k8s.io-….mount`) is not the runtime's unit.
pub(crate) fn says(proc_: Option<&str>, m: &str) -> Option<Option<What>> {
    let proc_ = proc_?;
    for (names, description, said) in RUNTIMES {
        if proc_ == "systemd" {
            let unit = names
                .iter()
                .any(|n| m.starts_with(&format!("{n}.service: ")));
            if !(unit || m.contains(description)) {
                continue;
            }
            let stops = m.starts_with("Stopping ")
                || m.starts_with("Stopped ")
                || m.contains(": Sent signal SIGTERM to main process")
                || m.contains(": Main process exited")
                || m.contains(": Failed with result")
                || m.contains(": State 'stop-sigterm' timed out");
            let starts = m.starts_with("Starting ")
                || m.starts_with("Started ")
                || m.contains("while starting unit");
            return Some(stop_or_start(stops, starts, said));
        }
        if names.contains(&proc_) {
            let msg = crate::klog_says::value(m, "msg").unwrap_or_else(|| m.to_string());
            let lower = msg.to_ascii_lowercase();
            if let Some(w) = dockerd_on_containerd(proc_, &lower, &msg) {
                return Some(Some(w));
            }
            let starts = lower.starts_with("starting containerd")
                || lower.starts_with("containerd successfully booted")
                || lower.starts_with("starting cri-o")
                || lower == "starting up";
            let stops = lower.starts_with("received signal to terminate")
                || lower.starts_with("stop cri service")
                || lower.starts_with("processing signal 'terminated'")
                || lower.starts_with("stopping containerd")
                || lower.starts_with("graceful shutdown");
            return Some(stop_or_start(stops, starts, said));
        }
    }
    None
}

/// dockerd about the containerd it runs on (moby's `libcontainerd/supervisor/remote_daemon.go`
/// `monitorDaemon`): its health check failing ("libcontainerd: containerd health check returned
/// error" before 2019, "daemon is not responding" since), its event stream or version call
/// refused ("transport is closing", "connection is unavailable"): containerd not answering; and
/// "killing and restarting containerd": dockerd restarting it; "new containerd process, pid: N"
/// (docker 1.13–17.x's `libcontainerd/remote_unix.go` `runContainerdDaemon`): dockerd started
/// it again.
fn dockerd_on_containerd(proc_: &str, lower: &str, msg: &str) -> Option<What> {
    if !matches!(proc_, "dockerd" | "docker" | "dockerd-current") || !lower.contains("containerd") {
        return None;
    }
    if lower.starts_with("killing and restarting containerd") {
        return Some(What::RuntimeStopped("containerd".into()));
    }
    if lower.starts_with("libcontainerd: new containerd process") {
        return Some(What::RuntimeStarted("containerd".into()));
    }
    let down = lower.contains("health check returned error")
        || lower.contains("daemon is not responding")
        || lower.contains("transport is closing")
        || lower.contains("connection is unavailable");
    down.then(|| {
        What::RuntimeDown(format!(
            "container runtime not answering: containerd, as dockerd says: {msg}"
        ))
    })
}

/// A runtime line's stop (first, if it says both) or start.
fn stop_or_start(stops: bool, starts: bool, runtime: &str) -> Option<What> {
    match (stops, starts) {
        (true, _) => Some(What::RuntimeStopped(runtime.to_string())),
        (false, true) => Some(What::RuntimeStarted(runtime.to_string())),
        _ => None,
    }
}
