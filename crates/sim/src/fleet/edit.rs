//! Fleet settings by name: what `restartscope fleet`'s flags and the web fleet view's query
//! (the same names without `--`) change on a fleet, parsed and checked one way for both, and
//! the totals as rows with what KEP-4781 saves, in numbers and in words. Called by the CLI
//! (`crates/cli/src/fleet.rs`) and the fleet web view (`crates/fleet-web`).

use super::run::{FleetRun, Totals};
use super::scenario::{limits, Fleet, WAIT_READY_ALLOWANCE_S};
use crate::core::time::{fmt_secs, parse_duration, plural, words_secs};
use crate::scenario::{FieldError, KubeVersion, Policy};

/// The settings by their CLI names (flags without `--`; the web view's query keys).
pub const KEYS: [&str; 12] = [
    "nodes",
    "zones",
    "pods-per-node",
    "services",
    "batch",
    "downtime",
    "pause",
    "wait-ready",
    "version",
    "upgrade-to",
    "policy",
    "seed",
];

/// What the flags or the query change on a fleet (`None`: the fleet's own value).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub nodes: Option<u32>,
    pub zones: Option<u32>,
    pub pods_per_node: Option<u32>,
    pub services: Option<u32>,
    pub batch: Option<u32>,
    pub downtime_s: Option<f64>,
    pub pause_s: Option<f64>,
    pub wait_ready: Option<bool>,
    pub version: Option<KubeVersion>,
    /// `None`: both policies (the release's default comparison).
    pub policy: Option<Policy>,
    pub seed: Option<u64>,
    /// `rolling.upgrade_to`: the release each kubelet comes back as.
    pub upgrade_to: Option<KubeVersion>,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse::<T>()
        .map_err(|_| format!("invalid {flag} {v:?}; use a non-negative whole number"))
}

/// `--policy`: legacy, kep or both (`None`).
pub fn parse_policy(value: &str) -> Result<Option<Policy>, String> {
    match value {
        "legacy" => Ok(Some(Policy::Legacy)),
        "kep" => Ok(Some(Policy::Kep)),
        "both" => Ok(None),
        _ => Err(format!(
            "invalid --policy {value:?}; accepted values: legacy, kep, both"
        )),
    }
}

/// `--version`: a kubelet release the model has a profile for.
pub fn parse_version(value: &str) -> Result<KubeVersion, String> {
    KubeVersion::parse_or_explain(value).map_err(|e| format!("invalid --version {value:?}: {e}"))
}

impl Overrides {
    /// Sets the setting `key` (one of `KEYS`) from its text; the error names the flag.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let flag = format!("--{key}");
        let secs = |v: &str| parse_duration(v).map_err(|e| format!("{flag}: {e}"));
        match key {
            "nodes" => self.nodes = Some(number(&flag, value)?),
            "zones" => self.zones = Some(number(&flag, value)?),
            "pods-per-node" => self.pods_per_node = Some(number(&flag, value)?),
            "services" => self.services = Some(number(&flag, value)?),
            "batch" => self.batch = Some(number(&flag, value)?),
            "seed" => self.seed = Some(number(&flag, value)?),
            "downtime" => self.downtime_s = Some(secs(value)?),
            "pause" => self.pause_s = Some(secs(value)?),
            "version" => self.version = Some(parse_version(value)?),
            // Empty or "none": no upgrade (the web view's select).
            "upgrade-to" if matches!(value, "" | "none") => self.upgrade_to = None,
            "upgrade-to" => self.upgrade_to = Some(parse_version(value)?),
            "policy" => self.policy = parse_policy(value)?,
            "wait-ready" => {
                self.wait_ready = Some(match value {
                    "" | "1" | "true" | "yes" => true,
                    "0" | "false" | "no" => false,
                    _ => {
                        return Err(format!(
                            "invalid {flag} {value:?}; accepted values: true, false"
                        ))
                    }
                })
            }
            _ => return Err(format!("unknown setting {key:?}")),
        }
        Ok(())
    }

    /// Forgets the setting `key` (the fleet's own value applies again).
    pub fn clear(&mut self, key: &str) {
        match key {
            "nodes" => self.nodes = None,
            "zones" => self.zones = None,
            "pods-per-node" => self.pods_per_node = None,
            "services" => self.services = None,
            "batch" => self.batch = None,
            "seed" => self.seed = None,
            "downtime" => self.downtime_s = None,
            "pause" => self.pause_s = None,
            "upgrade-to" => self.upgrade_to = None,
            "version" => self.version = None,
            "policy" => self.policy = None,
            "wait-ready" => self.wait_ready = None,
            _ => {}
        }
    }

    /// The fleet with these settings, validated (`Fleet::validate`).
    pub fn apply(&self, mut f: Fleet) -> Result<Fleet, Vec<FieldError>> {
        if let Some(v) = self.nodes {
            f.nodes = v;
            f.sample_nodes = f.sample_nodes.min(v);
            // Fewer nodes than the fleet's own zones or batch: those follow (`?nodes=1` is one
            // node in one zone, restarted alone), unless they are set too, which is checked.
            if self.zones.is_none() {
                f.zones = f.zones.min(v.max(1));
            }
            if self.batch.is_none() {
                f.rolling.batch = f.rolling.batch.min(v.max(1));
            }
        }
        if let Some(v) = self.zones {
            f.zones = v;
        }
        if let Some(v) = self.pods_per_node {
            f.pods_per_node = v;
        }
        if let Some(v) = self.services {
            f.services = v;
        }
        if let Some(v) = self.batch {
            f.rolling.batch = v;
        }
        if let Some(v) = self.downtime_s {
            f.rolling.downtime_s = v;
        }
        if let Some(v) = self.pause_s {
            f.rolling.pause_s = v;
        }
        if let Some(v) = self.version {
            f.cluster.version = v;
            // An upgrade to this release or an older one is no upgrade any more.
            f.rolling.upgrade_to = f.rolling.upgrade_to.filter(|to| *to > v);
        }
        if let Some(v) = self.upgrade_to {
            f.rolling.upgrade_to = Some(v);
        }
        if let Some(v) = self.seed {
            f.seed = v;
        }
        if let Some(v) = self.wait_ready {
            f.rolling.wait_ready = v;
        }
        f.validate()?;
        Ok(f)
    }
}

/// The setting (`KEYS`) a validation error of `Fleet::validate` is about.
pub fn key_of(e: &FieldError) -> &'static str {
    match e.field.as_str() {
        "nodes" => "nodes",
        "zones" => "zones",
        "pods_per_node" => "pods-per-node",
        "services" => "services",
        "rolling.batch" => "batch",
        "rolling.downtime_s" | "kubelet.restarts[0].downtime_s" => "downtime",
        "rolling.pause_s" => "pause",
        f if f.ends_with("upgrade_to") => "upgrade-to",
        f if f.starts_with("cluster") => "version",
        _ => "nodes",
    }
}

/// The accepted range of a numeric setting, in words (for a notice next to the field).
pub fn range_of(key: &str, nodes: u32) -> String {
    let r = |(a, b): (u32, u32)| format!("{a}–{b}");
    match key {
        "nodes" => r(limits::NODES),
        "zones" => format!("1–{}", limits::ZONES.1.min(nodes.max(1))),
        "pods-per-node" => r(limits::PODS_PER_NODE),
        "services" => r(limits::SERVICES),
        "batch" => format!("1–{}", nodes.max(1)),
        "downtime" => "0–3600 s".into(),
        "pause" => "0–3600 s".into(),
        "seed" => "0–18446744073709551615".into(),
        "upgrade-to" => "a release newer than --version (1.31 or later restarts every container of a 1.30 kubelet), or none".into(),
        "version" => format!(
            "{} to 1.38 with their patch releases (1.36.4), or main; profiles {}",
            KubeVersion::ALL[0].as_str(),
            KubeVersion::ALL
                .iter()
                .map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        "policy" => "legacy, kep, both".into(),
        "wait-ready" => "true, false".into(),
        _ => String::new(),
    }
}

/// A row of the totals table: its title and how to read it from the totals.
pub type Row = (&'static str, fn(&Totals) -> f64);

/// The totals table's rows, in order (CLI table and web view).
pub const ROWS: [Row; 8] = [
    ("Pod Ready transitions", |t| t.ready_transitions as f64),
    ("Kubelet status writes", |t| t.kubelet_status_writes as f64),
    ("NLC status writes", |t| t.nlc_status_writes as f64),
    ("EndpointSlice updates", |t| t.endpointslice_updates as f64),
    ("Watch events (kube-proxy)", |t| t.watch_events as f64),
    ("Evictions", |t| t.evictions as f64),
    ("Unjustified NotReady (pod·s)", |t| {
        t.unjustified_not_ready_s
    }),
    ("Node not Ready (node·s)", |t| t.node_not_ready_s),
];

/// The `Totals` (JSON) key of each row of `ROWS`.
pub const ROW_KEYS: [&str; 8] = [
    "ready_transitions",
    "kubelet_status_writes",
    "nlc_status_writes",
    "endpointslice_updates",
    "watch_events",
    "evictions",
    "unjustified_not_ready_s",
    "node_not_ready_s",
];

/// A whole number without decimals, else one decimal.
pub fn fmt_total(v: f64) -> String {
    crate::group(&fmt_total_raw(v))
}

/// [`fmt_total`] without the grouping (the fleet page groups in the reader's locale).
pub fn fmt_total_raw(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// What KEP (`k`) saves over legacy (`l`) on one row: "12400 (100 %)", or "-" when legacy is 0.
pub fn saving(l: f64, k: f64) -> String {
    if l > 0.0 {
        format!("{} ({:.0} %)", fmt_total(l - k), (l - k) / l * 100.0)
    } else {
        "-".into()
    }
}

/// The saving of KEP-4781 over legacy in one sentence.
pub fn saving_words(l: &Totals, k: &Totals) -> String {
    let g = |n: u64| crate::group(&n.to_string());
    format!(
        "Over this rolling restart KEP-4781 avoids {} Pod Ready transitions, {} pod status writes and {} EndpointSlice updates — {} watch events delivered to the nodes' kube-proxies.",
        g(l.ready_transitions.saturating_sub(k.ready_transitions)),
        g((l.kubelet_status_writes + l.nlc_status_writes)
            .saturating_sub(k.kubelet_status_writes + k.nlc_status_writes)),
        g(l.endpointslice_updates.saturating_sub(k.endpointslice_updates)),
        g(l.watch_events.saturating_sub(k.watch_events))
    )
}

/// When a rollout that waits for Ready did not reach every node within the run, says so (the
/// totals then count only the batches that restarted): `None` when every run restarted every
/// node. The run allows each batch two minutes to become Ready (`Fleet::horizon_s`); a batch
/// whose pods stay NotReady longer holds the rest back, as `kubectl rollout` would wait.
pub fn rollout_words(f: &Fleet, runs: &[FleetRun]) -> Option<String> {
    let short: Vec<String> = runs
        .iter()
        .filter(|r| r.restarted_nodes < f.nodes)
        .map(|r| {
            format!(
                "{} restarted {} of {} nodes",
                r.kubelet, r.restarted_nodes, f.nodes
            )
        })
        .collect();
    if short.is_empty() {
        return None;
    }
    let mut s = format!(
        "The rollout did not finish within the {} simulated: {}. Each batch waits until its pods are Ready again (wait-ready), and the run allows each batch {} for it; the totals count only the nodes that restarted.",
        fmt_secs(f.horizon_s()),
        short.join("; "),
        words_secs(WAIT_READY_ALLOWANCE_S)
    );
    let by = |p: Policy| {
        runs.iter()
            .find(|r| r.policy == p)
            .map(|r| r.restarted_nodes)
    };
    if let (Some(l), Some(k)) = (by(Policy::Legacy), by(Policy::Kep)) {
        if l > k {
            s.push_str(" The legacy kubelet went further only because its first status after a restart says Ready before any probe has run (rule S2), and the rollout took that for Ready.");
        }
    }
    Some(s)
}

/// The fleet's shape in words, for the CLI's heading and the web view's summary: "200 nodes in
/// 3 zones × 30 pods (5 Services, a DaemonSet pod per node) · batches of 10 nodes".
pub fn shape(f: &Fleet) -> String {
    format!(
        "{} in {} × {} ({}{}) · batches of {}",
        plural(f.nodes.into(), "node", "nodes"),
        plural(f.zones.into(), "zone", "zones"),
        plural(f.pods_per_node.into(), "pod", "pods"),
        plural(f.services.into(), "Service", "Services"),
        if f.daemonset {
            ", a DaemonSet pod per node"
        } else {
            ""
        },
        plural(f.rolling.batch.into(), "node", "nodes"),
    )
}

/// What an in-place upgrade of the fleet does to its containers, in words (empty without one):
/// 1.30 → 1.31 or later restarts every container of every batch (PR #124220 changed the
/// container hash); later hops keep them. Either way the version skew policy says to drain a
/// node before a minor kubelet upgrade (not modelled: the pods stay on their nodes).
pub fn upgrade_words(f: &Fleet) -> String {
    let Some(to) = f.rolling.upgrade_to else {
        return String::new();
    };
    let from = f.cluster.version;
    let containers = if from < KubeVersion::V1_31 && to >= KubeVersion::V1_31 {
        "every container of every batch restarts at its kubelet's first SyncPod (1.31 hashes containers by name and image, PR #124220)"
    } else {
        "containers keep running (the container hash has not changed since 1.31)"
    };
    format!(
        "In-place kubelet upgrade {} → {}: {containers}. The version skew policy says to drain a node before a minor kubelet upgrade; this run does not drain.",
        from.as_str(),
        to.as_str()
    )
}
