//! The worker's result on the page: one section per kubelet (heatmap canvas, four charts, each
//! with a playhead), the totals table, the saving in words and the sampled nodes. Strings and
//! numbers come from the worker; nothing here knows Kubernetes.

use crate::dom::el;
use crate::draw::{self, Axis, Line};
use crate::js::{esc, get, list, num, text};
use js_sys::{Float32Array, Uint32Array};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// One run's series, for the readout at the playhead.
pub struct Run {
    pub label: String,
    pub writes: Vec<f64>,
    pub slices: Vec<f64>,
    pub down: Vec<f64>,
    /// The lowest ready-endpoint share over the Services, each second.
    pub share: Vec<f64>,
}

fn floats(v: &JsValue) -> Vec<f64> {
    if let Some(a) = v.dyn_ref::<Uint32Array>() {
        a.to_vec().into_iter().map(f64::from).collect()
    } else if let Some(a) = v.dyn_ref::<Float32Array>() {
        a.to_vec().into_iter().map(f64::from).collect()
    } else {
        Vec::new()
    }
}

/// Draws the worker's result (heatmaps, charts, totals, words, samples); returns the series
/// the readout needs.
pub fn render(d: &JsValue) -> Vec<Run> {
    let runs_js = list(d, "runs");
    let mut runs = Vec::new();
    let mut html = String::new();
    let mut shares_all: Vec<Vec<Vec<f64>>> = Vec::new();
    for r in &runs_js {
        let share: Vec<Vec<f64>> = list(r, "share").iter().map(floats).collect();
        let len = floats(&get(r, "down")).len();
        let lowest: Vec<f64> = (0..len)
            .map(|i| share.iter().map(|s| s[i]).fold(1.0, f64::min))
            .collect();
        runs.push(Run {
            label: text(r, "label"),
            writes: floats(&get(r, "writes")),
            slices: floats(&get(r, "slices")),
            down: floats(&get(r, "down")),
            share: lowest,
        });
        shares_all.push(share);
    }
    let top = |f: fn(&Run) -> &Vec<f64>| {
        runs.iter()
            .flat_map(|r| f(r).iter().copied())
            .fold(0.0, f64::max)
    };
    let (tw, ts, td) = (top(|r| &r.writes), top(|r| &r.slices), top(|r| &r.down));
    // One share axis for every run, so the kubelets compare at a glance.
    let lowest = runs
        .iter()
        .flat_map(|r| r.share.iter().copied())
        .fold(1.0, f64::min);
    let share_bottom = draw::share_floor(lowest);
    let share_title = if share_bottom > 0.0 {
        format!(
            "Ready endpoints per Service (share; the axis starts at {:.0} %)",
            share_bottom * 100.0
        )
    } else {
        "Ready endpoints per Service (share)".to_string()
    };
    for (i, (r, run)) in runs_js.iter().zip(&runs).enumerate() {
        let span = num(r, "cols") * num(r, "col_s");
        let secs = run.down.len().saturating_sub(1).max(1) as f64;
        let cls = ["l0", "l1", "l2", "l3", "l4"];
        let mut share_lines: Vec<Line> = shares_all[i]
            .iter()
            .take(5)
            .enumerate()
            .map(|(k, v)| Line {
                values: draw::reduce(v, true),
                class: cls[k],
            })
            .collect();
        if shares_all[i].len() > 5 {
            share_lines.push(Line {
                values: draw::reduce(&run.share, true),
                class: "lmin",
            });
        }
        let chart = |title: &str, lines: Vec<Line>, axis: Axis| {
            let label = format!("{title}, {}", run.label);
            format!(
                r#"<figure class="series"><figcaption>{}</figcaption><div class="plot">{}<div class="playhead" data-span="{secs}"></div></div></figure>"#,
                esc(title),
                draw::chart(&label, &lines, secs, &axis)
            )
        };
        let count = |top: f64, unit| Axis {
            bottom: 0.0,
            top,
            unit,
            percent: false,
        };
        let one = |v: &Vec<f64>| {
            vec![Line {
                values: draw::reduce(v, false),
                class: "l0",
            }]
        };
        html.push_str(&format!(
            r#"<section class="run" aria-labelledby="run-{i}"><h2 id="run-{i}">{label}</h2>
<figure class="heat"><figcaption>Ready pods per node (rows: {nodes} nodes, top = node 0; columns: {col} s each)</figcaption>
<div class="plot"><canvas id="heat-{i}" role="img" aria-label="Heatmap of Ready pods per node over time, {label}"></canvas><div class="playhead" data-span="{span}"></div></div></figure>
{}{}{}{}</section>"#,
            chart(
                &share_title,
                share_lines,
                Axis {
                    bottom: share_bottom,
                    top: 1.0,
                    unit: "",
                    percent: true
                }
            ),
            chart(
                "Pod status writes per second",
                one(&run.writes),
                count(tw, "/s")
            ),
            chart(
                "EndpointSlice updates per second",
                one(&run.slices),
                count(ts, "/s")
            ),
            chart(
                "Nodes not Ready",
                one(&run.down),
                count(td, if td <= 1.0 { "node" } else { "nodes" })
            ),
            label = esc(&run.label),
            nodes = num(r, "nodes"),
            col = num(r, "col_s"),
        ));
    }
    el("runs").set_inner_html(&html);
    for (i, r) in runs_js.iter().enumerate() {
        let c: HtmlCanvasElement = el(&format!("heat-{i}")).unchecked_into();
        draw::paint_heat(
            &c,
            get(r, "heat").unchecked_ref(),
            num(r, "heat_w") as u32,
            num(r, "heat_h") as u32,
        );
    }
    totals_table(d, &runs_js);
    el("words").set_text_content(Some(&text(d, "words")));
    samples(d, &runs_js);
    runs
}

/// `v` as the reader's locale writes numbers (`Intl.NumberFormat`, at most one decimal). One
/// formatter for the page: making one costs the browser a millisecond or more.
fn locale_number(v: f64) -> String {
    thread_local! {
        static FORMAT: js_sys::Function = {
            let opts = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&opts, &"maximumFractionDigits".into(), &1.into());
            js_sys::Intl::NumberFormat::new(&js_sys::Array::new(), &opts).format()
        };
    }
    FORMAT
        .with(|f| f.call1(&JsValue::UNDEFINED, &v.into()))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| v.to_string())
}

fn totals_table(d: &JsValue, runs: &[JsValue]) {
    let keys: Vec<String> = list(d, "keys")
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    let mut h = String::from(
        r#"<caption>Totals over the whole run</caption><thead><tr><th scope="col">metric</th>"#,
    );
    for r in runs {
        h.push_str(&format!(
            r#"<th scope="col">{}</th>"#,
            esc(&text(r, "label"))
        ));
    }
    if runs.len() == 2 {
        h.push_str(r#"<th scope="col">KEP saves</th>"#);
    }
    h.push_str("</tr></thead><tbody>");
    for (row, key) in list(d, "rows").iter().zip(&keys) {
        let cells: Vec<String> = js_sys::Array::from(row)
            .iter()
            .filter_map(|c| c.as_string())
            .collect();
        h.push_str(&format!(
            r#"<tr data-key="{key}"><th scope="row">{}</th>"#,
            esc(&cells[0])
        ));
        for (j, c) in cells.iter().enumerate().skip(1) {
            let run = runs.get(j - 1).map(|r| text(r, "policy"));
            let attr = run.map_or(String::new(), |p| format!(r#" data-policy="{p}""#));
            // A number in the reader's locale ("59,721,000", "59.721.000"), its raw value
            // kept for a script or a test; the saving column is words already.
            let shown = match c.parse::<f64>() {
                Ok(v) => format!(r#" data-value="{c}">{}"#, esc(&locale_number(v))),
                Err(_) => format!(">{}", esc(c)),
            };
            h.push_str(&format!("<td{attr}{shown}</td>"));
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody>");
    el("totals").set_inner_html(&h);
}

fn samples(d: &JsValue, runs: &[JsValue]) {
    let mut h = String::new();
    for r in runs {
        h.push_str(&format!("<h3>{}</h3><ul>", esc(&text(r, "label"))));
        for s in list(r, "samples") {
            h.push_str(&format!(
                "<li>{}</li>",
                esc(&s.as_string().unwrap_or_default())
            ));
        }
        h.push_str("</ul>");
    }
    let link = get(d, "link");
    if let Some(l) = link.as_string() {
        h.push_str(&format!(
            r#"<p>The single-node view cannot load a fleet node (its pods are the fleet's template) by link; <a href="{}">the same restart (release, downtime, start, seed) with the short-restart preset's pods</a> shows the mechanism one node at a time.</p>"#,
            esc(&l)
        ));
    }
    el("samples").set_inner_html(&h);
}
