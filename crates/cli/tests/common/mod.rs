//! Running the built `restartscope` binary, shared by the CLI tests.
#![allow(dead_code)]

use serde_json::Value as J;
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_restartscope");

pub fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}

pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?} wrote to stderr");
    String::from_utf8(out.stdout).expect("UTF-8")
}

pub fn json(args: &[&str]) -> J {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

/// Exit status 2, one line on stderr that contains every `wants`, nothing on stdout, no panic.
pub fn fails(args: &[&str], wants: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {err}"
    );
    assert!(err.starts_with("restartscope: error: "), "{err}");
    for w in wants {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    err
}

/// `replay`'s tests: an evidence fixture's path.
pub fn data(name: &str) -> String {
    format!(
        "{}/../evidence/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The ranking's first line (`1. 103.0 report-…`).
pub fn first_verdict(out: &str) -> &str {
    out.lines()
        .find(|l| l.trim_start().starts_with("1. "))
        .expect("a ranked candidate")
}

pub fn tmp(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("restartscope-replay-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}
