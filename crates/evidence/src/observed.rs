//! Issue 28, "your incident beside the model": the evidence's Ready sequences put on a model
//! run's time axis (`align`), as per-pod lanes of plain data (`lanes`: the figure draws them
//! without knowing this crate), and the differences from the run(s) in words (`differences`).
//!
//! Clocks. The model's run starts at 0 with the kubelet stopped at `restarts[0].0` and started
//! at `restarts[0].1` (the evidence's downtime when it shows one: `explain::candidates`). Each
//! file is shifted onto that axis by the first anchor it has:
//!
//! 1. the kubelet's stop (systemd's "Stopping kubelet"), at the model's stop;
//! 2. the kubelet's start ("Starting kubelet", the first klog line of a run), at the model's start;
//! 3. the longest gap between lease renewals (over 15 s): the stop one renew interval (10 s) after
//!    the last renewal before it, as `explain::observed_downtime_s` reads the gap;
//! 4. another file's anchor, when both clocks are wall clocks of the same kind (audit and events:
//!    since the epoch; klog: since the start of the year);
//! 5. none: the first observed Ready change at the model's first Ready change of that pod after
//!    the kubelet's stop; per pod when the times are relative (kubectl AGE counts from each pod's
//!    creation), so such a lane's position says nothing about when the change happened, only how
//!    its changes are spaced;
//! 6. nothing to align by: the first observation at the model's kubelet stop.
//!
//! Differences. Per pod, each observed Ready change is matched with the nearest model write of
//! the same value within the tolerance of `explain` (`explain::tolerance_ms`: the pod's longest
//! probe period + one node lifecycle controller pass + the source's resolution); model writes in
//! the observed window that nothing matched are listed as not observed; a pod of the evidence
//! that the run does not have is listed as such, never dropped.

use crate::explain::{matched_pods, tolerance_ms};
use crate::{Evidence, Obs, What};
use restartscope_sim::{Actor, Kind, Policy, Trace, Value};
use serde::Serialize;

/// How one file's (or one pod's, for relative times) clock was put on the model's axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shift {
    pub file: usize,
    /// Set when the shift is the pod's own (relative times, aligned by a Ready change).
    pub pod: Option<String>,
    /// Milliseconds added to the source's times.
    pub shift_ms: i64,
    /// The file's times are relative (kubectl AGE), not wall-clock.
    pub relative: bool,
    /// What was aligned with what, in words.
    pub anchor: String,
    /// The observation aligned by (file, line), when it is a pod's Ready change.
    pub anchor_line: Option<(usize, usize)>,
    /// Nothing to align by: the first observation placed at the model's kubelet stop; times
    /// on this shift are not compared with the model's.
    pub arbitrary: bool,
}

/// Every file's shift, and one sentence for a figure's caption.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alignment {
    pub shifts: Vec<Shift>,
    pub text: String,
}

impl Alignment {
    /// The model time of an observation.
    pub fn model_t(&self, o: &Obs) -> i64 {
        o.t_ms + self.shift_of(o).map_or(0, |s| s.shift_ms)
    }

    /// The shift an observation is put on the model's axis by.
    pub fn shift_of(&self, o: &Obs) -> Option<&Shift> {
        self.shifts
            .iter()
            .find(|s| s.file == o.file && s.pod.is_some() && s.pod == o.pod)
            .or_else(|| {
                self.shifts
                    .iter()
                    .find(|s| s.file == o.file && s.pod.is_none())
            })
    }
}

fn secs(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

fn signed(ms: i64) -> String {
    format!(
        "{}{:.1} s",
        if ms < 0 { "−" } else { "+" },
        ms.abs() as f64 / 1000.0
    )
}

/// Milliseconds since the epoch as `2026-11-30 10:00:50.0 UTC`.
fn utc(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{} UTC",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000 / 100
    )
}

/// Wall clocks since the epoch (audit, events) are ~1.7e12 ms; klog's, since the start of the
/// year, under 3.2e10.
fn epoch_clock(t: i64) -> bool {
    t > 100_000_000_000
}

/// A file's kubelet anchor: (the source's time, the model's time, in words).
fn kubelet_anchor(obs: &[&Obs], tr: &Trace) -> Option<(i64, i64, String)> {
    let (stop, start) = tr.restarts.first().copied()?;
    if let Some(o) = obs.iter().find(|o| o.what == What::KubeletStopped) {
        return Some((
            o.t_ms,
            stop,
            format!(
                "the kubelet's stop (line {}) at the model's stop ({})",
                o.line,
                secs(stop)
            ),
        ));
    }
    if let Some(o) = obs.iter().find(|o| o.what == What::KubeletStarted) {
        return Some((
            o.t_ms,
            start,
            format!(
                "the kubelet's start (line {}) at the model's start ({})",
                o.line,
                secs(start)
            ),
        ));
    }
    let mut leases: Vec<(i64, usize)> = obs
        .iter()
        .filter(|o| o.what == What::LeaseRenewed)
        .map(|o| (o.t_ms, o.line))
        .collect();
    leases.sort_unstable();
    let (gap, last) = leases
        .windows(2)
        .map(|w| (w[1].0 - w[0].0, w[0]))
        .max_by_key(|x| x.0)?;
    (gap > 15_000).then(|| {
        (
            last.0 + 10_000,
            stop,
            format!(
                "the lease's gap (last renewal before it on line {}, +10 s) at the model's stop ({})",
                last.1,
                secs(stop)
            ),
        )
    })
}

/// The model's first Ready write of its pod `i` after the kubelet's stop.
fn model_first_change(tr: &Trace, i: usize) -> Option<i64> {
    let i = i as u16;
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    tr.pod_ready_changes(i).find(|e| e.t > stop).map(|e| e.t)
}

/// The model's last Ready write of its pod `i`.
fn model_last_change(tr: &Trace, i: usize) -> Option<i64> {
    tr.pod_ready_changes(i as u16).last().map(|e| e.t)
}

/// Puts every file's clock on `tr`'s axis (see the module doc).
pub fn align(files: &[Evidence], tr: &Trace) -> Alignment {
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    let pairs = matched_pods(&crate::merge(files), tr);
    let own: Vec<Option<(i64, i64, String)>> = files
        .iter()
        .map(|e| {
            let obs: Vec<&Obs> = e.obs.iter().collect();
            if e.absolute {
                kubelet_anchor(&obs, tr)
            } else {
                None
            }
        })
        .collect();
    let mut shifts = Vec::new();
    for (i, e) in files.iter().enumerate() {
        let first_t = e.obs.iter().map(|o| o.t_ms).min().unwrap_or(0);
        if let Some((src, model, how)) = &own[i] {
            shifts.push(Shift {
                file: i,
                pod: None,
                shift_ms: model - src,
                relative: false,
                anchor: how.clone(),
                anchor_line: None,
                arbitrary: false,
            });
            continue;
        }
        if e.absolute {
            let borrowed = own.iter().enumerate().find_map(|(j, a)| {
                let a = a.as_ref()?;
                (epoch_clock(a.0) == epoch_clock(first_t)).then_some((j, a))
            });
            if let Some((j, (src, model, how))) = borrowed {
                shifts.push(Shift {
                    file: i,
                    pod: None,
                    shift_ms: model - src,
                    relative: false,
                    anchor: format!("the same clock as file {}: {how}", j + 1),
                    anchor_line: None,
                    arbitrary: false,
                });
                continue;
            }
        }
        // By Ready changes: one shift per file (wall clock), per pod (relative).
        let changes: Vec<&Obs> = e
            .obs
            .iter()
            .filter(|o| {
                matches!(o.what, What::ReadyChanged(_) | What::ReadySince(_)) && o.pod.is_some()
            })
            .collect();
        // A change at the model's first change after the stop; a snapshot's last transition
        // (`ReadySince`) at the model's last.
        let by_change = |o: &Obs| {
            let pod = o.pod.as_deref()?;
            let i = pairs.iter().find(|p| p.0 == pod)?.1?;
            let since = matches!(o.what, What::ReadySince(_));
            let m = if since {
                model_last_change(tr, i)?
            } else {
                model_first_change(tr, i)?
            };
            let which = if since {
                "last transition in the snapshot"
            } else {
                "first observed Ready change"
            };
            let model_which = if since { "last" } else { "first" };
            let whose = if tr.pods[i].name == pod {
                String::new()
            } else {
                format!(", {}'s: the model has no pod of that name", tr.pods[i].name)
            };
            Some((
                m - o.t_ms,
                format!(
                    "{pod}'s {which} (line {}) at the model's {model_which} ({}{whose})",
                    o.line,
                    secs(m)
                ),
            ))
        };
        if e.absolute {
            if let Some((shift, how)) = changes.first().and_then(|o| by_change(o)) {
                shifts.push(Shift {
                    file: i,
                    pod: None,
                    shift_ms: shift,
                    relative: false,
                    anchor: how,
                    anchor_line: Some((i, changes[0].line)),
                    arbitrary: false,
                });
                continue;
            }
        } else {
            let mut pods: Vec<&str> = Vec::new();
            for o in &changes {
                let p = o.pod.as_deref().unwrap_or_default();
                if pods.contains(&p) {
                    continue;
                }
                pods.push(p);
                if let Some((shift, how)) = by_change(o) {
                    shifts.push(Shift {
                        file: i,
                        pod: Some(p.to_string()),
                        shift_ms: shift,
                        relative: true,
                        anchor: how,
                        anchor_line: Some((i, o.line)),
                        arbitrary: false,
                    });
                }
            }
            // Each pod has its own clock: one without a change to align by is placed, and said.
            for pod in crate::explain::observed_pods(&e.obs) {
                if shifts
                    .iter()
                    .any(|s| s.file == i && s.pod.as_deref() == Some(&pod))
                {
                    continue;
                }
                let first = e
                    .obs
                    .iter()
                    .filter(|o| o.pod.as_deref() == Some(&pod))
                    .map(|o| o.t_ms)
                    .min()
                    .unwrap_or(first_t);
                shifts.push(Shift {
                    file: i,
                    pod: Some(pod.clone()),
                    shift_ms: stop - first,
                    relative: true,
                    anchor: format!(
                        "{pod}: no Ready change to align by, its first observation placed at the model's kubelet stop ({}), arbitrarily",
                        secs(stop)
                    ),
                    anchor_line: None,
                    arbitrary: true,
                });
            }
        }
        shifts.push(Shift {
            file: i,
            pod: None,
            shift_ms: stop - first_t,
            relative: !e.absolute,
            anchor: format!(
                "nothing to align by (no kubelet stop or start, lease gap or Ready change): the first observation placed at the model's kubelet stop ({}), arbitrarily: times not comparable",
                secs(stop)
            ),
            anchor_line: None,
            arbitrary: true,
        });
    }
    let text = caption(files, &shifts);
    Alignment { shifts, text }
}

fn caption(files: &[Evidence], shifts: &[Shift]) -> String {
    let many = files.len() > 1;
    let parts: Vec<String> = shifts
        .iter()
        .filter(|s| {
            // A file's fallback shift is only said when nothing else aligned it.
            s.pod.is_some() || !shifts.iter().any(|o| o.file == s.file && o.pod.is_some())
        })
        .map(|s| {
            let file = if many {
                format!("file {}: ", s.file + 1)
            } else {
                String::new()
            };
            let zero = -s.shift_ms;
            if !s.relative && epoch_clock(zero) {
                format!("{file}{} (the model's 0 s is {})", s.anchor, utc(zero))
            } else {
                format!("{file}{} (shifted {})", s.anchor, signed(s.shift_ms))
            }
        })
        .collect();
    let mut text = format!(
        "Observed times put on the model's axis: {}.",
        parts.join("; ")
    );
    if shifts.iter().any(|s| s.relative) {
        text.push_str(" The evidence gives only relative times (kubectl AGE, from each pod's creation): a lane's place on the axis is where it was aligned, only the spacing of its changes is observed.");
    }
    text
}

/// One observed Ready step on the model's axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub t_ms: i64,
    pub ready: bool,
    /// The source's writer (`system:node:n1`), when it says.
    pub by: Option<String>,
    /// `first_seen` (a watch's first row), `changed`, `since` (a snapshot's last transition).
    pub kind: &'static str,
    pub file: usize,
    pub line: usize,
}

/// A pod's observed Ready on the model's axis, between its first and last observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lane {
    pub pod: String,
    /// The run's pod it is compared with and drawn under: the pod of the same name, else the one
    /// `explain` matched it with; `None` when the run has no pods.
    pub model_pod: Option<String>,
    pub steps: Vec<Step>,
    pub first_ms: i64,
    pub last_ms: i64,
    /// The lane's times are on the model's axis by an anchor (not placed arbitrarily): they
    /// can be compared with the model's.
    pub aligned: bool,
}

/// Every observed pod's lane (in order of first appearance), on the axis of `al`, paired with
/// `tr`'s pods.
pub fn lanes(obs: &[Obs], al: &Alignment, tr: &Trace) -> Vec<Lane> {
    matched_pods(obs, tr)
        .into_iter()
        .map(|(pod, i)| {
            let mine: Vec<&Obs> = obs
                .iter()
                .filter(|o| o.pod.as_deref() == Some(pod.as_str()))
                .collect();
            let times: Vec<i64> = mine.iter().map(|o| al.model_t(o)).collect();
            let mut steps: Vec<Step> = mine
                .iter()
                .filter_map(|o| {
                    let (ready, kind) = match o.what {
                        What::ReadyAtStart(b) => (b, "first_seen"),
                        What::ReadyChanged(b) => (b, "changed"),
                        What::ReadySince(b) => (b, "since"),
                        _ => return None,
                    };
                    Some(Step {
                        t_ms: al.model_t(o),
                        ready,
                        by: o.by.clone(),
                        kind,
                        file: o.file,
                        line: o.line,
                    })
                })
                .collect();
            steps.sort_by_key(|s| s.t_ms);
            Lane {
                first_ms: times.iter().copied().min().unwrap_or(0),
                last_ms: times.iter().copied().max().unwrap_or(0),
                model_pod: i.map(|i| tr.pods[i].name.clone()),
                aligned: mine
                    .iter()
                    .any(|o| al.shift_of(o).is_some_and(|s| !s.arbitrary)),
                pod,
                steps,
            }
        })
        .collect()
}

/// A model run beside the evidence: its trace and how the differences name it ("the legacy
/// model", "the 1.35 KEP-4781 model").
pub struct Run<'a> {
    pub name: String,
    pub trace: &'a Trace,
}

impl<'a> Run<'a> {
    /// "the 1.35 legacy model" / "the 1.35 KEP-4781 model" (`report-…` for a preset's run).
    pub fn named(trace: &'a Trace, preset: Option<&str>) -> Self {
        let release = trace.kubelet.split(" · ").next().unwrap_or_default();
        let policy = match trace.policy {
            Policy::Legacy => "legacy",
            Policy::Kep => "KEP-4781",
        };
        let name = match preset {
            Some(p) => format!("the {release} {policy} model ({p})"),
            None => format!("the {release} {policy} model"),
        };
        Run { name, trace }
    }
}

/// What one run says about one difference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSays {
    pub run: String,
    /// The model's write (its time on the axis, in seconds), when it has one to show.
    pub model_t_s: Option<f64>,
    pub model_ready: Option<bool>,
    pub by: Option<String>,
    /// The model's rule (`P1`) and its title.
    pub rule: Option<String>,
    pub rule_title: Option<String>,
    /// The write matches the observation (same value, within the tolerance).
    pub matches: bool,
}

/// One difference (or agreement) between the evidence and the run(s), with its sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// `observed_change`, `first_seen`, `not_observed` (a model write nothing observed
    /// matches), `outside_window`, `not_in_model` (an observed pod no run has), `not_in_evidence`.
    pub kind: &'static str,
    /// On the model's axis.
    pub t_s: Option<f64>,
    pub ready: Option<bool>,
    pub observed_by: Option<String>,
    pub line: Option<usize>,
    pub runs: Vec<RunSays>,
    pub text: String,
}

/// One pod's differences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PodDifferences {
    pub pod: String,
    /// A run has a pod of this name.
    pub in_model: bool,
    /// The model's pod it was compared with (its own name, or the best-matching pod's when no
    /// run has one of its name; `None`: not compared).
    pub compared_with: Option<String>,
    /// The tolerance (seconds) the times were compared with.
    pub tolerance_s: Option<f64>,
    pub items: Vec<Difference>,
}

struct Write {
    t: i64,
    ready: bool,
    by: Actor,
    rule: restartscope_sim::Rule,
}

fn writes(tr: &Trace, pod: u16) -> Vec<Write> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::PodReady && e.pod == Some(pod))
        .filter_map(|e| match e.value {
            Value::Bool(b) => Some(Write {
                t: e.t,
                ready: b,
                by: e.by,
                rule: e.rule,
            }),
            _ => None,
        })
        .collect()
}

fn tf(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn actor_words(a: Actor) -> &'static str {
    match a {
        Actor::Kubelet => "kubelet",
        Actor::NodeLifecycleController => "node lifecycle controller",
        other => other.as_str(),
    }
}

/// The model's actor the source's writer names (`system:node:n1`: the kubelet).
fn actor_of(by: &str) -> Option<Actor> {
    if by.starts_with("system:node:") || by == "kubelet" {
        Some(Actor::Kubelet)
    } else if by.contains("node-controller") || by.contains("node-lifecycle") {
        Some(Actor::NodeLifecycleController)
    } else {
        None
    }
}

fn says(run: &Run, w: &Write, matches: bool) -> RunSays {
    RunSays {
        run: run.name.clone(),
        model_t_s: Some(w.t as f64 / 1000.0),
        model_ready: Some(w.ready),
        by: Some(actor_words(w.by).to_string()),
        rule: Some(w.rule.id().to_string()),
        rule_title: Some(w.rule.title().to_string()),
        matches,
    }
}

/// The model's Ready at `t` (its last write at or before `t`; Ready in the steady state before
/// any write).
fn model_ready_at(ws: &[Write], t: i64) -> bool {
    ws.iter().rev().find(|w| w.t <= t).is_none_or(|w| w.ready)
}

/// Per observed pod (then the model's pods the evidence does not name), the differences from
/// each run, in words and as data. `obs` gives the tolerance's resolution (kubectl AGE: 1 s).
pub fn differences(
    lanes: &[Lane],
    runs: &[Run],
    obs: &[Obs],
    al: &Alignment,
) -> Vec<PodDifferences> {
    let mut out = Vec::new();
    for lane in lanes {
        let idx: Vec<Option<usize>> = runs
            .iter()
            .map(|r| {
                let m = lane.model_pod.as_deref()?;
                r.trace.pods.iter().position(|p| p.name == m)
            })
            .collect();
        if idx.iter().all(Option::is_none) {
            let n = lane.steps.len();
            out.push(PodDifferences {
                pod: lane.pod.clone(),
                in_model: false,
                compared_with: None,
                tolerance_s: None,
                items: vec![Difference {
                    kind: "not_in_model",
                    t_s: None,
                    ready: None,
                    observed_by: None,
                    line: lane.steps.first().map(|s| s.line),
                    runs: Vec::new(),
                    text: format!(
                        "{}: observed ({n} Ready observation{}), but the model's run{} ha{} no pods: not compared (give the pods with --manifest)",
                        lane.pod,
                        if n == 1 { "" } else { "s" },
                        if runs.len() == 1 { "" } else { "s" },
                        if runs.len() == 1 { "s" } else { "ve" },
                    ),
                }],
            });
            continue;
        }
        let tol = runs
            .iter()
            .zip(&idx)
            .filter_map(|(r, i)| Some(tolerance_ms(r.trace, (*i)?, obs)))
            .max()
            .unwrap_or(10_000);
        let all_writes: Vec<Vec<Write>> = runs
            .iter()
            .zip(&idx)
            .map(|(r, i)| i.map_or_else(Vec::new, |i| writes(r.trace, i as u16)))
            .collect();
        let mut used: Vec<Vec<bool>> = all_writes.iter().map(|w| vec![false; w.len()]).collect();
        let mut items = Vec::new();
        if let Some(m) = lane.model_pod.as_deref().filter(|m| *m != lane.pod) {
            items.push(Difference {
                kind: "paired",
                t_s: None,
                ready: None,
                observed_by: None,
                line: None,
                runs: Vec::new(),
                text: format!(
                    "the model has no pod named {}: compared with (and drawn under) its pod {m}, the one whose sequence matches best (give the pods with --manifest to compare like with like)",
                    lane.pod
                ),
            });
        }
        if !lane.aligned {
            let model: Vec<String> = runs
                .iter()
                .zip(&all_writes)
                .map(|(r, ws)| {
                    let w: Vec<String> = ws
                        .iter()
                        .map(|w| {
                            format!(
                                "{} at {:.1} s ({})",
                                tf(w.ready),
                                w.t as f64 / 1000.0,
                                w.rule.id()
                            )
                        })
                        .collect();
                    if w.is_empty() {
                        format!("{} writes nothing for this pod", r.name)
                    } else {
                        format!("{} writes {}", r.name, w.join(", "))
                    }
                })
                .collect();
            let seen: Vec<String> = lane
                .steps
                .iter()
                .map(|s| format!("{} (line {})", tf(s.ready), s.line))
                .collect();
            items.push(Difference {
                kind: "times_not_comparable",
                t_s: None,
                ready: None,
                observed_by: None,
                line: None,
                runs: Vec::new(),
                text: format!(
                    "the evidence's clock could not be put on the model's axis (no kubelet stop or start, lease gap or Ready change): times not compared; {}; {}",
                    if seen.is_empty() {
                        "no Ready observed".to_string()
                    } else {
                        format!("observed Ready {}", seen.join(", "))
                    },
                    model.join("; ")
                ),
            });
            out.push(PodDifferences {
                pod: lane.pod.clone(),
                in_model: lane.model_pod.as_deref() == Some(lane.pod.as_str()),
                compared_with: lane.model_pod.clone(),
                tolerance_s: None,
                items,
            });
            continue;
        }
        for s in &lane.steps {
            let at = format!("{:.1} s", s.t_ms as f64 / 1000.0);
            let by =
                s.by.as_deref()
                    .map(|b| format!(" by {b}"))
                    .unwrap_or_default();
            if s.kind == "first_seen" {
                let differ: Vec<RunSays> = runs
                    .iter()
                    .zip(&all_writes)
                    .zip(&idx)
                    .filter(|((_, ws), i)| i.is_some() && model_ready_at(ws, s.t_ms) != s.ready)
                    .map(|((r, _), _)| RunSays {
                        run: r.name.clone(),
                        model_t_s: None,
                        model_ready: Some(!s.ready),
                        by: None,
                        rule: None,
                        rule_title: None,
                        matches: false,
                    })
                    .collect();
                if !differ.is_empty() {
                    let names: Vec<&str> = differ.iter().map(|d| d.run.as_str()).collect();
                    items.push(Difference {
                        kind: "first_seen",
                        t_s: Some(s.t_ms as f64 / 1000.0),
                        ready: Some(s.ready),
                        observed_by: s.by.clone(),
                        line: Some(s.line),
                        text: format!(
                            "first seen Ready={} at {at} (line {}); {} ha{} Ready={} then",
                            tf(s.ready),
                            s.line,
                            names.join(" and "),
                            if names.len() == 1 { "s" } else { "ve" },
                            tf(!s.ready)
                        ),
                        runs: differ,
                    });
                }
                continue;
            }
            let mut parts = Vec::new();
            let mut rs = Vec::new();
            for (k, run) in runs.iter().enumerate() {
                if idx[k].is_none() {
                    parts.push(format!("{} has no pod of this name", run.name));
                    continue;
                }
                let ws = &all_writes[k];
                let near = ws
                    .iter()
                    .enumerate()
                    .filter(|(j, w)| !used[k][*j] && w.ready == s.ready)
                    .min_by_key(|(_, w)| (w.t - s.t_ms).abs());
                match near {
                    Some((j, w)) if (w.t - s.t_ms).abs() <= tol => {
                        used[k][j] = true;
                        let writer = match (s.by.as_deref().and_then(actor_of), w.by) {
                            (Some(a), b) if a != b => format!(
                                "; the observed writer is the {}, the model's the {}",
                                actor_words(a),
                                actor_words(b)
                            ),
                            _ => String::new(),
                        };
                        parts.push(format!(
                            "{} writes this at {:.1} s ± {} ({}, {}){writer}",
                            run.name,
                            w.t as f64 / 1000.0,
                            secs(tol),
                            actor_words(w.by),
                            w.rule.id()
                        ));
                        rs.push(says(run, w, true));
                    }
                    Some((j, w)) => {
                        // Said here: not listed again as "not observed".
                        used[k][j] = true;
                        let d = w.t - s.t_ms;
                        parts.push(format!(
                            "{} writes Ready={} only at {:.1} s ({} {}; {}, {})",
                            run.name,
                            tf(s.ready),
                            w.t as f64 / 1000.0,
                            secs(d.abs()),
                            if d > 0 { "later" } else { "earlier" },
                            actor_words(w.by),
                            w.rule.id()
                        ));
                        rs.push(says(run, w, false));
                    }
                    None => {
                        parts.push(if ws.is_empty() {
                            format!("{} writes nothing for this pod", run.name)
                        } else if ws.iter().any(|w| w.ready == s.ready) {
                            format!(
                                "{} writes no other Ready={} (each is matched to an earlier observation)",
                                run.name,
                                tf(s.ready)
                            )
                        } else {
                            format!("{} never writes Ready={}", run.name, tf(s.ready))
                        });
                        rs.push(RunSays {
                            run: run.name.clone(),
                            model_t_s: None,
                            model_ready: None,
                            by: None,
                            rule: None,
                            rule_title: None,
                            matches: false,
                        });
                    }
                }
            }
            let what = if s.kind == "since" {
                "Ready has been"
            } else {
                "observed Ready="
            };
            let what = if s.kind == "since" {
                format!("{what} {} since {at}", tf(s.ready))
            } else {
                format!("{what}{} at {at}", tf(s.ready))
            };
            let anchor = al
                .shifts
                .iter()
                .any(|a| a.anchor_line == Some((s.file, s.line)));
            let anchor = if anchor {
                " — the change the clocks were aligned by: its time agrees by construction"
            } else {
                ""
            };
            items.push(Difference {
                kind: "observed_change",
                t_s: Some(s.t_ms as f64 / 1000.0),
                ready: Some(s.ready),
                observed_by: s.by.clone(),
                line: Some(s.line),
                text: format!("{what}{by} (line {}); {}{anchor}", s.line, parts.join("; ")),
                runs: rs,
            });
        }
        // The model's writes in the observed window that nothing observed matches. A snapshot
        // shows only the last transition: what came before it cannot be observed.
        let snapshot = !lane.steps.is_empty() && lane.steps.iter().all(|s| s.kind == "since");
        let from = if snapshot {
            lane.steps
                .iter()
                .map(|s| s.t_ms)
                .max()
                .unwrap_or(lane.first_ms)
        } else {
            lane.first_ms
        };
        for (k, run) in runs.iter().enumerate() {
            let mut outside = 0;
            for (j, w) in all_writes[k].iter().enumerate() {
                if used[k][j] {
                    continue;
                }
                if w.t < from - tol || w.t > lane.last_ms + tol {
                    outside += 1;
                    continue;
                }
                items.push(Difference {
                    kind: "not_observed",
                    t_s: Some(w.t as f64 / 1000.0),
                    ready: Some(w.ready),
                    observed_by: None,
                    line: None,
                    text: format!(
                        "{} writes Ready={} at {:.1} s ({}, {}: {}); not observed",
                        run.name,
                        tf(w.ready),
                        w.t as f64 / 1000.0,
                        actor_words(w.by),
                        w.rule.id(),
                        w.rule.title()
                    ),
                    runs: vec![says(run, w, false)],
                });
            }
            if outside > 0 {
                items.push(Difference {
                    kind: "outside_window",
                    t_s: None,
                    ready: None,
                    observed_by: None,
                    line: None,
                    runs: Vec::new(),
                    text: if snapshot {
                        format!(
                            "{}: {outside} other Ready write{} before the snapshot's last transition, which a snapshot does not show: not compared",
                            run.name,
                            if outside == 1 { "" } else { "s" },
                        )
                    } else {
                        format!(
                            "{}: {outside} other Ready write{} outside the observed window ({:.1}–{:.1} s), not compared",
                            run.name,
                            if outside == 1 { "" } else { "s" },
                            lane.first_ms as f64 / 1000.0,
                            lane.last_ms as f64 / 1000.0
                        )
                    },
                });
            }
        }
        out.push(PodDifferences {
            pod: lane.pod.clone(),
            in_model: lane.model_pod.as_deref() == Some(lane.pod.as_str()),
            compared_with: lane.model_pod.clone(),
            tolerance_s: Some(tol as f64 / 1000.0),
            items,
        });
    }
    // The model's pods the evidence does not name.
    let mut unseen: Vec<&str> = Vec::new();
    for r in runs {
        for p in &r.trace.pods {
            if !lanes
                .iter()
                .any(|l| l.model_pod.as_deref() == Some(p.name.as_str()))
                && !unseen.contains(&p.name.as_str())
            {
                unseen.push(&p.name);
            }
        }
    }
    for p in unseen {
        out.push(PodDifferences {
            pod: p.to_string(),
            in_model: true,
            compared_with: None,
            tolerance_s: None,
            items: vec![Difference {
                kind: "not_in_evidence",
                t_s: None,
                ready: None,
                observed_by: None,
                line: None,
                runs: Vec::new(),
                text: format!("{p}: in the model, not in the evidence"),
            }],
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00.0 UTC");
        // 2026-11-30T10:00:50Z
        assert_eq!(super::utc(1_796_032_850_000), "2026-11-30 10:00:50.0 UTC");
        assert_eq!(super::utc(951_782_400_000), "2000-02-29 00:00:00.0 UTC");
    }
}
