//! What stands around the output in a real paste: quote marks (an email reply's `> `,
//! markdown's inline code), markdown code fences and the reporter's prose around them; taken
//! off or blanked (line numbers kept) so the output is read, and said. Called by `dispatch`.
//! Mirrors no Kubernetes file.

use crate::types::{cut, is_comment};

/// The text with each line's leading quote marks (`> `, `>> `, `> > `) or markdown's inline
/// code marks taken off, and how many lines had them. A line of `>` alone is an empty quoted
/// line.
pub(crate) fn unquote(text: &str) -> (String, usize) {
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

/// The 1-based lines outside markdown's code fences that are not blank (the prose around the
/// pasted output), when the text has a fenced block; none otherwise. A block the paste cut
/// before its closing fence runs to the end.
pub(crate) fn outside_fences(text: &str) -> (Vec<usize>, Vec<(usize, usize)>) {
    let (mut inside, mut out, mut blocks) = (None, Vec::new(), Vec::new());
    let n = text.lines().count();
    // describe's section heading just above a block (`Events:` then the fence): the block's.
    let mut heading: Option<usize> = None;
    for (i, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("```") {
            match inside.take() {
                Some(from) => blocks.push((from, i)),
                None => inside = Some(heading.take().unwrap_or(i + 2)),
            }
            continue;
        }
        if inside.is_none() && !l.trim().is_empty() {
            heading = matches!(l.trim(), "Events:" | "Conditions:").then_some(i + 1);
        }
        if inside.is_none()
            && !l.trim().is_empty()
            && !is_comment(l)
            // describe's section heading left above the block it heads.
            && !matches!(l.trim(), "Events:" | "Conditions:")
        {
            out.push(i + 1);
        }
    }
    if let Some(from) = inside {
        blocks.push((from, n));
    }
    if blocks.is_empty() {
        out.clear();
    }
    (out, blocks)
}

/// What was skipped as prose outside the code blocks, for the notes.
pub(crate) fn prose_note(text: &str, prose: &[usize]) -> String {
    let first = prose[0];
    let line = text.lines().nth(first - 1).unwrap_or("");
    format!(
        "{} line{} of prose outside the markdown code blocks, skipped (line {first} first: {})",
        prose.len(),
        if prose.len() == 1 { "" } else { "s" },
        cut(line.trim())
    )
}

/// The text with these 1-based lines blanked (line numbers kept).
pub(crate) fn blank(text: &str, lines: impl Iterator<Item = usize>) -> String {
    let drop: Vec<usize> = lines.collect();
    text.lines()
        .enumerate()
        .map(|(i, l)| if drop.contains(&(i + 1)) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}
