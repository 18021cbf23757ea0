//! The format dispatcher: `detect` a file's format from its content, `read` it with its reader,
//! `merge` several files' observations. Above the readers: the only module that imports them all.

use crate::around::{blank, outside_fences, prose_note, unquote};
use crate::other_words::{is_dmesg, is_logrus, looks, OtherWords};
use crate::sections::{best_block, read_sections};
use crate::types::{
    cut, is_command, is_comment, is_elision, is_sudo_prompt, Evidence, Format, Obs, ReadError,
};
use crate::unit_status;
use crate::{audit, describe, events, events_table, klog, nodes_table, pod, watch};

/// What to paste instead, said by every refusal.
const PASTE: &str = "Paste instead: `kubectl get pod NAME -o yaml` or `kubectl describe pod NAME`, `kubectl get events -o yaml`, a `kubectl get pods -w` transcript, the kubelet's log (`journalctl -u kubelet -o short-iso`) or audit log lines";

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
                && !crate::e2e::is_step(l)
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
    let lines: Vec<(usize, &str)> = meaningful(text).collect();
    for (i, &(n, l)) in lines.iter().enumerate() {
        if let Some(f) = detect_first(l, text) {
            return Some((f, prose));
        }
        // `systemctl status` without its glyph: the journal it prints.
        if unit_status::bare_header(l, lines.get(i + 1).map(|x| x.1)).is_some() {
            return Some((Format::Klog, prose));
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
    // A daemon's logrus file whose lines name their writer somewhere (dockerd's
    // `libcontainerd: …`): that daemon's log.
    if is_logrus(first) && text.lines().any(|l| klog::logrus(l.trim()).is_some()) {
        return Some(Format::Klog);
    }
    // A journal or klog line behind a stray '[' (a markdown link's bracket the reporter
    // opened around the paste, acs-engine#863): the kubelet's or a controller's log.
    if first.strip_prefix('[').is_some_and(klog::looks_like) {
        return Some(Format::Klog);
    }
    if first.starts_with('{') || first.starts_with('[') {
        if klog::is_json_line(first) || klog::is_docker_json_line(first) {
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
    // An issue's text copied whole: the reporter's prose around markdown code blocks. Refused
    // as it stands, the code blocks alone are read, and the prose is said.
    // Each block on its own when together they are not one format (an error line's block, then
    // describe's Events): the block with the most observations, the others said.
    let (prose, blocks) = outside_fences(text);
    let (whole, text, cleaned) = match whole {
        Err(e) if !prose.is_empty() => {
            let raw = blank(text, prose.iter().copied());
            let fenced = blank(&cleaned, prose.iter().copied());
            match read_clean(&fenced, file) {
                Ok(ev) => {
                    commands.push(prose_note(text, &prose));
                    (Ok(ev), raw, fenced)
                }
                Err(_) if read_sections(&raw, &fenced, file, read_clean).is_some() => {
                    commands.push(prose_note(text, &prose));
                    (Err(e), raw, fenced)
                }
                Err(fenced_err) => match best_block(&fenced, &blocks, file, read_clean) {
                    Some((ev, others)) => {
                        commands.push(prose_note(text, &prose));
                        commands.extend(others);
                        (Ok(ev), raw, fenced)
                    }
                    // Refused: why the code blocks are, not the prose above them.
                    None => (Err(fenced_err), text.to_string(), cleaned),
                },
            }
        }
        // Read as one, but with lines it could not read: the code blocks, each on its own, when
        // one of them says as much and the rest were the other blocks (kubernetes#120168's
        // `get pods` rows, then the pods' status YAML under the reporter's caption).
        // (`kubectl get nodes` above other outputs is read command by command, below.)
        Ok(ev) if !prose.is_empty() && !ev.unread.is_empty() && ev.format != Format::NodesTable => {
            let raw = blank(text, prose.iter().copied());
            let fenced = blank(&cleaned, prose.iter().copied());
            match best_block(&fenced, &blocks, file, read_clean) {
                Some((b, others))
                    if b.obs.len() >= ev.obs.len() && b.unread.len() < ev.unread.len() =>
                {
                    commands.push(prose_note(text, &prose));
                    commands.extend(others);
                    (Ok(b), raw, fenced)
                }
                _ => (Ok(ev), text.to_string(), cleaned),
            }
        }
        w => (w, text.to_string(), cleaned),
    };
    let (text, cleaned) = (text.as_str(), cleaned.as_str());
    // A session pasted whole (`$ kubectl get jobs`, its table, `$ kubectl get pods`, …): each
    // command's output on its own; and `kubectl get nodes` above another command's output (`get
    // pods`, the journal): that output, read on its own, says more than the nodes' states.
    let sections = match &whole {
        Ok(ev) => ev.format == Format::NodesTable && !ev.unread.is_empty(),
        Err(_) => true,
    };
    let mut ev = match (
        sections
            .then(|| read_sections(text, cleaned, file, read_clean))
            .flatten(),
        whole,
    ) {
        // The nodes' printings read as one, unless a part of another kind below them (describe
        // node, AKS#587) was what the whole could not read.
        (Some((s, other)), Ok(ev))
            if s.format == Format::NodesTable && (s.unread.len() >= ev.unread.len() || !other) =>
        {
            ev
        }
        (Some((s, _)), _) => s,
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

pub(crate) fn read_clean(text: &str, file: usize) -> Result<Evidence, ReadError> {
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
        Format::ControllerLog
        | Format::RuntimeLog
        | Format::E2eLog
        | Format::NpdLog
        | Format::KuredLog => klog::read(text),
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
    // kured's lines with no reboot commanded (its start, its lock after a reboot): where its
    // lines from before the reboot are.
    if ev.obs.is_empty() && ev.format == Format::KuredLog {
        return Err(ReadError {
            line: 1,
            message: format!(
                "read as {}, but {} commands a reboot (\"Running command: … reboot] for node: …\", \"Triggering reboot for node …\"); kured's lines from before a reboot are its container's previous log: `kubectl logs -n NAMESPACE KURED_POD --previous`, beside the node's events (`kubectl get events --field-selector involvedObject.kind=Node`)",
                ev.format.as_str(),
                if ev.skipped == 1 {
                    "its one line never".to_string()
                } else {
                    format!("none of its {} lines", ev.skipped)
                }
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
                    ev.format.as_str(),
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
