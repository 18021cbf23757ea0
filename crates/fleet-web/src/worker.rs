//! The Web Worker (bin `fleet-worker`; uses `draw` for the heatmap's pixels): receives the page's query string, reads it with the CLI's
//! rules (`fleet::edit`: a rejected value is named with its range and the default used
//! instead, so no result is ever computed for it), runs the `rolling-upgrade` fleet with those
//! settings per kubelet profile (`fleet::compare_with`), and posts three kinds of plain
//! messages: `settings` (the values used, the notice), `progress` (share done) and `result`
//! (heatmaps, series, totals rows, the saving in words, the sampled nodes). The page cancels a
//! run by terminating the worker.

use crate::draw;
use crate::js::{obj, strings};
use js_sys::{Array, Float32Array, Uint32Array, Uint8ClampedArray};
use restartscope_sim::fleet::edit::{self, key_of, range_of, Overrides, KEYS};
use restartscope_sim::fleet::{self, Fleet, FleetRun};
use restartscope_sim::{fmt_secs, KubeVersion, Policy};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(msg: &JsValue, transfer: Option<&Array>) {
    let s = scope();
    let _ = match transfer {
        Some(t) => s.post_message_with_transfer(msg, t),
        None => s.post_message(msg),
    };
}

/// Listens for the page's query string; one run per message.
pub fn start() {
    let on = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        let q = e.data().as_string().unwrap_or_default();
        handle(&q);
    });
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    // Messages sent before the wasm had started are lost: the page waits for this one.
    post(&obj(&[("kind", "ready".into())]).into(), None);
}

/// The settings the query asks for, with every rejected one back at its default, and what was
/// rejected (one line each, naming the CLI flag and the accepted range).
pub fn read_query(pairs: &[(String, String)]) -> (Fleet, Overrides, Vec<String>) {
    let base = fleet::rolling_upgrade();
    let mut ov = Overrides::default();
    let mut notes = Vec::new();
    for (k, v) in pairs {
        if matches!(k.as_str(), "view" | "theme") {
            continue;
        }
        if !KEYS.contains(&k.as_str()) {
            notes.push(format!(
                "unknown parameter {k:?} ignored (fleet settings: {})",
                KEYS.join(", ")
            ));
            continue;
        }
        if let Err(e) = ov.set(k, v) {
            notes.push(format!(
                "{e} (accepted: {}); the default is used",
                range_of(k, ov.nodes.unwrap_or(base.nodes))
            ));
            ov.clear(k);
        }
    }
    let f = loop {
        match ov.apply(base.clone()) {
            Ok(f) => break f,
            Err(errs) => {
                let key = key_of(&errs[0]);
                let nodes = ov.nodes.unwrap_or(base.nodes);
                let set = |ov: &Overrides, k: &str| {
                    let mut probe = ov.clone();
                    probe.clear(k);
                    probe != *ov
                };
                // A setting of the user's is to blame: back to the default. Else a default
                // the user's nodes cannot hold (zones and batch follow the nodes down, so
                // this is a safeguard): the nodes go back to theirs; else every default.
                let (culprit, what) = if set(&ov, key) {
                    (Some(key), "the default is used".to_string())
                } else if set(&ov, "nodes") {
                    (Some("nodes"), "the default --nodes is used".to_string())
                } else {
                    (None, "the defaults are used".to_string())
                };
                notes.push(format!(
                    "--{key}: {} (accepted: {}); {what}",
                    errs[0].message,
                    range_of(key, nodes),
                ));
                match culprit {
                    Some(k) => ov.clear(k),
                    None => ov = Overrides::default(),
                }
            }
        }
    };
    // Before 1.35 there is only the legacy kubelet (the app shows it alone, like the
    // single-node view; the CLI asks for --policy legacy).
    if !f.cluster.version.has_kep_4781() && ov.policy == Some(Policy::Kep) {
        notes.push(format!(
            "--policy kep: Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35); the legacy kubelet is shown",
            f.cluster.version.as_str()
        ));
        ov.policy = Some(Policy::Legacy);
    }
    if !f.cluster.version.has_kep_4781() {
        ov.policy = Some(Policy::Legacy);
    }
    (f, ov, notes)
}

/// Every setting's value as the form and the address show it.
pub fn values(f: &Fleet, ov: &Overrides) -> Vec<(&'static str, String)> {
    let policy = match ov.policy {
        None => "both",
        Some(p) => p.as_str(),
    };
    vec![
        ("nodes", f.nodes.to_string()),
        ("zones", f.zones.to_string()),
        ("pods-per-node", f.pods_per_node.to_string()),
        ("services", f.services.to_string()),
        ("batch", f.rolling.batch.to_string()),
        ("downtime", fmt_secs(f.rolling.downtime_s)),
        ("pause", fmt_secs(f.rolling.pause_s)),
        ("wait-ready", f.rolling.wait_ready.to_string()),
        ("version", f.cluster.version.as_str().to_string()),
        (
            "upgrade-to",
            f.rolling
                .upgrade_to
                .map_or(String::new(), |v| v.as_str().to_string()),
        ),
        ("policy", policy.to_string()),
        ("seed", f.seed.to_string()),
    ]
}

/// One line describing the fleet (the CLI table's heading, shortened).
pub fn summary(f: &Fleet) -> String {
    format!(
        "Kubernetes {}{} · {}, kubelet down {}, pause {}{} · {} simulated · seed {}",
        f.cluster.version.as_str(),
        f.rolling.upgrade_to.map_or(String::new(), |v| format!(
            " upgraded in place to {}",
            v.as_str()
        )),
        edit::shape(f),
        fmt_secs(f.rolling.downtime_s),
        fmt_secs(f.rolling.pause_s),
        if f.rolling.wait_ready {
            ", waiting for Ready"
        } else {
            ""
        },
        fmt_secs(f.horizon_s()),
        f.seed
    )
}

fn handle(q: &str) {
    let pairs: Vec<(String, String)> = web_sys::UrlSearchParams::new_with_str(q)
        .ok()
        .map(|p| {
            js_sys::try_iter(&p)
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .filter_map(|e| {
                    let a: Array = e.ok()?.dyn_into().ok()?;
                    Some((a.get(0).as_string()?, a.get(1).as_string()?))
                })
                .collect()
        })
        .unwrap_or_default();
    let (f, ov, notes) = read_query(&pairs);
    let vals = obj(&[]);
    for (k, v) in values(&f, &ov) {
        let _ = js_sys::Reflect::set(&vals, &k.into(), &v.into());
    }
    let labels: Vec<String> = fleet::profiles(&f, ov.policy)
        .map(|p| p.iter().map(|p| p.label()).collect())
        .unwrap_or_default();
    let versions = strings(KubeVersion::ALL.iter().map(|v| v.as_str().to_string()));
    post(
        &obj(&[
            ("kind", "settings".into()),
            ("values", vals.into()),
            ("notice", strings(notes).into()),
            ("summary", summary(&f).into()),
            ("labels", strings(labels).into()),
            ("versions", versions.into()),
            ("horizon_s", f.horizon_s().into()),
        ])
        .into(),
        None,
    );
    let t0 = js_sys::Date::now();
    let mut last = -1i32;
    let runs = fleet::compare_with(&f, ov.policy, &mut |i, n, x| {
        let share = (i as f64 + x) / n as f64;
        let pct = (share * 100.0).floor() as i32;
        if pct != last {
            last = pct;
            post(
                &obj(&[("kind", "progress".into()), ("share", share.into())]).into(),
                None,
            );
        }
    });
    let elapsed = js_sys::Date::now() - t0;
    match runs {
        Ok(runs) => post_result(&f, &runs, elapsed),
        Err(e) => post(
            &obj(&[
                ("kind", "error".into()),
                ("message", e[0].message.clone().into()),
            ])
            .into(),
            None,
        ),
    }
}

fn totals(t: &fleet::Totals) -> JsValue {
    obj(&[
        ("ready_transitions", (t.ready_transitions as f64).into()),
        (
            "kubelet_status_writes",
            (t.kubelet_status_writes as f64).into(),
        ),
        ("nlc_status_writes", (t.nlc_status_writes as f64).into()),
        (
            "endpointslice_updates",
            (t.endpointslice_updates as f64).into(),
        ),
        ("watch_events", (t.watch_events as f64).into()),
        ("evictions", (t.evictions as f64).into()),
        ("unjustified_not_ready_s", t.unjustified_not_ready_s.into()),
        ("unjustified_ready_s", t.unjustified_ready_s.into()),
        ("node_not_ready_s", t.node_not_ready_s.into()),
        ("events_processed", (t.events_processed as f64).into()),
    ])
    .into()
}

/// The sampled nodes of a run, one line each.
fn samples(f: &Fleet, r: &FleetRun) -> Array {
    strings(r.samples.iter().map(|s| {
        let (stop, start) = s.restarts.first().copied().unwrap_or((0, 0));
        format!(
            "node {} (zone {}): kubelet down {}–{} · {} Pod Ready transitions, {} kubelet and {} NLC status writes, {} EndpointSlice updates",
            s.node,
            s.node as u32 % f.zones.max(1),
            fmt_secs(stop as f64 / 1000.0),
            fmt_secs(start as f64 / 1000.0),
            s.metrics.ready_transitions,
            s.metrics.kubelet_status_writes,
            s.metrics.nlc_status_writes,
            s.metrics.endpointslice_updates,
        )
    }))
}

/// The single-node view of the first sampled node's restart: the same release, downtime, start
/// and seed, but the `short-restart` preset's pods (the app cannot load a node of 31 pods by
/// link). `None` when the app's ranges cannot hold it.
pub fn single_node_link(f: &Fleet) -> Option<String> {
    let (at, down) = (f.batch_at(0), f.rolling.downtime_s);
    (at <= 300.0 && down <= 600.0 && f.seed <= u32::MAX as u64).then(|| {
        format!(
            "../?preset=short-restart&version={}&downtime={}&at={}&seed={}",
            f.cluster.version.as_str(),
            fmt_secs(down),
            fmt_secs(at),
            f.seed
        )
    })
}

fn post_result(f: &Fleet, runs: &[FleetRun], elapsed: f64) {
    let transfer = Array::new();
    let out = Array::new();
    for r in runs {
        // The heatmap's pixels are made here, off the page's thread.
        let (px, w, h) = draw::heat_pixels(
            &r.heat.cells,
            r.heat.cols,
            r.heat.nodes,
            r.heat.pods.first().copied().unwrap_or(1) as u32,
        );
        let heat = Uint8ClampedArray::from(&px[..]);
        transfer.push(&heat.buffer());
        let s = &r.series;
        let u32s = |v: &[u32]| {
            let a = Uint32Array::from(v);
            transfer.push(&a.buffer());
            a
        };
        let share: Array = s
            .ready_endpoint_share
            .iter()
            .map(|v| {
                let a = Float32Array::from(&v[..]);
                transfer.push(&a.buffer());
                JsValue::from(a)
            })
            .collect();
        out.push(
            &obj(&[
                ("label", r.kubelet.clone().into()),
                ("policy", r.policy.as_str().into()),
                ("heat", heat.into()),
                ("heat_w", w.into()),
                ("heat_h", h.into()),
                ("cols", r.heat.cols.into()),
                ("nodes", r.heat.nodes.into()),
                ("col_s", ((r.heat.col_ms / 1000) as f64).into()),
                ("pods", r.heat.pods.first().copied().unwrap_or(1).into()),
                ("writes", u32s(&s.status_writes).into()),
                ("slices", u32s(&s.endpointslice_updates).into()),
                ("down", u32s(&s.nodes_not_ready).into()),
                ("share", share.into()),
                ("totals", totals(&r.totals)),
                ("samples", samples(f, r).into()),
            ])
            .into(),
        );
    }
    // The totals table: metric, each run, and (two runs) what KEP saves.
    let rows = Array::new();
    for (name, get) in edit::ROWS {
        let mut cells = vec![name.to_string()];
        // Raw digits: the page groups them in the reader's locale (results.rs).
        cells.extend(runs.iter().map(|r| edit::fmt_total_raw(get(&r.totals))));
        if runs.len() == 2 {
            cells.push(edit::saving(get(&runs[0].totals), get(&runs[1].totals)));
        }
        rows.push(&strings(cells));
    }
    let mut words = match runs {
        [l, k] => edit::saving_words(&l.totals, &k.totals),
        [only] => format!(
            "{} alone: Kubernetes {} has no KEP-4781 kubelet to compare with (it arrived in 1.35).",
            only.kubelet,
            f.cluster.version.as_str()
        ),
        _ => String::new(),
    };
    if let Some(w) = edit::rollout_words(f, runs) {
        words = format!("{w} {words}");
    }
    // An in-place upgrade: what it does to the containers, and the version skew policy's advice.
    let upgrade = edit::upgrade_words(f);
    if !upgrade.is_empty() {
        words = format!("{upgrade} {words}");
    }
    let memory = wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length();
    post(
        &obj(&[
            ("kind", "result".into()),
            ("runs", out.into()),
            ("rows", rows.into()),
            ("keys", strings(edit::ROW_KEYS.map(String::from)).into()),
            ("words", words.into()),
            (
                "link",
                single_node_link(f).map_or(JsValue::NULL, JsValue::from),
            ),
            ("elapsed_ms", elapsed.into()),
            ("wasm_memory_bytes", (memory as f64).into()),
        ])
        .into(),
        Some(&transfer),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Vec<(String, String)> {
        s.split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_rejected_value_is_named_and_replaced_by_its_default() {
        let (f, _, notes) = read_query(&q("nodes=9000&batch=5&view=fleet"));
        assert_eq!((f.nodes, f.rolling.batch), (200, 5));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("--nodes: nodes must be between 1 and 5000, got 9000"));
        assert!(notes[0].contains("(accepted: 1–5000)"));
        let (f, _, notes) = read_query(&q("downtime=abc&pause=1m"));
        assert_eq!((f.rolling.downtime_s, f.rolling.pause_s), (30.0, 60.0));
        assert!(
            notes[0].starts_with("--downtime: invalid duration"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_combination_rejected_falls_back_to_the_defaults() {
        // Zones above nodes: the zones the user set go back to the default.
        let (f, _, notes) = read_query(&q("nodes=20&zones=30"));
        assert_eq!((f.nodes, f.zones), (20, 3));
        assert!(
            notes[0].contains("zones (30) must not exceed nodes (20)"),
            "{notes:?}"
        );
        // Nodes below the preset's zones and batch: those come down with them, no notice.
        let (f, _, notes) = read_query(&q("nodes=2"));
        assert_eq!((f.nodes, f.zones, f.rolling.batch), (2, 2, 2));
        assert!(notes.is_empty(), "{notes:?}");
        // A batch set above the nodes: the batch goes back to the preset's, which follows them.
        let (f, _, notes) = read_query(&q("nodes=2&batch=5"));
        assert_eq!((f.nodes, f.zones, f.rolling.batch), (2, 2, 2));
        assert!(
            notes[0].starts_with("--batch: nodes per batch must be between 1 and 2, got 5"),
            "{notes:?}"
        );
        // A broken combination with nothing set to blame cannot happen from the preset; a
        // valid query has no notes.
        assert!(read_query(&q("nodes=20&batch=5")).2.is_empty());
    }

    #[test]
    fn before_1_35_only_the_legacy_kubelet_runs() {
        let (f, ov, notes) = read_query(&q("version=1.34"));
        assert_eq!(f.cluster.version.as_str(), "1.34");
        assert_eq!(ov.policy, Some(Policy::Legacy));
        assert!(notes.is_empty());
        let (_, ov, notes) = read_query(&q("version=1.31&policy=kep"));
        assert_eq!(ov.policy, Some(Policy::Legacy));
        assert!(notes[0].contains("has only the legacy kubelet"));
        let (_, ov, _) = read_query(&q("policy=both"));
        assert_eq!(ov.policy, None);
    }
}
