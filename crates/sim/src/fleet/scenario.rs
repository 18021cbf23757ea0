//! The fleet scenario: nodes, zones, pods per node from the single-node pod template, Services,
//! the rolling plan; its validation and presets. Called by `fleet::run` and the CLI.

use crate::scenario::{Cluster, FieldError, Pod, Restart, Scenario, Workload};
use serde::{Deserialize, Serialize};

/// The rolling restart: batches of nodes, each kubelet down for `downtime_s`, the next batch
/// `pause_s` after the previous one returned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rolling {
    /// When the first batch stops.
    #[serde(default = "d_start")]
    pub start_s: f64,
    /// Nodes per batch.
    pub batch: u32,
    pub downtime_s: f64,
    #[serde(default)]
    pub pause_s: f64,
    /// Start the next batch only when every pod of the previous one is Ready again (checked each
    /// second), `pause_s` after that; otherwise batches follow a fixed schedule.
    #[serde(default)]
    pub wait_ready: bool,
    /// An in-place kubelet upgrade: each node's kubelet comes back as this release (U1). From
    /// 1.30 to 1.31 or later every container of every batch restarts (PR #124220); later minor
    /// hops keep them. The version skew policy says to drain a node before a minor upgrade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade_to: Option<crate::releases::KubeVersion>,
}

/// What the horizon allows each batch, with `rolling.wait_ready`, to become Ready again; a batch
/// that takes longer holds the rest back (`edit::rollout_words` says so).
pub const WAIT_READY_ALLOWANCE_S: f64 = 120.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fleet {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub cluster: Cluster,
    pub nodes: u32,
    #[serde(default = "d_zones")]
    pub zones: u32,
    pub pods_per_node: u32,
    /// Services the pods are spread over (pod `i` of every node is in Service `i mod services`).
    pub services: u32,
    /// A DaemonSet pod on every node (no Service).
    #[serde(default)]
    pub daemonset: bool,
    /// The pod every Deployment pod is made from (the single-node pod spec).
    pub template: Pod,
    pub rolling: Rolling,
    #[serde(default = "d_first_sync")]
    pub first_sync_delay_s: f64,
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Nodes whose full events are kept (the first ones).
    #[serde(default = "d_sample")]
    pub sample_nodes: u32,
    /// How long the run goes on after the last batch returned.
    #[serde(default = "d_tail")]
    pub tail_s: f64,
}

fn d_start() -> f64 {
    30.0
}
fn d_zones() -> u32 {
    3
}
fn d_first_sync() -> f64 {
    2.0
}
fn d_seed() -> u64 {
    1
}
fn d_sample() -> u32 {
    3
}
fn d_tail() -> f64 {
    120.0
}

/// Accepted ranges (Kubernetes' scale limits: 5,000 nodes, 110 pods per node).
pub mod limits {
    pub const NODES: (u32, u32) = (1, 5000);
    pub const ZONES: (u32, u32) = (1, 100);
    pub const PODS_PER_NODE: (u32, u32) = (1, 110);
    pub const SERVICES: (u32, u32) = (0, 1000);
    pub const DOWNTIME_S: (f64, f64) = (0.0, 3600.0);
    pub const PAUSE_S: (f64, f64) = (0.0, 3600.0);
    /// Probe executions a fleet may ask for.
    pub const PROBE_EXECUTIONS: f64 = 400_000_000.0;
}

impl Fleet {
    /// The pods of every node: `pods_per_node` copies of the template, then the DaemonSet pod.
    /// Named by the fleet's own scheme (`web-0`, …, `ds`), without the template's owner: the
    /// names say the workload (`Pod::workload_name`).
    pub fn node_pods(&self) -> Vec<Pod> {
        let mut pods: Vec<Pod> = (0..self.pods_per_node)
            .map(|i| {
                let mut p = self.template.clone();
                p.name = format!("{}-{i}", self.template.name);
                p.workload = Workload::Deployment;
                p.owner = None;
                p.services = if self.services > 0 {
                    vec![format!("svc-{}", i % self.services)]
                } else {
                    Vec::new()
                };
                p
            })
            .collect();
        if self.daemonset {
            let mut p = self.template.clone();
            p.name = "ds".into();
            p.workload = Workload::DaemonSet;
            p.owner = None;
            p.services = Vec::new();
            pods.push(p);
        }
        pods
    }

    /// When batch `b` stops.
    pub fn batch_at(&self, b: u32) -> f64 {
        let r = &self.rolling;
        r.start_s + b as f64 * (r.downtime_s + r.pause_s)
    }

    pub fn batches(&self) -> u32 {
        self.nodes.div_ceil(self.rolling.batch.max(1))
    }

    /// The restart of each node.
    pub fn restarts(&self) -> Vec<Vec<Restart>> {
        (0..self.nodes)
            .map(|n| {
                vec![Restart {
                    upgrade_to: self.rolling.upgrade_to,
                    ..Restart::new(
                        self.batch_at(n / self.rolling.batch.max(1)),
                        self.rolling.downtime_s,
                    )
                }]
            })
            .collect()
    }

    /// From t = 0 until `tail_s` after the last batch returned. Waiting for readiness allows
    /// each batch two more minutes to become Ready.
    pub fn horizon_s(&self) -> f64 {
        let wait = if self.rolling.wait_ready {
            self.batches() as f64 * WAIT_READY_ALLOWANCE_S
        } else {
            0.0
        };
        self.batch_at(self.batches().saturating_sub(1))
            + self.rolling.downtime_s
            + self.tail_s
            + wait
    }

    /// One node of the fleet as a single-node scenario (its first batch's restart): what the
    /// single-node view opens for a sampled node, and what validation checks the pods with.
    pub fn node_scenario(&self, node: u32) -> Scenario {
        Scenario {
            name: format!("{} · node {node}", self.name),
            description: self.description.clone(),
            cluster: self.cluster.clone(),
            kubelet: crate::scenario::Kubelet {
                policy: crate::scenario::Policy::Kep,
                restarts: self
                    .restarts()
                    .swap_remove(node.min(self.nodes - 1) as usize),
                api_unreachable: Vec::new(),
                first_sync_delay_s: self.first_sync_delay_s,
            },
            pods: self.node_pods(),
            node: Default::default(),
            pdb: None,
            seed: self.seed,
            horizon_s: self.horizon_s().min(6.0 * 3600.0),
        }
    }

    /// Rejects what Kubernetes or the model cannot take, in Kubernetes' words.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        use limits::*;
        let mut errs = Vec::new();
        let mut range = |field: &str, what: &str, v: f64, (lo, hi): (f64, f64)| {
            if !(v.is_finite() && v >= lo && v <= hi) {
                errs.push(FieldError {
                    field: field.into(),
                    k8s: what.into(),
                    message: format!("{what} must be between {lo} and {hi}, got {v}"),
                });
            }
        };
        let u = |(a, b): (u32, u32)| (a as f64, b as f64);
        range("nodes", "nodes", self.nodes as f64, u(NODES));
        range("zones", "zones", self.zones as f64, u(ZONES));
        range(
            "pods_per_node",
            "pods per node",
            self.pods_per_node as f64,
            u(PODS_PER_NODE),
        );
        range("services", "services", self.services as f64, u(SERVICES));
        range(
            "rolling.batch",
            "nodes per batch",
            self.rolling.batch as f64,
            (1.0, self.nodes.max(1) as f64),
        );
        range(
            "rolling.downtime_s",
            "the kubelet downtime (s)",
            self.rolling.downtime_s,
            DOWNTIME_S,
        );
        range(
            "rolling.pause_s",
            "the pause between batches (s)",
            self.rolling.pause_s,
            PAUSE_S,
        );
        range(
            "rolling.start_s",
            "the first batch's start (s)",
            self.rolling.start_s,
            (0.0, 3600.0),
        );
        range(
            "tail_s",
            "the time shown after the last batch (s)",
            self.tail_s,
            (0.0, 3600.0),
        );
        if self.zones > self.nodes && self.nodes > 0 {
            errs.push(FieldError {
                field: "zones".into(),
                k8s: "zones".into(),
                message: format!(
                    "zones ({}) must not exceed nodes ({}): every zone needs a node",
                    self.zones, self.nodes
                ),
            });
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        // The pods, the cluster settings and the restart, as the single-node model checks them
        // (its pod-count and work limits are per node and hold here too).
        let mut sc = self.node_scenario(0);
        sc.horizon_s = sc.horizon_s.clamp(10.0, 6.0 * 3600.0);
        sc.validate()?;
        let per_node: f64 = sc
            .pods
            .iter()
            .flat_map(|p| &p.containers)
            .flat_map(|c| [&c.startup_probe, &c.readiness_probe, &c.liveness_probe])
            .flatten()
            .map(|p| self.horizon_s() / p.period_s.max(1) as f64)
            .sum();
        let work = per_node * self.nodes as f64;
        if work > PROBE_EXECUTIONS || self.horizon_s() > 24.0 * 3600.0 {
            return Err(vec![FieldError {
                field: "nodes".into(),
                k8s: "nodes".into(),
                message: format!(
                    "nodes: about {work:.0} probe executions over {:.0} s; RestartScope simulates at most {PROBE_EXECUTIONS:.0} and 24 h (its own limit, not Kubernetes'): use fewer nodes, larger batches or longer periodSeconds",
                    self.horizon_s()
                ),
            }]);
        }
        Ok(())
    }
}

/// The `rolling-upgrade` preset: 200 nodes × 30 pods in 3 zones, 5 Services, a DaemonSet pod per
/// node, 10 nodes per batch down 30 s each, one batch after the other.
pub fn rolling_upgrade() -> Fleet {
    let sc = crate::presets::short_restart();
    let mut template = sc.pods[0].clone();
    template.name = "web".into();
    template.containers[0].truth.clear();
    Fleet {
        name: "rolling-upgrade".into(),
        description: "A rolling kubelet upgrade: 200 nodes × 30 pods, 10 nodes per batch, each kubelet down 30 s; legacy flaps every pod of every batch, KEP-4781 none.".into(),
        cluster: sc.cluster.clone(),
        nodes: 200,
        zones: 3,
        pods_per_node: 30,
        services: 5,
        daemonset: true,
        template,
        rolling: Rolling {
            start_s: 30.0,
            batch: 10,
            downtime_s: 30.0,
            pause_s: 0.0,
            wait_ready: false,
            upgrade_to: None,
        },
        first_sync_delay_s: 2.0,
        seed: 1,
        sample_nodes: 3,
        tail_s: 120.0,
    }
}

/// Fleet presets by name.
pub fn preset(name: &str) -> Option<Fleet> {
    match name {
        "rolling-upgrade" => Some(rolling_upgrade()),
        _ => None,
    }
}

pub const PRESETS: [&str; 1] = ["rolling-upgrade"];
