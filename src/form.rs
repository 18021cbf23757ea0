//! The settings a person edits, turned into a model scenario. No Kubernetes logic here: the
//! text of each field is parsed into `Overrides`, which the model applies (the same path as the
//! CLI's flags) and validates; this module maps the model's field paths back to the form fields
//! so each message shows next to its input. Called by `state.rs` (`compute`), `url.rs` and the
//! parameter components.

use crate::custom::Imported;
use crate::probes::{self, Cell, ContainerProbes};
use restartscope_sim::{
    fmt_secs, parse_duration, presets, FieldError, KubeVersion, Overrides, Restart, RestartKind,
    Scenario, MAX_PODS,
};
use std::sync::Arc;

/// Every editable setting, as the text in its input (so a half-typed value can be shown with an
/// error while the last valid run stays on screen).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub preset: String,
    /// The first kubelet restart (the sliders): when it stops and how long it stays down.
    pub downtime_s: f64,
    pub restart_at_s: f64,
    /// What the first restart stops (kubelet, container runtime, node) and the release its
    /// kubelet starts as, if it is an in-place upgrade.
    pub restart_what: RestartKind,
    pub upgrade_to: Option<KubeVersion>,
    /// The restarts after the first, in order (`restarts.rs`: `K`, the list, the bars).
    pub more_restarts: Vec<Restart>,
    pub version: String,
    pub grace_s: String,
    pub toleration_s: String,
    pub first_sync_s: String,
    pub seed: String,
    /// How many pods the node runs (`Overrides::pods`).
    pub pods: String,
    /// Every probe of every container that can have one (`probes.rs`).
    pub probes: Vec<ContainerProbes>,
    /// An imported scenario used instead of the preset's (`imported.rs`).
    pub custom: Option<Arc<Imported>>,
    /// A third lane: the ContainerScopedProbes proposal (unmerged PR #140704; 1.38 and main).
    pub csp: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings::for_preset("short-restart")
    }
}

/// The form fields, with their labels and accepted ranges (shown in messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Preset,
    Downtime,
    RestartAt,
    Version,
    Grace,
    Toleration,
    FirstSync,
    Seed,
    Pods,
    /// The list of kubelet restarts (when there are several).
    Restarts,
    /// What the selected restart stops and its upgrade target (`what`, `upgrade_to`).
    What,
    /// A cell of the probe table.
    Probe(Cell),
}

impl Field {
    pub fn id(self) -> String {
        let s = match self {
            Field::Preset => "preset",
            Field::Downtime => "downtime",
            Field::RestartAt => "restart-at",
            Field::Version => "version",
            Field::Grace => "grace",
            Field::Toleration => "toleration",
            Field::FirstSync => "first-sync",
            Field::Seed => "seed",
            Field::Pods => "pods",
            Field::Restarts => "restarts",
            Field::What => "restart-what",
            Field::Probe(c) => {
                return format!(
                    "probe-{}-{}-{}",
                    c.container,
                    c.kind.k8s(),
                    c.field.map_or("probe", |f| f.k8s())
                )
            }
        };
        s.to_string()
    }
    pub fn label(self) -> &'static str {
        match self {
            Field::Preset => "Scenario",
            Field::Downtime => "Kubelet downtime",
            Field::RestartAt => "Restart at",
            Field::Version => "Kubernetes version",
            Field::Grace => "Node monitor grace period (s)",
            Field::Toleration => "Unreachable toleration (s)",
            Field::FirstSync => "First SyncPod delay (s)",
            Field::Seed => "Seed",
            Field::Pods => "Pods",
            Field::Restarts => "Kubelet restarts",
            Field::What => "What restarts",
            Field::Probe(_) => "Probes",
        }
    }
}

impl Field {
    /// The Kubernetes name of the setting (what messages lead with), or the model's own name.
    pub fn k8s_name(self) -> &'static str {
        match self {
            Field::Grace => "--node-monitor-grace-period",
            Field::Toleration => "tolerationSeconds (node.kubernetes.io/unreachable)",
            Field::FirstSync => "first SyncPod delay",
            Field::Seed => "seed",
            Field::Pods => "pods",
            _ => self.label(),
        }
    }

    /// The field takes a duration (`45s`, `1m30s`, `5m`) as well as plain seconds.
    pub fn is_duration(self) -> bool {
        matches!(
            self,
            Field::Downtime
                | Field::RestartAt
                | Field::Grace
                | Field::Toleration
                | Field::FirstSync
        )
    }

    /// What the field accepts (inclusive). The one place the form, the URL parser and the
    /// parameters panel take their ranges from; model limits where the model has one.
    pub fn range(self) -> (f64, f64) {
        use restartscope_sim::limits;
        match self {
            Field::Downtime => (0.0, MAX_DOWNTIME_S),
            Field::RestartAt => (0.0, MAX_RESTART_AT_S),
            Field::Grace => limits::GRACE_S,
            Field::Toleration => limits::TOLERATION_S,
            Field::FirstSync => (limits::FIRST_SYNC_S.0, 120.0),
            Field::Seed => (0.0, u32::MAX as f64),
            Field::Pods => (1.0, MAX_PODS as f64),
            Field::Probe(c) => c.field.map_or((0.0, 0.0), |f| f.range()),
            Field::Preset | Field::Version | Field::Restarts | Field::What => (0.0, 0.0),
        }
    }

    /// The range as the parameters panel shows it: `5–600`, or `0s–1d` for a duration.
    pub fn range_text(self) -> String {
        let (lo, hi) = self.range();
        if self.is_duration() {
            format!("{}–{}, like 1m30s", fmt_secs(lo), fmt_secs(hi))
        } else {
            format!("{}–{}", fmt_num(lo), fmt_num(hi))
        }
    }
}

pub const MAX_DOWNTIME_S: f64 = 3600.0;
pub const MAX_RESTART_AT_S: f64 = 300.0;

impl Settings {
    /// The preset's own values in every field.
    pub fn for_preset(name: &str) -> Settings {
        let p = presets::find(name).unwrap_or(&presets::PRESETS[0]);
        Settings::of_scenario(&(p.build)(), p.name, None)
    }

    /// A scenario's own values in every field, named `preset` (an imported one keeps `custom`).
    pub fn of_scenario(sc: &Scenario, preset: &str, custom: Option<Arc<Imported>>) -> Settings {
        let mut s = Settings {
            preset: preset.to_string(),
            downtime_s: 0.0,
            restart_at_s: 0.0,
            restart_what: RestartKind::Kubelet,
            upgrade_to: None,
            more_restarts: Vec::new(),
            version: sc.cluster.version.as_str().to_string(),
            grace_s: fmt_num(sc.cluster.grace_s()),
            toleration_s: fmt_num(sc.cluster.toleration_s),
            first_sync_s: fmt_num(sc.kubelet.first_sync_delay_s),
            seed: sc.seed.to_string(),
            pods: sc.pods.len().to_string(),
            probes: probes::table_of(sc, custom.is_some()),
            custom,
            csp: false,
        };
        s.set_restarts(sc.kubelet.restarts.clone());
        s
    }

    /// Every kubelet restart, in order.
    pub fn restarts(&self) -> Vec<Restart> {
        let mut v = vec![Restart {
            what: self.restart_what,
            upgrade_to: self.upgrade_to,
            ..Restart::new(self.restart_at_s, self.downtime_s)
        }];
        v.extend(self.more_restarts.iter().cloned());
        v
    }

    /// Replaces every restart (sorted by start; an empty list changes nothing).
    pub fn set_restarts(&mut self, mut list: Vec<Restart>) {
        sort_by_start(&mut list);
        if list.is_empty() {
            return;
        }
        let first = list.remove(0);
        self.restart_at_s = first.at_s;
        self.downtime_s = first.downtime_s;
        self.restart_what = first.what;
        self.upgrade_to = first.upgrade_to;
        self.more_restarts = list;
    }

    /// The model's validation errors by form field, each message once (a probe setting is
    /// checked on every pod): a probe message goes to its cell of the table, in the row of the
    /// pod's workload when the table has rows per workload.
    pub fn by_field(&self, errs: Vec<FieldError>) -> Vec<(Field, String)> {
        let mut out: Vec<(Field, String)> = Vec::new();
        let several = !self.more_restarts.is_empty();
        let workloads = self.pod_workloads();
        for e in errs {
            let workload = pod_index(&e.field)
                .and_then(|i| workloads.get(i))
                .map(String::as_str);
            let f = probes::cell_of(&self.probes, &e.k8s, workload)
                .map(Field::Probe)
                .unwrap_or_else(|| match field_of_path(&e.field) {
                    Field::Downtime | Field::RestartAt if several => Field::Restarts,
                    f => f,
                });
            let item = (f, e.message);
            if !out.contains(&item) {
                out.push(item);
            }
        }
        out
    }

    /// The workload of each pod the settings run (`Pod::workload_name`), when the probe table
    /// has rows per workload (else empty: a message's cell is found by the container alone).
    fn pod_workloads(&self) -> Vec<String> {
        if self.probes.iter().all(|c| c.workloads.is_empty()) {
            return Vec::new();
        }
        let Some(mut sc) = self.base() else {
            return Vec::new();
        };
        if let Ok(n) = self.pods.trim().parse::<usize>() {
            sc = sc.with_pods(n);
        }
        sc.pods
            .iter()
            .map(|p| p.workload_name().to_string())
            .collect()
    }

    /// The scenario these settings describe, or a message per invalid field.
    pub fn scenario(&self) -> Result<Scenario, Vec<(Field, String)>> {
        let (base, overrides) = self.overrides()?;
        overrides.apply(base).map_err(|e| self.by_field(e))
    }

    /// The base scenario (the preset's or the imported one) and what the fields change on it. Each field's text is checked against the
    /// field's range here; everything else is the model's to judge (`Overrides::apply`).
    pub fn overrides(&self) -> Result<(Scenario, Overrides), Vec<(Field, String)>> {
        let mut errs = Vec::new();
        let Some(base) = self.base() else {
            return Err(vec![(
                Field::Preset,
                format!(
                    "unknown scenario {:?}; choose one of: {}",
                    self.preset,
                    presets::names().join(", ")
                ),
            )]);
        };
        let num = |errs: &mut Vec<(Field, String)>, f: Field, s: &str, lo: f64, hi: f64| -> f64 {
            let v = if f.is_duration() {
                parse_duration(s).ok()
            } else {
                s.trim().parse::<f64>().ok()
            };
            match v {
                Some(v) if v.is_finite() && v >= lo && v <= hi => v,
                _ if f.is_duration() => {
                    errs.push((
                        f,
                        format!(
                            "{} must be a duration from {} to {} seconds ({} to {}), like 40, 5m or 1m30s; got {:?}",
                            f.k8s_name(),
                            fmt_num(lo),
                            fmt_num(hi),
                            fmt_secs(lo),
                            fmt_secs(hi),
                            s.trim()
                        ),
                    ));
                    f64::NAN
                }
                _ => {
                    errs.push((
                        f,
                        format!(
                            "{} must be a number from {lo} to {hi}; got {:?}",
                            f.k8s_name(),
                            s.trim()
                        ),
                    ));
                    f64::NAN
                }
            }
        };
        let int = |errs: &mut Vec<(Field, String)>, f: Field, s: &str, lo: u64, hi: u64| -> u64 {
            match s.trim().parse::<u64>() {
                Ok(v) if v >= lo && v <= hi => v,
                _ => {
                    errs.push((
                        f,
                        format!(
                            "{} must be a whole number from {lo} to {hi}; got {:?}",
                            f.k8s_name(),
                            s.trim()
                        ),
                    ));
                    lo
                }
            }
        };
        let downtime = self.downtime_s;
        let (lo, hi) = Field::Downtime.range();
        if !(lo..=hi).contains(&downtime) {
            errs.push((
                Field::Downtime,
                format!("Kubelet downtime must be {lo} to {hi} s"),
            ));
        }
        let at = self.restart_at_s;
        let (lo, hi) = Field::RestartAt.range();
        // With several restarts the model judges each start (inside the run, in order).
        if self.more_restarts.is_empty() && !(lo..=hi).contains(&at) {
            errs.push((
                Field::RestartAt,
                format!("Restart at must be {lo} to {hi} s"),
            ));
        }
        let version = KubeVersion::parse_or_explain(&self.version);
        if let Err(e) = &version {
            errs.push((Field::Version, e.clone()));
        }
        let version = version.ok();
        let mut f = |field: Field, text: &str| {
            let (lo, hi) = field.range();
            num(&mut errs, field, text, lo, hi)
        };
        let grace = f(Field::Grace, &self.grace_s);
        let tol = f(Field::Toleration, &self.toleration_s);
        let sync = f(Field::FirstSync, &self.first_sync_s);
        let mut i = |field: Field, text: &str| {
            let (lo, hi) = field.range();
            int(&mut errs, field, text, lo as u64, hi as u64)
        };
        let seed = i(Field::Seed, &self.seed);
        // The count's range is the model's to judge (the kubelet's maxPods), as are the probes'.
        let pods = self.pods.trim().parse::<usize>().ok();
        if pods.is_none() {
            errs.push((
                Field::Pods,
                format!(
                    "pods must be a whole number from 1 to {MAX_PODS} (the kubelet's default maxPods); got {:?}",
                    self.pods.trim()
                ),
            ));
        }
        let probe_edits = probes::edits(
            &self.probes,
            &probes::table_of(&base, self.custom.is_some()),
        )
        .unwrap_or_else(|e| {
            errs.extend(e.into_iter().map(|(c, m)| (Field::Probe(c), m)));
            Vec::new()
        });
        if !errs.is_empty() {
            return Err(errs);
        }
        // One restart goes to the model as the sliders' start and downtime (which keep the base's
        // kind and upgrade), unless its kind or upgrade differs from the base's: then as a list.
        let first = self.restarts().swap_remove(0);
        let same_kind = base
            .first_restart()
            .is_some_and(|r| (r.what, r.upgrade_to) == (first.what, first.upgrade_to));
        let several = !self.more_restarts.is_empty() || !same_kind;
        Ok((
            base,
            Overrides {
                restart_at_s: (!several).then_some(at),
                downtime_s: (!several).then_some(downtime),
                restarts: several.then(|| self.restarts()),
                version,
                grace_s: Some(grace),
                toleration_s: Some(tol),
                first_sync_s: Some(sync),
                seed: Some(seed),
                policy: None,
                pods,
                probes: probe_edits,
                ..Overrides::default()
            },
        ))
    }
}

/// The model's validation errors by form field, each message once. The message leads with the
/// Kubernetes name of the setting. Without the settings, a probe message goes to the preset
/// ([`Settings::by_field`] finds its cell).
pub fn by_field(errs: Vec<FieldError>) -> Vec<(Field, String)> {
    let mut out: Vec<(Field, String)> = Vec::new();
    for e in errs {
        let item = (field_of_path(&e.field), e.message);
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// `pods[3].containers[0].readiness_probe.period_s` → 3.
fn pod_index(path: &str) -> Option<usize> {
    path.strip_prefix("pods[")?.split_once(']')?.0.parse().ok()
}

/// The form field a model validation path belongs to.
pub fn field_of_path(path: &str) -> Field {
    if path == "pods" {
        Field::Pods
    } else if path.contains("node_monitor_grace") {
        Field::Grace
    } else if path.contains("toleration") {
        Field::Toleration
    } else if path.contains("first_sync") {
        Field::FirstSync
    } else if path.contains("upgrade_to") || path.ends_with(".what") {
        Field::What
    } else if path.contains("downtime") {
        Field::Downtime
    } else if path.contains("restarts") {
        Field::RestartAt
    } else {
        Field::Preset
    }
}

/// Restarts by start, in place (an insertion sort: at most 20, and the standard library's sort
/// would add kilobytes to the page's wasm).
pub fn sort_by_start(list: &mut [Restart]) {
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && list[j - 1].at_s > list[j].at_s {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// What `version` accepts: every release the model knows, by its profile lines.
pub fn versions_text() -> String {
    let names: Vec<&str> = KubeVersion::ALL.iter().map(|v| v.as_str()).collect();
    let lines = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    };
    format!(
        "a Kubernetes release from 1.30 to 1.38 with its patch (1.36.4) or main; profiles {lines}"
    )
}

pub fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Slider positions → downtime seconds: 1 s steps to 1 min, 5 s to 3 min, 10 s to 10 min,
/// 30 s to 30 min, 60 s to 60 min.
pub fn downtime_steps() -> Vec<f64> {
    let mut v: Vec<f64> = (0..=60).map(f64::from).collect();
    v.extend((13..=36).map(|i| f64::from(i * 5)));
    v.extend((19..=60).map(|i| f64::from(i * 10)));
    v.extend((21..=60).map(|i| f64::from(i * 30)));
    v.extend((31..=60).map(|i| f64::from(i * 60)));
    v
}

/// The slider position closest to a downtime.
pub fn downtime_pos(s: f64) -> usize {
    let steps = downtime_steps();
    steps
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 - s).abs().total_cmp(&(b.1 - s).abs()))
        .map(|(i, _)| i)
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "form_tests.rs"]
mod tests;
