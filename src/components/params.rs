//! The "Parameters" panel: the Kubernetes release (every kubelet profile the model knows, with
//! what it changes) and the numeric fields, each with its accepted range and its own error
//! message, then a probe table per container (rows: startup, readiness, liveness; columns: the
//! probe's fields; built only while the panel is open), scrolling inside the panel on a narrow
//! screen. Edits
//! `Ui::settings`; the ranges and labels are `form::Field`'s.

use crate::form::{fmt_num, Field, Settings};
use crate::probes::{texts, Cell};
use crate::ui::{errors_of, Ui};
use leptos::prelude::*;
use restartscope_sim::{KubeVersion, Probe, ProbeField, ProbeKind, VERSIONS};

/// The numeric fields, in the panel's order.
const FIELDS: [Field; 5] = [
    Field::Pods,
    Field::Grace,
    Field::Toleration,
    Field::FirstSync,
    Field::Seed,
];

fn text_of(s: &Settings, f: Field) -> String {
    match f {
        Field::Grace => s.grace_s.clone(),
        Field::Toleration => s.toleration_s.clone(),
        Field::FirstSync => s.first_sync_s.clone(),
        Field::Seed => s.seed.clone(),
        _ => s.pods.clone(),
    }
}

fn set_text(s: &mut Settings, f: Field, v: String) {
    match f {
        Field::Grace => s.grace_s = v,
        Field::Toleration => s.toleration_s = v,
        Field::FirstSync => s.first_sync_s = v,
        Field::Seed => s.seed = v,
        _ => s.pods = v,
    }
}

/// An entry of the version select: `1.34 (grace 50 s, legacy only)`, `main (grace 50 s)`.
pub fn version_option(v: KubeVersion) -> String {
    let only = if v.has_kep_4781() {
        ""
    } else {
        ", legacy only"
    };
    format!(
        "{} (grace {} s{only})",
        v.as_str(),
        fmt_num(v.default_grace_s())
    )
}

/// What the chosen release changes, from the model's profile table (a patch release: its
/// profile line's, then its own note and date).
fn version_note(version: &str) -> String {
    let Some(v) = KubeVersion::parse(version) else {
        return String::new();
    };
    let differs = VERSIONS
        .iter()
        .find(|i| i.version == v.profile())
        .map(|i| i.differs)
        .unwrap_or("");
    let r = v.release();
    if v.profile() == v {
        return differs.to_string();
    }
    let when = if r.released { "released" } else { "scheduled" };
    let note = if r.note.is_empty() {
        String::new()
    } else {
        format!("; {}", r.note)
    };
    format!(
        "{}: runs the {} profile ({when} {}{note}). {differs}",
        r.name,
        v.profile().as_str(),
        r.date
    )
}

/// The picker's options: one group per minor, its releases oldest first.
fn version_groups() -> Vec<(&'static str, Vec<KubeVersion>)> {
    let mut groups: Vec<(&'static str, Vec<KubeVersion>)> = Vec::new();
    for v in KubeVersion::releases() {
        match groups.last_mut() {
            Some((m, list)) if *m == v.minor() => list.push(v),
            _ => groups.push((v.minor(), vec![v])),
        }
    }
    groups
}

/// `children`: what `app.rs` adds to the panel (the restart list).
#[component]
pub fn Params(children: Children) -> impl IntoView {
    let ui = Ui::get();
    let settings = ui.settings;
    // A rejected setting opens the panel, so its field and message are in view.
    let details = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        if ui.rejected() {
            if let Some(d) = details.get() {
                let _ = d.set_attribute("open", "");
            }
        }
    });
    // The probe tables exist only while the panel is open: a workload of hundreds of
    // containers builds thousands of inputs, which an import (or a preset) need not pay for
    // while nobody looks at them.
    let open = RwSignal::new(false);
    let on_toggle = move |_| {
        open.set(
            details
                .get_untracked()
                .is_some_and(|d| d.has_attribute("open")),
        );
    };
    view! {
        <details class="params" node_ref=details on:toggle=on_toggle>
            <summary>"Parameters"</summary>
            <div class="param-grid">
                <div class="control version">
                    <label for="version">"Kubernetes version"</label>
                    <select id="version" aria-describedby="version-note"
                        prop:value=move || settings.with(|s| s.version.clone())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            settings.update(|s| {
                                if let Some(k) = KubeVersion::parse(&v) {
                                    s.grace_s = fmt_num(k.default_grace_s());
                                    // An in-place upgrade to a release not newer than the new
                                    // one is no choice any more: dropped, not kept stale.
                                    if s.upgrade_to.is_some_and(|u| u <= k) {
                                        s.upgrade_to = None;
                                    }
                                    for r in &mut s.more_restarts {
                                        if r.upgrade_to.is_some_and(|u| u <= k) {
                                            r.upgrade_to = None;
                                        }
                                    }
                                }
                                s.version = v;
                            });
                        }>
                        {version_groups().into_iter().map(|(minor, list)| view! {
                            <optgroup label=minor>
                                {list.into_iter().map(|v| view! { <option value=v.as_str()>{version_option(v)}</option> }).collect_view()}
                            </optgroup>
                        }).collect_view()}
                    </select>
                    <small class="range" id="version-note">{move || settings.with(|s| version_note(&s.version))}</small>
                    <label class="csp">
                        <input type="checkbox" id="csp"
                            prop:checked=move || settings.with(|s| s.csp)
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                settings.update(|s| s.csp = on);
                            }/>
                        " Add the ContainerScopedProbes proposal (unmerged PR #140704 at 1b5df269; 1.38 and main)"
                    </label>
                </div>
                {FIELDS.into_iter().map(|f| {
                    let err_id = format!("{}-error", f.id());
                    let invalid = move || !ui.err_for(f).is_empty();
                    view! {
                        <div class="control" class:invalid=invalid>
                            <label for=f.id()>{f.label()}</label>
                            <input id=f.id() type="text" inputmode=if f.is_duration() { "text" } else { "decimal" } aria-describedby=err_id.clone()
                                prop:value=move || settings.with(|s| text_of(s, f))
                                aria-invalid=move || invalid().to_string()
                                on:change=move |ev| {
                                    let v = event_target_value(&ev);
                                    settings.update(|s| set_text(s, f, v));
                                } />
                            <small class="range">{if f == Field::Pods { format!("{}, 110 = the kubelet's default maxPods", f.range_text()) } else { f.range_text() }}</small>
                            <p class="field-error" id=err_id role="alert">{move || ui.err_for(f)}</p>
                        </div>
                    }
                }).collect_view()}
            </div>
            {children()}
            {move || open.get().then(|| view! { <ProbeTables /> })}
            <p class="field-error" role="alert">{move || format!("{}{}", ui.err_for(Field::Preset), ui.err_for(Field::Version))}</p>
        </details>
    }
}

/// The DOM id of a probe cell's input: `probe-app-livenessProbe-periodSeconds`; a row of one
/// workload's pods (or of several: the first's) `probe-frontend_server-livenessProbe-periodSeconds`
/// (`name` is then `frontend_server`: a `_` is in neither a workload's nor a container's name).
fn cell_id(name: &str, kind: ProbeKind, f: Option<ProbeField>) -> String {
    format!(
        "probe-{name}-{}-{}",
        kind.k8s(),
        f.map_or("add", |f| f.k8s())
    )
}

/// A long name cut in the middle (`recommendat…nservice`): its start and its end both tell
/// workloads and containers apart; the caption's `title` holds the whole name.
fn middle(name: &str) -> String {
    const MAX: usize = 24;
    let n = name.chars().count();
    if n <= MAX {
        return name.to_string();
    }
    let keep = (MAX - 1) / 2;
    let head: String = name.chars().take(keep).collect();
    let tail: String = name.chars().skip(n - keep).collect();
    format!("{head}…{tail}")
}

/// `initialDelaySeconds` with a break opportunity before `Seconds`/`Threshold`.
fn header(f: ProbeField) -> impl IntoView {
    let k = f.k8s();
    let cut = k
        .find("Seconds")
        .or_else(|| k.find("Threshold"))
        .unwrap_or(k.len());
    view! { <th scope="col">{k[..cut].to_string()}<wbr />{k[cut..].to_string()}</th> }
}

/// Every probe of every container (sidecars first), each field in an input with its message in
/// the row under it.
#[component]
fn ProbeTables() -> impl IntoView {
    let ui = Ui::get();
    let settings = ui.settings;
    // The tables' shape: containers and which probes they have (rebuilt on add, remove, preset).
    let shape = Memo::new(move |_| {
        settings.with(|s| {
            s.probes
                .iter()
                .map(|c| {
                    (
                        (c.label(), c.workloads.clone(), c.name.clone()),
                        c.sidecar,
                        c.probes.each_ref().map(Option::is_some),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    view! {
        <div class="probes">
            <p class="range">{move || if shape.with(|s| s.iter().any(|((_, ws, _), ..)| !ws.is_empty())) {
                "Probes, by Kubernetes field; each applies to that container in the pods of that workload (workload/container). execSeconds is the model's own: how long one probe runs."
            } else {
                "Probes, by Kubernetes field; each applies to that container in every pod. execSeconds is the model's own: how long one probe runs."
            }}</p>
            {move || shape.get().into_iter().enumerate().map(|(ci, ((label, ws, container), sidecar, present))| {
                let what = if sidecar { "sidecar" } else { "container" };
                let own = Own::new(ci);
                // `container server`, `container frontend / server`, or workloads sharing the
                // row: `cart, checkout (2 workloads) · container server`.
                let caption = |cut: fn(&str) -> String| {
                    let names = ws.iter().map(|w| cut(w)).collect::<Vec<_>>().join(", ");
                    match ws.len() {
                        0 => format!("{what} {}", cut(&container)),
                        1 => format!("{what} {names} / {}", cut(&container)),
                        n => format!("{names} ({n} workloads) · {what} {}", cut(&container)),
                    }
                };
                let title = caption(str::to_string);
                let region = format!("Probes of {title}");
                let name = match ws.first() {
                    Some(w) => format!("{w}_{container}"),
                    None => container.clone(),
                };
                view! {
                    <div class="probe-scroll" role="region" tabindex="0" aria-label=region>
                        <table class="probe-table">
                            <caption title=title>{caption(middle)}</caption>
                            <thead><tr>
                                <th scope="col">"probe"</th>
                                {ProbeField::ALL.map(header).into_iter().collect_view()}
                                <th scope="col"><span class="sr-only">"add or remove"</span></th>
                            </tr></thead>
                            <tbody>
                                {ProbeKind::ALL.into_iter().map(|kind| probe_rows(ci, own, &name, &label, kind, present[kind.index()])).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            }).collect_view()}
        </div>
    }
}

/// One container's probe texts and the messages of its cells, each a memo that its table's
/// inputs read (rather than every input reading `Ui::settings` and `Ui::errors`): a signal
/// unsubscribes a reader by shifting the readers after it, so a workload of hundreds of
/// containers (thousands of inputs on the same two signals) took seconds per import.
#[derive(Clone, Copy)]
struct Own {
    texts: Memo<Option<[Option<[String; 6]>; 3]>>,
    errors: Memo<Vec<(Field, String)>>,
}

impl Own {
    fn new(ci: usize) -> Own {
        let ui = Ui::get();
        let settings = ui.settings;
        Own {
            texts: Memo::new(move |_| {
                settings.with(|s| s.probes.get(ci).map(|c| c.probes.clone()))
            }),
            errors: Memo::new(move |_| {
                ui.errors.with(|es| {
                    es.iter()
                        .filter(|(f, _)| matches!(f, Field::Probe(c) if c.container == ci as u16))
                        .cloned()
                        .collect()
                })
            }),
        }
    }

    /// The messages of one cell, joined (`Ui::err_for`).
    fn err_for(self, f: Field) -> String {
        self.errors.with(|es| errors_of(es, f))
    }
}

/// One probe's row (inputs, or "not set") and the row of its messages; `spoken`: the table's
/// label (`frontend/server`).
fn probe_rows(
    ci: usize,
    own: Own,
    name: &str,
    spoken: &str,
    kind: ProbeKind,
    present: bool,
) -> impl IntoView {
    let ui = Ui::get();
    let settings = ui.settings;
    let cell = move |field| {
        Field::Probe(Cell {
            container: ci as u16,
            kind,
            field,
        })
    };
    let set = move |v: Option<[String; 6]>| {
        settings.update(|s| {
            if let Some(c) = s.probes.get_mut(ci) {
                c.probes[kind.index()] = v;
            }
        })
    };
    let inputs = ProbeField::ALL.into_iter().enumerate().map(|(fi, f)| {
        let field = cell(Some(f));
        let id = cell_id(name, kind, Some(f));
        let invalid = move || !own.err_for(field).is_empty();
        view! {
            <td><input id=id.clone() type="text" inputmode="decimal" class="probe-input"
                aria-label=format!("{spoken} {} {}", kind.k8s(), f.k8s())
                aria-describedby=format!("{id}-error")
                aria-invalid=move || invalid().to_string()
                prop:value=move || own.texts.with(|t| t.as_ref().and_then(|t| t[kind.index()].as_ref()).map(|t| t[fi].clone()).unwrap_or_default())
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    settings.update(|s| {
                        if let Some(t) = s.probes.get_mut(ci).and_then(|c| c.probes[kind.index()].as_mut()) {
                            t[fi] = v;
                        }
                    });
                } /></td>
        }
    }).collect_view();
    let errors = std::iter::once(None)
        .chain(ProbeField::ALL.map(Some))
        .map(|f| {
            let id = format!("{}-error", cell_id(name, kind, f));
            view! { <p class="field-error" id=id role="alert">{move || own.err_for(cell(f))}</p> }
        })
        .collect_view();
    let label = format!("{spoken} {}", kind.k8s());
    view! {
        <tr>
            <th scope="row">{kind.k8s()}</th>
            {if present {
                view! {
                    {inputs}
                    <td><button type="button" class="probe-toggle" aria-label=format!("Remove {label}") on:click=move |_| set(None)>"Remove"</button></td>
                }.into_any()
            } else {
                view! {
                    <td colspan="6" class="unset">"not set"</td>
                    <td><button type="button" class="probe-toggle" id=cell_id(name, kind, None) aria-label=format!("Add {label} (Kubernetes defaults)") on:click=move |_| set(Some(texts(&Probe::default())))>"Add"</button></td>
                }.into_any()
            }}
        </tr>
        <tr class="probe-errors"><td colspan="8">{errors}</td></tr>
    }
}
