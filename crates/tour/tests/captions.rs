//! The tours against the model: every step runs, every caption fills from its runs, every rule
//! a caption or a mark cites occurs in the step's trace, no caption states a number of its own,
//! and what each step of `kep-4781` says happens does happen in its runs.

use restartscope_sim::{Kind, Ms, Policy, Rule, Trace, Value};
use restartscope_tour::{caption, find, Runs, Step, TOURS};

fn steps() -> impl Iterator<Item = (&'static str, usize, &'static Step)> {
    TOURS.iter().flat_map(|t| {
        t.steps
            .iter()
            .enumerate()
            .map(move |(i, s)| (t.name, i + 1, s))
    })
}

fn run(traces: &[Trace], p: Policy) -> &Trace {
    traces.iter().find(|t| t.policy == p).expect("run shown")
}

#[test]
fn kep_4781_has_seven_steps_with_unique_slugs_file_names_and_links() {
    let t = find("kep-4781").expect("tour kep-4781");
    assert!(t.steps.len() >= 7);
    let slugs: Vec<&str> = t.steps.iter().map(|s| s.slug).collect();
    for (i, s) in slugs.iter().enumerate() {
        assert!(!slugs[..i].contains(s), "slug {s} twice");
        assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    }
    assert_eq!(t.file_name(1).as_deref(), Some("01-legacy-flap.svg"));
    assert_eq!(t.link(2), "?tour=kep-4781&step=2");
    assert!(t.step(0).is_none() && t.step(t.steps.len() + 1).is_none());
    assert_eq!(t.steps[0].runs, Runs::Only(Policy::Legacy));
}

#[test]
fn every_step_runs_in_its_window_and_every_caption_fills() {
    for (tour, n, s) in steps() {
        let sc = s.scenario().unwrap_or_else(|e| panic!("{tour} {n}: {e}"));
        let traces = s.traces().unwrap();
        assert_eq!(traces.len(), s.policies().len());
        let (t0, t1) = s.window();
        assert!(0 <= t0 && t0 < t1 && t1 <= traces[0].horizon, "{tour} {n}");
        let r = sc.first_restart().expect("a restart");
        assert!(
            (t0 as f64) <= r.at_s * 1000.0 + 1.0,
            "{tour} {n}: window starts after the restart"
        );
        let caption = s
            .caption(&traces)
            .unwrap_or_else(|e| panic!("{tour} {n}: {e}"));
        assert!(caption.len() >= 2, "{tour} {n}: what to look at, then why");
        for p in &caption {
            assert!(!p.contains('{') && !p.contains('}'), "{tour} {n}: {p}");
        }
        if let Some(pod) = s.pod {
            assert!((pod as usize) < sc.pods.len(), "{tour} {n}");
        }
        let marks = s.marks(&traces);
        assert_eq!(marks.len(), s.marks.len(), "{tour} {n}: a mark never fires");
        for (t, label) in &marks {
            assert!(
                t0 <= *t && *t <= t1,
                "{tour} {n}: mark {label} outside the window"
            );
        }
    }
}

/// Rule ids a text names: words (letters and digits) that are rule ids.
fn named_rules(text: &str) -> Vec<Rule> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(caption::rule)
        .collect()
}

#[test]
fn every_cited_rule_occurs_in_the_steps_trace() {
    for (tour, n, s) in steps() {
        let traces = s.traces().unwrap();
        let cited = s.cited_rules();
        assert!(cited.len() >= 2, "{tour} {n}: cite the rules");
        let labels: Vec<Rule> = s.marks.iter().flat_map(|m| named_rules(m.label)).collect();
        for r in cited.iter().chain(&labels) {
            assert!(
                traces.iter().any(|t| t.events.iter().any(|e| e.rule == *r)),
                "{tour} step {n} ({}) cites rule {} but no event of its runs has it",
                s.slug,
                r.id()
            );
        }
        // A cited rule's Kubernetes function is in the filled caption.
        let text = s.caption(&traces).unwrap().join(" ");
        for p in s.caption {
            for ph in caption::placeholders(p) {
                if let Some(r) = ph.strip_prefix("rule:").and_then(caption::rule) {
                    assert!(text.contains(&format!("{}: {}", r.id(), r.source())));
                }
            }
        }
        // Every rule id the filled text names is a cited one.
        for r in named_rules(&text) {
            assert!(
                cited.contains(&r),
                "{tour} {n}: {} named, not cited",
                r.id()
            );
        }
    }
}

/// Numbers come from the runs: a caption's own text has no digits but `KEP-4781` and issue
/// numbers (`#135795`); every number in a filled caption is a placeholder's value.
#[test]
fn captions_state_no_number_of_their_own() {
    for (tour, n, s) in steps() {
        for p in s.caption {
            let lit = caption::literal(p).replace("KEP-4781", "");
            let mut chars = lit.chars().peekable();
            let mut prev = ' ';
            while let Some(c) = chars.next() {
                if c == '#' {
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                } else {
                    assert!(
                        !c.is_ascii_digit(),
                        "{tour} step {n}: the digit {c:?} after {prev:?} is not read from the run: use a placeholder in {p:?}"
                    );
                }
                prev = c;
            }
        }
    }
}

#[test]
fn metric_placeholders_are_the_runs_metrics() {
    let t = find("kep-4781").unwrap();
    let s = t.step(3).unwrap();
    let traces = s.traces().unwrap();
    let (l, k) = (run(&traces, Policy::Legacy), run(&traces, Policy::Kep));
    let fill = |p: &str| caption::expand(p, &traces).unwrap();
    assert_eq!(
        fill("{legacy.ready_transitions}"),
        l.metrics.ready_transitions.to_string()
    );
    assert_eq!(
        fill("{kep.unjustified_not_ready_s}"),
        format!("{:.1}", k.metrics.unjustified_not_ready_s)
    );
    assert_eq!(
        fill("{saved.ready_transitions}"),
        (l.metrics.ready_transitions - k.metrics.ready_transitions).to_string()
    );
    assert!(caption::expand("{legacy.no_such_metric}", &traces).is_err());
    assert!(caption::expand("{rule:Q9}", &traces).is_err());
    let one = find("kep-4781").unwrap().step(1).unwrap();
    assert!(caption::expand("{kep.ready_transitions}", &one.traces().unwrap()).is_err());
}

/// Pod `pod`'s API Ready changes at or after `from`.
fn ready_changes(tr: &Trace, pod: u16, from: Ms) -> Vec<(Ms, bool, Rule)> {
    tr.events
        .iter()
        .filter(|e| e.kind == Kind::PodReady && e.pod == Some(pod) && e.t >= from)
        .filter_map(|e| match e.value {
            Value::Bool(b) => Some((e.t, b, e.rule)),
            _ => None,
        })
        .collect()
}

/// What each step's prose says (beyond its filled numbers) holds in its runs.
#[test]
fn each_step_shows_what_its_caption_says() {
    let t = find("kep-4781").unwrap();
    let runs = |n: usize| t.step(n).unwrap().traces().unwrap();
    let stop = |tr: &Trace| tr.restarts[0].0;

    // 1: every healthy pod flaps False (P1) then True (P5); the control plane does nothing.
    let tr = runs(1);
    let l = run(&tr, Policy::Legacy);
    assert_eq!(l.metrics.nlc_status_writes, 0);
    for p in 0..l.pods.len() as u16 {
        let rules: Vec<(bool, Rule)> = ready_changes(l, p, stop(l))
            .iter()
            .map(|c| (c.1, c.2))
            .collect();
        assert_eq!(rules, [(false, Rule::P1), (true, Rule::P5)], "pod {p}");
    }

    // 2: under KEP-4781 no pod changes Ready.
    let tr = runs(2);
    assert_eq!(run(&tr, Policy::Kep).metrics.ready_transitions, 0);
    assert_eq!(run(&tr, Policy::Kep).metrics.endpointslice_updates, 0);

    // 3: legacy True, False (N1), True (S2), False (P1), True (P5); KEP False (N1), True (P5).
    let tr = runs(3);
    for p in 0..3 {
        let l: Vec<Rule> = ready_changes(run(&tr, Policy::Legacy), p, 0)
            .iter()
            .map(|c| c.2)
            .collect();
        assert_eq!(l, [Rule::N1, Rule::S2, Rule::P1, Rule::P5]);
        let k: Vec<Rule> = ready_changes(run(&tr, Policy::Kep), p, 0)
            .iter()
            .map(|c| c.2)
            .collect();
        assert_eq!(k, [Rule::N1, Rule::P5]);
    }

    // 4: legacy reports web-2 Ready (S2) then NotReady (P1); KEP never changes it after the stop.
    let tr = runs(4);
    let l = run(&tr, Policy::Legacy);
    let c: Vec<(bool, Rule)> = ready_changes(l, 2, stop(l))
        .iter()
        .map(|c| (c.1, c.2))
        .collect();
    assert_eq!(c, [(true, Rule::S2), (false, Rule::P1)]);
    let k = run(&tr, Policy::Kep);
    assert!(ready_changes(k, 2, stop(k)).is_empty());
    assert!(l.metrics.pdb_wrongful_allowed_s > k.metrics.pdb_wrongful_allowed_s);

    // 5: KEP-4781 keeps web-1 Ready longer than legacy, then P6 kills it.
    let tr = runs(5);
    let (l, k) = (run(&tr, Policy::Legacy), run(&tr, Policy::Kep));
    let first_false = |tr: &Trace| ready_changes(tr, 1, stop(tr))[0];
    assert_eq!(first_false(l).2, Rule::P1);
    assert_eq!(first_false(k).2, Rule::P5);
    assert!(first_false(k).0 > first_false(l).0);
    assert!(k.metrics.unjustified_ready_s > l.metrics.unjustified_ready_s);
    assert!(k
        .events
        .iter()
        .any(|e| e.rule == Rule::P6 && e.pod == Some(1)));

    // 6: legacy resets Started of api-0; KEP-4781 changes no Ready.
    let tr = runs(6);
    let l = run(&tr, Policy::Legacy);
    assert!(l.events.iter().any(|e| e.kind == Kind::ContainerStarted
        && e.pod == Some(0)
        && e.value == Value::Bool(false)
        && e.rule == Rule::P1));
    let k = run(&tr, Policy::Kep);
    assert_eq!(k.metrics.ready_transitions, 0);
    assert!(!k
        .events
        .iter()
        .any(|e| e.kind == Kind::ContainerStarted && e.value == Value::Bool(false)));

    // 7: every pod evicted under both kubelets.
    let tr = runs(7);
    for r in &tr {
        assert_eq!(r.metrics.evictions as usize, r.pods.len());
    }
}
