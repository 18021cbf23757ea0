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

/// docs/replay.md's figure (kubernetes#113646's transcript beside the model) is what the CLI
/// draws today. Regenerate with
/// `cargo run -p restartscope-cli -- replay --evidence crates/evidence/tests/data/113646-watch.txt
/// -o svg --out docs/replay-113646.svg`.
#[test]
fn committed_replay_figure_is_current() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_restartscope"))
        .args([
            "replay",
            "--evidence",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../evidence/tests/data/113646-watch.txt"
            ),
            "-o",
            "svg",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/replay-113646.svg");
    let committed = std::fs::read(path).unwrap();
    assert!(
        committed == out.stdout,
        "docs/replay-113646.svg is stale: regenerate it with the CLI"
    );
}

/// Every line of a ```sh block in docs/CLI.md that starts with `restartscope` runs and exits 0,
/// in order, in a directory holding the files the examples name (`web.yaml`, `manifests/`, the
/// cluster's settings files, `replay`'s evidence files, `docs/`), with the built binary first on
/// the PATH.
#[test]
fn cli_doc_examples_run() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/CLI.md")).unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../manifest/tests/data");
    let dir = std::env::temp_dir().join(format!("restartscope-doc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_restartscope"), bin.join("restartscope"))
        .unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::create_dir_all(dir.join("manifests/apps")).unwrap();
    let copy = |from: &str, to: &str| {
        std::fs::copy(format!("{data}/{from}"), dir.join(to)).unwrap();
    };
    copy("deployment-sidecar.yaml", "web.yaml");
    copy("multi.yaml", "app.yaml");
    copy("daemonset.yaml", "ds.yaml");
    copy("multi.yaml", "manifests/apps/api.yaml");
    copy("daemonset.yaml", "manifests/ds.yml");
    copy("real/kubeadm-config-v1beta2.yaml", "kubeadm-config.yaml");
    // `replay`'s examples: three of the evidence crate's fixtures.
    for f in [
        "113646-watch.txt",
        "136910-pod-node.yaml",
        "136910-describe.txt",
    ] {
        std::fs::copy(
            format!("{}/../evidence/tests/data/{f}", env!("CARGO_MANIFEST_DIR")),
            dir.join(f),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("kubelet-config.yaml"),
        "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: 40\nnodeStatusUpdateFrequency: 10s\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("kube-controller-manager.yaml"),
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-controller-manager\n  namespace: kube-system\nspec:\n  containers:\n  - name: kube-controller-manager\n    command: [kube-controller-manager, --node-monitor-grace-period=40s, --node-monitor-period=5s]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("kcm.flags"),
        "--node-monitor-grace-period=50s --node-monitor-period=5s\n",
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let has_jq = std::process::Command::new("sh")
        .args(["-c", "command -v jq"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mut ran = 0;
    let mut in_sh = false;
    for line in doc.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            continue;
        }
        if !in_sh || !t.starts_with("restartscope ") {
            continue;
        }
        if t.contains("| jq") && !has_jq {
            eprintln!("skipped (no jq): {t}");
            continue;
        }
        let out = std::process::Command::new("sh")
            .args(["-c", t])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "docs/CLI.md example failed: {t}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 15, "only {ran} examples found");
    let _ = std::fs::remove_dir_all(&dir);
}

/// docs/replay.md's "Two real pastes" shows, under each `restartscope replay` command, the first
/// lines of what the CLI prints for it (run from the repository's root): the shown text is the real output.
#[test]
fn replay_page_shows_what_the_cli_prints() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let page = std::fs::read_to_string(format!("{root}/docs/replay.md")).unwrap();
    // The section of the two real pastes (the page's other examples are abridged).
    let doc = &page[page
        .find("## Two real pastes, as the CLI answers them")
        .expect("the section of the two real pastes")..];
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut lang = String::new();
    let mut body = String::new();
    let mut inside = false;
    for line in doc.lines() {
        if let Some(l) = line.strip_prefix("```") {
            if inside {
                blocks.push((lang.clone(), std::mem::take(&mut body)));
            } else {
                lang = l.to_string();
            }
            inside = !inside;
            continue;
        }
        if inside {
            body.push_str(line);
            body.push('\n');
        }
    }
    let mut checked = 0;
    for w in blocks.windows(2) {
        let (("sh", cmd), ("text", shown)) = (
            (w[0].0.as_str(), w[0].1.trim()),
            (w[1].0.as_str(), w[1].1.as_str()),
        ) else {
            continue;
        };
        let args: Vec<&str> = cmd
            .strip_prefix("restartscope ")
            .expect("a restartscope command")
            .split_whitespace()
            .collect();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_restartscope"))
            .args(&args)
            .current_dir(root)
            .output()
            .unwrap();
        assert!(out.status.success(), "{cmd}");
        let out = String::from_utf8(out.stdout).unwrap();
        let n = shown.lines().count();
        let head: Vec<&str> = out.lines().take(n).collect();
        assert_eq!(
            head.join("\n"),
            shown.trim_end_matches('\n'),
            "docs/replay.md's output of `{cmd}` is not what it prints"
        );
        checked += 1;
    }
    assert_eq!(
        checked, 2,
        "the page shows a describe paste and a no-bug answer"
    );
    assert!(doc.contains("Answer: kubernetes#136910 explains this"));
    assert!(doc.contains("Answer: No known bug explains this."));
}
