//! [`Objects`] → the validated [`Scenario`]: the pods each workload puts on this node, each with
//! its workload as its owner and named as its controller names it ([`Owner::pod_names`]: `db-0`
//! of a StatefulSet, `web-688597-w57c9` of a Deployment, `node-exporter-6nhns` of a DaemonSet; a
//! bare Pod by its own name), every Service whose selector matches each pod
//! (the EndpointSlice controller lists a pod in each: `pkg/controller/endpointslice`
//! `syncService` selects the pods of one Service by its `spec.selector`), the
//! PodDisruptionBudget and the pods its own selector matches (`pkg/controller/disruption`
//! `getPodsForPdb`), the unreachable toleration, and a kubelet restart like the presets' (20 s at
//! 30 s; `Scenario::with_restart` sets the horizon). Validation errors are placed back in the
//! manifest (workload, document, line). Called by `lib.rs`.

use crate::objects::{Objects, ServiceObj, WorkloadObj};
use crate::podspec::Tolerates;
use crate::{
    ErrorKind, Import, ImportError, ImportOptions, Workload, IMPORT_DOWNTIME_S, IMPORT_RESTART_AT_S,
};
use restartscope_sim::{
    limits, Cluster, Kubelet, Owner, OwnerKind, Pdb, Pod, Policy, Scenario, Workload as Kind,
};

fn matches(selector: &[(String, String)], labels: &[(String, String)]) -> bool {
    !selector.is_empty() && selector.iter().all(|s| labels.contains(s))
}

/// A headless Service (`clusterIP: None`). It still gets EndpointSlices (the controller manages
/// the slices of every Service with a selector, headless or not); notes name it as headless.
fn is_headless(s: &ServiceObj) -> bool {
    s.headless
}

/// `frontend`, `loki-memberlist (headless)`.
fn service_label(s: &ServiceObj) -> String {
    if is_headless(s) {
        format!("{} (headless)", s.name)
    } else {
        s.name.clone()
    }
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
                "kind {k} is not a workload: RestartScope imports the pods of Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController, Job and CronJob (Service and PodDisruptionBudget only alongside them){}",
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
    // A workload's own name first (`ValidateObjectMeta` with the kind's name rule, a DNS-1123
    // subdomain for every workload kind): said once, not once per pod named after it.
    for w in &workloads {
        if !restartscope_sim::dns_subdomain_ok(&w.name) {
            let at = w.template.locs.first();
            return Err(ImportError {
                kind: ErrorKind::Invalid,
                message: format!(
                    "metadata.name must be {}, got {:?} ({} {}): the API server refuses it",
                    restartscope_sim::SUBDOMAIN,
                    w.name,
                    w.kind,
                    w.name
                ),
                source: w.source.clone(),
                document: Some(w.document),
                line: at.map(|a| a.1),
                column: at.map(|a| a.2),
                errors: Vec::new(),
            });
        }
    }
    let mut pods = Vec::new();
    let mut infos = Vec::new();
    // For validation errors: scenario path prefix → (workload index, line, column).
    let mut locs: Vec<(String, usize, usize, usize)> = Vec::new();
    let mut toleration: Option<(f64, String)> = None;
    let on_node = |w: &WorkloadObj| -> usize {
        (match w.template.pod.workload {
            Kind::DaemonSet => 1,
            _ => opts
                .replicas_on_node
                .map_or(w.replicas, |r| r.min(w.replicas)),
        }) as usize
    };
    let wanted: usize = workloads.iter().map(on_node).sum();
    if wanted > limits::PODS.1 {
        return Err(too_many_pods(&workloads, wanted, on_node));
    }
    // Names taken: the bare Pods' own first, so that no generated name is one of them.
    // At most `limits::PODS` (1,000) names: a list is enough.
    let mut used: Vec<String> = workloads
        .iter()
        .filter(|w| w.kind == "Pod")
        .map(|w| w.name.clone())
        .collect();
    for (wi, w) in workloads.iter().enumerate() {
        let n = on_node(w);
        let selecting: Vec<&ServiceObj> = services
            .iter()
            .filter(|s| matches(&s.selector, &w.labels))
            .collect();
        if selecting.len() > 1 {
            notes.push(format!(
                "{} {}: Services {} select its pods; each lists them in its own EndpointSlices, so a change of a pod's endpoint updates a slice of each",
                w.kind,
                w.name,
                selecting
                    .iter()
                    .map(|s| service_label(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let service: Vec<String> = selecting.iter().map(|s| s.name.clone()).collect();
        tolerate(w, &mut toleration, &mut notes);
        let first = pods.len();
        let owner = OwnerKind::from_kind(w.kind).map(|k| Owner::new(k, &w.name));
        let names = match &owner {
            Some(o) => o.pod_names(0, n, &mut used),
            None => vec![w.name.clone(); n],
        };
        for name in names {
            let mut p = w.template.pod.clone();
            p.name = name;
            p.owner = owner.as_ref().map(Owner::to_string);
            p.services = service.clone();
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
            if s.selector.is_empty() {
                notes.push(format!(
                    "Service {}: it has no selector (its EndpointSlices are not the EndpointSlice controller's), so it lists none of the pods",
                    service_label(s)
                ));
            } else if !workloads.iter().any(|w| matches(&s.selector, &w.labels)) {
                notes.push(format!(
                    "Service {}: its selector matches none of the workloads' pods",
                    service_label(s)
                ));
            }
        }
    } else {
        notes.push("no Service in the manifests: the pods are behind no Service, so no endpoints are shown (add the Service's manifest to see them)".into());
    }
    let pdb = budget(&pdbs, &workloads, &infos, &pods, &mut notes);
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
        node: Default::default(),
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

/// The first PodDisruptionBudget whose `matchLabels` select pods of the workloads (the model has
/// one budget): it covers the pods its own selector matches, as the disruption controller's
/// `getPodsForPdb` lists them by `spec.selector`, whether or not a Service selects them.
fn budget(
    pdbs: &[crate::objects::PdbObj],
    workloads: &[WorkloadObj],
    infos: &[Workload],
    pods: &[Pod],
    notes: &mut Vec<String>,
) -> Option<Pdb> {
    let mut chosen: Option<(Pdb, &str)> = None;
    for b in pdbs {
        let covered: Vec<String> = workloads
            .iter()
            .zip(infos)
            .filter(|(w, _)| matches(&b.match_labels, &w.labels))
            .flat_map(|(_, info)| &pods[info.first_pod..info.first_pod + info.pods])
            .map(|p| p.name.clone())
            .collect();
        match &chosen {
            None if !covered.is_empty() => {
                chosen = Some((
                    Pdb {
                        pods: covered,
                        service: None,
                        min_available: b.min_available.clone(),
                        max_unavailable: b.max_unavailable.clone(),
                    },
                    &b.name,
                ))
            }
            None => notes.push(format!(
                "PodDisruptionBudget {}: its matchLabels select none of the workloads' pods, so it is not used",
                b.name
            )),
            Some((_, first)) => notes.push(format!(
                "PodDisruptionBudget {}: the model has one budget; the first that selects pods is used ({first})",
                b.name
            )),
        }
    }
    chosen.map(|(p, _)| p)
}

/// More pods than RestartScope simulates on one node: the workloads and their pods, and how to
/// import fewer.
fn too_many_pods(
    workloads: &[WorkloadObj],
    wanted: usize,
    on_node: impl Fn(&WorkloadObj) -> usize,
) -> ImportError {
    let max = limits::PODS.1;
    let biggest = workloads.iter().max_by_key(|w| on_node(w));
    let each: Vec<String> = workloads
        .iter()
        .map(|w| format!("{} {}: {}", w.kind, w.name, on_node(w)))
        .collect();
    let message = format!(
        "the workloads put {wanted} pods on this node ({}); RestartScope simulates at most {max} pods on one node (its own limit, not Kubernetes'): import fewer replicas on this node (--replicas-on-node N, or Replicas on this node in the import panel)",
        each.join(", ")
    );
    ImportError {
        kind: ErrorKind::Invalid,
        errors: vec![restartscope_sim::FieldError {
            field: "pods".into(),
            k8s: "pods".into(),
            message: message.clone(),
        }],
        message,
        source: biggest.map_or(String::new(), |w| w.source.clone()),
        document: biggest.map(|w| w.document),
        line: None,
        column: None,
    }
}

/// The model's validation errors, each placed at the workload and line it comes from; one
/// message per place (replicas repeat their template's errors). The error's own line and column
/// are the first placed error's, which `ImportError`'s `Display` writes after the message
/// (`… at line 14 column 23`): so that place's messages name their workload without the line and
/// come last, right before it, and the line is said once.
fn placed(
    errs: Vec<restartscope_sim::FieldError>,
    workloads: &[WorkloadObj],
    locs: &[(String, usize, usize, usize)],
) -> ImportError {
    let place = |e: &restartscope_sim::FieldError| {
        locs.iter()
            .filter(|(p, ..)| e.field == *p || e.field.starts_with(&format!("{p}.")))
            .max_by_key(|(p, ..)| p.len())
            .or_else(|| {
                // A pod-level field: the pod's workload, at its first container.
                let pod = e.field.strip_prefix("pods[")?.split(']').next()?;
                let prefix = format!("pods[{pod}].");
                locs.iter().find(|(p, ..)| p.starts_with(&prefix))
            })
            .map(|(_, wi, l, c)| (*wi, *l, *c))
    };
    let first_at = errs.iter().find_map(place);
    // (message, at the first place)
    let mut lines: Vec<(String, bool)> = Vec::new();
    for e in &errs {
        let line = match place(e) {
            Some((wi, l, _)) => {
                let w = &workloads[wi];
                let here = first_at.is_some_and(|f| (f.0, f.1) == (wi, l));
                if here {
                    (format!("{} ({} {})", e.message, w.kind, w.name), true)
                } else {
                    (
                        format!("{} ({} {}, line {l})", e.message, w.kind, w.name),
                        false,
                    )
                }
            }
            None => (e.message.clone(), false),
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    // Stable: the other places in their order, then the first place's.
    lines.sort_by_key(|(_, here)| *here);
    let w = first_at.map(|a| &workloads[a.0]);
    ImportError {
        kind: ErrorKind::Invalid,
        message: lines
            .into_iter()
            .map(|(m, _)| m)
            .collect::<Vec<_>>()
            .join("; "),
        source: w.map_or(String::new(), |w| w.source.clone()),
        document: w.map(|w| w.document),
        line: first_at.map(|a| a.1),
        column: first_at.map(|a| a.2),
        errors: errs,
    }
}
