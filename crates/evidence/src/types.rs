//! The shared types every reader fills and `explain`/`observed` read: observations (`Obs`,
//! `What`), a file's evidence (`Evidence`, `Format`, `Unread`, `ReadError`) and the small helpers
//! the readers share. Below the readers: it imports none of them.

use serde::Serialize;

/// What was observed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum What {
    /// The pod's Ready state as first seen (a watch's first row, an audit write's first value).
    ReadyAtStart(bool),
    /// The pod's Ready condition (or READY column) changed to this value.
    ReadyChanged(bool),
    /// The pod's Ready condition has had this value since `t_ms` (its `lastTransitionTime` in a
    /// `kubectl get pod -o yaml` snapshot): the last transition, earlier ones unknown.
    ReadySince(bool),
    /// Another pod condition (ContainersReady, PodScheduled, Initialized …) since `t_ms`.
    ConditionSince(String, bool),
    /// A container's `restartCount` at a snapshot (`kubectl get pod -o yaml`), or a watch's
    /// RESTARTS on the pod's first row; 0 included: since the pod's creation, not only since the
    /// kubelet's restart.
    RestartCount(u32),
    /// The kubelet's version (`v1.34.3`): a Node's `status.nodeInfo.kubeletVersion`, the
    /// kubelet's `"Kubelet version"` log line.
    KubeletVersion(String),
    /// A container's Started changed to this value.
    StartedChanged(bool),
    /// The pod's restart count became this (0: a restart whose count the source does not give).
    Restarted(u32),
    /// A container was started (an event `Started`, a PLEG `ContainerStarted`).
    ContainerStarted,
    /// A container exited (PLEG `ContainerDied`) or was killed (event `Killing`).
    ContainerDied,
    /// A probe failed (the probe type as Kubernetes writes it: Readiness, Liveness, Startup).
    ProbeFailed(String),
    /// A pod status written without a Ready condition in the record (audit level Metadata, a
    /// patch of other fields).
    StatusWritten,
    KubeletStarted,
    KubeletStopped,
    LeaseRenewed,
    NodeReady(bool),
    PodDeleted,
}

impl What {
    /// In words, for tables.
    pub fn text(&self) -> String {
        match self {
            What::ReadyAtStart(b) => format!("Ready={} (first seen)", tf(*b)),
            What::ReadyChanged(b) => format!("Ready→{}", tf(*b)),
            What::ReadySince(b) => format!("Ready={} (last transition)", tf(*b)),
            What::ConditionSince(k, b) => format!("{k}={} since", tf(*b)),
            What::KubeletVersion(v) => format!("kubelet {v}"),
            What::RestartCount(n) => format!("restart count {n}"),
            What::StartedChanged(b) => format!("Started→{}", tf(*b)),
            What::Restarted(0) => "container restarted".into(),
            What::Restarted(n) => format!("restarts={n}"),
            What::ContainerStarted => "container started".into(),
            What::ContainerDied => "container exited/killed".into(),
            What::ProbeFailed(k) => format!("{k} probe failed"),
            What::StatusWritten => "status written (no Ready in the record)".into(),
            What::KubeletStarted => "kubelet started".into(),
            What::KubeletStopped => "kubelet stopped".into(),
            What::LeaseRenewed => "lease renewed".into(),
            What::NodeReady(b) => format!("node Ready={}", tf(*b)),
            What::PodDeleted => "pod deleted".into(),
        }
    }
}

fn tf(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// One observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Obs {
    /// Milliseconds: since the Unix epoch when the source has timestamps (`absolute`), since
    /// the start of the year for klog lines (which carry no year), else relative (kubectl AGE).
    pub t_ms: i64,
    /// The pod (name without namespace), if the observation is about one.
    pub pod: Option<String>,
    /// The node, if the source names it (lease, node condition, journal host).
    pub node: Option<String>,
    pub what: What,
    /// Who wrote it: `system:node:n1`, `system:serviceaccount:kube-system:node-controller`,
    /// `kubelet`, `node-controller` …
    pub by: Option<String>,
    /// 1-based line number in its file.
    pub line: usize,
    /// Index of the file among those read together (0 for a single file).
    pub file: usize,
}

/// The formats `read` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    KubectlWatch,
    EventsJson,
    Audit,
    Klog,
    PodStatus,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::KubectlWatch => "kubectl get pods -w",
            Format::EventsJson => "kubectl get events -o json|yaml",
            Format::Audit => "audit log (audit.k8s.io/v1)",
            Format::Klog => "kubelet log (klog)",
            Format::PodStatus => "kubectl get pod -o yaml|json (a snapshot)",
        }
    }
}

/// A line the reader did not understand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unread {
    pub line: usize,
    pub file: usize,
    pub why: String,
    /// The line, cut to 120 characters.
    pub text: String,
}

/// What one file gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub format: Format,
    /// Timestamps are wall-clock (`t_ms` since the epoch or the year), not relative ages.
    pub absolute: bool,
    pub obs: Vec<Obs>,
    pub unread: Vec<Unread>,
    /// Lines in the format that say nothing the model follows (other klog messages, other
    /// audit resources, events of other reasons).
    pub skipped: usize,
    /// What the reader wants said about this file (a snapshot's limits, values without a time).
    pub notes: Vec<String>,
}

/// Input that cannot be read at all: the first line at fault and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

pub(crate) fn cut(s: &str) -> String {
    let s = s.trim_end();
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// A line that is a comment in every text format read here (the fixtures' source line).
pub(crate) fn is_comment(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with('#') || t.starts_with("//")
}

/// The file one pod's Ready changes are taken from when several files saw them (`mine`: that
/// pod's observations): the one with the most, the first of equals. Files keep their own clocks
/// (a watch's AGE, a journal's wall time), so two files' changes of one flap, merged by time,
/// would read as two flaps. Used by `explain`'s sequences and `observed`'s lanes alike.
pub(crate) fn ready_file(mine: &[&Obs]) -> Option<usize> {
    let mut per_file: Vec<(usize, usize)> = Vec::new();
    for o in mine {
        if matches!(o.what, What::ReadyChanged(_)) {
            match per_file.iter_mut().find(|(f, _)| *f == o.file) {
                Some((_, n)) => *n += 1,
                None => per_file.push((o.file, 1)),
            }
        }
    }
    per_file
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(f, _)| *f)
}
