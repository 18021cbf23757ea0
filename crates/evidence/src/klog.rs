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

use crate::klog_says::{controller_file, interpret};
use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use crate::unit_status;
use serde_json::Value as J;
use std::collections::BTreeMap;

struct Line<'a> {
    t_ms: i64,
    host: Option<&'a str>,
    /// The process (`kubelet`, `systemd`, `hyperkube`) when journald names it.
    proc_: Option<&'a str>,
    /// klog's message and key/values, or the whole text after the journal prefix.
    msg: &'a str,
    klog: bool,
    /// klog's source file (`prober.go`, `node_lifecycle_controller.go`).
    src: &'a str,
    /// Its time has a year (`-o short-iso`): since the epoch, not since 1 January.
    dated: bool,
}

/// `journalctl -o short-iso`'s prefix (`2023-12-15T17:25:41+0800 host kubelet[1]: …`, with
/// `+08:00` and microseconds from systemd 248's `short-iso-precise`): (time since the epoch,
/// host, process, rest).
fn journal_iso(l: &str) -> Option<(i64, Option<&str>, &str, &str)> {
    let (stamp, rest) = l.split_once(' ')?;
    if !stamp.starts_with(|c: char| c.is_ascii_digit()) || !stamp.contains('T') {
        return None;
    }
    let t = time::rfc3339(stamp)?;
    let rest = rest.trim_start();
    // No host: `snap logs` prints `2023-12-16T04:14:34Z systemd[1]: …`.
    let (host, rest) = match rest.split_once(' ') {
        Some((h, _)) if h.ends_with("]:") => (None, rest),
        Some((h, r)) => (Some(h), r),
        None => return None,
    };
    let (proc_, rest) = rest.split_once(": ")?;
    let name = proc_.split('[').next().unwrap_or(proc_);
    Some((t, host, name, rest))
}

/// journald's prefix: (time, host, process, rest).
fn journal(l: &str) -> Option<(i64, &str, &str, &str)> {
    let mut it = l.splitn(6, ' ').filter(|x| !x.is_empty());
    let (mon, day, hms) = (it.next()?, it.next()?, it.next()?);
    let t = time::journal(mon, day, hms)?;
    let rest = l.split_once(hms)?.1.trim_start();
    let (host, rest) = rest.split_once(' ')?;
    let (proc_, rest) = rest.split_once(": ")?;
    let name = proc_.split('[').next().unwrap_or(proc_);
    Some((t, host, name, rest))
}

/// klog's header: (time, source file, message after `] `).
fn header(l: &str) -> Option<(i64, &str, &str)> {
    let b = l.as_bytes();
    if b.len() < 22 || !matches!(b[0], b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    let mmdd = l.get(1..5)?;
    let rest = l.get(5..)?.strip_prefix(' ')?;
    let (hms, rest) = rest.split_once(' ')?;
    let t = time::klog(mmdd, hms)?;
    let rest = rest.trim_start();
    let (pid, rest) = rest.split_once(' ')?;
    if !pid.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (file, msg) = rest.split_once("] ")?;
    Some((t, file.split(':').next().unwrap_or(file), msg))
}

/// A syslog priority forwarded with the line (`<30>Mar 19 …`).
fn strip_priority(l: &str) -> &str {
    match l.strip_prefix('<').and_then(|r| r.split_once('>')) {
        Some((p, rest)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => l,
    }
}

/// A logrus or slog line a daemon wrote to its own file or pod log, outside the journal
/// (`time="2017-05-16T03:51:42.080060018-07:00" level=error msg="…"`; slog: `time=2025-03-03T10
/// :15:30.123Z level=INFO msg="…"`), `kubectl logs --timestamps`' stamp before it or not, whose
/// writer its message names: moby's `libcontainerd` (dockerd's words about its containerd,
/// "libcontainerd: new containerd process, pid: 21580"), or kured's messages (`kured`) and the
/// commands it runs (`cmd=/usr/bin/kubectl`). (time since the epoch, the writer, the line from
/// `time=` on.) Another writer's line is not read.
pub(crate) fn logrus(l: &str) -> Option<(i64, &'static str, &str)> {
    let i = l.find("time=")?;
    if !l[..i]
        .chars()
        .all(|c| c.is_ascii_digit() || "-:TZ. +".contains(c))
    {
        return None;
    }
    let line = &l[i..];
    let rest = &line[5..];
    let stamp = match rest.strip_prefix('"') {
        Some(q) => q.split('"').next()?,
        None => rest.split(' ').next()?,
    };
    let t = time::rfc3339(stamp)?;
    if !line.contains(" level=") {
        return None;
    }
    // A message whose closing quote the paste lost (kured#976's "Waiting for reboot): to the end.
    let msg = crate::klog_says::value(line, "msg").or_else(|| {
        line.split_once(" msg=\"")
            .map(|(_, m)| m.trim_end().to_string())
    })?;
    let writer = if msg.starts_with("libcontainerd: ") {
        "dockerd"
    } else if crate::kured::is_kured(&msg)
        || crate::klog_says::value(line, "cmd")
            .is_some_and(|c| c.contains("kubectl") || c.contains("nsenter"))
    {
        "kured"
    } else {
        return None;
    };
    Some((t, writer, line))
}

fn parse_plain(l: &str) -> Option<Line<'_>> {
    if let Some((t, writer, line)) = logrus(l) {
        return Some(Line {
            t_ms: t,
            host: None,
            proc_: Some(writer),
            msg: line,
            klog: false,
            src: "",
            dated: true,
        });
    }
    // `-o short-iso`: the journal's own time, with its year and zone, for every line.
    if let Some((t, host, p, rest)) = journal_iso(l) {
        let (klog, src, msg) = match header(rest) {
            Some((_, src, msg)) => (true, src, msg),
            None => (false, "", rest),
        };
        return Some(Line {
            t_ms: t,
            host,
            proc_: Some(p),
            msg,
            klog,
            src,
            dated: true,
        });
    }
    if let Some((t, host, p, rest)) = journal(l) {
        return Some(match header(rest) {
            Some((t, src, msg)) => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg,
                klog: true,
                src,
                dated: false,
            },
            None => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg: rest,
                klog: false,
                src: "",
                dated: false,
            },
        });
    }
    header(l).map(|(t, src, msg)| Line {
        t_ms: t,
        host: None,
        proc_: None,
        msg,
        klog: true,
        src,
        dated: false,
    })
}

/// A klog or journald line, behind a syslog priority (`<30>`) or a per-line host prefix as
/// collectors and `pssh`/`ansible` print them (`10.0.0.3: I0319 …`).
fn parse(l: &str) -> Option<Line<'_>> {
    let l = strip_priority(l.trim_start());
    if let Some(x) = parse_plain(l) {
        return Some(x);
    }
    // A stray '[' before the line (a markdown link's bracket opened around the paste).
    if let Some(x) = l.strip_prefix('[').and_then(parse_plain) {
        return Some(x);
    }
    // A line number before it (`cat -n`, `nl`, a CI artifact's viewer: `   8916 Feb 22 …`).
    if let Some((n, rest)) = l.split_once([' ', '\t']) {
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            if let Some(x) = parse_plain(rest.trim_start()) {
                return Some(x);
            }
        }
    }
    let (host, rest) = l.split_once(": ")?;
    if host.is_empty() || host.contains(' ') || host.len() > 64 {
        return None;
    }
    let mut x = parse_plain(strip_priority(rest.trim_start()))?;
    x.host = x.host.or(Some(host));
    Some(x)
}

/// A `--logging-format=json` line (`ts` in ms or s since the epoch): (ms since the epoch, the message in klog's text form:
/// `"msg" key="value" …`, a `pod` object as `ns/name`).
fn json_line(l: &str) -> Option<(i64, String, String)> {
    let v: J = serde_json::from_str(l.trim()).ok()?;
    let o = v.as_object()?;
    let ts = o.get("ts")?.as_f64()?;
    let msg = o.get("msg")?.as_str()?;
    let caller = o
        .get("caller")
        .and_then(J::as_str)
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("")
        .to_string();
    let mut out = format!("{msg:?}");
    for (k, x) in o {
        if matches!(k.as_str(), "ts" | "msg" | "caller" | "v") {
            continue;
        }
        let val = match x {
            J::String(s) => s.clone(),
            J::Object(p) if p.contains_key("name") => format!(
                "{}/{}",
                p.get("namespace").and_then(J::as_str).unwrap_or(""),
                p.get("name").and_then(J::as_str).unwrap_or("")
            ),
            other => other.to_string(),
        };
        out.push_str(&format!(" {k}={val:?}"));
    }
    // component-base's JSON logger writes `ts` in milliseconds since the epoch
    // (zapcore.EpochMillisTimeEncoder); KEP-1602's examples show seconds: take either.
    let ms = if ts > 1e11 { ts } else { ts * 1000.0 };
    Some((ms as i64, out, caller))
}

/// A line journalctl writes between entries: "-- Logs begin at … --", "-- No entries --",
/// "-- Reboot --", and `-x`'s catalog ("-- Subject: Unit process exited", "-- ").
pub(crate) fn is_journalctl_note(l: &str) -> bool {
    let t = l.trim();
    t == "--" || t.starts_with("-- ")
}

/// OpenShift's Machine Config Daemon rebooting its node (machine-config-operator's
/// `pkg/daemon/update.go` `reboot`: `logSystem("initiating reboot: %s", rationale)`, "machine-config
/// -daemon initiating reboot: …" before 4.6), written to the journal through `logger` (`root[81741]:
/// machine-config-daemon[70704]: initiating reboot: …`) or as its own process: the words.
fn mcd_reboot(proc_: Option<&str>, m: &str) -> Option<String> {
    let mcd = proc_ == Some("machine-config-daemon") || m.starts_with("machine-config-daemon");
    let (_, why) = m.split_once("initiating reboot: ")?;
    mcd.then(|| format!("machine-config-daemon: initiating reboot: {why}"))
}

/// Docker's json-file log driver's line (`/var/lib/docker/containers/ID/ID-json.log`, and
/// `/var/log/containers` on a dockershim node): `{"log":"I0901 00:25:09.311469 1 event.go:291]
/// …\n","stream":"stderr","time":"2021-09-01T00:25:09.311544102Z"}`: the klog line in `log`, at
/// docker's `time` (with its year): (time, message, source file).
fn docker_line(l: &str) -> Option<(i64, String, String)> {
    let v: J = serde_json::from_str(l.trim()).ok()?;
    let o = v.as_object()?;
    let log = o.get("log")?.as_str()?.trim_end();
    let t = time::rfc3339(o.get("time")?.as_str()?)?;
    Some(match header(log) {
        Some((_, src, msg)) => (t, msg.to_string(), src.to_string()),
        None => (t, log.to_string(), String::new()),
    })
}

/// A line of docker's json-file log driver.
pub(crate) fn is_docker_json_line(first: &str) -> bool {
    first.starts_with("{\"log\":") && first.contains("\"stream\":") && first.contains("\"time\":")
}

/// A `--logging-format=json` kubelet line.
pub(crate) fn is_json_line(first: &str) -> bool {
    first.starts_with('{') && first.contains("\"ts\"") && first.contains("\"msg\"")
}

pub(crate) fn looks_like(first: &str) -> bool {
    parse(first).is_some()
        || is_json_line(first)
        || is_docker_json_line(first)
        || unit_status::header(first).is_some()
        || crate::e2e::line(first).is_some()
}

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
        if raw.trim().is_empty() || is_comment(raw) {
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
                Some((n, w)) if ready.insert(format!("\u{0}e2e {n} {w:?}"), true).is_none() => {
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
            } else if let Some(why) = mcd_reboot(l.proc_, m) {
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
