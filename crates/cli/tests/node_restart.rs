//! docs/node-restart/: the figures for kubernetes.io's "What Happens After A Node Restart" and
//! the probes page are what `scripts/node-restart.sh` writes with today's CLI. Regenerate with
//! `make node-restart` (or `make regen`).

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn committed_node_restart_figures_are_current() {
    let dir =
        std::env::temp_dir().join(format!("restartscope-node-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new("bash")
        .arg(repo().join("scripts/node-restart.sh"))
        .arg(&dir)
        .env("RESTARTSCOPE", env!("CARGO_BIN_EXE_restartscope"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scripts/node-restart.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = repo().join("docs/node-restart");
    let fresh = names(&dir);
    assert_eq!(
        names(&committed),
        fresh,
        "docs/node-restart/ holds other files than scripts/node-restart.sh writes"
    );
    for f in &fresh {
        let new = std::fs::read(dir.join(f)).unwrap();
        let old = std::fs::read(committed.join(f)).unwrap_or_default();
        assert!(
            new == old,
            "docs/node-restart/{f} is stale: regenerate with `make node-restart`"
        );
    }
    let readme = std::fs::read_to_string(committed.join("README.md")).unwrap();
    for p in ["kubelet-restart", "runtime-restart", "node-reboot"] {
        assert!(readme.contains(&format!("]({p}.svg)](https://")), "{p}");
    }
    // Three restarts and two probe diagrams, each a Mermaid sequence diagram.
    assert_eq!(readme.matches("```mermaid\nsequenceDiagram\n").count(), 5);
    // What each kind shows, in the words of its rules.
    assert!(readme.contains("container runtime is down"));
    assert!(readme.contains("Kubelet stops with the node (rule B1)"));
    let _ = std::fs::remove_dir_all(&dir);
}
