//! The pods of a scenario: names, containers and init containers (`validateContainers`,
//! `validateInitContainers`, `validateInitContainerRestartPolicy` in
//! `pkg/apis/core/validation/validation.go`), probes, truth, and the PodDisruptionBudget
//! (`ValidatePodDisruptionBudgetSpec`, `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`
//! in `pkg/apis/policy/validation/validation.go`). Called by `Scenario::validate`.

use super::check::{
    dns_label_ok, dns_subdomain_ok, limits, probe, LABEL, LABEL_1035, SUBDOMAIN, V,
};
use super::types::{
    Container, IntOrPercent, Owner, OwnerKind, Pod, Scenario, Workload, OWNER_KINDS,
    RESTART_POLICY_ALWAYS,
};
use std::collections::BTreeSet;

pub(super) fn pods(v: &mut V, sc: &Scenario, horizon: f64) {
    use limits::*;
    v.capacity(
        "pods",
        "pods",
        sc.pods.len(),
        PODS,
        "use fewer pods (an import: fewer replicas on this node, --replicas-on-node N)",
    );
    let mut names = BTreeSet::new();
    for (i, p) in sc.pods.iter().enumerate() {
        let pf = format!("pods[{i}]");
        let name = format!("{pf}.name");
        if !dns_subdomain_ok(&p.name) {
            v.push(
                &name,
                "metadata.name",
                format!("metadata.name must be {SUBDOMAIN}, got {:?}", p.name),
            );
        } else if !names.insert(p.name.as_str()) {
            v.push(
                &name,
                "metadata.name",
                format!("metadata.name {:?} is used by two pods", p.name),
            );
        }
        owner(v, &pf, p);
        for (k, s) in p.services.iter().enumerate() {
            if !dns_label_ok(s, true) {
                let f = format!("{pf}.service[{k}]");
                v.push(
                    &f,
                    "service",
                    format!("service (a Service's metadata.name) must be {LABEL_1035}, got {s:?}"),
                );
            }
        }
        // `ValidatePodSpec`: `ValidateNonnegativeField(*spec.TerminationGracePeriodSeconds)`;
        // an int64, so no upper bound of ours.
        v.at_least(
            &format!("{pf}.termination_grace_s"),
            "terminationGracePeriodSeconds",
            p.termination_grace_s,
            TERM_GRACE_S.0,
        );
        v.capacity(
            &format!("{pf}.containers"),
            "containers",
            p.containers.len(),
            CONTAINERS,
            "leave out the containers whose probes the story does not need",
        );
        v.capacity(
            &format!("{pf}.init_containers"),
            "init containers",
            p.init_containers.len(),
            (0, INIT_CONTAINERS),
            "leave out the ordinary init containers (they completed before the story starts)",
        );
        // Names are unique across init containers and containers (`validateInitContainers`
        // checks each init container's name against `allNames`, the containers' names).
        let mut cnames = BTreeSet::new();
        for (j, ct) in p.init_containers.iter().enumerate() {
            container(v, &pf, &mut cnames, ct, Slot::Init(j), horizon);
        }
        for (j, ct) in p.containers.iter().enumerate() {
            container(v, &pf, &mut cnames, ct, Slot::Regular(j), horizon);
        }
    }
    if let Some(pdb) = &sc.pdb {
        budget(v, sc, pdb);
    }
}

/// The pod's workload (`owner`): its name is an object's `metadata.name`, and a DaemonSet's
/// pods are `workload = "daemonset"` (they tolerate the unreachable taint forever, as the
/// DaemonSet controller's own toleration does) and only theirs (the model's check: the owner
/// and the kind say the same).
fn owner(v: &mut V, pf: &str, p: &Pod) {
    let Some(text) = &p.owner else {
        return;
    };
    let f = format!("{pf}.owner");
    let Some(o) = Owner::parse(text) else {
        v.push(
            &f,
            &f,
            format!(
                "{f} must be KIND/NAME, the pod's workload (\"Deployment/web\"), KIND one of {OWNER_KINDS}; got {text:?}"
            ),
        );
        return;
    };
    if !dns_subdomain_ok(&o.name) {
        v.push(
            &f,
            "metadata.name",
            format!(
                "metadata.name of the pod's owner, {} {:?}, must be {SUBDOMAIN}",
                o.kind, o.name
            ),
        );
    }
    let ds = p.workload == Workload::DaemonSet;
    if ds != (o.kind == OwnerKind::DaemonSet) {
        let f = format!("{pf}.workload");
        let (want, got) = if ds {
            ("deployment", "daemonset")
        } else {
            ("daemonset", "deployment")
        };
        v.push(
            &f,
            &f,
            format!(
                "{f} must be {want:?} for a pod of {o}, got {got:?} (\"daemonset\" is a DaemonSet's pod, which tolerates the unreachable taint forever)"
            ),
        );
    }
}

#[derive(Clone, Copy)]
enum Slot {
    Init(usize),
    Regular(usize),
}

fn container<'a>(
    v: &mut V,
    pf: &str,
    cnames: &mut BTreeSet<&'a str>,
    ct: &'a Container,
    slot: Slot,
    horizon: f64,
) {
    use limits::*;
    let (cf, k8s) = match slot {
        Slot::Init(j) => (
            format!("init_containers[{j}]"),
            format!("initContainers[{j}]"),
        ),
        Slot::Regular(j) => (format!("containers[{j}]"), format!("containers[{j}]")),
    };
    let cf = format!("{pf}.{cf}");
    let k8s_name = format!("{k8s}.name");
    if !dns_label_ok(&ct.name, false) {
        v.push(
            &format!("{cf}.name"),
            &k8s_name,
            format!("{k8s_name} must be {LABEL}, got {:?}", ct.name),
        );
    } else if !cnames.insert(ct.name.as_str()) {
        v.push(
            &format!("{cf}.name"),
            &k8s_name,
            format!(
                "{k8s_name} {:?} is used by two containers of the pod (Kubernetes: Duplicate value; init containers and containers share one set of names)",
                ct.name
            ),
        );
    }
    let sidecar = ct.restart_policy.as_deref() == Some(RESTART_POLICY_ALWAYS);
    let rp = format!("{k8s}.restartPolicy");
    match (slot, ct.restart_policy.as_deref()) {
        (_, None) => {}
        // validateInitContainerRestartPolicy: Always, or unset.
        (Slot::Init(_), Some(RESTART_POLICY_ALWAYS)) => {}
        (Slot::Init(_), Some(other)) => v.push(
            &format!("{cf}.restart_policy"),
            &rp,
            format!(
                "{rp} must be \"Always\" (a sidecar) or unset (an ordinary init container), got {other:?} (Kubernetes: Unsupported value)"
            ),
        ),
        // A regular container's restartPolicy is ContainerRestartRules (KEP-5307), which the
        // model does not have.
        (Slot::Regular(_), Some(other)) => v.push(
            &format!("{cf}.restart_policy"),
            &rp,
            format!(
                "{rp} on a regular container (container restart rules) is not modelled, got {other:?}; a sidecar is an init container with restartPolicy \"Always\""
            ),
        ),
    }
    let warm = format!("{cf}.warmup_s");
    v.secs(&warm, &warm, ct.warmup_s, WARMUP_S);
    let ordinary_init = matches!(slot, Slot::Init(_)) && !sidecar;
    // Probe messages name the container (`containers[app].readinessProbe.periodSeconds`): the
    // same setting reads the same in every pod, and the form finds its input by the name.
    let named = match slot {
        Slot::Init(_) => format!("initContainers[{}]", ct.name),
        Slot::Regular(_) => format!("containers[{}]", ct.name),
    };
    for (kind, k8s_probe, pr) in [
        ("startup_probe", "startupProbe", &ct.startup_probe),
        ("readiness_probe", "readinessProbe", &ct.readiness_probe),
        ("liveness_probe", "livenessProbe", &ct.liveness_probe),
    ] {
        let Some(pr) = pr else {
            continue;
        };
        let f = format!("{cf}.{kind}");
        if ordinary_init {
            // validateInitContainers: field.Forbidden for a probe on an init container
            // without restartPolicy=Always.
            let k = format!("{k8s}.{k8s_probe}");
            v.push(
                &f,
                &k,
                format!(
                    "{k} may not be set for init containers without restartPolicy=Always (Kubernetes: Forbidden)"
                ),
            );
        } else {
            probe(v, &f, &named, k8s_probe, pr);
        }
    }
    if ordinary_init && !ct.truth.is_empty() {
        // The model's own limit: ordinary init containers completed before the story starts.
        let f = format!("{cf}.truth");
        v.push(
            &f,
            &f,
            format!(
                "{f} must be empty: an ordinary init container ran to completion before the story starts and stays completed (give a sidecar, restart_policy = \"Always\", a truth instead)"
            ),
        );
    }
    if ct.truth.len() > TRUTH_ENTRIES {
        let f = format!("{cf}.truth");
        v.push(
            &f,
            &f,
            format!(
                "{f} may hold at most {TRUTH_ENTRIES} entries, got {}",
                ct.truth.len()
            ),
        );
    }
    let mut last = f64::NEG_INFINITY;
    for (k2, t) in ct.truth.iter().enumerate() {
        let f = format!("{cf}.truth[{k2}].at_s");
        if !(t.at_s.is_finite() && t.at_s >= 0.0 && t.at_s <= horizon) {
            v.push(
                &f,
                &f,
                format!(
                    "{f} must be between 0 and {horizon} seconds (inside horizon_s), got {}",
                    t.at_s
                ),
            );
        }
        if t.at_s < last {
            v.push(
                &f,
                &f,
                format!(
                    "{f} must not be before the entry above it: truth entries are in time order"
                ),
            );
        }
        last = t.at_s;
    }
}

/// `ValidatePodDisruptionBudgetSpec`: not both of minAvailable and maxUnavailable; each a
/// non-negative int or a percent of at most 100 % (`ValidatePositiveIntOrPercent`,
/// `IsNotMoreThan100Percent`). The pods it names must be the scenario's, or its Service one of
/// theirs (the model's check: the selector has to match pods the model runs).
fn budget(v: &mut V, sc: &Scenario, pdb: &super::types::Pdb) {
    if pdb.min_available.is_some() && pdb.max_unavailable.is_some() {
        v.push(
            "pdb",
            "spec",
            "spec: minAvailable and maxUnavailable cannot be both set (Kubernetes: Invalid value)"
                .into(),
        );
    }
    for (f, k8s, x) in [
        ("pdb.min_available", "spec.minAvailable", &pdb.min_available),
        (
            "pdb.max_unavailable",
            "spec.maxUnavailable",
            &pdb.max_unavailable,
        ),
    ] {
        match x {
            None => {}
            Some(IntOrPercent::Int(n)) if *n < 0 => v.push(
                f,
                k8s,
                format!("{k8s} must be greater than or equal to 0, got {n}"),
            ),
            Some(IntOrPercent::Int(_)) => {}
            Some(IntOrPercent::Str(s)) => match s.strip_suffix('%').map(str::parse::<u64>) {
                Some(Ok(pc)) if s.bytes().next().is_some_and(|b| b.is_ascii_digit()) => {
                    if pc > 100 {
                        v.push(f, k8s, format!("{k8s} must not be greater than 100%, got {s:?}"));
                    }
                }
                _ => v.push(
                    f,
                    k8s,
                    format!(
                        "{k8s} must be an integer or a percent: a numeric string followed by '%' (e.g. '1%' or '93%'), got {s:?}"
                    ),
                ),
            },
        }
    }
    if !pdb.pods.is_empty() {
        if pdb.service.is_some() {
            v.push(
                "pdb.service",
                "pdb.service",
                "pdb.service: the budget names its pods (pdb.pods); leave out pdb.service".into(),
            );
        }
        for (k, name) in pdb.pods.iter().enumerate() {
            if !sc.pods.iter().any(|p| &p.name == name) {
                let f = format!("pdb.pods[{k}]");
                v.push(
                    &f,
                    &f,
                    format!("{f} must name one of the pods, got {name:?}"),
                );
            }
        }
        return;
    }
    match &pdb.service {
        Some(s) if !sc.pods.iter().any(|p| p.services.contains(s)) => v.push(
            "pdb.service",
            "pdb.service",
            format!("pdb.service must name the Service of one of the pods, got {s:?}"),
        ),
        None if sc.pods.iter().all(|p| p.services.is_empty()) => v.push(
            "pdb.service",
            "pdb.service",
            "pdb.service: no pod has a Service for the budget's selector to match".into(),
        ),
        _ => {}
    }
}
