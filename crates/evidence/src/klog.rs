//! The kubelet's log: klog lines (`I1201 10:00:00.123456    1234 file.go:123] "msg" k="v"`),
//! alone or behind journald's prefix (`Mar 08 19:24:47 host kubelet[202]: …`, also
//! `hyperkube[pid]` and `Jul 05 17:47:52.807876 host …`), and systemd's own lines about the
//! kubelet unit. Read: the kubelet starting ("Starting kubelet…", systemd "Started kubelet"),
//! its version (`"Kubelet version" kubeletVersion="v1.34.3"`, from `cmd/kubelet/app/server.go`),
//! stopping (systemd "Stopping kubelet"/"Stopped kubelet", "Main process exited"), a reboot
//! between two boots' entries (journalctl's "-- Reboot --"), `"Probe failed"`, `"SyncLoop
//! (PLEG): event for pod"` (ContainerStarted / ContainerDied) and the status manager's
//! `"Patch status for pod"` (its patch's Ready condition and container statuses), `"Skipping pod
//! synchronization"` (the runtime down or PLEG unhealthy). klog has no
//! year: times are milliseconds since 1 January.

use crate::klog_line::{docker_line, json_line, parse, Line};
pub(crate) use crate::klog_line::{
    is_docker_json_line, is_journalctl_note, is_json_line, logrus, looks_like,
};
use crate::klog_says::{controller_file, interpret};
use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use crate::unit_status;
use std::collections::BTreeMap;
/// The process an e2e framework line is said to come from.
const E2E: &str = "e2e.test";

/// Which unit a `systemctl status` header names: the kubelet's (`kubelet.service`, CentOS's
/// "Kubernetes Kubelet Server"), a runtime's (its name as said), or another.
fn unit_of(unit: &str, description: &str) -> Option<Option<&'static str>> {
    if unit == "kubelet" || description.contains("Kubelet") {
        return Some(None);
    }
    crate::runtime_log::RUNTIMES
        .iter()
        .find(|(names, ..)| names.contains(&unit))
        .map(|(.., said)| Some(*said))
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence::new(Format::Klog, true);
    ev.yearless = true;
    let mut ready: BTreeMap<String, bool> = BTreeMap::new();
    // kube-controller-manager's log: a line of the node lifecycle controller or the taint
    // eviction anywhere in it.
    let controller_log = text
        .lines()
        .filter_map(parse)
        .any(|l| controller_file(l.src) || l.proc_ == Some("kube-controller-manager"));
    let (mut kubelet_lines, mut controller_lines, mut json_lines) = (0, 0, 0);
    // Lines whose time has its year (`-o short-iso`, `--logging-format=json`).
    let mut dated_lines = 0;
    // The runtime's lines, and any line of the kubelet's (understood or not).
    let (mut runtime_lines, mut kubelet_seen) = (0, 0);
    // The e2e framework's lines, and the node its last one named.
    let mut e2e_lines = 0;
    // The last observations said, each with whether an event's echo said it: (time, echo,
    // node, pod, what).
    type Said = (i64, bool, Option<String>, Option<String>, What);
    let mut recent: Vec<Said> = Vec::new();
    // node-problem-detector's "New status generated" lines.
    let mut npd_lines = 0;
    // kured's lines (its pod's log).
    let mut kured_lines = 0;
    let mut e2e_node: Option<String> = None;
    // journalctl's own lines between the entries ("-- Logs begin at …", "-- No entries --", the
    // `-x` catalog's "-- Subject: …"): not the kubelet's. "-- Reboot --" (and "-- Boot ID --")
    // marks a new boot of the host: the next entry is after a node reboot.
    let mut reboot: Option<usize> = None;
    // Inside a `systemctl status` block: the unit's kind (`unit_of`), `None` for another unit.
    let mut status_of: Option<Option<Option<&'static str>>> = None;
    let all: Vec<&str> = text.lines().collect();
    for (n, raw) in all.iter().copied().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || is_comment(raw) || crate::e2e::is_step(raw) {
            continue;
        }
        // `systemctl status UNIT`: its header and keys, then its journal lines (read below).
        if let Some((unit, description)) = unit_status::header(raw)
            .or_else(|| unit_status::bare_header(raw, all.get(n + 1).copied()))
        {
            status_of = Some(unit_of(unit, description));
            ev.skipped += 1;
            continue;
        }
        if let Some(which) = status_of.filter(|_| unit_status::in_block(raw)) {
            let what = match (which, unit_status::active(raw)) {
                (Some(Some(rt)), Some((up, t))) => {
                    runtime_lines += 1;
                    let rt = rt.to_string();
                    Some((
                        t,
                        if up {
                            What::RuntimeStarted(rt)
                        } else {
                            What::RuntimeStopped(rt)
                        },
                    ))
                }
                (Some(None), Some((up, t))) => {
                    kubelet_seen += 1;
                    kubelet_lines += 1;
                    Some((
                        t,
                        if up {
                            What::KubeletStarted
                        } else {
                            What::KubeletStopped
                        },
                    ))
                }
                _ => None,
            };
            match what {
                Some((t_ms, what)) => ev.obs.push(Obs {
                    t_ms,
                    pod: None,
                    node: None,
                    what,
                    by: Some("systemd".into()),
                    line,
                    file: 0,
                }),
                None => ev.skipped += 1,
            }
            continue;
        }
        status_of = None;
        if is_journalctl_note(raw) {
            let t = raw.trim();
            if t == "-- Reboot --" || (t.starts_with("-- Boot ") && t.ends_with(" --")) {
                reboot = Some(line);
            }
            ev.skipped += 1;
            continue;
        }
        let owned = if is_json_line(raw.trim_start()) {
            json_line(raw)
        } else if is_docker_json_line(raw.trim_start()) {
            docker_line(raw)
        } else {
            None
        };
        // The same JSON behind journald's prefix (`… kubelet[5656]: {"ts":…}`): its `ts` is the
        // kubelet's own, with a year.
        let behind = match owned {
            None => parse(raw)
                .filter(|l| !l.klog && is_json_line(l.msg))
                .and_then(|l| Some((json_line(l.msg)?, l.host, l.proc_))),
            Some(_) => None,
        };
        let l = match (&owned, &behind) {
            (Some((t, msg, src)), _) | (None, Some(((t, msg, src), _, _))) => {
                json_lines += 1;
                let (host, proc_) = behind.as_ref().map_or((None, None), |b| (b.1, b.2));
                Line {
                    t_ms: *t,
                    host,
                    proc_,
                    msg,
                    klog: true,
                    src,
                    dated: true,
                }
            }
            (None, None) => match parse(raw).or_else(|| {
                crate::e2e::line(raw).map(|(t_ms, msg)| Line {
                    t_ms,
                    host: None,
                    proc_: Some(E2E),
                    msg,
                    klog: false,
                    src: "",
                    dated: false,
                })
            }) {
                Some(l) => l,
                None => {
                    ev.unread.push(Unread {
                        line,
                        file: 0,
                        why: "not a klog line (I1201 10:00:00.123456 1234 file.go:1] …), a journald line (Mar 08 19:24:47 host kubelet[1]: …) nor a --logging-format=json line".into(),
                        text: cut(raw),
                    });
                    continue;
                }
            },
        };
        dated_lines += usize::from(l.dated);
        if let Some(at) = reboot.take() {
            ev.obs.push(Obs {
                t_ms: l.t_ms,
                pod: None,
                node: l.host.map(str::to_string),
                what: What::NodeRebooted("journalctl: -- Reboot --".into()),
                by: Some("systemd-journald".into()),
                line: at,
                file: 0,
            });
        }
        // An event's echo in kube-controller-manager's log is the controller's (its event.go
        // is client-go's, as the kubelet's is).
        let echo = crate::klog_says::is_event_echo(l.msg);
        let controller = controller_file(l.src)
            || l.proc_ == Some("kube-controller-manager")
            || (echo && controller_log);
        let by = Some(match (controller, l.host) {
            (true, _) => "kube-controller-manager".to_string(),
            (false, Some(h)) => format!("system:node:{h}"),
            (false, None) => "kubelet".to_string(),
        });
        let node = match echo.then(|| crate::klog_says::event_node(l.msg)).flatten() {
            Some(n) => Some(n),
            None if controller => crate::klog_says::controller_node(l.msg),
            None => l.host.map(str::to_string),
        };
        let m = l.msg;
        if l.klog || matches!(l.proc_, Some("kubelet" | "hyperkube")) {
            kubelet_seen += 1;
        }
        // kured's own log: the reboot it commands, on the node it names.
        if l.proc_ == Some("kured") {
            kured_lines += 1;
            let msg = crate::klog_says::value(m, "msg").unwrap_or_default();
            if msg == "Holding lock" {
                ev.notes.push(format!("line {line}: kured held its lock at its start: an earlier kured on this node took it and did not release it, most often before the reboot it commanded, not always (kured#151): not read as a reboot"));
            }
            match crate::kured::reboot(&msg) {
                Some((named, why)) => ev.obs.push(Obs {
                    t_ms: l.t_ms,
                    pod: None,
                    node: named.or_else(|| node.clone()),
                    what: What::NodeRebooted(why),
                    by: Some("kured".into()),
                    line,
                    file: 0,
                }),
                None => ev.skipped += 1,
            }
            continue;
        }
        // The container runtime's own lines, and systemd's about its unit: not the kubelet's.
        // (A klog line behind dockerd's name is a containerized kubelet's or controller's.)
        if let Some(said) = crate::runtime_log::says(l.proc_, m).filter(|_| !l.klog) {
            runtime_lines += 1;
            match said {
                Some(what) => ev.obs.push(Obs {
                    t_ms: l.t_ms,
                    pod: None,
                    node: node.clone(),
                    what,
                    by: Some(l.proc_.unwrap_or("runtime").to_string()),
                    line,
                    file: 0,
                }),
                None => ev.skipped += 1,
            }
            continue;
        }
        // node-problem-detector's statuses: each event at the time of the journal line it
        // matched.
        if let Some((source, events)) = l.klog.then(|| crate::npd::status(m)).flatten() {
            npd_lines += 1;
            if events.is_empty() {
                ev.skipped += 1;
            }
            for (at, what) in events {
                let t_ms = at
                    .and_then(|(mmdd, hms)| time::klog(&mmdd, &hms))
                    .unwrap_or(l.t_ms);
                ev.obs.push(Obs {
                    t_ms,
                    pod: None,
                    node: node.clone(),
                    what,
                    by: Some(format!("node-problem-detector ({source})")),
                    line,
                    file: 0,
                });
            }
            continue;
        }
        let said: Vec<(Option<String>, What, Option<&'static str>)> = if l.proc_ == Some(E2E) {
            e2e_lines += 1;
            match crate::e2e::says(m) {
                // Said once until it changes (the framework polls every two seconds).
                // A line the paste cut short (`message: container runtime`) is the one before.
                Some((_, What::NodeNotReadyBecause(m)))
                    if ready.keys().any(|k| {
                        k.starts_with("\u{0}e2e ")
                            && k.contains(&format!("NodeNotReadyBecause(\"{m}"))
                    }) =>
                {
                    Vec::new()
                }
                // The kubelet restarted by the framework's ssh command: each time.
                Some((None, w)) => vec![(None, w, Some("e2e framework (its ssh command)"))],
                Some((Some(n), w))
                    if ready.insert(format!("\u{0}e2e {n} {w:?}"), true).is_none() =>
                {
                    e2e_node = Some(n);
                    vec![(None, w, Some("e2e framework (the node's condition)"))]
                }
                _ => Vec::new(),
            }
        } else if !l.klog {
            // "kubelet.service", "kubelet: The Kubernetes Node Agent", CentOS's "Kubernetes
            // Kubelet Server".
            // The distributions' units that run the kubelet in their own process: MicroK8s's
            // kubelite (`snap.microk8s.daemon-kubelite.service`), k3s's and rke2's.
            let about_kubelet = m.contains("kubelet")
                || m.contains("Kubelet Server")
                || m.contains("Kubernetes Kubelet")
                || m.contains("daemon-kubelite")
                || [
                    "k3s.service",
                    "k3s-agent.service",
                    "rke2-server.service",
                    "rke2-agent.service",
                ]
                .iter()
                .any(|u| m.contains(u))
                || m.contains("Lightweight Kubernetes");
            // systemd's unit lines: "Stopping/Stopped kubelet…", and the kubelet exiting on its
            // own ("kubelet.service: Main process exited, code=exited, status=1/FAILURE").
            if l.proc_ == Some("systemd")
                && about_kubelet
                && (m.starts_with("Stopp") || m.contains(": Main process exited"))
            {
                vec![(None, What::KubeletStopped, None)]
            } else if l.proc_ == Some("systemd") && about_kubelet && m.starts_with("Started") {
                vec![(None, What::KubeletStarted, None)]
            } else if let Some(why) = crate::klog_says::mcd_reboot(l.proc_, m) {
                vec![(None, What::NodeRebooted(why), Some("machine-config-daemon"))]
            } else if l.proc_ == Some("systemd-logind") && m.starts_with("System is rebooting") {
                // logind's own line as the host goes down for a reboot (`logind-dbus.c`).
                let why = "systemd-logind: System is rebooting.".to_string();
                vec![(None, What::NodeRebooted(why), Some("systemd-logind"))]
            } else {
                Vec::new()
            }
        } else {
            interpret(m, l.src, &mut ready)
        };
        if said.is_empty() {
            ev.skipped += 1;
            continue;
        }
        let node = e2e_node.take().or(node);
        // The event recorder's echo of an event (`"Event occurred"`, `Event(…)`) beside the
        // kubelet's own line of the same change ("Probe failed" and Unhealthy, the PLEG's
        // ContainerStarted and Started): one observation, not two.
        let said: Vec<_> = said
            .into_iter()
            .filter(|(pod, what, _)| {
                let twin = recent.iter().any(|(t, e, n, p, w)| {
                    *e != echo && l.t_ms - t <= 2_000 && *n == node && p == pod && w == what
                });
                recent.push((l.t_ms, echo, node.clone(), pod.clone(), what.clone()));
                if recent.len() > 64 {
                    recent.remove(0);
                }
                !twin
            })
            .collect();
        if said.is_empty() {
            ev.skipped += 1;
            continue;
        }
        for (pod, what, writer) in said {
            // (The e2e framework's lines are counted apart, above.)
            let e2e = l.proc_ == Some(E2E);
            // (A writer named by the line itself, as systemd-logind, is not a controller.)
            if !e2e && (writer.is_some_and(|w| w.contains("controller")) || controller) {
                controller_lines += 1;
            } else if !e2e {
                kubelet_lines += 1;
            }
            ev.obs.push(Obs {
                t_ms: l.t_ms,
                pod,
                node: node.clone(),
                what,
                by: writer.map(str::to_string).or_else(|| by.clone()),
                line,
                file: 0,
            });
        }
    }
    if npd_lines > 0 && kubelet_lines == 0 && controller_lines == 0 {
        ev.format = Format::NpdLog;
    }
    if kured_lines > 0 && kubelet_seen == 0 && runtime_lines == 0 {
        ev.format = Format::KuredLog;
    }
    if e2e_lines > 0 && kubelet_lines == 0 && controller_lines == 0 {
        ev.format = Format::E2eLog;
    }
    if (controller_lines > 0 || controller_log) && kubelet_lines == 0 {
        ev.format = Format::ControllerLog;
    }
    if runtime_lines > 0 && kubelet_seen == 0 && controller_lines == 0 {
        ev.format = Format::RuntimeLog;
    }
    if json_lines > 0 || dated_lines > 0 {
        // `ts` is seconds since the epoch, `-o short-iso` has the year and zone: these times
        // have their year.
        ev.yearless = false;
    }
    ev
}

#[cfg(test)]
#[path = "klog_tests.rs"]
mod tests;
