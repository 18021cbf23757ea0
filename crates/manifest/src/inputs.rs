//! What a command line names as manifests (`-f/--manifest`), read into [`crate::Source`] texts:
//! `-` is standard input, a directory is every `.yaml`, `.yml` and `.json` file under it
//! (recursively, in sorted path order, as `kubectl apply -f DIR -R` reads it), anything else
//! one file. Each text may hold several documents (`---`) or a `kind: List`: the importer reads
//! those. Used by the CLI; the web app has its own text box and files.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The name standard input has in messages.
pub const STDIN_NAME: &str = "standard input";

/// One input read: its name in messages (the path, or [`STDIN_NAME`]) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub name: String,
    pub text: String,
}

fn is_manifest(p: &Path) -> bool {
    matches!(
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("yaml" | "yml" | "json")
    )
}

/// Every manifest file under `dir`, recursively, sorted by path.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read manifest directory {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = Vec::new();
    for e in entries {
        let e = e.map_err(|e| format!("cannot read manifest directory {}: {e}", dir.display()))?;
        paths.push(e.path());
    }
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, out)?;
        } else if is_manifest(&p) {
            out.push(p);
        }
    }
    Ok(())
}

fn text(name: &str, bytes: Vec<u8>) -> Result<Input, String> {
    let text = String::from_utf8(bytes)
        .map_err(|e| format!("invalid manifest file {name}: not UTF-8 text ({e})"))?;
    Ok(Input {
        name: name.to_string(),
        text,
    })
}

/// Reads `paths` in order (`-` from `stdin`, at most once; directories expanded). The error is
/// one sentence naming the path.
pub fn read(paths: &[String], stdin: &mut dyn Read) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for p in paths {
        if p == "-" {
            if stdin_read {
                return Err("-f - (standard input) given twice: it can be read once".into());
            }
            stdin_read = true;
            let mut bytes = Vec::new();
            stdin
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read manifests from standard input: {e}"))?;
            out.push(text(STDIN_NAME, bytes)?);
            continue;
        }
        let path = Path::new(p);
        if path.is_dir() {
            let mut files = Vec::new();
            walk(path, &mut files)?;
            if files.is_empty() {
                return Err(format!(
                    "manifest directory {p} holds no .yaml, .yml or .json file"
                ));
            }
            for f in files {
                let name = f.display().to_string();
                let bytes = std::fs::read(&f)
                    .map_err(|e| format!("cannot read manifest file {name}: {e}"))?;
                out.push(text(&name, bytes)?);
            }
            continue;
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read manifest file {p}: {e}"))?;
        out.push(text(p, bytes)?);
    }
    Ok(out)
}

/// The first line of `text` that holds Helm (Go template) syntax where YAML would read it —
/// `{{ … }}` outside quotes, as in `replicas: {{ .Values.replicas }}` or a line
/// `{{- if .Values.enabled }}` — with its 1-based number. Rendered charts keep `{{` only inside
/// strings (alert templates, for one), which are not reported.
pub fn helm_template_line(text: &str) -> Option<(usize, String)> {
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find("{{") else { continue };
        if !line[at..].contains("}}") {
            continue;
        }
        let before = &line[..at];
        let trimmed = before.trim_start();
        if trimmed.starts_with('#') {
            continue;
        }
        // Inside a quoted scalar: an odd number of quotes before it.
        let quoted = before.matches('"').count() % 2 == 1 || before.matches('\'').count() % 2 == 1;
        if quoted {
            continue;
        }
        let end = line[at..].find("}}").map_or(line.len(), |e| at + e + 2);
        return Some((i + 1, line[at..end].to_string()));
    }
    None
}
