//! Kubernetes manifests → a RestartScope [`Scenario`].
//!
//! [`import`] reads YAML or JSON (one or more documents, `---`; a `kind: List` too) of the kinds
//! Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job and CronJob (the pod template at
//! `spec`, `spec.template.spec` or `spec.jobTemplate.spec.template.spec`), plus Service (its
//! selector puts pods behind it: `Pod::service`) and PodDisruptionBudget (`Scenario::pdb`). It
//! reads what the model uses — containers and init containers (sidecars: `restartPolicy:
//! Always`), every probe's timing fields with `SetDefaults_Probe`'s defaults (the handler, exec,
//! httpGet, tcpSocket or grpc, does not matter to the timing), `terminationGracePeriodSeconds`,
//! the tolerations of `node.kubernetes.io/unreachable`, replicas — and lists everything else as
//! not used by the model ([`Unused`]), never dropping it silently. The scenario is built like a
//! preset (a 20 s kubelet restart at 30 s: change it with `Overrides`, as the CLI and the form
//! do) and validated by [`Scenario::validate`].
//!
//! No web dependencies; compiles to wasm32. The YAML parser is `saphyr-parser` (the choice and
//! the measured wasm sizes: docs/research/manifest-deps.md).
//!
//! - `yaml.rs`: text → positioned tree, with the size, depth and alias limits.
//! - `read.rs`: typed reading with paths, the not-used list.
//! - `podspec.rs`: a pod template → the model's `Pod`.
//! - `objects.rs`: documents → workloads, Services, budgets (kinds, apiVersions, replicas).
//! - `build.rs`: the scenario: pods on this node, Services, the budget, tolerations, validation.

// An import fails once, with one error that carries its place; boxing it would only add noise.
#![allow(clippy::result_large_err)]

mod build;
pub mod inputs;
mod objects;
mod podspec;
mod read;
pub mod settings;
pub mod yaml;

/// The kubelet restart of an imported scenario, as in the `short-restart` preset (change it
/// with `Overrides`, `--downtime`).
pub const IMPORT_RESTART_AT_S: f64 = 30.0;
pub const IMPORT_DOWNTIME_S: f64 = 20.0;
use restartscope_sim::{FieldError, Scenario};

/// One input: a file name (or "pasted") and its text.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Settings of the import.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// How many pods of each Deployment, StatefulSet, ReplicaSet and Job land on this node;
    /// `None`: all of them (`spec.replicas`, `spec.parallelism`). A DaemonSet has one pod on
    /// every node, a Pod is one pod.
    pub replicas_on_node: Option<u32>,
}

/// The imported scenario and what was made of the manifests.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// Validated.
    pub scenario: Scenario,
    /// The workloads in input order, with the pods they gave.
    pub workloads: Vec<Workload>,
    /// Everything present that the model does not use.
    pub unused: Vec<Unused>,
    /// Where the model approximates the manifests (one toleration for every pod, a Job's
    /// restartPolicy, …), in words.
    pub notes: Vec<String>,
    /// The cluster settings of a KubeletConfiguration or kube-controller-manager's static pod in
    /// the input (applied to `scenario.cluster`; [`settings::ClusterSettings::lines`] names them).
    pub settings: settings::ClusterSettings,
}

/// One workload of the manifests.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// `Deployment`, `Pod`, …
    pub kind: String,
    pub name: String,
    /// The input it came from ([`Source::name`]) and its 1-based document.
    pub source: String,
    pub document: usize,
    /// What the manifest asks for (`spec.replicas`, `spec.parallelism`; 1 for a Pod or a
    /// DaemonSet's pod on this node).
    pub replicas: u32,
    /// The scenario's pods `first_pod .. first_pod + pods` are this workload's.
    pub first_pod: usize,
    pub pods: usize,
}

/// A field present in a manifest that the model does not use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    pub source: String,
    pub document: usize,
    /// `Deployment web`.
    pub object: String,
    /// The field's path in the object: `spec.template.spec.containers[0].resources`.
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// Why, when it is more than "not modelled" (a not-ready toleration: the model's node never
    /// becomes NotReady).
    pub why: Option<String>,
}

impl std::fmt::Display for Unused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} (line {})", self.object, self.path, self.line)?;
        if let Some(w) = &self.why {
            write!(f, ": {w}")?;
        }
        Ok(())
    }
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not YAML (or JSON): the parser's message, with line and column.
    Syntax,
    /// A document over 1 MiB, nesting too deep, too many values.
    TooLarge,
    /// No workload in the input: the message names the kinds found.
    NotWorkload,
    /// `apiVersion` or `kind` missing, or an `apiVersion` Kubernetes does not serve for the kind.
    ApiVersion,
    /// A field of the wrong type or value (the message starts with its path).
    Field,
    /// The scenario's validation rejected it: [`ImportError::errors`], each message starting
    /// with the Kubernetes field name.
    Invalid,
}

/// Why an import failed: one message, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub kind: ErrorKind,
    /// A sentence; for a field, it starts with the field's path or Kubernetes name.
    pub message: String,
    /// [`Source::name`] of the input.
    pub source: String,
    /// 1-based document, line and column, where known.
    pub document: Option<usize>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// [`ErrorKind::Invalid`]: the model's validation errors (paths into the scenario).
    pub errors: Vec<FieldError>,
}

impl std::fmt::Display for ImportError {
    /// `web.yaml: <message> at line 3 column 8`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.source.is_empty() {
            write!(f, "{}: ", self.source)?;
        }
        write!(f, "{}", self.message)?;
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, " at line {l} column {c}"),
            (Some(l), None) => write!(f, " at line {l}"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for ImportError {}

/// Imports every source, in order, into one scenario.
pub fn import(sources: &[Source<'_>], opts: &ImportOptions) -> Result<Import, ImportError> {
    let mut objects = objects::Objects::default();
    for s in sources {
        read_source(&mut objects, s).map_err(|e| helm_template(s, e))?;
    }
    build::scenario(objects, opts)
}

/// An error in a text that still holds Helm template syntax (at or before the error's line) is
/// that syntax's: the chart was not rendered.
fn helm_template(s: &Source<'_>, e: ImportError) -> ImportError {
    match inputs::helm_template_line(s.text) {
        Some((line, tpl)) if e.line.is_none_or(|l| l >= line) => ImportError {
            kind: ErrorKind::Syntax,
            message: format!(
                "line {line} holds Helm template syntax `{tpl}`: this is a chart's template, not a manifest; render it first (`helm template RELEASE CHART | restartscope simulate -f -`)"
            ),
            source: s.name.to_string(),
            document: None,
            line: None,
            column: None,
            errors: Vec::new(),
        },
        _ => e,
    }
}

fn read_source(objects: &mut objects::Objects, s: &Source<'_>) -> Result<(), ImportError> {
    {
        let docs = yaml::parse(s.text).map_err(|e| {
            let kind = if e.limit {
                ErrorKind::TooLarge
            } else {
                ErrorKind::Syntax
            };
            ImportError {
                kind,
                message: e.message,
                source: s.name.to_string(),
                document: None,
                line: e.line,
                column: e.column,
                errors: Vec::new(),
            }
        })?;
        for (i, d) in docs.iter().enumerate() {
            objects.read(s.name, i + 1, &d.root)?;
        }
    }
    Ok(())
}

/// Imports one text (its name in messages: `manifest`).
pub fn import_str(text: &str, opts: &ImportOptions) -> Result<Import, ImportError> {
    import(&[Source { name: "", text }], opts)
}

/// The imported scenario as a scenario file (TOML), headed by comments that say where it came
/// from and list what the model does not use.
#[cfg(feature = "toml")]
pub fn scenario_toml(im: &Import) -> String {
    let mut out = String::from("# Imported from Kubernetes manifests by restartscope-manifest.\n");
    for w in &im.workloads {
        out.push_str(&format!(
            "# {} {}: {} pod(s) on this node (asked for {})\n",
            w.kind, w.name, w.pods, w.replicas
        ));
    }
    for l in im.settings.lines() {
        out.push_str(&format!("# cluster setting: {l}\n"));
    }
    for n in &im.notes {
        out.push_str(&format!("# note: {n}\n"));
    }
    if !im.unused.is_empty() {
        out.push_str("# Not used by the model:\n");
        for u in &im.unused {
            out.push_str(&format!("#   {u}\n"));
        }
    }
    out.push('\n');
    out.push_str(
        &toml::to_string(&im.scenario).unwrap_or_else(|e| format!("# cannot write TOML: {e}\n")),
    );
    out
}
