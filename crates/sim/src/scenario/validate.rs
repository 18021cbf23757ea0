//! What a scenario may hold. [`Scenario::validate`] rejects only what Kubernetes itself rejects
//! (`pkg/apis/core/validation`: `validateProbe`, `validateLivenessProbe`/`validateStartupProbe`,
//! pod and container names) and what the model cannot show (the capacity limits in [`limits`],
//! a grace period that lease renewals cannot beat). Every message leads with the Kubernetes name
//! of the setting (`readinessProbe.periodSeconds`, `--node-monitor-grace-period`; the scenario's
//! own name where Kubernetes has none) and says what is accepted.
//!
//! Called by `simulate`/`simulate_policy`/`compare` (lib.rs) and by `Overrides::apply` (the CLI
//! and the web form). [`limits`] also gives the CLI its flag ranges and the form its field ranges.

use super::check::{dur, limits, FieldError, V};
use super::types::{RestartKind, Scenario};

impl Scenario {
    /// Rejects what Kubernetes rejects and what the model cannot show, naming each setting by
    /// its Kubernetes name with its accepted range.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        use limits::*;
        let mut v = V(Vec::new());
        if !v.secs("horizon_s", "horizon_s", self.horizon_s, HORIZON_S)
            && self.horizon_s > HORIZON_S.1
        {
            if let Some(e) = v.0.last_mut() {
                e.message.push_str(
                    " (RestartScope's own limit, not Kubernetes': it simulates at most 6 h; show less of the run)",
                );
            }
        }
        let horizon = self.horizon_s.max(0.0);
        let c = &self.cluster;
        if let Some(g) = c.node_monitor_grace_s {
            v.flag(
                "cluster.node_monitor_grace_s",
                "--node-monitor-grace-period",
                g,
                GRACE_S,
            );
        }
        v.flag(
            "cluster.node_monitor_period_s",
            "--node-monitor-period",
            c.node_monitor_period_s,
            MONITOR_PERIOD_S,
        );
        v.secs(
            "cluster.lease_duration_s",
            "nodeLeaseDurationSeconds",
            c.lease_duration_s,
            LEASE_S,
        );
        if !v.secs(
            "cluster.toleration_s",
            "tolerationSeconds",
            c.toleration_s,
            TOLERATION_S,
        ) && c.toleration_s < 0.0
        {
            if let Some(e) = v.0.last_mut() {
                e.message.push_str(
                    "; Kubernetes evicts at once for any value up to 0 (getMinTolerationTime), which 0 shows",
                );
            }
        }
        v.secs(
            "cluster.not_ready_toleration_s",
            "--default-not-ready-toleration-seconds",
            c.not_ready_toleration_s,
            NOT_READY_TOLERATION_S,
        );
        let k = &self.kubelet;
        v.secs(
            "kubelet.first_sync_delay_s",
            "kubelet.first_sync_delay_s",
            k.first_sync_delay_s,
            FIRST_SYNC_S,
        );
        v.count("kubelet.restarts", "restarts", k.restarts.len(), RESTARTS);
        let mut prev_at = f64::NEG_INFINITY;
        let mut from = c.version;
        for (i, r) in k.restarts.iter().enumerate() {
            let at = format!("kubelet.restarts[{i}].at_s");
            if !(r.at_s.is_finite() && r.at_s >= 0.0 && r.at_s <= horizon) {
                v.push(
                    &at,
                    &at,
                    format!(
                        "{at} must be between 0 and {horizon} seconds (inside horizon_s), got {}",
                        r.at_s
                    ),
                );
            }
            let down = format!("kubelet.restarts[{i}].downtime_s");
            v.secs(&down, &down, r.downtime_s, DOWNTIME_S);
            // Restarts are in time order. Two of one kind cannot overlap (one process, one
            // runtime, one node); a container-runtime restart and a kubelet restart may (the
            // runtime goes down, then the kubelet is stopped); a node reboot stops both, so
            // nothing overlaps it.
            let clash = k.restarts[..i].iter().rev().find(|o| {
                r.at_s < o.end_s()
                    && (o.what == r.what
                        || o.what == RestartKind::Node
                        || r.what == RestartKind::Node)
            });
            if r.at_s < prev_at {
                v.push(
                    &at,
                    &at,
                    format!(
                        "{at} must not be before the previous restart's at_s ({prev_at} s): restarts are listed in time order, got {}",
                        r.at_s
                    ),
                );
            } else if let Some(o) = clash {
                let why = if o.what == r.what {
                    format!("two {}s cannot overlap", r.what.label())
                } else {
                    "a node reboot stops the kubelet and the runtime: nothing can overlap it".into()
                };
                v.push(
                    &at,
                    &at,
                    format!(
                        "{at} must not be before the previous {} ends ({} s): {why}, got {}",
                        o.what.label(),
                        o.end_s(),
                        r.at_s
                    ),
                );
            }
            if let Some(to) = r.upgrade_to {
                let f = format!("kubelet.restarts[{i}].upgrade_to");
                if r.what == RestartKind::Runtime {
                    v.push(
                        &f,
                        &f,
                        format!("{f} needs what = \"kubelet\" or \"node\": a container runtime restart does not change the kubelet (got upgrade_to = {})", to.as_str()),
                    );
                } else if to < from {
                    v.push(
                        &f,
                        &f,
                        format!("{f} must not be older than the kubelet it replaces ({}): the version skew policy has no downgrades, got {}", from.as_str(), to.as_str()),
                    );
                }
                from = to;
            }
            prev_at = r.at_s;
        }
        api_unreachable(&mut v, &k.api_unreachable, horizon);
        // A model limit, not Kubernetes': the model's kubelet posts node status only when its
        // Ready changes (at a start, or on its 10 s grid when the runtime's health changes), not
        // every `nodeStatusUpdateFrequency`, so while the kubelet is up the lease alone must keep
        // the node Ready. A lease
        // renewal plus one NLC pass must fit in the grace period, or a healthy node would go
        // Unknown (a real kubelet would post Ready again and flap).
        // Renewals come every nodeLeaseDurationSeconds / 4 plus up to 4 % (`JitterUntil`).
        let renew = c.lease_duration_s / 4.0 * 1.04;
        let need = renew + c.node_monitor_period_s;
        if need >= c.grace_s() {
            v.push(
                "cluster.node_monitor_grace_s",
                "--node-monitor-grace-period",
                format!(
                    "--node-monitor-grace-period must be above {} here (a lease renewal every nodeLeaseDurationSeconds / 4 + 4 % jitter = {} plus one --node-monitor-period of {}), got {}: with less, a healthy node would go Unknown between renewals, which this model cannot show",
                    dur(need),
                    dur(renew),
                    dur(c.node_monitor_period_s),
                    dur(c.grace_s())
                ),
            );
        }
        let work: f64 = self
            .pods
            .iter()
            .flat_map(|p| p.all_containers())
            .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
            .flatten()
            .map(|p| horizon / p.period_s.max(1) as f64)
            .sum();
        if work > PROBE_EXECUTIONS {
            v.push(
                "pods",
                "pods",
                format!(
                    "pods: about {work:.0} probe executions over horizon_s; RestartScope simulates at most {PROBE_EXECUTIONS:.0} (its own limit, not Kubernetes'): use fewer pods (an import: --replicas-on-node N), longer periodSeconds or a shorter horizon_s"
                ),
            );
        }
        super::pods::pods(&mut v, self, horizon);
        node_object(&mut v, self, horizon);
        if v.0.is_empty() {
            Ok(())
        } else {
            Err(v.0)
        }
    }
}

/// `kubelet.api_unreachable`: windows inside the horizon, each 1 s to 1 h, in time order and not
/// overlapping. A kubelet restart may fall inside a window (that is kubernetes#141473).
fn api_unreachable(v: &mut V, windows: &[super::types::ApiUnreachable], horizon: f64) {
    use limits::*;
    let list = "kubelet.api_unreachable";
    v.count(list, "windows", windows.len(), API_UNREACHABLE);
    let mut prev_end = f64::NEG_INFINITY;
    for (i, w) in windows.iter().enumerate() {
        let at = format!("{list}[{i}].at_s");
        if !(w.at_s.is_finite() && w.at_s >= 0.0 && w.at_s <= horizon) {
            v.push(
                &at,
                &at,
                format!(
                    "{at} (when the node loses the API server) must be between 0 and {horizon} seconds (inside horizon_s), got {}",
                    w.at_s
                ),
            );
        } else if w.at_s < prev_end {
            v.push(
                &at,
                &at,
                format!(
                    "{at} must not be before the previous window ends ({prev_end} s): the windows must be in time order and must not overlap, got {}",
                    w.at_s
                ),
            );
        }
        let d = format!("{list}[{i}].duration_s");
        v.secs(&d, &d, w.duration_s, API_UNREACHABLE_S);
        prev_end = w.at_s + w.duration_s;
    }
}

/// `node` and the pods' `node_selector` / `tolerations`: what `ValidateNodeSpec` (taints) and
/// `ValidateTolerations` (`pkg/apis/core/validation/validation.go`) reject, with their messages;
/// changes inside the horizon and in time order.
fn node_object(v: &mut V, sc: &Scenario, horizon: f64) {
    let taints = |v: &mut V, at: &str, list: &[super::node::Taint]| {
        for (i, t) in list.iter().enumerate() {
            let f = format!("{at}[{i}].key");
            if t.key.is_empty() {
                v.push(&f, &f, format!("{f}: Required value"));
            } else if list[..i]
                .iter()
                .any(|o| o.key == t.key && o.effect == t.effect)
            {
                v.push(
                    &f,
                    &f,
                    format!(
                        "{f}: Duplicate value: {:?}: taints must be unique by key and effect pair",
                        t.key
                    ),
                );
            }
        }
    };
    let labels = |v: &mut V, at: &str, map: &std::collections::BTreeMap<String, String>| {
        if map.keys().any(String::is_empty) {
            v.push(at, at, format!("{at}: a key must not be empty"));
        }
    };
    let n = &sc.node;
    labels(v, "node.labels", &n.labels);
    taints(v, "node.taints", &n.taints);
    let mut prev = f64::NEG_INFINITY;
    for (i, ch) in n.changes.iter().enumerate() {
        let at = format!("node.changes[{i}].at_s");
        if !(ch.at_s.is_finite() && ch.at_s >= 0.0 && ch.at_s <= horizon) {
            v.push(
                &at,
                &at,
                format!(
                    "{at} must be between 0 and {horizon} seconds (inside horizon_s), got {}",
                    ch.at_s
                ),
            );
        } else if ch.at_s < prev {
            v.push(&at, &at, format!("{at} must not be before the previous change ({prev} s): changes are listed in time order, got {}", ch.at_s));
        }
        prev = ch.at_s;
        if let Some(l) = &ch.labels {
            labels(v, &format!("node.changes[{i}].labels"), l);
        }
        if let Some(t) = &ch.taints {
            taints(v, &format!("node.changes[{i}].taints"), t);
        }
    }
    for (p, pod) in sc.pods.iter().enumerate() {
        labels(v, &format!("pods[{p}].node_selector"), &pod.node_selector);
        for (t, term) in pod.node_affinity.iter().enumerate() {
            for (j, r) in term.match_expressions.iter().enumerate() {
                use super::node::SelectorOp::*;
                let f = format!("pods[{p}].node_affinity[{t}].match_expressions[{j}].values");
                // ValidateNodeSelectorRequirement's messages.
                let bad = match r.operator {
                    In | NotIn if r.values.is_empty() => {
                        "Required value: must be specified when `operator` is 'In' or 'NotIn'"
                    }
                    Exists | DoesNotExist if !r.values.is_empty() => {
                        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                    }
                    Gt | Lt if r.values.len() != 1 => {
                        "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"
                    }
                    _ => "",
                };
                if r.key.is_empty() {
                    v.push(&f, &f, format!("pods[{p}].node_affinity[{t}].match_expressions[{j}].key: Required value"));
                } else if !bad.is_empty() {
                    v.push(&f, &f, format!("{f}: {bad}"));
                }
            }
        }
        for (j, t) in pod.tolerations.iter().enumerate() {
            let f = format!("pods[{p}].tolerations[{j}]");
            let exists = t.operator == super::node::Operator::Exists;
            if t.key.is_empty() && !exists {
                v.push(&f, &f, format!("{f}.operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
            }
            if exists && !t.value.is_empty() {
                v.push(&f, &f, format!("{f}.operator: Invalid value: {:?}: value must be empty when `operator` is 'Exists'", t.value));
            }
            if t.toleration_seconds.is_some() && t.effect != Some(super::node::Effect::NoExecute) {
                v.push(&f, &f, format!("{f}.effect: Invalid value: {:?}: effect must be 'NoExecute' when `tolerationSeconds` is set", t.effect.map_or("", |e| e.as_str())));
            }
        }
    }
}
