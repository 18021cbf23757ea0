//! URL state: every setting, the playhead, speed, theme and view mode in the query string.
//! Parsing treats values as data: anything unknown or out of range is named in one notice and
//! falls back to its default.

use crate::form::{fmt_num, Field, Settings};
use restartscope_sim::{fmt_secs, parse_duration, presets, KubeVersion};

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
    /// Lanes zoomed to the restart.
    pub zoom: bool,
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
    // The preset first: the other parameters override its values.
    if let Some((_, v)) = pairs.iter().rev().find(|(k, _)| k == "preset") {
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
    let num = |v: &str, f: Field| v.trim().parse::<f64>().ok().filter(|x| within(*x, f));
    let int = |v: &str, f: Field| {
        v.trim()
            .parse::<u64>()
            .ok()
            .filter(|x| within(*x as f64, f))
    };
    for (k, v) in &pairs {
        let s = &mut st.settings;
        let ok = match k.as_str() {
            "preset" => true,
            "downtime" => secs(v, Field::Downtime).map(|x| s.downtime_s = x).is_some(),
            "at" => secs(v, Field::RestartAt)
                .map(|x| s.restart_at_s = x)
                .is_some(),
            "version" => KubeVersion::parse(v)
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
            "period" => int(v, Field::Period)
                .map(|x| s.period_s = x.to_string())
                .is_some(),
            "failure" => int(v, Field::FailureThreshold)
                .map(|x| s.failure_threshold = x.to_string())
                .is_some(),
            "success" => int(v, Field::SuccessThreshold)
                .map(|x| s.success_threshold = x.to_string())
                .is_some(),
            "exec" => num(v, Field::Exec).map(|x| s.exec_s = fmt_num(x)).is_some(),
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
            _ => {
                notes.push(format!("{} is not a RestartScope parameter", show(k)));
                continue;
            }
        };
        if !ok {
            notes.push(format!("{k}={} ignored: {}", show(v), accepted(k)));
        }
    }
    (st, notes)
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
        "period" => range(Field::Period, "whole seconds"),
        "failure" | "success" => range(Field::FailureThreshold, "a whole number"),
        "exec" => range(Field::Exec, "seconds"),
        "t" => "seconds from 0".into(),
        "speed" => format!("one of {}", crate::state::SPEEDS.map(fmt_num).join(", ")),
        "theme" => "light or dark".into(),
        "embed" | "present" | "zoom" => "1 or 0".into(),
        _ => String::new(),
    }
}

/// The query string for a state (always the full settings, so a link is self-contained).
pub fn to_query(st: &UrlState) -> String {
    let s = &st.settings;
    let mut parts: Vec<(&str, String)> = vec![
        ("preset", s.preset.clone()),
        ("downtime", fmt_num(s.downtime_s)),
        ("at", fmt_num(s.restart_at_s)),
        ("version", s.version.clone()),
        ("grace", s.grace_s.clone()),
        ("toleration", s.toleration_s.clone()),
        ("sync", s.first_sync_s.clone()),
        ("seed", s.seed.clone()),
        ("period", s.period_s.clone()),
        ("failure", s.failure_threshold.clone()),
        ("success", s.success_threshold.clone()),
        ("exec", s.exec_s.clone()),
    ];
    if let Some(t) = st.t_ms {
        parts.push(("t", fmt_num(t as f64 / 1000.0)));
    }
    if let Some(v) = st.speed.and_then(|i| crate::state::SPEEDS.get(i)) {
        parts.push(("speed", fmt_num(*v)));
    }
    if let Some(th) = st.theme {
        parts.push(("theme", th.as_str().into()));
    }
    if st.embed {
        parts.push(("embed", "1".into()));
    }
    if st.present {
        parts.push(("present", "1".into()));
    }
    if st.zoom {
        parts.push(("zoom", "1".into()));
    }
    parts
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut st = UrlState {
            t_ms: Some(61_500),
            speed: Some(2),
            theme: Some(Theme::Dark),
            embed: true,
            zoom: true,
            ..UrlState::default()
        };
        st.settings = Settings::for_preset("long-restart");
        st.settings.downtime_s = 95.0;
        st.settings.grace_s = "40".into();
        st.settings.seed = "7".into();
        let q = to_query(&st);
        let (back, notes) = parse(&format!("?{q}"));
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(back, st);
    }

    #[test]
    fn hostile_and_out_of_range_values_are_named_and_ignored() {
        let (st, notes) =
            parse("?preset=%3Cscript%3Ealert(1)%3C/script%3E&grace=9999&downtime=1h&bogus=1");
        assert_eq!(st.settings, Settings::default());
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(notes[0].contains("<script>alert(1)</script>"));
        assert!(notes
            .iter()
            .any(|n| n.starts_with("grace=\"9999\" ignored: seconds from 5 to 600")));
        assert!(notes
            .iter()
            .any(|n| n.starts_with("downtime=\"1h\" ignored")));
        assert!(notes
            .iter()
            .any(|n| n.contains("\"bogus\" is not a RestartScope parameter")));
    }

    #[test]
    fn every_release_is_a_link_parameter() {
        let (st, notes) = parse("?version=main");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(st.settings.version, "main");
        let (st, notes) = parse("?version=1.31");
        assert!(notes.is_empty());
        assert_eq!(
            (st.settings.version.as_str(), st.settings.grace_s.as_str()),
            ("1.31", "40")
        );
        let (_, notes) = parse("?version=2.0");
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("1.35.4, 1.36, 1.37 or main"), "{notes:?}");
    }

    #[test]
    fn durations_and_decoding() {
        let (st, notes) = parse("downtime=1m30s&at=45&t=12.5&speed=16&theme=light&present=1");
        assert!(notes.is_empty());
        assert_eq!(st.settings.downtime_s, 90.0);
        assert_eq!(st.settings.restart_at_s, 45.0);
        assert_eq!(st.t_ms, Some(12_500));
        assert_eq!(crate::state::SPEEDS[st.speed.unwrap()], 16.0);
        assert!(st.present && !st.embed);
        assert_eq!(decode("a%20b+c%2"), "a b c%2");
    }

    #[test]
    fn grace_toleration_and_sync_take_durations() {
        let (st, notes) = parse("grace=1m&toleration=5m&sync=2s");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(st.settings.grace_s, "1m");
        assert_eq!(st.settings.toleration_s, "5m");
        assert_eq!(st.settings.first_sync_s, "2s");
        let sc = st.settings.scenario().unwrap();
        assert_eq!(sc.cluster.grace_s(), 60.0);
        assert_eq!(sc.cluster.toleration_s, 300.0);
        assert_eq!(sc.kubelet.first_sync_delay_s, 2.0);
        let (back, _) = parse(&to_query(&st));
        assert_eq!(back.settings, st.settings);
        let (_, notes) = parse("grace=1m30s&toleration=1h");
        assert!(notes.is_empty(), "{notes:?}");
        let (_, notes) = parse("grace=1x");
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("or a duration like 5m"), "{notes:?}");
    }
}
