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

use crate::{Obs, What};
use restartscope_sim::{
    presets, simulate_profile, Health, Kind, KubeVersion, KubeletProfile, Policy, Probe, Scenario,
    Trace, Truth, Value,
};
use serde::Serialize;

/// A known bug: the report, what it is, where it is fixed.
#[derive(Clone, Copy, Debug)]
pub struct Bug {
    pub preset: &'static str,
    pub issue: &'static str,
    pub policy: Policy,
    pub fixed_in: &'static str,
    /// The first release line whose kubelet (of the bug's policy) no longer has it; `None`: not
    /// fixed for that kubelet (the legacy kubelet keeps its restart behaviour; #142305 is open).
    pub fixed: Option<KubeVersion>,
}

pub const BUGS: [Bug; 7] = [
    Bug {
        preset: "report-113646-flap",
        issue: "kubernetes#113646",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781, the default kubelet; the gate ChangeContainerStatusOnKubeletRestart=true keeps the legacy behaviour)",
        fixed: None,
    },
    Bug {
        preset: "report-125397-startup-rerun",
        issue: "kubernetes#125397",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781 keeps Started; the legacy kubelet behind ChangeContainerStatusOnKubeletRestart=true still reruns the startup probe)",
        fixed: None,
    },
    Bug {
        preset: "report-135795-notready-flip",
        issue: "kubernetes#135795",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781 keeps the pod NotReady; the legacy kubelet behind ChangeContainerStatusOnKubeletRestart=true still flips it)",
        fixed: None,
    },
    Bug {
        preset: "report-136910-sidecar-startup",
        issue: "kubernetes#136910",
        policy: Policy::Kep,
        fixed_in: "1.35.4 (#137885) and 1.36.0 (#137146)",
        fixed: Some(KubeVersion::V1_35_4),
    },
    Bug {
        preset: "report-141155-started-by-name",
        issue: "kubernetes#141155",
        policy: Policy::Kep,
        fixed_in: "1.38 / main (#141342); cherry-picks to 1.35–1.37 open",
        fixed: Some(KubeVersion::V1_38),
    },
    Bug {
        preset: "report-142305-started-early",
        issue: "kubernetes#142305",
        policy: Policy::Kep,
        fixed_in: "not fixed (open; PR #142303 proposed)",
        fixed: None,
    },
    Bug {
        preset: "report-141473-replaced-during-partition",
        issue: "kubernetes#141473",
        policy: Policy::Kep,
        fixed_in: "1.38 / main (#141487); cherry-picks to 1.35–1.37 open",
        fixed: Some(KubeVersion::V1_38),
    },
];

/// One model run to compare with the evidence.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub scenario: Scenario,
    pub profile: KubeletProfile,
    pub bug: Option<Bug>,
}

impl Candidate {
    pub fn name(&self) -> String {
        match self.bug {
            Some(b) => format!("{} · {}", b.preset, self.profile.long_label()),
            None => self.profile.long_label(),
        }
    }
}

/// A candidate's score and why.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// `report-113646-flap · 1.35 · ChangeContainerStatusOnKubeletRestart=true (legacy)` or a
    /// release's kubelet label.
    pub candidate: String,
    pub kubelet: String,
    pub preset: Option<String>,
    pub known_bug: Option<String>,
    pub fixed_in: Option<String>,
    /// 0–100.
    pub score: f64,
    pub why: Vec<String>,
}

/// The kubelet's downtime the evidence shows, in seconds: a systemd stop followed by a start,
/// else the longest gap between lease renewals less one renew interval (10 s) when it is over
/// 15 s.
pub fn observed_downtime_s(obs: &[Obs]) -> Option<f64> {
    let stop = obs.iter().find(|o| o.what == What::KubeletStopped);
    if let Some(stop) = stop {
        if let Some(start) = obs
            .iter()
            .find(|o| o.what == What::KubeletStarted && o.t_ms > stop.t_ms && o.file == stop.file)
        {
            return Some((start.t_ms - stop.t_ms) as f64 / 1000.0);
        }
    }
    let mut leases: Vec<i64> = obs
        .iter()
        .filter(|o| o.what == What::LeaseRenewed)
        .map(|o| o.t_ms)
        .collect();
    leases.sort_unstable();
    let gap = leases.windows(2).map(|w| w[1] - w[0]).max()?;
    (gap > 15_000).then(|| (gap - 10_000) as f64 / 1000.0)
}

/// The pods the evidence names, in order of first appearance.
pub fn observed_pods(obs: &[Obs]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for o in obs {
        if let Some(p) = &o.pod {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// A scenario made from the evidence alone: one pod per observed pod, one container with the
/// default readiness probe, failing readiness from the start when first seen NotReady; the
/// kubelet restarted at 60 s for the observed downtime (else 10 s).
pub fn scenario_from(obs: &[Obs]) -> Scenario {
    let mut sc = presets::short_restart();
    sc.name = "evidence".into();
    sc.description = "A scenario made from the evidence's pods".into();
    let proto = sc.pods[0].clone();
    let names = observed_pods(obs);
    let names = if names.is_empty() {
        vec!["pod-0".to_string()]
    } else {
        names
    };
    sc.pods = names
        .iter()
        .take(110)
        .map(|n| {
            let mut p = proto.clone();
            p.name = n.clone();
            p.containers[0].readiness_probe = Some(Probe::default());
            let not_ready = obs
                .iter()
                .any(|o| o.pod.as_deref() == Some(n) && o.what == What::ReadyAtStart(false));
            if not_ready {
                p.containers[0].truth = vec![Truth {
                    at_s: 0.0,
                    state: Health::FailingReadiness,
                }];
            }
            p
        })
        .collect();
    let down = observed_downtime_s(obs).unwrap_or(10.0);
    // At 60 s: a pod failing readiness has been marked NotReady by then (3 × 10 s).
    sc.kubelet.restarts[0].at_s = 60.0;
    sc.kubelet.restarts[0].downtime_s = down;
    sc.horizon_s = 60.0 + down + 170.0;
    sc
}

/// Every candidate: the release profiles on `base` (or on `scenario_from(obs)`), restricted to
/// `version` when given, and every real-bug preset: a legacy-kubelet bug on the kubelet's release
/// when `version` or the evidence names it, else (and a KEP-4781 bug always) on its own.
pub fn candidates(
    obs: &[Obs],
    base: Option<&Scenario>,
    version: Option<KubeVersion>,
) -> Vec<Candidate> {
    let down = observed_downtime_s(obs);
    let mut base = base.cloned().unwrap_or_else(|| scenario_from(obs));
    if let (Some(d), Some(r)) = (down, base.kubelet.restarts.first_mut()) {
        r.downtime_s = d;
        base.horizon_s = base.horizon_s.max(r.at_s + d + 170.0);
    }
    let versions: Vec<KubeVersion> = match version {
        Some(v) => vec![v],
        None => KubeVersion::ALL.to_vec(),
    };
    // The kubelet's release: the one given, else the evidence's (older than 1.31: 1.31's).
    let known = version.or_else(|| match evidence_version(obs)?.1 {
        SeenVersion::Known(v) => Some(v),
        SeenVersion::Older => Some(KubeVersion::V1_31),
    });
    let mut out = Vec::new();
    for b in BUGS {
        let Some(p) = presets::find(b.preset) else {
            continue;
        };
        let mut sc = (p.build)();
        if let (Some(d), Some(r)) = (down, sc.kubelet.restarts.first_mut()) {
            r.downtime_s = d;
            sc.horizon_s = sc.horizon_s.max(r.at_s + d + 170.0);
        }
        // A legacy-kubelet bug runs on the kubelet's own release when it is known (every release
        // has the legacy kubelet); a KEP-4781 bug on the release its preset names.
        if let (Policy::Legacy, Some(v)) = (b.policy, known) {
            sc.cluster.version = v;
        }
        let Ok(profile) = KubeletProfile::new(sc.cluster.version, b.policy) else {
            continue;
        };
        out.push(Candidate {
            scenario: sc,
            profile,
            bug: Some(b),
        });
    }
    for v in versions {
        let mut sc = base.clone();
        sc.cluster.version = v;
        for profile in KubeletProfile::defaults(v) {
            out.push(Candidate {
                scenario: sc.clone(),
                profile,
                bug: None,
            });
        }
    }
    out
}

/// One pod's sequence, observed or modelled.
#[derive(Clone, Debug, Default)]
struct Seq {
    /// Ready before the restart (first seen).
    initial: Option<bool>,
    /// (t ms, Ready) of each change.
    ready: Vec<(i64, bool)>,
    started: Vec<bool>,
    restarts: Option<u32>,
    /// A snapshot's Ready (`kubectl get pod -o yaml`): (since, value), the last transition only.
    since: Option<(i64, bool)>,
    /// A container exited or was killed (PLEG ContainerDied, a Killing event, a snapshot's
    /// terminated state).
    died: bool,
}

fn observed(obs: &[Obs], pod: &str) -> Seq {
    let mut s = Seq::default();
    let mut restarts = 0u32;
    let mut any_restart = false;
    let mut snapshot_restarts = 0u32;
    let mut sinces: Vec<(i64, bool)> = Vec::new();
    let snapshot = obs
        .iter()
        .any(|o| o.pod.as_deref() == Some(pod) && matches!(o.what, What::RestartCount(_)));
    for o in obs.iter().filter(|o| o.pod.as_deref() == Some(pod)) {
        match &o.what {
            What::ReadyAtStart(b) if s.initial.is_none() => s.initial = Some(*b),
            What::ReadyChanged(b) => {
                if s.initial.is_none() && s.ready.is_empty() {
                    s.initial = Some(!b);
                }
                if s.ready.last().map(|x| x.1) != Some(*b) {
                    s.ready.push((o.t_ms, *b));
                }
            }
            What::StartedChanged(b) => s.started.push(*b),
            What::ReadySince(b) => sinces.push((o.t_ms, *b)),
            What::RestartCount(n) => snapshot_restarts += n,
            What::ContainerDied => s.died = true,
            What::Restarted(n) => {
                any_restart = true;
                restarts = if *n == 0 {
                    restarts + 1
                } else {
                    (*n).max(restarts)
                };
            }
            _ => {}
        }
    }
    // Snapshots (`kubectl get pod -o yaml --watch`, several files): one has its last transition;
    // several that differ are a sequence, the first the state before (as a watch's first row).
    sinces.sort_unstable();
    sinces.dedup();
    if s.ready.is_empty() {
        if let Some(&(t0, b0)) = sinces.first() {
            let mut changes: Vec<(i64, bool)> = Vec::new();
            for &(t, b) in &sinces[1..] {
                if changes.last().map_or(b0, |c| c.1) != b {
                    changes.push((t, b));
                }
            }
            if changes.is_empty() {
                // The latest snapshot's (the same value at a later lastTransitionTime hides a
                // change and its return between the snapshots: not counted).
                s.since = sinces.last().copied().or(Some((t0, b0)));
            } else {
                s.initial = Some(b0);
                s.ready = changes;
            }
        }
    }
    s.restarts = if snapshot {
        // restartCount counts since the pod's creation: the snapshot's, over its containers.
        Some(snapshot_restarts.max(restarts))
    } else {
        any_restart.then_some(restarts)
    };
    s
}

fn modelled(tr: &Trace, pod: u16) -> Seq {
    let restart_at = tr.restarts.first().map_or(0, |r| r.0);
    let mut s = Seq::default();
    let mut before: Option<bool> = None;
    for e in tr.pod_ready_changes(pod) {
        let Value::Bool(b) = e.value else { continue };
        if e.t <= restart_at {
            before = Some(b);
        } else {
            s.ready.push((e.t, b));
        }
    }
    s.initial = Some(before.unwrap_or_else(|| s.ready.first().is_none_or(|x| !x.1)));
    s.started = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::ContainerStarted && e.pod == Some(pod) && e.t > restart_at)
        .filter_map(|e| match e.value {
            Value::Bool(b) => Some(b),
            _ => None,
        })
        .collect();
    s.restarts = Some(
        tr.events
            .iter()
            .filter(|e| e.kind == Kind::ContainerRestart && e.pod == Some(pod))
            .count() as u32,
    );
    s.died = tr
        .events
        .iter()
        .any(|e| e.kind == Kind::ContainerExit && e.pod == Some(pod));
    s
}

fn words(seq: &[(i64, bool)]) -> String {
    seq.iter()
        .map(|(_, b)| if *b { "True" } else { "False" })
        .collect::<Vec<_>>()
        .join("→")
}

fn secs(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

struct PodScore {
    score: f64,
    why: String,
}

fn score_pod(
    name: &str,
    o: &Seq,
    m: &Seq,
    tol_ms: i64,
    obs_start: Option<i64>,
    model_start: i64,
) -> PodScore {
    if let (true, Some(snap)) = (o.ready.is_empty(), o.since) {
        return score_snapshot(name, o, snap, m, tol_ms, obs_start, model_start);
    }
    let mut score = 0.0;
    let ov: Vec<bool> = o.ready.iter().map(|x| x.1).collect();
    let mv: Vec<bool> = m.ready.iter().map(|x| x.1).collect();
    let mut why = String::new();
    let init = |b: Option<bool>| match b {
        Some(true) => "True",
        Some(false) => "False",
        None => "?",
    };
    if ov == mv {
        score += 60.0;
        if ov.is_empty() {
            why.push_str(&format!(
                "{name}: observed no Ready change; the model writes none either"
            ));
        } else {
            why.push_str(&format!(
                "{name}: observed Ready {}→{}; the model writes the same {} change{}",
                init(o.initial),
                words(&o.ready),
                ov.len(),
                if ov.len() == 1 { "" } else { "s" }
            ));
        }
    } else {
        let common = ov.iter().zip(&mv).take_while(|(a, b)| a == b).count();
        let longest = ov.len().max(mv.len()).max(1);
        score += 40.0 * common as f64 / longest as f64;
        let model = if mv.is_empty() {
            "the model writes no Ready change".to_string()
        } else {
            format!(
                "the model writes {}→{} ({} at {} after the kubelet's start)",
                init(m.initial),
                words(&m.ready),
                if m.ready[0].1 { "True" } else { "False" },
                secs(m.ready[0].0 - model_start)
            )
        };
        let seen = if ov.is_empty() {
            "observed no Ready change".to_string()
        } else {
            format!("observed Ready {}→{}", init(o.initial), words(&o.ready))
        };
        why.push_str(&format!("{name}: {seen}; {model}"));
    }
    if o.initial.is_none() || o.initial == m.initial {
        score += 10.0;
    } else {
        why.push_str(&format!(
            "; first seen Ready={}, the model's pod is Ready={} before the restart",
            init(o.initial),
            init(m.initial)
        ));
    }
    // Timing: gaps between consecutive changes, and delays after the kubelet's start.
    if ov == mv && !ov.is_empty() {
        let mut checks = 0;
        let mut ok = 0;
        let mut worst = 0i64;
        for (a, b) in o.ready.windows(2).zip(m.ready.windows(2)) {
            let d = ((a[1].0 - a[0].0) - (b[1].0 - b[0].0)).abs();
            checks += 1;
            worst = worst.max(d);
            if d <= tol_ms {
                ok += 1;
            }
        }
        if let Some(s) = obs_start {
            for (a, b) in o.ready.iter().zip(&m.ready) {
                let d = ((a.0 - s) - (b.0 - model_start)).abs();
                checks += 1;
                worst = worst.max(d);
                if d <= tol_ms {
                    ok += 1;
                }
            }
        }
        if checks == 0 {
            score += 20.0;
        } else {
            score += 20.0 * ok as f64 / checks as f64;
            if o.ready.len() > 1 {
                let og = o.ready[o.ready.len() - 1].0 - o.ready[0].0;
                let mg = m.ready[m.ready.len() - 1].0 - m.ready[0].0;
                why.push_str(&format!(
                    "; {} from first to last change observed, {} modelled",
                    secs(og),
                    secs(mg)
                ));
            }
            if ok == checks {
                why.push_str(&format!(" (timing within ±{})", secs(tol_ms)));
            } else {
                why.push_str(&format!(
                    " ({ok} of {checks} times within ±{}; off by up to {})",
                    secs(tol_ms),
                    secs(worst)
                ));
            }
        }
    }
    let mut extra = 10.0;
    if let Some(r) = o.restarts {
        if m.restarts != Some(r) {
            extra -= 5.0;
            why.push_str(&format!(
                "; {r} restart{} observed, {} modelled",
                if r == 1 { "" } else { "s" },
                m.restarts.unwrap_or(0)
            ));
        }
    }
    if !o.started.is_empty() && o.started != m.started {
        extra -= 5.0;
        why.push_str("; Started changes differ from the model's");
    }
    extra -= exits(o, m, &mut why);
    score += extra.max(0.0);
    PodScore { score, why }
}

/// 5 points off when the evidence shows a container exit (or kill) and the model's pod has none:
/// a candidate that leaves the container running does not explain why it stopped.
fn exits(o: &Seq, m: &Seq, why: &mut String) -> f64 {
    if o.died && !m.died {
        why.push_str("; a container exit is observed, the model has none");
        5.0
    } else {
        0.0
    }
}

/// A snapshot (`kubectl get pod -o yaml`): Ready has been `snap.1` since `snap.0`. Scored on the
/// same 100 points: 60 when the model's Ready at the end of the run is the snapshot's; 10 for the
/// Ready state before the restart (unknown in a snapshot: given); 20 when the last transition
/// falls where the model's does (after the kubelet's start, within the tolerance, when the
/// evidence dates the start; before it when the model changes nothing); 10 for restarts.
fn score_snapshot(
    name: &str,
    o: &Seq,
    snap: (i64, bool),
    m: &Seq,
    tol_ms: i64,
    obs_start: Option<i64>,
    model_start: i64,
) -> PodScore {
    let b = |v: bool| if v { "True" } else { "False" };
    let model_end = m.ready.last().map(|x| x.1).or(m.initial).unwrap_or(true);
    let mut score = 10.0;
    let mut why = format!(
        "{name}: the snapshot says Ready={} since its last transition",
        b(snap.1)
    );
    if model_end == snap.1 {
        score += 60.0;
        why.push_str(&format!("; the model ends Ready={} too", b(model_end)));
    } else {
        why.push_str(&format!("; the model ends Ready={}", b(model_end)));
    }
    match (obs_start, m.ready.last()) {
        (None, _) => score += 20.0,
        (Some(s), Some(last)) => {
            let d = ((snap.0 - s) - (last.0 - model_start)).abs();
            if d <= tol_ms {
                score += 20.0;
                why.push_str(&format!(" (its transition within ±{})", secs(tol_ms)));
            } else {
                why.push_str(&format!(
                    " (its transition {} after the kubelet's start, the model's {})",
                    secs(snap.0 - s),
                    secs(last.0 - model_start)
                ));
            }
        }
        (Some(s), None) => {
            if snap.0 <= s {
                score += 20.0;
            } else {
                why.push_str(&format!(
                    " (its transition {} after the kubelet's start; the model writes no change after it)",
                    secs(snap.0 - s)
                ));
            }
        }
    }
    let mut extra = 10.0;
    if let Some(r) = o.restarts {
        if m.restarts != Some(r) {
            extra -= 5.0;
            why.push_str(&format!(
                "; restartCount {r} in the snapshot, {} modelled",
                m.restarts.unwrap_or(0)
            ));
        } else {
            why.push_str(&format!("; restartCount {r} as modelled"));
        }
    }
    extra -= exits(o, m, &mut why);
    score += extra.max(0.0);
    PodScore { score, why }
}

/// The kubelet's release as the evidence names it: `v1.34.3`, `v1.36.2+k3s1`, `v1.35.0-eks-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeenVersion {
    /// A release the model knows.
    Known(KubeVersion),
    /// Older than 1.31 (the model's oldest line): a legacy kubelet, like 1.31's.
    Older,
}

/// Parses a kubelet version (`v1.25.3` is `Older`; a minor newer than the model knows is
/// `None`).
pub fn seen_version(s: &str) -> Option<SeenVersion> {
    let core = s.trim().split(['+', '-']).next().unwrap_or("");
    if let Some(v) = KubeVersion::parse(core) {
        return Some(SeenVersion::Known(v));
    }
    let t = core.strip_prefix('v').unwrap_or(core);
    let mut it = t.split('.');
    let (major, minor) = (
        it.next()?.parse::<u32>().ok()?,
        it.next()?.parse::<u32>().ok()?,
    );
    if major == 1 && minor < 31 {
        return Some(SeenVersion::Older);
    }
    // A patch release the table does not list: its minor's line.
    KubeVersion::parse(&format!("1.{minor}")).map(SeenVersion::Known)
}

/// The kubelet version the evidence states (the last `KubeletVersion` observation).
pub fn evidence_version(obs: &[Obs]) -> Option<(String, SeenVersion)> {
    obs.iter().rev().find_map(|o| match &o.what {
        What::KubeletVersion(v) => seen_version(v).map(|x| (v.clone(), x)),
        _ => None,
    })
}

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
        (Some(b), _) if b.policy == Policy::Legacy => true,
        (Some(_), SeenVersion::Older) => false,
        (Some(b), SeenVersion::Known(v)) => {
            v.has_kep_4781() && b.fixed.is_none_or(|f| v.line() < f.line())
        }
    }
}

/// How far apart (ms) an observed and a modelled time of the run's pod `pod` may be and still
/// agree: the pod's longest probe period (10 s without probes) + one node lifecycle controller
/// pass (5 s) + the source's resolution (1 s when a `kubectl get pods -w` AGE is among `obs`).
pub fn tolerance_ms(tr: &Trace, pod: usize, obs: &[Obs]) -> i64 {
    let resolution = if obs
        .iter()
        .any(|o| o.what == What::ReadyAtStart(true) || o.what == What::ReadyAtStart(false))
    {
        1_000
    } else {
        0
    };
    tr.pods[pod]
        .containers
        .iter()
        .flat_map(|c| c.probes.iter().flatten())
        .map(|pr| pr.period_s as i64 * 1000)
        .max()
        .unwrap_or(10_000)
        + 5_000
        + resolution
}

/// The run's pod each observed pod (in order of first appearance) is compared with, as `explain`
/// compares them: the pod of the same name, else the one whose sequence scores best; `None` when
/// the run has no pods.
pub fn matched_pods(obs: &[Obs], tr: &Trace) -> Vec<(String, Option<usize>)> {
    let obs_start = obs
        .iter()
        .find(|o| o.what == What::KubeletStarted)
        .map(|o| o.t_ms);
    let model_start = tr.restarts.first().map_or(0, |r| r.1);
    observed_pods(obs)
        .into_iter()
        .map(|p| {
            let i = tr.pods.iter().position(|i| i.name == p).or_else(|| {
                let o = observed(obs, &p);
                (0..tr.pods.len())
                    .map(|i| {
                        let m = modelled(tr, i as u16);
                        let tol = tolerance_ms(tr, i, obs);
                        (i, score_pod(&p, &o, &m, tol, obs_start, model_start).score)
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|x| x.0)
            });
            (p, i)
        })
        .collect()
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
    let mut out: Vec<(Verdict, bool)> = Vec::new();
    for c in candidates {
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
        for p in &pods {
            let o = observed(obs, p);
            let best = |i: usize| {
                let m = modelled(&tr, i as u16);
                let tol = tolerance_ms(&tr, i, obs);
                score_pod(p, &o, &m, tol, obs_start, model_start)
            };
            let s = match names.iter().position(|n| n == p) {
                Some(i) => best(i),
                None => (0..names.len())
                    .map(best)
                    .max_by(|a, b| a.score.total_cmp(&b.score))
                    .unwrap_or(PodScore {
                        score: 0.0,
                        why: format!("{p}: the model has no pods"),
                    }),
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
        if c.bug.is_some() && named {
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
                score: (score.max(0.0) * 10.0).round() / 10.0,
                why,
            },
            c.bug.is_some(),
        ));
    }
    out.sort_by(|a, b| b.0.score.total_cmp(&a.0.score).then(b.1.cmp(&a.1)));
    out.into_iter().map(|(v, _)| v).collect()
}
