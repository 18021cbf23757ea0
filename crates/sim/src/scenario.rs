//! Scenario: what the user sets up. Plain serde data, readable as TOML and JSON.
//!
//! Durations are seconds (`*_s`, decimals allowed); the engine works in integer milliseconds.

use serde::{Deserialize, Serialize};

/// Which kubelet we model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// The kubelet before KEP-4781 (or v1.35 with `ChangeContainerStatusOnKubeletRestart=true`).
    Legacy,
    /// KEP-4781: v1.35 default (`ChangeContainerStatusOnKubeletRestart=false`).
    Kep,
}

impl Policy {
    pub const BOTH: [Policy; 2] = [Policy::Legacy, Policy::Kep];
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Legacy => "legacy",
            Policy::Kep => "kep",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Policy::Legacy => "Legacy kubelet",
            Policy::Kep => "KEP-4781 kubelet",
        }
    }
}

/// Kubernetes minor version; picks the defaults that changed between releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KubeVersion {
    #[serde(rename = "1.31")]
    V1_31,
    #[serde(rename = "1.34")]
    V1_34,
    #[serde(rename = "1.35")]
    V1_35,
}

impl KubeVersion {
    pub const ALL: [KubeVersion; 3] = [KubeVersion::V1_31, KubeVersion::V1_34, KubeVersion::V1_35];
    pub fn as_str(self) -> &'static str {
        match self {
            KubeVersion::V1_31 => "1.31",
            KubeVersion::V1_34 => "1.34",
            KubeVersion::V1_35 => "1.35",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
    /// `--node-monitor-grace-period` default: 40 s up to v1.31, 50 s from v1.32 (kubernetes PR #126287).
    pub fn default_grace_s(self) -> f64 {
        match self {
            KubeVersion::V1_31 => 40.0,
            _ => 50.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    pub version: KubeVersion,
    /// Overrides the version's node monitor grace period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_monitor_grace_s: Option<f64>,
    #[serde(default = "d_monitor_period")]
    pub node_monitor_period_s: f64,
    #[serde(default = "d_lease")]
    pub lease_duration_s: f64,
    /// Toleration of `node.kubernetes.io/unreachable:NoExecute` given by DefaultTolerationSeconds.
    #[serde(default = "d_toleration")]
    pub toleration_s: f64,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            version: KubeVersion::V1_35,
            node_monitor_grace_s: None,
            node_monitor_period_s: d_monitor_period(),
            lease_duration_s: d_lease(),
            toleration_s: d_toleration(),
        }
    }
}

impl Cluster {
    pub fn grace_s(&self) -> f64 {
        self.node_monitor_grace_s
            .unwrap_or_else(|| self.version.default_grace_s())
    }

    /// Roughly the kubelet downtime from which pods get evicted: the node goes Unknown about one
    /// grace period after the last renewal (N1), the NoExecute taint lands one NLC pass later
    /// (N2), and the toleration runs from there (E1). Within ± one renew interval and one pass.
    pub fn eviction_downtime_estimate_s(&self) -> f64 {
        self.grace_s() + self.node_monitor_period_s + self.toleration_s
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restart {
    /// When the kubelet process stops.
    pub at_s: f64,
    /// How long it stays down.
    pub downtime_s: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kubelet {
    /// The policy used by [`crate::simulate`]; [`crate::compare`] runs both.
    #[serde(default = "d_policy")]
    pub policy: Policy,
    pub restarts: Vec<Restart>,
    /// Time from kubelet start to each pod's first SyncPod (ours: how long start-up takes).
    #[serde(default = "d_first_sync")]
    pub first_sync_delay_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Workload {
    Deployment,
    DaemonSet,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pod {
    pub name: String,
    #[serde(default = "d_workload")]
    pub workload: Workload,
    /// The Service whose EndpointSlices list this pod, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(default = "d_term_grace")]
    pub termination_grace_s: f64,
    pub containers: Vec<Container>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Container {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    /// How long a freshly started container takes before it answers probes successfully.
    #[serde(default)]
    pub warmup_s: f64,
    /// Ground truth over time; before the first entry the container is healthy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub truth: Vec<Truth>,
}

/// A probe, with the Kubernetes defaults of `SetDefaults_Probe`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    #[serde(default = "d_period")]
    pub period_s: u32,
    #[serde(default = "d_timeout")]
    pub timeout_s: u32,
    #[serde(default = "d_one")]
    pub success_threshold: u32,
    #[serde(default = "d_three")]
    pub failure_threshold: u32,
    #[serde(default)]
    pub initial_delay_s: u32,
    /// Ours: how long one probe takes to run (an exec probe `sleep 1`).
    #[serde(default = "d_exec")]
    pub exec_s: f64,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            period_s: d_period(),
            timeout_s: d_timeout(),
            success_threshold: 1,
            failure_threshold: 3,
            initial_delay_s: 0,
            exec_s: d_exec(),
        }
    }
}

/// What the container really is from `at_s` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Health {
    /// Answers every probe.
    Healthy,
    /// Running, passes liveness, fails readiness (e.g. a dependency is down).
    FailingReadiness,
    /// Hung: fails every probe.
    Failing,
    /// The process exits at `at_s` (one event). A restarted container is healthy.
    Exited,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Truth {
    pub at_s: f64,
    pub state: Health,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub cluster: Cluster,
    pub kubelet: Kubelet,
    pub pods: Vec<Pod>,
    #[serde(default = "d_seed")]
    pub seed: u64,
    pub horizon_s: f64,
}

fn d_monitor_period() -> f64 {
    5.0
}
fn d_lease() -> f64 {
    40.0
}
fn d_toleration() -> f64 {
    300.0
}
fn d_policy() -> Policy {
    Policy::Kep
}
fn d_first_sync() -> f64 {
    2.0
}
fn d_workload() -> Workload {
    Workload::Deployment
}
fn d_term_grace() -> f64 {
    30.0
}
fn d_period() -> u32 {
    10
}
fn d_timeout() -> u32 {
    1
}
fn d_one() -> u32 {
    1
}
fn d_three() -> u32 {
    3
}
fn d_exec() -> f64 {
    1.0
}
fn d_seed() -> u64 {
    1
}

/// One invalid field: its path in the scenario and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Accepted ranges. Shared by validation, the CLI and the web form.
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

struct V(Vec<FieldError>);

impl V {
    fn f(&mut self, field: &str, v: f64, (lo, hi): (f64, f64), unit: &str) {
        if !v.is_finite() || v < lo || v > hi {
            self.0.push(FieldError {
                field: field.to_string(),
                message: format!("must be between {lo} and {hi}{unit}, got {v}"),
            });
        }
    }
    fn u(&mut self, field: &str, v: u32, (lo, hi): (u32, u32), unit: &str) {
        if v < lo || v > hi {
            self.0.push(FieldError {
                field: field.to_string(),
                message: format!("must be between {lo} and {hi}{unit}, got {v}"),
            });
        }
    }
    fn err(&mut self, field: &str, message: impl Into<String>) {
        self.0.push(FieldError {
            field: field.to_string(),
            message: message.into(),
        });
    }
}

fn dns_label_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

impl Scenario {
    /// Rejects impossible values, naming each field and its accepted range.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        use limits::*;
        let mut v = V(Vec::new());
        v.f("horizon_s", self.horizon_s, HORIZON_S, " s");
        let c = &self.cluster;
        if let Some(g) = c.node_monitor_grace_s {
            v.f("cluster.node_monitor_grace_s", g, GRACE_S, " s");
        }
        v.f(
            "cluster.node_monitor_period_s",
            c.node_monitor_period_s,
            MONITOR_PERIOD_S,
            " s",
        );
        v.f(
            "cluster.lease_duration_s",
            c.lease_duration_s,
            LEASE_S,
            " s",
        );
        v.f("cluster.toleration_s", c.toleration_s, TOLERATION_S, " s");
        let k = &self.kubelet;
        v.f(
            "kubelet.first_sync_delay_s",
            k.first_sync_delay_s,
            FIRST_SYNC_S,
            " s",
        );
        if k.restarts.len() < RESTARTS.0 || k.restarts.len() > RESTARTS.1 {
            v.err(
                "kubelet.restarts",
                format!(
                    "needs between {} and {} restarts, got {}",
                    RESTARTS.0,
                    RESTARTS.1,
                    k.restarts.len()
                ),
            );
        }
        let mut prev_end = f64::NEG_INFINITY;
        for (i, r) in k.restarts.iter().enumerate() {
            let at_range = (0.0, self.horizon_s.max(0.0));
            v.f(
                &format!("kubelet.restarts[{i}].at_s"),
                r.at_s,
                at_range,
                " s (inside the horizon)",
            );
            v.f(
                &format!("kubelet.restarts[{i}].downtime_s"),
                r.downtime_s,
                DOWNTIME_S,
                " s",
            );
            if r.at_s < prev_end {
                v.err(
                    &format!("kubelet.restarts[{i}].at_s"),
                    format!(
                        "must not start before the previous restart ends ({prev_end} s), got {}",
                        r.at_s
                    ),
                );
            }
            prev_end = r.at_s + r.downtime_s;
        }
        // The node must stay Ready while the kubelet is up: a renewal plus one NLC pass must
        // fit in the grace period, or the model (which posts node status only at start) would
        // show a healthy node going Unknown.
        let renew = c.lease_duration_s / 4.0;
        if renew + c.node_monitor_period_s >= c.grace_s() {
            v.err(
                "cluster.lease_duration_s",
                format!(
                    "lease_duration_s / 4 + node_monitor_period_s ({} s) must be below the node monitor grace period ({} s)",
                    renew + c.node_monitor_period_s,
                    c.grace_s()
                ),
            );
        }
        let work: f64 = self
            .pods
            .iter()
            .flat_map(|p| &p.containers)
            .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
            .flatten()
            .map(|p| self.horizon_s.max(0.0) / p.period_s.max(1) as f64)
            .sum();
        if work > PROBE_EXECUTIONS {
            v.err(
                "pods",
                format!(
                    "too much to simulate: about {work:.0} probe executions over the horizon (limit {PROBE_EXECUTIONS:.0}); use fewer pods, longer periods or a shorter horizon"
                ),
            );
        }
        if self.pods.len() < PODS.0 || self.pods.len() > PODS.1 {
            v.err(
                "pods",
                format!(
                    "needs between {} and {} pods, got {}",
                    PODS.0,
                    PODS.1,
                    self.pods.len()
                ),
            );
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, p) in self.pods.iter().enumerate() {
            let pf = format!("pods[{i}]");
            if !dns_label_ok(&p.name) {
                v.err(
                    &format!("{pf}.name"),
                    format!(
                        "must be 1-63 lowercase letters, digits or '-', got {:?}",
                        p.name
                    ),
                );
            } else if !names.insert(p.name.as_str()) {
                v.err(
                    &format!("{pf}.name"),
                    format!("duplicate pod name {:?}", p.name),
                );
            }
            if let Some(s) = &p.service {
                if !dns_label_ok(s) {
                    v.err(
                        &format!("{pf}.service"),
                        format!("must be 1-63 lowercase letters, digits or '-', got {:?}", s),
                    );
                }
            }
            v.f(
                &format!("{pf}.termination_grace_s"),
                p.termination_grace_s,
                TERM_GRACE_S,
                " s",
            );
            if p.containers.len() < CONTAINERS.0 || p.containers.len() > CONTAINERS.1 {
                v.err(
                    &format!("{pf}.containers"),
                    format!(
                        "needs between {} and {} containers, got {}",
                        CONTAINERS.0,
                        CONTAINERS.1,
                        p.containers.len()
                    ),
                );
            }
            for (j, ct) in p.containers.iter().enumerate() {
                let cf = format!("{pf}.containers[{j}]");
                if !dns_label_ok(&ct.name) {
                    v.err(
                        &format!("{cf}.name"),
                        format!(
                            "must be 1-63 lowercase letters, digits or '-', got {:?}",
                            ct.name
                        ),
                    );
                }
                v.f(&format!("{cf}.warmup_s"), ct.warmup_s, WARMUP_S, " s");
                for (kind, pr) in [
                    ("startup_probe", &ct.startup_probe),
                    ("readiness_probe", &ct.readiness_probe),
                    ("liveness_probe", &ct.liveness_probe),
                ] {
                    let Some(pr) = pr else { continue };
                    let f = format!("{cf}.{kind}");
                    v.u(&format!("{f}.period_s"), pr.period_s, PERIOD_S, " s");
                    v.u(&format!("{f}.timeout_s"), pr.timeout_s, TIMEOUT_S, " s");
                    v.u(
                        &format!("{f}.success_threshold"),
                        pr.success_threshold,
                        THRESHOLD,
                        "",
                    );
                    v.u(
                        &format!("{f}.failure_threshold"),
                        pr.failure_threshold,
                        THRESHOLD,
                        "",
                    );
                    v.u(
                        &format!("{f}.initial_delay_s"),
                        pr.initial_delay_s,
                        INITIAL_DELAY_S,
                        " s",
                    );
                    v.f(&format!("{f}.exec_s"), pr.exec_s, EXEC_S, " s");
                    if kind != "readiness_probe" && pr.success_threshold != 1 {
                        // ValidateProbe: liveness and startup probes must have successThreshold 1.
                        v.err(
                            &format!("{f}.success_threshold"),
                            format!(
                                "must be 1 for {kind} (Kubernetes validation), got {}",
                                pr.success_threshold
                            ),
                        );
                    }
                    let run = pr.exec_s.min(pr.timeout_s as f64);
                    if run >= pr.period_s as f64 {
                        v.err(
                            &format!("{f}.exec_s"),
                            format!(
                                "a probe must finish within its period: min(exec_s, timeout_s) must be below period_s ({} s), got {run}",
                                pr.period_s
                            ),
                        );
                    }
                }
                if ct.truth.len() > TRUTH_ENTRIES {
                    v.err(
                        &format!("{cf}.truth"),
                        format!("at most {TRUTH_ENTRIES} entries, got {}", ct.truth.len()),
                    );
                }
                let mut last = f64::NEG_INFINITY;
                for (k2, t) in ct.truth.iter().enumerate() {
                    v.f(
                        &format!("{cf}.truth[{k2}].at_s"),
                        t.at_s,
                        (0.0, self.horizon_s.max(0.0)),
                        " s (inside the horizon)",
                    );
                    if t.at_s < last {
                        v.err(
                            &format!("{cf}.truth[{k2}].at_s"),
                            "truth entries must be in time order",
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

    /// Total kubelet downtime of the first restart (the slider's value).
    pub fn first_restart(&self) -> Option<&Restart> {
        self.kubelet.restarts.first()
    }
}
