//! The operator's knobs of `simulate`: `--pods N`, `--probe [WORKLOAD/]CONTAINER.KIND.FIELD=VALUE`
//! (`[WORKLOAD/]CONTAINER.KIND=on|off`) and `--restart AT:DOWNTIME` (repeatable). Only the syntax is checked here; ranges and Kubernetes' rules
//! between fields are the model's validation (`Overrides::apply`), as in the web form.

use super::UserError;
use restartscope_sim::{
    parse_probe_key, parse_span, ProbeChange, ProbeEdit, ProbeField, ProbeOverrides, Restart,
    RestartKind, MAX_PODS,
};

/// `--restart 30s:20s`, `--restart 5m:1m30s`: one kubelet restart, when it stops and how long it
/// stays down (`kubelet.restarts[i].at_s` / `downtime_s`); `--restart 30s:90s:runtime` and
/// `--restart 30s:2m:node` name what restarts (`what`: kubelet, runtime or node). Ranges and
/// overlaps are the model's validation.
pub fn restart(value: &str) -> Result<Restart, UserError> {
    let usage = || {
        format!("invalid --restart {value:?}; use AT:DOWNTIME[:WHAT], e.g. 30s:20s, 5m:1m30s or 30s:90s:runtime (when it stops : how long it stays down : kubelet, runtime or node; kubelet by default)")
    };
    let (span, what) = match value.rsplit_once(':') {
        Some((span, w)) if RestartKind::parse(w).is_some() => (span, RestartKind::parse(w)),
        _ => (value, None),
    };
    let (at_s, downtime_s) = parse_span(span).ok_or_else(usage)?;
    Ok(Restart::of(what.unwrap_or_default(), at_s, downtime_s))
}

/// `--pods N`: 1 to the kubelet's default maxPods.
pub fn pods(value: &str) -> Result<usize, UserError> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_PODS).contains(&n) => Ok(n),
        _ => Err(format!(
            "invalid --pods {value:?}: pods must be between 1 and {MAX_PODS} ({MAX_PODS} is the kubelet's default maxPods, the most pods one node runs)"
        )
        .into()),
    }
}

/// `--probe app.livenessProbe.periodSeconds=5`, `--probe app.livenessProbe=off`: the container
/// in every pod; `--probe frontend/server.readinessProbe.periodSeconds=5`: in workload
/// `frontend`'s pods only (`Pod::workload_name`: an imported Deployment's pods by their owner,
/// `frontend-cc4c85-mprmp`, …; a preset's by their names, `frontend-0`, …).
pub fn probe(value: &str) -> Result<ProbeEdit, UserError> {
    let fields: Vec<&str> = ProbeField::ALL.iter().map(|f| f.k8s()).collect();
    let usage = || {
        format!(
            "invalid --probe {value:?}; use [WORKLOAD/]CONTAINER.KIND.FIELD=VALUE or [WORKLOAD/]CONTAINER.KIND=on|off (WORKLOAD/ for that workload's pods only), KIND one of startupProbe, readinessProbe, livenessProbe, FIELD one of {}",
            fields.join(", ")
        )
    };
    let (key, v) = value.split_once('=').ok_or_else(usage)?;
    let k = parse_probe_key(key.trim()).ok_or_else(usage)?;
    let change = match (k.field, v.trim()) {
        (None, "off") => ProbeChange::Remove,
        (None, "on") => ProbeChange::Set(ProbeOverrides::default()),
        (None, _) => return Err(usage().into()),
        (Some(f), text) => {
            let x = f.parse(text).ok_or_else(|| {
                let what = if f.is_int() {
                    "a whole number"
                } else {
                    "a number of seconds"
                };
                format!("invalid --probe {value:?}: {} takes {what}", f.k8s())
            })?;
            let mut o = ProbeOverrides::default();
            f.set(&mut o, x);
            ProbeChange::Set(o)
        }
    };
    Ok(ProbeEdit {
        workload: k.workload.map(str::to_string),
        container: k.container.to_string(),
        kind: k.kind,
        change,
    })
}

/// The model's validation errors as one line: `invalid scenario (preset x): …`.
pub(crate) fn invalid(origin: &str, errs: &[restartscope_sim::FieldError]) -> UserError {
    // One setting repeated in every pod (a --probe edit applies to each pod with the container)
    // is said once, with the scenario fields it was found in.
    let mut list: Vec<(&restartscope_sim::FieldError, usize)> = Vec::new();
    for e in errs {
        match list.iter_mut().find(|(f, _)| f.message == e.message) {
            Some((_, n)) => *n += 1,
            None => list.push((e, 1)),
        }
    }
    let list: Vec<String> = list
        .into_iter()
        .map(|(e, n)| match n {
            1 => e.to_string(),
            _ if e.field == e.k8s => e.message.clone(),
            n => format!(
                "{} (scenario fields {} and {} more)",
                e.message,
                e.field,
                n - 1
            ),
        })
        .collect();
    UserError(format!("invalid scenario {origin}: {}", list.join("; ")))
}
