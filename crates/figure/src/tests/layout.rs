//! Tests of the static figure: every preset's SVG well formed and self-contained, time ↔ x,
//! the two groups (legacy first) and their titles, the width, escaping, the states read from the
//! trace, the window and the pod cap, the style (every class has a rule; both themes), the
//! eviction lane, the legend's glyphs, `layout_read`, the compact layout, the API-unreachable
//! window and the canvas's tooltips. Run by `cargo test -p restartscope-figure`. Mirrors no
//! Kubernetes file.

use super::common::{parse, runs, traces};
use crate::svg::n;
use crate::{layout, layout_read, Animation, Figure, LayoutOpts, Shape};
use restartscope_sim::{compare, presets, Policy};

#[test]
fn every_preset_gives_well_formed_svg() {
    for p in presets::PRESETS {
        let tr = runs(p.name);
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
        let svg = layout(&runs(p.name), &LayoutOpts::default()).to_svg();
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
        "lease expires",
        "grace ends (NLC)",
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
        let tr = runs(p.name);
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
        let want: Vec<Policy> = tr.iter().map(|t| t.policy).collect();
        assert_eq!(pols, want, "{}", p.name);
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

/// The ContainerScopedProbes proposal's heading (capitals and digits, wider than the average
/// text) does not run into the counts beside it (seen in the app's three-lane figure), in the
/// full layout and the compact one; the other headings keep their places.
#[test]
fn a_wide_heading_leaves_room_for_its_counts() {
    use restartscope_sim::{simulate_profile, KubeVersion, KubeletProfile};
    let mut sc = presets::short_restart();
    sc.cluster.version = KubeVersion::parse("1.38").unwrap();
    let csp = simulate_profile(&sc, &KubeletProfile::csp(sc.cluster.version)).unwrap();
    for compact in [false, true] {
        let fig = layout(
            std::slice::from_ref(&csp),
            &LayoutOpts {
                compact,
                ..LayoutOpts::default()
            },
        );
        let texts: Vec<(f64, f64, &str, &str)> = fig
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text {
                    x, y, text, class, ..
                } => Some((*x, *y, text.as_str(), *class)),
                _ => None,
            })
            .collect();
        let (hx, hy, title, _) = *texts
            .iter()
            .find(|t| t.3 == "rs-h2" && t.2.contains("proposal"))
            .expect("the proposal's heading");
        let meta = texts
            .iter()
            .find(|t| t.3 == "rs-meta" && (t.1 - hy).abs() < 0.5 && t.0 > hx)
            .expect("the counts beside the heading");
        // 315.4 px measured in the browser (DejaVu Sans Bold, 12.5 px): at least 6 px apart.
        assert!(
            meta.0 - hx >= 315.4 + 6.0,
            "compact={compact}: {title:?} at {hx}, its counts at {}",
            meta.0
        );
    }
}

/// The legend lists only what the lanes drew: a 20 s restart has no taint, no Unknown node and no
/// evictions, so none of those are in its legend; a 90 s one has the taints.
#[test]
fn the_legend_lists_only_what_is_drawn() {
    let legend_texts = |name: &str| -> Vec<String> {
        let tr = traces(name);
        let svg = layout(&tr, &LayoutOpts::default()).to_svg();
        parse(&svg)
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some("rs-legend"))
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    };
    let short = legend_texts("short-restart");
    for absent in [
        "NoSchedule taint",
        "NoExecute taint",
        "node Unknown",
        "terminating",
    ] {
        assert!(!short.iter().any(|t| t == absent), "{absent} in {short:?}");
    }
    for present in ["pod Ready", "pod NotReady", "kubelet down"] {
        assert!(
            short.iter().any(|t| t == present),
            "{present} not in {short:?}"
        );
    }
    let long = legend_texts("long-restart");
    for present in ["NoSchedule taint", "NoExecute taint", "node Unknown"] {
        assert!(
            long.iter().any(|t| t == present),
            "{present} not in {long:?}"
        );
    }
}

/// A pod name too long for the label column is cut in the middle, as drawn (bold), never past
/// the figure's left edge, with the full name as its tooltip.
#[test]
fn long_pod_names_are_cut_in_the_middle_with_the_full_name_on_hover() {
    let mut sc = (presets::find("short-restart").unwrap().build)();
    sc.pods[0].name = "recommendationservice-7f9c8d6b5-x2k4q".into();
    let tr = compare(&sc).unwrap();
    let fig = layout(&tr, &LayoutOpts::default());
    let label = fig
        .shapes
        .iter()
        .find_map(|s| match s {
            Shape::Text {
                text,
                class: "rs-label-pod",
                x,
                ..
            } if text.contains('…') => Some((text.clone(), *x)),
            _ => None,
        })
        .expect("a cut pod label");
    assert!(label.0.starts_with("recomm"), "{}", label.0);
    assert!(label.0.ends_with("x2k4q"), "{}", label.0);
    let w = crate::geom::bold_w(&label.0, 11.0);
    assert!(label.1 - w >= 0.0, "past the left edge: {label:?} ({w} px)");
    assert!(fig.shapes.iter().any(|s| matches!(s,
        Shape::Rect { class: "rs-hit", title: Some(t), .. } if t == "recommendationservice-7f9c8d6b5-x2k4q")));
}

/// A cut name keeps its last `-` part whole (the ordinal or the ReplicaSet's suffix that tells
/// the pods apart) and the start of its workload's name, never a cut word before the ordinal.
#[test]
fn a_cut_name_keeps_its_distinguishing_end_whole() {
    let mut sc = (presets::find("short-restart").unwrap().build)();
    sc.pods[0].name = "metrics-server-with-a-long-name-0".into();
    sc.pods[1].name = "metrics-server-with-a-long-name-1".into();
    let tr = compare(&sc).unwrap();
    let fig = layout(&tr, &LayoutOpts::default());
    let cut: Vec<String> = fig
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text {
                text,
                class: "rs-label-pod",
                ..
            } if text.contains('…') => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(!cut.is_empty());
    for c in &cut {
        assert!(c.starts_with("metrics-serv"), "{c}");
        assert!(c.ends_with("…-0") || c.ends_with("…-1"), "{c}");
    }
}
