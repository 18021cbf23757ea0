//! `Scenario::from_json` / `to_json` (`scenario/json.rs`, serde_json with the field's path in
//! errors), which the page, the CLI and scenario files use: every preset and edited ones read
//! back as written, refusals name the field and the place, and broken texts are refused with a
//! message, never a panic.

use proptest::prelude::*;
use restartscope_sim::json::quote;
use restartscope_sim::presets::PRESETS;
use restartscope_sim::{ApiUnreachable, Health, IntOrPercent, Pdb, Probe, Scenario, Truth};

/// Every preset, and the presets with every optional part set.
fn scenarios() -> Vec<Scenario> {
    let mut out: Vec<Scenario> = PRESETS.iter().map(|p| (p.build)()).collect();
    for (i, base) in out.clone().into_iter().enumerate() {
        let mut sc = base;
        sc.seed = u64::MAX - i as u64;
        sc.description = format!("edited \"{i}\" \u{e9}\u{1F600}\n\t\\ /");
        sc.cluster.node_monitor_grace_s = Some(37.5);
        sc.kubelet.api_unreachable.push(ApiUnreachable {
            at_s: 1.25,
            duration_s: 3e1,
        });
        sc.pdb = Some(Pdb {
            pods: vec![],
            service: Some("web".into()),
            min_available: Some(if i % 2 == 0 {
                IntOrPercent::Int(-2)
            } else {
                IntOrPercent::Str("50%".into())
            }),
            max_unavailable: Some(IntOrPercent::Int(1)),
        });
        if i % 3 == 0 {
            sc.cluster.not_ready_toleration_s = 12.5;
        }
        if i % 2 == 1 {
            let first = sc.pods[0].name.clone();
            sc.pdb.as_mut().unwrap().pods = vec![first];
        }
        for (j, pod) in sc.pods.iter_mut().enumerate() {
            // No Service, one (written as a string), two (a list).
            pod.services = ["web", "web-headless"][..(i + j) % 3]
                .iter()
                .map(|s| s.to_string())
                .collect();
            pod.termination_grace_s = 0.5;
            let mut init = pod.containers[0].clone();
            init.name = "init".into();
            init.restart_policy = Some("Always".into());
            init.startup_probe = Some(Probe {
                period_s: 1,
                initial_delay_s: 7,
                exec_s: 0.25,
                ..Probe::default()
            });
            init.truth = vec![
                Truth {
                    at_s: 2.0,
                    state: Health::FailingReadiness,
                },
                Truth {
                    at_s: 9.0,
                    state: Health::Exited,
                },
            ];
            pod.init_containers.push(init);
        }
        out.push(sc);
    }
    out
}

#[test]
fn reads_what_it_writes() {
    for sc in scenarios() {
        for pretty in [false, true] {
            let text = sc.to_json(pretty);
            assert_eq!(Scenario::from_json(&text).as_ref(), Ok(&sc), "{}", sc.name);
        }
        assert_eq!(sc.to_json(false), serde_json::to_string(&sc).unwrap());
    }
}

#[test]
fn defaults_and_refusals() {
    let min = r#"{"name":"m","kubelet":{"restarts":[]},"pods":[{"name":"p","containers":[{"name":"c","readiness_probe":{}}]}],"horizon_s":10}"#;
    let sc = Scenario::from_json(min).unwrap();
    assert_eq!(sc.seed, Scenario::from_json(min).unwrap().seed);
    for bad in [
        r#"{"name":"m","kubelet":{"restarts":[]},"pods":[],"horizon_s":10,"extra":1}"#,
        r#"{"name":"m","kubelet":{"restarts":[]},"pods":[]}"#,
        r#"{"name":"m","name":"n","kubelet":{"restarts":[]},"pods":[],"horizon_s":10}"#,
        r#"{"name":"m","kubelet":{"policy":"new","restarts":[]},"pods":[],"horizon_s":10}"#,
        r#"{"name":"m","kubelet":{"restarts":[]},"pods":[],"horizon_s":10,"seed":-1}"#,
        r#"{"name":"m","kubelet":{"restarts":[]},"pods":[],"horizon_s":1e999}"#,
        r#"{"name":"m","kubelet":{"restarts":[]},"pods":[],"horizon_s":10} x"#,
        r#"{"name":"m\x","kubelet":{"restarts":[]},"pods":[],"horizon_s":10}"#,
        "",
        "[",
    ] {
        let e = Scenario::from_json(bad).expect_err(bad);
        assert!(!e.is_empty());
    }
    let deep = "[".repeat(200);
    assert!(Scenario::from_json(&deep).is_err());
}

#[test]
fn messages_name_the_field_and_the_place() {
    let text =
        r#"{"name":"m","kubelet":{"restarts":[{"at_s":1,"downtime":2}]},"pods":[],"horizon_s":10}"#;
    let e = Scenario::from_json(text).unwrap_err();
    assert!(
        e.starts_with("kubelet.restarts[0].downtime: unknown field `downtime`"),
        "{e}"
    );
    let e = Scenario::from_json(r#"{"name":"m","kubelet":{"restarts":[]},"pods":[{"name":"p","containers":[{"name":"c","readiness_probe":{"period_s":"x"}}]}],"horizon_s":10}"#).unwrap_err();
    assert!(
        e.starts_with("pods[0].containers[0].readiness_probe.period_s: invalid type"),
        "{e}"
    );
    let e = Scenario::from_json("{\n  \"name\": 1,\n  oops").unwrap_err();
    assert!(e.contains("at line 2 column"), "{e}");
    let e = Scenario::from_json("{\n  \"name\": \"m\",\n  oops").unwrap_err();
    assert!(e.ends_with("at line 3 column 3"), "{e}");
}

/// A small edit of a valid text: a byte dropped, doubled or replaced, a number changed.
fn mutate(text: &str, at: usize, kind: u8, with: char) -> String {
    let mut b: Vec<char> = text.chars().collect();
    let at = at % b.len();
    match kind % 5 {
        0 => {
            b.remove(at);
        }
        1 => b.insert(at, b[at]),
        2 => b[at] = with,
        3 => b.insert(at, with),
        _ => b.truncate(at),
    }
    b.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    /// A broken text is refused with a message naming where, or read as plain serde_json reads
    /// it: the path-naming wrapper changes no verdict.
    #[test]
    fn broken_texts_are_refused_with_a_message(
        which in 0usize..64,
        pretty in any::<bool>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(
            vec!['0', '1', '9', '-', '.', 'e', '"', '\\', ',', ':', '{', '}', '[', ']', ' ', 'n', 'x', 'u', '\u{e9}', '\n'])), 1..3),
    ) {
        let all = scenarios();
        let sc = &all[which % all.len()];
        let mut text = sc.to_json(pretty);
        for (at, kind, with) in edits {
            if text.is_empty() { break; }
            text = mutate(&text, at, kind, with);
        }
        let ours = Scenario::from_json(&text);
        let plain: Result<Scenario, _> = serde_json::from_str(&text);
        prop_assert_eq!(ours.is_ok(), plain.is_ok(), "text {}", text);
        match ours {
            Ok(a) => prop_assert_eq!(a, plain.unwrap()),
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }

    #[test]
    fn strings_quoted_as_serde(s in "\\PC*", c in any::<char>()) {
        let s = format!("{s}{c}\u{7f}\u{1f}");
        prop_assert_eq!(quote(&s), serde_json::to_string(&s).unwrap());
    }
}
