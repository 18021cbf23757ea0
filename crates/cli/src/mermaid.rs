//! `simulate --format mermaid`: each run's notable events (`restartscope_report::notable`) as a
//! Mermaid `sequenceDiagram` between the components that act — container runtime, kubelet,
//! prober, status manager, API server, node lifecycle controller, EndpointSlice controller (and
//! the taint eviction controller when it acts) — each instant a note spanning the diagram, each
//! message citing its rule. Printed as markdown: one heading and one fenced `mermaid` block per
//! run (legacy first, then KEP-4781), which GitHub renders where the KEP is read.

use restartscope_report::describe::{describe, heading};
use restartscope_report::notable;
use restartscope_sim::{fmt_secs, Actor, Event, Kind, Rule, Scenario, Trace};

/// Participants: id and name, in the diagram's order (left to right).
const ACTORS: [(&str, &str); 8] = [
    ("CR", "container runtime"),
    ("PR", "prober"),
    ("KL", "kubelet"),
    ("SM", "status manager"),
    ("API", "API server"),
    ("NLC", "node lifecycle controller"),
    ("TEC", "taint eviction controller"),
    ("ESC", "EndpointSlice controller"),
];

/// At most this many events per diagram (a long run is summarised after it).
const MAX_EVENTS: usize = 80;

/// Text safe inside a Mermaid message or note (`;` ends a statement, `#` starts an entity).
fn safe(s: &str) -> String {
    s.replace('#', "#35;")
        .replace("; ", ", ")
        .replace(';', "#59;")
        .replace('\n', " ")
}

/// The event as an arrow `from->>to` or a note over one participant, in words.
fn line(tr: &Trace, e: &Event) -> String {
    let words = safe(&describe(tr, e));
    let rule = if e.rule == Rule::Truth {
        String::new()
    } else {
        format!(" (rule {})", e.rule.id())
    };
    let arrow = |from: &str, to: &str| format!("    {from}->>{to}: {words}{rule}");
    let note = |over: &str| format!("    Note over {over}: {words}{rule}");
    match e.kind {
        Kind::KubeletStop | Kind::KubeletStart | Kind::PodSync | Kind::ContainerWaiting => {
            note("KL")
        }
        Kind::ApiReachable => arrow("KL", "API"),
        Kind::NodeReady | Kind::TaintAdded | Kind::TaintRemoved => arrow("NLC", "API"),
        Kind::ProbeResult | Kind::Probe => arrow("PR", "SM"),
        Kind::ContainerHealth => note("CR"),
        Kind::ContainerExit => arrow("CR", "KL"),
        Kind::ContainerRestart => arrow("KL", "CR"),
        Kind::ContainerStarted | Kind::ContainerReady => arrow("KL", "SM"),
        Kind::PodReady | Kind::StatusWrite => match e.by {
            Actor::NodeLifecycleController => arrow("NLC", "API"),
            _ => arrow("SM", "API"),
        },
        Kind::Endpoint | Kind::EndpointsliceUpdate => arrow("ESC", "API"),
        Kind::EvictionScheduled | Kind::EvictionCancelled => note("TEC"),
        Kind::Eviction => arrow("TEC", "API"),
        Kind::PodRemoved => note("API"),
        Kind::LeaseRenew => arrow("KL", "API"),
    }
}

/// One run's diagram (without the fence).
pub fn diagram(tr: &Trace) -> String {
    let mut out = String::from("sequenceDiagram\n");
    for (id, name) in ACTORS {
        out.push_str(&format!("    participant {id} as {name}\n"));
    }
    let events: Vec<_> = notable::events(tr).map(|(_, e)| e).collect();
    let mut last_t = None;
    for e in events.iter().take(MAX_EVENTS) {
        if last_t != Some(e.t) {
            last_t = Some(e.t);
            out.push_str(&format!(
                "    Note over CR,ESC: t = {}\n",
                fmt_secs(e.t as f64 / 1000.0)
            ));
        }
        out.push_str(&line(tr, e));
        out.push('\n');
    }
    if events.len() > MAX_EVENTS {
        out.push_str(&format!(
            "    Note over CR,ESC: … {} more events (restartscope simulate --format json has them all)\n",
            events.len() - MAX_EVENTS
        ));
    }
    out
}

/// `--format mermaid`: one heading and one fenced diagram per run, with the rules cited.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    let mut order: Vec<&Trace> = traces.iter().collect();
    order.sort_by_key(|t| t.policy);
    let restart = sc.first_restart().map_or(String::new(), |r| {
        format!(
            ": kubelet down {} at {}",
            fmt_secs(r.downtime_s),
            fmt_secs(r.at_s)
        )
    });
    let mut out = String::new();
    for tr in order {
        out.push_str(&format!(
            "### {}{restart} · {}\n\n```mermaid\n{}```\n\n",
            sc.name,
            heading(tr),
            diagram(tr)
        ));
        let mut rules: Vec<Rule> = Vec::new();
        for (_, e) in notable::events(tr) {
            if e.rule != Rule::Truth && !rules.contains(&e.rule) {
                rules.push(e.rule);
            }
        }
        if !rules.is_empty() {
            out.push_str("Rules cited:\n\n");
            for r in rules {
                out.push_str(&format!(
                    "- **{}** {}: `{}`\n",
                    r.id(),
                    r.title(),
                    r.source()
                ));
            }
            out.push('\n');
        }
    }
    out
}
