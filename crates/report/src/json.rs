//! The JSON trace format (docs/CLI.md): the resolved scenario and, per policy, metrics, the
//! PodDisruptionBudget's status and events. Called by the CLI's `--format json`, the web app's
//! "Download JSON trace" and the behaviour test `crates/cli/tests/traces.rs` (which hashes
//! [`event_line`]'s output, so a change here is a change of the recorded behaviour). Written with
//! the model's small JSON writer (`restartscope_sim::json::Out`, the bytes serde_json wrote, so
//! the page carries no serializer; `tests/json.rs` holds it to serde_json); keys in a readable
//! order.

use crate::metrics::{Format, METRICS};
use restartscope_sim::json::Out;
use restartscope_sim::{Event, Metrics, Outcome, Scenario, Trace, Value};

/// The whole document, pretty-printed, with a final newline.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let mut o = Out::pretty();
    o.obj(|o| {
        o.key("scenario");
        sc.write_json(o);
        o.key("runs").list(traces, |o, tr| {
            o.obj(|o| run(o, tr));
        });
    });
    let mut s = o.finish();
    s.push('\n');
    s
}

fn run(o: &mut Out, tr: &Trace) {
    o.key("policy").str(tr.policy.as_str());
    o.key("kubelet").str(&tr.kubelet);
    // Which kubelet the release runs by default, and the gates set away from it.
    o.key("default").bool(tr.feature_gates.is_empty());
    o.key("feature_gates").str(&tr.feature_gates);
    if !tr.proposal.is_empty() {
        o.key("proposal").str(&tr.proposal);
    }
    o.key("metrics").obj(|o| metrics(o, &tr.metrics));
    if let Some(points) = crate::pdb::series(tr) {
        o.key("pdb").list(&points, |o, p| {
            o.obj(|o| {
                o.key("t_ms").int(p.t_ms);
                o.key("current_healthy").int(p.status.current_healthy);
                o.key("desired_healthy").int(p.status.desired_healthy);
                o.key("expected_pods").int(p.status.expected_pods);
                o.key("disruptions_allowed")
                    .int(p.status.disruptions_allowed);
            });
        });
    }
    o.key("events").list(&tr.events, |o, e| event(o, tr, e));
}

/// The metrics of SPEC §5 (`METRICS`, in `Metrics`' order; the budget's only with a budget),
/// then `events_processed`.
fn metrics(o: &mut Out, m: &Metrics) {
    for d in METRICS.iter().filter(|d| d.applies(m)) {
        let o = o.key(d.key);
        match d.format {
            Format::Count => o.int(d.value(m) as u64),
            Format::Tenths => o.f64(d.value(m)),
        };
    }
    o.key("events_processed").int(m.events_processed);
}

/// One event: names instead of indices, seconds instead of milliseconds.
fn event(o: &mut Out, tr: &Trace, e: &Event) {
    let pod = e.pod.and_then(|p| tr.pods.get(p as usize));
    let container = match (pod, e.container) {
        (Some(p), Some(c)) => p.containers.get(c as usize).map(|c| c.name.as_str()),
        _ => None,
    };
    o.obj(|o| {
        o.key("t").f64(e.t as f64 / 1000.0);
        o.key("kind").str(e.kind.as_str());
        match pod {
            Some(p) => o.key("pod").str(&p.name),
            None => o.key("pod").null(),
        };
        match container {
            Some(c) => o.key("container").str(c),
            None => o.key("container").null(),
        };
        o.key("value");
        value(o, &e.value);
        o.key("rule").str(e.rule.id());
        o.key("by").str(e.by.as_str());
    });
}

/// One event on one line (compact), as the behaviour test hashes it.
pub fn event_line(tr: &Trace, e: &Event) -> String {
    let mut o = Out::compact();
    event(&mut o, tr, e);
    o.finish()
}

/// `null`, a bool, a string, a number, or an object for probe and endpoint values.
fn value(o: &mut Out, v: &Value) {
    match v {
        Value::None => {
            o.null();
        }
        Value::Bool(b) => {
            o.bool(*b);
        }
        Value::Condition(_)
        | Value::Taint(_)
        | Value::Writer(_)
        | Value::Health(_)
        | Value::Exit(_)
        | Value::Service(_) => {
            o.str(&v.text());
        }
        Value::Seconds(s) => {
            o.f64(*s);
        }
        Value::Probe(p) => {
            o.obj(|o| {
                o.key("probe").str(p.probe.as_str());
                o.key("result").str(match p.result {
                    Outcome::Unknown => "unknown",
                    Outcome::Success => "success",
                    Outcome::Failure => "failure",
                });
                o.key("run").int(p.run);
                o.key("threshold").int(p.threshold);
            });
        }
        Value::Endpoint(ep) => {
            o.obj(|o| {
                o.key("ready").bool(ep.ready);
                o.key("serving").bool(ep.serving);
                o.key("terminating").bool(ep.terminating);
            });
        }
    }
}
