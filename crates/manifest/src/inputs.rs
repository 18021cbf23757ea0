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

/// The names kustomize looks for in a directory (`konfig.RecognizedKustomizationFileNames`).
const KUSTOMIZATION: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

fn is_kustomization(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| KUSTOMIZATION.contains(&n))
}

/// Every manifest file under `dir`, recursively, sorted by path; kustomizations are put in
/// `skipped`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, skipped: &mut Vec<PathBuf>) -> Result<(), String> {
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
            walk(&p, out, skipped)?;
        } else if is_kustomization(&p) {
            skipped.push(p);
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

/// What [`read_all`] read, and what it skipped, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub inputs: Vec<Input>,
    pub notes: Vec<String>,
}

/// Reads `paths` in order (`-` from `stdin`, at most once; directories expanded). The error is
/// one sentence naming the path.
pub fn read(paths: &[String], stdin: &mut dyn Read) -> Result<Vec<Input>, String> {
    read_all(paths, stdin).map(|r| r.inputs)
}

/// As [`read`], with a note for each file a directory holds that is not read: a kustomization
/// (`kustomization.yaml`), which says how kustomize changes the other files, not what runs.
pub fn read_all(paths: &[String], stdin: &mut dyn Read) -> Result<Inputs, String> {
    let mut notes = Vec::new();
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
            let (mut files, mut skipped) = (Vec::new(), Vec::new());
            walk(path, &mut files, &mut skipped)?;
            if files.is_empty() {
                return Err(match skipped.first() {
                    Some(k) => format!(
                        "manifest directory {p} holds a kustomization ({}) and no other .yaml, .yml or .json file: render it first (`kustomize build {p} | restartscope simulate -f -`, or `kubectl kustomize {p} | …`)",
                        k.display()
                    ),
                    None => format!("manifest directory {p} holds no .yaml, .yml or .json file"),
                });
            }
            for k in skipped {
                let dir = k
                    .parent()
                    .map_or(p.to_string(), |d| d.display().to_string());
                notes.push(format!(
                    "{} is a kustomization: skipped; the other files are read as they are, without the changes it makes (for what kustomize makes: `kustomize build {dir} | restartscope simulate -f -`)",
                    k.display()
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
    Ok(Inputs { inputs: out, notes })
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

/// The template engine whose syntax a text still holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Go templates with Helm's objects (`.Values`, `.Release`, `.Chart`, `.Capabilities`) or
    /// functions (`include`, `toYaml`, `tpl`, `define`).
    Helm,
    /// Go templates (`{{ .Field }}`, `{{ if … }}`) with nothing of Helm's.
    GoTemplate,
    /// Jinja (`{% … %}`, `{{ name }}`: Ansible, Salt, j2cli).
    Jinja,
    /// Carvel ytt (`#@ load(…)`, `#@ data.values.x` annotations, which YAML reads as comments).
    Ytt,
    /// An environment variable placeholder `${VAR}` (envsubst, Flux's postBuild substitution).
    Envsubst,
}

/// Where a text holds template syntax: its engine, 1-based line and the syntax itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateSyntax {
    pub engine: Engine,
    pub line: usize,
    pub syntax: String,
}

impl TemplateSyntax {
    /// `line 4 holds Helm template syntax `{{ .Release.Name }}`: …; render it first (…)`.
    pub fn message(&self) -> String {
        let (l, t) = (self.line, &self.syntax);
        match self.engine {
            Engine::Helm => format!(
                "line {l} holds Helm template syntax `{t}`: this is a chart's template, not a manifest; render it first (`helm template RELEASE CHART | restartscope simulate -f -`)"
            ),
            Engine::GoTemplate => format!(
                "line {l} holds Go template syntax `{t}`, with nothing of Helm's (.Values, .Release, .Chart, include): a template, not a manifest; render it first with the tool it is written for, then give its output (`… | restartscope simulate -f -`)"
            ),
            Engine::Jinja => format!(
                "line {l} holds Jinja template syntax `{t}` (as Ansible's and Salt's templates): a template, not a manifest; render it first (Ansible's template module, `jinja2 FILE VARS`), then give its output (`… | restartscope simulate -f -`)"
            ),
            Engine::Ytt => format!(
                "line {l} holds a ytt annotation `{t}`: this is a Carvel ytt template, not a manifest (YAML reads the annotations as comments, so its values would be wrong); render it first (`ytt -f DIR | restartscope simulate -f -`)"
            ),
            Engine::Envsubst => format!(
                "line {l} holds `{t}`, an environment variable placeholder: substitute it first (`envsubst < FILE | restartscope simulate -f -`)"
            ),
        }
    }
}

/// Helm's objects and functions: a Go template that uses one is a chart's.
const HELM_WORDS: &[&str] = &[
    ".Values",
    ".Release",
    ".Chart",
    ".Capabilities",
    ".Files",
    "include ",
    "toYaml",
    "tpl ",
    "define ",
    "required ",
];

/// `{{ … }}` or `{% … %}` where YAML would read it (outside quotes and comments), per line.
fn braces(line: &str, open: &str, close: &str) -> Option<String> {
    let at = line.find(open)?;
    if !line[at..].contains(close) {
        return None;
    }
    let before = &line[..at];
    if before.trim_start().starts_with('#') {
        return None;
    }
    if before.matches('"').count() % 2 == 1 || before.matches('\'').count() % 2 == 1 {
        return None;
    }
    let end = line[at..]
        .find(close)
        .map_or(line.len(), |e| at + e + close.len());
    Some(line[at..end].to_string())
}

/// A ytt annotation: a comment `#@ …` / `#@name` (on its own line or after a value).
fn ytt(line: &str) -> Option<String> {
    let t = line.trim_start();
    let at = if t.starts_with("#@") {
        line.len() - t.len()
    } else {
        line.find(" #@")? + 1
    };
    let rest = &line[at + 2..];
    if !rest.starts_with(|c: char| c == ' ' || c.is_ascii_alphabetic()) {
        return None;
    }
    Some(line[at..].trim_end().to_string())
}

/// The first line of `text` with template syntax, and whose: ytt annotations anywhere (they
/// parse as comments), else `{% … %}` or `{{ … }}` outside quotes and comments (Helm's when the
/// text uses Helm's objects anywhere; Go's when the action starts with `.`, `$` or a keyword;
/// else Jinja's).
pub fn template_syntax(text: &str) -> Option<TemplateSyntax> {
    let lines = || text.lines().enumerate().map(|(i, l)| (i + 1, l));
    if let Some((line, syntax)) = lines().find_map(|(i, l)| ytt(l).map(|s| (i, s))) {
        return Some(TemplateSyntax {
            engine: Engine::Ytt,
            line,
            syntax,
        });
    }
    let helm = HELM_WORDS.iter().any(|w| text.contains(w));
    for (i, l) in lines() {
        if let Some(s) = braces(l, "{%", "%}") {
            return Some(TemplateSyntax {
                engine: Engine::Jinja,
                line: i,
                syntax: s,
            });
        }
        if let Some(s) = braces(l, "{{", "}}") {
            let action = s
                .trim_start_matches("{{")
                .trim_start_matches('-')
                .trim_start();
            let go = action.starts_with(['.', '$', '/'])
                || [
                    "if ",
                    "range ",
                    "with ",
                    "end",
                    "else",
                    "template ",
                    "block ",
                ]
                .iter()
                .any(|k| action.starts_with(k));
            let engine = if helm {
                Engine::Helm
            } else if go {
                Engine::GoTemplate
            } else {
                Engine::Jinja
            };
            return Some(TemplateSyntax {
                engine,
                line: i,
                syntax: s,
            });
        }
    }
    None
}

/// `${NAME}` on 1-based `line` of `text`, outside a comment.
fn placeholder(text: &str, line: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let code = l.split(" #").next().unwrap_or(l);
    if code.trim_start().starts_with('#') {
        return None;
    }
    let at = code.find("${")?;
    let end = code[at..].find('}')? + at + 1;
    let name = &code[at + 2..end - 1];
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '-' | '=')))
    .then(|| code[at..end].to_string())
}

/// An import error of `text` (named `name`) that template syntax explains: a ytt template
/// always (it parses), other syntax at or before the error's line, an `${VAR}` placeholder on
/// the error's line. Other errors are returned as they are.
pub fn template_error(name: &str, text: &str, e: crate::ImportError) -> crate::ImportError {
    let t = template_syntax(text)
        .filter(|t| t.engine == Engine::Ytt || e.line.is_none_or(|l| l >= t.line))
        .or_else(|| {
            let line = e.line?;
            placeholder(text, line).map(|syntax| TemplateSyntax {
                engine: Engine::Envsubst,
                line,
                syntax,
            })
        });
    match t {
        Some(t) => crate::ImportError {
            kind: crate::ErrorKind::NotManifest,
            message: t.message(),
            source: name.to_string(),
            document: None,
            line: None,
            column: None,
            errors: Vec::new(),
        },
        None => e,
    }
}

/// A ytt template, which parses as YAML (its annotations are comments): refused before import.
pub fn ytt_template(text: &str) -> Option<TemplateSyntax> {
    template_syntax(text).filter(|t| t.engine == Engine::Ytt)
}
