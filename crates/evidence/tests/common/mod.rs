//! The real pastes under `tests/data/pastes/` (the source on each file's first line, what
//! happened on its second), read as `restartscope replay` reads them.
#![allow(dead_code)]

use restartscope_evidence::explain::{answer, candidates, explain_for, Answer};
use restartscope_evidence::{read, Evidence};

/// The paste whose file name starts with `name` (`"26-"`).
pub fn paste(name: &str) -> String {
    let dir = format!("{}/tests/data/pastes", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|f| f.file_name().to_string_lossy().starts_with(name))
        .unwrap_or_else(|| panic!("{name} in {dir}"));
    let text = std::fs::read_to_string(file.path()).unwrap();
    assert!(text.starts_with("# source: https://github.com/"), "{name}");
    text
}

pub fn read_paste(name: &str) -> Evidence {
    read(&paste(name), 0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The answer `replay` gives the paste, without `--kubernetes-version`.
pub fn answered(name: &str) -> Answer {
    let ev = read_paste(name);
    let c = candidates(&ev.obs, None, None);
    let v = explain_for(&ev.obs, &c, None);
    answer(&ev.obs, v, None).0
}

/// Asserts one of the lines (an answer's reasons, a file's notes) contains `part`, printing them
/// all when none does.
pub fn assert_has(lines: &[String], part: &str) {
    assert!(
        lines.iter().any(|l| l.contains(part)),
        "{part:?} in none of {lines:#?}"
    );
}
