//! The kubelet's or the kernel's words out of any format replay reads (the kernel's ring buffer,
//! a Go stack dump, klog lines cut before their header, a kubelet message alone): what a line
//! is, said in full for a refusal and in short for an unread line of a file otherwise read; and
//! what any other line looks like, for a refusal. Called by `dispatch`. Mirrors no Kubernetes
//! file: the words are the kubelet's (`klog_says`) and the kernel's.

/// A line of the kernel's ring buffer as `dmesg` prints it: `[67489.513411] message`.
pub(crate) fn is_dmesg(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let Some((stamp, _)) = rest.split_once(']') else {
        return false;
    };
    let stamp = stamp.trim();
    stamp.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && !b.is_empty()
            && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// A line of a Go program's stack dump (a panic, a fatal error or SIGQUIT: every goroutine's
/// stack, as the kubelet prints when it crashes): `goroutine 19 [chan receive]:`, `main.main()`,
/// a frame's `/path/file.go:41 +0xe5`, `created by …`, `panic: …`.
fn is_go_dump(t: &str) -> bool {
    (t.starts_with("goroutine ") && t.ends_with("]:"))
        || t == "main.main()"
        || t.starts_with("created by ")
        || t.starts_with("panic: ")
        || t.starts_with("fatal error: ")
        || (t.contains(".go:")
            && t.rsplit_once(" +0x")
                .is_some_and(|(_, h)| h.bytes().all(|c| c.is_ascii_hexdigit())))
}

/// A klog line whose header was cut off before its source file (`kubelet.go:2267] node "n1" not
/// found`, `elet.go:2254] …`): the level, the date, the time and the process id are gone.
fn is_headless_klog(t: &str) -> bool {
    let Some((src, _)) = t.split_once("] ") else {
        return false;
    };
    let Some((file, line)) = src.rsplit_once(".go:") else {
        return false;
    };
    !line.is_empty()
        && line.bytes().all(|c| c.is_ascii_digit())
        && file
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'/')
}

/// A journal line without journald's time and host: a process name with its pid, then the
/// message (`systemd[1]: Stopping Docker Application Container Engine...`).
fn is_timeless_journal(t: &str) -> bool {
    let Some((proc_, rest)) = t.split_once("]: ") else {
        return false;
    };
    let Some((name, pid)) = proc_.split_once('[') else {
        return false;
    };
    !rest.is_empty()
        && !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_')
        && !pid.is_empty()
        && pid.bytes().all(|c| c.is_ascii_digit())
}

/// A message the kubelet logs about its runtime and PLEG, pasted without any klog header
/// (`kubelet.go` `syncLoop`: "skipping pod synchronization - [container runtime is down …]"):
/// the line starts with it (inside another format's row it is that row's).
fn is_bare_kubelet_message(t: &str) -> bool {
    [
        "skipping pod synchronization",
        "PLEG is not healthy",
        "container runtime is down",
        "Container runtime sanity check failed",
        "container runtime status check may not have completed yet",
    ]
    .iter()
    .any(|m| t.starts_with(m))
}

/// A line of logrus's text format as a Go daemon writes it to its own file or terminal, outside
/// the journal (`time="2017-05-16T03:51:42.080060018-07:00" level=error msg="libcontainerd: …"`:
/// dockerd, containerd before 1.5's default, kured): no process names its writer.
pub(crate) fn is_logrus(t: &str) -> bool {
    // `kubectl logs --timestamps`' stamp before it, or none; slog's time unquoted.
    crate::klog_line::from_time(t).is_some() && t.contains(" level=") && t.contains(" msg=")
}

/// The kubelet's or the kernel's words out of any format replay reads: what they are, said in
/// full for a refusal and in short for an unread line of a file that is otherwise read.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum OtherWords {
    Dmesg,
    GoDump,
    HeadlessKlog,
    /// A bare kubelet message; `true`: its PLEG has not relisted once since the start.
    BareKubelet(bool),
    /// journald's lines with their time and host cut off (`systemd[1]: Stopping …`,
    /// `dockerd[2076433]: time=… msg=…`), as `journalctl -o cat`-like copies print them.
    TimelessJournal,
    /// logrus's `time=… level=… msg=…` lines without the journal's prefix.
    Logrus,
}

impl OtherWords {
    pub(crate) fn of(t: &str) -> Option<OtherWords> {
        if is_dmesg(t) {
            Some(OtherWords::Dmesg)
        } else if is_go_dump(t) {
            Some(OtherWords::GoDump)
        } else if is_headless_klog(t) {
            Some(OtherWords::HeadlessKlog)
        } else if is_timeless_journal(t) {
            Some(OtherWords::TimelessJournal)
        } else if is_logrus(t) {
            Some(OtherWords::Logrus)
        } else if is_bare_kubelet_message(t) {
            Some(OtherWords::BareKubelet(
                crate::klog_says::pleg_never_relisted(t),
            ))
        } else {
            None
        }
    }

    /// For a refusal: what the text is, and what to paste instead.
    pub(crate) fn full(self) -> &'static str {
        match self {
            OtherWords::Dmesg => "the kernel's ring buffer (`dmesg`): the kernel's messages, not the kubelet's or kubectl's (for a reboot: `journalctl --list-boots` and the node's events, `kubectl get events --field-selector involvedObject.kind=Node`)",
            OtherWords::GoDump => "a Go program's stack dump (every goroutine's stack, printed when the kubelet panics or is killed with SIGQUIT): where its code stood, not what it saw; why it exited is in the lines before the dump (`journalctl -u kubelet -b -o short-iso`, from the boot on)",
            OtherWords::HeadlessKlog => "the kubelet's log lines with their header cut off (`I0123 12:34:56.789012 1234` before `kubelet.go:2267]`: the level, the time and the process are gone); replay needs each line's time: paste the lines whole (`journalctl -u kubelet -o short-iso`)",
            OtherWords::BareKubelet(true) => "a kubelet message without its log header: a PLEG \"last seen active 2562047h47m16.854775807s ago\" (Go's largest duration) has not relisted once since the kubelet started, as in every kubelet's first seconds (kubernetes#69007): it shows a kubelet (re)start, and a runtime outage only if it lasts; to see when it started and how long it lasted, paste the kubelet's log around it whole (`journalctl -u kubelet -o short-iso`)",
            OtherWords::BareKubelet(false) => "a kubelet message without its log header (the level, the time, the source file); replay needs each line's time: paste the lines whole (`journalctl -u kubelet -o short-iso`)",
            OtherWords::TimelessJournal => "journal lines with their time and host cut off (`systemd[1]: …`, `dockerd[1234]: …`); replay needs each line's time: paste them whole (`journalctl -u kubelet -u containerd -u docker -o short-iso`)",
            OtherWords::Logrus => "a Go daemon's own log in logrus's format (`time=\"…\" level=… msg=\"…\"`: dockerd's, containerd's, kured's, written to a file, not the journal), which does not name its writer; the journal names it: `journalctl -u containerd -u docker -u kubelet -o short-iso`",
        }
    }

    /// For an unread line: what it is, in short.
    pub(crate) fn short(self) -> &'static str {
        match self {
            OtherWords::Dmesg => "the kernel's ring buffer (`dmesg`), not the kubelet's or kubectl's words",
            OtherWords::GoDump => "a line of a Go stack dump (a program crashing): where its code stood, not what it saw",
            OtherWords::HeadlessKlog => "a kubelet log line with its header (level, time, process) cut off: `journalctl -u kubelet -o short-iso` gives it whole",
            OtherWords::BareKubelet(_) => "a kubelet message without its log header (level, time, source file): `journalctl -u kubelet -o short-iso` gives it whole",
            OtherWords::TimelessJournal => "a journal line with its time and host cut off: `journalctl -o short-iso` gives it whole",
            OtherWords::Logrus => "a logrus line (`time=… level=… msg=…`) that does not name its writer: `journalctl -u containerd -u docker -o short-iso` names it",
        }
    }
}

/// What a line looks like, in words, for a refusal.
pub(crate) fn looks(l: &str) -> &'static str {
    let t = l.trim();
    if let Some(w) = OtherWords::of(t) {
        return w.full();
    }
    if t.starts_with('{') || t.starts_with('[') {
        "JSON of another kind"
    } else if t.contains(": ") && !t.contains("  ") {
        "YAML or `key: value` text of another kind"
    } else if t.split("  ").filter(|c| !c.trim().is_empty()).count() >= 3 {
        "a table of another command's output"
    } else {
        "plain text"
    }
}
