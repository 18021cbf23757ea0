//! Simulated time: integer milliseconds (`Ms`), and durations as people write them (`45s`,
//! `6m30s`). Used by the scenario (seconds), the engine (milliseconds), the CLI and the app.

pub use crate::trace::Ms;

/// Seconds (as in a scenario) to engine milliseconds.
pub fn ms(s: f64) -> Ms {
    (s * 1000.0).round() as Ms
}

/// Seconds as a short human duration: `45s`, `1m30s`, `1h`, `1.5s`.
pub fn fmt_secs(s: f64) -> String {
    let neg = s < 0.0;
    let s = s.abs();
    let whole = s.floor() as u64;
    let frac = s - whole as f64;
    let (h, m, sec) = (whole / 3600, (whole % 3600) / 60, whole % 60);
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if sec > 0 || frac > 1e-9 || out.is_empty() || out == "-" {
        if frac > 1e-9 {
            let v = sec as f64 + frac;
            out.push_str(&format!("{}s", (v * 1000.0).round() / 1000.0));
        } else {
            out.push_str(&format!("{sec}s"));
        }
    }
    out
}

/// `n` and its noun: "1 node", "3 nodes".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Duration in words for screen readers: "1 minute 30 seconds".
pub fn words_secs(s: f64) -> String {
    let whole = s.max(0.0).round() as u64;
    let (h, m, sec) = (whole / 3600, (whole % 3600) / 60, whole % 60);
    let mut parts = Vec::new();
    let unit = |n: u64, u: &str| plural(n, u, &format!("{u}s"));
    if h > 0 {
        parts.push(unit(h, "hour"));
    }
    if m > 0 {
        parts.push(unit(m, "minute"));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(unit(sec, "second"));
    }
    parts.join(" ")
}

/// Parses `45s`, `6m30s`, `1h`, `1.5s`, `90` (seconds) into seconds.
pub fn parse_duration(input: &str) -> Result<f64, String> {
    let s = input.trim();
    let bad = || {
        format!(
            "invalid duration {input:?}: use a number of seconds or units h, m, s, like 45s, 6m30s, 1h"
        )
    };
    if s.is_empty() {
        return Err(bad());
    }
    if let Ok(v) = s.parse::<f64>() {
        return if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(bad())
        };
    }
    let mut total = 0.0;
    let mut num = String::new();
    let mut last_unit = 4;
    for ch in s.chars() {
        if ch.is_ascii_digit() || ch == '.' {
            num.push(ch);
            continue;
        }
        let (mult, rank) = match ch {
            'h' => (3600.0, 3),
            'm' => (60.0, 2),
            's' => (1.0, 1),
            _ => return Err(bad()),
        };
        if num.is_empty() || rank >= last_unit {
            return Err(bad());
        }
        let v: f64 = num.parse().map_err(|_| bad())?;
        total += v * mult;
        num.clear();
        last_unit = rank;
    }
    if !num.is_empty() || !total.is_finite() {
        return Err(bad());
    }
    Ok(total)
}

/// `30s:20s`, `5m:1m30s`, `30:20`: two durations, when something starts and how long it lasts
/// (a kubelet restart in the CLI's `--restart` and the web address's `restarts=`). Only the
/// syntax is checked here; ranges are the validation's.
pub fn parse_span(value: &str) -> Option<(f64, f64)> {
    let (at, len) = value.split_once(':')?;
    Some((
        parse_duration(at.trim()).ok()?,
        parse_duration(len.trim()).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn durations_round_trip() {
        for (s, v) in [
            ("45s", 45.0),
            ("6m30s", 390.0),
            ("1h", 3600.0),
            ("90", 90.0),
            ("1.5s", 1.5),
        ] {
            assert_eq!(parse_duration(s).unwrap(), v, "{s}");
        }
        for bad in ["", "-3s", "5x", "s", "1s1m", "1m1m", "abc"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(fmt_secs(390.0), "6m30s");
        assert_eq!(fmt_secs(0.0), "0s");
        assert_eq!(fmt_secs(3600.0), "1h");
        assert_eq!(words_secs(90.0), "1 minute 30 seconds");
        assert_eq!(words_secs(1.0), "1 second");
    }
}
