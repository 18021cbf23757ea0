//! Kubernetes manifests → a RestartScope [`Scenario`].
//!
//! [`import`] reads YAML or JSON (one or more documents, `---`; a `kind: List` too; JSON objects
//! one after another, as kubectl reads them) of the kinds Pod, Deployment, StatefulSet,
//! DaemonSet, ReplicaSet, ReplicationController, Job and CronJob (the pod template at
//! `spec`, `spec.template.spec` or `spec.jobTemplate.spec.template.spec`), plus Service (its
//! selector puts pods behind it: `Pod::service`) and PodDisruptionBudget (`Scenario::pdb`). It
//! reads what the model uses — containers and init containers (sidecars: `restartPolicy:
//! Always`), every probe's timing fields with `SetDefaults_Probe`'s defaults (the handler, exec,
//! httpGet, tcpSocket or grpc, is listed as not used: the model does not run it), `terminationGracePeriodSeconds`,
//! the tolerations of `node.kubernetes.io/unreachable`, replicas — and lists everything else as
//! not used by the model ([`Unused`]), never dropping it silently. The cluster's own settings
//! among the documents (`settings.rs`) are read as such, alone too ([`import_any`]); what is not
//! a manifest — a kustomization, an unrendered template, a kubeconfig — is named with the command
//! that makes one ([`ErrorKind::NotManifest`]). The scenario is built like a
//! preset (a 20 s kubelet restart at 30 s: change it with `Overrides`, as the CLI and the form
//! do) and validated by [`Scenario::validate`].
//!
//! No web dependencies; compiles to wasm32. The YAML parser is `granit-parser` (the choice and
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
mod refusals;
pub mod settings;
pub mod settings_files;
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
    /// The cluster settings in the input — a KubeletConfiguration, OpenShift's KubeletConfig,
    /// kubeadm's configuration and ConfigMaps, kube-controller-manager's and kube-apiserver's
    /// static pods (applied to `scenario.cluster`; [`settings::ClusterSettings::lines`] names
    /// them).
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
    /// Not a manifest but what makes or sits beside them — a kustomization, an unrendered
    /// template (Helm, another Go template, Jinja, ytt, envsubst), a Helm `Chart.yaml`, a
    /// kubeconfig, a `kubeadm join` command: the message names it and how to get manifests.
    NotManifest,
    /// Cluster settings (a KubeletConfiguration, a control-plane static pod, kubeadm's
    /// configuration, …) and no workload: [`import_any`] gives them back as
    /// [`Imported::Settings`] to run a preset with.
    SettingsOnly,
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

/// Cluster settings given without a workload.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingsOnly {
    pub settings: settings::ClusterSettings,
    /// What was read as settings: `KubeletConfiguration (kubelet.yaml (document 1))`.
    pub from: Vec<String>,
    /// Other objects of the input (Services, ConfigMaps, …), not used without workloads.
    pub unused: Vec<Unused>,
}

impl SettingsOnly {
    /// The sentence [`import`] fails with: what was read, and that a workload is missing.
    pub fn message(&self) -> String {
        format!(
            "the input holds cluster settings and no workload: read {}; add the workloads' manifests (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, ReplicationController, Job, CronJob), or run a preset with these settings (`restartscope simulate --preset short-restart -f FILE`)",
            self.from.join("; ")
        )
    }
}

/// What the inputs hold: workloads (with any settings) as a scenario, or settings alone.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Imported {
    Scenario(Import),
    Settings(SettingsOnly),
}

/// Imports every source, in order, into one scenario. Settings without a workload fail with
/// [`ErrorKind::SettingsOnly`] ([`import_any`] gives them back).
pub fn import(sources: &[Source<'_>], opts: &ImportOptions) -> Result<Import, ImportError> {
    match import_any(sources, opts)? {
        Imported::Scenario(im) => Ok(im),
        Imported::Settings(s) => Err(ImportError {
            kind: ErrorKind::SettingsOnly,
            message: s.message(),
            source: String::new(),
            document: None,
            line: None,
            column: None,
            errors: Vec::new(),
        }),
    }
}

/// Imports every source, in order: a scenario when there is a workload, else the cluster
/// settings read (a KubeletConfiguration, kubeadm's configuration, a control-plane static pod,
/// … given alone), for the caller to run a preset with.
pub fn import_any(sources: &[Source<'_>], opts: &ImportOptions) -> Result<Imported, ImportError> {
    let mut objects = objects::Objects::default();
    for s in sources {
        if let Some(t) = inputs::ytt_template(s.text) {
            let e = ImportError {
                kind: ErrorKind::NotManifest,
                message: t.message(),
                source: s.name.to_string(),
                document: None,
                line: None,
                column: None,
                errors: Vec::new(),
            };
            return Err(e);
        }
        read_source(&mut objects, s).map_err(|e| inputs::template_error(s.name, s.text, e))?;
    }
    if objects.workloads.is_empty() && !objects.settings.objects.is_empty() {
        let mut unused = objects.unused;
        unused
            .sort_by(|a, b| (&a.source, a.document, a.line).cmp(&(&b.source, b.document, b.line)));
        return Ok(Imported::Settings(SettingsOnly {
            from: objects.settings.objects.clone(),
            settings: objects.settings,
            unused,
        }));
    }
    // kube-apiserver's --default-unreachable-toleration-seconds is what DefaultTolerationSeconds
    // gives the pods that have no unreachable toleration of their own: those pods'. The setting
    // is kept out of `ClusterSettings::apply` here (whose rule is for a scenario's one
    // toleration) and listed again after.
    let toleration = objects.settings.unreachable_toleration_s();
    let mut held = Vec::new();
    if let Some(t) = toleration {
        let mut given = false;
        for w in &mut objects.workloads {
            if w.template.tolerates == podspec::Tolerates::Default {
                w.template.tolerates = podspec::Tolerates::Seconds(t as i64);
                given |= w.template.pod.workload != restartscope_sim::Workload::DaemonSet;
            }
        }
        if !given {
            objects.notes.push(format!(
                "--default-unreachable-toleration-seconds {t}: no pod takes it (DefaultTolerationSeconds adds the toleration only to pods without one of their own; a DaemonSet's pods tolerate forever)"
            ));
        }
        let (tol, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut objects.settings.set)
            .into_iter()
            .partition(|s| s.field == "cluster.toleration_s");
        objects.settings.set = rest;
        held = tol;
    }
    let mut im = build::scenario(objects, opts)?;
    im.settings.set.extend(held);
    Ok(Imported::Scenario(im))
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
            objects.read(s.name, s.text, i + 1, &d.root)?;
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
