//! The JSON trace format (docs/CLI.md): the resolved scenario and, per policy, metrics and
//! events. Called by the CLI's `--format json`, the web app's "Download JSON trace" and the
//! behaviour test `crates/cli/tests/traces.rs` (which hashes [`event`]'s output, so a change
//! here is a change of the recorded behaviour). Structs (not maps) so the keys keep a readable
//! order.

use restartscope_sim::{Event, Metrics, Outcome, Scenario, Trace, Value};
use serde::Serialize;
use serde_json::Value as J;

#[derive(Serialize)]
pub struct Document<'a> {
    pub scenario: &'a Scenario,
    pub runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
pub struct Run<'a> {
    pub policy: &'static str,
    /// The kubelet profile's label (`Trace::kubelet`): "1.35 · KEP", "1.34".
    pub kubelet: &'a str,
    pub metrics: &'a Metrics,
    /// The PodDisruptionBudget's status over time (`crate::pdb::series`), when the scenario has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pdb: Option<Vec<crate::pdb::Point>>,
    pub events: Vec<JsonEvent<'a>>,
}

/// One event: names instead of indices, seconds instead of milliseconds.
#[derive(Serialize)]
pub struct JsonEvent<'a> {
    pub t: f64,
    pub kind: &'static str,
    pub pod: Option<&'a str>,
    pub container: Option<&'a str>,
    pub value: J,
    pub rule: &'static str,
    pub by: &'static str,
}

#[derive(Serialize)]
struct ProbeJson {
    probe: &'static str,
    result: &'static str,
    run: u32,
    threshold: u32,
}

#[derive(Serialize)]
struct EndpointJson {
    ready: bool,
    serving: bool,
    terminating: bool,
}

/// One event as the JSON format writes it.
pub fn event<'a>(tr: &'a Trace, e: &Event) -> JsonEvent<'a> {
    let pod = e.pod.and_then(|p| tr.pods.get(p as usize));
    let container = match (pod, e.container) {
        (Some(p), Some(c)) => p.containers.get(c as usize).map(|c| c.name.as_str()),
        _ => None,
    };
    JsonEvent {
        t: e.t as f64 / 1000.0,
        kind: e.kind.as_str(),
        pod: pod.map(|p| p.name.as_str()),
        container,
        value: value(&e.value),
        rule: e.rule.id(),
        by: e.by.as_str(),
    }
}

/// `null`, a bool, a string, a number, or an object for probe and endpoint values.
pub fn value(v: &Value) -> J {
    match v {
        Value::None => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Condition(_)
        | Value::Taint(_)
        | Value::Writer(_)
        | Value::Health(_)
        | Value::Exit(_)
        | Value::Service(_) => J::from(v.text()),
        Value::Seconds(s) => serde_json::Number::from_f64(*s).map_or(J::Null, J::Number),
        Value::Probe(p) => obj(ProbeJson {
            probe: p.probe.as_str(),
            result: match p.result {
                Outcome::Unknown => "unknown",
                Outcome::Success => "success",
                Outcome::Failure => "failure",
            },
            run: p.run,
            threshold: p.threshold,
        }),
        Value::Endpoint(ep) => obj(EndpointJson {
            ready: ep.ready,
            serving: ep.serving,
            terminating: ep.terminating,
        }),
    }
}

fn obj(x: impl Serialize) -> J {
    serde_json::to_value(x).unwrap_or(J::Null)
}

/// The whole document, pretty-printed, with a final newline.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let doc = Document {
        scenario: sc,
        runs: traces
            .iter()
            .map(|tr| Run {
                policy: tr.policy.as_str(),
                kubelet: &tr.kubelet,
                metrics: &tr.metrics,
                pdb: crate::pdb::series(tr),
                events: tr.events.iter().map(|e| event(tr, e)).collect(),
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("plain data serializes");
    s.push('\n');
    s
}
