//! `restartscope replay --evidence FILE… [--manifest FILE] [--kubernetes-version V] [-o F]`:
//! reads the evidence (`restartscope_evidence::read`, the format detected per file), prints the
//! observations understood, the lines not understood (count and the first few, with line
//! numbers), and the candidates — every release's kubelets and the real-bug presets — ranked by
//! how well each explains the observed per-pod sequences (`restartscope_evidence::explain`).
//! A file that cannot be read at all is bad input (status 2) with its line number.

use super::UserError;
use restartscope_evidence::explain::{candidates, explain_for, seen_version, SeenVersion, Verdict};
use restartscope_evidence::{merge, read, Evidence};
use restartscope_sim::KubeVersion;
use serde_json::json;

/// How many lines not understood the table lists.
const SHOW_UNREAD: usize = 5;
/// How many verdicts the table lists.
const SHOW_VERDICTS: usize = 8;

pub(crate) fn run(o: crate::args::ReplayOpts) -> Result<String, UserError> {
    let json_out = match o.format.as_deref() {
        None | Some("table") => false,
        Some("json") => true,
        Some(f) => return Err(format!("invalid -o {f:?}; use table or json").into()),
    };
    // Any 1.MINOR[.PATCH]: a release the model knows, or one older than 1.31 (its legacy kubelet
    // is 1.31's: the candidates are 1.31's).
    let version = match o.kubernetes_version.as_deref() {
        None => None,
        Some(v) => match seen_version(v) {
            Some(SeenVersion::Known(k)) => Some(k),
            Some(SeenVersion::Older) => Some(KubeVersion::V1_31),
            None => Some(
                KubeVersion::parse_or_explain(v)
                    .map_err(|m| UserError(format!("invalid --kubernetes-version: {m}")))?,
            ),
        },
    };
    let mut files: Vec<Evidence> = Vec::new();
    for (i, path) in o.evidence.iter().enumerate() {
        let text = std::fs::read(path)
            .map_err(|e| UserError(format!("cannot read evidence {path}: {e}")))?;
        let text = String::from_utf8_lossy(&text);
        let ev = read(&text, i).map_err(|e| UserError(format!("invalid evidence {path}: {e}")))?;
        files.push(ev);
    }
    let base = if o.manifests.is_empty() {
        None
    } else {
        Some(crate::manifest::load(&o.manifests, None)?.scenario)
    };
    let obs = merge(&files);
    let cands = candidates(&obs, base.as_ref(), version);
    let verdicts = explain_for(&obs, &cands, o.kubernetes_version.as_deref());
    Ok(if json_out {
        to_json(&o.evidence, &files, &verdicts)
    } else {
        table(&o.evidence, &files, &verdicts)
    })
}

fn to_json(paths: &[String], files: &[Evidence], verdicts: &[Verdict]) -> String {
    let v = json!({
        "files": files.iter().zip(paths).map(|(e, p)| json!({
            "path": p,
            "format": e.format.as_str(),
            "absolute_time": e.absolute,
            "observations": e.obs,
            "skipped": e.skipped,
            "not_understood": e.unread,
            "notes": e.notes,
        })).collect::<Vec<_>>(),
        "verdicts": verdicts,
    });
    let mut s = serde_json::to_string_pretty(&v).expect("JSON");
    s.push('\n');
    s
}

fn clock(e: &Evidence, t_ms: i64, t0: i64) -> String {
    if e.absolute {
        format!("+{:.1} s", (t_ms - t0) as f64 / 1000.0)
    } else {
        format!("AGE {}", restartscope_sim::fmt_secs(t_ms as f64 / 1000.0))
    }
}

fn table(paths: &[String], files: &[Evidence], verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    for (e, p) in files.iter().zip(paths) {
        out.push_str(&format!(
            "{p}: {} · {} observation{} · {} line{} about other things · {} not understood\n",
            e.format.as_str(),
            e.obs.len(),
            if e.obs.len() == 1 { "" } else { "s" },
            e.skipped,
            if e.skipped == 1 { "" } else { "s" },
            e.unread.len()
        ));
        let t0 = e.obs.first().map_or(0, |o| o.t_ms);
        for o in &e.obs {
            out.push_str(&format!(
                "  {:>10}  {:<24} {:<34} {:<28} line {}\n",
                clock(e, o.t_ms, t0),
                o.pod.as_deref().or(o.node.as_deref()).unwrap_or("-"),
                o.what.text(),
                o.by.as_deref().unwrap_or(""),
                o.line
            ));
        }
        for n in &e.notes {
            out.push_str(&format!("  note: {n}\n"));
        }
        if !e.unread.is_empty() {
            out.push_str(&format!(
                "  not understood: {} line{}{}\n",
                e.unread.len(),
                if e.unread.len() == 1 { "" } else { "s" },
                if e.unread.len() > SHOW_UNREAD {
                    format!(" (first {SHOW_UNREAD})")
                } else {
                    String::new()
                }
            ));
            for u in e.unread.iter().take(SHOW_UNREAD) {
                out.push_str(&format!("    {p}:{}: {}: {}\n", u.line, u.why, u.text));
            }
        }
    }
    out.push_str("\nWhat explains it best (score 0–100; see crates/evidence/src/explain.rs):\n");
    if let Some(top) = verdicts.first() {
        let same = verdicts.iter().filter(|v| v.score == top.score).count();
        if same > 1 {
            out.push_str(&format!(
                "({same} candidates share the top score: this evidence does not tell them apart)\n"
            ));
        }
    }
    for (i, v) in verdicts.iter().take(SHOW_VERDICTS).enumerate() {
        out.push_str(&format!(
            "{:>2}. {:>5.1}  {}\n",
            i + 1,
            v.score,
            v.candidate
        ));
        if let (Some(b), Some(f)) = (&v.known_bug, &v.fixed_in) {
            out.push_str(&format!("           known bug {b}; fix: {f}\n"));
        }
        for w in v.why.iter().filter(|w| !w.starts_with("kubernetes#")) {
            out.push_str(&format!("           {w}\n"));
        }
    }
    if verdicts.len() > SHOW_VERDICTS {
        out.push_str(&format!(
            "    … {} more (-o json lists every one)\n",
            verdicts.len() - SHOW_VERDICTS
        ));
    }
    out
}
