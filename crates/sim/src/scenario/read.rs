//! A [`Scenario`] read from JSON by hand, with the rules serde derives from `types.rs` (field
//! names, `deny_unknown_fields`, defaults, renamed variants, the untagged `IntOrPercent`), so
//! that the web page reads a `scenario=` link, the importer's answer and the tour's steps without
//! serde's deserializer (`json.rs` says why). Called by the page and by
//! `restartscope_tour::data`; `crates/sim/tests/json_read.rs` checks it against serde_json on
//! every preset, the tour's steps, random scenarios and broken texts. A field added to
//! `types.rs` must be added here: that test fails until it is. Mirrors no Kubernetes file.

use super::json::{parse, Json, Obj};
use super::types::*;

type R<T> = Result<T, String>;

impl Scenario {
    /// A scenario from its JSON (what `serde_json::to_string(&scenario)` writes). Not validated:
    /// call [`Scenario::validate`].
    pub fn from_json(text: &str) -> R<Scenario> {
        Scenario::from_json_value(&parse(text)?, "")
    }

    /// A scenario from a parsed JSON value at `path` (for messages).
    pub fn from_json_value(j: &Json, path: &str) -> R<Scenario> {
        let o = Obj::new(
            j,
            path,
            &[
                "name",
                "description",
                "cluster",
                "kubelet",
                "pods",
                "pdb",
                "seed",
                "horizon_s",
            ],
        )?;
        Ok(Scenario {
            name: o.with("name", Json::string)?,
            description: o.or("description", String::new, Json::string)?,
            cluster: o.or("cluster", Cluster::default, cluster)?,
            kubelet: o.with("kubelet", kubelet)?,
            pods: o.with("pods", |j, at| j.list(at, pod))?,
            pdb: o.opt("pdb", pdb)?,
            seed: o.or("seed", d_seed, Json::int)?,
            horizon_s: o.with("horizon_s", Json::f64)?,
        })
    }
}

/// A [`Policy`] by its serde name.
pub fn policy(j: &Json, at: &str) -> R<Policy> {
    j.variant(at, &[("legacy", Policy::Legacy), ("kep", Policy::Kep)])
}

fn cluster(j: &Json, at: &str) -> R<Cluster> {
    let o = Obj::new(
        j,
        at,
        &[
            "version",
            "node_monitor_grace_s",
            "node_monitor_period_s",
            "lease_duration_s",
            "toleration_s",
        ],
    )?;
    Ok(Cluster {
        version: o.with("version", |j, at| {
            KubeVersion::parse_or_explain(&j.string(at)?).map_err(|e| format!("{at}: {e}"))
        })?,
        node_monitor_grace_s: o.opt("node_monitor_grace_s", Json::f64)?,
        node_monitor_period_s: o.or("node_monitor_period_s", d_monitor_period, Json::f64)?,
        lease_duration_s: o.or("lease_duration_s", d_lease, Json::f64)?,
        toleration_s: o.or("toleration_s", d_toleration, Json::f64)?,
    })
}

fn kubelet(j: &Json, at: &str) -> R<Kubelet> {
    let o = Obj::new(
        j,
        at,
        &[
            "policy",
            "restarts",
            "api_unreachable",
            "first_sync_delay_s",
        ],
    )?;
    Ok(Kubelet {
        policy: o.or("policy", d_policy, policy)?,
        restarts: o.with("restarts", |j, at| j.list(at, restart))?,
        api_unreachable: o.or("api_unreachable", Vec::new, |j, at| {
            j.list(at, api_unreachable)
        })?,
        first_sync_delay_s: o.or("first_sync_delay_s", d_first_sync, Json::f64)?,
    })
}

fn restart(j: &Json, at: &str) -> R<Restart> {
    let o = Obj::new(j, at, &["at_s", "downtime_s"])?;
    Ok(Restart {
        at_s: o.with("at_s", Json::f64)?,
        downtime_s: o.with("downtime_s", Json::f64)?,
    })
}

fn api_unreachable(j: &Json, at: &str) -> R<ApiUnreachable> {
    let o = Obj::new(j, at, &["at_s", "duration_s"])?;
    Ok(ApiUnreachable {
        at_s: o.with("at_s", Json::f64)?,
        duration_s: o.with("duration_s", Json::f64)?,
    })
}

fn pod(j: &Json, at: &str) -> R<Pod> {
    let o = Obj::new(
        j,
        at,
        &[
            "name",
            "workload",
            "service",
            "termination_grace_s",
            "init_containers",
            "containers",
        ],
    )?;
    let workloads = [
        ("deployment", Workload::Deployment),
        ("daemonset", Workload::DaemonSet),
    ];
    Ok(Pod {
        name: o.with("name", Json::string)?,
        workload: o.or("workload", d_workload, |j, at| j.variant(at, &workloads))?,
        service: o.opt("service", Json::string)?,
        termination_grace_s: o.or("termination_grace_s", d_term_grace, Json::f64)?,
        init_containers: o.or("init_containers", Vec::new, |j, at| j.list(at, container))?,
        containers: o.with("containers", |j, at| j.list(at, container))?,
    })
}

fn container(j: &Json, at: &str) -> R<Container> {
    let o = Obj::new(
        j,
        at,
        &[
            "name",
            "restart_policy",
            "startup_probe",
            "readiness_probe",
            "liveness_probe",
            "warmup_s",
            "truth",
        ],
    )?;
    Ok(Container {
        name: o.with("name", Json::string)?,
        restart_policy: o.opt("restart_policy", Json::string)?,
        startup_probe: o.opt("startup_probe", probe)?,
        readiness_probe: o.opt("readiness_probe", probe)?,
        liveness_probe: o.opt("liveness_probe", probe)?,
        warmup_s: o.or("warmup_s", || 0.0, Json::f64)?,
        truth: o.or("truth", Vec::new, |j, at| j.list(at, truth))?,
    })
}

fn probe(j: &Json, at: &str) -> R<Probe> {
    let o = Obj::new(
        j,
        at,
        &[
            "period_s",
            "timeout_s",
            "success_threshold",
            "failure_threshold",
            "initial_delay_s",
            "exec_s",
        ],
    )?;
    let d = Probe::default();
    Ok(Probe {
        period_s: o.or("period_s", || d.period_s, Json::int)?,
        timeout_s: o.or("timeout_s", || d.timeout_s, Json::int)?,
        success_threshold: o.or("success_threshold", || d.success_threshold, Json::int)?,
        failure_threshold: o.or("failure_threshold", || d.failure_threshold, Json::int)?,
        initial_delay_s: o.or("initial_delay_s", || d.initial_delay_s, Json::int)?,
        exec_s: o.or("exec_s", || d.exec_s, Json::f64)?,
    })
}

fn truth(j: &Json, at: &str) -> R<Truth> {
    let o = Obj::new(j, at, &["at_s", "state"])?;
    let states = [
        ("healthy", Health::Healthy),
        ("failing-readiness", Health::FailingReadiness),
        ("failing", Health::Failing),
        ("exited", Health::Exited),
    ];
    Ok(Truth {
        at_s: o.with("at_s", Json::f64)?,
        state: o.with("state", |j, at| j.variant(at, &states))?,
    })
}

fn pdb(j: &Json, at: &str) -> R<Pdb> {
    let o = Obj::new(j, at, &["service", "min_available", "max_unavailable"])?;
    Ok(Pdb {
        service: o.opt("service", Json::string)?,
        min_available: o.opt("min_available", int_or_percent)?,
        max_unavailable: o.opt("max_unavailable", int_or_percent)?,
    })
}

/// serde's untagged enum: a whole number, else a string.
fn int_or_percent(j: &Json, at: &str) -> R<IntOrPercent> {
    match j {
        Json::Num(_) => j.int(at).map(IntOrPercent::Int),
        Json::Str(s) => Ok(IntOrPercent::Str(s.clone())),
        _ => Err(format!(
            "{at}: data did not match any variant of untagged enum IntOrPercent"
        )),
    }
}
