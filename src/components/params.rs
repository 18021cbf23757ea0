//! The "Parameters" panel: the Kubernetes release (every kubelet profile the model knows, with
//! what it changes) and the numeric fields, each with its accepted range and its own error
//! message. Edits `Ui::settings`; the ranges and labels are `form::Field`'s.

use crate::form::{fmt_num, Field, Settings};
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_sim::{KubeVersion, VERSIONS};

/// The numeric fields, in the panel's order.
const FIELDS: [Field; 8] = [
    Field::Grace,
    Field::Toleration,
    Field::FirstSync,
    Field::Seed,
    Field::Period,
    Field::FailureThreshold,
    Field::SuccessThreshold,
    Field::Exec,
];

fn text_of(s: &Settings, f: Field) -> String {
    match f {
        Field::Grace => s.grace_s.clone(),
        Field::Toleration => s.toleration_s.clone(),
        Field::FirstSync => s.first_sync_s.clone(),
        Field::Seed => s.seed.clone(),
        Field::Period => s.period_s.clone(),
        Field::FailureThreshold => s.failure_threshold.clone(),
        Field::SuccessThreshold => s.success_threshold.clone(),
        _ => s.exec_s.clone(),
    }
}

fn set_text(s: &mut Settings, f: Field, v: String) {
    match f {
        Field::Grace => s.grace_s = v,
        Field::Toleration => s.toleration_s = v,
        Field::FirstSync => s.first_sync_s = v,
        Field::Seed => s.seed = v,
        Field::Period => s.period_s = v,
        Field::FailureThreshold => s.failure_threshold = v,
        Field::SuccessThreshold => s.success_threshold = v,
        _ => s.exec_s = v,
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

/// What the chosen release changes, from the model's profile table.
fn version_note(version: &str) -> &'static str {
    VERSIONS
        .iter()
        .find(|i| i.version.as_str() == version)
        .map(|i| i.differs)
        .unwrap_or("")
}

#[component]
pub fn Params() -> impl IntoView {
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
    view! {
        <details class="params" node_ref=details>
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
                                }
                                s.version = v;
                            });
                        }>
                        {KubeVersion::ALL.into_iter().map(|v| view! { <option value=v.as_str()>{version_option(v)}</option> }).collect_view()}
                    </select>
                    <small class="range" id="version-note">{move || settings.with(|s| version_note(&s.version))}</small>
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
                            <small class="range">{f.range_text()}</small>
                            <p class="field-error" id=err_id role="alert">{move || ui.err_for(f)}</p>
                        </div>
                    }
                }).collect_view()}
            </div>
            <p class="field-error" role="alert">{move || format!("{}{}", ui.err_for(Field::Preset), ui.err_for(Field::Version))}</p>
        </details>
    }
}
