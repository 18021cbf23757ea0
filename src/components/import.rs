//! "Import your workload": paste, drop or open Kubernetes YAML or JSON (or a scenario file) and
//! the imported scenario becomes the one on screen (`Settings::for_custom`); the importer's
//! worker is fetched on the first import only (`importer.rs`). The report lists what the model
//! does not use and its notes; the scenario TOML is offered for download, and in place of a
//! link when the scenario is too large for one. The panel is static markup (`PANEL`) whose
//! few changing parts are set in place (`busy`, `say`, `show_report`), its events handled on
//! the panel: a Leptos view of it cost the page 4.8 KB of gzip wasm.

use crate::form::Settings;
use crate::importer::{self, Report, MAX_INPUT};
use crate::ui::Ui;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

const PANEL: &str = concat!(
    "<h2>Import your workload</h2>",
    "<p class=\"hint\">Paste Kubernetes YAML or JSON (one or more documents: Pod, Deployment, \
     StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, with their Service and \
     PodDisruptionBudget), drop files here or open them; a RestartScope scenario file (TOML or \
     JSON) works too. Or paste an incident's evidence — a <code>kubectl get pods -w</code> \
     transcript, <code>kubectl get events -o json|yaml</code>, an audit log, kubelet logs, a pod's YAML — \
     and <b>Replay as evidence</b>: what was observed is drawn under each modelled pod, with the \
     known bug that explains it best; several files (the transcript, the events, the kubelet's \
     log) are read together, each on its own clock. Nothing leaves the browser.</p>",
    "<label for=\"import-text\">Manifests</label>",
    "<textarea id=\"import-text\" rows=\"12\" spellcheck=\"false\" aria-describedby=\"import-error\"></textarea>",
    "<p class=\"field-error\" id=\"import-error\" role=\"alert\"></p>",
    "<p class=\"import-files\" id=\"import-files\" hidden><span></span> \
     <button id=\"import-files-clear\" type=\"button\">Clear the files</button></p>",
    "<div class=\"import-actions\">",
    "<label for=\"import-file\">Open files</label>",
    "<input id=\"import-file\" type=\"file\" multiple \
     accept=\".yaml,.yml,.json,.toml,.txt,.log,.jsonl,text/yaml,application/json,text/plain\">",
    "<label for=\"import-replicas\">Replicas on this node</label>",
    "<input id=\"import-replicas\" type=\"number\" min=\"1\" step=\"1\" placeholder=\"all\" size=\"4\">",
    "<button id=\"import-go\" type=\"button\" class=\"primary\">Import</button>",
    "<button id=\"import-replay\" type=\"button\" title=\"Read the text as an incident's evidence (kubectl get pods -w, events, an audit log, kubelet logs, a pod's YAML) and draw what was observed beside the model\">Replay as evidence</button>",
    "<span id=\"import-status\" role=\"status\"></span>",
    "</div>",
    "<div class=\"import-report\" id=\"import-report\" hidden>",
    "<p>Imported: <b id=\"import-label\"></b></p>",
    "<button id=\"import-export-toml\" type=\"button\">Export as scenario TOML</button>",
    "<p class=\"notice\" id=\"import-too-large\" hidden>This scenario is too large to share by \
     link: export it as a scenario TOML file and open that file here again.</p>",
    "<details id=\"import-ranking\" open hidden><summary></summary><ul></ul></details>",
    "<details id=\"import-beside\" open hidden><summary></summary><ul></ul></details>",
    "<details id=\"import-settings\" open hidden><summary></summary><ul></ul></details>",
    "<details id=\"import-unused\"><summary></summary><ul></ul></details>",
    "<details id=\"import-notes\"><summary></summary><ul></ul></details>",
    "</div>",
);

fn el(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn set_text(id: &str, text: &str) {
    if let Some(e) = el(id) {
        e.set_text_content(Some(text));
    }
}

fn set_hidden(id: &str, hidden: bool) {
    if let Some(e) = el(id) {
        let _ = e.toggle_attribute_with_force("hidden", hidden);
    }
}

/// A message under the text box (empty: none).
fn say(msg: &str) {
    set_text("import-error", msg);
}

/// The value of an input or the text box.
fn value(id: &str) -> String {
    let e = el(id);
    if let Some(t) = e
        .as_ref()
        .and_then(|e| e.dyn_ref::<web_sys::HtmlTextAreaElement>())
    {
        return t.value();
    }
    e.and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

/// Importing: the button disabled and worded so, the status said.
fn busy(on: bool) {
    if let Some(p) = el("import-panel") {
        let _ = p.set_attribute("aria-busy", if on { "true" } else { "false" });
    }
    if let Some(b) = el("import-go") {
        let _ = b.toggle_attribute_with_force("disabled", on);
        b.set_text_content(Some(if on { "Importing…" } else { "Import" }));
    }
    if let Some(b) = el("import-replay") {
        let _ = b.toggle_attribute_with_force("disabled", on);
    }
    set_text(
        "import-status",
        if on {
            "Loading the importer and reading the manifests…"
        } else {
            ""
        },
    );
}

/// A `<details>`' summary and items (the text escaped by the DOM).
fn fill_list(id: &str, title: &str, lines: &[String]) {
    let Some(d) = el(id) else { return };
    if let Some(s) = d.query_selector("summary").ok().flatten() {
        s.set_text_content(Some(&format!("{title} ({})", lines.len())));
    }
    let (Some(ul), Some(doc)) = (
        d.query_selector("ul").ok().flatten(),
        web_sys::window().and_then(|w| w.document()),
    ) else {
        return;
    };
    ul.set_text_content(None);
    for l in lines {
        if let Ok(li) = doc.create_element("li") {
            li.set_text_content(Some(l));
            let _ = ul.append_child(&li);
        }
    }
}

fn show_report(r: &Report, shareable: bool) {
    set_text("import-label", &r.label);
    set_hidden("import-too-large", shareable);
    fill_list(
        "import-ranking",
        "The answer, then the candidates (score 0–100)",
        &r.ranking,
    );
    set_hidden("import-ranking", r.ranking.is_empty());
    fill_list("import-beside", "Beside the model, per pod", &r.beside);
    set_hidden("import-beside", r.beside.is_empty());
    fill_list("import-settings", "Cluster settings read", &r.settings);
    set_hidden("import-settings", r.settings.is_empty());
    fill_list("import-unused", "Not used by the model", &r.unused);
    fill_list("import-notes", "Notes", &r.notes);
    set_hidden("import-report", false);
}

/// Files opened or dropped together (more than one): (name, text), sent beside the text box.
type Opened = StoredValue<Vec<(String, String)>>;

/// The text of `file`, or what is wrong with it.
async fn file_text(file: &web_sys::File) -> Result<String, String> {
    if file.size() > MAX_INPUT as f64 {
        return Err(format!(
            "{} is {} bytes; the importer reads at most 1 MiB",
            file.name(),
            file.size()
        ));
    }
    // The bytes, not `file.text()`: that turns a binary file into U+FFFD and no message.
    let bytes = match JsFuture::from(file.array_buffer()).await {
        Ok(buf) => js_sys::Uint8Array::new(&buf).to_vec(),
        Err(_) => return Err(format!("{} could not be read", file.name())),
    };
    match String::from_utf8(bytes) {
        Ok(t) => Ok(t.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(t)),
        Err(_) => Err(format!(
            "{} is not UTF-8 text (a binary file?): open YAML, JSON, TOML or a log",
            file.name()
        )),
    }
}

fn set_text_box(t: &str) {
    if let Some(a) =
        el("import-text").and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        a.set_value(t);
    }
}

/// The list of files opened together, said above the buttons (hidden when there is none).
fn show_opened(opened: Opened) {
    let names = opened.with_value(|o| o.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    if let Some(span) = el("import-files").and_then(|p| p.query_selector("span").ok().flatten()) {
        span.set_text_content(Some(&format!(
            "{} files opened, read together (with any text pasted above): {}.",
            names.len(),
            names.join(", ")
        )));
    }
    set_hidden("import-files", names.is_empty());
}

/// Reads opened or dropped files: one into the text box (as before); several kept as a list
/// (the text box emptied), each read on its own by the importer.
fn read_files(files: web_sys::FileList, opened: Opened) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    if files.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        let mut texts = Vec::new();
        for f in &files {
            match file_text(f).await {
                Ok(t) => texts.push((f.name(), t)),
                Err(m) => return say(&m),
            }
        }
        say("");
        if texts.len() == 1 {
            set_text_box(&texts[0].1);
            opened.set_value(Vec::new());
        } else {
            set_text_box("");
            opened.set_value(texts);
        }
        show_opened(opened);
    });
}

/// Sends the text box (and the files opened together) to the importer; the answer becomes the
/// scenario on screen.
fn run(ui: Ui, toml: StoredValue<Option<String>>, opened: Opened, evidence: bool) {
    let t = value("import-text");
    if t.trim().is_empty() && opened.with_value(Vec::is_empty) {
        return say("paste a manifest, drop a file or open one first");
    }
    // Over MAX_INPUT: `importer::import` answers at once with the message.
    let r = value("import-replicas").trim().parse::<u32>().ok();
    busy(true);
    say("");
    let files = opened.get_value();
    importer::import(&t, &files, r, evidence, move |out| match out {
        Err(m) => {
            busy(false);
            say(&m);
        }
        Ok((mut im, rep)) => leptos::task::spawn_local(async move {
            im.packed = importer::pack(&im).await;
            show_report(&rep, im.packed.is_some());
            toml.set_value(Some(rep.toml));
            busy(false);
            ui.settings.set(Settings::for_custom(Arc::new(im)));
            ui.playhead.set(0);
            ui.playing.set(!ui.reduced);
        }),
    });
}

/// The id of the element an event came from.
fn target_id(ev: &web_sys::Event) -> String {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|e| e.id())
        .unwrap_or_default()
}

#[component]
pub fn ImportPanel() -> impl IntoView {
    let ui = Ui::get();
    let open = ui.import_open;
    // The last import's scenario as TOML, for "export as scenario TOML".
    let toml = StoredValue::new(None::<String>);
    let opened: Opened = StoredValue::new(Vec::new());
    let on_click = move |ev: web_sys::MouseEvent| match target_id(&ev).as_str() {
        "import-go" => run(ui, toml, opened, false),
        "import-replay" => run(ui, toml, opened, true),
        "import-files-clear" => {
            opened.set_value(Vec::new());
            show_opened(opened);
        }
        "import-export-toml" => {
            toml.with_value(|t| {
                if let Some(t) = t {
                    let _ = crate::export::download_text(
                        "restartscope-imported.toml",
                        "application/toml",
                        t,
                    );
                }
            });
        }
        _ => {}
    };
    let on_change = move |ev: web_sys::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        if let Some(i) = input.filter(|i| i.id() == "import-file") {
            if let Some(fs) = i.files() {
                read_files(fs, opened);
            }
        }
    };
    // Drop anywhere on the panel (its hint says "drop a file here"): a file dropped outside the
    // text box would otherwise be opened by the browser in place of the app.
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(fs) = ev.data_transfer().and_then(|d| d.files()) {
            read_files(fs, opened);
        }
    };
    view! {
        <section class="import" id="import-panel" hidden=move || !open.get() aria-label="Import your workload" aria-busy="false"
            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop on:click=on_click on:change=on_change inner_html=PANEL></section>
    }
}
