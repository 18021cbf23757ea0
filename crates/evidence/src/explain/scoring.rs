//! One observed pod scored against one model pod, on the 100 points the module doc of `explain`
//! lists (`score_pod`; a snapshot's single transition by `score_snapshot`), the tolerance the
//! times are compared with (`tolerance_ms`) and which model pod each observed pod is compared
//! with (`matched_pods`). Called by `explain`'s ranking and by `observed` (the differences use the
//! same tolerance and pairing). Mirrors no Kubernetes file.

use super::candidates::observed_pods;
use super::sequence::{modelled, observed_all, Seq};
use crate::types::{Obs, What};
use restartscope_sim::Trace;
use std::cell::OnceCell;

fn words(seq: &[(i64, bool)]) -> String {
    seq.iter()
        .map(|(_, b)| if *b { "True" } else { "False" })
        .collect::<Vec<_>>()
        .join("→")
}

fn secs(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// The words of a `PodScore`, written only when wanted: the search for an observed pod's
/// best-matching model pod compares scores alone, and its formatting was most of `explain`'s time.
struct Why {
    on: bool,
    s: String,
}

impl Why {
    fn new(on: bool) -> Self {
        Why {
            on,
            s: String::new(),
        }
    }

    fn add(&mut self, words: impl FnOnce() -> String) {
        if self.on {
            self.s.push_str(&words());
        }
    }
}

pub(super) struct PodScore {
    pub(super) score: f64,
    pub(super) why: String,
}

pub(super) fn score_pod(
    name: &str,
    o: &Seq,
    m: &Seq,
    tol_ms: i64,
    obs_start: Option<i64>,
    model_start: i64,
    want_why: bool,
) -> PodScore {
    if let (true, Some(snap)) = (o.ready.is_empty(), o.since) {
        let mut why = Why::new(want_why);
        why.add(|| {
            format!(
                "{name}: the snapshot says Ready={} since its last transition",
                if snap.1 { "True" } else { "False" }
            )
        });
        return score_snapshot(o, snap, m, tol_ms, obs_start, model_start, why);
    }
    let mut score = 0.0;
    let ov: Vec<bool> = o.ready.iter().map(|x| x.1).collect();
    let mv: Vec<bool> = m.ready.iter().map(|x| x.1).collect();
    let mut why = Why::new(want_why);
    let init = |b: Option<bool>| match b {
        Some(true) => "True",
        Some(false) => "False",
        None => "?",
    };
    if ov == mv {
        score += 60.0;
        if ov.is_empty() {
            why.add(|| format!("{name}: observed no Ready change; the model writes none either"));
        } else {
            why.add(|| {
                format!(
                    "{name}: observed Ready {}→{}; the model writes the same {} change{}",
                    init(o.initial),
                    words(&o.ready),
                    ov.len(),
                    if ov.len() == 1 { "" } else { "s" }
                )
            });
        }
    } else {
        let common = ov.iter().zip(&mv).take_while(|(a, b)| a == b).count();
        let longest = ov.len().max(mv.len()).max(1);
        score += 40.0 * common as f64 / longest as f64;
        why.add(|| {
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
            format!("{name}: {seen}; {model}")
        });
    }
    if o.initial.is_none() || o.initial == m.initial {
        score += 10.0;
    } else {
        why.add(|| {
            format!(
                "; first seen Ready={}, the model's pod is Ready={} before the restart",
                init(o.initial),
                init(m.initial)
            )
        });
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
                why.add(|| {
                    format!(
                        "; {} from first to last change observed, {} modelled",
                        secs(og),
                        secs(mg)
                    )
                });
            }
            if ok == checks {
                why.add(|| format!(" (timing within ±{})", secs(tol_ms)));
            } else {
                why.add(|| {
                    format!(
                        " ({ok} of {checks} times within ±{}; off by up to {})",
                        secs(tol_ms),
                        secs(worst)
                    )
                });
            }
        }
    }
    let mut extra = 10.0;
    if let Some(r) = o.restarts {
        if m.restarts != Some(r) {
            extra -= 5.0;
            why.add(|| {
                format!(
                    "; {r} restart{} observed, {} modelled",
                    if r == 1 { "" } else { "s" },
                    m.restarts.unwrap_or(0)
                )
            });
        }
    }
    if !o.started.is_empty() && o.started != m.started {
        extra -= 5.0;
        why.add(|| "; Started changes differ from the model's".into());
    }
    extra -= exits(o, m, &mut why);
    score += extra.max(0.0);
    PodScore { score, why: why.s }
}

/// 5 points off when the evidence shows a container exit (or kill) and the model's pod has none:
/// a candidate that leaves the container running does not explain why it stopped.
fn exits(o: &Seq, m: &Seq, why: &mut Why) -> f64 {
    if o.died && !m.died {
        why.add(|| "; a container exit is observed, the model has none".into());
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
    o: &Seq,
    snap: (i64, bool),
    m: &Seq,
    tol_ms: i64,
    obs_start: Option<i64>,
    model_start: i64,
    mut why: Why,
) -> PodScore {
    let b = |v: bool| if v { "True" } else { "False" };
    let model_end = m.ready.last().map(|x| x.1).or(m.initial).unwrap_or(true);
    let mut score = 10.0;
    if model_end == snap.1 {
        score += 60.0;
        why.add(|| format!("; the model ends Ready={} too", b(model_end)));
    } else {
        why.add(|| format!("; the model ends Ready={}", b(model_end)));
    }
    match (obs_start, m.ready.last()) {
        (None, _) => score += 20.0,
        (Some(s), Some(last)) => {
            let d = ((snap.0 - s) - (last.0 - model_start)).abs();
            if d <= tol_ms {
                score += 20.0;
                why.add(|| format!(" (its transition within ±{})", secs(tol_ms)));
            } else {
                why.add(|| {
                    format!(
                        " (its transition {} after the kubelet's start, the model's {})",
                        secs(snap.0 - s),
                        secs(last.0 - model_start)
                    )
                });
            }
        }
        (Some(s), None) => {
            if snap.0 <= s {
                score += 20.0;
            } else {
                why.add(|| format!(
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
            why.add(|| {
                format!(
                    "; restartCount {r} in the snapshot, {} modelled",
                    m.restarts.unwrap_or(0)
                )
            });
        } else {
            why.add(|| format!("; restartCount {r} as modelled"));
        }
    }
    extra -= exits(o, m, &mut why);
    score += extra.max(0.0);
    // One snapshot is one moment: every release reaches "Ready False since T" somehow, so it
    // weighs half a sequence (at most 50).
    why.add(|| "; one snapshot: half weight".into());
    PodScore {
        score: score / 2.0,
        why: why.s,
    }
}

/// How far apart (ms) an observed and a modelled time of the run's pod `pod` may be and still
/// agree: the pod's longest probe period (10 s without probes) + one node lifecycle controller
/// pass (5 s) + the source's resolution (1 s when a `kubectl get pods -w` AGE is among `obs`).
pub fn tolerance_ms(tr: &Trace, pod: usize, obs: &[Obs]) -> i64 {
    tolerance_at(tr, pod, resolution_ms(obs))
}

/// The source's resolution `tolerance_ms` adds: 1 s when a `kubectl get pods -w` AGE is among
/// `obs`.
pub(super) fn resolution_ms(obs: &[Obs]) -> i64 {
    if obs
        .iter()
        .any(|o| o.what == What::ReadyAtStart(true) || o.what == What::ReadyAtStart(false))
    {
        1_000
    } else {
        0
    }
}

/// `tolerance_ms` with the resolution given.
pub(super) fn tolerance_at(tr: &Trace, pod: usize, resolution: i64) -> i64 {
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
    let pods = observed_pods(obs);
    let seqs = observed_all(obs, &pods);
    let model = ModelPods::new(tr, obs);
    pods.into_iter()
        .zip(seqs)
        .map(|(p, o)| {
            let i = tr.pods.iter().position(|i| i.name == p).or_else(|| {
                (0..tr.pods.len())
                    .map(|i| {
                        let (m, tol) = model.get(i);
                        (
                            i,
                            score_pod(&p, &o, m, tol, obs_start, model_start, false).score,
                        )
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|x| x.0)
            });
            (p, i)
        })
        .collect()
}

/// A run's pods' sequences (`modelled`) and tolerances (`tolerance_ms`), each made once, when
/// first asked for: an observed pod with no model pod of its name is scored against every model
/// pod, and `modelled` is a pass over the whole trace.
pub(super) struct ModelPods<'a> {
    tr: &'a Trace,
    resolution: i64,
    pods: Vec<OnceCell<(Seq, i64)>>,
}

impl<'a> ModelPods<'a> {
    pub(super) fn new(tr: &'a Trace, obs: &[Obs]) -> Self {
        ModelPods {
            tr,
            resolution: resolution_ms(obs),
            pods: (0..tr.pods.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    pub(super) fn get(&self, i: usize) -> (&Seq, i64) {
        let (m, tol) = self.pods[i].get_or_init(|| {
            (
                modelled(self.tr, i as u16),
                tolerance_at(self.tr, i, self.resolution),
            )
        });
        (m, *tol)
    }
}
