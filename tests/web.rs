//! wasm-bindgen-test in headless Chromium: the app's own logic, run as wasm in a real page.
#![cfg(target_arch = "wasm32")]

use restartscope::{app, form, url};
use restartscope_report::kubectl;
use restartscope_sim::presets;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_preset_computes_in_the_browser() {
    for p in presets::PRESETS {
        let runs = app::compute(&form::Settings::for_preset(p.name)).expect("valid preset");
        assert!(runs.svg.starts_with("<svg"));
        assert!(!runs.log.is_empty());
    }
}

#[wasm_bindgen_test]
fn invalid_field_reports_its_name_and_range() {
    let s = form::Settings {
        failure_threshold: "0".into(),
        ..form::Settings::default()
    };
    let errs = app::compute(&s).err().expect("rejected");
    assert_eq!(errs[0].0, form::Field::FailureThreshold);
    assert!(errs[0].1.contains("1 to 100"));
}

#[wasm_bindgen_test]
fn kubectl_panel_shows_the_legacy_flap() {
    let runs = app::compute(&form::Settings::default()).unwrap();
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
