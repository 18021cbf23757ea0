//! `simulate --format mermaid`: each run's notable events (`restartscope_report::notable`) as a
//! Mermaid `sequenceDiagram` between the components that act — container runtime, kubelet,
//! prober, status manager, API server, node lifecycle controller, EndpointSlice controller (and
//! the taint eviction controller when it acts) — each instant a note spanning the diagram, each
//! message citing its rule. `--format mermaid` is Mermaid itself (what mermaid-cli and
//! mermaid.live read): one diagram per run, legacy first, each after a `%%` comment naming its
//! run; with `--out` and several runs, one file per run. `--format mermaid-md` is the document
//! to paste into a KEP or a README: per run a heading, a fenced `mermaid` block (GitHub renders
//! it) and the rules it cites.

use restartscope_report::describe::{describe, heading, pod_name};
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

/// Text safe inside a Mermaid message or note, for the mermaid GitHub bundles as well as the
/// current one: `;` ends a statement and `#` starts an entity code, so both are written as entity
/// codes (`#59;`, `#35;`); `<` and `>` as `#60;` and `#62;` (a `<br>` or any tag would be HTML
/// to one renderer and text to another); `%%` would start a comment; a line break ends the line.
pub(crate) fn safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' => out.push_str("#35;"),
            ';' if chars.peek() == Some(&' ') => out.push(','),
            ';' => out.push_str("#59;"),
            '<' => out.push_str("#60;"),
            '>' => out.push_str("#62;"),
            '%' => out.push_str("#37;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// One statement of a diagram and the participants it draws on.
struct Line {
    text: String,
    over: Vec<&'static str>,
}

/// The event as an arrow `from->>to` or a note over one participant, in words.
fn line(tr: &Trace, e: &Event) -> Line {
    let words = safe(&describe(tr, e));
    let rule = if e.rule == Rule::Truth {
        String::new()
    } else {
        format!(" (rule {})", e.rule.id())
    };
    let arrow = |from: &'static str, to: &'static str| Line {
        text: format!("    {from}->>{to}: {words}{rule}"),
        over: vec![from, to],
    };
    let note = |over: &'static str| Line {
        text: format!("    Note over {over}: {words}{rule}"),
        over: vec![over],
    };
    match e.kind {
        Kind::KubeletStop | Kind::KubeletStart | Kind::PodSync | Kind::ContainerWaiting => {
            note("KL")
        }
        Kind::ApiReachable => arrow("KL", "API"),
        // The kubelet posts its node Ready when it starts (K2); the controller sets Unknown.
        Kind::NodeReady if e.by == Actor::Kubelet => arrow("KL", "API"),
        Kind::NodeReady | Kind::TaintAdded | Kind::TaintRemoved => arrow("NLC", "API"),
        Kind::ProbeResult | Kind::Probe => arrow("PR", "SM"),
        Kind::ContainerHealth | Kind::RuntimeStop | Kind::RuntimeStart => note("CR"),
        Kind::NodeShutdown | Kind::NodeBoot => note("CR"),
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
        Kind::PodRemoved | Kind::PodFailed | Kind::NodeEdited => note("API"),
        Kind::PodRejected => arrow("KL", "API"),
        Kind::LeaseRenew => arrow("KL", "API"),
    }
}

/// The events a diagram shows: the notable ones (the web app's event log), every change of a
/// container's Started (the KEP's diagrams follow Started as well as Ready), and the kubelet's
/// first SyncPod after a start with the container Ready it sets there and the status it writes,
/// which the KEP's own sequence diagrams begin with (the log folds them into the pod's Ready, so
/// a SyncPod that writes the Ready the API server already holds, KEP-4781's `S3`, is not in it).
fn shown(tr: &Trace) -> Vec<&Event> {
    let syncs: std::collections::HashSet<_> = tr
        .events
        .iter()
        .filter(|s| s.kind == Kind::PodSync)
        .map(|s| (s.t, s.pod))
        .collect();
    let synced = |e: &Event| syncs.contains(&(e.t, e.pod));
    let ready_changes: std::collections::HashSet<_> = tr
        .events
        .iter()
        .filter(|s| s.kind == Kind::PodReady)
        .map(|s| (s.t, s.pod))
        .collect();
    tr.events
        .iter()
        .filter(|e| {
            notable::is_notable(e)
                || (e.kind == Kind::PodSync && e.rule == Rule::K3)
                || e.kind == Kind::ContainerStarted
                || (matches!(e.kind, Kind::ContainerStarted | Kind::ContainerReady) && synced(e))
                // The status that SyncPod writes, when no change of the pod's Ready shows it.
                || (e.kind == Kind::StatusWrite
                    && synced(e)
                    && !ready_changes.contains(&(e.t, e.pod)))
        })
        .collect()
}

/// Participants every diagram declares, acting or not, so that the legacy and the KEP-4781 runs
/// have the same columns and a run where nothing reaches the API server shows it empty.
const ALWAYS: [&str; 5] = ["PR", "KL", "SM", "API", "ESC"];

/// One run's diagram (without the fence): the participants of [`ALWAYS`] and those that act, in
/// [`ACTORS`]' order.
pub fn diagram(tr: &Trace) -> String {
    let events = shown(tr);
    let mut body: Vec<Line> = Vec::new();
    let mut last_t = None;
    for &e in events.iter().take(MAX_EVENTS) {
        if last_t != Some(e.t) {
            last_t = Some(e.t);
            body.push(Line {
                text: format!("t = {}", fmt_secs(e.t as f64 / 1000.0)),
                over: vec![],
            });
        }
        // The first SyncPod, with what it means for the status it generates.
        if e.kind == Kind::PodSync && e.rule == Rule::K3 {
            body.push(Line {
                text: format!(
                    "    Note over KL: first SyncPod of {}: status generated before its probe workers exist (rule K3)",
                    safe(pod_name(tr, e.pod))
                ),
                over: vec!["KL"],
            });
        } else {
            body.push(line(tr, e));
        }
    }
    let used: Vec<(&str, &str)> = ACTORS
        .into_iter()
        .filter(|(id, _)| ALWAYS.contains(id) || body.iter().any(|l| l.over.contains(id)))
        .collect();
    let span = format!("{},{}", used[0].0, used[used.len() - 1].0);
    let mut out = String::from("sequenceDiagram\n");
    for (id, name) in &used {
        out.push_str(&format!("    participant {id} as {name}\n"));
    }
    for l in &body {
        if l.over.is_empty() {
            out.push_str(&format!("    Note over {span}: {}\n", l.text));
        } else {
            out.push_str(&l.text);
            out.push('\n');
        }
    }
    if events.len() > MAX_EVENTS {
        out.push_str(&format!(
            "    Note over {span}: … {} more events (restartscope simulate --format json has them all)\n",
            events.len() - MAX_EVENTS
        ));
    }
    out
}

/// The runs in the order they are drawn (legacy first), with what names each: "short-restart:
/// kubelet down 20s at 30s · Legacy kubelet …".
fn ordered<'a>(sc: &Scenario, traces: &'a [Trace]) -> Vec<(&'a Trace, String)> {
    let mut order: Vec<&Trace> = traces.iter().collect();
    order.sort_by_key(|t| t.policy);
    let restart = sc.first_restart().map_or(String::new(), |r| {
        format!(": {}", restartscope_report::describe::restart_words(r))
    });
    order
        .into_iter()
        .map(|tr| (tr, format!("{}{restart} · {}", sc.name, heading(tr))))
        .collect()
}

/// A name for each run's file: its policy (`legacy`, `kep`), or its kubelet's name when two runs
/// share a policy (`--kubelets`).
fn slugs(runs: &[(&Trace, String)]) -> Vec<String> {
    let slug = |s: &str| {
        let mut out = String::new();
        for c in s.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
        }
        out.trim_end_matches('-').to_string()
    };
    let by_policy: Vec<String> = runs.iter().map(|(t, _)| slug(t.policy.as_str())).collect();
    let unique = by_policy
        .iter()
        .enumerate()
        .all(|(i, p)| !by_policy[..i].contains(p));
    if unique {
        by_policy
    } else {
        runs.iter()
            .enumerate()
            .map(|(i, (t, _))| format!("{}-{}", i + 1, slug(&t.kubelet)))
            .collect()
    }
}

/// `--format mermaid`: each run's diagram with a `%%` line naming its run, and the file name
/// part that tells the runs apart (`legacy`, `kep`).
pub fn diagrams(sc: &Scenario, traces: &[Trace]) -> Vec<(String, String)> {
    let runs = ordered(sc, traces);
    let names = slugs(&runs);
    runs.iter()
        .zip(names)
        .map(|((tr, title), name)| (name, format!("%% {}\n{}", safe(title), diagram(tr))))
        .collect()
}

/// `--format mermaid` to standard output (or to one file, with one run): the diagrams one after
/// the other, each after its `%%` line.
pub fn render(sc: &Scenario, traces: &[Trace]) -> String {
    diagrams(sc, traces)
        .into_iter()
        .map(|(_, d)| d)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `--format mermaid-md`: one heading and one fenced diagram per run, with the rules cited.
pub fn render_markdown(sc: &Scenario, traces: &[Trace]) -> String {
    let mut out = String::new();
    for (tr, title) in ordered(sc, traces) {
        out.push_str(&format!(
            "### {title}\n\n```mermaid\n{}```\n\n",
            diagram(tr)
        ));
        let mut rules: Vec<Rule> = Vec::new();
        for e in shown(tr) {
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

/// `--format mermaid --out x.mmd` with several runs: `x-legacy.mmd`, `x-kep.mmd`, … (the
/// extension given, `.mmd` when none), each named on standard error.
pub fn write_files(diagrams: &[(String, String)], out: &str) -> std::process::ExitCode {
    let path = std::path::Path::new(out);
    let ext = path
        .extension()
        .map_or("mmd".to_string(), |e| e.to_string_lossy().into_owned());
    let stem = path.with_extension("");
    for (name, d) in diagrams {
        let file = format!("{}-{name}.{ext}", stem.display());
        if let Err(e) = std::fs::write(&file, d) {
            eprintln!("restartscope: error: cannot write {file}: {e}");
            return std::process::ExitCode::from(1);
        }
        eprintln!("wrote {file}");
    }
    std::process::ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    /// What no statement may hold for GitHub's mermaid (an older bundle than the one the e2e
    /// test renders with) to read it as this diagram: a bare `;` (a second statement), `#` other
    /// than an entity code, a tag (`<br/>` is a line break in one version and text in another),
    /// `%%` (a comment), a line break.
    fn github_safe(text: &str) -> Result<(), String> {
        let mut rest = text;
        while let Some(i) = rest.find('#') {
            let code = &rest[i + 1..];
            let digits = code.chars().take_while(char::is_ascii_digit).count();
            if digits == 0 || !code[digits..].starts_with(';') {
                return Err(format!("a bare # in {text:?}"));
            }
            rest = &code[digits + 1..];
        }
        let without_codes: String = {
            let mut s = String::new();
            let mut it = text.split('#');
            s.push_str(it.next().unwrap_or_default());
            for part in it {
                s.push_str(part.split_once(';').map_or(part, |(_, r)| r));
            }
            s
        };
        for bad in [";", "<", ">", "%%", "\n", "\r"] {
            if without_codes.contains(bad) {
                return Err(format!("{bad:?} in {text:?}"));
            }
        }
        Ok(())
    }

    #[test]
    fn safe_writes_entity_codes_for_what_ends_or_breaks_a_statement() {
        assert_eq!(safe("a; b"), "a, b");
        assert_eq!(safe("x;y"), "x#59;y");
        assert_eq!(safe("issue #135795"), "issue #35;135795");
        assert_eq!(safe("a<br/>b"), "a#60;br/#62;b");
        assert_eq!(safe("50%% done\nnext"), "50#37;#37; done next");
        assert_eq!(
            safe("(rule P1k) → Ready=True · 1m0.5s"),
            "(rule P1k) → Ready=True · 1m0.5s"
        );
        for s in ["a; b", "x;y", "#1", "<b>", "%%{init}%%", "l1\nl2", "a#59;b"] {
            github_safe(&safe(s)).unwrap();
        }
        assert!(github_safe("a;b").is_err());
        assert!(github_safe("a #b").is_err());
        assert!(github_safe("a<br/>b").is_err());
    }

    /// Every preset's diagrams, both kubelets: each line is a participant, a note or an arrow
    /// whose text passes [`github_safe`], every participant used is declared, and a note across
    /// the diagram names the first and last participant.
    #[test]
    fn every_preset_diagram_is_safe_for_githubs_mermaid() {
        for name in presets::names() {
            let sc = (presets::find(name).unwrap().build)();
            for tr in restartscope_sim::compare_default(&sc).unwrap() {
                let d = diagram(&tr);
                let mut lines = d.lines();
                assert_eq!(lines.next(), Some("sequenceDiagram"));
                let mut declared = Vec::new();
                for l in lines {
                    let l = l
                        .strip_prefix("    ")
                        .unwrap_or_else(|| panic!("{name}: {l}"));
                    if let Some(p) = l.strip_prefix("participant ") {
                        let (id, label) = p.split_once(" as ").unwrap();
                        github_safe(label).unwrap();
                        declared.push(id.to_string());
                        continue;
                    }
                    let (head, text) = l.split_once(": ").unwrap_or_else(|| panic!("{name}: {l}"));
                    github_safe(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                    let ids: Vec<&str> = if let Some(over) = head.strip_prefix("Note over ") {
                        over.split(',').collect()
                    } else {
                        let (a, b) = head
                            .split_once("->>")
                            .unwrap_or_else(|| panic!("{name}: {l}"));
                        vec![a, b]
                    };
                    for id in ids {
                        assert!(
                            declared.iter().any(|d| d == id),
                            "{name}: {id} not declared: {l}"
                        );
                    }
                }
            }
        }
    }

    /// The diagrams begin where the KEP's own do: the restarted kubelet's first SyncPod. Under
    /// KEP-4781 after a long outage it writes the containers NotReady (S3), which the pod's Ready
    /// (already False) does not show; the kubelet, not the controller, posts its node Ready.
    #[test]
    fn the_first_syncpod_and_what_it_sets_are_drawn() {
        let [legacy, kep] = compare(&presets::long_restart()).unwrap();
        let kep = diagram(&kep);
        assert!(
            kep.contains("Note over KL: first SyncPod of web-0: status generated before its probe workers exist (rule K3)"),
            "{kep}"
        );
        assert!(
            kep.contains("KL->>SM: web-0/app Ready=false (rule S3)"),
            "{kep}"
        );
        assert!(
            kep.contains("KL->>API: Node Ready condition becomes True (rule K2)"),
            "{kep}"
        );
        let legacy = diagram(&legacy);
        assert!(
            legacy.contains("SM->>API: web-0 Ready=True written by the kubelet (rule S2)"),
            "{legacy}"
        );
        // Participants that never act are left out: no container runtime in a restart where
        // every container keeps running.
        assert!(!legacy.contains("participant CR"), "{legacy}");
    }
}
