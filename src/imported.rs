//! An imported workload as the base scenario of the settings (instead of a preset), and its
//! place in a link: `scenario=` holds the base64url of the deflate-raw of the scenario's JSON
//! (the browser's CompressionStream: no compression code in the bundle), `label=` its name.
//! The import itself (YAML, the TOML file) is the importer's Web Worker (`import_panel.rs`,
//! `crates/import-web`); no Kubernetes logic here.

pub use crate::custom::{Imported, IMPORTED};
use crate::form::Settings;
use crate::url::{parse_with, UrlState};
use restartscope_sim::Scenario;
use std::sync::Arc;

/// The longest link that carries a scenario (characters of the whole query's `scenario=`).
pub const MAX_PACKED: usize = 7000;

impl Settings {
    /// The imported scenario's own values in every field.
    pub fn for_custom(c: Arc<Imported>) -> Settings {
        Settings::of_scenario(&c.scenario, IMPORTED, Some(c.clone()))
    }

    /// The scenario the fields change: the imported one, else the preset's.
    pub fn base(&self) -> Option<Scenario> {
        match &self.custom {
            Some(c) => Some(c.scenario.clone()),
            None => restartscope_sim::presets::find(&self.preset).map(|p| (p.build)()),
        }
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for ch in bytes.chunks(3) {
        let n = ch
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=ch.len() {
            out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// base64url (padding and the standard alphabet's `+/` accepted); `None` for anything else.
pub fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The scenario from a `scenario=` value's JSON, validated; `Err` names what is wrong.
pub fn from_json(json: &[u8], label: Option<&str>) -> Result<Imported, String> {
    let json = std::str::from_utf8(json).map_err(|_| "not UTF-8 text".to_string())?;
    let sc = Scenario::from_json(json).map_err(|e| format!("not a scenario ({e})"))?;
    checked(sc, label)
}

/// A scenario the model validates (with a kubelet restart), labelled.
pub fn checked(sc: Scenario, label: Option<&str>) -> Result<Imported, String> {
    if sc.kubelet.restarts.is_empty() {
        return Err("not a scenario with a kubelet restart".into());
    }
    if let Err(errs) = sc.validate() {
        return Err(format!(
            "not a valid scenario ({})",
            errs.first().map(|e| e.message.as_str()).unwrap_or("")
        ));
    }
    let label = label
        .filter(|l| !l.trim().is_empty())
        .map(short_label)
        .unwrap_or_else(|| format!("{} ({} pods)", sc.name, sc.pods.len()));
    Ok(Imported {
        label,
        scenario: sc,
        packed: None,
        observed: Vec::new(),
        observed_note: None,
    })
}

/// A label of at most 120 characters: a longer list of workloads ends on a whole one, with how
/// many more there are (`Deployment a (2 pods), Pod b (1 pod) and 98 more`).
fn short_label(l: &str) -> String {
    if l.chars().count() <= 120 {
        return l.to_string();
    }
    let parts: Vec<&str> = l.split(", ").collect();
    let mut out = String::new();
    let mut kept = 0;
    for p in &parts {
        let more = format!(" and {} more", parts.len() - kept - 1);
        let sep = if kept == 0 { "" } else { ", " };
        if out.chars().count() + sep.len() + p.chars().count() + more.len() > 120 {
            break;
        }
        out.push_str(sep);
        out.push_str(p);
        kept += 1;
    }
    if kept == 0 {
        let head: String = l.chars().take(119).collect();
        return format!("{head}…");
    }
    format!("{out} and {} more", parts.len() - kept)
}

/// The `scenario=` and `label=` values of a query string, if it has a scenario.
pub fn link_params(query: &str) -> Option<(String, Option<String>)> {
    let q = query.strip_prefix('?').unwrap_or(query);
    let get = |key: &str| {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| crate::url::decode(v))
            .next_back()
    };
    get("scenario").map(|s| (s, get("label")))
}

thread_local! {
    /// The link's scenario, decoded before the app mounts ([`preload`]).
    static PRELOADED: std::cell::RefCell<Option<Result<Arc<Imported>, String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decodes the link's `scenario=` (asynchronously: the browser's DecompressionStream), then
/// calls `mount`; without one, mounts at once.
pub fn preload(query: &str, mount: impl FnOnce() + 'static) {
    let Some((packed, label)) = link_params(query) else {
        mount();
        return;
    };
    // Before the mount there is no Leptos executor yet: wasm-bindgen's own.
    wasm_bindgen_futures::spawn_local(async move {
        let got = match b64_decode(&packed) {
            None => Err("it is not base64url".to_string()),
            Some(z) => match crate::pack::inflate(&z, 4 << 20).await {
                Err(_) => Err("it is not deflate-raw data".to_string()),
                Ok(json) => from_json(&json, label.as_deref()),
            },
        };
        let got = got
            .map(|mut im| {
                im.packed = Some(packed.clone());
                Arc::new(im)
            })
            .map_err(|why| {
                let v: String = packed.chars().take(24).collect();
                format!("scenario={v:?}… ignored: {why}; the defaults are used")
            });
        PRELOADED.with(|p| *p.borrow_mut() = Some(got));
        mount();
    });
}

/// The state a link describes, on the scenario [`preload`] decoded: a bad `scenario=` gives the
/// defaults and one notice, never a half-applied scenario.
pub fn initial(query: &str) -> (UrlState, Vec<String>) {
    match PRELOADED.with(|p| p.borrow_mut().take()) {
        Some(Ok(c)) => parse_with(query, Some(c)),
        Some(Err(note)) => {
            let (st, _) = parse_with(query, None);
            let st = UrlState {
                settings: Settings::default(),
                ..st
            };
            (st, vec![note])
        }
        None => parse_with(query, None),
    }
}

/// The state of an address reached by Back or Forward: the current imported scenario stays
/// when the address still holds it.
pub fn reparse(query: &str, current: Option<Arc<Imported>>) -> UrlState {
    let keep = current.filter(|c| {
        link_params(query).is_some_and(|(p, _)| c.packed.as_deref() == Some(p.as_str()))
    });
    parse_with(query, keep).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_and_rejects_garbage() {
        for n in 0..40 {
            let v: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            let s = b64_encode(&v);
            assert!(!s.contains(['+', '/', '=']));
            assert_eq!(b64_decode(&s).unwrap(), v, "{n}");
        }
        assert_eq!(b64_decode("a b"), None);
        assert!(from_json(b"{\"x\":1}", None).is_err());
        assert!(from_json(b"not json", None).is_err());
    }

    #[test]
    fn an_imported_base_keeps_every_knob() {
        let sc = (restartscope_sim::presets::PRESETS[0].build)();
        let json = serde_json::to_vec(&sc).unwrap();
        let im = from_json(&json, Some("Deployment web (3 pods)")).unwrap();
        let mut s = Settings::for_custom(Arc::new(im));
        assert_eq!(s.scenario().unwrap().pods, sc.pods);
        s.downtime_s = 90.0;
        let run = s.scenario().unwrap();
        assert_eq!(run.kubelet.restarts[0].downtime_s, 90.0);
        // The link holds the packed scenario (not the preset) and reads back onto the same base.
        let c = s.custom.clone().map(|c| {
            Arc::new(Imported {
                packed: Some("abc".into()),
                ..(*c).clone()
            })
        });
        s.custom = c.clone();
        let q = crate::url::to_query(&UrlState {
            settings: s.clone(),
            ..UrlState::default()
        });
        assert!(q.starts_with("scenario=abc&label=Deployment%20web"), "{q}");
        assert!(!q.contains("preset="));
        assert_eq!(reparse(&q, c).settings, s);
        assert_eq!(reparse(&q, None).settings.custom, None);
        assert_eq!(
            link_params("?a=1&scenario=abc&label=Deployment%20web"),
            Some(("abc".into(), Some("Deployment web".into())))
        );
    }
}
