//! "Is this a known bug?": the observed per-pod sequences set beside the model's runs.
//!
//! Candidates (`candidates`): every release profile line (`KubeVersion::ALL`, or the one
//! release given) with each kubelet it has (legacy; KEP-4781 from 1.35), run on a scenario
//! made from the evidence (a manifest's scenario if given, else one pod per observed pod with
//! the default readiness probe, failing readiness when first seen NotReady); and each real-bug
//! preset (`report-*`) under its own version and the kubelet the bug needs. The downtime comes
//! from the evidence (systemd stop → start, or the longest lease gap minus one renew
//! interval) when it has one, else the scenario's.
//!
//! `explain` scores each candidate 0–100 and sorts them, best first. Per observed pod, matched
//! to the model pod of the same name or else the one that scores best:
//!
//! - 60: the sequence of Ready changes (values in order) is the model's; a partial match gets
//!   the share of the common prefix, at most 40;
//! - 10: the Ready state first seen is the model's before the restart;
//! - 20: the gaps between consecutive changes (and, when the evidence dates the kubelet's
//!   start, each change's delay after it) are the model's within the tolerance: one probe
//!   period of the pod + one node lifecycle controller pass (5 s) + the source's resolution
//!   (1 s for kubectl's AGE below 10 minutes);
//! - 10: restarts and Started changes, where the evidence has them, are the model's.
//!
//! - (of those 10) 5 off when the evidence shows a container exit the model's pod does not have.
//!
//! A `kubectl get pod -o yaml` snapshot has one Ready transition: it is scored on the model's final
//! Ready (`score_snapshot`). The candidate's score is the mean over observed pods. A preset whose
//! pods carry the observed names gets 3 more; when the kubelet's version is known (the evidence's
//! Node kubeletVersion or "Kubelet version" line, else `--kubernetes-version`), a release that is
//! not it, or a bug it cannot have, loses 10 (`explain_for`). At equal scores a preset (a named
//! report) comes first, and every candidate that shares its score with others says it is
//! indistinguishable from them on this evidence.
//!
//! The other restarts (a node reboot, a runtime restart, an in-place kubelet upgrade:
//! `restarts`, `upgrade`) are candidates too, scored 0–100 on their own signature in the evidence alone;
//! at equal scores they come before a bug.
//!
//! Modules: `candidates` (the known bugs and the model runs to compare), `restarts` (the other
//! restarts' signatures), `unnamed` (why none is named), `upgrade` (every upgraded node, the upgrade's sentence and run),
//! `versions` (the kubelet's release as the evidence names it),
//! `sequence` (one pod's Ready sequence, observed or modelled), `snapshot` (a single
//! snapshot's bug signature), `facts` (what the pod itself says), `scoring` (one pod's score, the tolerance, which model pod an observed pod is
//! compared with); here, the ranking of the candidates. Called by the CLI's `replay` and by
//! `observed` (the pairing and the tolerance). Mirrors no Kubernetes file.

mod answer;
mod candidates;
mod facts;
mod restarts;
mod scoring;
mod sequence;
mod snapshot;
mod unnamed;
mod upgrade;
mod verdict;
mod versions;

pub use answer::{answer, Answer};
pub use candidates::{
    candidates, observed_downtime_s, observed_pods, scenario_from, Bug, Candidate, BUGS,
};
pub use restarts::{signature, OtherRestart, Signature, NAMED_AT};
pub use scoring::{matched_pods, tolerance_ms};
pub use verdict::Verdict;
pub use versions::{evidence_version, seen_version, SeenVersion};

use crate::types::{Obs, What};
use restartscope_sim::{simulate_profile, KubeVersion, Policy};
use scoring::{score_pod, ModelPods, PodScore};
use sequence::observed_all;

/// Whether the candidate can be the kubelet that ran: a release profile of the same line (a
/// kubelet older than 1.31: the 1.31 legacy profile, the model's oldest); a bug whose kubelet the
/// release has and has not fixed (a legacy-kubelet bug: every release).
fn runs_on(c: &Candidate, seen: SeenVersion) -> bool {
    match (c.bug, seen) {
        (None, SeenVersion::Known(v)) => c.profile.version.line() == v.line(),
        (None, SeenVersion::Older) => {
            c.profile.version.line() == KubeVersion::V1_31.line()
                && c.profile.policy() == Policy::Legacy
        }
        (Some(b), s) => answer::bug_possible(&b, s),
    }
}

/// Points off a candidate whose release cannot be the evidence's kubelet.
pub const OTHER_RELEASE_PENALTY: f64 = 10.0;

/// Ranks the candidates against the observations, best first; the kubelet version is the one the
/// evidence states (see `explain_for`).
pub fn explain(obs: &[Obs], candidates: &[Candidate]) -> Vec<Verdict> {
    explain_for(obs, candidates, None)
}

/// Ranks the candidates against the observations, best first. `version` (the user's
/// `--kubernetes-version`, any `1.MINOR[.PATCH]`: older than 1.31 is a legacy kubelet like 1.31's)
/// or else the evidence's kubelet version (a Node's kubeletVersion, the kubelet's "Kubelet
/// version" line) takes `OTHER_RELEASE_PENALTY` points off every candidate whose release cannot
/// have run: so the matching release comes first among equals. Candidates left with the same
/// score are said to be indistinguishable on this evidence.
pub fn explain_for(obs: &[Obs], candidates: &[Candidate], version: Option<&str>) -> Vec<Verdict> {
    let seen = match version.and_then(|v| seen_version(v).map(|s| (v, s))) {
        Some((v, s)) => Some((format!("{v} (--kubernetes-version)"), s)),
        None => evidence_version(obs),
    };
    let mut out = rank(obs, candidates, seen.as_ref());
    // Equal scores: say so.
    let scores: Vec<(f64, String)> = out.iter().map(|v| (v.score, v.candidate.clone())).collect();
    for v in &mut out {
        let same: Vec<&str> = scores
            .iter()
            .filter(|(s, c)| *s == v.score && *c != v.candidate)
            .map(|(_, c)| c.as_str())
            .collect();
        if !same.is_empty() {
            v.why.push(format!(
                "indistinguishable on this evidence from {} other candidate{} with the same score ({}{})",
                same.len(),
                if same.len() == 1 { "" } else { "s" },
                same.iter().take(3).copied().collect::<Vec<_>>().join("; "),
                if same.len() > 3 { "; …" } else { "" }
            ));
        }
    }
    out
}

fn rank(
    obs: &[Obs],
    candidates: &[Candidate],
    seen: Option<&(String, SeenVersion)>,
) -> Vec<Verdict> {
    let pods = observed_pods(obs);
    let obs_start = obs
        .iter()
        .find(|o| o.what == What::KubeletStarted)
        .map(|o| o.t_ms);
    let seqs = observed_all(obs, &pods);
    // A pod that stays Ready says something only beside a restart (seen, or shown by another
    // pod's Ready change).
    let restart_seen = obs_start.is_some()
        || obs.iter().any(|o| o.what == What::KubeletStopped)
        || candidates::observed_downtime_s(obs).is_some()
        || seqs.iter().any(|s| !s.ready.is_empty());
    // The kubelet's start on each pod's clock: in the file its Ready changes come from (files
    // keep their own clocks), else the first seen.
    let mut first_start: Vec<(usize, i64)> = Vec::new();
    for o in obs.iter().filter(|o| o.what == What::KubeletStarted) {
        if !first_start.iter().any(|(f, _)| *f == o.file) {
            first_start.push((o.file, o.t_ms));
        }
    }
    let starts: Vec<Option<i64>> = seqs
        .iter()
        .map(|s| match s.ready_file {
            Some(f) => first_start.iter().find(|(g, _)| *g == f).map(|x| x.1),
            None => obs_start,
        })
        .collect();
    let mut out: Vec<(Verdict, bool)> = Vec::new();
    for c in candidates {
        // Another restart: its own signature alone (a run it cannot produce is said).
        if let Some(r) = c.restart {
            let sig = restarts::signature(r, obs);
            let mut why = sig.why;
            if why.is_empty() {
                why.push(format!("no sign of {} in the evidence (0)", r.what()));
            }
            let ran = simulate_profile(&c.scenario, &c.profile).is_ok();
            if !ran {
                why.push("its model run could not be simulated".into());
            }
            out.push((
                Verdict {
                    candidate: c.name(),
                    kubelet: c.profile.long_label(),
                    preset: Some(c.scenario.name.clone()),
                    known_bug: None,
                    fixed_in: None,
                    restart: Some(c.scenario.name.clone()),
                    score: if ran { sig.score } else { 0.0 },
                    why,
                },
                false,
            ));
            continue;
        }
        let tr = match simulate_profile(&c.scenario, &c.profile) {
            Ok(t) => t,
            Err(e) => {
                out.push((
                    Verdict {
                        candidate: c.name(),
                        kubelet: c.profile.long_label(),
                        preset: c.bug.map(|b| b.preset.to_string()),
                        known_bug: c.bug.map(|b| b.issue.to_string()),
                        fixed_in: None,
                        restart: None,
                        score: 0.0,
                        why: vec![format!(
                            "not simulated: {}",
                            e.first().map_or(String::new(), |f| f.message.clone())
                        )],
                    },
                    false,
                ));
                continue;
            }
        };
        let model_start = tr.restarts.first().map_or(0, |r| r.1);
        let names: Vec<&str> = tr.pods.iter().map(|p| p.name.as_str()).collect();
        let mut total = 0.0;
        let mut why = Vec::new();
        let model = ModelPods::new(&tr, obs);
        for ((p, o), &obs_start) in pods.iter().zip(&seqs).zip(&starts) {
            // A pod whose Ready the evidence never shows changing, in evidence without a kubelet
            // restart (one `1/1` row, one status write of unknown content): nothing to compare,
            // so no candidate earns points for "writes no change either".
            if o.ready.is_empty() && o.since.is_none() && !restart_seen {
                why.push(format!(
                    "{p}: no Ready change observed, and neither a kubelet restart nor another pod's Ready change in the evidence: nothing to compare (0)"
                ));
                continue;
            }
            let score = |i: usize, want_why: bool| {
                let (m, tol) = model.get(i);
                score_pod(p, o, m, tol, obs_start, model_start, want_why)
            };
            // No model pod of its name: the best-scoring one (found on the scores alone, the
            // last of equals as `max_by` gives), then its words.
            let s = match names.iter().position(|n| n == p).or_else(|| {
                (0..names.len())
                    .map(|i| (i, score(i, false).score))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|x| x.0)
            }) {
                Some(i) => score(i, true),
                None => PodScore {
                    score: 0.0,
                    why: format!("{p}: the model has no pods"),
                },
            };
            total += s.score;
            why.push(s.why);
        }
        let mut score = if pods.is_empty() {
            0.0
        } else {
            total / pods.len() as f64
        };
        let named = !pods.is_empty() && pods.iter().all(|p| names.contains(&p.as_str()));
        // The report's pod names count only beside something compared.
        if c.bug.is_some() && named && total > 0.0 {
            score += 3.0;
            why.push("the observed pods carry the report's pod names (+3)".into());
        }
        if let Some((v, sv)) = seen {
            if !runs_on(c, *sv) {
                score -= OTHER_RELEASE_PENALTY;
                why.push(format!(
                    "the evidence's kubelet is {v}: {} (−{OTHER_RELEASE_PENALTY})",
                    match (c.bug, sv) {
                        (Some(b), SeenVersion::Known(v)) if v.has_kep_4781() => {
                            format!("its kubelet has {}'s fix ({})", b.issue, b.fixed_in)
                        }
                        (Some(b), _) => {
                            format!("{} needs the KEP-4781 kubelet, which is from 1.35", b.issue)
                        }
                        (None, _) => "not this release".to_string(),
                    }
                ));
            }
        }
        if let Some(b) = c.bug {
            why.push(format!(
                "{} on {}; fix: {}",
                b.issue,
                c.profile.long_label(),
                b.fixed_in
            ));
        }
        out.push((
            Verdict {
                candidate: c.name(),
                kubelet: c.profile.long_label(),
                preset: c.bug.map(|b| b.preset.to_string()),
                known_bug: c.bug.map(|b| {
                    format!(
                        "{} (https://github.com/kubernetes/kubernetes/issues/{})",
                        b.issue,
                        &b.issue[11..]
                    )
                }),
                fixed_in: c.bug.map(|b| b.fixed_in.to_string()),
                restart: None,
                score: (score.max(0.0) * 10.0).round() / 10.0,
                why,
            },
            c.bug.is_some(),
        ));
    }
    // Ties never favour a bug: at equal scores a release's kubelet comes first.
    out.sort_by(|a, b| b.0.score.total_cmp(&a.0.score).then(a.1.cmp(&b.1)));
    out.into_iter().map(|(v, _)| v).collect()
}
