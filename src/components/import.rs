//! "Import your workload": paste, drop or open Kubernetes YAML or JSON (or a scenario file) and
//! the imported scenario becomes the one on screen (`Settings::for_custom`); the importer's
//! worker is fetched on the first import only (`importer.rs`). The report lists what the model
//! does not use and its notes; the scenario TOML is offered for download, and in place of a
//! link when the scenario is too large for one.

use crate::form::Settings;
use crate::importer::{self, Report, MAX_INPUT};
use crate::ui::Ui;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Reads a dropped or opened file into the textarea (refusing one over 1 MiB).
fn read_file(file: web_sys::File, text: RwSignal<String>, error: RwSignal<String>) {
    if file.size() > MAX_INPUT as f64 {
        error.set(format!(
            "{} is {} bytes; the importer reads at most 1 MiB",
            file.name(),
            file.size()
        ));
        return;
    }
    leptos::task::spawn_local(async move {
        // The bytes, not `file.text()`: that turns a binary file into U+FFFD and no message.
        let bytes = match JsFuture::from(file.array_buffer()).await {
            Ok(buf) => js_sys::Uint8Array::new(&buf).to_vec(),
            Err(_) => return error.set(format!("{} could not be read", file.name())),
        };
        match String::from_utf8(bytes) {
            Ok(t) => {
                text.set(t.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(t));
                error.set(String::new());
            }
            Err(_) => error.set(format!(
                "{} is not UTF-8 text (a binary file?): open a YAML, JSON or TOML file",
                file.name()
            )),
        }
    });
}

/// One value of the last report (empty before the first import).
fn field(report: RwSignal<Option<Report>>, f: impl Fn(&Report) -> String) -> String {
    report.with(|r| r.as_ref().map(f).unwrap_or_default())
}

/// `<li>` items, the text escaped.
fn items(lines: &[String]) -> String {
    let mut out = String::new();
    for l in lines {
        out.push_str("<li>");
        for c in l.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '"' => out.push_str("&quot;"),
                _ => out.push(c),
            }
        }
        out.push_str("</li>");
    }
    out
}

#[component]
pub fn ImportPanel() -> impl IntoView {
    let ui = Ui::get();
    let open = ui.import_open;
    let text = RwSignal::new(String::new());
    let replicas = RwSignal::new(String::new());
    let error = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let report = RwSignal::new(None::<Report>);
    let shareable = RwSignal::new(true);
    let run = move || {
        let t = text.get_untracked();
        if t.trim().is_empty() {
            error.set("paste a manifest, drop a file or open one first".into());
            return;
        }
        if t.len() > MAX_INPUT {
            error.set(format!(
                "the input is {} bytes; the importer reads at most 1 MiB ({MAX_INPUT} bytes)",
                t.len()
            ));
            return;
        }
        let r = replicas.get_untracked().trim().parse::<u32>().ok();
        busy.set(true);
        error.set(String::new());
        importer::import(&t, r, move |out| match out {
            Err(m) => {
                busy.set(false);
                error.set(m);
            }
            Ok((mut im, rep)) => leptos::task::spawn_local(async move {
                im.packed = importer::pack(&im).await;
                shareable.set(im.packed.is_some());
                report.set(Some(rep));
                busy.set(false);
                ui.settings.set(Settings::for_custom(Arc::new(im)));
                ui.playhead.set(0);
                ui.playing.set(!ui.reduced);
            }),
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(f) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|fs| fs.get(0))
        {
            read_file(f, text, error);
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        if let Some(f) = input.and_then(|i| i.files()).and_then(|fs| fs.get(0)) {
            read_file(f, text, error);
        }
    };
    let export = move |_| {
        if let Some(r) = report.get_untracked() {
            let _ = crate::export::download_text(
                "restartscope-imported.toml",
                "application/toml",
                &r.toml,
            );
        }
    };
    // Drop anywhere on the panel (its hint says "drop a file here"): a file dropped outside the
    // text box would otherwise be opened by the browser in place of the app.
    view! {
        <section class="import" id="import-panel" hidden=move || !open.get() aria-label="Import your workload" aria-busy=move || busy.get().to_string()
            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop>
                <h2>"Import your workload"</h2>
                <p class="hint">"Paste Kubernetes YAML or JSON (one or more documents: Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, with their Service and PodDisruptionBudget), drop a file here or open one; a RestartScope scenario file (TOML or JSON) works too."</p>
                <label for="import-text">"Manifests"</label>
                <textarea id="import-text" rows="12" spellcheck="false" aria-describedby="import-error"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <p class="field-error" id="import-error" role="alert">{move || error.get()}</p>
                <div class="import-actions">
                    <label for="import-file">"Open a file"</label>
                    <input id="import-file" type="file" accept=".yaml,.yml,.json,.toml,text/yaml,application/json" on:change=on_file />
                    <label for="import-replicas">"Replicas on this node"</label>
                    <input id="import-replicas" type="number" min="1" step="1" placeholder="all" size="4"
                        prop:value=move || replicas.get() on:input=move |ev| replicas.set(event_target_value(&ev)) />
                    <button id="import-go" type="button" class="primary" disabled=move || busy.get() on:click=move |_| run()>
                        {move || if busy.get() { "Importing…" } else { "Import" }}</button>
                    <span id="import-status" role="status">{move || if busy.get() { "Loading the importer and reading the manifests…" } else { "" }}</span>
                </div>
                <div class="import-report" id="import-report" hidden=move || report.with(|r| r.is_none())>
                    <p>"Imported: "<b>{move || field(report, |r| r.label.clone())}</b></p>
                    <button id="import-export-toml" type="button" on:click=export>"Export as scenario TOML"</button>
                    <p class="notice" id="import-too-large" hidden=move || shareable.get()>"This scenario is too large to share by link: export it as a scenario TOML file and open that file here again."</p>
                    <details id="import-unused">
                        <summary>{move || field(report, |r| format!("Not used by the model ({})", r.unused.len()))}</summary>
                        <ul inner_html=move || field(report, |r| items(&r.unused))></ul>
                    </details>
                    <details id="import-notes">
                        <summary>{move || field(report, |r| format!("Notes ({})", r.notes.len()))}</summary>
                        <ul inner_html=move || field(report, |r| items(&r.notes))></ul>
                    </details>
                </div>
            </section>
    }
}
