//! A paste of more than one output: a shell session's commands and their outputs
//! (`read_sections`: each command's output on its own, or the same command's printings
//! together), and an issue's code blocks each read on its own (`best_block`). Called by
//! `dispatch::read`, which gives the reader of each part (`dispatch::read_clean`).

use crate::around::blank;

/// Reads one part's text (`dispatch::read_clean`).
pub(crate) type Read = fn(&str, usize) -> Result<Evidence, ReadError>;
use crate::types::{
    cut, is_command, is_comment, is_elision, is_sudo_prompt, Evidence, Format, ReadError,
};

/// A paste of several commands' outputs that cannot be read as one: each command's output is
/// read on its own (the other lines blanked, line numbers kept), and the one with the most
/// observations is the file's evidence. The others are said: refused with why, or readable on
/// their own (one file is one format and one clock: give them as their own `--evidence`). With
/// whether a part left out is of another kind than `kubectl get nodes`.
pub(crate) fn read_sections(
    text: &str,
    cleaned: &str,
    file: usize,
    read_clean: Read,
) -> Option<(Evidence, bool)> {
    let lines: Vec<&str> = cleaned.lines().collect();
    // Each part's first line, the line before it that ends the part above, its command.
    let mut starts: Vec<(usize, usize, String)> = vec![(0, 0, String::new())];
    // Another kind's table header starts a part too (`kubectl get nodes,pods -A` prints the
    // nodes' table, then the pods' under their own header): (its kind, its line).
    let mut kind: Option<&str> = None;
    for (i, l) in text.lines().enumerate() {
        if is_command(l) && !is_elision(l) && !is_sudo_prompt(l) {
            starts.push((i + 1, i, cut(l.trim())));
            kind = None;
            continue;
        }
        let t = l.trim();
        let k = if crate::nodes_table::header(l).is_some() {
            Some("nodes")
        } else if kind != Some("describe")
            && (t.starts_with("Name:") || t == "Conditions:" || t == "Events:")
        {
            // `kubectl describe node` below a table (AKS#587's `get nodes`, then describe).
            Some("describe")
        } else if crate::watch::is_header(l) {
            Some("pods")
        } else if crate::events_table::is_header(l) {
            Some("events")
        } else {
            None
        };
        if let Some(k) = k {
            if kind.is_some_and(|was| was != k) {
                starts.push((i, i, String::new()));
            }
            kind = Some(k);
        }
    }
    let mut sections: Vec<(usize, usize, String)> = Vec::new();
    for (k, (from, _, cmd)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(lines.len(), |n| n.1);
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
    // The parts' lines alone (the others blanked, line numbers kept), read as one file.
    let read_parts = |parts: &[(usize, usize)]| {
        let only: Vec<&str> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if parts.iter().any(|p| (p.0..p.1).contains(&i)) {
                    *l
                } else {
                    ""
                }
            })
            .collect();
        read_clean(&only.join("\n"), file)
    };
    let results: Vec<(usize, usize, String, Result<Evidence, ReadError>)> = sections
        .into_iter()
        .map(|(from, to, cmd)| {
            let r = read_parts(&[(from, to)]);
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
    // The same table printed again after other commands (`kubectl get pods`, `systemctl restart
    // kubelet`, `kubectl get pods`): its printings read together, each row at its pod's or
    // node's AGE, as the reader reads `-w`'s.
    let format = results[best].3.as_ref().ok().map(|e| e.format);
    let again: Vec<usize> = (0..results.len())
        .filter(|&i| {
            matches!(format, Some(Format::KubectlWatch | Format::NodesTable))
                && results[i].3.as_ref().ok().map(|e| e.format) == format
        })
        .collect();
    let together = (again.len() >= 2)
        .then(|| {
            let keep: Vec<(usize, usize)> = again
                .iter()
                .map(|&i| (results[i].0, results[i].1))
                .collect();
            read_parts(&keep).ok()
        })
        .flatten()
        .filter(|e| Some(e.format) == format);
    let used: Vec<usize> = if together.is_some() {
        again
    } else {
        vec![best]
    };
    let spans: Vec<String> = used
        .iter()
        .map(|&i| span(results[i].0, results[i].1, &results[i].2))
        .collect();
    if used.len() > 1 {
        notes.push(format!(
            "a paste of several commands' outputs: {}: {} printings of one command, read together",
            spans.join("; "),
            used.len()
        ));
        // A kubelet restart the reporter typed between the printings: said, not placed (the
        // printings' only clock is each row's AGE).
        let (first, last) = (results[used[0]].1, results[used[used.len() - 1]].0);
        for (n, l) in text.lines().enumerate().take(last).skip(first) {
            if is_command(l) && crate::types::restarts_kubelet(l) {
                notes.push(format!(
                    "line {}: `{}` between the printings: the reporter restarted the kubelet there; the printings' AGEs do not say when, so the answer does not place it",
                    n + 1,
                    cut(l.trim())
                ));
            }
        }
    } else {
        notes.push(format!(
            "a paste of several commands' outputs: read {} alone",
            spans[0]
        ));
    }
    for (i, (from, to, cmd, r)) in results.iter().enumerate() {
        if used.contains(&i) {
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
    let mut ev = match together {
        Some(ev) => ev,
        None => results.into_iter().nth(best)?.3.ok()?,
    };
    // Whether a part not read into the answer is of another kind than its `kubectl get nodes`
    // (read as another format, or refused as one).
    let other_kind = notes.iter().any(|n| {
        (n.contains(": skipped: ") || n.contains("also readable, as "))
            && !n.contains("kubectl get nodes")
    });
    ev.notes.splice(0..0, notes);
    Some((ev, other_kind))
}

/// Each code block (1-based lines, inclusive) read on its own: the one with the most
/// observations, and the others said (refused with why, or read with fewer).
pub(crate) fn best_block(
    fenced: &str,
    blocks: &[(usize, usize)],
    file: usize,
    read_clean: Read,
) -> Option<(Evidence, Vec<String>)> {
    let n = fenced.lines().count();
    let mut read: Vec<(usize, Result<Evidence, ReadError>)> = blocks
        .iter()
        .map(|&(a, b)| {
            let only = blank(fenced, (1..=n).filter(|l| *l < a || *l > b));
            (a, read_clean(&only, file))
        })
        .collect();
    let best = (0..read.len())
        .filter(|&i| read[i].1.is_ok())
        .max_by_key(|&i| read[i].1.as_ref().map_or(0, |e| e.obs.len()))?;
    let (_, ev) = read.remove(best);
    let others = read
        .into_iter()
        .map(|(a, r)| match r {
            Ok(e) => format!(
                "line {a}: another code block, read as {} with fewer observations ({}): give it as its own --evidence",
                e.format.as_str(),
                e.obs.len()
            ),
            Err(e) => format!("line {a}: another code block, not read: {}", cut(&e.message)),
        })
        .collect();
    Some((ev.ok()?, others))
}
