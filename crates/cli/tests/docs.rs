//! docs/CLI.md documents every rule id and every event kind the JSON can contain.

use restartscope_sim::Rule;

#[test]
fn cli_doc_lists_every_rule_id() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/CLI.md")).unwrap();
    for r in Rule::ALL {
        assert!(
            doc.contains(&format!("| `{}` | {} |", r.id(), r.title())),
            "docs/CLI.md lacks the row for rule {} ({})",
            r.id(),
            r.title()
        );
    }
}

/// The figures committed under docs/ are what the CLI draws today. Regenerate with
/// `cargo run -p restartscope-cli -- simulate --preset NAME --format svg --out docs/NAME.svg`.
/// `releases-1.35-vs-main`: `--preset report-141155-started-by-name --kubelets 1.35:kep,main:kep`.
#[test]
fn committed_figures_are_current() {
    let kubelets = ["--kubelets", "1.35:kep,main:kep"];
    for (name, preset, extra) in [
        ("short-restart", "short-restart", &[][..]),
        ("long-restart", "long-restart", &[][..]),
        (
            "releases-1.35-vs-main",
            "report-141155-started-by-name",
            &kubelets[..],
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_restartscope"))
            .args(["simulate", "--preset", preset, "--format", "svg"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        let path = format!("{}/../../docs/{name}.svg", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read(&path).unwrap();
        assert!(
            committed == out.stdout,
            "docs/{name}.svg is stale: regenerate it with the CLI"
        );
    }
}
