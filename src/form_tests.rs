//! Tests of `form.rs`: the settings, their ranges and the scenario they describe.

use super::*;
use restartscope_sim::{ProbeField, ProbeKind};

#[test]
fn every_preset_builds_from_its_own_settings() {
    for p in presets::PRESETS {
        let s = Settings::for_preset(p.name);
        let sc = s.scenario().unwrap_or_else(|e| panic!("{}: {e:?}", p.name));
        // The untouched fields change nothing; the restart sets the horizon by the one rule.
        let preset = (p.build)();
        let r = preset.kubelet.restarts[0].clone();
        assert_eq!(sc, preset.with_restart(r.at_s, r.downtime_s), "{}", p.name);
    }
}

#[test]
fn bad_fields_are_named_with_their_range() {
    let mut s = Settings {
        grace_s: "abc".into(),
        ..Settings::default()
    };
    set_probe(&mut s, ProbeKind::Readiness, ProbeField::Period, "x");
    let errs = s.scenario().unwrap_err();
    assert!(errs
        .iter()
        .any(|(f, m)| *f == Field::Grace && m.contains("5 to 600")));
    let cell = Field::Probe(Cell {
        container: 0,
        kind: ProbeKind::Readiness,
        field: Some(ProbeField::Period),
    });
    assert!(errs.contains(&(
        cell,
        "containers[app].readinessProbe.periodSeconds must be a whole number; got \"x\"".into()
    )));
    // Model validation is mapped back to the form field, once, in Kubernetes' words: the
    // lease (renewed every 10–10.4 s) plus one 5 s NLC pass do not fit in a 10 s grace period.
    let s = Settings {
        grace_s: "10".into(),
        ..Settings::default()
    };
    let errs = s.scenario().unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].0, Field::Grace);
    assert!(
        errs[0]
            .1
            .starts_with("--node-monitor-grace-period must be above 15.4s"),
        "{errs:?}"
    );
}

#[test]
fn grace_toleration_and_first_sync_take_durations() {
    let s = Settings {
        grace_s: "1m30s".into(),
        toleration_s: "5m".into(),
        first_sync_s: "2s".into(),
        ..Settings::default()
    };
    let sc = s.scenario().unwrap();
    assert_eq!(sc.cluster.grace_s(), 90.0);
    assert_eq!(sc.cluster.toleration_s, 300.0);
    assert_eq!(sc.kubelet.first_sync_delay_s, 2.0);
    let s = Settings {
        toleration_s: "5 minutes".into(),
        ..Settings::default()
    };
    let errs = s.scenario().unwrap_err();
    assert_eq!(errs[0].0, Field::Toleration);
    assert!(errs[0].1.starts_with("tolerationSeconds"), "{errs:?}");
    assert!(errs[0].1.contains("like 40, 5m or 1m30s"), "{errs:?}");
}

#[test]
fn a_probe_as_long_as_its_period_is_accepted() {
    // periodSeconds 1 with timeoutSeconds 1 (and a probe that takes the whole second) is
    // common and valid in Kubernetes.
    let mut s = Settings::default();
    set_probe(&mut s, ProbeKind::Readiness, ProbeField::Period, "1");
    set_probe(&mut s, ProbeKind::Readiness, ProbeField::Exec, "1");
    let sc = s.scenario().unwrap();
    let p = sc.pods[0].containers[0].readiness_probe.as_ref().unwrap();
    assert_eq!((p.period_s, p.timeout_s, p.exec_s), (1, 1, 1.0));
}

fn set_probe(s: &mut Settings, kind: ProbeKind, f: ProbeField, v: &str) {
    set_probe_in(s, 0, kind, f, v);
}

fn set_probe_in(s: &mut Settings, row: usize, kind: ProbeKind, f: ProbeField, v: &str) {
    let i = ProbeField::ALL.iter().position(|x| *x == f).unwrap();
    s.probes[row].probes[kind.index()].get_or_insert_with(|| probes::texts(&Default::default()))
        [i] = v.into();
}

#[test]
fn pods_and_probes_are_knobs_with_messages_at_their_cells() {
    let mut s = Settings {
        pods: "12".into(),
        ..Settings::default()
    };
    // Add a liveness probe (Kubernetes defaults) with a 5 s period.
    set_probe(&mut s, ProbeKind::Liveness, ProbeField::Period, "5");
    let sc = s.scenario().unwrap();
    assert_eq!(sc.pods.len(), 12);
    assert_eq!(sc.pods[11].name, "web-11");
    assert!(sc
        .pods
        .iter()
        .all(|p| p.containers[0].liveness_probe.as_ref().unwrap().period_s == 5));
    // Kubernetes' rules come from the model, at their cells, once for every pod.
    set_probe(&mut s, ProbeKind::Liveness, ProbeField::Success, "2");
    set_probe(&mut s, ProbeKind::Readiness, ProbeField::Period, "0");
    s.pods = "111".into();
    let errs = s.scenario().unwrap_err();
    let cell = |kind, f| {
        Field::Probe(Cell {
            container: 0,
            kind,
            field: Some(f),
        })
    };
    assert_eq!(
        errs,
        [
            (Field::Pods, "pods must be between 1 and 110, got 111: 110 is the kubelet's default maxPods, the most pods one node runs".to_string())
        ]
    );
    s.pods = "3".into();
    let errs = s.scenario().unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs.contains(&(
        cell(ProbeKind::Liveness, ProbeField::Success),
        "containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2"
            .into()
    )));
    assert!(errs.iter().any(|(f, m)| *f == cell(ProbeKind::Readiness, ProbeField::Period)
        && m.starts_with("containers[app].readinessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0")));
    // Removing a probe.
    let mut s = Settings::default();
    s.probes[0].probes[ProbeKind::Readiness.index()] = None;
    let sc = s.scenario().unwrap();
    assert!(sc
        .pods
        .iter()
        .all(|p| p.containers[0].readiness_probe.is_none()));
}

#[test]
fn every_release_is_a_setting() {
    assert_eq!(
        versions_text(),
        "a Kubernetes release from 1.30 to 1.38 with its patch (1.36.4) or main; profiles 1.30, 1.31, 1.34, 1.35, 1.35.4, 1.36, 1.37, 1.38 or main"
    );
    for v in KubeVersion::releases() {
        let s = Settings {
            version: v.as_str().into(),
            ..Settings::default()
        };
        assert_eq!(s.scenario().unwrap().cluster.version, v);
    }
    let s = Settings {
        version: "1.29".into(),
        ..Settings::default()
    };
    let errs = s.scenario().unwrap_err();
    assert!(
        errs[0]
            .1
            .contains("older than the oldest release the model knows, 1.30"),
        "{errs:?}"
    );
}

#[test]
fn slider_steps_are_fine_at_short_durations() {
    let st = downtime_steps();
    assert_eq!(st[0], 0.0);
    assert_eq!(st[20], 20.0);
    assert_eq!(*st.last().unwrap(), 3600.0);
    assert!(st.contains(&600.0) && st.contains(&1860.0) && st.contains(&2700.0));
    assert!(st.windows(2).all(|w| w[1] > w[0]));
    assert_eq!(st[downtime_pos(90.0)], 90.0);
    assert_eq!(st[downtime_pos(93.0)], 95.0);
}

/// Four single-pod workloads whose `app` containers probe in two ways: `frontend` and `api`
/// every 10 s, `cart` and `checkout` every 3 s.
fn shop() -> std::sync::Arc<crate::custom::Imported> {
    let mut sc =
        crate::probes::deployments(&[("frontend", 1), ("cart", 1), ("checkout", 1), ("api", 1)]);
    for p in &mut sc.pods[1..3] {
        p.containers[0].readiness_probe.as_mut().unwrap().period_s = 3;
    }
    let mut im = crate::imported::checked(sc, Some("four Deployments")).unwrap();
    im.packed = Some("abc".into());
    std::sync::Arc::new(im)
}

#[test]
fn workloads_with_identical_probes_share_a_row_and_an_edit_there_changes_each() {
    use crate::url::{parse_with, to_query};
    let im = shop();
    let s = Settings::for_custom(im.clone());
    let rows: Vec<String> = s.probes.iter().map(|c| c.label()).collect();
    assert_eq!(rows, ["frontend, api/app", "cart, checkout/app"]);
    let periods = |s: &Settings| -> Vec<u32> {
        s.scenario()
            .unwrap()
            .pods
            .iter()
            .map(|p| p.containers[0].readiness_probe.as_ref().unwrap().period_s)
            .collect()
    };
    assert_eq!(periods(&s), [10, 3, 3, 10]);
    // An edit of the shared row changes cart's and checkout's pods, not the others.
    let mut edited = s.clone();
    set_probe_in(
        &mut edited,
        1,
        ProbeKind::Readiness,
        ProbeField::Period,
        "7",
    );
    assert_eq!(periods(&edited), [10, 7, 7, 10]);
    // The link names each workload and reads back to the same rows and runs.
    let st = crate::url::UrlState {
        settings: edited.clone(),
        ..Default::default()
    };
    let q = to_query(&st);
    assert!(
        q.contains("&cart/app.readinessProbe.periodSeconds=7")
            && q.contains("&checkout/app.readinessProbe.periodSeconds=7"),
        "{q}"
    );
    assert!(!q.contains("frontend/") && !q.contains("api/"), "{q}");
    let (back, notes) = parse_with(&q, Some(im.clone()));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back.settings.probes, edited.probes);
    assert_eq!(back.settings.scenario(), edited.scenario());
    // A key for one of them alone gives it its own row; the rest keep theirs.
    let (one, _) = parse_with(
        "checkout/app.readinessProbe.periodSeconds=9",
        Some(im.clone()),
    );
    let rows: Vec<String> = one.settings.probes.iter().map(|c| c.label()).collect();
    assert_eq!(rows, ["frontend, api/app", "checkout/app", "cart/app"]);
    assert_eq!(periods(&one.settings), [10, 3, 9, 10]);
    // An unparsable text is one message, in the shared row's cell.
    set_probe_in(
        &mut edited,
        1,
        ProbeKind::Readiness,
        ProbeField::Period,
        "x",
    );
    let errs = edited.scenario().unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(matches!(errs[0].0, Field::Probe(c) if c.container == 1));
}

/// A slider drag across every downtime, up and back, at the sizes people use: each run's figure
/// (its pods and height) is the one a fresh search finds (`fit::most_pods` checks its last
/// answer first).
#[test]
fn the_pods_a_figure_draws_do_not_depend_on_the_runs_before_it() {
    use crate::state::{compute_for, figure_spec};
    for (w, h) in [
        (1392.0, 900.0),
        (1232.0, 720.0),
        (390.0, 844.0),
        (1318.0, 768.0),
    ] {
        for preset in ["short-restart", "eviction", "daemonset-long-outage"] {
            let spec = figure_spec(false, false, w, h, crate::state::figure_top_guess(w));
            let mut downs: Vec<u32> = (1..=40).map(|i| i * 12).collect();
            downs.extend(downs.clone().into_iter().rev());
            for d in downs {
                let mut s = Settings::for_preset(preset);
                s.downtime_s = f64::from(d);
                let dragged = compute_for(&s, spec, None).unwrap();
                crate::fit::forget();
                let fresh = compute_for(&s, spec, None).unwrap();
                assert_eq!(
                    (dragged.figure.height, dragged.figure.shapes.len()),
                    (fresh.figure.height, fresh.figure.shapes.len()),
                    "{preset} at {w}×{h}, downtime {d}s"
                );
                let _ = compute_for(&s, spec, None);
            }
        }
    }
}

/// The figure a run gets is the full layout with the most pods that fit the height, or the
/// compact one where that draws more pods (or, where even one pod does not fit, is shorter):
/// laid out pod count by pod count here, against `assemble`'s shortcuts (the last answer
/// first, the full layout with every pod before the compact one).
#[test]
fn the_figure_is_the_one_with_the_most_pods_that_fit() {
    use crate::state::{compute_for, figure_spec, FigureSpec};
    for (w, h) in [
        (1392.0, 900.0),
        (1232.0, 720.0),
        (1318.0, 768.0),
        (1392.0, 600.0),
    ] {
        for preset in ["short-restart", "eviction", "daemonset-long-outage"] {
            let spec = figure_spec(false, false, w, h, crate::state::figure_top_guess(w));
            for d in [5u32, 40, 90, 300] {
                let mut s = Settings::for_preset(preset);
                s.downtime_s = f64::from(d);
                let lay = |compact: bool, p: usize| {
                    let one = FigureSpec {
                        compact,
                        compact_fallback: false,
                        max_pods: p,
                        max_height: None,
                        ..spec
                    };
                    compute_for(&s, one, None).unwrap().figure
                };
                let fits =
                    |f: &restartscope_figure::Figure| spec.max_height.is_none_or(|m| f.height <= m);
                let shown = s.scenario().unwrap().pods.len().clamp(1, spec.max_pods);
                let best = |compact: bool| {
                    (1..=shown)
                        .rev()
                        .find(|&p| fits(&lay(compact, p)))
                        .unwrap_or(1)
                };
                let pods = best(false);
                let mut want = (lay(false, pods), pods);
                if pods < shown || !fits(&want.0) {
                    let small_pods = best(true);
                    let small = lay(true, small_pods);
                    if small_pods > pods || (!fits(&want.0) && small.height < want.0.height) {
                        want = (small, small_pods);
                    }
                }
                let got = compute_for(&s, spec, None).unwrap();
                assert_eq!(
                    (
                        got.figure.height,
                        got.figure.shapes.len(),
                        got.pods_left_out
                    ),
                    (
                        want.0.height,
                        want.0.shapes.len(),
                        s.scenario().unwrap().pods.len() - want.1
                    ),
                    "{preset} at {w}×{h}, downtime {d}s"
                );
            }
        }
    }
}
