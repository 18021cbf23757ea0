//! One argument parser (clap) for every subcommand — per-subcommand help, shell
//! completions, short flags as kubectl has them, markdown tables, the exit status of every
//! subcommand on bad input (2) and on output it cannot write (1), the kubectl plugin's name.

mod common;
use common::*;

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = ok(&["completions", shell]);
        assert!(out.len() > 500, "{shell}: {out}");
        for sub in [
            "simulate",
            "fleet",
            "import",
            "kubernetes-version",
            "manifest",
        ] {
            assert!(out.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    fails(&["completions", "tcsh"], &["invalid value 'tcsh'", "bash"]);
    fails(&["completions"], &["<SHELL>"]);
}

#[test]
fn each_subcommand_has_its_own_help() {
    let sim = ok(&["simulate", "--help"]);
    assert!(sim.contains("Usage: restartscope simulate"), "{sim}");
    for want in [
        "--preset",
        "-f, --manifest",
        "-o, --format",
        "--kubernetes-version",
        "--probe",
    ] {
        assert!(sim.contains(want), "simulate --help lacks {want}");
    }
    for other in ["--nodes", "--wait-ready", "--name <NAME>"] {
        assert!(!sim.contains(other), "simulate --help shows {other}");
    }
    let fleet = ok(&["fleet", "--help"]);
    assert!(fleet.contains("--nodes") && fleet.contains("--wait-ready"));
    assert!(!fleet.contains("--probe") && !fleet.contains("--replicas-on-node"));
    // fleet's -f takes cluster settings only.
    assert!(fleet.contains("-f, --manifest"), "{fleet}");
    let import = ok(&["import", "--help"]);
    assert!(import.contains("-f, --manifest") && !import.contains("--downtime"));
    let tour = ok(&["tour", "--help"]);
    assert!(tour.contains("--out <DIR>") && !tour.contains("--preset"));
    assert_eq!(ok(&["help", "fleet"]), fleet);
}

#[test]
fn short_flags_and_markdown() {
    let long = ok(&["simulate", "--preset", "short-restart", "--format", "json"]);
    assert_eq!(
        ok(&["simulate", "--preset", "short-restart", "-o", "json"]),
        long
    );
    let md = ok(&["simulate", "--preset", "short-restart", "-o", "markdown"]);
    assert!(md.starts_with("**short-restart"), "{md}");
    assert!(
        md.contains("| metric | Legacy kubelet · 1.35 (opt-in gate) | KEP-4781 kubelet · 1.35 (default) | KEP − legacy |"),
        "{md}"
    );
    assert!(
        md.contains("| Pod Ready transitions | 6 | 0 | -6 |"),
        "{md}"
    );
    // The same metrics as the text table.
    let table = ok(&["simulate", "--preset", "short-restart"]);
    for line in md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| metric"))
    {
        let label = line.split(" | ").next().unwrap().trim_start_matches("| ");
        assert!(table.contains(label), "{label} not in the table");
    }
    let fleet = ok(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "10",
        "-o",
        "markdown",
    ]);
    assert!(
        fleet.contains(
            "| metric | 1.35 · legacy (opt-in gate) | 1.35 · default (KEP-4781) | KEP saves |"
        ),
        "{fleet}"
    );
    assert!(fleet.contains("|---|---:|---:|---:|"));
}

/// Every subcommand: bad input exits 2 with one line; output it cannot write exits 1.
#[test]
fn exit_status_of_every_subcommand() {
    let pod = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../manifest/tests/data/pod.json"
    );
    fails(&["presets", "--bogus"], &["'--bogus'"]);
    fails(&["versions", "x"], &["'x'"]);
    fails(
        &["simulate", "--preset", "short-restart", "-o", "xml"],
        &["--format"],
    );
    fails(
        &["simulate", "--preset", "short-restart", "--out", ""],
        &["--out needs a file name"],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "--nodes", "x"],
        &["--nodes"],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "--out", ""],
        &["--out needs a file name"],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "-o", "svg"],
        &["table, markdown, json"],
    );
    fails(
        &["import", "-f", pod, "--replicas-on-node", "0"],
        &["--replicas-on-node"],
    );
    fails(
        &["import", "-f", pod, "--out", ""],
        &["--out needs a file name"],
    );
    fails(&["tour", "--name", "nope", "--out", "x"], &["unknown tour"]);
    fails(&["completions", "sh"], &["'sh'"]);
    let bad = "/dev/null/x.out";
    for args in [
        &["simulate", "--preset", "short-restart", "--out", bad][..],
        &[
            "fleet",
            "--preset",
            "rolling-upgrade",
            "--nodes",
            "4",
            "--out",
            bad,
        ],
        &["import", "-f", pod, "--out", bad],
        &["tour", "--out", "/dev/null/tour"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("restartscope: error: cannot "), "{err}");
        assert!(!err.contains("panicked"));
    }
}

/// Installed as `kubectl-restartscope` (make install), the help names `kubectl restartscope`.
#[test]
fn as_a_kubectl_plugin() {
    let dir = std::env::temp_dir().join(format!("restartscope-plugin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("kubectl-restartscope");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let out = std::process::Command::new(&link)
        .args(["simulate", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        help.contains("Usage: kubectl restartscope simulate"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Durations in Go's syntax everywhere they are read; finer than the model's millisecond clock
/// is refused.
#[test]
fn go_durations() {
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "json",
        "--downtime",
        "500ms",
        "--grace",
        "1m0s",
    ]);
    assert_eq!(doc["scenario"]["kubelet"]["restarts"][0]["downtime_s"], 0.5);
    assert_eq!(doc["scenario"]["cluster"]["node_monitor_grace_s"], 60.0);
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "json",
        "--restart",
        "30s:1500ms",
        "--restart",
        "1m:20m0.25s",
    ]);
    let r = &doc["scenario"]["kubelet"]["restarts"];
    assert_eq!(r[0]["downtime_s"], 1.5);
    assert_eq!(r[1]["downtime_s"], 1200.25);
    // Plain seconds stay accepted.
    let doc = json(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "json",
        "--downtime",
        "1.5",
    ]);
    assert_eq!(doc["scenario"]["kubelet"]["restarts"][0]["downtime_s"], 1.5);
    let fleet = json(&[
        "fleet",
        "--preset",
        "rolling-upgrade",
        "--nodes",
        "4",
        "--downtime",
        "1m30s",
        "--pause",
        "500ms",
        "-o",
        "json",
    ]);
    assert_eq!(fleet["fleet"]["rolling"]["pause_s"], 0.5);
    assert_eq!(fleet["fleet"]["rolling"]["downtime_s"], 90.0);
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--downtime",
            "1.5ms",
        ],
        &["--downtime", "whole milliseconds"],
    );
    fails(
        &["fleet", "--preset", "rolling-upgrade", "--pause", "250us"],
        &["--pause", "whole milliseconds"],
    );
}
