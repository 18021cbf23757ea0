//! The presenter's window of the presenter view (`?present=notes`): the speaker notes of the tour
//! step or scenario on screen (what to say, what the audience should notice, the question to ask
//! and its answer, the rule it shows), the next step, a clock (wall clock and time since the
//! window became the presenter's) and the keyboard shortcuts. The notes are data the page fetches
//! when the panel first shows (`tour/notes.json`, keyed `TOUR/STEP` or by preset name; the service
//! worker caches it with the build). Rendered by `app.rs`; the state it shows is `Ui`'s, kept in
//! step with the audience's window by `present.rs`.

use crate::keys::COMMANDS;
use crate::ui::Ui;
use crate::url::Role;
use leptos::prelude::*;
use restartscope_sim::presets;

/// Each note's fields, in the file and on screen.
const FIELDS: [(&str, &str); 5] = [
    ("say", "Say"),
    ("notice", "Notice"),
    ("ask", "Ask"),
    ("answer", "Answer"),
    ("rule", "Rule"),
];

type Notes = Vec<(String, Vec<String>)>;

/// `{"notes": {KEY: {say, notice, ask, answer, rule}}}` read with the browser's JSON parser.
fn read(text: &str) -> Option<Notes> {
    use wasm_bindgen::JsCast;
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let notes = get(&js_sys::JSON::parse(text).ok()?, "notes")?;
    let entries = js_sys::Object::entries(notes.dyn_ref()?);
    Some(
        entries
            .iter()
            .map(|e| {
                let e = js_sys::Array::from(&e);
                let v = e.get(1);
                let fields = FIELDS
                    .iter()
                    .map(|(k, _)| get(&v, k).and_then(|x| x.as_string()).unwrap_or_default())
                    .collect();
                (e.get(0).as_string().unwrap_or_default(), fields)
            })
            .collect(),
    )
}

fn two(n: f64) -> String {
    format!("{:02}", n as u32)
}

/// The panel's markup: the note of `key` (or why there is none), then beside it the heading, the
/// clock's place, the next step and the keys. Plain markup written in place: a Leptos view of it
/// cost the page several KB.
fn markup(key: &str, notes: &Option<Result<Notes, String>>, next: &str) -> String {
    let e = restartscope_figure::esc;
    let body = match notes {
        None => "<p>Loading the notes…</p>".to_string(),
        Some(Err(why)) => format!("<p class=\"field-error\">{}</p>", e(why)),
        Some(Ok(all)) => match all.iter().find(|(k, _)| k == key) {
            Some((_, f)) => FIELDS
                .iter()
                .zip(f)
                .map(|((_, label), text)| format!("<dt>{label}</dt><dd>{}</dd>", e(text)))
                .collect::<Vec<_>>()
                .join(""),
            None => "<p>No notes for this scenario.</p>".into(),
        },
    };
    let keys: String = COMMANDS
        .iter()
        .filter(|c| !c.keys.is_empty())
        .map(|c| format!("<li><kbd>{}</kbd> {}</li>", c.shown, c.what))
        .collect();
    format!(
        "<div class=\"notes-text\"><dl>{body}</dl></div>\
         <div class=\"notes-side\"><h2>Speaker notes<span class=\"notes-key\">{}</span></h2>\
         <p id=\"presenter-clock\" class=\"notes-clock\"></p>\
         <p id=\"presenter-next\"><b>Next: </b>{}</p>\
         <ul class=\"notes-keys\" aria-label=\"Keyboard shortcuts\">{keys}</ul></div>",
        e(key),
        e(next)
    )
}

#[component]
pub fn Presenter() -> impl IntoView {
    let ui = Ui::get();
    let notes = RwSignal::new(None::<Result<Notes, String>>);
    let tick = RwSignal::new(0u32);
    let started = js_sys::Date::now();
    let el = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) || ui.role.get() != Some(Role::Notes) {
            return done.unwrap_or(false);
        }
        wasm_bindgen_futures::spawn_local(async move {
            let url = "./tour/notes.json";
            let got = crate::tour::fetch_text(url)
                .await
                .and_then(|t| read(&t).ok_or_else(|| format!("{url} is not speaker notes")));
            let _ = notes.try_set(Some(got));
        });
        let i = gloo_timers::callback::Interval::new(1000, move || {
            let _ = tick.try_update(|t| *t += 1);
        });
        std::mem::forget(i);
        true
    });
    // Bumped when a tour this window loads for its notes arrives.
    let tour_loaded = RwSignal::new(0u32);
    let asked = StoredValue::new(Vec::<String>::new());
    let shown = StoredValue::new(String::new());
    // The note, the next step and the keys when the step or scenario changes.
    Effect::new(move |_| {
        tour_loaded.track();
        let Some(el) = el.get() else { return };
        if ui.role.get() != Some(Role::Notes) {
            return;
        }
        // The tour step on screen (`TOUR/STEP`), else the scenario's preset.
        let (key, next) = match ui.tour.get() {
            Some((name, n)) => {
                // The end only past the tour's last step; a tour this window has not loaded yet
                // (started with T in the audience window) is loaded, and its next step named
                // by number meanwhile.
                let steps = crate::tour::count(&name);
                let next = if n >= steps {
                    "the end of the tour (Esc leaves it)".to_string()
                } else if let Some(t) = crate::tour::loaded(&name) {
                    t.steps
                        .get(n)
                        .map(|s| format!("Step {}: {}", n + 1, s.title))
                        .unwrap_or_else(|| format!("Step {} of {steps}", n + 1))
                } else {
                    if !asked.with_value(|a| a.contains(&name)) {
                        asked.update_value(|a| a.push(name.clone()));
                        let again = tour_loaded;
                        crate::tour::load(&name, move |_| {
                            let _ = again.try_update(|v| *v += 1);
                        });
                    }
                    format!("Step {} of {steps}", n + 1)
                };
                (format!("{name}/{n}"), next)
            }
            None => {
                let p = ui.settings.with(|s| s.preset.clone());
                let i = presets::PRESETS.iter().position(|x| x.name == p);
                let n = presets::PRESETS[i.map_or(0, |i| (i + 1) % presets::PRESETS.len())].name;
                (p, format!("scenario {n} (or T: the tour)"))
            }
        };
        // Written only when it changes: the settings change on every move of a slider, the note
        // only with the scenario or the step.
        let html = notes.with(|n| markup(&key, n, &next));
        if shown.with_value(|s| *s != html) {
            el.set_inner_html(&html);
            shown.set_value(html);
            tick.update(|t| *t += 1);
        }
    });
    // The clock, every second.
    Effect::new(move |_| {
        tick.track();
        let Some(c) = el
            .get()
            .and_then(|el| el.query_selector("#presenter-clock").ok().flatten())
        else {
            return;
        };
        let d = js_sys::Date::new_0();
        let since = (js_sys::Date::now() - started) / 1000.0;
        c.set_text_content(Some(&format!(
            "{}:{}:{} · {}:{} elapsed",
            two(d.get_hours() as f64),
            two(d.get_minutes() as f64),
            two(d.get_seconds() as f64),
            two(since / 60.0),
            two(since % 60.0)
        )));
    });
    view! {
        <section class="notes" id="speaker-notes" aria-label="Speaker notes" node_ref=el
            hidden=move || ui.role.get() != Some(Role::Notes)></section>
    }
}

#[cfg(test)]
mod tests {
    use super::FIELDS;

    /// The committed speaker notes have every field for every step of every tour and for every
    /// preset, and a step that asks the audience to predict asks in the notes what it asks on
    /// screen.
    #[test]
    fn every_tour_step_and_every_preset_has_a_speaker_note() {
        let dir = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{dir}/docs/tour/notes.json")).unwrap();
        let notes: serde_json::Value = serde_json::from_str(&text).unwrap();
        let notes = notes["notes"].as_object().unwrap();
        let mut keys: Vec<(String, Option<String>)> = restartscope_sim::presets::PRESETS
            .iter()
            .map(|p| (p.name.to_string(), None))
            .collect();
        for (name, _, steps) in crate::tour::TOURS {
            let path = format!("{dir}/docs/tour/{name}.json");
            let tour: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            for n in 1..=steps {
                let ask = tour["steps"][n - 1]["predict"][1]
                    .as_str()
                    .map(String::from);
                keys.push((format!("{name}/{n}"), ask));
            }
        }
        for (key, ask) in &keys {
            let note = notes
                .get(key)
                .unwrap_or_else(|| panic!("no note for {key}"));
            for (f, _) in FIELDS {
                let v = note[f].as_str().unwrap_or_default();
                assert!(v.len() > 20, "{key}: {f} is missing or too short: {v:?}");
            }
            if let Some(ask) = ask {
                assert_eq!(note["ask"].as_str(), Some(ask.as_str()), "{key}");
            }
        }
        assert_eq!(notes.len(), keys.len(), "a note for no step or preset");
    }
}
