//! Caption templates: text with placeholders in braces, filled from a step's runs, so every
//! number a caption states and every rule it cites comes from the model.
//!
//! | placeholder | becomes |
//! |---|---|
//! | `{rule:P1k}` | the rule id and its Kubernetes source (`Rule::source`): `P1k: pkg/kubelet/prober/worker.go doProbe (isRestart), …` |
//! | `{id:P1k}` | the rule id alone (a rule already cited with its source) |
//! | `{legacy.KEY}`, `{kep.KEY}` | the run's metric `KEY` (a key of `restartscope_report::METRICS`), formatted as the metric table does |
//! | `{saved.KEY}` | legacy minus KEP-4781 for metric `KEY` |
//! | `{legacy.t:RULE}`, `{kep.t:RULE:POD}` | when the first event of that rule (of that pod) happened at or after the kubelet stopped (`55.7s`); a snake_case event kind (`eviction`) instead of a rule id selects by kind |
//! | `{legacy.notready_s:POD}`, `{kep.ready_s:POD}` | how long the pod's first API Ready=False (True) stretch that starts at or after the kubelet stop lasted |
//! | `{legacy.notready_at:POD}`, `{kep.ready_at:POD}` | when that stretch started |
//! | `{pod:N}` | the name of pod N |
//! | `{threshold:N}` | the `failureThreshold` of pod N's (first) readiness probe |
//! | `{stop}`, `{return}`, `{down}`, `{grace}`, `{toleration}`, `{release}` | the first restart's start, the kubelet's return, the downtime, `--node-monitor-grace-period`, `tolerationSeconds`, the kubelet release |
//!
//! A caption's literal text holds no digits of its own except `KEP-4781` and issue numbers
//! (`#135795`); `tests/captions.rs` checks it.

use crate::At;
use restartscope_report::metrics;
use restartscope_sim::{fmt_secs, Kind, Ms, Policy, ProbeKind, Rule, Trace, Value};

/// Every event kind, to read `{legacy.t:eviction}` and marks by kind.
const KINDS: [Kind; 24] = [
    Kind::KubeletStop,
    Kind::KubeletStart,
    Kind::ApiReachable,
    Kind::LeaseRenew,
    Kind::NodeReady,
    Kind::TaintAdded,
    Kind::TaintRemoved,
    Kind::Probe,
    Kind::ProbeResult,
    Kind::PodSync,
    Kind::ContainerStarted,
    Kind::ContainerReady,
    Kind::ContainerHealth,
    Kind::ContainerExit,
    Kind::ContainerRestart,
    Kind::ContainerWaiting,
    Kind::PodReady,
    Kind::StatusWrite,
    Kind::Endpoint,
    Kind::EndpointsliceUpdate,
    Kind::EvictionScheduled,
    Kind::EvictionCancelled,
    Kind::Eviction,
    Kind::PodRemoved,
];

/// The rule with this id (`P1k`, `TRUTH`).
pub fn rule(id: &str) -> Option<Rule> {
    Rule::ALL.into_iter().find(|r| r.id() == id)
}

fn kind(name: &str) -> Option<Kind> {
    KINDS.into_iter().find(|k| k.as_str() == name)
}

/// The placeholders of a template, in order (without braces).
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(a) = rest.find('{') {
        let Some(b) = rest[a..].find('}') else { break };
        out.push(&rest[a + 1..a + b]);
        rest = &rest[a + b + 1..];
    }
    out
}

/// The template's literal text, placeholders removed.
pub fn literal(template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(a) = rest.find('{') {
        out.push_str(&rest[..a]);
        match rest[a..].find('}') {
            Some(b) => rest = &rest[a + b + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The rules a template cites (`{rule:ID}` and `{id:ID}`); an unknown id is skipped here and
/// reported by [`expand`].
pub fn cited(template: &str) -> Vec<Rule> {
    placeholders(template)
        .into_iter()
        .filter_map(|p| p.strip_prefix("rule:").or_else(|| p.strip_prefix("id:")))
        .filter_map(rule)
        .collect()
}

/// The template with every placeholder filled from `traces` (the step's runs).
pub fn expand(template: &str, traces: &[Trace]) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(a) = rest.find('{') {
        out.push_str(&rest[..a]);
        let b = rest[a..]
            .find('}')
            .ok_or_else(|| format!("unclosed placeholder in {template:?}"))?;
        let ph = &rest[a + 1..a + b];
        out.push_str(&fill(ph, traces).map_err(|e| format!("{{{ph}}}: {e}"))?);
        rest = &rest[a + b + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Seconds as the figure's axis writes them, to a tenth: `55.7s`, `1m30s`.
pub fn secs(ms: Ms) -> String {
    fmt_secs((ms as f64 / 100.0).round() / 10.0)
}

fn run<'a>(traces: &'a [Trace], name: &str) -> Result<&'a Trace, String> {
    let policy = match name {
        "legacy" => Policy::Legacy,
        "kep" => Policy::Kep,
        _ => return Err(format!("unknown run {name:?} (legacy, kep, saved)")),
    };
    traces
        .iter()
        .find(|t| t.policy == policy)
        .ok_or_else(|| format!("the step does not show the {name} run"))
}

fn first(traces: &[Trace]) -> Result<&Trace, String> {
    traces.first().ok_or_else(|| "no runs".to_string())
}

/// The first restart's (stop, return), in ms.
fn restart(tr: &Trace) -> Result<(Ms, Ms), String> {
    tr.restarts
        .first()
        .copied()
        .ok_or_else(|| "the scenario has no kubelet restart".to_string())
}

fn fill(ph: &str, traces: &[Trace]) -> Result<String, String> {
    if let Some(id) = ph.strip_prefix("rule:") {
        let r = rule(id).ok_or_else(|| format!("unknown rule id {id:?}"))?;
        return Ok(format!("{}: {}", r.id(), r.source()));
    }
    if let Some(id) = ph.strip_prefix("id:") {
        return rule(id)
            .map(|r| r.id().to_string())
            .ok_or_else(|| format!("unknown rule id {id:?}"));
    }
    if let Some(n) = ph.strip_prefix("pod:") {
        let i: usize = n.parse().map_err(|_| format!("bad pod index {n:?}"))?;
        let tr = first(traces)?;
        return tr
            .pods
            .get(i)
            .map(|p| p.name.clone())
            .ok_or_else(|| format!("no pod {i}"));
    }
    if let Some(n) = ph.strip_prefix("threshold:") {
        let i: usize = n.parse().map_err(|_| format!("bad pod index {n:?}"))?;
        return first(traces)?
            .pods
            .get(i)
            .and_then(|p| {
                p.containers
                    .iter()
                    .find_map(|c| c.probes[ProbeKind::Readiness.index()])
            })
            .map(|p| p.failure_threshold.to_string())
            .ok_or_else(|| format!("pod {i} has no readiness probe"));
    }
    match ph {
        "stop" => return Ok(secs(restart(first(traces)?)?.0)),
        "return" => return Ok(secs(restart(first(traces)?)?.1)),
        "down" => {
            let (a, b) = restart(first(traces)?)?;
            return Ok(secs(b - a));
        }
        "grace" => return Ok(secs(first(traces)?.grace)),
        "toleration" => return Ok(secs(first(traces)?.toleration)),
        "release" => {
            let tr = first(traces)?;
            return Ok(tr
                .kubelet
                .split(" · ")
                .next()
                .unwrap_or_default()
                .to_string());
        }
        _ => {}
    }
    let (who, what) = ph
        .split_once('.')
        .ok_or_else(|| "unknown placeholder".to_string())?;
    if let Some(m) = metrics::find(what) {
        return if who == "saved" {
            let (l, k) = (run(traces, "legacy")?, run(traces, "kep")?);
            Ok(m.fmt(m.value(&l.metrics) - m.value(&k.metrics)))
        } else {
            let tr = run(traces, who)?;
            if !m.applies(&tr.metrics) {
                return Err(format!("the {who} run has no {what}"));
            }
            Ok(m.fmt(m.value(&tr.metrics)))
        };
    }
    let tr = run(traces, who)?;
    let (name, arg) = what
        .split_once(':')
        .ok_or_else(|| format!("unknown metric or value {what:?}"))?;
    match name {
        "t" => {
            let (sel, pod) = match arg.split_once(':') {
                Some((s, p)) => (s, Some(pod_index(p)?)),
                None => (arg, None),
            };
            let sel = selector(sel)?;
            first_event(tr, sel, pod)
                .map(secs)
                .ok_or_else(|| format!("no such event at or after the kubelet stop in {who}"))
        }
        "ready_s" | "notready_s" | "ready_at" | "notready_at" => {
            let pod = pod_index(arg)?;
            let (start, len) = stretch(tr, pod, name.starts_with("ready"))
                .ok_or_else(|| format!("pod {pod} has no such Ready change after the stop"))?;
            Ok(secs(if name.ends_with("_at") { start } else { len }))
        }
        _ => Err(format!("unknown value {name:?}")),
    }
}

fn pod_index(s: &str) -> Result<u16, String> {
    s.parse().map_err(|_| format!("bad pod index {s:?}"))
}

/// What `{RUN.t:SEL}` and a mark select: a rule or an event kind.
#[derive(Clone, Copy)]
enum Sel {
    Rule(Rule),
    Kind(Kind),
}

fn selector(s: &str) -> Result<Sel, String> {
    rule(s)
        .map(Sel::Rule)
        .or_else(|| kind(s).map(Sel::Kind))
        .ok_or_else(|| format!("{s:?} is neither a rule id nor an event kind"))
}

fn first_event(tr: &Trace, sel: Sel, pod: Option<u16>) -> Option<Ms> {
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    tr.events
        .iter()
        .filter(|e| e.t >= stop)
        .filter(|e| pod.is_none() || e.pod == pod)
        .find(|e| match sel {
            Sel::Rule(r) => e.rule == r,
            Sel::Kind(k) => e.kind == k,
        })
        .map(|e| e.t)
}

/// The pod's first API Ready=`ready` stretch starting at or after the kubelet stop: when it
/// started and how long it lasted (until the next change, or the end of the run).
fn stretch(tr: &Trace, pod: u16, ready: bool) -> Option<(Ms, Ms)> {
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    let mut changes = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::PodReady && e.pod == Some(pod))
        .filter_map(|e| match e.value {
            Value::Bool(b) => Some((e.t, b)),
            _ => None,
        });
    let start = changes.by_ref().find(|(t, b)| *t >= stop && *b == ready)?.0;
    let end = changes
        .find(|(_, b)| *b != ready)
        .map_or(tr.horizon, |c| c.0);
    Some((start, end - start))
}

/// The time a mark points at on these runs, `None` when its event never happens.
pub fn resolve(at: At, traces: &[Trace]) -> Option<Ms> {
    let tr = traces.first()?;
    match at {
        At::Secs(s) => Some((s * 1000.0).round() as Ms),
        At::Stop => tr.restarts.first().map(|r| r.0),
        At::Return => tr.restarts.first().map(|r| r.1),
        At::First(r) => traces
            .iter()
            .filter_map(|t| first_event(t, Sel::Rule(r), None))
            .min(),
        At::FirstIn(p, r) => traces
            .iter()
            .filter(|t| t.policy == p)
            .find_map(|t| first_event(t, Sel::Rule(r), None)),
        At::Kind(k) => traces
            .iter()
            .filter_map(|t| first_event(t, Sel::Kind(k), None))
            .min(),
        At::Ready(p, pod) | At::NotReady(p, pod) => traces
            .iter()
            .filter(|t| t.policy == p)
            .find_map(|t| stretch(t, pod, matches!(at, At::Ready(..))))
            .map(|(start, _)| start),
    }
}

/// Splits a paragraph into lines of at most `max` characters, at spaces (a longer word gets a
/// line of its own).
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
