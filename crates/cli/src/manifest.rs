//! Kubernetes manifests on the command line: `simulate --manifest FILE [--manifest FILE…]
//! [--replicas-on-node N]` and `import --manifest FILE… [--replicas-on-node N] [--out FILE]`,
//! which prints the imported scenario as a TOML scenario file (its comments list what the model
//! does not use). The import itself is `restartscope-manifest`'s, as in the web app.

use super::UserError;
use restartscope_manifest::settings::ClusterSettings;
use restartscope_manifest::{import_any, inputs, Import, ImportOptions, Imported, Source};

/// The preset `simulate -f` runs when the files hold cluster settings and no workload.
pub(crate) const SETTINGS_PRESET: &str = "short-restart";
/// The fleet preset `fleet -f` runs when no --preset or --scenario is given.
pub(crate) const SETTINGS_FLEET_PRESET: &str = "rolling-upgrade";

/// `--replicas-on-node N`: how many pods of each workload land on this node.
pub(crate) fn parse_replicas(value: &str) -> Result<u32, UserError> {
    match value.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "invalid --replicas-on-node {value:?}; use a whole number of pods, at least 1 (default: every replica)"
        )
        .into()),
    }
}

/// Reads (`restartscope_manifest::inputs`: `-` is standard input, directories recursively) and
/// imports the manifests, in order: workloads (with any cluster settings) or cluster settings
/// alone. What the reading skipped (a kustomization in a directory) is said on standard error.
pub(crate) fn load_any(
    paths: &[String],
    replicas_on_node: Option<u32>,
) -> Result<Imported, UserError> {
    let read = inputs::read_all(paths, &mut std::io::stdin().lock())?;
    for n in &read.notes {
        eprintln!("restartscope: note: {n}");
    }
    let sources: Vec<Source> = read
        .inputs
        .iter()
        .map(|i| Source {
            name: &i.name,
            text: &i.text,
        })
        .collect();
    import_any(&sources, &ImportOptions { replicas_on_node }).map_err(|e| {
        UserError(if e.source.is_empty() {
            format!("invalid manifest {}: {e}", paths.join(", "))
        } else {
            format!("invalid manifest {e}")
        })
    })
}

/// As [`load_any`], for a scenario: cluster settings alone are an error that says so.
pub(crate) fn load(paths: &[String], replicas_on_node: Option<u32>) -> Result<Import, UserError> {
    match load_any(paths, replicas_on_node)? {
        Imported::Scenario(im) => Ok(im),
        Imported::Settings(s) => Err(format!("{}: {}", paths.join(", "), s.message()).into()),
    }
}

/// `-f` beside `--preset`, `--scenario` or for `fleet`: cluster settings only (a workload there
/// would have nowhere to go).
pub(crate) fn load_settings(
    paths: &[String],
    with: &str,
    remedy: &str,
) -> Result<ClusterSettings, UserError> {
    match load_any(paths, None)? {
        Imported::Settings(s) => Ok(s.settings),
        Imported::Scenario(im) => {
            let w: Vec<String> = im
                .workloads
                .iter()
                .map(|w| format!("{} {}", w.kind, w.name))
                .collect();
            Err(format!(
                "-f {} holds workloads ({}): with {with}, -f takes cluster settings only (KubeletConfiguration, kubeadm's configuration, control-plane static pods); {remedy}",
                paths.join(", "),
                w.join(", ")
            )
            .into())
        }
    }
}

/// The notes on settings that disagree (`-f` files among themselves, or with an explicit flag,
/// which wins), one line each on standard error.
pub(crate) fn disagreements(from_files: &ClusterSettings, explicit: &ClusterSettings) -> String {
    let mut all = from_files.clone();
    all.extend(explicit.clone().explicit());
    all.disagreements()
        .iter()
        .map(|l| format!("restartscope: note: {l}\n"))
        .collect()
}

/// `--kubelet-config FILE` and `--controller-manager FILE`: the cluster settings they hold.
pub(crate) fn cluster_settings(
    o: &crate::args::SettingsOpts,
) -> Result<ClusterSettings, UserError> {
    let mut out = ClusterSettings::default();
    let read = |flag: &str, path: &str| -> Result<String, UserError> {
        let t = std::fs::read(path).map_err(|e| format!("{flag}: cannot read {path}: {e}"))?;
        String::from_utf8(t).map_err(|e| format!("{flag}: {path} is not UTF-8 text ({e})").into())
    };
    if let Some(p) = &o.kubelet_config {
        let text = read("--kubelet-config", p)?;
        out.extend(
            restartscope_manifest::settings_files::read_kubelet_config(p, &text)
                .map_err(|e| format!("--kubelet-config: {e}"))?,
        );
    }
    if let Some(p) = &o.controller_manager {
        let text = read("--controller-manager", p)?;
        out.extend(
            restartscope_manifest::settings_files::read_controller_manager(p, &text)
                .map_err(|e| format!("--controller-manager: {e}"))?,
        );
    }
    Ok(out.explicit())
}

/// The settings read, one line each on standard error.
pub(crate) fn settings_summary(s: &ClusterSettings) -> String {
    s.lines()
        .iter()
        .map(|l| format!("restartscope: cluster setting: {l}\n"))
        .collect()
}

/// What `simulate` says on standard error about an import: the pods it made, the notes, and
/// how many fields the model does not use (`import` lists them).
pub(crate) fn summary(im: &Import) -> String {
    let pods: Vec<String> = im
        .workloads
        .iter()
        .map(|w| format!("{} {}: {} of {} pods", w.kind, w.name, w.pods, w.replicas))
        .collect();
    let mut s = format!("restartscope: imported {}\n", pods.join("; "));
    s.push_str(&settings_summary(&im.settings));
    for n in &im.notes {
        s.push_str(&format!("restartscope: note: {n}\n"));
    }
    if !im.unused.is_empty() {
        s.push_str(&format!(
            "restartscope: note: {} fields are not used by the model (`restartscope import --manifest …` lists them)\n",
            im.unused.len()
        ));
    }
    s
}

pub(crate) struct ImportArgs {
    pub manifests: Vec<String>,
    pub replicas_on_node: Option<u32>,
    pub settings: crate::args::SettingsOpts,
    pub out: Option<String>,
}

/// `import`'s options, checked.
pub(crate) fn import_args(o: crate::args::ImportOpts) -> Result<ImportArgs, UserError> {
    if o.manifests.is_empty() {
        return Err(
            "import needs --manifest FILE (-f; YAML or JSON: a file, a directory or - for standard input)"
                .into(),
        );
    }
    Ok(ImportArgs {
        manifests: o.manifests,
        replicas_on_node: o
            .replicas_on_node
            .as_deref()
            .map(parse_replicas)
            .transpose()?,
        settings: o.settings,
        out: super::out_path(o.out)?,
    })
}

/// The scenario TOML of the manifests.
pub(crate) fn run_import(a: &ImportArgs) -> Result<String, UserError> {
    let mut im = load(&a.manifests, a.replicas_on_node)?;
    let files = cluster_settings(&a.settings)?;
    eprint!("{}", disagreements(&im.settings, &files));
    if !files.is_empty() {
        files.apply(&mut im.scenario.cluster);
        im.scenario
            .validate()
            .map_err(|e| crate::knobs::invalid(&a.manifests.join(", "), &e))?;
        im.settings.extend(files);
    }
    Ok(restartscope_manifest::scenario_toml(&im))
}
