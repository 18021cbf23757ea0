//! The pieces validation is made of: [`FieldError`], the accepted ranges ([`limits`]), the error
//! collector and the name rules (`ValidateDNS1123Label`, `ValidatePodName`), and one probe's
//! checks (`validateProbe`). A leaf under `validate.rs` and `pods.rs`.

use super::types::Probe;

/// One rejected setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Where it is in the scenario: `pods[0].containers[0].readiness_probe.period_s`. The web
    /// form maps this path back to its input (`src/form.rs`).
    pub field: String,
    /// What Kubernetes calls it: `readinessProbe.periodSeconds`, `--node-monitor-grace-period`,
    /// `tolerationSeconds`; the scenario path when only the model has the setting (`horizon_s`).
    pub k8s: String,
    /// A sentence that starts with `k8s`: `terminationGracePeriodSeconds must be at least 0
    /// seconds, got -1`.
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
/// Probe and pod fields take what the API server takes (`pkg/apis/core/validation/validation.go`
/// `validateProbe`: `ValidateNonnegativeField` on each int32 field; `ValidatePodSpec`:
/// `terminationGracePeriodSeconds` non-negative), with the defaulting's 0 → default
/// (`SetDefaults_Probe`) making periods, timeouts and thresholds at least 1 in effect. The upper
/// bounds there are the fields' types (int32, int64), not ours. The other ranges are the model's
/// own settings (`horizon_s`, `execSeconds`, warm-up), the kube-controller-manager flags it
/// accepts, and RestartScope's capacity (pods, containers, probe executions): the messages of
/// those say they are RestartScope's limits and how to get under them.
pub mod limits {
    /// Kubernetes' int32 fields (`periodSeconds`, `failureThreshold`, …): at most 2³¹ − 1.
    pub const INT32_MAX: u32 = i32::MAX as u32;
    pub const HORIZON_S: (f64, f64) = (10.0, 6.0 * 3600.0);
    pub const DOWNTIME_S: (f64, f64) = (0.0, 3600.0);
    pub const GRACE_S: (f64, f64) = (5.0, 600.0);
    pub const MONITOR_PERIOD_S: (f64, f64) = (1.0, 60.0);
    pub const LEASE_S: (f64, f64) = (10.0, 600.0);
    pub const TOLERATION_S: (f64, f64) = (0.0, 86_400.0);
    pub const FIRST_SYNC_S: (f64, f64) = (0.0, 600.0);
    /// `terminationGracePeriodSeconds` (int64, at least 0). The kubelet kills with at least
    /// 2 s (`minimumGracePeriodInSeconds`, rule K4g).
    pub const TERM_GRACE_S: (f64, f64) = (0.0, i64::MAX as f64);
    pub const WARMUP_S: (f64, f64) = (0.0, 3600.0);
    pub const PERIOD_S: (u32, u32) = (1, INT32_MAX);
    pub const TIMEOUT_S: (u32, u32) = (1, INT32_MAX);
    pub const THRESHOLD: (u32, u32) = (1, INT32_MAX);
    pub const INITIAL_DELAY_S: (u32, u32) = (0, INT32_MAX);
    pub const EXEC_S: (f64, f64) = (0.0, 3600.0);
    /// RestartScope's capacity: pods on the node, containers per pod.
    pub const PODS: (usize, usize) = (1, 1000);
    pub const CONTAINERS: (usize, usize) = (1, 16);
    pub const INIT_CONTAINERS: usize = 16;
    pub const RESTARTS: (usize, usize) = (1, 20);
    /// Windows without the API server (`kubelet.api_unreachable`) and how long each may last.
    pub const API_UNREACHABLE: (usize, usize) = (0, 20);
    pub const API_UNREACHABLE_S: (f64, f64) = (1.0, 3600.0);
    pub const TRUTH_ENTRIES: usize = 1000;
    /// Probe executions a scenario may ask for (pods × probes × horizon ÷ period): RestartScope's
    /// budget, not Kubernetes'.
    pub const PROBE_EXECUTIONS: f64 = 5_000_000.0;
    /// The not-ready toleration (`--default-not-ready-toleration-seconds`), as the unreachable one.
    pub const NOT_READY_TOLERATION_S: (f64, f64) = TOLERATION_S;
}

/// A duration as a flag takes it (`90s`), or the raw value when it is not a number.
pub(super) fn dur(v: f64) -> String {
    if v.is_finite() {
        format!("{v}s")
    } else {
        v.to_string()
    }
}

/// Collects errors.
pub(super) struct V(pub(super) Vec<FieldError>);

impl V {
    pub(super) fn push(&mut self, field: &str, k8s: &str, message: String) {
        self.0.push(FieldError {
            field: field.to_string(),
            k8s: k8s.to_string(),
            message,
        });
    }
    /// A number of seconds.
    pub(super) fn secs(&mut self, field: &str, k8s: &str, v: f64, (lo, hi): (f64, f64)) -> bool {
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
    pub(super) fn flag(&mut self, field: &str, k8s: &str, v: f64, (lo, hi): (f64, f64)) {
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
    pub(super) fn int(
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
            let range = if hi == limits::INT32_MAX {
                let what = if unit.is_empty() { "" } else { "seconds, " };
                format!("at least {lo} ({what}an int32: at most {hi})")
            } else {
                format!("between {lo} and {hi}{unit}")
            };
            self.push(field, k8s, format!("{k8s} must be {range}, got {v}{hint}"));
        }
    }
    /// A number of seconds that Kubernetes only requires to be at least `lo`
    /// (`ValidateNonnegativeField`).
    pub(super) fn at_least(&mut self, field: &str, k8s: &str, v: f64, lo: f64) {
        if !(v.is_finite() && v >= lo) {
            self.push(
                field,
                k8s,
                format!("{k8s} must be at least {lo} seconds, got {v}"),
            );
        }
    }
    /// A count RestartScope caps (pods, containers): under `lo` is Kubernetes' rule (at least
    /// one), over `hi` is RestartScope's own limit, said so, with `how` to get under it.
    pub(super) fn capacity(
        &mut self,
        field: &str,
        what: &str,
        n: usize,
        (lo, hi): (usize, usize),
        how: &str,
    ) {
        if n < lo {
            self.count(field, what, n, (lo, hi));
        } else if n > hi {
            self.push(
                field,
                field,
                format!(
                    "{field} lists {n} {what}; RestartScope simulates at most {hi} (its own limit, not Kubernetes'): {how}"
                ),
            );
        }
    }
    pub(super) fn count(&mut self, field: &str, what: &str, n: usize, (lo, hi): (usize, usize)) {
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
pub(super) fn dns_label_ok(s: &str, rfc1035: bool) -> bool {
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
pub fn dns_subdomain_ok(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(|l| dns_label_ok(l, false))
}

pub(super) const LABEL: &str = "a lowercase RFC 1123 label (letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";
pub const SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain (letters, digits, '-' and '.', each part starting and ending with a letter or digit, at most 253 characters)";
pub(super) const LABEL_1035: &str = "a lowercase RFC 1035 label (letters, digits and '-', starting with a letter, ending with a letter or digit, at most 63 characters)";

/// `validateProbe` (each field at least 0; the defaulting turns a 0 into the default, so at
/// least 1 in effect) and, for liveness and startup probes, `successThreshold` must be 1. A probe
/// may run longer than its period (Go's `time.Ticker` drops or buffers the ticks), as in Kubernetes.
/// `ct` names the container as Kubernetes lists it (`containers[app]`, `initContainers[proxy]`),
/// `kind` the probe (`readinessProbe`); every message leads with
/// `containers[app].readinessProbe.periodSeconds`.
pub(super) fn probe(v: &mut V, f: &str, ct: &str, kind: &str, pr: &Probe) {
    use limits::*;
    let k8s = format!("{ct}.{kind}");
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
    if kind == "readinessProbe" {
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
                kind.trim_end_matches("Probe"),
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
    let (lo, hi) = EXEC_S;
    if !(pr.exec_s.is_finite() && pr.exec_s >= lo && pr.exec_s <= hi) {
        let exec = name("execSeconds");
        v.push(
            &format!("{f}.exec_s"),
            &exec,
            format!(
                "{exec} (the model's own: how long one probe runs) must be between {lo} and {hi} seconds, got {}",
                pr.exec_s
            ),
        );
    }
}
