//! The importer as a Web Worker (bin `import-worker`, built into `dist/import/` by
//! `import/index.html`): the app starts it only when the reader imports a workload, so the YAML
//! parser and the TOML writer never weigh on the page's bundle.
//!
//! Protocol (plain JSON strings both ways): the worker first posts `{"kind":"ready"}`; then per
//! request `{"text": "...", "replicas_on_node": 2 | null, "evidence": bool, "files": [{"name",
//! "text"}]}` (`files`: several opened or dropped files, read beside `text`) it answers with [`answer`]'s JSON:
//! `{"ok": true, "scenario": {…}, "label", "workloads", "unused", "notes", "toml"}` or
//! `{"ok": false, "message", "line", "column", "text"}`. A scenario file (TOML or JSON, as
//! `restartscope import` writes it) is read as one too, validated by the model.

use restartscope_manifest::{import_str, scenario_toml, Import, ImportError, ImportOptions};
use restartscope_sim::Scenario;
use serde::Deserialize;
use serde_json::{json, Value};

/// The largest input the worker reads (the page refuses larger before sending).
pub const MAX_INPUT: usize = 1 << 20;

#[derive(Deserialize)]
struct Request {
    text: String,
    #[serde(default)]
    replicas_on_node: Option<u32>,
    /// Read the text as evidence of an incident (as `restartscope replay` does), not as manifests.
    #[serde(default)]
    evidence: bool,
    /// Files opened or dropped together: as evidence each is read on its own (its own format
    /// and clock, as `restartscope replay --evidence A --evidence B`); as manifests they are
    /// one stream of YAML documents after `text`.
    #[serde(default)]
    files: Vec<NamedText>,
}

#[derive(Deserialize)]
struct NamedText {
    name: String,
    text: String,
}

/// `Deployment web (3 pods), DaemonSet agent (1 pod)`.
pub fn label(im: &Import) -> String {
    let parts: Vec<String> = im
        .workloads
        .iter()
        .map(|w| {
            let s = if w.pods == 1 { "" } else { "s" };
            format!("{} {} ({} pod{s})", w.kind, w.name, w.pods)
        })
        .collect();
    parts.join(", ")
}

fn error(e: &ImportError) -> Value {
    json!({
        "ok": false,
        "message": e.message,
        "line": e.line,
        "column": e.column,
        "text": e.to_string(),
    })
}

fn failure(message: String) -> Value {
    json!({"ok": false, "message": message, "text": message})
}

/// A scenario file (what `restartscope import` writes, or the app's JSON), if the text is one.
fn scenario_file(text: &str) -> Option<Result<Scenario, String>> {
    let t = text.trim_start();
    let sc = if t.starts_with('{') {
        serde_json::from_str::<Scenario>(t).ok()?
    } else if !t.contains("apiVersion") {
        toml::from_str::<Scenario>(text).ok()?
    } else {
        return None;
    };
    Some(match sc.validate() {
        Ok(()) => Ok(sc),
        Err(errs) => Err(format!(
            "the scenario file is not valid: {}",
            errs.iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )),
    })
}

/// The answer to one request (a JSON request string), as JSON.
pub fn answer(request: &str) -> Value {
    let req: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return failure(format!("bad request to the importer: {e}")),
    };
    let size = req.text.len() + req.files.iter().map(|f| f.text.len()).sum::<usize>();
    if size > MAX_INPUT {
        return failure(format!(
            "the input is {size} bytes; the importer reads at most 1 MiB ({MAX_INPUT} bytes)"
        ));
    }
    // The pasted text first, then the files in the order given.
    let mut texts: Vec<(String, String)> = Vec::new();
    if !req.text.trim().is_empty() || req.files.is_empty() {
        texts.push(("the pasted text".into(), req.text));
    }
    texts.extend(req.files.into_iter().map(|f| (f.name, f.text)));
    if req.evidence {
        return evidence(&texts);
    }
    let text = if texts.len() == 1 {
        texts.remove(0).1
    } else {
        // Several manifests: one stream of YAML documents (JSON is YAML too), each file's
        // first line naming it.
        texts
            .iter()
            .map(|(name, t)| format!("# {name}\n{t}"))
            .collect::<Vec<_>>()
            .join("\n---\n")
    };
    if let Some(sc) = scenario_file(&text) {
        return match sc {
            Ok(sc) => {
                let toml = toml::to_string(&sc).unwrap_or_default();
                let label = format!("{} ({} pods)", sc.name, sc.pods.len());
                json!({
                    "ok": true, "scenario": sc, "label": label, "workloads": [],
                    "unused": [], "notes": ["Read as a RestartScope scenario file."], "toml": toml,
                })
            }
            Err(m) => failure(m),
        };
    }
    let opts = ImportOptions {
        replicas_on_node: req.replicas_on_node,
    };
    match import_str(&text, &opts) {
        Ok(im) => json!({
            "ok": true,
            "scenario": im.scenario,
            "label": label(&im),
            "workloads": im.workloads.iter().map(|w| json!({
                "kind": w.kind, "name": w.name, "replicas": w.replicas, "pods": w.pods,
            })).collect::<Vec<_>>(),
            "unused": im.unused.iter().map(|u| u.to_string()).collect::<Vec<_>>(),
            "notes": im.notes,
            "settings": im.settings.lines(),
            "toml": scenario_toml(&im),
        }),
        Err(e) => error(&e),
    }
}

/// How many of the ranked candidates the answer lists.
const SHOW_VERDICTS: usize = 5;

/// Evidence (a `kubectl get pods -w` transcript, events, an audit log, kubelet logs, a pod's
/// YAML; `restartscope_evidence::read` detects which) beside the model, as `restartscope replay`
/// reads it: the best-ranked candidate's scenario (the page runs it), the observed lanes on its
/// axis, the differences per pod and the ranking. Nothing leaves the browser.
fn evidence(texts: &[(String, String)]) -> Value {
    use restartscope_evidence::{align_years, beside::beside, explain, merge, read};
    let several = texts.len() > 1;
    let mut files = Vec::new();
    let mut names = Vec::new();
    // Each file read or refused on its own, as `restartscope replay` does: the run goes on with
    // the readable ones and says which were skipped and why.
    let mut refused = Vec::new();
    for (name, text) in texts {
        match read(text, files.len()) {
            Ok(ev) => {
                files.push(ev);
                names.push(name.clone());
            }
            Err(e) if several => refused.push(format!(
                "{name} skipped: not evidence RestartScope reads: {e}"
            )),
            Err(e) => return failure(format!("not evidence RestartScope reads: {e}")),
        }
    }
    if files.is_empty() {
        return failure(refused.join("; "));
    }
    align_years(&mut files);
    let obs = merge(&files);
    let cands = explain::candidates(&obs, None, None);
    let (ans, verdicts) = explain::answer(&obs, explain::explain_for(&obs, &cands, None), None);
    if verdicts.is_empty() {
        return failure(format!(
            "{} (no candidate to draw beside the evidence)",
            ans.headline
        ));
    }
    let Some(b) = beside(&files, &obs, &cands, &verdicts) else {
        return failure(
            "no Ready change of a pod in this evidence to put beside the model (paste a kubectl get pods -w transcript, events, an audit log or kubelet logs)".into(),
        );
    };
    // The answer first (what `replay` prints first), then the candidates it rests on.
    let mut ranking: Vec<String> = vec![format!("Answer: {}", ans.headline)];
    ranking.extend(ans.reasons.iter().map(|r| format!("· {r}")));
    ranking.push(format!("Evidence: {}", ans.strength));
    if !ans.collect_next.is_empty() {
        ranking.push(format!("Collect next: {}", ans.collect_next.join("; ")));
    }
    if !ans.not_possible.is_empty() {
        ranking.push(format!(
            "Not possible on {}: {}",
            ans.release.as_deref().unwrap_or("this release"),
            ans.not_possible.join(", ")
        ));
    }
    ranking.extend(
        verdicts
            .iter()
            .take(SHOW_VERDICTS)
            .enumerate()
            .map(|(i, v)| {
                let bug = match (&v.known_bug, &v.fixed_in) {
                    (Some(b), Some(f)) => format!(" · known bug {b}; fix: {f}"),
                    (Some(b), None) => format!(" · known bug {b}"),
                    _ => String::new(),
                };
                format!("{}. {:.1} {}{bug}", i + 1, v.score, v.candidate)
            }),
    );
    let observed: Vec<Value> = b
        .lanes
        .iter()
        .map(|l| {
            json!({
                "pod": l.pod, "model_pod": l.model_pod, "first_ms": l.first_ms, "last_ms": l.last_ms,
                "steps": l.steps.iter().map(|s| json!({"t_ms": s.t_ms, "ready": s.ready, "by": s.by})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut notes = Vec::new();
    let mut unused = Vec::new();
    notes.extend(refused);
    for (name, ev) in names.iter().zip(&files) {
        let of = if several {
            format!("{name}: ")
        } else {
            String::new()
        };
        let read_as = if several { "read as" } else { "Read as" };
        notes.push(format!(
            "{of}{read_as} {} ({} observations).",
            ev.format.as_str(),
            ev.obs.len()
        ));
        notes.extend(ev.notes.iter().map(|n| format!("{of}{n}")));
        unused.extend(
            ev.unread
                .iter()
                .map(|u| format!("{of}line {}: {}: {}", u.line, u.why, u.text)),
        );
    }
    notes.push(format!(
        "The figure draws {} with what was observed under each pod{}.",
        b.names.join(" and "),
        if several {
            ", each file's clock aligned on its own"
        } else {
            ""
        }
    ));
    json!({
        "ok": true,
        "scenario": b.scenario,
        "label": match (&ans.bug, &ans.restart) {
            (Some(b), _) => format!("Evidence · {b} · best match {}", verdicts[0].candidate),
            (None, Some(_)) => format!("Evidence · {} · drawn beside {}", ans.short(), verdicts[0].candidate),
            (None, None) => format!("Evidence · no known bug · drawn beside {}", verdicts[0].candidate),
        },
        "workloads": [],
        "unused": unused,
        "notes": notes,
        "settings": [],
        "toml": toml::to_string(&b.scenario).unwrap_or_default(),
        "observed": observed,
        "note": format!("{} {}", b.alignment.text, b.summary()),
        "beside": b.pod_lines(),
        "ranking": ranking,
    })
}

#[cfg(target_arch = "wasm32")]
pub fn start() {
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};
    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }
    let on = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        let req = e.data().as_string().unwrap_or_default();
        let out = answer(&req).to_string();
        let _ = scope().post_message(&JsValue::from_str(&out));
    });
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    // Messages sent before the wasm had started are lost: the page waits for this one.
    let _ = scope().post_message(&JsValue::from_str(r#"{"kind":"ready"}"#));
}

/// Natively (tests, clippy) there is no worker scope.
#[cfg(not(target_arch = "wasm32"))]
pub fn start() {}

#[cfg(test)]
mod tests {
    use super::*;

    const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n        resources: {}\n        readinessProbe:\n          httpGet: {path: /, port: 80}\n";

    fn req(text: &str) -> String {
        json!({ "text": text }).to_string()
    }

    /// Replay in the app: the kubernetes#113646 transcript (real, from the report) as evidence: the
    /// best match's scenario, an observed lane per pod, the differences and the ranking.
    #[test]
    fn evidence_beside_the_model() {
        let text = include_str!("../../evidence/tests/data/113646-watch.txt");
        let a = answer(&json!({ "text": text, "evidence": true }).to_string());
        assert_eq!(a["ok"], true, "{a}");
        assert!(
            a["label"]
                .as_str()
                .unwrap()
                .starts_with("Evidence · kubernetes#113646 · best match "),
            "{a}"
        );
        let sc: Scenario = serde_json::from_value(a["scenario"].clone()).unwrap();
        assert!(sc.validate().is_ok());
        let lanes = a["observed"].as_array().unwrap();
        assert!(!lanes.is_empty());
        assert!(lanes.iter().all(|l| l["steps"].is_array()));
        let beside = a["beside"].to_string();
        assert!(beside.contains("observed Ready="), "{beside}");
        // The answer first, as `restartscope replay` prints it, then the candidates.
        let ranking: Vec<&str> = a["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert!(
            ranking[0].starts_with("Answer: kubernetes#113646 explains this"),
            "{ranking:?}"
        );
        assert!(
            ranking.iter().any(|r| r.starts_with("Evidence: ")),
            "{ranking:?}"
        );
        assert!(ranking.iter().any(|r| r.starts_with("1. ")), "{ranking:?}");
        let bad = answer(&json!({ "text": "nothing here\n", "evidence": true }).to_string());
        assert_eq!(bad["ok"], false);
        assert!(!bad["text"].as_str().unwrap().is_empty());
    }

    /// Several evidence files opened together, each read on its own, as `replay --evidence A
    /// --evidence B` reads them:
    /// each is read in its own format and named in the notes and in what was not understood;
    /// one that cannot be read is skipped and named in the notes.
    #[test]
    fn several_evidence_files_at_once() {
        let watch = include_str!("../../evidence/tests/data/113646-watch.txt");
        let events = include_str!("../../evidence/tests/data/minikube-dump-default-events.json");
        let files = json!([
            { "name": "113646-watch.txt", "text": watch },
            { "name": "events.json", "text": events },
        ]);
        let a = answer(&json!({ "text": "", "evidence": true, "files": files }).to_string());
        assert_eq!(a["ok"], true, "{a}");
        let notes = a["notes"].to_string();
        assert!(
            notes.contains("113646-watch.txt: read as kubectl get pods -w"),
            "{notes}"
        );
        assert!(
            notes.contains("events.json: read as kubectl get events"),
            "{notes}"
        );
        assert!(
            notes.contains("each file's clock aligned on its own"),
            "{notes}"
        );
        // The pasted text counts as one more.
        let b = answer(
            &json!({ "text": watch, "evidence": true, "files": [{ "name": "x.log", "text": "nothing here\n" }] })
                .to_string(),
        );
        // One unreadable file never loses the others: it is skipped, and the notes say why.
        assert_eq!(b["ok"], true, "{b}");
        assert!(
            b["notes"]
                .to_string()
                .contains("x.log skipped: not evidence RestartScope reads"),
            "{b}"
        );
    }

    /// Several manifests opened together are one stream of documents.
    #[test]
    fn several_manifest_files_are_one_workload_list() {
        let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n";
        let files =
            json!([{ "name": "web.yaml", "text": WEB }, { "name": "svc.yaml", "text": svc }]);
        let a = answer(&json!({ "text": "", "files": files }).to_string());
        assert_eq!(a["ok"], true, "{a}");
        assert_eq!(a["label"], "Deployment web (3 pods)");
        let big = "x".repeat(MAX_INPUT);
        let b = answer(&json!({ "text": "", "files": [{ "name": "a", "text": big }, { "name": "b", "text": "y" }] }).to_string());
        assert_eq!(b["ok"], false);
        assert!(
            b["message"].as_str().unwrap().contains("at most 1 MiB"),
            "{b}"
        );
    }

    #[test]
    fn a_deployment_and_its_scenario_file_round_trip() {
        let a = answer(&req(WEB));
        assert_eq!(a["ok"], true, "{a}");
        assert_eq!(a["label"], "Deployment web (3 pods)");
        assert!(a["unused"].to_string().contains("resources"));
        let sc: Scenario = serde_json::from_value(a["scenario"].clone()).unwrap();
        assert_eq!(sc.pods.len(), 3);
        let toml = a["toml"].as_str().unwrap();
        let b = answer(&req(toml));
        assert_eq!(b["ok"], true, "{b}");
        let sc2: Scenario = serde_json::from_value(b["scenario"].clone()).unwrap();
        assert_eq!(sc, sc2);
        let c = answer(&req(&serde_json::to_string(&sc).unwrap()));
        assert_eq!(c["scenario"], a["scenario"]);
    }

    #[test]
    fn bad_inputs_are_one_message() {
        let a = answer(&req("kind: Deployment\n  bad: [\n"));
        assert_eq!(a["ok"], false);
        assert!(a["line"].is_number(), "{a}");
        let b = answer(&req("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"));
        assert_eq!(b["ok"], false);
        assert!(b["message"].as_str().unwrap().contains("Service"), "{b}");
        assert_eq!(answer("nope")["ok"], false);
        let big = "#".repeat(MAX_INPUT + 1);
        assert_eq!(answer(&req(&big))["ok"], false);
    }

    /// The app's importer reads a KubeletConfiguration and kube-controller-manager's
    /// static pod beside a workload as the cluster's settings (not workloads), sets the
    /// scenario's fields and names each value read.
    /// sealos's two-node upgrade (real, v1.16.10 → v1.17.12) pasted in the app: the answer names
    /// both nodes as the CLI does, and the scenario the page runs is the nearest upgrade the
    /// model has, which the answer names.
    #[test]
    fn every_upgraded_node_is_named_in_the_app() {
        let text = include_str!(
            "../../evidence/tests/data/pastes/80-sealos-481-get-nodes-repeated-during-upgrade.txt"
        );
        let a = answer(&json!({ "text": text, "evidence": true }).to_string());
        assert_eq!(a["ok"], true, "{a}");
        let head = a["ranking"][0].as_str().unwrap();
        assert!(
            head.contains("node dev-k8s-master's kubelet went from v1.16.10 (line 7)"),
            "{head}"
        );
        assert!(
            head.contains("node dev-k8s-node's kubelet went from v1.16.10 (line 8)"),
            "{head}"
        );
        assert!(
            head.contains("the nearest run it has, upgrade-1.30-to-1.31"),
            "{head}"
        );
        assert_eq!(a["scenario"]["name"], "upgrade-1.30-to-1.31");
    }

    #[test]
    fn cluster_settings_beside_a_workload_are_read_and_named() {
        let text = format!(
            "{WEB}---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeLeaseDurationSeconds: 20\nnodeStatusUpdateFrequency: 4s\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-controller-manager\n  namespace: kube-system\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.35.0\n    command:\n    - kube-controller-manager\n    - --node-monitor-grace-period=20s\n    - --node-monitor-period=2s\n"
        );
        let a = answer(&req(&text));
        assert_eq!(a["ok"], true, "{a}");
        assert_eq!(a["label"], "Deployment web (3 pods)");
        let sc: Scenario = serde_json::from_value(a["scenario"].clone()).unwrap();
        assert_eq!(
            sc.pods.len(),
            3,
            "kube-controller-manager is not a workload"
        );
        assert_eq!(sc.cluster.lease_duration_s, 20.0);
        assert_eq!(sc.cluster.node_monitor_grace_s, Some(20.0));
        assert_eq!(sc.cluster.node_monitor_period_s, 2.0);
        let lines: Vec<&str> = a["settings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| l.as_str())
            .collect();
        let has = |s: &str| lines.iter().any(|l| l.contains(s));
        assert!(has("nodeLeaseDurationSeconds 20"), "{lines:?}");
        assert!(has("sets cluster.lease_duration_s"), "{lines:?}");
        assert!(has("--node-monitor-grace-period 20s"), "{lines:?}");
        assert!(has("nodeStatusUpdateFrequency 4s"), "{lines:?}");
        assert!(has("is not modelled"), "{lines:?}");
    }
}
