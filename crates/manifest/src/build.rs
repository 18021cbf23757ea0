//! [`Objects`] → the validated [`Scenario`]: the pods each workload puts on this node (named as
//! their controllers would, `web-0`, `web-1`, …), the Service whose selector matches each pod,
//! the PodDisruptionBudget, the unreachable toleration, and a kubelet restart like the presets'
//! (20 s at 30 s; `Scenario::with_restart` sets the horizon). Validation errors are placed back
//! in the manifest (workload, document, line). Called by `lib.rs`.

use crate::objects::{Objects, WorkloadObj};
use crate::podspec::Tolerates;
use crate::{
    ErrorKind, Import, ImportError, ImportOptions, Workload, IMPORT_DOWNTIME_S, IMPORT_RESTART_AT_S,
};
use restartscope_sim::{limits, Cluster, Kubelet, Pdb, Policy, Scenario, Workload as Kind};

fn matches(selector: &[(String, String)], labels: &[(String, String)]) -> bool {
    !selector.is_empty() && selector.iter().all(|s| labels.contains(s))
}

pub(crate) fn scenario(o: Objects, opts: &ImportOptions) -> Result<Import, ImportError> {
    let Objects {
        workloads,
        services,
        pdbs,
        others,
        mut unused,
        mut notes,
        settings,
    } = o;
    if workloads.is_empty() {
        let found: Vec<String> = others
            .iter()
            .map(|(o, ..)| o.split(' ').next().unwrap_or("").to_string())
            .chain(services.iter().map(|_| "Service".to_string()))
            .chain(pdbs.iter().map(|_| "PodDisruptionBudget".to_string()))
            .collect();
        let message = match found.first() {
            None => "the input holds no Kubernetes object".to_string(),
            Some(k) => format!(
                "kind {k} is not a workload: RestartScope imports the pods of Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job and CronJob (Service and PodDisruptionBudget only alongside them){}",
                if found.len() > 1 {
                    format!("; the input holds {}", found.join(", "))
                } else {
                    String::new()
                }
            ),
        };
        let at = others.first();
        return Err(ImportError {
            kind: ErrorKind::NotWorkload,
            message,
            source: at.map_or(String::new(), |a| a.1.clone()),
            document: None,
            line: at.map(|a| a.2),
            column: at.map(|a| a.3),
            errors: Vec::new(),
        });
    }
    let mut pods = Vec::new();
    let mut infos = Vec::new();
    // For validation errors: scenario path prefix → (workload index, line, column).
    let mut locs: Vec<(String, usize, usize, usize)> = Vec::new();
    let mut toleration: Option<(f64, String)> = None;
    for (wi, w) in workloads.iter().enumerate() {
        let n = match w.template.pod.workload {
            Kind::DaemonSet => 1,
            _ => opts
                .replicas_on_node
                .map_or(w.replicas, |r| r.min(w.replicas)),
        } as usize;
        let service = services
            .iter()
            .filter(|s| matches(&s.selector, &w.labels))
            .map(|s| s.name.clone())
            .collect::<Vec<_>>();
        if service.len() > 1 {
            notes.push(format!(
                "{} {}: Services {} select its pods; the model puts a pod behind one Service: {}",
                w.kind,
                w.name,
                service.join(", "),
                service[0]
            ));
        }
        tolerate(w, &mut toleration, &mut notes);
        let first = pods.len();
        for i in 0..n.min(limits::PODS.1 + 1) {
            let mut p = w.template.pod.clone();
            p.name = pod_name(w, i);
            p.service = service.first().cloned();
            for (path, line, col) in &w.template.locs {
                locs.push((format!("pods[{}].{path}", pods.len()), wi, *line, *col));
            }
            pods.push(p);
        }
        infos.push(Workload {
            kind: w.kind.to_string(),
            name: w.name.clone(),
            source: w.source.clone(),
            document: w.document,
            replicas: w.replicas,
            first_pod: first,
            pods: pods.len() - first,
        });
    }
    if !services.is_empty() {
        for s in &services {
            if !pods.iter().any(|p| p.service.as_deref() == Some(&s.name)) {
                notes.push(format!(
                    "Service {}: its selector matches none of the pods",
                    s.name
                ));
            }
        }
    } else {
        notes.push("no Service in the manifests: the pods are behind no Service, so no endpoints are shown (add the Service's manifest to see them)".into());
    }
    let pdb = budget(&pdbs, &workloads, &pods, &mut notes);
    let name = scenario_name(&infos);
    let description = format!(
        "Imported: {}",
        infos
            .iter()
            .map(|w| format!(
                "{} {} ({} of {} on this node)",
                w.kind, w.name, w.pods, w.replicas
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut cluster = Cluster::default();
    if let Some((t, _)) = &toleration {
        cluster.toleration_s = *t;
    }
    settings.apply(&mut cluster);
    let sc = Scenario {
        name,
        description,
        cluster,
        kubelet: Kubelet {
            policy: Policy::Kep,
            restarts: Vec::new(),
            api_unreachable: Vec::new(),
            first_sync_delay_s: 2.0,
        },
        pods,
        pdb: None,
        seed: 1,
        horizon_s: 0.0,
    }
    .with_pdb(pdb)
    .with_restart(IMPORT_RESTART_AT_S, IMPORT_DOWNTIME_S);
    if let Err(errs) = sc.validate() {
        return Err(placed(errs, &workloads, &locs));
    }
    unused.sort_by(|a, b| (&a.source, a.document, a.line).cmp(&(&b.source, b.document, b.line)));
    Ok(Import {
        scenario: sc,
        workloads: infos,
        unused,
        notes,
        settings,
    })
}

/// As its controller names it, minus the random suffix: a Pod by its name, a StatefulSet's pods
/// by ordinal (`web-0`), the others by index as well.
fn pod_name(w: &WorkloadObj, i: usize) -> String {
    match w.kind {
        "Pod" => w.name.clone(),
        _ => format!("{}-{i}", w.name),
    }
}

fn scenario_name(infos: &[Workload]) -> String {
    let mut names: Vec<&str> = infos.iter().map(|w| w.name.as_str()).take(3).collect();
    names.dedup();
    let mut s = names.join("+");
    if infos.len() > 3 {
        s.push_str("+…");
    }
    s
}

/// The unreachable toleration of `w`'s pods into the scenario's one toleration (the model has one
/// `cluster.toleration_s` for every pod; DaemonSet pods tolerate forever by kind).
fn tolerate(w: &WorkloadObj, toleration: &mut Option<(f64, String)>, notes: &mut Vec<String>) {
    if w.template.pod.workload == Kind::DaemonSet {
        return;
    }
    let secs = match w.template.tolerates {
        Tolerates::Default => Cluster::default().toleration_s,
        Tolerates::Seconds(s) => (s.max(0) as f64).min(limits::TOLERATION_S.1),
        // Longer than any horizon the model accepts: never evicted within the run.
        Tolerates::Forever => limits::TOLERATION_S.1,
    };
    let who = format!("{} {}", w.kind, w.name);
    match toleration {
        None => *toleration = Some((secs, who.clone())),
        Some((t, first)) if *t != secs => notes.push(format!(
            "{who} tolerates node.kubernetes.io/unreachable for {secs} s, {first} for {t} s; the model has one toleration for every pod: {t} s (of {first})"
        )),
        Some(_) => {}
    }
    if w.template.tolerates == Tolerates::Forever {
        notes.push(format!(
            "{who} tolerates node.kubernetes.io/unreachable without tolerationSeconds (never evicted): the model uses {} s, longer than any run",
            limits::TOLERATION_S.1
        ));
    }
}

/// The first PodDisruptionBudget whose `matchLabels` select a workload behind a Service (the
/// model's budget covers one Service's pods).
fn budget(
    pdbs: &[crate::objects::PdbObj],
    workloads: &[WorkloadObj],
    pods: &[restartscope_sim::Pod],
    notes: &mut Vec<String>,
) -> Option<Pdb> {
    let mut chosen = None;
    for b in pdbs {
        let service = workloads
            .iter()
            .filter(|w| matches(&b.match_labels, &w.labels))
            .find_map(|w| {
                let prefix = pod_name(w, 0);
                pods.iter()
                    .find(|p| p.name == prefix || p.name == w.name)
                    .and_then(|p| p.service.clone())
            });
        match (&chosen, service) {
            (None, Some(s)) => {
                chosen = Some(Pdb {
                    service: Some(s),
                    min_available: b.min_available.clone(),
                    max_unavailable: b.max_unavailable.clone(),
                })
            }
            (None, None) => notes.push(format!(
                "PodDisruptionBudget {}: its matchLabels select no workload behind a Service; the model's budget covers a Service's pods, so it is not used",
                b.name
            )),
            (Some(_), _) => notes.push(format!(
                "PodDisruptionBudget {}: the model has one budget; the first one is used",
                b.name
            )),
        }
    }
    chosen
}

/// The model's validation errors, each placed at the workload and line it comes from; one
/// message per place (replicas repeat their template's errors).
fn placed(
    errs: Vec<restartscope_sim::FieldError>,
    workloads: &[WorkloadObj],
    locs: &[(String, usize, usize, usize)],
) -> ImportError {
    let mut lines: Vec<String> = Vec::new();
    let mut first_at = None;
    for e in &errs {
        let at = locs
            .iter()
            .filter(|(p, ..)| e.field == *p || e.field.starts_with(&format!("{p}.")))
            .max_by_key(|(p, ..)| p.len())
            .or_else(|| {
                // A pod-level field: the pod's workload, at its first container.
                let pod = e.field.strip_prefix("pods[")?.split(']').next()?;
                let prefix = format!("pods[{pod}].");
                locs.iter().find(|(p, ..)| p.starts_with(&prefix))
            });
        let line = match at {
            Some((_, wi, l, c)) => {
                first_at.get_or_insert((*wi, *l, *c));
                let w = &workloads[*wi];
                format!("{} ({} {}, line {l})", e.message, w.kind, w.name)
            }
            None => e.message.clone(),
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let w = first_at.map(|a| &workloads[a.0]);
    ImportError {
        kind: ErrorKind::Invalid,
        message: lines.join("; "),
        source: w.map_or(String::new(), |w| w.source.clone()),
        document: w.map(|w| w.document),
        line: first_at.map(|a| a.1),
        column: first_at.map(|a| a.2),
        errors: errs,
    }
}
