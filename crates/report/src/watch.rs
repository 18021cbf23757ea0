//! What to watch in an animated figure: one sentence about the whole run of every trace, from
//! the traces themselves (each pod's Ready writes and final Ready, the totals the
//! figure's header prints at its last frame), never a preset's prose. Called by the CLI for
//! `simulate --format svg|png|gif` (the line under the title, the same in the still figure and
//! in its animation); the figure crate draws it as it draws any note.

use crate::timeline::{ApiReady, Timeline};
use restartscope_sim::{fmt_secs, plural, Ms, Policy, Trace};

/// "Watch — legacy kubelet: 3 pods NotReady from 55.7s by the kubelet, all Ready again (6 Ready
/// transitions); KEP-4781 kubelet: every pod stays Ready (0 Ready transitions)." (The restart
/// itself is the figure's title.) Runs in the figure's order (legacy above KEP-4781). The counts are
/// whole-run totals, the numbers each run's header reads once the playhead has passed its last
/// change.
pub fn watch_line(traces: &[Trace]) -> String {
    let timelines: Vec<Timeline> = traces.iter().map(Timeline::new).collect();
    let mut runs: Vec<(&Trace, &Timeline)> = traces.iter().zip(&timelines).collect();
    restartscope_sim::core::sort::sort_by_key(&mut runs, |(t, _)| t.policy);
    let same_policy = runs.windows(2).any(|w| w[0].0.policy == w[1].0.policy);
    let clauses: Vec<String> = runs
        .iter()
        .map(|(tr, tl)| format!("{}: {}", run_name(tr, same_policy), clause(tr, tl)))
        .collect();
    format!("Watch — {}.", clauses.join("; "))
}

/// "legacy kubelet", "KEP-4781 kubelet"; with two runs of one policy, their releases too
/// ("1.35 KEP-4781 kubelet"); the unmerged proposal by its name.
fn run_name(tr: &Trace, with_release: bool) -> String {
    let release = tr.kubelet.split(" · ").next().unwrap_or_default();
    if !tr.proposal.is_empty() {
        return format!("{release} CSP proposal");
    }
    let policy = match tr.policy {
        Policy::Legacy => "legacy kubelet",
        Policy::Kep => "KEP-4781 kubelet",
    };
    if with_release && !release.is_empty() {
        format!("{release} {policy}")
    } else {
        policy.to_string()
    }
}

/// One run, whole run: the pods that went NotReady (from when, whose write first), how they
/// ended, the evictions and the Ready transitions the header counts.
fn clause(tr: &Trace, tl: &Timeline) -> String {
    let m = &tr.metrics;
    let total = plural(
        m.ready_transitions.into(),
        "Ready transition",
        "Ready transitions",
    );
    // Per pod that went NotReady: its NotReady writes (the first one's time, every writer in
    // the order they first wrote one) and how it ended.
    let mut first: Option<Ms> = None;
    let mut writers: Vec<(Ms, &str)> = Vec::new();
    let (mut down, mut times, mut back, mut still) = (0u64, 0u64, 0u64, 0u64);
    // Each pod's count of NotReady writes: "2 times each" when they are all the same.
    let mut per_pod: Vec<u64> = Vec::new();
    for p in &tl.pods {
        let nr: Vec<_> = p.writes.iter().filter(|w| !w.ready).collect();
        let Some(w) = nr.first() else {
            continue;
        };
        down += 1;
        times += nr.len() as u64;
        per_pod.push(nr.len() as u64);
        first = Some(first.map_or(w.t, |t| t.min(w.t)));
        for w in nr {
            match writers.iter_mut().find(|x| x.1 == w.by.as_str()) {
                Some(x) => x.0 = x.0.min(w.t),
                None => writers.push((w.t, w.by.as_str())),
            }
        }
        match p.ready.last() {
            ApiReady::True => back += 1,
            ApiReady::False => still += 1,
            ApiReady::Removed => {}
        }
    }
    let Some(t) = first else {
        return if m.ready_transitions == 0 && m.evictions == 0 {
            format!("every pod stays Ready ({total})")
        } else {
            format!("{} ({total})", evicted(m.evictions.into()))
        };
    };
    writers.sort_unstable();
    let by: Vec<String> = writers.iter().map(|w| w.1.replace('-', " ")).collect();
    let mut s = format!(
        "{} NotReady{} from {} by the {}",
        plural(down, "pod", "pods"),
        if times <= down {
            String::new()
        } else if per_pod.iter().all(|n| *n == per_pod[0]) {
            if down == 1 {
                format!(" {times} times")
            } else {
                format!(" {} times each", per_pod[0])
            }
        } else {
            format!(" {times} times in all")
        },
        secs(t),
        by.join(" then the ")
    );
    if back > 0 {
        s += &match (back == down, down) {
            (true, 1) => ", Ready again".to_string(),
            (true, _) => ", all Ready again".to_string(),
            _ => format!(", {back} Ready again"),
        };
    }
    if m.evictions > 0 {
        s += &format!(", {}", evicted(m.evictions.into()));
    }
    // Rejected by the kubelet's admission at its start (A1): Failed, not coming back.
    let rejected = (tr.events.iter())
        .filter(|e| e.kind == restartscope_sim::Kind::PodRejected)
        .count() as u64;
    if rejected > 0 {
        s += &format!(
            ", {} rejected by admission at the kubelet's start (Failed)",
            plural(rejected, "pod", "pods")
        );
    }
    let still = still.saturating_sub(rejected);
    if still > 0 {
        s += &format!(", {still} still NotReady at the end");
    }
    format!("{s} ({total})")
}

fn evicted(n: u64) -> String {
    format!("{} evicted", plural(n, "pod", "pods"))
}

/// A time to the tenth of a second, as the axis writes it (`55.7s`, `1m19.9s`).
fn secs(t: Ms) -> String {
    fmt_secs((t as f64 / 100.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    fn line(preset: &str) -> String {
        let sc = (presets::find(preset).unwrap().build)();
        watch_line(&compare(&sc).unwrap())
    }

    #[test]
    fn a_short_restart_is_watched_as_the_legacy_flap_and_kep_keeping_ready() {
        assert_eq!(
            line("short-restart"),
            "Watch — legacy kubelet: 3 pods NotReady from 55.7s by the kubelet, all Ready again \
             (6 Ready transitions); KEP-4781 kubelet: every pod stays Ready (0 Ready transitions)."
        );
    }

    #[test]
    fn the_counts_are_the_headers_and_the_first_notready_is_the_traces() {
        for p in ["long-restart", "eviction", "not-ready-before-restart"] {
            let sc = (presets::find(p).unwrap().build)();
            let traces = compare(&sc).unwrap();
            let s = watch_line(&traces);
            for tr in &traces {
                let n = tr.metrics.ready_transitions;
                assert!(s.contains(&format!("({n} Ready transition")), "{p}: {s}");
            }
            assert!(s.starts_with("Watch — legacy kubelet: "), "{p}: {s}");
        }
        let s = line("long-restart");
        assert!(
            s.contains("3 pods NotReady from 1m19.9s by the node lifecycle controller"),
            "{s}"
        );
        assert!(line("eviction").contains("3 pods evicted"));
    }

    /// A count of NotReady writes says whether it is per pod or in all.
    #[test]
    fn counts_say_per_pod_or_in_all() {
        for p in restartscope_sim::presets::PRESETS {
            let traces = restartscope_sim::compare_default(&(p.build)()).unwrap();
            let s = watch_line(&traces);
            assert!(!regex_like_bare_times(&s), "{}: {s}", p.name);
        }
    }

    /// "N pods NotReady K times" with no "each" or "in all" after it.
    fn regex_like_bare_times(s: &str) -> bool {
        s.split("pods NotReady ").skip(1).any(|rest| {
            let mut w = rest.split_whitespace();
            let n = w.next().unwrap_or("");
            n.parse::<u64>().is_ok()
                && w.next() == Some("times")
                && !matches!(w.next(), Some("each") | Some("in"))
        })
    }
}
