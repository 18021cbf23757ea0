//! `restartscope`: run RestartScope presets and scenario files from the command line.
//!
//! Errors in what the user gave (flags, durations, presets, scenario files) exit with status 2
//! and one message on stderr; a failure to write the output (or to draw a PNG or GIF: no font)
//! exits with status 1.

use restartscope_figure::{layout, Animation, LayoutOpts};
use restartscope_report::{json, table};
mod anim;
mod args;
mod files;
mod fleet;
mod knobs;
mod kubelets;
mod manifest;
mod mermaid;
mod raster;
mod replay;
mod tour;
use args::Cmd;
use clap::{CommandFactory, FromArgMatches};
use restartscope_sim::{
    fmt_secs, limits, parse_duration, presets, simulate_policy, KubeVersion, KubeletProfile,
    Overrides, Policy, Scenario, Trace,
};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// A user error: printed as one line, exit status 2.
struct UserError(String);

impl<T: Into<String>> From<T> for UserError {
    fn from(s: T) -> Self {
        UserError(s.into())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Table,
    Markdown,
    Json,
    Svg,
    /// Mermaid itself: one `sequenceDiagram` per run.
    Mermaid,
    /// The Markdown document to paste (headings, fenced `mermaid` blocks, the rules cited).
    MermaidMd,
    /// `png` and `gif` (raster.rs): binary.
    Raster(raster::Kind),
}

struct SimArgs {
    preset: Option<String>,
    scenario: Option<String>,
    manifests: Vec<String>,
    replicas_on_node: Option<u32>,
    /// `--kubelet-config`, `--controller-manager`.
    settings: args::SettingsOpts,
    policy: Option<Policy>,
    downtime_s: Option<f64>,
    grace_s: Option<f64>,
    version: Option<KubeVersion>,
    seed: Option<u64>,
    pods: Option<usize>,
    probes: Vec<restartscope_sim::ProbeEdit>,
    /// `--restart AT:DOWNTIME`, repeatable: every kubelet restart.
    restarts: Vec<restartscope_sim::Restart>,
    /// `--upgrade-to`: the release the first kubelet or node restart starts.
    upgrade_to: Option<KubeVersion>,
    /// `--kubelets`: any kubelet profiles side by side.
    kubelets: Option<Vec<KubeletProfile>>,
    format: Format,
    /// `--animate [--duration]`: the SVG animated.
    animate: Option<Animation>,
    /// `--format png|gif [--scale] [--fps] [--theme] [--duration]`.
    raster: Option<raster::RasterArgs>,
    out: Option<String>,
}

/// `simulate --format`'s values.
const FORMATS: &str = "table, markdown, json, svg, mermaid, mermaid-md, png, gif";

/// What a subcommand gives back: text and where it goes.
type Output = (String, Option<String>);

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    // Installed as `kubectl-restartscope`, kubectl runs it as `kubectl restartscope`.
    let bin = match argv.first().map(std::path::Path::new) {
        Some(p) if p.file_stem().is_some_and(|s| s == "kubectl-restartscope") => {
            "kubectl restartscope"
        }
        _ => "restartscope",
    };
    let args = &argv[1..];
    if args.is_empty() {
        return fail(&format!(
            "no command given; use `{bin} presets`, `{bin} simulate --preset NAME` or `{bin} --help`"
        ));
    }
    if let Some(m) = args::old_version_flag(args) {
        return fail(&m);
    }
    let mut cmd = args::Cli::command().bin_name(bin);
    let matches = match cmd.try_get_matches_from_mut(&argv) {
        Ok(m) => m,
        Err(e) => return clap_error(&e, bin, &cmd, args),
    };
    let cli = match args::Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return clap_error(&e, bin, &cmd, args),
    };
    let result: Result<Output, UserError> = match cli.command {
        Cmd::Presets => Ok((presets_text(), None)),
        Cmd::Versions => Ok((versions_text(), None)),
        Cmd::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cmd, bin.replace(' ', "-"), &mut buf);
            Ok((String::from_utf8_lossy(&buf).into_owned(), None))
        }
        Cmd::Simulate(o) => match sim_args(o).and_then(|a| {
            let (sc, traces) = run(&a)?;
            Ok((a, sc, traces))
        }) {
            // Mermaid to a file with several runs: one diagram per file (a .mmd file holds
            // one diagram for mermaid-cli and mermaid.live), each named on standard error.
            Ok((a, sc, traces)) if a.format == Format::Mermaid && traces.len() > 1 => {
                if let Some(out) = a.out.as_deref() {
                    return mermaid::write_files(&mermaid::diagrams(&sc, &traces), out);
                }
                return write_out(mermaid::render(&sc, &traces).as_bytes(), None);
            }
            Ok((a, sc, traces)) => {
                return match render(&a, &sc, &traces) {
                    Ok(bytes) => write_out(&bytes, a.out.as_deref()),
                    Err(m) => {
                        eprintln!("restartscope: error: {m}");
                        ExitCode::from(1)
                    }
                }
            }
            Err(e) => Err(e),
        },
        Cmd::Fleet(o) => fleet::args(o).and_then(|a| Ok((fleet::run(&a)?, a.out.clone()))),
        Cmd::Import(o) => {
            manifest::import_args(o).and_then(|a| Ok((manifest::run_import(&a)?, a.out.clone())))
        }
        Cmd::Replay(o) => out_path(o.out.clone()).and_then(|out| Ok((replay::run(o)?, out))),
        Cmd::Tour(o) => match tour::args(o) {
            Ok(a) => return tour::run(&a),
            Err(UserError(m)) => Err(UserError(m)),
        },
    };
    let (text, out) = match result {
        Ok(r) => r,
        Err(UserError(m)) => return fail(&m),
    };
    write_out(text.as_bytes(), out.as_deref())
}

/// Help and version to standard output (status 0); every other clap error as one line, status 2.
fn clap_error(e: &clap::Error, bin: &str, cmd: &clap::Command, args: &[String]) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        // The program's version, whatever the subcommand it was asked under.
        ErrorKind::DisplayVersion => {
            println!("{bin} {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        _ => {
            let sub = args
                .iter()
                .find(|a| cmd.find_subcommand(a.as_str()).is_some())
                .map(String::as_str);
            fail(&args::one_line(e, bin, sub))
        }
    }
}

/// The output to `--out FILE` or standard output; status 1 when it cannot be written.
fn write_out(text: &[u8], out: Option<&str>) -> ExitCode {
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("restartscope: error: cannot write {path}: {e}");
                return ExitCode::from(1);
            }
        }
        None => {
            let mut so = std::io::stdout().lock();
            if let Err(e) = so.write_all(text).and_then(|_| so.flush()) {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("restartscope: error: cannot write to standard output: {e}");
                    return ExitCode::from(1);
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// `--out`: a file name (an empty one is bad input, status 2).
fn out_path(out: Option<String>) -> Result<Option<String>, UserError> {
    match out {
        Some(p) if p.is_empty() => Err("option --out needs a file name".into()),
        o => Ok(o),
    }
}

/// `simulate`'s options, checked: each value parsed with its own message.
fn sim_args(o: args::SimOpts) -> Result<SimArgs, UserError> {
    let mut a = SimArgs {
        kubelets: None,
        preset: o.preset,
        scenario: o.scenario,
        manifests: o.manifests,
        replicas_on_node: None,
        settings: o.settings,
        policy: None,
        downtime_s: None,
        grace_s: None,
        version: None,
        seed: None,
        pods: None,
        probes: Vec::new(),
        restarts: Vec::new(),
        upgrade_to: None,
        format: Format::Table,
        animate: None,
        raster: None,
        out: out_path(o.out)?,
    };
    match (&a.preset, &a.scenario, a.manifests.is_empty()) {
        (None, None, true) => {
            return Err(format!(
                "simulate needs --preset NAME or --scenario FILE (or -f/--manifest FILE, Kubernetes YAML); presets: {}",
                preset_list()
            )
            .into())
        }
        (Some(_), Some(_), _) => {
            return Err("give either --preset or --scenario, not both".into())
        }
        _ => {}
    }
    if let Some(v) = o.replicas_on_node {
        if a.manifests.is_empty() {
            return Err("--replicas-on-node goes with --manifest".into());
        }
        a.replicas_on_node = Some(manifest::parse_replicas(&v)?);
    }
    if let Some(v) = o.pods {
        a.pods = Some(knobs::pods(&v)?);
    }
    for v in &o.probes {
        a.probes.push(knobs::probe(v)?);
    }
    for v in &o.restarts {
        a.restarts.push(knobs::restart(v)?);
    }
    if let Some(v) = o.kubelets {
        a.kubelets = Some(kubelets::parse_kubelets(&v)?);
    }
    if let Some(v) = o.policy {
        a.policy = parse_policy(&v)?;
    }
    if let Some(value) = o.downtime {
        let v = duration("--downtime", &value)?;
        in_range(
            "--downtime",
            &value,
            "the kubelet downtime (kubelet.restarts[0].downtime_s)",
            v,
            limits::DOWNTIME_S,
        )?;
        a.downtime_s = Some(v);
    }
    if let Some(value) = o.grace {
        let v = duration("--grace", &value)?;
        in_range(
            "--grace",
            &value,
            "--node-monitor-grace-period",
            v,
            limits::GRACE_S,
        )?;
        a.grace_s = Some(v);
    }
    if let Some(v) = o.kubernetes_version {
        a.version = Some(parse_version(&v)?);
    }
    if let Some(v) = o.upgrade_to {
        a.upgrade_to = Some(parse_version(&v)?);
    }
    if let Some(value) = o.seed {
        a.seed = Some(value.parse::<u64>().map_err(|_| {
            format!(
                "invalid --seed {value:?}; use a non-negative integer up to {}",
                u64::MAX
            )
        })?)
    }
    if let Some(value) = o.format {
        a.format = match value.as_str() {
            "table" => Format::Table,
            "markdown" => Format::Markdown,
            "json" => Format::Json,
            "svg" => Format::Svg,
            "mermaid" => Format::Mermaid,
            "mermaid-md" => Format::MermaidMd,
            "png" => Format::Raster(raster::Kind::Png),
            "gif" => Format::Raster(raster::Kind::Gif),
            _ => {
                return Err(
                    format!("invalid --format {value:?}; accepted values: {FORMATS}").into(),
                )
            }
        }
    }
    if let Format::Raster(kind) = a.format {
        a.raster = Some(anim::raster_args(kind, &o.anim, &o.raster)?);
        if a.out.is_none() && std::io::stdout().is_terminal() {
            return Err(format!(
                "--format {} writes binary data: give --out FILE or redirect standard output",
                if kind == raster::Kind::Png {
                    "png"
                } else {
                    "gif"
                }
            )
            .into());
        }
        return Ok(a);
    }
    let r = &o.raster;
    for (flag, given) in [
        ("--fps", r.fps.is_some()),
        ("--scale", r.scale.is_some()),
        ("--theme", r.theme.is_some()),
    ] {
        if given {
            let with = if flag == "--fps" { "gif" } else { "png or gif" };
            return Err(format!("{flag} goes with --format {with}").into());
        }
    }
    a.animate = anim::animation(&o.anim)?;
    if a.animate.is_some() && a.format != Format::Svg {
        return Err("--animate goes with --format svg".into());
    }
    Ok(a)
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("restartscope: error: {msg}");
    ExitCode::from(2)
}

fn presets_text() -> String {
    let w = presets::PRESETS
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    presets::PRESETS
        .iter()
        .map(|p| format!("{:<w$}  {}\n", p.name, p.teaches))
        .collect()
}

/// `restartscope versions`: every kubelet profile, what differs and the source.
fn versions_text() -> String {
    restartscope_report::versions::text()
}

fn preset_list() -> String {
    presets::names().join(", ")
}

/// `--policy legacy | kep | both` (`None`: both).
fn parse_policy(value: &str) -> Result<Option<Policy>, UserError> {
    match value {
        "legacy" => Ok(Some(Policy::Legacy)),
        "kep" => Ok(Some(Policy::Kep)),
        "both" => Ok(None),
        _ => Err(format!("invalid --policy {value:?}; accepted values: legacy, kep, both").into()),
    }
}

/// `--kubernetes-version`: a kubelet release the model has a profile for.
fn parse_version(value: &str) -> Result<KubeVersion, UserError> {
    KubeVersion::parse_or_explain(value)
        .map_err(|e| format!("invalid --kubernetes-version {value:?}: {e}").into())
}

fn duration(flag: &str, value: &str) -> Result<f64, UserError> {
    parse_duration(value).map_err(|e| UserError(format!("{flag}: {e}")))
}

/// `what` is the setting the flag changes, by its Kubernetes name where it has one.
fn in_range(
    flag: &str,
    value: &str,
    what: &str,
    v: f64,
    (lo, hi): (f64, f64),
) -> Result<(), UserError> {
    if v < lo || v > hi {
        return Err(format!(
            "{flag} {value} is out of range: {what} must be between {} and {}",
            fmt_secs(lo),
            fmt_secs(hi)
        )
        .into());
    }
    Ok(())
}

/// A TOML or JSON file (`files::load`), for `fleet`.
fn load<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, UserError> {
    files::load(path)
}

/// The scenario after the flags are applied (through `Overrides`, as the web form does).
fn resolve(a: &SimArgs) -> Result<(Scenario, String), UserError> {
    let preset = |name: &str| -> Result<(Scenario, String), UserError> {
        let p = presets::find(name).ok_or_else(|| {
            format!(
                "unknown preset {name:?}; accepted presets: {}",
                preset_list()
            )
        })?;
        Ok(((p.build)(), format!("(preset {name})")))
    };
    // The cluster settings of -f files beside --preset or --scenario, or alone; an import's
    // are in its scenario already (and in its summary).
    let mut from_files = restartscope_manifest::settings::ClusterSettings::default();
    let mut imported = restartscope_manifest::settings::ClusterSettings::default();
    let (sc, origin) = match (&a.preset, &a.scenario) {
        (Some(name), _) => {
            if !a.manifests.is_empty() {
                from_files = manifest::load_settings(
                    &a.manifests,
                    "--preset",
                    "give the workloads without --preset to run them",
                )?;
            }
            preset(name)?
        }
        (_, Some(path)) => {
            if !a.manifests.is_empty() {
                from_files = manifest::load_settings(
                    &a.manifests,
                    "--scenario",
                    "give the workloads without --scenario to run them",
                )?;
            }
            (files::load_scenario(path)?, path.clone())
        }
        _ => match manifest::load_any(&a.manifests, a.replicas_on_node)? {
            restartscope_manifest::Imported::Scenario(im) => {
                eprint!("{}", manifest::summary(&im));
                imported = im.settings;
                (im.scenario, a.manifests.join(", "))
            }
            restartscope_manifest::Imported::Settings(s) => {
                let name = manifest::SETTINGS_PRESET;
                eprintln!(
                    "restartscope: note: {} {} cluster settings and no workload: running preset {name} with them (--preset NAME or --scenario FILE for another; add the workloads' manifests to run those)",
                    a.manifests.join(", "),
                    if a.manifests.len() == 1 { "holds" } else { "hold" }
                );
                from_files = s.settings;
                preset(name)?
            }
        },
    };
    let mut sc = sc;
    from_files.apply(&mut sc.cluster);
    let files = manifest::cluster_settings(&a.settings)?;
    imported.extend(from_files.clone());
    eprint!("{}", manifest::disagreements(&imported, &files));
    files.apply(&mut sc.cluster);
    if a.downtime_s.is_some() && sc.kubelet.restarts.is_empty() {
        return Err(format!(
            "--downtime: scenario {origin} has no kubelet restart to change (kubelet.restarts is empty)"
        )
        .into());
    }
    let overrides = Overrides {
        downtime_s: a.downtime_s,
        grace_s: a.grace_s,
        version: a.version,
        seed: a.seed,
        policy: a.policy,
        pods: a.pods,
        probes: a.probes.clone(),
        restarts: (!a.restarts.is_empty()).then(|| a.restarts.clone()),
        upgrade_to: a.upgrade_to,
        ..Overrides::default()
    };
    let sc = overrides
        .apply(sc)
        .map_err(|e| knobs::invalid(&origin, &e))?;
    // What the settings files set, once the scenario is valid (an error stays one line).
    eprint!("{}", manifest::settings_summary(&from_files));
    eprint!("{}", manifest::settings_summary(&files));
    Ok((sc, origin))
}

/// The scenario and its runs (one per policy, or per `--kubelets` profile).
fn run(a: &SimArgs) -> Result<(Scenario, Vec<Trace>), UserError> {
    let (sc, _origin) = resolve(a)?;
    if let Some(profiles) = &a.kubelets {
        if a.policy.is_some() {
            return Err("give either --kubelets or --policy, not both".into());
        }
        let traces = restartscope_sim::simulate_profiles(&sc, profiles)
            .map_err(|e| knobs::invalid("", &e))?;
        return Ok((sc, traces));
    }
    // An in-place upgrade to 1.35 or later has a KEP lane.
    let v = sc.newest_kubelet();
    let policies: Vec<Policy> = match a.policy {
        Some(p) => vec![p],
        // A release before KEP-4781 (PR #134746, 1.35) has one kubelet: it runs alone.
        None if !v.has_kep_4781() => {
            // Said when the user chose the release (a preset of an old release says so itself).
            if a.version.is_some() {
                eprintln!(
                    "note: Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): running it alone",
                    v.as_str()
                );
            }
            vec![Policy::Legacy]
        }
        None => Policy::BOTH.to_vec(),
    };
    if !v.has_kep_4781() && policies.contains(&Policy::Kep) {
        return Err(format!(
            "Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): use --policy legacy, or --kubernetes-version 1.35 or later",
            v.as_str()
        )
        .into());
    }
    let traces: Vec<Trace> = policies
        .iter()
        .map(|p| simulate_policy(&sc, *p).map_err(|e| knobs::invalid("", &e)))
        .collect::<Result<_, _>>()?;
    Ok((sc, traces))
}

/// The output's bytes; an error (exit status 1) when a PNG or GIF cannot be drawn.
fn render(a: &SimArgs, sc: &Scenario, traces: &[Trace]) -> Result<Vec<u8>, String> {
    let text = match a.format {
        Format::Table => table::render(sc, traces),
        Format::Markdown => restartscope_report::markdown::render(sc, traces),
        Format::Json => json::render(sc, traces),
        Format::Mermaid => mermaid::render(sc, traces),
        Format::MermaidMd => mermaid::render_markdown(sc, traces),
        Format::Svg | Format::Raster(_) => {
            let first = sc.first_restart();
            let title = match first {
                Some(r) => {
                    let more = match sc.kubelet.restarts.len() {
                        0 | 1 => String::new(),
                        2 => " (+1 more restart)".to_string(),
                        n => format!(" (+{} more restarts)", n - 1),
                    };
                    format!(
                        "{}: {}{more} · grace {} · v{}",
                        sc.name,
                        restartscope_report::describe::restart_words(r),
                        fmt_secs(sc.cluster.grace_s()),
                        sc.cluster.version.as_str()
                    )
                }
                None => sc.name.clone(),
            };
            let opts = LayoutOpts {
                title: Some(title),
                ..LayoutOpts::default()
            };
            let fig = layout(traces, &opts);
            match (&a.raster, &a.animate) {
                (Some(r), _) if r.kind == raster::Kind::Png => return raster::png(&fig, r),
                (Some(r), _) => return raster::gif(&fig, traces, r),
                (None, Some(anim)) => fig.to_svg_animated(traces, anim),
                (None, None) => fig.to_svg(),
            }
        }
    };
    Ok(text.into_bytes())
}
