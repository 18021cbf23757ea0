//! One scenario-editing path: the CLI's flags and the web app's form fields, given the same
//! settings, build the same scenario (both go through `Overrides::apply`).

use restartscope::form::{fmt_num, Settings};
use restartscope_sim::{presets, KubeVersion, Scenario};
use std::process::Command;

/// What the CLI resolves for these flags: the `scenario` of its JSON output.
fn cli(preset: &str, flags: &[&str]) -> Scenario {
    let out = Command::new(env!("CARGO_BIN_EXE_restartscope"))
        .args(["simulate", "--preset", preset, "--format", "json"])
        .args(flags)
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{flags:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(doc["scenario"].clone()).unwrap()
}

/// What the form builds when a person sets the same values (a version change also resets the
/// grace field to that version's default, as the app and the URL parser do).
fn form(
    preset: &str,
    downtime_s: f64,
    version: Option<&str>,
    grace_s: Option<f64>,
    seed: Option<u64>,
) -> Scenario {
    let mut s = Settings::for_preset(preset);
    s.downtime_s = downtime_s;
    if let Some(v) = version {
        s.version = v.into();
        s.grace_s = fmt_num(KubeVersion::parse(v).unwrap().default_grace_s());
    }
    if let Some(g) = grace_s {
        s.grace_s = fmt_num(g);
    }
    if let Some(n) = seed {
        s.seed = n.to_string();
    }
    s.scenario().unwrap_or_else(|e| panic!("{preset}: {e:?}"))
}

#[test]
fn cli_and_form_build_equal_scenarios() {
    for p in presets::PRESETS {
        let name = p.name;
        // The downtime alone: 6 min outlives the toleration, so the run grows to show the return.
        let a = cli(name, &["--downtime", "6m"]);
        assert_eq!(
            a,
            form(name, 360.0, None, None, None),
            "{name} --downtime 6m"
        );
        assert!(a.horizon_s >= a.kubelet.restarts[0].at_s + 360.0 + 90.0);
        // Every flag the form also has.
        let a = cli(
            name,
            &[
                "--downtime",
                "45s",
                "--version",
                "1.36",
                "--grace",
                "45s",
                "--seed",
                "7",
            ],
        );
        assert_eq!(
            a,
            form(name, 45.0, Some("1.36"), Some(45.0), Some(7)),
            "{name} all flags"
        );
        // A version alone: its default grace period stays implicit in both.
        let a = cli(name, &["--downtime", "1m30s", "--version", "main"]);
        assert_eq!(
            a,
            form(name, 90.0, Some("main"), None, None),
            "{name} --version"
        );
    }
}
