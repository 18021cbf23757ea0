//! A [`Scenario`] to and from JSON with serde_json, for everyone who reads or writes one as JSON:
//! the web page (a `scenario=` link, the importer worker's answer, the tour's steps), the CLI's
//! `--format json` and scenario files. Errors name the field's path
//! (`kubelet.restarts[0].downtimes: unknown field …`, serde_path_to_error) so the page can say
//! what is wrong where it is shown. serde_json costs the page about 23 KB of gzip over a
//! hand-written reader; its sizes are in `docs/PERFORMANCE.md`. Mirrors no Kubernetes file.

use super::types::Scenario;
use serde::de::DeserializeOwned;

/// `T` from JSON text; the error names the path of the field that is wrong, then serde_json's
/// message (with its line and column).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let v: T = serde_path_to_error::deserialize(&mut *de).map_err(path_error)?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

/// `T` from an already parsed JSON value, its path named as for [`from_str`].
pub fn from_value<T: DeserializeOwned>(v: serde_json::Value) -> Result<T, String> {
    serde_path_to_error::deserialize(v).map_err(path_error)
}

fn path_error(e: serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    if path == "." {
        e.into_inner().to_string()
    } else {
        format!("{path}: {}", e.into_inner())
    }
}

/// `s` as a JSON string.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

impl Scenario {
    /// A scenario from its JSON (what [`Scenario::to_json`] writes). Not validated: call
    /// [`Scenario::validate`].
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        from_str(text)
    }

    /// The scenario as JSON, compact or pretty-printed (fields in `types.rs`'s order).
    pub fn to_json(&self, pretty: bool) -> String {
        let out = if pretty {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        // A Scenario has string keys and finite numbers only once validated; a NaN is written
        // as null by serde_json, so this cannot fail.
        out.unwrap_or_default()
    }
}
