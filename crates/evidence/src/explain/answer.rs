//! The calibrated answer: does a known bug explain this evidence, or none? A confident wrong
//! answer is the worst outcome, so "no known bug explains this" is an answer with its reasons,
//! and a bug is named only when:
//!
//! - the release the evidence (or `--kubernetes-version`) states can have it (the others are
//!   listed apart, "not possible on v1.21.2", and taken out of the ranking);
//! - nothing the pod itself says explains what was seen: a container `OOMKilled` or exited with
//!   an error, `phase: Failed`, an eviction or an admission rejection ("Pod was rejected: …"),
//!   the node controller's `MarkPodsNotReady` (Ready False beside ContainersReady True), a
//!   container restarted because its definition changed (spec hash), a node NotReady for PLEG;
//! - and either the observed Ready *sequence* (at least one change) matches the bug's run (60 of
//!   100 or more) strictly better than every kubelet without the bug (ties never favour a bug),
//!   or a single snapshot shows a state the stated release's kubelet reaches only through the bug
//!   (kubernetes#136910 on 1.35.0–1.35.3: an app container terminated with an error and restart
//!   count 0 beside a running sidecar, in a pod that is not finished), said to be one snapshot.
//!
//! Another restart (a node reboot, a runtime restart, a 1.30→1.31 upgrade: `restarts`) whose
//! signature scores at least as well as any bug is the answer instead. Each answer says in words
//! how strong the evidence is and what to collect next. Mirrors no
//! Kubernetes file; the signatures cite the kubelet code they come from.

use super::candidates::{observed_downtime_s, Bug, BUGS};
use super::facts::pod_facts;
use super::restarts::{self, OtherRestart};
use super::snapshot::sidecar_stuck;
use super::verdict::Verdict;
use super::versions::{evidence_version, seen_version, SeenVersion};
use crate::types::{Obs, What};
use restartscope_sim::Policy;
use serde::Serialize;

/// How far ahead of every kubelet without the bug a bug's run must score to be named when the
/// evidence does not show the kubelet's restart.
const SHAPE_MARGIN: f64 = 10.0;

/// What `replay` answers first.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// One sentence: "No known bug explains this." or "kubernetes#136910 explains this …".
    pub headline: String,
    /// The bug named (`kubernetes#136910`), if any.
    pub bug: Option<String>,
    /// The other restart named instead of a bug (its run: `node-reboot`, `runtime-restart`,
    /// `upgrade-1.30-to-1.31`, an upgrade's own releases as `upgrade-1.34.2-to-1.35`), if any.
    pub restart: Option<String>,
    pub preset: Option<String>,
    /// Why, in words: the pod's own facts first, then the comparison.
    pub reasons: Vec<String>,
    /// How strong the evidence is ("one observation; weak").
    pub strength: String,
    /// What to collect next.
    pub collect_next: Vec<String>,
    /// The release the bugs were checked against (`v1.21.2 (--kubernetes-version)`).
    pub release: Option<String>,
    /// Known bugs that release cannot have (taken out of the ranking).
    pub not_possible: Vec<String>,
}

impl Answer {
    /// The answer in a few words, as the SVG's title and the app's label say it: "kubernetes#136910
    /// explains this", "a node reboot explains this", "no known bug explains this".
    pub fn short(&self) -> String {
        // A downgrade's run is the upgrade between the same releases (`upgrade::run`).
        if self.bug.is_none() && self.headline.starts_with("An in-place kubelet downgrade") {
            return "an in-place kubelet downgrade explains this".into();
        }
        restarts::short(self.bug.as_deref(), self.restart.as_deref())
    }
}

/// Whether a release can have the bug: a legacy-kubelet bug every release (its legacy kubelet,
/// behind ChangeContainerStatusOnKubeletRestart=true from 1.35); a KEP-4781 bug a release from
/// 1.35 that has not yet got its fix.
pub(super) fn bug_possible(b: &Bug, seen: SeenVersion) -> bool {
    match (b.policy, seen) {
        (Policy::Legacy, _) => true,
        (_, SeenVersion::Older) => false,
        (_, SeenVersion::Known(v)) => {
            v.has_kep_4781() && b.fixed.is_none_or(|f| v.line() < f.line())
        }
    }
}

/// Whether a release's kubelet (a verdict without a bug: `1.36 · default (KEP-4781)`) has the
/// bug: the bug's kubelet (legacy or KEP-4781) on a release that can have it.
fn kubelet_has(v: &Verdict, b: &Bug) -> bool {
    let policy = if v.kubelet.contains("(legacy)") {
        Policy::Legacy
    } else {
        Policy::Kep
    };
    let release = v
        .candidate
        .split(' ')
        .next()
        .and_then(seen_version)
        .unwrap_or(SeenVersion::Older);
    policy == b.policy && bug_possible(b, release)
}

fn bug_of(v: &Verdict) -> Option<&'static Bug> {
    let p = v.preset.as_deref()?;
    BUGS.iter().find(|b| b.preset == p)
}

/// The release to check against: `--kubernetes-version`, else the evidence's kubelet version.
pub(super) fn release(obs: &[Obs], version: Option<&str>) -> Option<(String, SeenVersion)> {
    match version.and_then(|v| seen_version(v).map(|s| (v, s))) {
        Some((v, s)) => Some((
            format!(
                "{}{v} (--kubernetes-version)",
                if v.starts_with('v') { "" } else { "v" }
            ),
            s,
        )),
        None => evidence_version(obs).map(|(v, s)| (format!("{v} (the evidence's kubelet)"), s)),
    }
}

/// Whether the evidence shows the kubelet restarting (its start or stop, a lease gap, its
/// first seconds' words).
fn restart_seen(obs: &[Obs]) -> bool {
    obs.iter()
        .any(|o| matches!(o.what, What::KubeletStarted | What::KubeletStopped))
        || observed_downtime_s(obs).is_some()
        || obs.iter().any(|o| match &o.what {
            // The kubelet's first seconds: its PLEG had not relisted once since it started.
            What::NodeNotReadyBecause(m) | What::RuntimeDown(m) => {
                crate::klog_says::pleg_never_relisted(m)
            }
            _ => false,
        })
}

/// Ready changes observed (a sequence: watch rows, audit writes, events, successive snapshots).
/// A Ready change the node lifecycle controller wrote (its NodeNotReady on the pod,
/// MarkPodsNotReady): every release writes it alike, so it is no kubelet's signature.
fn by_controller(o: &Obs) -> bool {
    o.by.as_deref()
        .is_some_and(|b| b.contains("node-controller"))
}

/// Ready changes the kubelet (or an unknown writer) made: a sequence (watch rows, audit writes,
/// kubelet status patches, successive snapshots); the node controller's are not counted.
fn ready_changes(obs: &[Obs]) -> usize {
    let changes = obs
        .iter()
        .filter(|o| matches!(o.what, What::ReadyChanged(_)) && !by_controller(o))
        .count();
    if changes > 0 {
        return changes;
    }
    // Successive snapshots of one pod that differ.
    let mut sinces: Vec<(&str, i64, bool)> = obs
        .iter()
        .filter_map(|o| match o.what {
            What::ReadySince(b) => Some((o.pod.as_deref().unwrap_or(""), o.t_ms, b)),
            _ => None,
        })
        .collect();
    sinces.sort();
    sinces.dedup();
    sinces
        .windows(2)
        .filter(|w| w[0].0 == w[1].0 && w[0].2 != w[1].2)
        .count()
}

fn strength(obs: &[Obs], changes: usize) -> String {
    let n = obs.len();
    let files = {
        let mut f: Vec<usize> = obs.iter().map(|o| o.file).collect();
        f.sort_unstable();
        f.dedup();
        f.len()
    };
    let snapshot_only = changes == 0
        && obs.iter().any(|o| matches!(o.what, What::ReadySince(_)))
        && obs
            .iter()
            .all(|o| !matches!(o.what, What::ReadyChanged(_) | What::ReadyAtStart(_)));
    let what = if n <= 1 {
        "one observation".to_string()
    } else if snapshot_only {
        format!("{n} observations of one moment (a snapshot)")
    } else {
        format!(
            "{n} observations, {changes} Ready change{}",
            if changes == 1 { "" } else { "s" }
        )
    };
    let from = if files > 1 {
        format!(" from {files} files")
    } else {
        String::new()
    };
    let grade = if n <= 1 || (snapshot_only && files == 1) || changes == 0 {
        "weak"
    } else if changes >= 2 && (files > 1 || restart_seen(obs)) {
        "strong"
    } else {
        "moderate"
    };
    format!("{what}{from}; {grade}")
}

fn collect_next(obs: &[Obs], release: bool) -> Vec<String> {
    let mut out = Vec::new();
    let has = |f: &dyn Fn(&What) -> bool| obs.iter().any(|o| f(&o.what));
    if !has(&|w| matches!(w, What::ReadyChanged(_) | What::ReadyAtStart(_))) {
        out.push("the pod's Ready over time: `kubectl get pods -w` during the next kubelet restart, or `kubectl get events -o yaml` soon after".into());
    }
    if !restart_seen(obs) {
        out.push("the kubelet's own log around the incident: `journalctl -u kubelet -o short-iso` (its start, probe results, status patches)".into());
    }
    if !obs.iter().any(|o| {
        o.by.as_deref().is_some_and(|b| {
            b.starts_with("system:node:") || b.starts_with("system:serviceaccount")
        }) && matches!(o.what, What::ReadyChanged(_) | What::ReadyAtStart(_))
    }) {
        out.push(
            "the API server's audit log for the pod's status writes (who wrote Ready, when)".into(),
        );
    }
    if !release {
        out.push("the kubelet's version: `kubectl get node NODE -o yaml` (status.nodeInfo.kubeletVersion), or pass --kubernetes-version".into());
    }
    out
}

/// The answer, and the ranking it goes with: bugs the release cannot have taken out, ties and
/// "no bug" answers never led by a bug. `verdicts` as `explain_for` ranks them.
pub fn answer(
    obs: &[Obs],
    verdicts: Vec<Verdict>,
    version: Option<&str>,
) -> (Answer, Vec<Verdict>) {
    let rel = release(obs, version);
    let mut not_possible = Vec::new();
    let mut ranked: Vec<Verdict> = Vec::new();
    for v in verdicts {
        match (bug_of(&v), &rel) {
            (Some(b), Some((_, s))) if !bug_possible(b, *s) => {
                let line = format!("{} (fix: {})", b.issue, b.fixed_in);
                if !not_possible.contains(&line) {
                    not_possible.push(line);
                }
            }
            _ => ranked.push(v),
        }
    }
    let facts = pod_facts(obs);
    // What explains a stopped or restarted container, or a finished pod, without a bug: these
    // keep a bug from being named. The node controller's NotReady and a node NotReady are listed
    // too, but every release writes them alike, so the comparison with kubelets without the bug
    // decides.
    let vetoes = facts
        .iter()
        .filter(|f| {
            !f.contains("the expected behaviour of every release") && !f.starts_with("node ")
        })
        .count();
    let changes = ready_changes(obs);
    let mut reasons = facts.clone();
    let mut named: Option<usize> = None;
    let mut strength_words = strength(obs, changes);
    let mut assumed_sidecar = false;
    // A snapshot's signature.
    if let Some(st) = sidecar_stuck(obs) {
        let (pod, c, line) = (&st.pod, &st.container, st.line);
        let b = BUGS.iter().find(|b| b.issue == "kubernetes#136910");
        let i = b.and_then(|b| {
            ranked
                .iter()
                .position(|v| v.preset.as_deref() == Some(b.preset))
        });
        let (c, beside) = match st.assumed_sidecar {
            None => (format!("app container {c}"), format!("beside a running sidecar (line {line})")),
            Some(l) => (format!("container {c}"), format!("beside a running container (line {l}) that the pasted fragments do not say is a sidecar")),
        };
        match (&rel, i) {
            (Some((r, _)), Some(i)) => {
                named = Some(i);
                reasons.push(format!(
                    "{pod}: {c} terminated with an error and restart count 0 {beside}, in a pod that is not finished: on {r} the kubelet leaves it so only through kubernetes#136910 (after a kubelet restart the sidecar's startup result is lost and the app container is never restarted); a kubelet without the bug restarts it within its back-off"
                ));
                strength_words = match st.assumed_sidecar {
                    None => "one snapshot: a state, not a sequence; it shows the bug's signature but not when the kubelet restarted — moderate".into(),
                    Some(_) => "one snapshot, in fragments that do not say which container is the sidecar: a state, not a sequence — weak".into(),
                };
                if st.assumed_sidecar.is_some() {
                    reasons.push("the answer holds only if the running container is a sidecar (an init container with restartPolicy: Always, as in the report): if both are app containers of a pod with restartPolicy: Never (a Job beside a sidecar run as an app container, such as istio-proxy), every release leaves the pod so, and no bug explains it".into());
                }
            }
            (Some((r, _)), None) => reasons.push(format!(
                "{pod}: {c} terminated with restart count 0 {beside}: kubernetes#136910's signature, but {r} cannot have that bug"
            )),
            (None, _) => reasons.push(format!(
                "{pod}: {c} terminated with restart count 0 {beside}: kubernetes#136910's signature on 1.35.0–1.35.3, but the kubelet's version is not in the evidence (give --kubernetes-version)"
            )),
        }
        assumed_sidecar = st.assumed_sidecar.is_some();
    }
    if named.is_none() {
        let best_bug = ranked.iter().position(|v| bug_of(v).is_some());
        let controller = obs
            .iter()
            .filter(|o| matches!(o.what, What::ReadyChanged(_)) && by_controller(o))
            .count();
        // Ready as seen at least twice for one pod (its first state and a change, or two
        // changes): one point is no sequence.
        let seen = |o: &&Obs| {
            matches!(o.what, What::ReadyAtStart(_) | What::ReadyChanged(_)) && !by_controller(o)
        };
        let points = if obs.iter().any(|o| matches!(o.what, What::ReadyChanged(_))) {
            obs.iter().filter(seen).count()
        } else {
            // Successive snapshots: the first is the state before.
            changes + 1
        };
        if changes == 0 && controller > 0 {
            reasons.push("the only Ready change observed is the node controller's NotReady (its lease expired or its status was late): every release writes it; no kubelet bug shows in it".into());
        } else if changes == 1 && points < 2 {
            reasons.push("one Ready change alone, without the state before it, is no sequence: it cannot tell a bug's run from a kubelet without the bug".into());
        } else if changes == 0 {
            reasons.push(if restart_seen(obs) {
                "no Ready change was observed around the kubelet restart: the restart bugs all change Ready".into()
            } else {
                "no Ready change was observed, and no kubelet restart: nothing here for a kubelet-restart bug to explain".into()
            });
            if obs.iter().any(|o| matches!(o.what, What::ReadySince(_))) {
                reasons.push("a snapshot's \"Ready since T\" is a state every release reaches; it names no bug on its own".into());
            }
        } else if let Some(i) = best_bug {
            let bug = &ranked[i];
            let b = bug_of(bug);
            let without = ranked
                .iter()
                .filter(|v| v.preset.is_none() && b.is_some_and(|b| !kubelet_has(v, b)))
                .max_by(|a, b| a.score.total_cmp(&b.score));
            let issue = b.map_or("?", |b| b.issue);
            match without {
                _ if vetoes > 0 => reasons.push(format!(
                    "{issue} matches the Ready sequence (score {:.1}), but what the pod itself says (above) explains it without a bug",
                    bug.score
                )),
                _ if bug.score < 60.0 => reasons.push(format!(
                    "the best-matching bug, {issue}, scores {:.1}: its run does not reproduce the observed Ready sequence",
                    bug.score
                )),
                Some(w) if w.score >= bug.score => reasons.push(format!(
                    "the best-matching bug, {issue} (score {:.1}), does no better than a kubelet without it, {} (score {:.1}): the evidence does not tell them apart",
                    bug.score, w.candidate, w.score
                )),
                // On the sequence's shape alone (no kubelet restart in the evidence), a bug is
                // named only well ahead of every kubelet without it: a guess is never ranked first.
                Some(w) if !restart_seen(obs) && bug.score - w.score < SHAPE_MARGIN => reasons.push(format!(
                    "the Ready sequence's shape fits {issue} (score {:.1}) only slightly better than a kubelet without it, {} (score {:.1}), and no kubelet restart shows in the evidence: too little to name a bug",
                    bug.score, w.candidate, w.score
                )),
                w => {
                    named = Some(i);
                    reasons.push(format!(
                        "the observed Ready sequence is {issue}'s run (score {:.1}){}",
                        bug.score,
                        w.map_or(String::new(), |w| format!(
                            "; the best kubelet without the bug, {}, scores {:.1}",
                            w.candidate, w.score
                        ))
                    ));
                    if !restart_seen(obs) {
                        reasons.push("the evidence does not show the kubelet's restart itself: the match is on the sequence's shape and timing".into());
                    }
                }
            }
        } else {
            reasons.push("no known bug's run matches the observed Ready sequence".into());
        }
    }
    // Another restart whose signature scores at least as well as the bug (ties never favour a
    // bug) is the answer: what the evidence shows.
    let bug_score = match named {
        Some(i) => Some(ranked[i].score),
        None => ranked
            .iter()
            .filter(|v| bug_of(v).is_some())
            .map(|v| v.score)
            .max_by(|a, b| a.total_cmp(b)),
    };
    let restart = restarts::named(&ranked, bug_score).and_then(|i| {
        let v = ranked.remove(i);
        ranked.insert(0, v);
        OtherRestart::of_verdict(&ranked[0])
    });
    if restart.is_some() {
        // A restart is named on its own signature: the evidence is as strong as that is.
        let score = ranked[0].score;
        let grade = if score >= 80.0 {
            "strong"
        } else if score >= 60.0 {
            "moderate"
        } else {
            "weak"
        };
        let what = strength_words
            .rsplit_once("; ")
            .map_or(strength_words.as_str(), |(w, _)| w)
            .to_string();
        strength_words = format!("{what}; named on its own signature, {score:.0} of 100: {grade}");
    }
    if restart.is_some() {
        let mut why = ranked[0].why.clone();
        if named.is_some() {
            why.push(format!(
                "its signature scores {:.1}, at least the bug's: the bug is not named",
                ranked[0].score
            ));
        }
        named = None;
        let at = facts.len().min(reasons.len());
        reasons.splice(at..at, why);
    }
    // Nothing named: what the evidence shows of another restart, and why it names none.
    if restart.is_none() && named.is_none() {
        reasons.extend(super::unnamed::why_none(obs, &ranked));
    }
    // The ranking: the restart or the named bug first; else a kubelet behaving as designed first.
    if restart.is_some() {
        // Placed above.
    } else if let Some(i) = named {
        let v = ranked.remove(i);
        ranked.insert(0, v);
    } else if let Some(i) = ranked.iter().position(|v| v.preset.is_none()) {
        let v = ranked.remove(i);
        ranked.insert(0, v);
    }
    let (headline, bug, preset) = match named.map(|_| &ranked[0]) {
        Some(v) => {
            let issue = bug_of(v).map_or("?", |b| b.issue);
            (
                format!(
                    "{issue} explains this ({}){}",
                    match (bug_of(v).map(|b| b.policy), &rel) {
                        // A legacy-kubelet bug is every release's legacy kubelet, not the
                        // preset's release: say which kubelet, and the release if known.
                        (Some(Policy::Legacy), Some((r, _))) => format!("the legacy kubelet, on {r}"),
                        (Some(Policy::Legacy), None) => "the legacy kubelet: every release before 1.35, and 1.35+ with ChangeContainerStatusOnKubeletRestart=true".to_string(),
                        _ => v.kubelet.clone(),
                    },
                    match (strength_words.starts_with("one snapshot"), assumed_sidecar) {
                        (true, true) => " — on one snapshot, if the running container is a sidecar",
                        (true, false) => " — on one snapshot",
                        _ => "",
                    }
                ),
                Some(issue.to_string()),
                v.preset.clone(),
            )
        }
        None => match restart {
            // The restart's run (`upgrade-1.34.2-to-1.35`), first in the ranking.
            Some(k) => (k.headline(obs), None, ranked[0].restart.clone()),
            None => ("No known bug explains this.".to_string(), None, None),
        },
    };
    (
        Answer {
            headline,
            bug,
            restart: restart.and(ranked[0].restart.clone()),
            preset,
            reasons,
            strength: strength_words,
            collect_next: {
                let mut c = collect_next(obs, rel.is_some());
                if assumed_sidecar {
                    c.insert(0, "which container is the sidecar, and the pod's restartPolicy: `kubectl get pod NAME -o yaml` (spec.initContainers[].restartPolicy, status.initContainerStatuses)".into());
                }
                c
            },
            release: rel.map(|r| r.0),
            not_possible,
        },
        ranked,
    )
}
