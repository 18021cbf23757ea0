//! docs/kep-4781/: the drop-ins for KEP-4781's three sequence diagrams are what
//! `scripts/kep-4781.sh` writes with today's CLI (as `tour.rs` holds docs/tour/ to
//! `restartscope tour`). Regenerate with `make kep-4781` (or `scripts/kep-4781.sh`).

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
fn committed_kep_4781_drop_ins_are_current() {
    let dir = std::env::temp_dir().join(format!("restartscope-kep-4781-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new("bash")
        .arg(repo().join("scripts/kep-4781.sh"))
        .arg(&dir)
        .env("RESTARTSCOPE", env!("CARGO_BIN_EXE_restartscope"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scripts/kep-4781.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = names(&dir);
    let mut want = vec!["README.md".to_string()];
    for p in ["before-changes", "scenario-1", "scenario-2"] {
        want.push(format!("{p}.md"));
        want.push(format!("{p}.svg"));
    }
    want.sort();
    assert_eq!(fresh, want);
    let committed = repo().join("docs/kep-4781");
    assert_eq!(
        names(&committed),
        want,
        "docs/kep-4781/ holds other files than scripts/kep-4781.sh writes"
    );
    for f in &fresh {
        let new = std::fs::read(dir.join(f)).unwrap();
        let old = std::fs::read(committed.join(f)).unwrap_or_default();
        assert!(
            new == old,
            "docs/kep-4781/{f} is stale: regenerate with `make kep-4781`"
        );
    }
    // The README carries each picture's markdown, its Mermaid block and its command.
    let readme = std::fs::read_to_string(committed.join("README.md")).unwrap();
    for p in ["before-changes", "scenario-1", "scenario-2"] {
        assert!(readme.contains(&format!("## {p}.png: ")), "{p}");
        assert!(readme.contains(&format!("]({p}.svg)](https://")), "{p}");
        assert!(
            readme.contains(&format!(
                "--format svg --animate --out docs/kep-4781/{p}.svg\n"
            )),
            "{p}"
        );
    }
    assert_eq!(readme.matches("```mermaid\nsequenceDiagram\n").count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}
