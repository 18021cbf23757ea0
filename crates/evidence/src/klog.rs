//! The kubelet's log: klog lines (`I1201 10:00:00.123456    1234 file.go:123] "msg" k="v"`),
//! alone or behind journald's prefix (`Mar 08 19:24:47 host kubelet[202]: …`, also
//! `hyperkube[pid]` and `Jul 05 17:47:52.807876 host …`), and systemd's own lines about the
//! kubelet unit. Read: the kubelet starting ("Starting kubelet…", systemd "Started kubelet"),
//! its version (`"Kubelet version" kubeletVersion="v1.34.3"`, from `cmd/kubelet/app/server.go`),
//! stopping (systemd "Stopping kubelet"/"Stopped kubelet"), `"Probe failed"`, `"SyncLoop
//! (PLEG): event for pod"` (ContainerStarted / ContainerDied) and the status manager's
//! `"Patch status for pod"` (its patch's Ready condition and container statuses). klog has no
//! year: times are milliseconds since 1 January.

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
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

/// klog's header: (time, message after `] `).
fn header(l: &str) -> Option<(i64, &str)> {
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
    let (_file, msg) = rest.split_once("] ")?;
    Some((t, msg))
}

fn parse(l: &str) -> Option<Line<'_>> {
    if let Some((t, host, p, rest)) = journal(l) {
        return Some(match header(rest) {
            Some((t, msg)) => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg,
                klog: true,
            },
            None => Line {
                t_ms: t,
                host: Some(host),
                proc_: Some(p),
                msg: rest,
                klog: false,
            },
        });
    }
    header(l).map(|(t, msg)| Line {
        t_ms: t,
        host: None,
        proc_: None,
        msg,
        klog: true,
    })
}

pub(crate) fn looks_like(first: &str) -> bool {
    parse(first).is_some()
}

/// A Go-quoted string at the start of `s` (after the opening quote): its value and the rest.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// The value of `key=` in a structured klog message (quoted or bare).
fn value(msg: &str, key: &str) -> Option<String> {
    let pat = format!(" {key}=");
    let i = msg.find(&pat)? + pat.len();
    let rest = &msg[i..];
    match rest.strip_prefix('"') {
        Some(q) => quoted(q).map(|(v, _)| v),
        None => Some(rest.split(' ').next().unwrap_or("").to_string()),
    }
}

/// `ns/name` → `name`.
fn pod_name(v: &str) -> String {
    v.rsplit('/').next().unwrap_or(v).to_string()
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence {
        format: Format::Klog,
        absolute: true,
        obs: Vec::new(),
        unread: Vec::new(),
        skipped: 0,
        notes: Vec::new(),
        yearless: true,
    };
    let mut ready: BTreeMap<String, bool> = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        if raw.trim().is_empty() || is_comment(raw) {
            continue;
        }
        let Some(l) = parse(raw.trim_start()) else {
            ev.unread.push(Unread {
                line,
                file: 0,
                why: "not a klog line (I1201 10:00:00.123456 1234 file.go:1] …) nor a journald line (Mar 08 19:24:47 host kubelet[1]: …)".into(),
                text: cut(raw),
            });
            continue;
        };
        let by = Some(match l.host {
            Some(h) => format!("system:node:{h}"),
            None => "kubelet".to_string(),
        });
        let node = l.host.map(str::to_string);
        let mut push = |pod: Option<String>, what: What| {
            ev.obs.push(Obs {
                t_ms: l.t_ms,
                pod,
                node: node.clone(),
                what,
                by: by.clone(),
                line,
                file: 0,
            })
        };
        let m = l.msg;
        if !l.klog {
            let about_kubelet = m.contains("kubelet");
            if l.proc_ == Some("systemd") && about_kubelet && m.starts_with("Stopp") {
                push(None, What::KubeletStopped);
            } else if l.proc_ == Some("systemd") && about_kubelet && m.starts_with("Started") {
                push(None, What::KubeletStarted);
            } else {
                ev.skipped += 1;
            }
            continue;
        }
        let msg = m.strip_prefix('"').and_then(quoted).map(|(v, _)| v);
        let text = msg.as_deref().unwrap_or(m);
        if text.starts_with("Starting kubelet") || text == "Started kubelet" {
            push(None, What::KubeletStarted);
        } else if text == "Kubelet version" {
            // cmd/kubelet/app/server.go, run(): logger.Info("Kubelet version", "kubeletVersion", …),
            // logged once at every start.
            match value(m, "kubeletVersion") {
                Some(v) => push(None, What::KubeletVersion(v)),
                None => ev.skipped += 1,
            }
        } else if text == "Probe failed" {
            let kind = value(m, "probeType").unwrap_or_else(|| "a".into());
            push(
                value(m, "pod").map(|p| pod_name(&p)),
                What::ProbeFailed(kind),
            );
        } else if text == "SyncLoop (PLEG): event for pod" {
            let pod = value(m, "pod").map(|p| pod_name(&p));
            if m.contains("ContainerStarted") {
                push(pod, What::ContainerStarted);
            } else if m.contains("ContainerDied") {
                push(pod, What::ContainerDied);
            } else {
                ev.skipped += 1;
            }
        } else if text == "Patch status for pod" {
            let pod = value(m, "pod").map(|p| pod_name(&p));
            let patch: Option<J> = value(m, "patch").and_then(|p| serde_json::from_str(&p).ok());
            let r = patch.as_ref().and_then(|p| {
                p.get("status")?
                    .get("conditions")?
                    .as_array()?
                    .iter()
                    .find(|c| c.get("type").and_then(J::as_str) == Some("Ready"))?
                    .get("status")?
                    .as_str()
                    .map(|s| s == "True")
            });
            match (pod, r) {
                (Some(p), Some(r)) => {
                    let what = match ready.insert(p.clone(), r) {
                        None => What::ReadyAtStart(r),
                        Some(was) if was != r => What::ReadyChanged(r),
                        Some(_) => {
                            ev.skipped += 1;
                            continue;
                        }
                    };
                    push(Some(p), what);
                }
                (p, _) => push(p, What::StatusWritten),
            }
        } else {
            ev.skipped += 1;
        }
    }
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
