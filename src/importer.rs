//! The importer's Web Worker (`crates/import-web`, built into `dist/import/`), started on the
//! first import only: until then the page has not downloaded the YAML parser. Requests and
//! answers are JSON strings; the answer is read into an [`Outcome`] (the scenario validated
//! again by the model, `imported.rs`).

use crate::imported::{b64_encode, checked, Imported, MAX_PACKED};
use restartscope_figure::ObservedPod;
use restartscope_sim::json;
use restartscope_sim::Scenario;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

/// The worker's loader (Trunk `data-type="worker"` with `data-loader-shim`), next to the page;
/// a release build's is content-hashed and named by `<meta name="import-worker">` in
/// `index.html` (`scripts/hash-workers.sh`), read by `worker_url`.
const WORKER: &str = "./import/import-worker_loader.js";

fn worker_url() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=import-worker]").ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_else(|| WORKER.to_string())
}

/// The largest input sent to the importer.
pub const MAX_INPUT: usize = 1 << 20;

/// What an import gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub label: String,
    pub unused: Vec<String>,
    pub notes: Vec<String>,
    /// The cluster settings read (a KubeletConfiguration, kube-controller-manager's flags) and
    /// the scenario field each set, or why it is not modelled.
    pub settings: Vec<String>,
    /// The scenario file (`restartscope import --out`).
    pub toml: String,
    /// Evidence replayed: the candidates ranked, best first, and the differences
    /// per pod in words (`restartscope replay`'s).
    pub ranking: Vec<String>,
    pub beside: Vec<String>,
}

pub type Outcome = Result<(Imported, Report), String>;

type Reply = Box<dyn FnOnce(Outcome)>;

#[derive(Default)]
struct Client {
    worker: Option<Worker>,
    ready: bool,
    /// The request waiting for the worker to start, and who gets the answer.
    queued: Option<String>,
    reply: Option<Reply>,
}

thread_local! {
    static CLIENT: RefCell<Client> = RefCell::new(Client::default());
}

/// The worker's answer (`restartscope_import_web::answer`), as far as the page reads it.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Answer {
    ok: bool,
    scenario: Option<serde_json::Value>,
    label: String,
    unused: Vec<String>,
    notes: Vec<String>,
    settings: Vec<String>,
    toml: String,
    text: String,
    observed: Vec<Lane>,
    note: String,
    beside: Vec<String>,
    ranking: Vec<String>,
}

/// One pod's observed Ready as the worker sends it (`restartscope_evidence::observed::Lane`).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Lane {
    pod: String,
    model_pod: Option<String>,
    steps: Vec<LaneStep>,
    first_ms: i64,
    last_ms: i64,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct LaneStep {
    t_ms: i64,
    ready: bool,
    by: Option<String>,
}

/// The worker's answer, read.
pub fn read_answer(text: &str) -> Outcome {
    let bad = |e: String| format!("the importer answered {e}");
    let a: Answer = json::from_str(text).map_err(bad)?;
    let sc = match (a.ok, a.scenario) {
        // Read from its text, as a `scenario=` link is: the page then compiles the scenario's
        // readers for one deserializer (serde_json's text reader), not for `Value` as well.
        (true, Some(sc)) => {
            json::from_str::<Scenario>(&sc.to_string()).map_err(|e| bad(format!("scenario.{e}")))?
        }
        _ if a.text.is_empty() => return Err("the import failed".into()),
        _ => return Err(a.text),
    };
    let mut im = checked(sc, Some(&a.label))?;
    im.observed = a
        .observed
        .into_iter()
        .map(|l| {
            ObservedPod::new(
                &l.pod,
                l.model_pod.as_deref(),
                l.steps.into_iter().map(|s| (s.t_ms, s.ready, s.by)),
                (l.first_ms, l.last_ms),
            )
        })
        .collect();
    im.observed_note = (!a.note.is_empty()).then_some(a.note);
    let report = Report {
        label: im.label.clone(),
        unused: a.unused,
        notes: a.notes,
        settings: a.settings,
        toml: a.toml,
        ranking: a.ranking,
        beside: a.beside,
    };
    Ok((im, report))
}

fn on_message(e: MessageEvent) {
    let text = e.data().as_string().unwrap_or_default();
    if text.contains("\"kind\":\"ready\"") && text.len() < 40 {
        CLIENT.with(|c| {
            let mut c = c.borrow_mut();
            c.ready = true;
            let q = c.queued.take();
            if let (Some(w), Some(q)) = (&c.worker, q) {
                let _ = w.post_message(&JsValue::from_str(&q));
            }
        });
        return;
    }
    let reply = CLIENT.with(|c| c.borrow_mut().reply.take());
    if let Some(f) = reply {
        f(read_answer(&text));
    }
}

fn on_error(e: web_sys::Event) {
    web_sys::console::warn_2(&"importer worker".into(), &e);
    let reply = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.worker = None;
        c.ready = false;
        c.reply.take()
    });
    if let Some(f) = reply {
        f(Err(
            "the importer could not be loaded (network?); try again".into(),
        ));
    }
}

/// Sends one import to the worker (started now if it is not yet) and calls `reply` with the
/// answer. A request in flight is answered by the newer one only. `evidence`: read the text as
/// an incident's evidence and replay it beside the model (`restartscope replay`), not as manifests. `files`:
/// (name, text) of several files opened together, read beside `text`.
pub fn import(
    text: &str,
    files: &[(String, String)],
    replicas_on_node: Option<u32>,
    evidence: bool,
    reply: impl FnOnce(Outcome) + 'static,
) {
    let size = text.len() + files.iter().map(|(_, t)| t.len()).sum::<usize>();
    if size > MAX_INPUT {
        reply(Err(format!(
            "the input is {size} bytes; the importer reads at most 1 MiB ({MAX_INPUT} bytes)"
        )));
        return;
    }
    let files: Vec<String> = files
        .iter()
        .map(|(n, t)| {
            format!(
                "{{\"name\":{},\"text\":{}}}",
                json::quote(n),
                json::quote(t)
            )
        })
        .collect();
    let req = format!(
        "{{\"text\":{},\"replicas_on_node\":{},\"evidence\":{evidence},\"files\":[{}]}}",
        json::quote(text),
        replicas_on_node.map_or("null".to_string(), |n| n.to_string()),
        files.join(",")
    );
    let started = CLIENT.with(|c| {
        let mut c = c.borrow_mut();
        c.reply = Some(Box::new(reply));
        if c.worker.is_none() {
            let w = Worker::new_with_options(&worker_url(), &web_sys::WorkerOptions::new())
                .map_err(|e| format!("the importer could not start: {e:?}"))?;
            let on = Closure::<dyn FnMut(MessageEvent)>::new(on_message);
            w.set_onmessage(Some(on.as_ref().unchecked_ref()));
            on.forget();
            let err = Closure::<dyn FnMut(web_sys::Event)>::new(on_error);
            w.set_onerror(Some(err.as_ref().unchecked_ref()));
            err.forget();
            c.worker = Some(w);
        }
        match (&c.worker, c.ready) {
            (Some(w), true) => {
                let _ = w.post_message(&JsValue::from_str(&req));
            }
            _ => c.queued = Some(req),
        }
        Ok::<(), String>(())
    });
    if let Err(m) = started {
        if let Some(f) = CLIENT.with(|c| c.borrow_mut().reply.take()) {
            f(Err(m));
        }
    }
}

/// The `scenario=` value of a scenario, or `None` when it would make the link too long.
pub async fn pack(im: &Imported) -> Option<String> {
    let json = im.scenario.to_json(false);
    let z = crate::pack::deflate(json.as_bytes()).await.ok()?;
    let s = b64_encode(&z);
    (s.len() + im.label.len() * 3 <= MAX_PACKED).then_some(s)
}
