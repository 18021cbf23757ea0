//! What a scenario may hold. [`Scenario::validate`] rejects only what Kubernetes itself rejects
//! (`pkg/apis/core/validation`: `validateProbe`, `validateLivenessProbe`/`validateStartupProbe`,
//! pod and container names) and what the model cannot show (the capacity limits in [`limits`],
//! a grace period that lease renewals cannot beat). Every message leads with the Kubernetes name
//! of the setting (`readinessProbe.periodSeconds`, `--node-monitor-grace-period`; the scenario's
//! own name where Kubernetes has none) and says what is accepted.
//!
//! Called by `simulate`/`simulate_policy`/`compare` (lib.rs) and by `Overrides::apply` (the CLI
//! and the web form). [`limits`] also gives the CLI its flag ranges and the form its field ranges.

use super::types::{Probe, Scenario};

/// One rejected setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Where it is in the scenario: `pods[0].containers[0].readiness_probe.period_s`. The web
    /// form maps this path back to its input (`src/form.rs`).
    pub field: String,
    /// What Kubernetes calls it: `readinessProbe.periodSeconds`, `--node-monitor-grace-period`,
    /// `tolerationSeconds`; the scenario path when only the model has the setting (`horizon_s`).
    pub k8s: String,
    /// A sentence that starts with `k8s`: `readinessProbe.periodSeconds must be between 1 and
    /// 3600 seconds, got 0`.
    pub message: String,
}

impl std::fmt::Display for FieldError {
    /// The message, then the scenario path when it says more than the Kubernetes name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field == self.k8s {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{} (scenario field {})", self.message, self.field)
        }
    }
}

/// Accepted ranges. Shared by validation, the CLI and the web form.
///
/// Lower bounds are Kubernetes' own (probe fields at least 1, `initialDelaySeconds` and
/// `terminationGracePeriodSeconds` at least 0); upper bounds, and the ranges of the model's own
/// settings, are what the model can show within its horizon and memory.
pub mod limits {
    pub const HORIZON_S: (f64, f64) = (10.0, 6.0 * 3600.0);
    pub const DOWNTIME_S: (f64, f64) = (0.0, 3600.0);
    pub const GRACE_S: (f64, f64) = (5.0, 600.0);
    pub const MONITOR_PERIOD_S: (f64, f64) = (1.0, 60.0);
    pub const LEASE_S: (f64, f64) = (10.0, 600.0);
    pub const TOLERATION_S: (f64, f64) = (0.0, 86_400.0);
    pub const FIRST_SYNC_S: (f64, f64) = (0.0, 600.0);
    pub const TERM_GRACE_S: (f64, f64) = (0.0, 3600.0);
    pub const WARMUP_S: (f64, f64) = (0.0, 3600.0);
    pub const PERIOD_S: (u32, u32) = (1, 3600);
    pub const TIMEOUT_S: (u32, u32) = (1, 3600);
    pub const THRESHOLD: (u32, u32) = (1, 100);
    pub const INITIAL_DELAY_S: (u32, u32) = (0, 3600);
    pub const EXEC_S: (f64, f64) = (0.0, 3600.0);
    pub const PODS: (usize, usize) = (1, 1000);
    pub const CONTAINERS: (usize, usize) = (1, 16);
    pub const RESTARTS: (usize, usize) = (1, 20);
    pub const TRUTH_ENTRIES: usize = 1000;
    /// Probe executions a scenario may ask for (pods × probes × horizon ÷ period).
    pub const PROBE_EXECUTIONS: f64 = 5_000_000.0;
}

/// A duration as a flag takes it (`90s`), or the raw value when it is not a number.
fn dur(v: f64) -> String {
    if v.is_finite() {
        format!("{v}s")
    } else {
        v.to_string()
    }
}

/// Collects errors.
struct V(Vec<FieldError>);

impl V {
    fn push(&mut self, field: &str, k8s: &str, message: String) {
        self.0.push(FieldError {
            field: field.to_string(),
            k8s: k8s.to_string(),
            message,
        });
    }
    /// A number of seconds.
    fn secs(&mut self, field: &str, k8s: &str, v: f64, (lo, hi): (f64, f64)) -> bool {
        let ok = v.is_finite() && v >= lo && v <= hi;
        if !ok {
            self.push(
                field,
                k8s,
                format!("{k8s} must be between {lo} and {hi} seconds, got {v}"),
            );
        }
        ok
    }
    /// A kube-controller-manager duration flag (`--node-monitor-grace-period=40s`).
    fn flag(&mut self, field: &str, k8s: &str, v: f64, (lo, hi): (f64, f64)) {
        if !(v.is_finite() && v >= lo && v <= hi) {
            self.push(
                field,
                k8s,
                format!(
                    "{k8s} must be between {} and {}, got {}",
                    dur(lo),
                    dur(hi),
                    dur(v)
                ),
            );
        }
    }
    /// A whole number; `default` is what Kubernetes' defaulting puts in place of a 0.
    fn int(
        &mut self,
        field: &str,
        k8s: &str,
        v: u32,
        (lo, hi): (u32, u32),
        unit: &str,
        default: Option<u32>,
    ) {
        if v < lo || v > hi {
            let hint = match default {
                Some(d) if v == 0 => {
                    format!("; Kubernetes reads 0 as unset and uses the default, {d}")
                }
                _ => String::new(),
            };
            self.push(
                field,
                k8s,
                format!("{k8s} must be between {lo} and {hi}{unit}, got {v}{hint}"),
            );
        }
    }
    fn count(&mut self, field: &str, what: &str, n: usize, (lo, hi): (usize, usize)) {
        if n < lo || n > hi {
            self.push(
                field,
                field,
                format!("{field} must list between {lo} and {hi} {what}, got {n}"),
            );
        }
    }
}

/// RFC 1123 label (container names, `ValidateDNS1123Label`): at most 63 of `a-z0-9-`, starting
/// and ending with a letter or digit. RFC 1035 (Service names) also starts with a letter.
fn dns_label_ok(s: &str, rfc1035: bool) -> bool {
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter().all(|&c| alnum(c) || c == b'-')
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && (!rfc1035 || b[0].is_ascii_lowercase())
}

/// RFC 1123 subdomain (pod names, `ValidatePodName`): at most 253 characters, dot-separated labels.
fn dns_subdomain_ok(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(|l| dns_label_ok(l, false))
}

const LABEL: &str = "a lowercase RFC 1123 label (letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";
const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain (letters, digits, '-' and '.', each part starting and ending with a letter or digit, at most 253 characters)";
const LABEL_1035: &str = "a lowercase RFC 1035 label (letters, digits and '-', starting with a letter, ending with a letter or digit, at most 63 characters)";

impl Scenario {
    /// Rejects what Kubernetes rejects and what the model cannot show, naming each setting by
    /// its Kubernetes name with its accepted range.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        use limits::*;
        let mut v = V(Vec::new());
        v.secs("horizon_s", "horizon_s", self.horizon_s, HORIZON_S);
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
        let k = &self.kubelet;
        v.secs(
            "kubelet.first_sync_delay_s",
            "kubelet.first_sync_delay_s",
            k.first_sync_delay_s,
            FIRST_SYNC_S,
        );
        v.count("kubelet.restarts", "restarts", k.restarts.len(), RESTARTS);
        let mut prev_end = f64::NEG_INFINITY;
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
            if r.at_s < prev_end {
                v.push(
                    &at,
                    &at,
                    format!(
                        "{at} must not be before the previous restart ends ({prev_end} s), got {}",
                        r.at_s
                    ),
                );
            }
            prev_end = r.at_s + r.downtime_s;
        }
        // A model limit, not Kubernetes': the model posts node status only when the kubelet
        // starts, so while the kubelet is up the lease alone must keep the node Ready. A lease
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
            .flat_map(|p| &p.containers)
            .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
            .flatten()
            .map(|p| horizon / p.period_s.max(1) as f64)
            .sum();
        if work > PROBE_EXECUTIONS {
            v.push(
                "pods",
                "pods",
                format!(
                    "pods: too much to simulate, about {work:.0} probe executions over horizon_s (the model's limit is {PROBE_EXECUTIONS:.0}); use fewer pods, longer periodSeconds or a shorter horizon_s"
                ),
            );
        }
        v.count("pods", "pods", self.pods.len(), PODS);
        let mut names = std::collections::BTreeSet::new();
        for (i, p) in self.pods.iter().enumerate() {
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
            if let Some(s) = &p.service {
                if !dns_label_ok(s, true) {
                    v.push(
                        &format!("{pf}.service"),
                        "service",
                        format!(
                            "service (a Service's metadata.name) must be {LABEL_1035}, got {s:?}"
                        ),
                    );
                }
            }
            v.secs(
                &format!("{pf}.termination_grace_s"),
                "terminationGracePeriodSeconds",
                p.termination_grace_s,
                TERM_GRACE_S,
            );
            v.count(
                &format!("{pf}.containers"),
                "containers",
                p.containers.len(),
                CONTAINERS,
            );
            let mut cnames = std::collections::BTreeSet::new();
            for (j, ct) in p.containers.iter().enumerate() {
                let cf = format!("{pf}.containers[{j}]");
                let k8s_name = format!("containers[{j}].name");
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
                            "{k8s_name} {:?} is used by two containers of the pod",
                            ct.name
                        ),
                    );
                }
                let warm = format!("{cf}.warmup_s");
                v.secs(&warm, &warm, ct.warmup_s, WARMUP_S);
                for (kind, k8s, pr) in [
                    ("startup_probe", "startupProbe", &ct.startup_probe),
                    ("readiness_probe", "readinessProbe", &ct.readiness_probe),
                    ("liveness_probe", "livenessProbe", &ct.liveness_probe),
                ] {
                    if let Some(pr) = pr {
                        probe(&mut v, &format!("{cf}.{kind}"), k8s, pr);
                    }
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
                            format!("{f} must not be before the entry above it: truth entries are in time order"),
                        );
                    }
                    last = t.at_s;
                }
            }
        }
        if v.0.is_empty() {
            Ok(())
        } else {
            Err(v.0)
        }
    }
}

/// `validateProbe` (each field at least 0; the defaulting turns a 0 into the default, so at
/// least 1 in effect) and, for liveness and startup probes, `successThreshold` must be 1. A probe
/// may run longer than its period (Go's `time.Ticker` drops or buffers the ticks), as in Kubernetes.
fn probe(v: &mut V, f: &str, k8s: &str, pr: &Probe) {
    use limits::*;
    let name = |field: &str| format!("{k8s}.{field}");
    v.int(
        &format!("{f}.period_s"),
        &name("periodSeconds"),
        pr.period_s,
        PERIOD_S,
        " seconds",
        Some(10),
    );
    v.int(
        &format!("{f}.timeout_s"),
        &name("timeoutSeconds"),
        pr.timeout_s,
        TIMEOUT_S,
        " seconds",
        Some(1),
    );
    let succ = name("successThreshold");
    if k8s == "readinessProbe" {
        v.int(
            &format!("{f}.success_threshold"),
            &succ,
            pr.success_threshold,
            THRESHOLD,
            "",
            Some(1),
        );
    } else if pr.success_threshold != 1 {
        v.push(
            &format!("{f}.success_threshold"),
            &succ,
            format!(
                "{succ} must be 1 for a {} probe, got {}",
                k8s.trim_end_matches("Probe"),
                pr.success_threshold
            ),
        );
    }
    v.int(
        &format!("{f}.failure_threshold"),
        &name("failureThreshold"),
        pr.failure_threshold,
        THRESHOLD,
        "",
        Some(3),
    );
    v.int(
        &format!("{f}.initial_delay_s"),
        &name("initialDelaySeconds"),
        pr.initial_delay_s,
        INITIAL_DELAY_S,
        " seconds",
        None,
    );
    let exec = format!("{f}.exec_s");
    v.secs(&exec, &exec, pr.exec_s, EXEC_S);
}
