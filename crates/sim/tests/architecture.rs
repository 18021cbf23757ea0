//! The shape of the code, so a reader can hold each file and follow each import: no Rust source file in the workspace over 600
//! lines, and no circular imports between the modules of a crate. An import is a `crate::`,
//! `super::` or `self::` path; it points at the longest module it names. Test modules at the end
//! of a file (after `#[cfg(test)]`) are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;

/// Files being split right now; removed from this list when done.
const PENDING: &[&str] = &[];

fn pending(f: &Path) -> bool {
    let s = f.to_string_lossy();
    PENDING.iter().any(|p| s.ends_with(p))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The `src` directories of the workspace's crates.
fn crate_srcs() -> Vec<PathBuf> {
    let root = workspace();
    let mut v = vec![root.join("src")];
    if let Ok(rd) = std::fs::read_dir(root.join("crates")) {
        for e in rd.flatten() {
            if e.path().join("src").is_dir() {
                v.push(e.path().join("src"));
            }
        }
    }
    v.sort();
    v
}

#[test]
fn no_source_file_over_600_lines() {
    let mut files = Vec::new();
    for src in crate_srcs() {
        rust_files(&src, &mut files);
    }
    for extra in ["tests", "benches", "examples"] {
        for src in crate_srcs() {
            rust_files(&src.parent().unwrap().join(extra), &mut files);
        }
    }
    let long: Vec<String> = files
        .iter()
        .filter(|f| !pending(f))
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).ok()?.lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them into modules):\n{}",
        long.join("\n")
    );
}

/// Module path of a file under `src`: `node/kubelet/mod.rs` → ["node", "kubelet"].
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

fn code_without_tests_and_comments(text: &str) -> String {
    let body = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path that starts with `crate`, `super` or `self`, with `{…}` groups expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if is_id(b[i]) && (i == 0 || !is_id(b[i - 1]) && b[i - 1] != b':') {
            let start = i;
            while i < b.len() && is_id(b[i]) {
                i += 1;
            }
            let word = &code[start..i];
            if matches!(word, "crate" | "super" | "self") && code[i..].starts_with("::") {
                expand(code, start, &mut out);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Expands the path starting at `at` (segments, then maybe a group) into `out`.
fn expand(code: &str, at: usize, out: &mut Vec<Vec<String>>) {
    let mut segs = Vec::new();
    let b = code.as_bytes();
    let mut i = at;
    loop {
        let s = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if s == i {
            break;
        }
        segs.push(code[s..i].to_string());
        if code[i..].starts_with("::{") {
            let open = i + 2;
            let mut depth = 0;
            let mut j = open;
            let mut item_start = open + 1;
            while j < b.len() {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' | b',' if depth == 1 => {
                        let item = code[item_start..j].trim();
                        if !item.is_empty() && !item.starts_with("self") {
                            let mut inner = Vec::new();
                            expand(item, 0, &mut inner);
                            for tail in inner {
                                let mut p = segs.clone();
                                p.extend(tail);
                                out.push(p);
                            }
                        } else {
                            out.push(segs.clone());
                        }
                        item_start = j + 1;
                        if b[j] == b'}' {
                            return;
                        }
                    }
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            return;
        }
        if code[i..].starts_with("::") {
            i += 2;
        } else {
            break;
        }
    }
    out.push(segs);
}

fn is_module(src: &Path, m: &[String]) -> bool {
    if m.is_empty() {
        return true;
    }
    let p = src.join(m.join("/"));
    p.with_extension("rs").is_file() || p.join("mod.rs").is_file()
}

/// The module an import points at.
fn resolve(src: &Path, from: &[String], path: &[String]) -> Vec<String> {
    let mut base: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => from.to_vec(),
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
        while rest.first().map(String::as_str) == Some("super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    for s in rest {
        let mut next = base.clone();
        next.push(s.clone());
        if is_module(src, &next) {
            base = next;
        } else {
            break;
        }
    }
    base
}

fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|x| x == m).unwrap();
                    let mut c = stack[i..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_circular_imports_between_modules() {
    let mut problems = Vec::new();
    for src in crate_srcs() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in files.iter().filter(|f| !pending(f)) {
            let from = module_of(&src, f);
            let name = format!("crate::{}", from.join("::"));
            let text = std::fs::read_to_string(f).unwrap();
            let code = code_without_tests_and_comments(&text);
            let entry = graph.entry(name.clone()).or_default();
            let mut all = paths(&code);
            // `use child::…` names a child module without `self::`.
            for line in code.lines() {
                let l = line.trim_start();
                let l = l
                    .strip_prefix("pub(crate) ")
                    .or_else(|| l.strip_prefix("pub "))
                    .unwrap_or(l);
                if let Some(rest) = l.strip_prefix("use ") {
                    let first: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let mut child = from.clone();
                    child.push(first.clone());
                    if !matches!(first.as_str(), "crate" | "super" | "self")
                        && is_module(&src, &child)
                    {
                        let mut inner = Vec::new();
                        expand(&format!("self::{rest}"), 0, &mut inner);
                        all.extend(inner);
                    }
                }
            }
            for p in all {
                let to = resolve(&src, &from, &p);
                let to_name = format!("crate::{}", to.join("::"));
                if to_name != name {
                    entry.insert(to_name);
                }
            }
        }
        if let Some(c) = cycle(&graph) {
            problems.push(format!("{}: {}", src.display(), c.join(" -> ")));
        }
    }
    assert!(
        problems.is_empty(),
        "circular imports between modules (a child module may import its parent, or the parent the child, not both; move shared types into a leaf module):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_finds_paths() {
    let code = "use crate::a::{b::C, d};\nuse super::super::{x, Y};\nfn f() { crate::z::w(); }";
    let p = paths(code);
    assert!(p.contains(&vec!["crate".into(), "a".into(), "b".into(), "C".into()]));
    assert!(p.contains(&vec!["crate".into(), "a".into(), "d".into()]));
    assert!(p.contains(&vec!["super".into(), "super".into(), "x".into()]));
    assert!(p.contains(&vec!["crate".into(), "z".into(), "w".into()]));
}
