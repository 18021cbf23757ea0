//! Reading scenario and fleet files (TOML or JSON, with the parser's line and column) and
//! Kubernetes manifests (`--manifest`, through `restartscope-manifest`) for `simulate`, `fleet`
//! and `import`.

use super::UserError;
use restartscope_sim::Scenario;
use std::path::Path;

/// Reads a scenario file: TOML or JSON by extension, else whichever parses.
pub(crate) fn load_scenario(path: &str) -> Result<Scenario, UserError> {
    load(path)
}

/// Reads a TOML or JSON file into `T`, with the parser's line and column.
pub(crate) fn load<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, UserError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read scenario file {path}: {e}"))?;
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("json") => from_json(&text).map_err(|e| format!("invalid scenario file {path}: {e}").into()),
        Some("toml") => from_toml(&text).map_err(|e| format!("invalid scenario file {path}: {e}").into()),
        _ => match (from_json(&text), from_toml(&text)) {
            (Ok(s), _) | (_, Ok(s)) => Ok(s),
            (Err(j), Err(t)) => Err(format!(
                "invalid scenario file {path}: not valid JSON ({j}) nor TOML ({t}); name it .json or .toml for a precise message"
            )
            .into()),
        },
    }
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

fn from_toml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    toml::from_str(text).map_err(|e: toml::de::Error| {
        let msg = e.message().trim().replace('\n', " ");
        match e.span() {
            Some(span) if span.start > 0 || span.end < text.trim_end().len() => {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                format!("{msg} at line {line} column {col}")
            }
            _ => msg,
        }
    })
}
