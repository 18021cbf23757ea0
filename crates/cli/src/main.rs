//! `restartscope`: run RestartScope presets and scenario files from the command line.
//!
//! Errors in what the user gave (flags, durations, presets, scenario files) exit with status 2
//! and one message on stderr; a failure to write the output exits with status 1.

use restartscope_figure::{layout, LayoutOpts};
use restartscope_report::{json, table};
mod files;
mod fleet;
mod knobs;
mod kubelets;
mod manifest;
mod tour;
use restartscope_sim::{
    fmt_secs, limits, parse_duration, presets, simulate_policy, FieldError, KubeVersion,
    KubeletProfile, Overrides, Policy, Scenario, Trace,
};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
restartscope — what a kubelet restart does to a node's pods (legacy kubelet vs KEP-4781)

Usage:
  restartscope presets
  restartscope versions
  restartscope simulate (--preset NAME | --scenario FILE | --manifest FILE…) [options]
  restartscope import --manifest FILE… [--replicas-on-node N] [--out FILE]
  restartscope fleet (--preset rolling-upgrade | --scenario FILE) [fleet options]
  restartscope tour [--name kep-4781] --out DIR   one SVG per tour step + index.md
  restartscope --help | --version

Options of simulate:
  --preset NAME         a built-in scenario (see `restartscope presets`)
  --scenario FILE       a scenario file, .toml or .json
  --manifest FILE       Kubernetes YAML or JSON (Pod, Deployment, StatefulSet, DaemonSet,
                        ReplicaSet, Job, CronJob; Service, PodDisruptionBudget); repeatable
  --replicas-on-node N  pods of each workload on this node (default: every replica)
  --policy P            legacy | kep | both (default both)
  --downtime DUR        downtime of the first kubelet restart, e.g. 45s, 6m30s, 1h; the run
                        is extended to show the kubelet's return and what follows
  --restart AT:DUR      one kubelet restart (stop at AT, down for DUR), e.g. 30s:20s;
                        repeatable: replaces the scenario's restarts (not with --downtime)
  --grace DUR           kube-controller-manager --node-monitor-grace-period
                        (cluster.node_monitor_grace_s)
  --version V           kubelet release: 1.31 | 1.34 | 1.35 | 1.35.4 | 1.36 | 1.37 | main
                        (cluster.version; see `restartscope versions`; before 1.35 only legacy)
  --kubelets LIST       any kubelets side by side: VERSION[:legacy|kep],… e.g. 1.34,1.35:kep
  --seed N              random seed (a non-negative integer)
  --pods N              pods on the node, 1-110 (the kubelet's default maxPods); more copy
                        the first pod as healthy replicas (web-3, web-4, ...)
  --probe C.KIND.FIELD=V  a probe field of container C in every pod, KIND startupProbe |
                        readinessProbe | livenessProbe, FIELD initialDelaySeconds |
                        periodSeconds | timeoutSeconds | successThreshold | failureThreshold |
                        execSeconds; C.KIND=on adds the probe (defaults), C.KIND=off removes
                        it; repeatable
  --format F            table | json | svg (default table)
  --out FILE            write to FILE instead of standard output
  -h, --help            this help

Options of fleet (a rolling kubelet restart across a cluster):
  --preset NAME | --scenario FILE   rolling-upgrade, or a fleet file (.toml/.json)
  --nodes N  --zones Z  --pods-per-node M  --services K  --batch B
  --downtime DUR  --pause DUR  --wait-ready  --version V  --policy P  --seed N
  --format table | json   --out FILE

`import` prints the scenario the manifests make as a TOML scenario file (for --scenario).

Exit status: 0 ok, 2 bad input (flag, duration, preset, scenario, manifest), 1 output not writable.
";

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
    Json,
    Svg,
}

struct SimArgs {
    preset: Option<String>,
    scenario: Option<String>,
    manifests: Vec<String>,
    replicas_on_node: Option<u32>,
    policy: Option<Policy>,
    downtime_s: Option<f64>,
    grace_s: Option<f64>,
    version: Option<KubeVersion>,
    seed: Option<u64>,
    pods: Option<usize>,
    probes: Vec<restartscope_sim::ProbeEdit>,
    /// `--restart AT:DOWNTIME`, repeatable: every kubelet restart.
    restarts: Vec<restartscope_sim::Restart>,
    /// `--kubelets`: any kubelet profiles side by side.
    kubelets: Option<Vec<KubeletProfile>>,
    format: Format,
    out: Option<String>,
}

enum Command {
    Help,
    Version,
    Presets,
    Versions,
    Simulate(Box<SimArgs>),
    Fleet(Box<fleet::FleetArgs>),
    Import(manifest::ImportArgs),
    Tour(tour::TourArgs),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cmd = match parse_args(&args) {
        Ok(c) => c,
        Err(UserError(m)) => return fail(&m),
    };
    let (text, out) = match cmd {
        Command::Help => (USAGE.to_string(), None),
        Command::Version => (
            format!("restartscope {}\n", env!("CARGO_PKG_VERSION")),
            None,
        ),
        Command::Presets => (presets_text(), None),
        Command::Versions => (versions_text(), None),
        Command::Fleet(a) => match fleet::run(&a) {
            Ok(t) => (t, a.out.clone()),
            Err(UserError(m)) => return fail(&m),
        },
        Command::Import(a) => match manifest::run_import(&a) {
            Ok(t) => (t, a.out),
            Err(UserError(m)) => return fail(&m),
        },
        Command::Tour(a) => return tour::run(&a),
        Command::Simulate(a) => match run(&a) {
            Ok(t) => (t, a.out.clone()),
            Err(UserError(m)) => return fail(&m),
        },
    };
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("restartscope: error: cannot write {path}: {e}");
                return ExitCode::from(1);
            }
        }
        None => {
            let mut so = std::io::stdout().lock();
            if let Err(e) = so.write_all(text.as_bytes()).and_then(|_| so.flush()) {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("restartscope: error: cannot write to standard output: {e}");
                    return ExitCode::from(1);
                }
            }
        }
    }
    ExitCode::SUCCESS
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

fn parse_args(args: &[String]) -> Result<Command, UserError> {
    let Some(first) = args.first() else {
        return Err(
            "no command given; use `restartscope presets`, `restartscope simulate --preset NAME` or `restartscope --help`".into(),
        );
    };
    match first.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "-V" | "--version" => Ok(Command::Version),
        "presets" => match args.get(1).map(String::as_str) {
            None => Ok(Command::Presets),
            Some("-h" | "--help") => Ok(Command::Help),
            Some(x) => Err(format!("`presets` takes no arguments, got {x:?}").into()),
        },
        "versions" => match args.get(1).map(String::as_str) {
            None => Ok(Command::Versions),
            Some("-h" | "--help") => Ok(Command::Help),
            Some(x) => Err(format!("`versions` takes no arguments, got {x:?}").into()),
        },
        "simulate" => parse_simulate(&args[1..]),
        "tour" => Ok(tour::parse(&args[1..])?.map_or(Command::Help, Command::Tour)),
        "import" => Ok(manifest::parse_import(&args[1..])?.map_or(Command::Help, Command::Import)),
        "fleet" => fleet::parse(&args[1..]).map(|a| match a {
            Some(a) => Command::Fleet(Box::new(a)),
            None => Command::Help,
        }),
        other if other.starts_with('-') => Err(format!(
            "unknown option {other:?} before the command; accepted commands: presets, versions, simulate, fleet, import, tour (or --help, --version)"
        )
        .into()),
        other => Err(format!(
            "unknown command {other:?}; accepted commands: presets, versions, simulate, fleet, import, tour (or --help, --version)"
        )
        .into()),
    }
}

const FLAGS: &str = "--preset, --scenario, --manifest, --replicas-on-node, --policy, --kubelets, --downtime, --grace, --version, --seed, --pods, --probe, --restart, --format, --out, --help";

fn parse_simulate(args: &[String]) -> Result<Command, UserError> {
    let mut a = SimArgs {
        kubelets: None,
        preset: None,
        scenario: None,
        manifests: Vec::new(),
        replicas_on_node: None,
        policy: None,
        downtime_s: None,
        grace_s: None,
        version: None,
        seed: None,
        pods: None,
        probes: Vec::new(),
        restarts: Vec::new(),
        format: Format::Table,
        out: None,
    };
    let mut seen: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help);
        }
        if !arg.starts_with("--") {
            return Err(format!(
                "unexpected argument {arg:?}; simulate takes only options: {FLAGS}"
            )
            .into());
        }
        const KNOWN: [&str; 15] = [
            "--restart",
            "--pods",
            "--probe",
            "--kubelets",
            "--preset",
            "--scenario",
            "--manifest",
            "--replicas-on-node",
            "--policy",
            "--downtime",
            "--grace",
            "--version",
            "--seed",
            "--format",
            "--out",
        ];
        let unknown = |flag: &str| format!("unknown option {flag:?}; accepted options: {FLAGS}");
        let (flag, value) = option(arg, args, &mut i, &KNOWN, &mut seen, unknown)?;
        seen.retain(|f| f != "--probe" && f != "--restart"); // repeatable
        match flag.as_str() {
            "--pods" => a.pods = Some(knobs::pods(&value)?),
            "--probe" => a.probes.push(knobs::probe(&value)?),
            "--restart" => a.restarts.push(knobs::restart(&value)?),
            "--preset" => a.preset = Some(value),
            "--scenario" => a.scenario = Some(value),
            "--manifest" => {
                seen.retain(|f| f != "--manifest");
                a.manifests.push(value);
            }
            "--replicas-on-node" => a.replicas_on_node = Some(manifest::parse_replicas(&value)?),
            "--kubelets" => a.kubelets = Some(kubelets::parse_kubelets(&value)?),
            "--policy" => a.policy = parse_policy(&value)?,
            "--downtime" => {
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
            "--grace" => {
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
            "--version" => a.version = Some(parse_version(&value)?),
            "--seed" => {
                a.seed = Some(value.parse::<u64>().map_err(|_| {
                    format!(
                        "invalid --seed {value:?}; use a non-negative integer up to {}",
                        u64::MAX
                    )
                })?)
            }
            "--format" => {
                a.format = match value.as_str() {
                    "table" => Format::Table,
                    "json" => Format::Json,
                    "svg" => Format::Svg,
                    _ => {
                        return Err(format!(
                            "invalid --format {value:?}; accepted values: table, json, svg"
                        )
                        .into())
                    }
                }
            }
            "--out" => {
                if value.is_empty() {
                    return Err("option --out needs a file name".into());
                }
                a.out = Some(value)
            }
            _ => unreachable!("flag checked above"),
        }
    }
    match (&a.preset, &a.scenario, a.manifests.is_empty()) {
        (None, None, true) => {
            return Err(format!(
                "simulate needs --preset NAME or --scenario FILE (or --manifest FILE, Kubernetes YAML); presets: {}",
                preset_list()
            )
            .into())
        }
        (Some(_), Some(_), true) => {
            return Err("give either --preset or --scenario, not both".into())
        }
        (Some(_), _, false) | (_, Some(_), false) => {
            return Err("give one of --preset, --scenario and --manifest, not several".into())
        }
        _ => {}
    }
    if a.replicas_on_node.is_some() && a.manifests.is_empty() {
        return Err("--replicas-on-node goes with --manifest".into());
    }
    Ok(Command::Simulate(Box::new(a)))
}

/// One `--flag value` or `--flag=value` from `args` (at `arg`, `i` past it): known, given once,
/// with a value. Shared by `simulate` and `fleet`.
fn option(
    arg: &str,
    args: &[String],
    i: &mut usize,
    known: &[&str],
    seen: &mut Vec<String>,
    unknown: impl Fn(&str) -> String,
) -> Result<(String, String), UserError> {
    let (flag, inline) = match arg.split_once('=') {
        Some((f, v)) => (f.to_string(), Some(v.to_string())),
        None => (arg.to_string(), None),
    };
    if !known.contains(&flag.as_str()) {
        return Err(unknown(&flag).into());
    }
    if seen.contains(&flag) {
        return Err(format!("option {flag} given more than once").into());
    }
    seen.push(flag.clone());
    let value = match inline {
        Some(v) => v,
        None => {
            let v = args
                .get(*i)
                .ok_or_else(|| format!("option {flag} needs a value"))?;
            *i += 1;
            v.clone()
        }
    };
    Ok((flag, value))
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

/// `--version`: a kubelet release the model has a profile for.
fn parse_version(value: &str) -> Result<KubeVersion, UserError> {
    KubeVersion::parse_or_explain(value)
        .map_err(|e| format!("invalid --version {value:?}: {e}").into())
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

fn invalid(origin: &str, errs: &[FieldError]) -> UserError {
    let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    UserError(format!("invalid scenario {origin}: {}", list.join("; ")))
}

/// The scenario after the flags are applied (through `Overrides`, as the web form does).
fn resolve(a: &SimArgs) -> Result<(Scenario, String), UserError> {
    let (sc, origin) = match (&a.preset, &a.scenario) {
        (Some(name), _) => {
            let p = presets::find(name).ok_or_else(|| {
                format!(
                    "unknown preset {name:?}; accepted presets: {}",
                    preset_list()
                )
            })?;
            ((p.build)(), format!("(preset {name})"))
        }
        (_, Some(path)) => (files::load_scenario(path)?, path.clone()),
        _ => {
            let im = manifest::load(&a.manifests, a.replicas_on_node)?;
            eprint!("{}", manifest::summary(&im));
            (im.scenario, a.manifests.join(", "))
        }
    };
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
        ..Overrides::default()
    };
    let sc = overrides.apply(sc).map_err(|e| invalid(&origin, &e))?;
    Ok((sc, origin))
}

fn run(a: &SimArgs) -> Result<String, UserError> {
    let (sc, _origin) = resolve(a)?;
    if let Some(profiles) = &a.kubelets {
        if a.policy.is_some() {
            return Err("give either --kubelets or --policy, not both".into());
        }
        let traces =
            restartscope_sim::simulate_profiles(&sc, profiles).map_err(|e| invalid("", &e))?;
        return Ok(render(a, &sc, &traces));
    }
    let policies: Vec<Policy> = match a.policy {
        Some(p) => vec![p],
        None => Policy::BOTH.to_vec(),
    };
    let v = sc.cluster.version;
    if !v.has_kep_4781() && policies.contains(&Policy::Kep) {
        return Err(format!(
            "Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): use --policy legacy, or --version 1.35 or later",
            v.as_str()
        )
        .into());
    }
    let traces: Vec<Trace> = policies
        .iter()
        .map(|p| simulate_policy(&sc, *p).map_err(|e| invalid("", &e)))
        .collect::<Result<_, _>>()?;
    Ok(render(a, &sc, &traces))
}

fn render(a: &SimArgs, sc: &Scenario, traces: &[Trace]) -> String {
    match a.format {
        Format::Table => table::render(sc, traces),
        Format::Json => json::render(sc, traces),
        Format::Svg => {
            let first = sc.first_restart();
            let title = match first {
                Some(r) => {
                    let more = match sc.kubelet.restarts.len() {
                        0 | 1 => String::new(),
                        2 => " (+1 more restart)".to_string(),
                        n => format!(" (+{} more restarts)", n - 1),
                    };
                    format!(
                        "{}: kubelet down {} at {}{more} · grace {} · v{}",
                        sc.name,
                        fmt_secs(r.downtime_s),
                        fmt_secs(r.at_s),
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
            layout(traces, &opts).to_svg()
        }
    }
}
