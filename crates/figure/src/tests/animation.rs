//! Tests of the figure in time: the counters' steps (`counter_steps`) ending at the header's
//! lines, the CSS-keyframe animation keyed on the trace's times, and one moment of it
//! (`moment_parts`, `to_svg_at`). Run by `cargo test -p restartscope-figure`. Mirrors no
//! Kubernetes file.

use super::common::{parse, traces};
use crate::{counter_steps, esc, layout, metrics_lines, Animation, LayoutOpts};
use restartscope_sim::Policy;

#[test]
fn counters_step_at_the_checkpoints_and_end_at_the_header() {
    for name in ["short-restart", "long-restart", "eviction"] {
        for tr in traces(name) {
            let steps = counter_steps(&tr, 0, tr.horizon);
            assert_eq!(steps[0].0, 0);
            assert!(steps[0].1.starts_with("0 Ready transitions"), "{name}");
            assert!(steps
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 != w[1].1));
            assert_eq!(
                steps.last().unwrap().1,
                metrics_lines(&tr.metrics).0,
                "{name}"
            );
            if tr.metrics.ready_transitions + tr.metrics.endpointslice_updates > 0 {
                assert!(steps.len() >= 2, "{name}: {steps:?}");
            }
        }
    }
}

#[test]
fn the_animation_keys_the_counters_on_the_traces_times() {
    let tr = traces("short-restart");
    let fig = layout(&tr, &LayoutOpts::default());
    let a = Animation::new(10_000);
    let (css, inner) = fig.animated_parts(&tr, &a);
    // Legacy (group 0) counts; KEP does not change anything here, so it has no keyframes.
    let legacy = tr.iter().find(|t| t.policy == Policy::Legacy).unwrap();
    let steps = counter_steps(legacy, fig.t0_ms, fig.t1_ms);
    let kf = css
        .lines()
        .find(|l| l.starts_with("@keyframes rs-count-0"))
        .unwrap();
    for (t, _) in steps.iter().skip(1) {
        let pct = (*t - fig.t0_ms) as f64 / (fig.t1_ms - fig.t0_ms) as f64 * 10.0 / 12.0 * 100.0;
        let want = format!("{:.3}", pct);
        let want = want.trim_end_matches('0').trim_end_matches('.');
        assert!(kf.contains(&format!(" {want}% ")), "{want} not in {kf}");
    }
    assert!(!css.contains("@keyframes rs-count-1"));
    assert!(css.contains("rs-play 12s linear infinite"));
    assert_eq!(inner.matches("class=\"rs-veil\"").count(), 2);
    assert_eq!(inner.matches("class=\"rs-playhead\"").count(), 1);
    let svg = fig.to_svg_animated(&tr, &a);
    parse(&svg);
    assert!(svg.contains("@media (prefers-reduced-motion: reduce)"));
}

/// One moment of the animation: the playhead at t, the veil from it to the window's end, the
/// counters at their value then; at the end, the held frame (nothing veiled, final counters).
#[test]
fn a_moment_is_the_animation_at_that_time() {
    let tr = traces("short-restart");
    let fig = layout(&tr, &LayoutOpts::default());
    let legacy = tr.iter().find(|t| t.policy == Policy::Legacy).unwrap();
    let steps = counter_steps(legacy, fig.t0_ms, fig.t1_ms);
    assert!(steps.len() > 1);
    let (t, text) = &steps[1];
    let x = fig.x_of(*t);
    let (css, inner) = fig.moment_parts(&tr, *t);
    assert!(!css.contains("animation") && !css.contains("@keyframes"));
    assert!(inner.contains(&format!("x1=\"{}\"", crate::svg::n(x))));
    assert!(inner.contains(&format!(">{}<", esc(text))), "counters at t");
    let before = fig.moment_parts(&tr, *t - 1).1;
    assert!(before.contains(&format!(">{}<", esc(&steps[0].1))));
    assert_eq!(inner.matches("class=\"rs-veil\"").count(), 2);
    let veil_w = crate::svg::n(fig.x1 - x);
    assert!(inner.contains(&format!("width=\"{veil_w}\"")));
    // The end: the static figure's header lines, a veil of width 0, the playhead at x1.
    let (_, end) = fig.moment_parts(&tr, fig.t1_ms);
    let still = fig.to_svg_inner();
    for line in still.lines() {
        assert!(end.contains(line), "missing at the end: {line}");
    }
    assert!(end.contains("width=\"0\" height="));
    let (_, under, over) = fig.moment_layers(&tr, *t);
    assert_eq!(under + &over, inner);
    parse(&fig.to_svg_at(&tr, *t));
}

/// The two header lines run on one clock: at every moment of the animation, each shows the run's
/// metrics as of the same last counted instant — never line 1 at 0 s beside line 2's final totals.
#[test]
fn both_header_lines_show_the_same_moment() {
    use crate::header_steps;
    use restartscope_report::metrics_at;
    for name in ["short-restart", "long-restart", "eviction"] {
        let tr = traces(name);
        let fig = layout(&tr, &LayoutOpts::default());
        for run in &tr {
            let (one, two) = header_steps(run, fig.t0_ms, fig.t1_ms);
            // Every instant either line changes at, the other line's text is its value then.
            for (t, _) in one.iter().chain(&two) {
                let (a, b) = metrics_lines(&metrics_at(run, *t));
                let at = |steps: &[(i64, String)]| {
                    steps.iter().rev().find(|s| s.0 <= *t).unwrap().1.clone()
                };
                assert_eq!(at(&one), a, "{name} line 1 at {t}");
                assert_eq!(at(&two), b, "{name} line 2 at {t}");
            }
            assert_eq!(two[0].1, metrics_lines(&metrics_at(run, fig.t0_ms)).1);
            assert_eq!(
                two.last().unwrap().1,
                metrics_lines(&run.metrics).1,
                "{name}"
            );
        }
        // In the moment at the first counted change, line 2 is not yet at its final totals.
        let legacy = tr.iter().find(|t| t.policy == Policy::Legacy).unwrap();
        let (one, _) = header_steps(legacy, fig.t0_ms, fig.t1_ms);
        if one.len() > 1 {
            let inner = fig.moment_parts(&tr, one[0].0).1;
            let (_, final2) = metrics_lines(&legacy.metrics);
            let (_, start2) = metrics_lines(&metrics_at(legacy, one[0].0));
            assert!(inner.contains(&format!(">{}<", esc(&start2))), "{name}");
            if start2 != final2 {
                assert!(!inner.contains(&format!(">{}<", esc(&final2))), "{name}");
            }
        }
    }
}
