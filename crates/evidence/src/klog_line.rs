//! The lines of the logs `klog` reads, as written: klog's header (`I1201 10:00:00.123456 1234
//! file.go:123] …`), journald's prefixes (`Mar 08 19:24:47 host kubelet[202]: …`, `-o short-iso`),
//! a syslog priority, a collector's host or a line number before them, `--logging-format=json`,
//! docker's json-file lines, and logrus or slog lines whose writer they name. Called by `klog`
//! (and `dispatch` to detect a log); what a line says is `klog_says`'.

use crate::time;
use crate::unit_status;
use serde_json::Value as J;

pub(crate) struct Line<'a> {
    pub t_ms: i64,
    pub host: Option<&'a str>,
    /// The process (`kubelet`, `systemd`, `hyperkube`) when journald names it.
    pub proc_: Option<&'a str>,
    /// klog's message and key/values, or the whole text after the journal prefix.
    pub msg: &'a str,
    pub klog: bool,
    /// klog's source file (`prober.go`, `node_lifecycle_controller.go`).
    pub src: &'a str,
    /// Its time has a year (`-o short-iso`): since the epoch, not since 1 January.
    pub dated: bool,
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

/// A logrus or slog line from its `time=` on, behind `kubectl logs --timestamps`' stamp or none.
pub(crate) fn from_time(l: &str) -> Option<&str> {
    let i = l.find("time=")?;
    l[..i]
        .chars()
        .all(|c| c.is_ascii_digit() || "-:TZ. +".contains(c))
        .then(|| &l[i..])
}

/// A logrus or slog line a daemon wrote to its own file or pod log, outside the journal
/// (`time="2017-05-16T03:51:42.080060018-07:00" level=error msg="…"`; slog: `time=2025-03-03T10
/// :15:30.123Z level=INFO msg="…"`), `kubectl logs --timestamps`' stamp before it or not, whose
/// writer its message names: moby's `libcontainerd` (dockerd's words about its containerd,
/// "libcontainerd: new containerd process, pid: 21580"), or kured's messages (`kured`) and the
/// commands it runs (`cmd=/usr/bin/kubectl`). (time since the epoch, the writer, the line from
/// `time=` on.) Another writer's line is not read.
pub(crate) fn logrus(l: &str) -> Option<(i64, &'static str, &str)> {
    let line = from_time(l)?;
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
pub(crate) fn parse(l: &str) -> Option<Line<'_>> {
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
pub(crate) fn json_line(l: &str) -> Option<(i64, String, String)> {
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

/// Docker's json-file log driver's line (`/var/lib/docker/containers/ID/ID-json.log`, and
/// `/var/log/containers` on a dockershim node): `{"log":"I0901 00:25:09.311469 1 event.go:291]
/// …\n","stream":"stderr","time":"2021-09-01T00:25:09.311544102Z"}`: the klog line in `log`, at
/// docker's `time` (with its year): (time, message, source file).
pub(crate) fn docker_line(l: &str) -> Option<(i64, String, String)> {
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
