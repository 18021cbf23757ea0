//! Simulated time: integer milliseconds (`Ms`), and durations as people write them (`45s`,
//! `6m30s`). Used by the scenario (seconds), the engine (milliseconds), the CLI and the app.

pub use crate::trace::Ms;

/// Seconds (as in a scenario) to engine milliseconds.
/// `(s * 1000).round()` without the call to libm's `round` that a probe's start paid: for
/// `0 <= y < 2^52` the fraction `y - trunc(y)` is exact, so this rounds half away from zero as
/// `round` does (the test below compares them).
#[inline]
pub fn ms(s: f64) -> Ms {
    let y = s * 1000.0;
    if (0.0..4.0e15).contains(&y) {
        let whole = y as Ms;
        whole + Ms::from(y - whole as f64 >= 0.5)
    } else {
        y.round() as Ms
    }
}

/// Seconds as a short human duration: `45s`, `1m30s`, `1h`, `1.5s`.
pub fn fmt_secs(s: f64) -> String {
    use core::fmt::Write;
    let neg = s < 0.0;
    let s = s.abs();
    let whole = s.floor() as u64;
    let frac = s - whole as f64;
    let (h, m, sec) = (whole / 3600, (whole % 3600) / 60, whole % 60);
    let mut out = String::with_capacity(12);
    if neg {
        out.push('-');
    }
    if h > 0 {
        let _ = write!(out, "{h}h");
    }
    if m > 0 {
        let _ = write!(out, "{m}m");
    }
    if sec > 0 || frac > 1e-9 || out.is_empty() || out == "-" {
        if frac > 1e-9 {
            // The seconds rounded to milliseconds, as `{}` of `(v * 1000).round() / 1000`
            // prints them (the shortest digits of k/1000 are k's with the point moved and the
            // trailing zeros dropped, below 2^53), without the float formatter: tooltips
            // and labels write a time per mark on every slider move.
            let k = ((sec as f64 + frac) * 1000.0).round() as u64;
            let _ = write!(out, "{}", k / 1000);
            let mut f = k % 1000;
            if f > 0 {
                let mut digits = 3;
                while f.is_multiple_of(10) {
                    f /= 10;
                    digits -= 1;
                }
                let _ = write!(out, ".{f:0digits$}");
            }
            out.push('s');
        } else {
            let _ = write!(out, "{sec}s");
        }
    }
    out
}

/// `n` and its noun: "1 node", "3 nodes".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        group(&n.to_string()),
        if n == 1 { one } else { many }
    )
}

/// A number as the CLI's tables, the figures and every export write it: the digits of its whole
/// part grouped in threes with `,` ("59,721,000", "-1,234.5"); anything else is left as it is.
/// One fixed grouping, so an exported figure reads the same wherever it is opened (the page's
/// own panels use the reader's locale; JSON keeps raw numbers).
pub fn group(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix(['-', '+', '\u{2212}']) {
        Some(r) => (&s[..s.len() - r.len()], r),
        None => ("", s),
    };
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (int, tail) = rest.split_at(end);
    if int.len() <= 3 || !(tail.is_empty() || tail.starts_with('.') || tail.starts_with(' ')) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + int.len() / 3);
    out.push_str(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out.push_str(tail);
    out
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

/// Go's duration units (`time.ParseDuration`), largest first: name, rank (`us` and `µs` are one
/// unit), size in seconds as a multiplier (h, m, s) or a divisor (ms, us, ns).
const UNITS: [(&str, usize, f64, bool); 7] = [
    ("h", 0, 3600.0, true),
    ("m", 1, 60.0, true),
    ("s", 2, 1.0, true),
    ("ms", 3, 1e3, false),
    ("us", 4, 1e6, false),
    ("µs", 4, 1e6, false),
    ("ns", 5, 1e9, false),
];

/// Parses a duration into seconds: Go's syntax as Kubernetes flags and configs write it
/// (`500ms`, `45s`, `1m30s`, `1h`, `2h45m`, `1.5s`; units `h`, `m`, `s`, `ms`, `us`/`µs`, `ns`,
/// each at most once, largest first), or a plain number of seconds (`90`, `1.5`). The model's
/// clock counts whole milliseconds ([`ms`]): a finer value (`1.5ms`, `250us`) is refused, not
/// rounded.
pub fn parse_duration(input: &str) -> Result<f64, String> {
    let s = input.trim();
    let bad = || {
        format!(
            "invalid duration {input:?}: use Go's duration syntax, like 500ms, 45s, 6m30s, 1h, or a number of seconds"
        )
    };
    let whole_ms = |v: f64| -> Result<f64, String> {
        let x = v * 1000.0;
        if (x - x.round()).abs() > 1e-7 {
            return Err(format!(
                "invalid duration {input:?}: the model's clock counts whole milliseconds, so durations finer than 1ms (like 1.5ms or 250us) cannot be simulated"
            ));
        }
        Ok(v)
    };
    if s.is_empty() {
        return Err(bad());
    }
    if let Ok(v) = s.parse::<f64>() {
        return if v.is_finite() && v >= 0.0 {
            whole_ms(v)
        } else {
            Err(bad())
        };
    }
    let mut total = 0.0;
    let mut rest = s;
    let mut last_unit = None::<usize>;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n == 0 {
            return Err(bad());
        }
        let v: f64 = rest[..n].parse().map_err(|_| bad())?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..u];
        rest = &rest[u..];
        let Some(&(_, rank, size, mult)) = UNITS.iter().find(|u| u.0 == unit) else {
            return Err(bad());
        };
        // Largest unit first, each once.
        if last_unit.is_some_and(|l| rank <= l) {
            return Err(bad());
        }
        last_unit = Some(rank);
        total += if mult { v * size } else { v / size };
    }
    if !total.is_finite() {
        return Err(bad());
    }
    whole_ms(total)
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
    fn ms_rounds_as_f64_round_does() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut cases = vec![
            0.0, 0.0005, 0.0015, 0.0025, 0.4999999, 1.0005, 2.5e-4, 86_400.0,
        ];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push((x % 10_000_000) as f64 / 1e4);
            cases.push(f64::from_bits(x).abs().min(1e9));
        }
        for s in cases {
            if s.is_finite() {
                assert_eq!(ms(s), (s * 1000.0).round() as Ms, "{s:e}");
                assert_eq!(ms(-s), (-s * 1000.0).round() as Ms, "{s:e}");
            }
        }
    }

    /// The formula `fmt_secs` had: the float formatter's shortest digits of the value rounded
    /// to milliseconds.
    fn fmt_secs_by_formatter(s: f64) -> String {
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

    #[test]
    fn fmt_secs_writes_the_float_formatters_digits() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut cases = vec![
            0.0,
            -0.0,
            0.0005,
            0.0015,
            59.9996,
            59.9994,
            119.9996,
            3599.9999,
            1e-10,
            0.1,
            0.7,
            41.846,
            384.907,
            -1.5,
            86_400.25,
            1.000_000_001,
        ];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push((x % 100_000_000) as f64 / 1e3);
            cases.push((x % 10_000_000) as f64 / 1e4 - 500.0);
            cases.push((x % 1_000_000) as f64 / 7.0);
        }
        for s in cases {
            assert_eq!(fmt_secs(s), fmt_secs_by_formatter(s), "{s:?}");
        }
    }

    #[test]
    fn large_numbers_are_grouped_in_threes_and_the_rest_left_alone() {
        for (raw, want) in [
            ("0", "0"),
            ("999", "999"),
            ("1000", "1,000"),
            ("59721000", "59,721,000"),
            ("-1234.5", "-1,234.5"),
            ("\u{2212}12400", "\u{2212}12,400"),
            ("12400 (100 %)", "12,400 (100 %)"),
            ("1234s", "1234s"),
            ("no budget", "no budget"),
            ("", ""),
        ] {
            assert_eq!(group(raw), want, "{raw}");
        }
        assert_eq!(plural(12_400, "eviction", "evictions"), "12,400 evictions");
        assert_eq!(plural(1, "eviction", "evictions"), "1 eviction");
    }
    #[test]
    fn durations_round_trip() {
        for (s, v) in [
            ("45s", 45.0),
            ("6m30s", 390.0),
            ("1h", 3600.0),
            ("90", 90.0),
            ("1.5s", 1.5),
            ("1.5", 1.5),
            // Go's syntax, as Kubernetes flags and configs write durations.
            ("500ms", 0.5),
            ("1m30s", 90.0),
            ("2h45m", 9900.0),
            ("1m0s", 60.0),
            ("1s500ms", 1.5),
            ("2000us", 0.002),
            ("3000000ns", 0.003),
        ] {
            assert_eq!(parse_duration(s).unwrap(), v, "{s}");
        }
        for bad in [
            "", "-3s", "5x", "s", "1s1m", "1m1m", "abc", "5ms2s", "1us1µs", "10d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        // Finer than the model's millisecond clock: refused, not rounded.
        for fine in ["1.5ms", "250us", "1ns", "0.0005", "1.0001s"] {
            let e = parse_duration(fine).unwrap_err();
            assert!(e.contains("whole milliseconds"), "{fine}: {e}");
        }
        assert_eq!(fmt_secs(390.0), "6m30s");
        assert_eq!(fmt_secs(0.0), "0s");
        assert_eq!(fmt_secs(3600.0), "1h");
        assert_eq!(words_secs(90.0), "1 minute 30 seconds");
        assert_eq!(words_secs(1.0), "1 second");
    }
}
