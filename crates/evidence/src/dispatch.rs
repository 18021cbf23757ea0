//! The format dispatcher: `detect` a file's format from its content, `read` it with its reader,
//! `merge` several files' observations. Above the readers: the only module that imports them all.

use crate::types::{
    cut, is_command, is_comment, is_elision, is_sudo_prompt, Evidence, Format, Obs, ReadError,
};
use crate::{audit, describe, events, events_table, klog, nodes_table, pod, watch};

/// What to paste instead, said by every refusal.
const PASTE: &str = "Paste instead: `kubectl get pod NAME -o yaml` or `kubectl describe pod NAME`, `kubectl get events -o yaml`, a `kubectl get pods -w` transcript, the kubelet's log (`journalctl -u kubelet -o short-iso`) or audit log lines";

/// A line of the kernel's ring buffer as `dmesg` prints it: `[67489.513411] message`.
fn is_dmesg(t: &str) -> bool {
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

/// The kubelet's or the kernel's words out of any format replay reads: what they are, said in
/// full for a refusal and in short for an unread line of a file that is otherwise read.
#[derive(Clone, Copy, PartialEq)]
enum OtherWords {
    Dmesg,
    GoDump,
    HeadlessKlog,
    /// A bare kubelet message; `true`: its PLEG has not relisted once since the start.
    BareKubelet(bool),
}

impl OtherWords {
    fn of(t: &str) -> Option<OtherWords> {
        if is_dmesg(t) {
            Some(OtherWords::Dmesg)
        } else if is_go_dump(t) {
            Some(OtherWords::GoDump)
        } else if is_headless_klog(t) {
            Some(OtherWords::HeadlessKlog)
        } else if is_bare_kubelet_message(t) {
            Some(OtherWords::BareKubelet(
                crate::klog_says::pleg_never_relisted(t),
            ))
        } else {
            None
        }
    }

    /// For a refusal: what the text is, and what to paste instead.
    fn full(self) -> &'static str {
        match self {
            OtherWords::Dmesg => "the kernel's ring buffer (`dmesg`): the kernel's messages, not the kubelet's or kubectl's (for a reboot: `journalctl --list-boots` and the node's events, `kubectl get events --field-selector involvedObject.kind=Node`)",
            OtherWords::GoDump => "a Go program's stack dump (every goroutine's stack, printed when the kubelet panics or is killed with SIGQUIT): where its code stood, not what it saw; why it exited is in the lines before the dump (`journalctl -u kubelet -b -o short-iso`, from the boot on)",
            OtherWords::HeadlessKlog => "the kubelet's log lines with their header cut off (`I0123 12:34:56.789012 1234` before `kubelet.go:2267]`: the level, the time and the process are gone); replay needs each line's time: paste the lines whole (`journalctl -u kubelet -o short-iso`)",
            OtherWords::BareKubelet(true) => "a kubelet message without its log header: a PLEG \"last seen active 2562047h47m16.854775807s ago\" (Go's largest duration) has not relisted once since the kubelet started, as in every kubelet's first seconds (kubernetes#69007): it shows a kubelet (re)start, and a runtime outage only if it lasts; to see when it started and how long it lasted, paste the kubelet's log around it whole (`journalctl -u kubelet -o short-iso`)",
            OtherWords::BareKubelet(false) => "a kubelet message without its log header (the level, the time, the source file); replay needs each line's time: paste the lines whole (`journalctl -u kubelet -o short-iso`)",
        }
    }

    /// For an unread line: what it is, in short.
    fn short(self) -> &'static str {
        match self {
            OtherWords::Dmesg => "the kernel's ring buffer (`dmesg`), not the kubelet's or kubectl's words",
            OtherWords::GoDump => "a line of a Go stack dump (a program crashing): where its code stood, not what it saw",
            OtherWords::HeadlessKlog => "a kubelet log line with its header (level, time, process) cut off: `journalctl -u kubelet -o short-iso` gives it whole",
            OtherWords::BareKubelet(_) => "a kubelet message without its log header (level, time, source file): `journalctl -u kubelet -o short-iso` gives it whole",
        }
    }
}

/// What a line looks like, in words, for a refusal.
fn looks(l: &str) -> &'static str {
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

/// How many sentences of prose may stand above the output (a reporter's "The sidecar container
/// continues to run normally:" over a pasted block).
const PROSE_LINES: usize = 3;

/// The meaningful lines (1-based line, text): a shell prompt with its command
/// (`[root@master ~]# kubectl get pod -w`) is not data.
fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| {
            !l.is_empty()
                && !is_comment(l)
                && !klog::is_journalctl_note(l)
                && !is_sudo_prompt(l)
                && (!l.contains("kubectl ") || watch::looks_like(l))
        })
}

/// Which format the text is, from its first meaningful line (and, for JSON, the document);
/// up to `PROSE_LINES` lines of plain prose above it are passed over.
pub fn detect(text: &str) -> Option<Format> {
    detect_past_prose(text).map(|(f, _)| f)
}

/// The format, and the prose lines passed over above the output (line, text).
fn detect_past_prose(text: &str) -> Option<(Format, Vec<(usize, String)>)> {
    let mut prose = Vec::new();
    for (n, l) in meaningful(text) {
        if let Some(f) = detect_first(l, text) {
            return Some((f, prose));
        }
        // Another kind's table printed before the pods' (`kubectl get deploy,pod`).
        if watch::other_header(l) || l.split_whitespace().next().is_some_and(watch::other_kind) {
            continue;
        }
        if prose.len() == PROSE_LINES || looks(l) != "plain text" {
            return None;
        }
        prose.push((n, l.to_string()));
    }
    None
}

fn detect_first(first: &str, text: &str) -> Option<Format> {
    if is_dmesg(first) {
        return None;
    }
    // A journal or klog line behind a stray '[' (a markdown link's bracket the reporter
    // opened around the paste, acs-engine#863): the kubelet's or a controller's log.
    if first.strip_prefix('[').is_some_and(klog::looks_like) {
        return Some(Format::Klog);
    }
    if first.starts_with('{') || first.starts_with('[') {
        if klog::is_json_line(first) {
            return Some(Format::Klog);
        }
        if first.contains("audit.k8s.io") {
            return Some(Format::Audit);
        }
        if events::looks_like(first, text) {
            return Some(Format::EventsJson);
        }
        if pod::looks_like(first, text) {
            return Some(Format::PodStatus);
        }
        return Some(Format::EventsJson);
    }
    if events::looks_like(first, text) {
        return Some(Format::EventsJson);
    }
    if pod::looks_like(first, text) {
        return Some(Format::PodStatus);
    }
    if describe::looks_like(first, text) {
        return Some(Format::Describe);
    }
    if events_table::looks_like(first) {
        return Some(Format::EventsTable);
    }
    if klog::looks_like(first) {
        return Some(Format::Klog);
    }
    if watch::looks_like(first) {
        return Some(Format::KubectlWatch);
    }
    if nodes_table::looks_like(first) {
        return Some(Format::NodesTable);
    }
    None
}

/// Reads one file's text: detects its format, reads every line. `file` is its index among the
/// files read together (kept in each observation).
pub fn read(text: &str, file: usize) -> Result<Evidence, ReadError> {
    // Lines quoted as an email reply or a markdown quote (`> Sep 23 23:42:24 node1 systemd[1]:
    // …`, `>> …`): read without their quote marks, every line alike (a quote's lazy continuation
    // lines have none).
    let (unquoted, quoted) = unquote(text);
    let text = unquoted.as_str();
    // Prompts and command lines, anywhere: blanked (line numbers kept) and listed.
    let mut commands: Vec<String> = Vec::new();
    if quoted > 0 {
        commands.push(format!(
            "{quoted} line{} quoted (an email or markdown quote '>', markdown's inline code '`'): read without the quote marks",
            if quoted == 1 { "" } else { "s" }
        ));
    }
    let cleaned: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if is_command(l) {
                let what = if l.trim_start().starts_with("```") {
                    "a markdown code fence"
                } else if is_elision(l) {
                    "an elision"
                } else if is_sudo_prompt(l) {
                    "sudo's password prompt"
                } else {
                    "a command line"
                };
                commands.push(format!(
                    "line {}: {what}, skipped: {}",
                    i + 1,
                    cut(l.trim())
                ));
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let whole = read_clean(&cleaned, file);
    // A session pasted whole (`$ kubectl get jobs`, its table, `$ kubectl get pods`, …): each
    // command's output on its own; and `kubectl get nodes` above another command's output (`get
    // pods`, the journal): that output, read on its own, says more than the nodes' states.
    let sections = match &whole {
        Ok(ev) => ev.format == Format::NodesTable && !ev.unread.is_empty(),
        Err(_) => true,
    };
    let mut ev = match (
        sections
            .then(|| read_sections(text, &cleaned, file))
            .flatten(),
        whole,
    ) {
        (Some(s), Ok(ev)) if s.format == Format::NodesTable => ev,
        (Some(s), _) => s,
        (None, whole) => whole?,
    };
    ev.notes.splice(0..0, commands);
    // A line the reader could not read that is the kubelet's or the kernel's, cut or bare, is
    // said to be that (what to paste for it), not only "not a row of this format".
    for u in &mut ev.unread {
        if let Some(w) = OtherWords::of(u.text.trim()) {
            u.why = w.short().to_string();
        }
    }
    Ok(ev)
}

/// A paste of several commands' outputs that cannot be read as one: each command's output is
/// read on its own (the other lines blanked, line numbers kept), and the one with the most
/// observations is the file's evidence. The others are said: refused with why, or readable on
/// their own (one file is one format and one clock: give them as their own `--evidence`).
fn read_sections(text: &str, cleaned: &str, file: usize) -> Option<Evidence> {
    let lines: Vec<&str> = cleaned.lines().collect();
    let mut starts: Vec<(usize, String)> = vec![(0, String::new())];
    for (i, l) in text.lines().enumerate() {
        if is_command(l) && !is_elision(l) && !is_sudo_prompt(l) {
            starts.push((i + 1, cut(l.trim())));
        }
    }
    let mut sections: Vec<(usize, usize, String)> = Vec::new();
    for (k, (from, cmd)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(lines.len(), |n| n.0 - 1);
        if lines[(*from).min(lines.len())..to]
            .iter()
            .any(|l| !l.trim().is_empty() && !is_comment(l))
        {
            sections.push((*from, to, cmd.clone()));
        }
    }
    if sections.len() < 2 {
        return None;
    }
    let read_one = |from: usize, to: usize| {
        let only: Vec<&str> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if (from..to).contains(&i) { *l } else { "" })
            .collect();
        read_clean(&only.join("\n"), file)
    };
    let results: Vec<(usize, usize, String, Result<Evidence, ReadError>)> = sections
        .into_iter()
        .map(|(from, to, cmd)| {
            let r = read_one(from, to);
            (from, to, cmd, r)
        })
        .collect();
    let best = results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            r.3.as_ref()
                .ok()
                .map(|e| (i, e.format != Format::NodesTable, e.obs.len()))
        })
        .max_by_key(|&(i, other, n)| (other, n, std::cmp::Reverse(i)))?
        .0;
    let span = |from: usize, to: usize, cmd: &str| {
        let after = if cmd.is_empty() {
            String::new()
        } else {
            format!(", after `{cmd}`")
        };
        format!("lines {}–{to}{after}", from + 1)
    };
    let mut notes = Vec::new();
    let (f, t, c, _) = &results[best];
    notes.push(format!(
        "a paste of several commands' outputs: read {} alone",
        span(*f, *t, c)
    ));
    for (i, (from, to, cmd, r)) in results.iter().enumerate() {
        if i == best {
            continue;
        }
        notes.push(match r {
            Ok(e) => format!(
                "{}: also readable, as {}: give it as its own --evidence file (one file is one format and one clock)",
                span(*from, *to, cmd),
                e.format.as_str()
            ),
            Err(e) => format!(
                "{}: skipped: {}",
                span(*from, *to, cmd),
                e.message.split(". Paste instead").next().unwrap_or(&e.message)
            ),
        });
    }
    let mut ev = results.into_iter().nth(best)?.3.ok()?;
    ev.notes.splice(0..0, notes);
    Some(ev)
}

fn read_clean(text: &str, file: usize) -> Result<Evidence, ReadError> {
    if text.trim().is_empty() {
        return Err(ReadError {
            line: 1,
            message: "the file is empty: give a `kubectl get pods -w` transcript, `kubectl get events -o json`, audit log lines, kubelet log lines or `kubectl get pod -o yaml|json`".into(),
        });
    }
    let (format, prose) = detect_past_prose(text).ok_or_else(|| {
        let (n, l) = text
            .lines()
            .enumerate()
            .find(|(_, l)| !l.trim().is_empty() && !is_comment(l))
            .map(|(i, l)| (i + 1, l))
            .unwrap_or((1, ""));
        let what = looks(l);
        // A line the kubelet wrote says which command gives it whole; the rest get the list.
        let instead = if what.contains("journalctl -u kubelet") {
            ""
        } else {
            PASTE
        };
        ReadError {
            line: n,
            message: format!(
                "not a format RestartScope reads: it looks like {what} ({:?}). {instead}",
                cut(l)
            )
            .trim_end()
            .to_string(),
        }
    })?;
    // The prose above the output is said in the notes, not read as the format's.
    let text = &blank(text, prose.iter().map(|p| p.0));
    let mut ev = match format {
        Format::KubectlWatch => watch::read(text),
        Format::EventsJson => events::read(text)?,
        Format::Audit => audit::read(text),
        Format::Klog => klog::read(text),
        Format::PodStatus => pod::read(text)?,
        Format::Describe => describe::read(text),
        Format::EventsTable => events_table::read(text),
        Format::NodesTable => nodes_table::read(text),
        Format::ControllerLog | Format::RuntimeLog | Format::E2eLog | Format::NpdLog => {
            klog::read(text)
        }
    };
    ev.notes.splice(
        0..0,
        prose
            .iter()
            .map(|(n, l)| format!("line {n}: a line above the output, skipped: {}", cut(l))),
    );
    for o in &mut ev.obs {
        o.file = file;
    }
    for u in &mut ev.unread {
        u.file = file;
    }
    // journald's lines of the kernel (`host kernel: Memory cgroup out of memory: Kill process …`)
    // beside a runtime's few: the kernel's journal, said as such.
    let kernel = text.lines().filter(|l| l.contains(" kernel: ")).count();
    if ev.obs.is_empty() && ev.format == Format::RuntimeLog && kernel > ev.skipped / 2 {
        return Err(ReadError {
            line: 1,
            message: format!(
                "read as journal lines: {kernel} of them the kernel's (`kernel:`: an OOM kill, a hung task, a panic: its messages, not the kubelet's or kubectl's), none a stop or a start of the container runtime and nothing of the kubelet's, so nothing about a restart. Paste the kubelet's and the runtime's journal around it: `journalctl -u kubelet -u containerd -o short-iso --since …` (for a reboot: `journalctl --list-boots`)"
            ),
        });
    }
    if ev.obs.is_empty() && ev.format == Format::RuntimeLog {
        // The runtime's own log without a stop or a start in it: what it is and what to add.
        return Err(ReadError {
            line: 1,
            message: format!(
                "read as the {}: {} of its lines, none a stop or a start of the runtime, and nothing of the kubelet's, so nothing about a restart. Paste its journal across the restart together with the kubelet's: `journalctl -u containerd -u kubelet -o short-iso --since …` (or `-u crio`)",
                Format::RuntimeLog.as_str(),
                ev.skipped
            ),
        });
    }
    if ev.obs.is_empty() {
        // Lines of the format about other things, and a few it did not understand (prose between
        // two blocks): it holds nothing replay follows, not nothing understood.
        let first = ev.unread.first().filter(|_| ev.skipped == 0);
        return Err(ReadError {
            line: first.map_or(1, |u| u.line),
            message: match first {
                Some(u) => format!(
                    "read as {} but nothing in it was understood; first: {} ({:?})",
                    format.as_str(),
                    u.why,
                    u.text
                ),
                None => format!(
                    "read as {}, but it holds nothing about pods, the kubelet or the node lease that replay follows ({}{}). {PASTE}",
                    format.as_str(),
                    if ev.skipped == 1 {
                        "its one line is about something else".to_string()
                    } else {
                        format!("its {} lines are about other things", ev.skipped)
                    },
                    match ev.unread.first() {
                        Some(u) => format!(
                            "; {} not understood, line {} first: {:?}",
                            ev.unread.len(),
                            u.line,
                            u.text
                        ),
                        None => String::new(),
                    }
                ),
            },
        });
    }
    Ok(ev)
}

/// The text with each line's leading quote marks (`> `, `>> `, `> > `) or markdown's inline
/// code marks taken off, and how many lines had them. A line of `>` alone is an empty quoted
/// line.
fn unquote(text: &str) -> (String, usize) {
    let mut n = 0;
    let out: Vec<&str> = text
        .lines()
        .map(|l| {
            let t = l.trim_start();
            // Markdown's inline code around a pasted line (`` ` Oct 28 16:24:42 host kubelet[1]:
            // … ` ``), not a fence (```).
            if t.starts_with('`') && !t.starts_with("```") {
                n += 1;
                let r = t[1..].trim_start();
                return r.strip_suffix('`').unwrap_or(r);
            }
            if !t.starts_with('>') {
                return l;
            }
            n += 1;
            let mut r = t;
            while let Some(x) = r.strip_prefix('>') {
                r = x.strip_prefix(' ').unwrap_or(x);
            }
            r
        })
        .collect();
    (out.join("\n"), n)
}

/// The text with these 1-based lines blanked (line numbers kept).
fn blank(text: &str, lines: impl Iterator<Item = usize>) -> String {
    let drop: Vec<usize> = lines.collect();
    text.lines()
        .enumerate()
        .map(|(i, l)| if drop.contains(&(i + 1)) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Several files' evidence as one time-ordered list. Relative sources (kubectl AGE) keep their
/// own clock; see `explain::align`.
/// Puts files whose times carry no year (klog, journald) on the year of another file's dated
/// times (audit, events, a pod's YAML), and says so in their notes; with no such file, says the
/// times are kept relative to each other (never shifted by a guessed year).
pub fn align_years(files: &mut [Evidence]) {
    let year = files
        .iter()
        .filter(|e| e.absolute && !e.yearless)
        .find_map(|e| e.obs.iter().map(|o| o.t_ms).find(|t| *t > 0))
        .map(crate::time::year_of);
    for e in files.iter_mut().filter(|e| e.yearless) {
        match year {
            Some(y) => {
                for o in &mut e.obs {
                    o.t_ms = crate::time::in_year(o.t_ms, y);
                }
                e.yearless = false;
                e.notes.push(format!(
                    "its times carry no year: read as {y}, the year of another file's dated times"
                ));
            }
            None => e.notes.push(
                "its times carry no year (klog, journald): kept relative to each other, not on a calendar"
                    .into(),
            ),
        }
    }
}

pub fn merge(all: &[Evidence]) -> Vec<Obs> {
    let mut obs: Vec<Obs> = all.iter().flat_map(|e| e.obs.iter().cloned()).collect();
    obs.sort_by_key(|o| (o.t_ms, o.file, o.line));
    obs
}
