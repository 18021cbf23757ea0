//! URL state: every setting, the playhead, speed, theme and view mode in the query string.
//! Parsing treats values as data: anything unknown or out of range is named in one notice and
//! falls back to its default.

use crate::custom::Imported;
use crate::form::{fmt_num, Field, Settings};
use crate::probes::{table_of, texts, ContainerProbes};
use restartscope_sim::{
    fmt_secs, parse_duration, parse_probe_key, presets, probe_key, KubeVersion, Probe, ProbeField,
    ProbeKind,
};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// A window of the presenter view (`?present=notes`, `?present=audience`): the two windows share
/// their state (`present.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The figure large, no controls: follows the presenter's playhead and settings.
    Audience,
    /// The controls, the speaker notes, the next step, a clock and the keys; owns the playback
    /// clock.
    Notes,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Audience => "audience",
            Role::Notes => "notes",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlState {
    pub settings: Settings,
    /// Playhead in ms; `None` = start at 0 and autoplay.
    pub t_ms: Option<i64>,
    /// Index into `state::SPEEDS`.
    pub speed: Option<usize>,
    pub theme: Option<Theme>,
    pub embed: bool,
    pub present: bool,
    /// A window of the presenter view (`present=audience` also sets `present`).
    pub role: Option<Role>,
    /// Lanes zoomed to the restart.
    pub zoom: bool,
    /// A guided tour and its step, counted from 1 (`?tour=kep-4781&step=2`).
    pub tour: Option<(String, usize)>,
}

/// Decodes `%XX` and `+` of one query component.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let h = std::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match h {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes a query component (unreserved characters kept).
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Shortens a user-supplied value for a message.
fn show(v: &str) -> String {
    let v: String = v.chars().take(40).collect();
    format!("{v:?}")
}

/// Parses a query string (with or without the leading `?`).
/// Returns the state and one message per ignored parameter.
pub fn parse(query: &str) -> (UrlState, Vec<String>) {
    parse_with(query, None)
}

/// [`parse`] on an imported base scenario (the link's `scenario=`, decoded by `imported.rs`).
pub fn parse_with(query: &str, custom: Option<Arc<Imported>>) -> (UrlState, Vec<String>) {
    let q = query.strip_prefix('?').unwrap_or(query);
    let pairs: Vec<(String, String)> = q
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(kv), String::new()),
        })
        .collect();
    let mut notes = Vec::new();
    let mut st = UrlState::default();
    // The preset (or the imported scenario) first: the other parameters override its values.
    if let Some(c) = custom {
        st.settings = Settings::for_custom(c);
    } else if let Some((_, v)) = pairs.iter().rev().find(|(k, _)| k == "preset") {
        if presets::find(v).is_some() {
            st.settings = Settings::for_preset(v);
        } else {
            notes.push(format!(
                "preset={} is not a scenario (one of {})",
                show(v),
                presets::names().join(", ")
            ));
        }
    }
    let within = |x: f64, f: Field| {
        let (lo, hi) = f.range();
        x.is_finite() && x >= lo && x <= hi
    };
    let secs = |v: &str, f: Field| parse_duration(v).ok().filter(|x| within(*x, f));
    let int = |v: &str, f: Field| {
        v.trim()
            .parse::<u64>()
            .ok()
            .filter(|x| within(*x as f64, f))
    };
    // A link copied from an imported workload too large to share (`imported=`): its scenario
    // settings belonged to that workload, so only the view is taken from it.
    let unshared = pairs.iter().any(|(k, _)| k == "imported");
    let view_keys = [
        "imported", "t", "speed", "theme", "embed", "present", "zoom", "tour", "step",
    ];
    for (k, v) in &pairs {
        if unshared && !view_keys.contains(&k.as_str()) {
            continue;
        }
        let s = &mut st.settings;
        let ok = match k.as_str() {
            "preset" | "scenario" | "label" => true,
            "imported" => {
                notes.push(
                    "This link was copied from an imported workload too large to share by link: it is not in the link, so the default scenario is shown. Open the workload's scenario TOML file (Import your workload → Export as scenario TOML) instead."
                        .into(),
                );
                true
            }
            "downtime" => secs(v, Field::Downtime).map(|x| s.downtime_s = x).is_some(),
            "at" => secs(v, Field::RestartAt)
                .map(|x| s.restart_at_s = x)
                .is_some(),
            "restarts" => crate::restarts::from_param(v)
                .map(|l| s.set_restarts(l))
                .is_some(),
            "version" => KubeVersion::parse(v.trim())
                .map(|k| {
                    s.version = k.as_str().into();
                    s.grace_s = fmt_num(k.default_grace_s());
                })
                .is_some(),
            "grace" => secs(v, Field::Grace)
                .map(|_| s.grace_s = v.trim().to_string())
                .is_some(),
            "toleration" => secs(v, Field::Toleration)
                .map(|_| s.toleration_s = v.trim().to_string())
                .is_some(),
            "sync" => secs(v, Field::FirstSync)
                .map(|_| s.first_sync_s = v.trim().to_string())
                .is_some(),
            "seed" => int(v, Field::Seed)
                .map(|x| s.seed = x.to_string())
                .is_some(),
            "pods" => int(v, Field::Pods)
                .map(|x| s.pods = x.to_string())
                .is_some(),
            "csp" => match v.trim() {
                "1" => {
                    s.csp = true;
                    true
                }
                "0" => {
                    s.csp = false;
                    true
                }
                _ => false,
            },
            // The links of earlier versions: a readiness field of every regular container.
            "period" | "failure" | "success" | "exec" => {
                let f = match k.as_str() {
                    "period" => ProbeField::Period,
                    "failure" => ProbeField::Failure,
                    "success" => ProbeField::Success,
                    _ => ProbeField::Exec,
                };
                probe_value(f, v)
                    .map(|x| {
                        for c in s.probes.iter_mut().filter(|c| !c.sidecar) {
                            if let Some(t) = &mut c.probes[ProbeKind::Readiness.index()] {
                                t[field_index(f)] = x.clone();
                            }
                        }
                    })
                    .is_some()
            }
            "t" => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..=86_400.0).contains(x))
                .map(|x| st.t_ms = Some((x * 1000.0).round() as i64))
                .is_some(),
            "speed" => v
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(|x| {
                    crate::state::SPEEDS
                        .iter()
                        .position(|s| (*s - x).abs() < 1e-9)
                })
                .map(|i| st.speed = Some(i))
                .is_some(),
            "theme" => match v.as_str() {
                "light" => {
                    st.theme = Some(Theme::Light);
                    true
                }
                "dark" => {
                    st.theme = Some(Theme::Dark);
                    true
                }
                _ => false,
            },
            "tour" | "step" => match crate::tour::from_link(&pairs) {
                Ok(t) => {
                    st.tour = t;
                    true
                }
                Err(why) => {
                    if k == "tour" {
                        notes.push(why);
                    }
                    continue;
                }
            },
            "present" if matches!(v.as_str(), "audience" | "notes") => {
                let audience = v == "audience";
                st.present = audience;
                st.role = Some(if audience {
                    Role::Audience
                } else {
                    Role::Notes
                });
                true
            }
            "embed" | "present" | "zoom" => match v.as_str() {
                "1" | "true" | "" => {
                    match k.as_str() {
                        "embed" => st.embed = true,
                        "present" => st.present = true,
                        _ => st.zoom = true,
                    }
                    true
                }
                "0" | "false" => true,
                _ => false,
            },
            _ => match probe_param(s, k, v) {
                Some(Ok(())) => true,
                Some(Err(why)) => {
                    notes.push(format!("{k}={} ignored: {why}", show(v)));
                    continue;
                }
                None => {
                    notes.push(format!("{} is not a RestartScope parameter", show(k)));
                    continue;
                }
            },
        };
        if !ok {
            notes.push(format!("{k}={} ignored: {}", show(v), accepted(k)));
        }
    }
    st.settings.probes = crate::probes::merge(std::mem::take(&mut st.settings.probes));
    (st, notes)
}

fn field_index(f: ProbeField) -> usize {
    ProbeField::ALL.iter().position(|x| *x == f).unwrap_or(0)
}

/// A probe field's value within the range validation accepts, as its text.
fn probe_value(f: ProbeField, v: &str) -> Option<String> {
    let (lo, hi) = f.range();
    f.parse(v).filter(|x| (lo..=hi).contains(x)).map(fmt_num)
}

/// `app.livenessProbe.periodSeconds=5`, `app.livenessProbe=on|off`: `None` when the key is not
/// a probe key, else whether it was taken (why not, in words). Unqualified, the key sets the
/// container of that name in every row (every workload's, as links made before the table had
/// rows per workload meant); `frontend/server.livenessProbe.periodSeconds=5` sets workload
/// `frontend`'s row (taken out of a row it shares, before it: [`parse_with`] merges the rows
/// the link left equal again), or the one row of `server` when the scenario is that one
/// workload.
fn probe_param(s: &mut Settings, k: &str, v: &str) -> Option<Result<(), String>> {
    let key = parse_probe_key(k)?;
    let (name, kind, field) = (key.container, key.kind, key.field);
    let only_workload = |s: &Settings| {
        s.base()
            .is_some_and(|b| key.workload.is_some_and(|w| b.workload_names() == [w]))
    };
    // Rows per workload or none: the scenario is looked at only for a qualified key on a table
    // without workloads.
    let whole = key.workload.is_some()
        && s.probes.iter().all(|c| c.workloads.is_empty())
        && only_workload(s);
    if let Some(w) = key.workload {
        if let Some(i) = s.probes.iter().position(|c| {
            c.name == name && c.workloads.len() > 1 && c.workloads.iter().any(|x| x == w)
        }) {
            let mut own = s.probes[i].clone();
            s.probes[i].workloads.retain(|x| x != w);
            own.workloads = vec![w.to_string()];
            s.probes.insert(i, own);
        }
    }
    let rows: Vec<usize> = (0..s.probes.len())
        .filter(|&i| {
            let c = &s.probes[i];
            c.name == name
                && match key.workload {
                    Some(w) if !c.workloads.is_empty() => c.workloads.iter().any(|x| x == w),
                    Some(_) => whole,
                    None => true,
                }
        })
        .collect();
    if rows.is_empty() {
        let names: Vec<String> = s.probes.iter().map(|c| c.label()).collect();
        let what = match key.workload {
            Some(w) => format!("{w}/{name}"),
            None => name.to_string(),
        };
        return Some(Err(format!(
            "scenario {} has no container {what:?} with probes (its containers: {})",
            s.preset,
            names.join(", ")
        )));
    }
    let mut out = Ok(());
    for i in rows {
        out = set_probe(&mut s.probes[i], kind, field, v);
        if out.is_err() {
            break;
        }
    }
    Some(out)
}

/// Sets one probe (`field: None`: `on|off`) or one of its fields of a row of the table.
fn set_probe(
    c: &mut ContainerProbes,
    kind: ProbeKind,
    field: Option<ProbeField>,
    v: &str,
) -> Result<(), String> {
    let slot = &mut c.probes[kind.index()];
    match (field, v.trim()) {
        (None, "off") => {
            *slot = None;
            Ok(())
        }
        (None, "on") => {
            slot.get_or_insert_with(|| texts(&Probe::default()));
            Ok(())
        }
        (None, _) => Err("on (add the probe, Kubernetes defaults) or off (remove it)".into()),
        (Some(f), v) => match probe_value(f, v) {
            Some(x) => {
                slot.get_or_insert_with(|| texts(&Probe::default()))[field_index(f)] = x;
                Ok(())
            }
            None => {
                let (lo, hi) = f.range();
                Err(format!(
                    "{} from {} to {}",
                    if f.is_int() {
                        "a whole number"
                    } else {
                        "seconds"
                    },
                    fmt_num(lo),
                    fmt_num(hi)
                ))
            }
        },
    }
}

/// The probe parameters of `s`: what differs from its preset's table (`off`, `on` and the
/// fields that differ, from the Kubernetes defaults for an added probe).
fn probe_params(s: &Settings) -> Vec<(String, String)> {
    let base = s
        .base()
        .map(|b| table_of(&b, s.custom.is_some()))
        .unwrap_or_default();
    let mut out = Vec::new();
    for c in &s.probes {
        for w in c.each() {
            let b = base
                .iter()
                .find(|b| b.name == c.name && b.covers(w.as_deref()));
            for kind in ProbeKind::ALL {
                let key = probe_key(w.as_deref(), &c.name, kind);
                let was = b.and_then(|b| b.probes[kind.index()].clone());
                let now = &c.probes[kind.index()];
                let from = match (&was, now) {
                    (Some(_), None) => {
                        out.push((key, "off".to_string()));
                        continue;
                    }
                    (None, None) => continue,
                    (None, Some(_)) => {
                        out.push((key.clone(), "on".to_string()));
                        texts(&Probe::default())
                    }
                    (Some(w), Some(_)) => w.clone(),
                };
                let Some(now) = now else { continue };
                for (fi, f) in ProbeField::ALL.into_iter().enumerate() {
                    if f.parse(&now[fi]) != f.parse(&from[fi]) {
                        out.push((format!("{key}.{}", f.k8s()), now[fi].trim().to_string()));
                    }
                }
            }
        }
    }
    out
}

/// What a parameter accepts, for the notice.
pub fn accepted(k: &str) -> String {
    let range = |f: Field, what: &str| {
        let (lo, hi) = f.range();
        format!("{what} from {} to {}", fmt_num(lo), fmt_num(hi))
    };
    let duration = |f: Field| {
        let (lo, hi) = f.range();
        format!(
            "a duration from {} to {}, like 45s or 1m30s",
            fmt_secs(lo),
            fmt_secs(hi)
        )
    };
    match k {
        "downtime" => duration(Field::Downtime),
        "at" => duration(Field::RestartAt),
        "restarts" => format!(
            "restarts as AT:DOWNTIME[:kubelet|runtime|node[:RELEASE]] separated by commas, like 30:20,2m:45s:runtime or 30:20:node:1.36 (at most {})",
            crate::restarts::MAX
        ),
        "version" => crate::form::versions_text(),
        "grace" | "toleration" | "sync" => {
            let f = match k {
                "grace" => Field::Grace,
                "toleration" => Field::Toleration,
                _ => Field::FirstSync,
            };
            format!("{}, or a duration like 5m or 1m30s", range(f, "seconds"))
        }
        "seed" => range(Field::Seed, "a whole number"),
        "csp" => "1 (add the ContainerScopedProbes proposal lane) or 0".into(),
        "pods" => format!(
            "{} (110 is the kubelet's default maxPods)",
            range(Field::Pods, "a whole number")
        ),
        "period" | "failure" | "success" | "exec" => {
            let f = match k {
                "period" => ProbeField::Period,
                "failure" => ProbeField::Failure,
                "success" => ProbeField::Success,
                _ => ProbeField::Exec,
            };
            let (lo, hi) = f.range();
            format!("{} from {} to {}", f.k8s(), fmt_num(lo), fmt_num(hi))
        }
        "t" => "seconds from 0".into(),
        "speed" => format!("one of {}", crate::state::SPEEDS.map(fmt_num).join(", ")),
        "theme" => "light or dark".into(),
        "present" => "1 (presentation view), notes (the presenter's window of the presenter view: controls and speaker notes), audience (its window for the projector: the figure alone) or 0".into(),
        "embed" | "zoom" => "1 or 0".into(),
        _ => String::new(),
    }
}

/// The query string for a state (always the full settings, so a link is self-contained).
pub fn to_query(st: &UrlState) -> String {
    let s = &st.settings;
    // An imported scenario travels packed, or not at all when too large (the page says so).
    let head = match &s.custom {
        // Too large for a link: the link says so (`imported=`), so whoever opens it is told,
        // instead of seeing a preset with these settings as if it were the workload.
        Some(c) => c.packed.as_ref().map_or_else(
            || vec![("imported", "too-large".to_string())],
            |p| vec![("scenario", p.clone()), ("label", c.label.clone())],
        ),
        None => vec![("preset", s.preset.clone())],
    };
    let mut parts: Vec<(String, String)> = head
        .into_iter()
        .chain(if !crate::restarts::needs_param(&s.restarts()) {
            vec![
                ("downtime", fmt_num(s.downtime_s)),
                ("at", fmt_num(s.restart_at_s)),
            ]
        } else {
            vec![("restarts", crate::restarts::to_param(&s.restarts()))]
        })
        .chain([
            ("version", s.version.clone()),
            ("grace", s.grace_s.clone()),
            ("toleration", s.toleration_s.clone()),
            ("sync", s.first_sync_s.clone()),
            ("seed", s.seed.clone()),
            ("pods", s.pods.trim().to_string()),
        ])
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    parts.extend(probe_params(s));
    if s.csp {
        parts.push(("csp".into(), "1".into()));
    }
    if let Some(t) = st.t_ms {
        parts.push(("t".into(), fmt_num(t as f64 / 1000.0)));
    }
    if let Some(v) = st.speed.and_then(|i| crate::state::SPEEDS.get(i)) {
        parts.push(("speed".into(), fmt_num(*v)));
    }
    if let Some(th) = st.theme {
        parts.push(("theme".into(), th.as_str().into()));
    }
    if st.embed {
        parts.push(("embed".into(), "1".into()));
    }
    if let Some(r) = st.role {
        parts.push(("present".into(), r.as_str().into()));
    } else if st.present {
        parts.push(("present".into(), "1".into()));
    }
    if st.zoom {
        parts.push(("zoom".into(), "1".into()));
    }
    if let Some((name, n)) = &st.tour {
        parts.push(("tour".into(), name.clone()));
        parts.push(("step".into(), n.to_string()));
    }
    parts
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
#[path = "url_tests.rs"]
mod tests;
