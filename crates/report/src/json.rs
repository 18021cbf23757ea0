//! The JSON trace format (docs/CLI.md): the resolved scenario and, per policy, metrics, the
//! PodDisruptionBudget's status and events. Called by the CLI's `--format json`, the web app's
//! "Download JSON trace" and the behaviour test `crates/cli/tests/traces.rs` (which hashes
//! [`event_line`]'s output, so a change here is a change of the recorded behaviour). Written by
//! serde_json from the borrowed views below; keys in a readable order.

use restartscope_sim::{Event, Metrics, Outcome, Scenario, Trace, Value};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The whole document, pretty-printed, with a final newline.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    #[derive(Serialize)]
    struct Doc<'a> {
        scenario: &'a Scenario,
        runs: Vec<Run<'a>>,
    }
    let doc = Doc {
        scenario: sc,
        runs: traces.iter().map(Run::of).collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One run: which kubelet, its metrics, the budget's series and its events.
#[derive(Serialize)]
struct Run<'a> {
    policy: &'a str,
    kubelet: &'a str,
    /// Which kubelet the release runs by default, and the gates set away from it.
    default: bool,
    feature_gates: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    proposal: &'a str,
    metrics: &'a Metrics,
    #[serde(skip_serializing_if = "Option::is_none")]
    pdb: Option<Vec<crate::pdb::Point>>,
    events: Vec<EventOut<'a>>,
}

impl<'a> Run<'a> {
    fn of(tr: &'a Trace) -> Run<'a> {
        Run {
            policy: tr.policy.as_str(),
            kubelet: &tr.kubelet,
            default: tr.feature_gates.is_empty(),
            feature_gates: &tr.feature_gates,
            proposal: &tr.proposal,
            metrics: &tr.metrics,
            pdb: crate::pdb::series(tr),
            events: tr.events.iter().map(|e| EventOut::of(tr, e)).collect(),
        }
    }
}

/// One event: names instead of indices, seconds instead of milliseconds.
#[derive(Serialize)]
struct EventOut<'a> {
    t: f64,
    kind: &'a str,
    pod: Option<&'a str>,
    container: Option<&'a str>,
    value: ValueOut<'a>,
    rule: &'a str,
    by: &'a str,
}

impl<'a> EventOut<'a> {
    fn of(tr: &'a Trace, e: &'a Event) -> EventOut<'a> {
        let pod = e.pod.and_then(|p| tr.pods.get(p as usize));
        let container = match (pod, e.container) {
            (Some(p), Some(c)) => p.containers.get(c as usize).map(|c| c.name.as_str()),
            _ => None,
        };
        EventOut {
            t: e.t as f64 / 1000.0,
            kind: e.kind.as_str(),
            pod: pod.map(|p| p.name.as_str()),
            container,
            value: ValueOut(&e.value),
            rule: e.rule.id(),
            by: e.by.as_str(),
        }
    }
}

/// One event on one line (compact), as the behaviour test hashes it.
pub fn event_line(tr: &Trace, e: &Event) -> String {
    serde_json::to_string(&EventOut::of(tr, e)).unwrap_or_default()
}

/// `null`, a bool, a string, a number, or an object for probe and endpoint values.
struct ValueOut<'a>(&'a Value);

impl Serialize for ValueOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        match v {
            Value::None => s.serialize_none(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Condition(_)
            | Value::Taint(_)
            | Value::Writer(_)
            | Value::Health(_)
            | Value::Exit(_)
            | Value::Service(_)
            | Value::Release(_)
            | Value::Message(_) => s.serialize_str(&v.text()),
            Value::Seconds(x) => s.serialize_f64(*x),
            Value::Probe(p) => {
                let mut m = s.serialize_map(Some(4))?;
                m.serialize_entry("probe", p.probe.as_str())?;
                m.serialize_entry(
                    "result",
                    match p.result {
                        Outcome::Unknown => "unknown",
                        Outcome::Success => "success",
                        Outcome::Failure => "failure",
                    },
                )?;
                m.serialize_entry("run", &p.run)?;
                m.serialize_entry("threshold", &p.threshold)?;
                m.end()
            }
            Value::Endpoint(ep) => {
                let mut m = s.serialize_map(Some(3))?;
                m.serialize_entry("ready", &ep.ready)?;
                m.serialize_entry("serving", &ep.serving)?;
                m.serialize_entry("terminating", &ep.terminating)?;
                m.end()
            }
        }
    }
}
