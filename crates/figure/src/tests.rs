use super::*;
use crate::svg::n;
use restartscope_sim::{compare, presets};
use restartscope_sim::{Policy, Trace};

fn traces(name: &str) -> [Trace; 2] {
    let sc = (presets::find(name).unwrap().build)();
    compare(&sc).unwrap()
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"))
}

#[test]
fn every_preset_gives_well_formed_svg() {
    for p in presets::PRESETS {
        let tr = traces(p.name);
        let fig = layout(&tr, &LayoutOpts::default());
        let svg = fig.to_svg();
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{}", p.name);
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        assert!(root.attribute("viewBox").is_some());
        assert!(root.descendants().any(|n| n.has_tag_name("style")));
        // The inner part alone is also well formed once wrapped.
        let inner = format!("<g>{}</g>", fig.to_svg_inner());
        parse(&inner);
    }
}

#[test]
fn no_external_references() {
    for p in presets::PRESETS {
        let svg = layout(&traces(p.name), &LayoutOpts::default()).to_svg();
        let without_ns = svg.replacen("http://www.w3.org/2000/svg", "", 1);
        assert!(!without_ns.contains("http"), "{}", p.name);
        assert!(!without_ns.contains("href"), "{}", p.name);
        assert!(!svg.contains("@import"));
    }
}

#[test]
fn x_and_t_are_inverse() {
    let tr = traces("long-restart");
    for opts in [
        LayoutOpts::default(),
        LayoutOpts {
            width: 1234.0,
            t0_ms: 25_000,
            t1_ms: 130_000,
            ..LayoutOpts::default()
        },
    ] {
        let fig = layout(&tr, &opts);
        assert_eq!(fig.x_of(fig.t0_ms), fig.x0);
        assert!((fig.x_of(fig.t1_ms) - fig.x1).abs() < 1e-9);
        for t in (fig.t0_ms..=fig.t1_ms).step_by(997) {
            assert_eq!(fig.t_of(fig.x_of(t)), t);
        }
        for x in [fig.x0, fig.x0 + 0.5, (fig.x0 + fig.x1) / 2.0, fig.x1] {
            let t = fig.t_of(x);
            let span_per_px = (fig.t1_ms - fig.t0_ms) as f64 / (fig.x1 - fig.x0);
            assert!((fig.x_of(t) - x).abs() <= 0.5 / span_per_px + 1e-9);
        }
    }
}

#[test]
fn both_groups_present_legacy_first() {
    let [legacy, kep] = traces("short-restart");
    // Order of the input does not matter.
    let fig = layout(&[kep.clone(), legacy.clone()], &LayoutOpts::default());
    assert_eq!(fig.groups.len(), 2);
    assert_eq!(fig.groups[0].policy, Policy::Legacy);
    assert_eq!(fig.groups[1].policy, Policy::Kep);
    assert!(fig.groups[0].y + fig.groups[0].h <= fig.groups[1].y);
    assert!(fig.groups[1].y + fig.groups[1].h <= fig.height);
    let svg = fig.to_svg();
    assert!(svg.contains("Legacy kubelet · 1.35") && svg.contains("KEP-4781 kubelet · 1.35"));
    // The same pods give groups of the same height.
    assert!((fig.groups[0].h - fig.groups[1].h).abs() < 1e-9);
    let one = layout(&[kep], &LayoutOpts::default());
    assert_eq!(one.groups.len(), 1);
    assert!(one.height < fig.height);
}

#[test]
fn width_is_honoured() {
    let tr = traces("eviction");
    for w in [400.0, 800.0, 1400.0] {
        let fig = layout(
            &tr,
            &LayoutOpts {
                width: w,
                ..LayoutOpts::default()
            },
        );
        assert_eq!(fig.width, w);
        assert!(fig.x1 <= w && fig.x0 > 0.0 && fig.x0 < fig.x1);
        let svg = fig.to_svg();
        let doc = parse(&svg);
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some(n(w).as_str()));
        assert_eq!(
            root.attribute("viewBox"),
            Some(format!("0 0 {} {}", n(w), n(fig.height)).as_str())
        );
        // Nothing is positioned outside the figure.
        for sh in &fig.shapes {
            match sh {
                Shape::Rect { x, w: rw, .. } => {
                    assert!(*x >= -0.01 && x + rw <= w + 0.01, "{sh:?}")
                }
                Shape::Line { x1, x2, .. } => assert!(*x1 >= 0.0 && *x2 <= w, "{sh:?}"),
                Shape::Text { x, .. } => assert!(*x >= 0.0 && *x <= w, "{sh:?}"),
                Shape::Path { .. } => {}
            }
        }
    }
}

#[test]
fn text_is_escaped() {
    let sc = (presets::find("short-restart").unwrap().build)();
    let mut tr = compare(&sc).unwrap();
    for t in tr.iter_mut() {
        t.pods[0].name = "a<b>&\"c'".into();
    }
    let fig = layout(
        &tr,
        &LayoutOpts {
            title: Some("x < y & \"z\"".into()),
            ..LayoutOpts::default()
        },
    );
    let svg = fig.to_svg();
    let doc = parse(&svg);
    assert!(doc
        .descendants()
        .any(|n| n.has_tag_name("text") && n.text() == Some("x < y & \"z\"")));
    assert!(!svg.contains("a<b>"));
}

#[test]
fn states_come_from_the_events() {
    let [legacy, kep] = traces("long-restart");
    let fig = layout(&[legacy, kep], &LayoutOpts::default());
    let svg = fig.to_svg();
    let texts: Vec<String> = parse(&svg)
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect();
    for want in [
        "Unknown",
        "NoSchedule",
        "NoExecute",
        "False",
        "True",
        "lease expired",
        "down 1m30s",
        "N",
        "K",
    ] {
        assert!(texts.iter().any(|t| t == want), "missing text {want:?}");
    }
    // Writer badges: the NLC marks 3 pods NotReady in each group.
    let n_badges = fig
        .shapes
        .iter()
        .filter(|s| {
            matches!(
                s,
                Shape::Rect {
                    class: "rs-badge-n",
                    title: Some(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(n_badges, 6);
    // Short restart under KEP: no pod ever leaves Ready.
    let [_, kep] = traces("short-restart");
    let fig = layout(&[kep], &LayoutOpts::default());
    assert!(!fig.shapes.iter().any(|s| matches!(
        s,
        Shape::Rect {
            class: "rs-ready-false",
            title: Some(_),
            ..
        }
    )));
}

#[test]
fn window_clips_and_probes_optional() {
    let tr = traces("eviction");
    let opts = LayoutOpts {
        t0_ms: 60_000,
        t1_ms: 120_000,
        show_probes: false,
        ..LayoutOpts::default()
    };
    let fig = layout(&tr, &opts);
    assert_eq!((fig.t0_ms, fig.t1_ms), (60_000, 120_000));
    assert!(!fig.shapes.iter().any(|s| matches!(
        s,
        Shape::Path {
            class: "rs-probe-ok" | "rs-probe-fail",
            title: Some(_),
            ..
        }
    )));
    for sh in &fig.shapes {
        if let Shape::Rect {
            x,
            w,
            title: Some(_),
            ..
        } = sh
        {
            assert!(*x >= fig.x0 - 0.01 && x + w <= fig.x1 + 0.01, "{sh:?}");
        }
    }
    // Default window is the horizon.
    let fig = layout(&tr, &LayoutOpts::default());
    assert_eq!((fig.t0_ms, fig.t1_ms), (0, tr[0].horizon));
}

#[test]
fn many_pods_are_capped() {
    let mut sc = (presets::find("short-restart").unwrap().build)();
    let pod = sc.pods[0].clone();
    sc.pods = (0..40)
        .map(|i| {
            let mut p = pod.clone();
            p.name = format!("web-{i}");
            p
        })
        .collect();
    let tr = compare(&sc).unwrap();
    let fig = layout(&tr, &LayoutOpts::default());
    let svg = fig.to_svg();
    assert!(svg.contains("16 more pods not drawn"));
    parse(&svg);
}

#[test]
fn css_defines_every_class_used() {
    let fig = layout(&traces("daemonset-long-outage"), &LayoutOpts::default());
    let css = Figure::css();
    for sh in &fig.shapes {
        let class = sh.class();
        assert!(
            css.contains(&format!(".{class} ")),
            "class {class} has no rule"
        );
    }
}

#[test]
fn eviction_lane_shows_how_each_countdown_ended() {
    let texts = |name: &str| -> Vec<String> {
        let svg = layout(&traces(name), &LayoutOpts::default()).to_svg();
        parse(&svg)
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    };
    let long = texts("long-restart");
    assert!(long.iter().any(|t| t == "cancelled") && !long.iter().any(|t| t == "evicted"));
    let ev = texts("eviction");
    assert!(ev.iter().any(|t| t == "evicted") && ev.iter().any(|t| t == "removed"));
    assert!(ev.iter().any(|t| t == "evict after 5m"));
}

#[test]
fn legend_uses_the_lane_glyphs() {
    // The legend's swatches are drawn by the lanes' glyph functions: every class the legend
    // uses is one a lane can draw, and the probe marks have the same path shape.
    let fig = layout(&traces("long-restart"), &LayoutOpts::default());
    let legend_top = fig.groups.last().map(|g| g.y + g.h).unwrap();
    let class = Shape::class;
    let shape_of = |d: &str| -> String { d.chars().filter(|c| c.is_alphabetic()).collect() };
    for sh in &fig.shapes {
        if let Shape::Path {
            d,
            class: c,
            title: None,
        } = sh
        {
            let lane = fig.shapes.iter().find_map(|s| match s {
                Shape::Path {
                    d,
                    class,
                    title: Some(_),
                } if class == c => Some(d),
                _ => None,
            });
            if let Some(lane) = lane {
                assert_eq!(shape_of(d), shape_of(lane), "{c}");
            }
        }
    }
    let below: Vec<&str> = fig
        .shapes
        .iter()
        .filter(|s| matches!(s, Shape::Rect { y, .. } if *y > legend_top))
        .map(class)
        .collect();
    assert!(below.contains(&"rs-ready-true") && below.contains(&"rs-badge-n"));
}

#[test]
fn layout_read_is_layout_for_timelines_read_once() {
    let tr = traces("eviction");
    let tls: Vec<restartscope_report::Timeline> =
        tr.iter().map(restartscope_report::Timeline::new).collect();
    let opts = LayoutOpts::default();
    assert_eq!(layout_read(&tr, &tls, &opts), layout(&tr, &opts));
}

#[test]
fn group_titles_name_the_release() {
    use restartscope_sim::{compare_default, KubeVersion};
    let mut sc = presets::short_restart();
    sc.cluster.version = KubeVersion::V1_34;
    let one = layout(&compare_default(&sc).unwrap(), &LayoutOpts::default());
    assert_eq!(one.groups.len(), 1);
    let svg = one.to_svg();
    assert!(svg.contains("Legacy kubelet · 1.34") && !svg.contains("KEP-4781"));
    sc.cluster.version = KubeVersion::Main;
    let svg = layout(&compare_default(&sc).unwrap(), &LayoutOpts::default()).to_svg();
    assert!(svg.contains("Legacy kubelet · main") && svg.contains("KEP-4781 kubelet · main"));
}

#[test]
fn compact_layout_is_short_and_keeps_the_story() {
    for p in presets::PRESETS {
        let tr = traces(p.name);
        let full = layout(
            &tr,
            &LayoutOpts {
                width: 860.0,
                ..LayoutOpts::default()
            },
        );
        let opts = LayoutOpts {
            width: 860.0,
            compact: true,
            max_pods: 4,
            ..LayoutOpts::default()
        };
        let fig = layout(&tr, &opts);
        let svg = fig.to_svg();
        parse(&svg);
        assert!(
            fig.height < full.height * 0.7,
            "{}: {} vs {}",
            p.name,
            fig.height,
            full.height
        );
        let pols: Vec<Policy> = fig.groups.iter().map(|g| g.policy).collect();
        assert_eq!(pols, [Policy::Legacy, Policy::Kep], "{}", p.name);
        // No lease-age or probe lanes; every drawn pod's Ready band is there, by name.
        for sh in &fig.shapes {
            if let Shape::Path { class, .. } = sh {
                assert!(!["rs-lease", "rs-probe-ok", "rs-probe-fail"].contains(class));
            }
        }
        assert!(!svg.contains(">lease age<") && !svg.contains(">probes<"));
        for pod in tr[0].pods.iter().take(4) {
            let head: String = pod.name.chars().take(6).collect();
            assert!(svg.contains(&format!(">{head}")), "{}", pod.name);
        }
        if tr[0].pods.len() > 4 {
            assert!(svg.contains(&format!("{} more pod", tr[0].pods.len() - 4)));
        }
    }
}

/// #141473's window without the API server is drawn in the kubelet lane (with its time in the
/// tooltip) and named in the legend; a figure without one has neither.
#[test]
fn api_unreachable_windows_are_drawn_and_only_then_in_the_legend() {
    let svg = layout(
        &traces("report-141473-replaced-during-partition"),
        &LayoutOpts::default(),
    )
    .to_svg();
    assert!(svg.contains("class=\"rs-noapi\""));
    assert!(svg.contains("API server unreachable from the node 20s–50s (30s)"));
    assert!(svg.contains(">API server unreachable<"));
    let plain = layout(&traces("short-restart"), &LayoutOpts::default()).to_svg();
    assert!(!plain.contains("class=\"rs-noapi\"") && !plain.contains(">API server unreachable<"));
}

/// The canvas's tooltips find what the SVG's `<title>`s would show.
#[test]
fn title_at_finds_the_topmost_titled_shape() {
    let mut fig = crate::layout(&[], &LayoutOpts::default());
    fig.shapes = vec![
        Shape::Rect {
            x: 10.0,
            y: 10.0,
            w: 100.0,
            h: 20.0,
            class: "rs-ready-true",
            title: Some("Ready True".into()),
        },
        Shape::Path {
            d: "M50 20L52 23L56 16.5".into(),
            class: "rs-probe-ok",
            title: Some("probe ok".into()),
        },
        Shape::Path {
            d: "M80 17h6v6h-6z".into(),
            class: "rs-probe-seed",
            title: Some("seed".into()),
        },
    ];
    assert_eq!(fig.title_at(20.0, 15.0, 0.0), Some("Ready True"));
    assert_eq!(fig.title_at(53.0, 20.0, 0.0), Some("probe ok"));
    assert_eq!(fig.title_at(83.0, 20.0, 4.0), Some("seed"));
    assert_eq!(fig.title_at(58.0, 20.0, 3.0), Some("probe ok"));
    assert_eq!(fig.title_at(200.0, 20.0, 3.0), None);
}

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

#[test]
fn both_themes_are_in_the_style() {
    let css = Figure::css();
    assert!(css.contains("@media (prefers-color-scheme: dark) { :root.rs-figure {"));
    assert!(css.contains("@supports (color: light-dark(#000, #fff))"));
    let tr = traces("short-restart");
    let (anim, _) = layout(&tr, &LayoutOpts::default()).animated_parts(&tr, &Animation::default());
    for v in crate::paint::PALETTE {
        assert!(css.contains(&format!("{}: {};", v.name, v.light)));
        assert!(css.contains(&format!("{}: {};", v.name, v.dark)));
        assert!(css.contains(&format!("{}: light-dark({}, {});", v.name, v.light, v.dark)));
        let used = format!("var({})", v.name);
        assert!(
            css.contains(&used) || anim.contains(&used),
            "{} unused",
            v.name
        );
    }
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

/// Issue 28: the observed lane sits right under its pod's modelled Ready lane, in every run;
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
