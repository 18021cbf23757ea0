//! wasm-bindgen-test in headless Chromium: the app's own logic, run as wasm in a real page.
#![cfg(target_arch = "wasm32")]

use restartscope::{app, form, state, url};
use restartscope_report::kubectl;
use restartscope_sim::presets;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_preset_computes_in_the_browser() {
    for p in presets::PRESETS {
        let runs = state::compute(&form::Settings::for_preset(p.name)).expect("valid preset");
        assert!(runs.figure.to_svg().starts_with("<svg"));
        assert!(!runs.log.is_empty());
    }
}

#[wasm_bindgen_test]
fn invalid_field_reports_its_name_and_range() {
    let mut s = form::Settings::default();
    // app's readiness failureThreshold (the fifth field of the probe table).
    s.probes[0].probes[1].as_mut().unwrap()[4] = "0".into();
    let errs = state::compute(&s).err().expect("rejected");
    assert!(matches!(errs[0].0, form::Field::Probe(_)), "{errs:?}");
    assert!(errs[0]
        .1
        .starts_with("containers[app].readinessProbe.failureThreshold must be at least 1"));
}

#[wasm_bindgen_test]
fn a_release_before_1_35_computes_one_run() {
    let s = form::Settings {
        version: "1.31".into(),
        ..form::Settings::default()
    };
    let runs = state::compute(&s).expect("1.31 runs the legacy kubelet");
    assert_eq!(runs.traces.len(), 1);
    assert_eq!(runs.lanes()[0].kubelet, "1.31 · default (legacy)");
}

#[wasm_bindgen_test]
fn kubectl_panel_shows_the_legacy_flap() {
    let runs = state::compute(&form::Settings::default()).unwrap();
    let rows = kubectl::rows(&runs.timelines[0], runs.horizon);
    assert!(rows.iter().any(|r| !r.condition_ready));
    assert!(kubectl::rows(&runs.timelines[1], runs.horizon)
        .iter()
        .all(|r| r.condition_ready));
}

#[wasm_bindgen_test]
async fn slider_moves_the_downtime_text() {
    leptos::mount::mount_to_body(app::App);
    let doc = web_sys::window().unwrap().document().unwrap();
    let slider: web_sys::HtmlInputElement = doc
        .get_element_by_id("downtime")
        .unwrap()
        .dyn_into()
        .unwrap();
    slider.set_value(&form::downtime_pos(90.0).to_string());
    let ev = web_sys::Event::new("input").unwrap();
    slider.dispatch_event(&ev).unwrap();
    gloo_timers::future::TimeoutFuture::new(50).await;
    let out = doc.get_element_by_id("downtime-value").unwrap();
    assert_eq!(out.text_content().unwrap(), "1m30s");
    assert_eq!(
        slider.get_attribute("aria-valuetext").unwrap(),
        "1 minute 30 seconds"
    );

    // Choosing a release: one run before 1.35 (no error), two labelled with the release after.
    let version: web_sys::HtmlSelectElement = doc
        .get_element_by_id("version")
        .unwrap()
        .dyn_into()
        .unwrap();
    let count = |sel: &str| doc.query_selector_all(sel).unwrap().length();
    let text = |sel: &str| {
        doc.query_selector(sel)
            .unwrap()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    // Every release the model knows (77: 1.30, 1.31 to 1.38 with their patches, and main).
    assert_eq!(version.length(), 77);
    for (v, runs, first) in [
        ("1.34", 1, "1.34 · default (legacy)"),
        ("main", 2, "main · legacy (opt-in gate)"),
    ] {
        version.set_value(v);
        version
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
        gloo_timers::future::TimeoutFuture::new(50).await;
        assert_eq!(count(".why-col"), runs, "{v}");
        assert_eq!(count(".kubectl"), runs, "{v}");
        assert_eq!(count("#metric-ready_transitions .vals > span"), runs, "{v}");
        assert_eq!(count("#metric-ready_transitions .delta"), runs - 1, "{v}");
        assert_eq!(text(".why-col .badge"), first);
        let errors: String = (0..count(".field-error"))
            .map(|i| {
                doc.query_selector_all(".field-error")
                    .unwrap()
                    .item(i)
                    .and_then(|n| n.text_content())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(errors, "", "{v}");
    }
}

#[wasm_bindgen_test]
fn url_state_round_trips_and_names_bad_parameters() {
    let (st, notes) = url::parse("?preset=eviction&downtime=7m&grace=abc&x=%3Cb%3E");
    assert_eq!(st.settings.preset, "eviction");
    assert_eq!(st.settings.downtime_s, 420.0);
    assert_eq!(notes.len(), 2);
    let (back, none) = url::parse(&url::to_query(&st));
    assert!(none.is_empty());
    assert_eq!(back, st);
}
