//! The lanes set beside one or two model runs (`Run`): per pod, each observed Ready change
//! matched with the nearest model write of the same value within `explain::tolerance_ms`, the
//! model's writes nothing observed matches, the pods only one side has; each as a sentence and as
//! data (`PodDifferences`). Called by the CLI's `replay` (its table and JSON). Mirrors no
//! Kubernetes file (the model's writes name their rule and writer: the kubelet's status manager,
//! the node lifecycle controller).

use super::align::{secs, Alignment};
use super::lanes::Lane;
use crate::explain::tolerance_ms;
use crate::types::Obs;
use restartscope_sim::{Actor, Kind, Policy, Trace, Value};
use serde::Serialize;

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
    // Only the pods the evidence names: a preset's own pods (its scenario's) are not the
    // incident's, and listing them as "in the model, not in the evidence" read as a finding.
    out
}
