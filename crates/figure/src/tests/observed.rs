//! Tests of the observed lanes (an incident's evidence, `restartscope replay`): each under its pod's modelled Ready lane in every run, its
//! steps at their times, its writers as badges, a pod the run does not have drawn and said, the
//! legend and the style only when drawn, and the canvas's paint of it in both themes. Run by
//! `cargo test -p restartscope-figure`. Mirrors no Kubernetes file.

use super::common::{parse, traces};
use crate::{layout, Figure, LayoutOpts, ObservedPod, ObservedStep, Shape};

/// The observed lane sits right under its pod's modelled Ready lane, in every run;
/// its steps start at the x of their times; a pod the run does not have is drawn too (with a
/// note), and the legend names the lane.
#[test]
fn observed_lane_sits_under_its_pod_with_steps_at_their_times() {
    let tr = traces("short-restart");
    let pod = tr[0].pods[0].name.clone();
    let step = |t_ms, ready, by: &str| ObservedStep {
        t_ms,
        ready,
        by: by.into(),
    };
    let opts = LayoutOpts {
        observed: vec![
            ObservedPod {
                pod: pod.clone(),
                under: None,
                steps: vec![
                    step(20_000, Some(true), ""),
                    step(55_700, Some(false), "system:node:n1"),
                    step(70_000, Some(true), "system:node:n1"),
                ],
                first_ms: 20_000,
                last_ms: 90_000,
            },
            ObservedPod {
                pod: "ghost".into(),
                under: None,
                steps: vec![step(30_000, Some(false), "")],
                first_ms: 30_000,
                last_ms: 40_000,
            },
        ],
        note: Some("observed times shifted by +12.0 s".into()),
        ..LayoutOpts::default()
    };
    let fig = layout(&tr, &opts);
    let rects = |class: &str| -> Vec<(f64, f64, f64, f64, String)> {
        fig.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Rect {
                    x,
                    y,
                    w,
                    h,
                    class: c,
                    title,
                } if *c == class => Some((*x, *y, *w, *h, title.clone().unwrap_or_default())),
                _ => None,
            })
            .collect()
    };
    let modelled: Vec<_> = ["rs-ready-true", "rs-ready-false"]
        .iter()
        .flat_map(|c| rects(c))
        .filter(|r| r.4.starts_with(&format!("{pod} Ready=")))
        .collect();
    let falses = rects("rs-obs-false");
    let trues = rects("rs-obs-true");
    // Both runs: the pod's observed False from 55.7 s, where the run's own time axis puts it.
    let ours: Vec<_> = falses.iter().filter(|r| r.4.starts_with(&pod)).collect();
    assert_eq!(ours.len(), 2, "{falses:?}");
    for (g, f) in fig.groups.iter().zip(&ours) {
        assert!((f.0 - fig.x_of(55_700)).abs() < 0.01, "{f:?}");
        assert!((f.0 + f.2 - fig.x_of(70_000)).abs() < 0.01, "{f:?}");
        assert!(f.4.contains("written by system:node:n1"), "{}", f.4);
        // The modelled Ready band of the same pod in the same group ends just above it.
        let band = modelled
            .iter()
            .filter(|m| m.1 >= g.y && m.1 < f.1)
            .map(|m| m.1 + m.3)
            .fold(f64::NEG_INFINITY, f64::max);
        // (with the badge row of the observed writers between them)
        let gap = f.1 - band;
        assert!(
            (crate::geom::BADGE_ROW..=crate::geom::BADGE_ROW + 6.0).contains(&gap),
            "band ends {band}, lane {}",
            f.1
        );
    }
    // The observed writers as the model's: a K badge (system:node:n1 is the kubelet) centred on
    // each change, in both runs.
    let badges = rects("rs-badge-k");
    let observed_badges: Vec<_> = badges
        .iter()
        .filter(|r| r.4.ends_with("written by system:node:n1 (observed)"))
        .collect();
    assert_eq!(observed_badges.len(), 4, "{badges:?}");
    assert!(observed_badges
        .iter()
        .any(|r| (r.0 + r.2 / 2.0 - fig.x_of(55_700)).abs() < 0.01));
    // Before the first observation: not observed; the True steps start at 20 s and 70 s.
    let unknown = rects("rs-obs-unknown");
    assert!(unknown
        .iter()
        .any(|u| (u.0 - fig.x0).abs() < 0.01 && (u.0 + u.2 - fig.x_of(20_000)).abs() < 0.01));
    assert!(trues.iter().any(|t| (t.0 - fig.x_of(20_000)).abs() < 0.01));
    assert!(trues.iter().any(|t| (t.0 - fig.x_of(70_000)).abs() < 0.01));
    // The evidence's pod the runs do not have: drawn and said, in each run.
    assert_eq!(
        falses.iter().filter(|r| r.4.starts_with("ghost")).count(),
        2
    );
    let texts: Vec<&str> = fig.shapes.iter().filter_map(|s| s.content()).collect();
    assert!(texts.iter().any(|t| t.contains("ghost: observed only")));
    assert!(texts
        .iter()
        .any(|t| t.starts_with("observed Ready, from the evidence")));
    assert!(texts.contains(&"observed"));
    assert!(texts.iter().any(|t| t.contains("shifted by +12.0 s")));
    // Without evidence the legend does not mention it, and the style is every other figure's.
    let plain = layout(&tr, &LayoutOpts::default()).to_svg();
    assert!(!plain.contains("observed Ready"));
    assert!(!plain.contains(".rs-obs-line"));
    assert!(fig.draws_observed() && fig.to_svg().contains(Figure::observed_css()));
    // The canvas paints the lane from the same style, in both themes (the step line in the
    // theme's ink).
    let line = |dark| crate::paint::paint("rs-obs-line", false, dark);
    assert_eq!(line(false).stroke.as_deref(), Some("#1a1a1a"));
    assert_eq!(line(true).stroke.as_deref(), Some("#e6e6e6"));
    assert_eq!(line(true).fill, crate::paint::Fill::None);
    assert_eq!(
        crate::paint::paint("rs-obs-unknown", false, true).dash,
        vec![2.0, 3.0]
    );
    parse(&fig.to_svg());
}
