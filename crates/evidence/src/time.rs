//! Clocks as the sources write them: RFC 3339 timestamps (audit, events), klog's `MMDD
//! HH:MM:SS.ffffff` and journald's `Mon DD HH:MM:SS` (no year: milliseconds since 1 January of
//! a non-leap year), and kubectl's AGE (`3m48s`, `4m`, `2d3h`: kubectl's `HumanDuration`).

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const DAYS_BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

fn num(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 12 {
        return None;
    }
    s.parse().ok()
}

/// `HH:MM:SS` with optional `.fraction` → milliseconds in the day.
fn clock(s: &str) -> Option<i64> {
    let (hms, frac) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let mut p = hms.split(':');
    let (h, m, sec) = (num(p.next()?)?, num(p.next()?)?, num(p.next()?)?);
    if p.next().is_some() || h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let ms = match frac {
        Some(f) => {
            let digits: String = f.chars().take(3).collect();
            if !f.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
                return None;
            }
            num(&format!("{digits:0<3}"))?
        }
        None => 0,
    };
    Some(((h * 60 + m) * 60 + sec) * 1000 + ms)
}

fn day_of_year(month: i64, day: i64) -> Option<i64> {
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some(DAYS_BEFORE[(month - 1) as usize] + day - 1)
}

/// klog's header time: `1201 10:00:00.123456` (month, day, clock) → ms since 1 January.
pub fn klog(mmdd: &str, hms: &str) -> Option<i64> {
    // Four ASCII digits (a multi-byte character in their place would split a char).
    if mmdd.len() != 4 || !mmdd.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (m, d) = (num(&mmdd[..2])?, num(&mmdd[2..])?);
    Some(day_of_year(m, d)? * 86_400_000 + clock(hms)?)
}

/// Month abbreviations as journald prints them under other locales (`LC_TIME`): German, French,
/// Spanish, Italian, Polish, Portuguese, Dutch; CJK locales print `12月`.
const LOCAL_MONTHS: [[&str; 12]; 7] = [
    [
        "Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez",
    ],
    [
        "janv.", "févr.", "mars", "avril", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
        "déc.",
    ],
    [
        "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic",
    ],
    [
        "gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic",
    ],
    [
        "sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru",
    ],
    [
        "jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez",
    ],
    [
        "jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec",
    ],
];

/// A month abbreviation in English or another locale (`Dez`, `déc`, `dic`, `gru`, `12月`): 1–12.
pub fn month(mon: &str) -> Option<i64> {
    if let Some(i) = MONTHS.iter().position(|x| *x == mon) {
        return Some(i as i64 + 1);
    }
    if let Some(n) = mon.strip_suffix('月') {
        return num(n).filter(|m| (1..=12).contains(m));
    }
    let lower = mon.to_lowercase();
    let bare = lower.trim_end_matches('.');
    LOCAL_MONTHS.iter().find_map(|l| {
        l.iter()
            .position(|x| {
                let x = x.to_lowercase();
                x == lower || x.trim_end_matches('.') == bare
            })
            .map(|i| i as i64 + 1)
    })
}

/// journald's `Mar 08 19:24:47` (optionally `.123456`; the month in any locale `month` knows)
/// → ms since 1 January.
pub fn journal(mon: &str, day: &str, hms: &str) -> Option<i64> {
    let m = month(mon)?;
    Some(day_of_year(m, num(day)?)? * 86_400_000 + clock(hms)?)
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// RFC 3339 (`2021-05-24T09:29:44.384315Z`, `…+02:00`, `…+0200`) → ms since the Unix epoch.
pub fn rfc3339(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.len() < 20 || !s.is_char_boundary(10) || !s.is_char_boundary(11) {
        return None;
    }
    let (date, rest) = (&s[..10], &s[11..]);
    if !matches!(s.as_bytes()[10], b'T' | b't' | b' ') {
        return None;
    }
    let mut p = date.split('-');
    let (y, m, d) = (num(p.next()?)?, num(p.next()?)?, num(p.next()?)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let (time, offset_min) = if let Some(t) = rest.strip_suffix(['Z', 'z']) {
        (t, 0)
    } else {
        let i = rest.rfind(['+', '-'])?;
        let (t, off) = (&rest[..i], &rest[i..]);
        let sign = if off.starts_with('-') { -1 } else { 1 };
        // `+02:00`, or `+0200` as `journalctl -o short-iso` of systemd before 248 prints it.
        let o = &off[1..];
        let (oh, om) = o
            .split_once(':')
            .or_else(|| (o.len() == 4).then(|| o.split_at(2)))?;
        (t, sign * (num(oh)? * 60 + num(om)?))
    };
    let ms = clock(time)?;
    Some(days_from_civil(y, m, d) * 86_400_000 + ms - offset_min * 60_000)
}

/// `kubectl describe`'s times, RFC 1123 with a numeric zone: `Tue, 29 Apr 2025 13:43:32 +0800`
/// → ms since the Unix epoch.
pub fn rfc1123z(s: &str) -> Option<i64> {
    let t: Vec<&str> = s.split_whitespace().collect();
    let [_, d, mon, y, hms, zone] = t.as_slice() else {
        return None;
    };
    let m = MONTHS.iter().position(|x| x == mon)? as i64 + 1;
    let (d, y) = (num(d)?, num(y)?);
    if !(1..=31).contains(&d) {
        return None;
    }
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let z = num(zone.get(1..)?)?;
    let off = sign * ((z / 100) * 60 + z % 100);
    Some(days_from_civil(y, m, d) * 86_400_000 + clock(hms)? - off * 60_000)
}

/// The civil year of milliseconds since the Unix epoch.
pub(crate) fn year_of(ms: i64) -> i64 {
    let days = ms.div_euclid(86_400_000);
    let mut y = 1970 + days.div_euclid(366);
    while days_from_civil(y + 1, 1, 1) <= days {
        y += 1;
    }
    y
}

/// Milliseconds since 1 January of a non-leap year (klog, journald) put on `year`: since the
/// Unix epoch (a day later from 1 March in a leap year).
pub(crate) fn in_year(ms: i64, year: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let leap_day = if leap && ms >= 59 * 86_400_000 {
        86_400_000
    } else {
        0
    };
    days_from_civil(year, 1, 1) * 86_400_000 + ms + leap_day
}

/// The time of day of milliseconds since the epoch (or the year), UTC: `10:19:52` (for notes).
pub fn clock_text(ms: i64) -> String {
    let r = ms.rem_euclid(86_400_000) / 1000;
    format!("{:02}:{:02}:{:02}", r / 3600, r / 60 % 60, r % 60)
}

/// A duration as kubectl writes an age, to the second: `3m9s`, `2h0m5s`, `45s`.
pub fn duration_text(ms: i64) -> String {
    let s = ms / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, x) => format!("{x}s"),
        (0, m, x) => format!("{m}m{x}s"),
        (h, m, x) => format!("{h}h{m}m{x}s"),
    }
}

/// kubectl's AGE column (`HumanDuration`): `45s`, `3m48s`, `4m`, `5h2m`, `2d3h`, `3y`; ms.
pub fn age(s: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut n = String::new();
    let mut any = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            n.push(c);
            continue;
        }
        let unit = match c {
            's' => 1_000,
            'm' => 60_000,
            'h' => 3_600_000,
            'd' => 86_400_000,
            'y' => 365 * 86_400_000,
            _ => return None,
        };
        total = total.checked_add(num(&n)?.checked_mul(unit)?)?;
        n.clear();
        any = true;
    }
    (any && n.is_empty()).then_some(total)
}

/// The resolution of an AGE value: kubectl prints seconds below 10 minutes (`4m1s`), whole
/// minutes below 3 hours, and coarser after.
pub fn age_resolution_ms(age_ms: i64) -> i64 {
    if age_ms < 600_000 {
        1_000
    } else if age_ms < 3 * 3_600_000 {
        60_000
    } else {
        3_600_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A klog-looking header whose month-day holds a multi-byte character (found by the
    /// readers' random-bytes property test): no time, not a panic.
    #[test]
    fn klog_month_day_with_a_multibyte_char() {
        assert_eq!(klog("1é1", "10:00:00.000000"), None);
        assert_eq!(
            klog("1201", "10:00:00.000000"),
            Some(334 * 86_400_000 + 36_000_000)
        );
    }

    #[test]
    fn clocks() {
        assert_eq!(age("3m48s"), Some(228_000));
        assert_eq!(age("4m"), Some(240_000));
        assert_eq!(age("2d3h"), Some(2 * 86_400_000 + 3 * 3_600_000));
        assert_eq!(age("<unknown>"), None);
        assert_eq!(age("4"), None);
        assert_eq!(rfc3339("1970-01-02T00:00:01.5Z"), Some(86_400_000 + 1_500));
        assert_eq!(rfc3339("2021-05-24T09:29:44Z"), Some(1_621_848_584_000));
        assert_eq!(
            rfc3339("2021-05-24T11:29:44+02:00"),
            rfc3339("2021-05-24T09:29:44Z")
        );
        assert_eq!(klog("0102", "00:00:01.250"), Some(86_400_000 + 1_250));
        assert_eq!(journal("Jan", "02", "00:00:01"), Some(86_400_000 + 1_000));
        assert_eq!(klog("1301", "00:00:00"), None);
        for m in ["Dec", "gru", "déc.", "déc", "Dez", "dic", "12月"] {
            assert_eq!(month(m), Some(12), "{m}");
        }
        assert_eq!(
            rfc1123z("Tue, 29 Apr 2025 13:43:32 +0800"),
            rfc3339("2025-04-29T13:43:32+08:00")
        );
        assert_eq!(rfc3339("2021-13-01T00:00:00Z"), None);
        assert_eq!(rfc3339("ü021-05-24T09:29:44Z"), None);
    }
}
