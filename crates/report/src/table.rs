//! `--format table`: a metrics table (one column per policy, plus the difference) and, per
//! policy, the API-visible pod Ready changes with their writer and rule, between the node-level
//! events that explain them. Plain text, meant to be pasted into an issue or a KEP comment.

use restartscope_sim::{fmt_secs, Event, Kind, Metrics, Scenario, Trace, Value};
use std::fmt::Write;

enum Num {
    Int(fn(&Metrics) -> u32),
    Real(fn(&Metrics) -> f64),
}

const ROWS: [(&str, Num); 8] = [
    ("Ready transitions", Num::Int(|m| m.ready_transitions)),
    (
        "status writes (kubelet)",
        Num::Int(|m| m.kubelet_status_writes),
    ),
    (
        "status writes (node lifecycle ctrl)",
        Num::Int(|m| m.nlc_status_writes),
    ),
    (
        "EndpointSlice updates",
        Num::Int(|m| m.endpointslice_updates),
    ),
    (
        "unjustified NotReady (pod·s)",
        Num::Real(|m| m.unjustified_not_ready_s),
    ),
    (
        "unjustified Ready (pod·s)",
        Num::Real(|m| m.unjustified_ready_s),
    ),
    ("evictions", Num::Int(|m| m.evictions)),
    ("node not Ready (s)", Num::Real(|m| m.node_not_ready_s)),
];

/// Events shown between the Ready changes, as context.
fn is_context(e: &Event) -> bool {
    matches!(
        e.kind,
        Kind::KubeletStop
            | Kind::KubeletStart
            | Kind::NodeReady
            | Kind::TaintAdded
            | Kind::TaintRemoved
            | Kind::EvictionScheduled
            | Kind::EvictionCancelled
            | Kind::Eviction
            | Kind::PodRemoved
            | Kind::ContainerHealth
            | Kind::ContainerExit
            | Kind::ContainerRestart
    )
}

fn pad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else {
        format!("{s}{}", " ".repeat(w - n))
    }
}

fn lpad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else {
        format!("{}{s}", " ".repeat(w - n))
    }
}

fn header(sc: &Scenario) -> String {
    let mut s = String::new();
    let _ = write!(s, "{}", sc.name);
    if !sc.description.is_empty() {
        let _ = write!(s, " — {}", sc.description);
    }
    s.push('\n');
    let restarts: Vec<String> = sc
        .kubelet
        .restarts
        .iter()
        .map(|r| {
            format!(
                "kubelet down {} at {}",
                fmt_secs(r.downtime_s),
                fmt_secs(r.at_s)
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "Kubernetes v{} · node monitor grace {} · {} · {} pod{} · seed {} · horizon {}",
        sc.cluster.version.as_str(),
        fmt_secs(sc.cluster.grace_s()),
        restarts.join(", "),
        sc.pods.len(),
        if sc.pods.len() == 1 { "" } else { "s" },
        sc.seed,
        fmt_secs(sc.horizon_s)
    );
    s
}

fn metrics_table(traces: &[Trace]) -> String {
    let mut s = String::new();
    let lw = ROWS.iter().map(|r| r.0.chars().count()).max().unwrap_or(10) + 2;
    let cw = 18;
    let _ = write!(s, "{}", pad("metric", lw));
    for t in traces {
        let _ = write!(s, "{}", lpad(t.policy.label(), cw));
    }
    let diff = traces.len() == 2;
    if diff {
        let _ = write!(s, "{}", lpad("KEP − legacy", cw));
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "{}",
        "-".repeat(lw + cw * (traces.len() + diff as usize))
    );
    for (label, num) in &ROWS {
        let _ = write!(s, "{}", pad(label, lw));
        let vals: Vec<f64> = traces
            .iter()
            .map(|t| match num {
                Num::Int(f) => f(&t.metrics) as f64,
                Num::Real(f) => f(&t.metrics),
            })
            .collect();
        for v in &vals {
            let cell = match num {
                Num::Int(_) => format!("{v}"),
                Num::Real(_) => format!("{v:.1}"),
            };
            let _ = write!(s, "{}", lpad(&cell, cw));
        }
        if diff {
            // Order-independent: KEP minus legacy.
            let get = |p| {
                traces
                    .iter()
                    .zip(&vals)
                    .find(|(t, _)| t.policy == p)
                    .map(|(_, v)| *v)
                    .unwrap_or(0.0)
            };
            let d = get(restartscope_sim::Policy::Kep) - get(restartscope_sim::Policy::Legacy);
            let cell = match num {
                Num::Int(_) if d == 0.0 => "0".to_string(),
                Num::Int(_) => format!("{:+}", d as i64),
                Num::Real(_) if d.abs() < 0.05 => "0.0".to_string(),
                Num::Real(_) => format!("{d:+.1}"),
            };
            let _ = write!(s, "{}", lpad(&cell, cw));
        }
        s.push('\n');
    }
    s
}

fn timeline(tr: &Trace) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: pod Ready as the API server shows it",
        tr.policy.label()
    );
    let rows: Vec<&Event> = tr
        .events
        .iter()
        .filter(|e| e.kind == Kind::PodReady || is_context(e))
        .collect();
    let pw = tr
        .pods
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(3)
        .max(3);
    let bw = "node-lifecycle-controller".len();
    let _ = writeln!(
        s,
        "  {}  {}  {}  {}  {}  why",
        lpad("time", 9),
        pad("pod", pw),
        pad("Ready", 5),
        pad("written by", bw),
        pad("rule", 4),
    );
    let mut changes = 0;
    for e in rows {
        let t = format!("{:.3}s", e.t as f64 / 1000.0);
        if e.kind == Kind::PodReady {
            changes += 1;
            let pod = e
                .pod
                .and_then(|p| tr.pods.get(p as usize))
                .map_or("?", |p| p.name.as_str());
            let v = if matches!(e.value, Value::Bool(true)) {
                "True"
            } else {
                "False"
            };
            let _ = writeln!(
                s,
                "  {}  {}  {}  {}  {}  {}",
                lpad(&t, 9),
                pad(pod, pw),
                pad(v, 5),
                pad(e.by.as_str(), bw),
                pad(e.rule.id(), 4),
                e.rule.title()
            );
        } else {
            let _ = writeln!(
                s,
                "  {}  · {} [{}]",
                lpad(&t, 9),
                tr.describe(e),
                e.rule.id()
            );
        }
    }
    if changes == 0 {
        let _ = writeln!(
            s,
            "  (no pod Ready changes: every pod kept its Ready condition)"
        );
    }
    s
}

pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let mut s = header(sc);
    s.push('\n');
    s.push_str(&metrics_table(traces));
    for tr in traces {
        s.push('\n');
        s.push_str(&timeline(tr));
    }
    s
}
