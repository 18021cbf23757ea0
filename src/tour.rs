//! The guided tours in the page (`?tour=kep-4781&step=N`): which step a link names, loading the
//! tour's data when a reader opens it (`tour/NAME.json`, written by `restartscope tour` from
//! `restartscope-tour`: the page carries none of that crate's code, only its data types), and the
//! runs of a step — its scenario simulated for its kubelets, laid out in its window with its marks
//! drawn over the figure; the caption comes filled from the same model's runs. Called by `url.rs`
//! (the link), `lib.rs` (loading before the first mount), `app.rs` (the recompute effect) and
//! `components/tour.rs`.

use crate::state::{assemble, FigureSpec, Runs};
use restartscope_figure::Shape;
use restartscope_sim::simulate_policy;
use restartscope_tour::data::TourData;
use std::cell::RefCell;
use std::rc::Rc;

/// Every tour: its link name, title and number of steps (the data loads on demand; a test
/// checks this table against `restartscope_tour::TOURS`).
pub const TOURS: [(&str, &str, usize); 1] = [(
    "kep-4781",
    "KEP-4781: restarting the kubelet does not change pod status",
    7,
)];

/// What the tour panel shows for the step on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    pub tour: String,
    pub tour_title: String,
    /// Counted from 1.
    pub n: usize,
    pub count: usize,
    pub title: String,
    /// Paragraphs, every number filled from the step's runs.
    pub caption: Vec<String>,
    /// Where the playhead goes when the step opens: the end of its window.
    pub t_end_ms: i64,
    /// The marks drawn in the figure (numbered 1, 2, … there), in time order.
    pub marks: Vec<(i64, String)>,
    /// `(t_ms, question)`: the step opens veiled after `t_ms`, asking `question`; the next key
    /// reveals the rest (`Ui::revealed`).
    pub predict: Option<(i64, String)>,
}

/// How many steps tour `name` has (0: no such tour).
pub fn count(name: &str) -> usize {
    TOURS.iter().find(|t| t.0 == name).map_or(0, |t| t.2)
}

/// `?tour=NAME&step=N` → the tour and step (step 1 when `step` is missing); `Ok(None)` without
/// `tour`; an error names what is wrong (an unknown tour or a step out of range).
pub fn from_link(pairs: &[(String, String)]) -> Result<Option<(String, usize)>, String> {
    let get = |k: &str| pairs.iter().rev().find(|(x, _)| x == k).map(|(_, v)| v);
    let Some(name) = get("tour") else {
        return Ok(None);
    };
    let names: Vec<&str> = TOURS.iter().map(|t| t.0).collect();
    let steps = count(name);
    if steps == 0 {
        return Err(format!(
            "tour={name} ignored: not a tour (one of {})",
            names.join(", ")
        ));
    }
    let n = match get("step") {
        None => 1,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=steps).contains(n))
            .ok_or_else(|| {
                format!("tour={name}&step={v} ignored: the tour has steps 1 to {steps}")
            })?,
    };
    Ok(Some((name.to_string(), n)))
}

thread_local! {
    /// The tours loaded so far.
    static LOADED: RefCell<Vec<Rc<TourData>>> = const { RefCell::new(Vec::new()) };
}

/// Tour `name`'s data if it has been loaded.
pub fn loaded(name: &str) -> Option<Rc<TourData>> {
    LOADED.with(|l| l.borrow().iter().find(|t| t.name == name).cloned())
}

/// Keeps a tour's data (from [`load`], or a test).
pub fn keep(data: TourData) {
    LOADED.with(|l| l.borrow_mut().push(Rc::new(data)));
}

/// Reads `tour/NAME.json` (beside the page) and keeps it, then calls `done` with what went
/// wrong, if anything.
pub fn load(name: &str, done: impl FnOnce(Result<(), String>) + 'static) {
    let url = format!("./tour/{name}.json");
    wasm_bindgen_futures::spawn_local(async move {
        let got = fetch_text(&url)
            .await
            .and_then(|t| TourData::from_json(&t).map_err(|e| format!("{url} is not a tour: {e}")));
        done(got.map(keep));
    });
}

pub async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let fail = |_| format!("{url} could not be loaded");
    let w = web_sys::window().ok_or("no window")?;
    let resp: web_sys::Response = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(fail)?
        .dyn_into()
        .map_err(fail)?;
    if !resp.ok() {
        return Err(format!("{url}: HTTP {}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(fail)?)
        .await
        .map_err(fail)?;
    text.as_string().ok_or_else(|| format!("{url} is not text"))
}

/// Before the first mount: loads the tour a link names (so the page opens on the step), then
/// calls `mount` either way.
pub fn preload(query: &str, mount: impl FnOnce() + 'static) {
    let pairs: Vec<(String, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    match from_link(&pairs) {
        Ok(Some((name, _))) => load(&name, move |_| mount()),
        _ => mount(),
    }
}

/// The settings that show step `n` of `name` in every control (the scenario picker, the downtime
/// and restart sliders, the restart bars, their readouts and aria text): its scenario's own
/// values under its preset's name. `None` when the tour is not loaded or the step's scenario is
/// not a preset's (the controls then keep their values).
pub fn step_settings(name: &str, n: usize) -> Option<crate::form::Settings> {
    let data = loaded(name)?;
    let step = data.steps.get(n.checked_sub(1)?)?;
    let preset = restartscope_sim::presets::find(&step.scenario.name)?;
    Some(crate::form::Settings::of_scenario(
        &step.scenario,
        preset.name,
        None,
    ))
}

/// The runs of step `n` of `name` laid out as `spec` says, in the step's window, with the
/// step's marks over the figure (a dashed line numbered at its foot; the tour panel lists
/// them); `Ok(None)` while the tour's data is not loaded.
pub fn compute(name: &str, n: usize, spec: FigureSpec) -> Result<Option<(Runs, StepView)>, String> {
    let Some(data) = loaded(name) else {
        return Ok(None);
    };
    compute_with(&data, n, spec).map(Some)
}

fn compute_with(tour: &TourData, n: usize, spec: FigureSpec) -> Result<(Runs, StepView), String> {
    let step = n
        .checked_sub(1)
        .and_then(|i| tour.steps.get(i))
        .ok_or_else(|| format!("no step {n}"))?;
    let sc = step.scenario.clone();
    let traces = step
        .policies
        .iter()
        .map(|p| simulate_policy(&sc, *p))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{e:?}"))?;
    let mut runs = assemble(sc, traces, spec, step.window_ms, Default::default());
    let fig = std::sync::Arc::make_mut(&mut runs.figure);
    if let (Some(first), Some(last)) = (fig.groups.first(), fig.groups.last()) {
        let (top, bottom) = (first.y, last.y + last.h);
        for (i, (t, _)) in step.marks.iter().enumerate() {
            let x = fig.x_of(*t);
            if x < fig.x0 || x > fig.x1 {
                continue;
            }
            fig.shapes.push(Shape::Line {
                x1: x,
                y1: top,
                x2: x,
                y2: bottom,
                class: "rs-grace",
            });
            fig.shapes.push(Shape::Text {
                x: x + 3.0,
                y: bottom - 3.0,
                text: (i + 1).to_string(),
                class: "rs-warn",
                anchor: "start",
            });
        }
    }
    let view = StepView {
        tour: tour.name.clone(),
        tour_title: tour.title.clone(),
        n,
        count: tour.steps.len(),
        title: step.title.clone(),
        caption: step.caption.clone(),
        t_end_ms: runs.figure.t1_ms,
        marks: step.marks.clone(),
        predict: step.predict.clone(),
    };
    Ok((runs, view))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::figure_spec;

    fn pairs(q: &str) -> Vec<(String, String)> {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn links_name_a_tour_and_a_step() {
        assert_eq!(from_link(&pairs("a=1")), Ok(None));
        assert_eq!(
            from_link(&pairs("tour=kep-4781&step=3")),
            Ok(Some(("kep-4781".into(), 3)))
        );
        assert_eq!(
            from_link(&pairs("tour=kep-4781")),
            Ok(Some(("kep-4781".into(), 1)))
        );
        assert!(from_link(&pairs("tour=nope"))
            .unwrap_err()
            .contains("not a tour"));
        assert!(from_link(&pairs("tour=kep-4781&step=99"))
            .unwrap_err()
            .contains("steps 1 to"));
    }

    /// The page's table of tours, the committed data it loads and the tour crate agree; every
    /// step computes in every layout, with the tour's own runs.
    #[test]
    fn every_step_of_every_tour_computes_with_its_caption() {
        assert_eq!(TOURS.len(), restartscope_tour::TOURS.len());
        for (t, (name, title, steps)) in restartscope_tour::TOURS.iter().zip(TOURS) {
            assert_eq!((t.name, t.title, t.steps.len()), (name, title, steps));
            let data = t.data().unwrap();
            let path = format!("{}/docs/tour/{name}.json", env!("CARGO_MANIFEST_DIR"));
            let committed: TourData =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert_eq!(committed, data, "docs/tour/{name}.json is stale");
            for (i, s) in t.steps.iter().enumerate() {
                let step = &data.steps[i];
                let traces: Vec<_> = step
                    .policies
                    .iter()
                    .map(|p| simulate_policy(&step.scenario, *p).unwrap())
                    .collect();
                assert_eq!(traces, s.traces().unwrap(), "{name} step {}", i + 1);
            }
            keep(data);
        }
        for t in restartscope_tour::TOURS {
            for n in 1..=t.steps.len() {
                for spec in [
                    figure_spec(false, false, 1200.0, 900.0, 124.0),
                    figure_spec(false, false, 366.0, 844.0, 96.0),
                    figure_spec(true, false, 0.0, 720.0, 0.0),
                    figure_spec(false, true, 480.0, 560.0, 0.0),
                ] {
                    let (runs, view) = compute(t.name, n, spec).unwrap().unwrap();
                    assert_eq!(view.n, n);
                    // The controls show the step: its settings give its scenario back.
                    let st = step_settings(t.name, n).expect("every step is a preset's scenario");
                    let step = &loaded(t.name).unwrap().steps[n - 1];
                    assert_eq!(
                        st.restarts(),
                        step.scenario.kubelet.restarts,
                        "{} step {n}",
                        t.name
                    );
                    assert_eq!(st.preset, step.scenario.name);
                    assert!(!view.caption.is_empty());
                    assert!(runs.figure.t1_ms > runs.figure.t0_ms);
                }
            }
        }
    }
}
