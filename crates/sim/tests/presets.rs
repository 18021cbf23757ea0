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
        let link = p.link.map(|l| format!("# {l}\n")).unwrap_or_default();
        let text = format!(
            "# {}\n# {}\n{link}{}",
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
    assert_eq!(presets::PRESETS.len(), 20);
    for p in presets::PRESETS {
        let sc = (p.build)();
        assert_eq!(sc.name, p.name);
        assert!(!sc.description.is_empty());
        sc.validate()
            .unwrap_or_else(|e| panic!("{}: {e:?}", p.name));
        if !sc.newest_kubelet().has_kep_4781() {
            // A release before 1.35 (and its upgrades before 1.35) has the legacy kubelet only.
            let runs = compare_default(&sc).unwrap();
            assert_eq!(runs.len(), 1, "{}", p.name);
            assert_eq!(runs[0].policy, Policy::Legacy);
            continue;
        }
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

    // The upstream reports (tests/reports.rs checks each reporter's sequence in detail).
    let (l, k) = m("report-113646-flap");
    assert_eq!((l.ready_transitions, k.ready_transitions), (2, 0));
    assert_eq!((l.endpointslice_updates, k.endpointslice_updates), (2, 0));
    let (l, k) = m("report-125397-startup-rerun");
    assert_eq!((l.ready_transitions, k.ready_transitions), (2, 0));
    assert!((l.unjustified_not_ready_s - 70.0).abs() < 1e-6 && k.unjustified_not_ready_s == 0.0);
    let (l, k) = m("report-135795-notready-flip");
    // Both count the 30 s before the failing probe crossed its threshold; legacy adds the window.
    let window = l.unjustified_ready_s - k.unjustified_ready_s;
    assert!(window > 0.0 && window < 10.0, "{window}");
    let (l, k) = m("report-142305-started-early");
    assert!(k.unjustified_ready_s > 100.0 && l.unjustified_ready_s < 20.0);
    // #141155: Started written with the liveness-killed container's replacement, except by
    // 1.35–1.37's KEP-4781 kubelet (copied by name); main writes it again (#141342).
    let sc = (presets::find("report-141155-started-by-name")
        .unwrap()
        .build)();
    let started_at_kill = |tr: &Trace| {
        let kill = tr
            .events
            .iter()
            .find(|e| e.kind == Kind::ContainerExit && e.rule == Rule::P6)
            .expect("a liveness kill")
            .t;
        tr.events
            .iter()
            .filter(|e| e.t > kill && e.t <= kill + 1_000 && e.kind == Kind::ContainerStarted)
            .count()
    };
    let [l, k] = compare(&sc).unwrap();
    assert_eq!((started_at_kill(&l), started_at_kill(&k)), (1, 0));
    let main = simulate_profile(
        &sc,
        &KubeletProfile::new(KubeVersion::Main, Policy::Kep).unwrap(),
    )
    .unwrap();
    assert_eq!(started_at_kill(&main), 1);
}

#[test]
fn report_presets_link_their_issue_and_name_it() {
    for p in presets::PRESETS {
        match p.link {
            Some(link) => {
                let number = link
                    .strip_prefix("https://github.com/kubernetes/kubernetes/issues/")
                    .unwrap_or_else(|| panic!("{}: {link}", p.name));
                assert!(
                    p.name.starts_with(&format!("report-{number}-")),
                    "{}",
                    p.name
                );
                assert!(
                    p.teaches.starts_with(&format!("kubernetes#{number}")),
                    "{}",
                    p.name
                );
                // The release the reporter's behaviour needs, and one the app can compare.
                assert!((p.build)().cluster.version.has_kep_4781(), "{}", p.name);
            }
            None => assert!(!p.name.starts_with("report-"), "{}", p.name),
        }
    }
}
