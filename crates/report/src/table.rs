//! The CLI's `--format table`: a metrics table (one row per [`METRICS`] descriptor, one column
//! per policy, plus the difference) and, per policy, the API-visible pod Ready changes with
//! their writer and rule, between the node-level events that explain them. Plain text, meant to
//! be pasted into an issue or a KEP comment. Called by `restartscope simulate` (crates/cli).

use crate::describe::{describe, pod_name};
use crate::metrics::METRICS;
use restartscope_sim::{fmt_secs, Event, Kind, Policy, Scenario, Trace, Value};
use std::fmt::Write;

/// Events shown between the Ready changes, as context.
fn is_context(e: &Event) -> bool {
    matches!(
        e.kind,
        Kind::KubeletStop
            | Kind::KubeletStart
            | Kind::ApiReachable
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

pub(crate) fn header(sc: &Scenario) -> String {
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
        .map(crate::describe::restart_words)
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

/// The metrics table as cells: the column heads (after "metric": one per run, then the
/// difference when there are two runs) and one row per metric (its label, a value per run,
/// then the difference, absent where a run has no value for the metric). Shared by the text
/// table and [`crate::markdown`].
pub(crate) fn metric_cells(traces: &[Trace]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut heads: Vec<String> = traces.iter().map(crate::describe::heading).collect();
    // Two runs: KEP minus legacy for one release's pair, else the second minus the first.
    let pair = traces.len() == 2
        && traces[0].policy != traces[1].policy
        && traces[0].kubelet.split(" · ").next() == traces[1].kubelet.split(" · ").next();
    let diff = traces.len() == 2;
    if diff {
        heads.push(match traces {
            // Two releases' same kubelet: "main − 1.35"; else the full labels.
            [a, b] if !pair && a.policy == b.policy && a.proposal == b.proposal => {
                let rel = |t: &Trace| {
                    t.kubelet
                        .split(" · ")
                        .next()
                        .unwrap_or_default()
                        .to_string()
                };
                format!("{} − {}", rel(b), rel(a))
            }
            [a, b] if !pair => format!("{} − {}", b.kubelet, a.kubelet),
            _ => "KEP − legacy".to_string(),
        });
    }
    let mut rows = Vec::new();
    for m in METRICS.iter() {
        let mut row = vec![m.label()];
        for t in traces {
            // A metric a run does not have (no PodDisruptionBudget) is not a zero.
            row.push(if m.applies(&t.metrics) {
                m.fmt(m.value(&t.metrics))
            } else {
                "no budget".to_string()
            });
        }
        if diff && traces.iter().all(|t| m.applies(&t.metrics)) {
            // Order-independent: KEP minus legacy. ASCII signs for plain text.
            let get = |p| {
                traces
                    .iter()
                    .find(|t| t.policy == p)
                    .map_or(0.0, |t| m.value(&t.metrics))
            };
            let (from, to) = if pair {
                (get(Policy::Legacy), get(Policy::Kep))
            } else {
                (m.value(&traces[0].metrics), m.value(&traces[1].metrics))
            };
            row.push(match m.delta(from, to) {
                None => m.fmt(0.0),
                Some(d) => format!("{}{}", if d.sign == '+' { '+' } else { '-' }, d.size),
            });
        }
        rows.push(row);
    }
    (heads, rows)
}

fn metrics_table(traces: &[Trace]) -> String {
    let mut s = String::new();
    let (heads, rows) = metric_cells(traces);
    let lw = rows
        .iter()
        .map(|r| r[0].chars().count())
        .max()
        .unwrap_or(10)
        + 2;
    let cw = heads
        .iter()
        .map(|h| h.chars().count() + 2)
        .max()
        .unwrap_or(18)
        .max(18);
    let _ = write!(s, "{}", pad("metric", lw));
    for h in &heads {
        let _ = write!(s, "{}", lpad(h, cw));
    }
    s.push('\n');
    let _ = writeln!(s, "{}", "-".repeat(lw + cw * heads.len()));
    for row in &rows {
        let _ = write!(s, "{}", pad(&row[0], lw));
        for v in &row[1..] {
            let _ = write!(s, "{}", lpad(v, cw));
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
        crate::describe::heading(tr)
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
            let pod = pod_name(tr, e.pod);
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
                describe(tr, e),
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

/// The whole table for the scenario and its runs.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let mut s = header(sc);
    s.push('\n');
    s.push_str(&metrics_table(traces));
    if let Some(n) = gates_note(traces) {
        s.push_str(&n);
        s.push('\n');
    }
    for tr in traces {
        s.push('\n');
        s.push_str(&timeline(tr));
    }
    s
}

/// Which kubelet each run is, in Kubernetes' words, when one is not its release's default:
/// "1.35 · legacy (opt-in gate): --feature-gates=ChangeContainerStatusOnKubeletRestart=true;
/// the others run their release's default".
pub fn gates_note(traces: &[Trace]) -> Option<String> {
    let set: Vec<String> = traces
        .iter()
        .filter(|t| !t.feature_gates.is_empty())
        .map(|t| {
            let p = if t.proposal.is_empty() {
                String::new()
            } else {
                format!(" ({})", t.proposal)
            };
            format!("{}: --feature-gates={}{p}", t.kubelet, t.feature_gates)
        })
        .collect();
    if set.is_empty() {
        return None;
    }
    Some(format!(
        "{}; the others run their release's default kubelet.",
        set.join("; ")
    ))
}
