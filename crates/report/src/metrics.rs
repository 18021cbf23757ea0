//! The one table of metric descriptors (SPEC §5): key, title, unit, description, how a value is
//! formatted and which direction is better. The CLI's metrics table ([`crate::table`]) and the
//! web app's metric cards both iterate [`METRICS`]; the keys are the JSON trace format's keys.
//! [`metrics_at`] (and [`Metric::value_at`]) give the metrics as they stood at a time, so the
//! cards can follow the playhead: read from the run's checkpoint series (`Trace::checkpoints`,
//! see `restartscope_sim::trace::checkpoints`), exact, one binary search.

use restartscope_sim::{Metrics, Ms, Trace};

/// How a value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A whole number: `3`.
    Count,
    /// One decimal: `12.5`.
    Tenths,
}

/// Which direction of change is an improvement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

/// One metric.
#[derive(Clone, Copy, Debug)]
pub struct Metric {
    /// Field of [`Metrics`] and key in the JSON trace format (and the app's `metric-KEY` card).
    pub key: &'static str,
    pub title: &'static str,
    /// Unit after the number, or "" for a count.
    pub unit: &'static str,
    /// One sentence: what is counted.
    pub description: &'static str,
    pub format: Format,
    pub better: Better,
    get: fn(&Metrics) -> f64,
    /// Whether the run has this metric at all (the PodDisruptionBudget metric needs a budget).
    has: fn(&Metrics) -> bool,
}

fn always(_: &Metrics) -> bool {
    true
}

/// Every metric a reader compares, in the order of SPEC §5 (`events_processed`, a benchmark
/// figure, is not one).
pub const METRICS: [Metric; 9] = [
    Metric {
        key: "ready_transitions",
        title: "Pod Ready transitions",
        unit: "",
        description: "Changes of a pod's API-visible Ready condition, by any writer.",
        format: Format::Count,
        better: Better::Lower,
        get: |m| m.ready_transitions as f64,
        has: always,
    },
    Metric {
        key: "kubelet_status_writes",
        title: "Kubelet pod status writes",
        unit: "",
        description: "Pod status PATCHes by the kubelet's status manager.",
        format: Format::Count,
        better: Better::Lower,
        get: |m| m.kubelet_status_writes as f64,
        has: always,
    },
    Metric {
        key: "nlc_status_writes",
        title: "Node lifecycle controller status writes",
        unit: "",
        description: "Pods the node lifecycle controller marked NotReady (MarkPodsNotReady).",
        format: Format::Count,
        better: Better::Lower,
        get: |m| m.nlc_status_writes as f64,
        has: always,
    },
    Metric {
        key: "endpointslice_updates",
        title: "EndpointSlice updates",
        unit: "",
        description: "Updates of a Service's EndpointSlice (changes at one instant are one update).",
        format: Format::Count,
        better: Better::Lower,
        get: |m| m.endpointslice_updates as f64,
        has: always,
    },
    Metric {
        key: "unjustified_not_ready_s",
        title: "Unjustified NotReady",
        unit: "pod·s",
        description: "Pod-seconds with PodReady false while every container runs, has warmed up and is healthy.",
        format: Format::Tenths,
        better: Better::Lower,
        get: |m| m.unjustified_not_ready_s,
        has: always,
    },
    Metric {
        key: "unjustified_ready_s",
        title: "Unjustified Ready, the risk",
        unit: "pod·s",
        description: "Pod-seconds with PodReady true while some container is failing, warming up or stopped.",
        format: Format::Tenths,
        better: Better::Lower,
        get: |m| m.unjustified_ready_s,
        has: always,
    },
    Metric {
        key: "evictions",
        title: "Evictions",
        unit: "",
        description: "Pods deleted by the taint eviction controller.",
        format: Format::Count,
        better: Better::Lower,
        get: |m| m.evictions as f64,
        has: always,
    },
    Metric {
        key: "node_not_ready_s",
        title: "Node not Ready",
        unit: "s",
        description: "Seconds the node's Ready condition was not True.",
        format: Format::Tenths,
        better: Better::Lower,
        get: |m| m.node_not_ready_s,
        has: always,
    },
    Metric {
        key: "pdb_wrongful_allowed_s",
        title: "PDB allows an eviction on a wrongful Ready",
        unit: "s",
        description: "Seconds the PodDisruptionBudget's disruptionsAllowed exceeded what it would be had the wrongfully Ready pods (API Ready while a container is failing, warming up or stopped) counted as unhealthy: an eviction then could take the Service below its budget (0 without a budget).",
        format: Format::Tenths,
        better: Better::Lower,
        get: |m| m.pdb_wrongful_allowed_s.unwrap_or(0.0),
        has: |m| m.pdb_wrongful_allowed_s.is_some(),
    },
];

/// The metric with this key.
pub fn find(key: &str) -> Option<&'static Metric> {
    METRICS.iter().find(|m| m.key == key)
}

/// The run's metrics as they stood at the end of the instant `t` (what happened at `t` counted;
/// the time-based ones integrated up to `t`): zero before anything counted, `trace.metrics`
/// from the horizon on. Exact for a trace from `simulate*`/`compare*`; a trace without the
/// checkpoint series (a fleet's sampled node) has only its whole-run values, returned for
/// every `t`.
pub fn metrics_at(trace: &Trace, t: Ms) -> Metrics {
    match &trace.checkpoints {
        Some(c) => c.at(t.min(trace.horizon)),
        None => trace.metrics.clone(),
    }
}

impl Metric {
    pub fn value(&self, m: &Metrics) -> f64 {
        (self.get)(m)
    }

    /// This metric's value at `t` ([`metrics_at`]).
    pub fn value_at(&self, trace: &Trace, t: Ms) -> f64 {
        self.value(&metrics_at(trace, t))
    }

    /// Whether a run with these metrics has this one (a card or row may say "no budget").
    pub fn applies(&self, m: &Metrics) -> bool {
        (self.has)(m)
    }

    /// Title with the unit in parentheses: `Unjustified NotReady (pod·s)`.
    pub fn label(&self) -> String {
        if self.unit.is_empty() {
            self.title.to_string()
        } else {
            format!("{} ({})", self.title, self.unit)
        }
    }

    /// A value as this metric is written (no unit; thousands grouped, `restartscope_sim::group`).
    pub fn fmt(&self, v: f64) -> String {
        restartscope_sim::group(&self.fmt_raw(v))
    }

    /// A value as this metric is written, its digits ungrouped (the page groups them in the
    /// reader's locale).
    pub fn fmt_raw(&self, v: f64) -> String {
        match self.format {
            Format::Count => format!("{}", v.round() as i64),
            Format::Tenths => format!("{v:.1}"),
        }
    }

    /// The difference `to − from` as written: `None` when it rounds to nothing, else its sign
    /// (`+` or `−`, U+2212), its size and whether it is an improvement.
    pub fn delta(&self, from: f64, to: f64) -> Option<Delta> {
        let d = to - from;
        let size = self.fmt(d.abs());
        if size == self.fmt(0.0) {
            return None;
        }
        Some(Delta {
            sign: if d > 0.0 { '+' } else { '−' },
            size,
            better: (d < 0.0) == (self.better == Better::Lower),
        })
    }
}

/// A difference between two runs, see [`Metric::delta`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delta {
    pub sign: char,
    pub size: String,
    pub better: bool,
}

impl std::fmt::Display for Delta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.sign, self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_descriptor_per_metric_with_its_json_key() {
        let m = Metrics {
            ready_transitions: 1,
            kubelet_status_writes: 2,
            nlc_status_writes: 3,
            endpointslice_updates: 4,
            unjustified_not_ready_s: 5.5,
            unjustified_ready_s: 6.25,
            evictions: 7,
            node_not_ready_s: 8.0,
            pdb_wrongful_allowed_s: Some(4.5),
            events_processed: 99,
        };
        let json = serde_json::to_value(&m).unwrap();
        for d in &METRICS {
            assert_eq!(
                json[d.key].as_f64(),
                Some(d.value(&m)),
                "{} is not the JSON key of its value",
                d.key
            );
            assert!(!d.title.is_empty() && d.description.ends_with('.'));
        }
        let mut keys: Vec<&str> = METRICS.iter().map(|d| d.key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), METRICS.len());
        // Every field but the benchmark counter has a descriptor.
        assert_eq!(json.as_object().unwrap().len(), METRICS.len() + 1);
        assert!(find("events_processed").is_none());
    }

    #[test]
    fn formats_and_deltas() {
        let rt = find("ready_transitions").unwrap();
        let un = find("unjustified_not_ready_s").unwrap();
        assert_eq!(rt.fmt(6.0), "6");
        assert_eq!(un.fmt(12.0), "12.0");
        assert_eq!(un.fmt(0.04), "0.0");
        assert_eq!(rt.fmt(59_721_000.0), "59,721,000");
        assert_eq!(un.fmt(12_345.67), "12,345.7");
        assert_eq!(rt.fmt_raw(59_721_000.0), "59721000");
        assert_eq!(un.label(), "Unjustified NotReady (pod·s)");
        assert_eq!(rt.label(), "Pod Ready transitions");
        assert_eq!(rt.delta(6.0, 6.0), None);
        let d = rt.delta(6.0, 2.0).unwrap();
        assert_eq!((d.to_string(), d.better), ("−4".to_string(), true));
        let d = un.delta(0.0, 12.34).unwrap();
        assert_eq!((d.to_string(), d.better), ("+12.3".to_string(), false));
        // Too small to show is no difference.
        assert_eq!(un.delta(1.0, 1.04), None);
    }
}
