//! `restartscope replay --evidence FILE… [--manifest FILE] [--kubernetes-version V] [-o F]`:
//! reads the evidence (`restartscope_evidence::read`, the format detected per file), prints the
//! observations understood, the lines not understood (count and the first few, with line
//! numbers), and the candidates — every release's kubelets and the real-bug presets — ranked by
//! how well each explains the observed per-pod sequences (`restartscope_evidence::explain`).
//! Then the evidence beside the model (`restartscope_evidence::observed`): the
//! best-ranked candidate's run and the other kubelet of its release (legacy and KEP-4781 from
//! 1.35; one run before), the evidence's clock put on the runs' axis, and per pod the
//! differences in words (table, JSON) or the observed lanes drawn under the modelled ones
//! (`-o svg`, `--out FILE`). The answer comes first (`restartscope_evidence::explain::answer`):
//! "No known bug explains this." with its reasons, or the one bug the evidence shows, with how
//! strong the evidence is and what to collect next. Each file is read or refused on its own: the
//! run goes on with the readable ones and says which were skipped and why; only when none can be
//! read is it bad input (status 2), each with its line number.

use super::UserError;
use restartscope_evidence::beside::{beside, Beside};
use restartscope_evidence::explain::{
    answer, candidates, explain_for, seen_version, Answer, SeenVersion, Verdict,
};
use restartscope_evidence::{align_years, merge, read, Evidence};
use restartscope_figure::{layout, LayoutOpts, ObservedPod};
use restartscope_sim::KubeVersion;
use serde_json::json;

/// How many lines not understood the table lists.
const SHOW_UNREAD: usize = 5;
/// How many verdicts the table lists.
const SHOW_VERDICTS: usize = 8;

#[derive(Clone, Copy, PartialEq)]
enum Out {
    Table,
    Json,
    Svg,
}

pub(crate) fn run(o: crate::args::ReplayOpts) -> Result<String, UserError> {
    let out = match o.format.as_deref() {
        None | Some("table") => Out::Table,
        Some("json") => Out::Json,
        Some("svg") => Out::Svg,
        Some(f) => return Err(format!("invalid -o {f:?}; use table, json or svg").into()),
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
    // Each file on its own: one that cannot be read never loses the others.
    let mut files: Vec<Evidence> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    for path in &o.evidence {
        let text = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) => {
                refused.push(format!("cannot read evidence {path}: {e}"));
                continue;
            }
        };
        let text = String::from_utf8_lossy(&text);
        match read(&text, files.len()) {
            Ok(ev) => {
                files.push(ev);
                paths.push(path.clone());
            }
            Err(e) => refused.push(format!("invalid evidence {path}: {e}")),
        }
    }
    if files.is_empty() {
        return Err(UserError(refused.join("\n")));
    }
    align_years(&mut files);
    let base = if o.manifests.is_empty() {
        None
    } else {
        Some(crate::manifest::load(&o.manifests, None)?.scenario)
    };
    let obs = merge(&files);
    let cands = candidates(&obs, base.as_ref(), version);
    let verdicts = explain_for(&obs, &cands, o.kubernetes_version.as_deref());
    let (ans, verdicts) = answer(&obs, verdicts, o.kubernetes_version.as_deref());
    let beside = beside(&files, &obs, &cands, &verdicts);
    let r = Report {
        paths: &paths,
        refused: &refused,
        files: &files,
        answer: &ans,
        verdicts: &verdicts,
        beside: beside.as_ref(),
    };
    Ok(match out {
        Out::Json => to_json(&r),
        Out::Table => table(&r),
        Out::Svg => match &beside {
            Some(b) => svg(b, &ans),
            None => {
                return Err("-o svg: no candidate could be run to draw the evidence beside".into())
            }
        },
    })
}

/// What the outputs print.
struct Report<'a> {
    paths: &'a [String],
    refused: &'a [String],
    files: &'a [Evidence],
    answer: &'a Answer,
    verdicts: &'a [Verdict],
    beside: Option<&'a Beside>,
}

/// The runs with each pod's observed Ready under its modelled lane; the alignment as the note.
/// The title is the answer's headline (the text's and the JSON's).
fn svg(b: &Beside, ans: &Answer) -> String {
    let observed = b
        .lanes
        .iter()
        .map(|l| {
            ObservedPod::new(
                &l.pod,
                l.model_pod.as_deref(),
                l.steps.iter().map(|s| (s.t_ms, s.ready, s.by.clone())),
                (l.first_ms, l.last_ms),
            )
        })
        .collect();
    let opts = LayoutOpts {
        title: Some(format!(
            "Your incident beside the model · {} · drawn: {}",
            ans.short(),
            b.names[0]
        )),
        width: 1000.0,
        note: Some(format!("{} {}", b.alignment.text, b.summary())),
        observed,
        ..LayoutOpts::default()
    };
    layout(&b.traces, &opts).to_svg()
}

fn to_json(r: &Report) -> String {
    let (files, paths, verdicts, beside) = (r.files, r.paths, r.verdicts, r.beside);
    let v = json!({
        "answer": r.answer,
        "skipped_files": r.refused,
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
        "beside_the_model": beside.map(|b| json!({
            "runs": b.names,
            "alignment": b.alignment,
            "observed": b.lanes,
            "differences": b.differences,
        })),
    });
    let mut s = serde_json::to_string_pretty(&v).expect("JSON");
    s.push('\n');
    s
}

fn clock(e: &Evidence, t_ms: i64, t0: i64) -> String {
    if e.absolute {
        format!("+{:.1} s", (t_ms - t0) as f64 / 1000.0)
    } else if t_ms < 0 {
        // `kubectl get events`' LAST SEEN: counted back from when kubectl printed it.
        format!("{} ago", restartscope_sim::fmt_secs(-t_ms as f64 / 1000.0))
    } else {
        format!("AGE {}", restartscope_sim::fmt_secs(t_ms as f64 / 1000.0))
    }
}

fn answer_text(a: &Answer) -> String {
    let mut out = format!("Answer: {}\n", a.headline);
    for w in &a.reasons {
        out.push_str(&format!("  - {w}\n"));
    }
    out.push_str(&format!("  evidence: {}\n", a.strength));
    if let Some(r) = &a.release {
        out.push_str(&format!("  release: {r}\n"));
    }
    if !a.not_possible.is_empty() {
        out.push_str(&format!(
            "  not possible on {}: {}\n",
            a.release
                .as_deref()
                .and_then(|r| r.split(' ').next())
                .unwrap_or("this release"),
            a.not_possible.join("; ")
        ));
    }
    if !a.collect_next.is_empty() {
        out.push_str("  collect next:\n");
        for c in &a.collect_next {
            out.push_str(&format!("    - {c}\n"));
        }
    }
    out
}

fn table(r: &Report) -> String {
    let (files, paths, verdicts, beside) = (r.files, r.paths, r.verdicts, r.beside);
    let mut out = String::new();
    for s in r.refused {
        out.push_str(&format!("skipped: {s}\n"));
    }
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
    out.push('\n');
    out.push_str(&answer_text(r.answer));
    out.push_str(
        "\nHow each candidate matches (score 0–100; see crates/evidence/src/explain/scoring.rs; the answer's choice first):\n",
    );
    if r.answer.bug.is_some() && r.answer.strength.starts_with("one snapshot") {
        out.push_str("(the answer rests on the snapshot's signature, which these scores, made from Ready sequences, do not see)\n");
    }
    // The best score (the first line may be a kubelet without a bug placed first by the answer).
    if let Some(top) = verdicts.iter().max_by(|a, b| a.score.total_cmp(&b.score)) {
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
    if let Some(b) = beside {
        out.push_str(&format!(
            "\nDifferences, per pod: the evidence beside {} (-o svg draws them)\n{}\n{}\n",
            b.names.join(" and "),
            b.alignment.text,
            b.summary()
        ));
        for l in b.pod_lines() {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out
}
