//! Every preset: its scenario file matches the constructor, it is valid, and it runs under both
//! policies. Regenerate the files with `UPDATE_PRESETS=1 cargo test -p restartscope-sim --test presets`.

use restartscope_sim::*;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("presets")
}

#[test]
fn preset_files_match_the_constructors() {
    let update = std::env::var_os("UPDATE_PRESETS").is_some();
    if update {
        std::fs::create_dir_all(dir()).unwrap();
    }
    for p in presets::PRESETS {
        let sc = (p.build)();
        let path = dir().join(format!("{}.toml", p.name));
        let text = format!(
            "# {}\n# {}\n{}",
            p.name,
            p.teaches,
            toml::to_string_pretty(&sc).unwrap()
        );
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let parsed: Scenario = toml::from_str(&on_disk).unwrap();
        assert_eq!(parsed, sc, "{} differs from its constructor", p.name);
        // JSON too.
        let json = serde_json::to_string(&sc).unwrap();
        let back: Scenario = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sc);
    }
}

#[test]
fn every_preset_runs_under_both_policies() {
    assert_eq!(presets::PRESETS.len(), 8);
    for p in presets::PRESETS {
        let sc = (p.build)();
        assert_eq!(sc.name, p.name);
        assert!(!sc.description.is_empty());
        sc.validate()
            .unwrap_or_else(|e| panic!("{}: {e:?}", p.name));
        let [legacy, kep] = compare(&sc).unwrap();
        assert_eq!(legacy.policy, Policy::Legacy);
        assert_eq!(kep.policy, Policy::Kep);
        assert!(!legacy.events.is_empty() && !kep.events.is_empty());
        // KEP never adds Ready flaps of its own.
        assert!(
            kep.metrics.ready_transitions <= legacy.metrics.ready_transitions,
            "{}",
            p.name
        );
    }
}

#[test]
fn presets_teach_what_they_say() {
    let m = |name: &str| {
        let [l, k] = compare(&(presets::find(name).unwrap().build)()).unwrap();
        (l.metrics, k.metrics)
    };
    let (l, k) = m("short-restart");
    assert!(l.ready_transitions >= 6 && k.ready_transitions == 0);
    let (l, k) = m("long-restart");
    assert_eq!((l.ready_transitions, k.ready_transitions), (12, 6));
    let (l, k) = m("eviction");
    assert_eq!((l.evictions, k.evictions), (3, 3));
    let (l, k) = m("unhealthy-during-downtime");
    assert!(k.unjustified_ready_s > l.unjustified_ready_s);
    let (l, k) = m("not-ready-before-restart");
    assert!(l.unjustified_ready_s > k.unjustified_ready_s);
    let (l, k) = m("daemonset-long-outage");
    assert_eq!((l.evictions, k.evictions), (1, 1));
}
