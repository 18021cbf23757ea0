//! `restartscope fleet`: a rolling kubelet restart across a cluster, per kubelet profile —
//! totals, what KEP-4781 saves, and (JSON) the per-second series. Errors exit 2 with one message,
//! like `simulate`.

use super::UserError;
use restartscope_sim::fleet::{self, Fleet, FleetRun};
use restartscope_sim::{fmt_secs, parse_duration, KubeVersion, Policy};
use serde::Serialize;

pub struct FleetArgs {
    preset: Option<String>,
    scenario: Option<String>,
    nodes: Option<u32>,
    zones: Option<u32>,
    pods_per_node: Option<u32>,
    services: Option<u32>,
    batch: Option<u32>,
    downtime_s: Option<f64>,
    pause_s: Option<f64>,
    version: Option<KubeVersion>,
    policy: Option<Policy>,
    seed: Option<u64>,
    wait_ready: bool,
    json: bool,
    pub out: Option<String>,
}

const FLAGS: [&str; 16] = [
    "--wait-ready",
    "--preset",
    "--scenario",
    "--nodes",
    "--zones",
    "--pods-per-node",
    "--services",
    "--batch",
    "--downtime",
    "--pause",
    "--version",
    "--policy",
    "--seed",
    "--format",
    "--out",
    "--help",
];

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, UserError> {
    v.parse::<T>()
        .map_err(|_| format!("invalid {flag} {v:?}; use a non-negative whole number").into())
}

/// `None` means help was asked for.
pub fn parse(args: &[String]) -> Result<Option<FleetArgs>, UserError> {
    let mut a = FleetArgs {
        preset: None,
        scenario: None,
        nodes: None,
        zones: None,
        pods_per_node: None,
        services: None,
        batch: None,
        downtime_s: None,
        pause_s: None,
        version: None,
        policy: None,
        seed: None,
        wait_ready: false,
        json: false,
        out: None,
    };
    let mut seen: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        if arg == "--wait-ready" {
            a.wait_ready = true;
            continue;
        }
        let unknown = |flag: &str| {
            format!(
                "unknown option {flag:?} for fleet; accepted options: {}",
                FLAGS.join(", ")
            )
        };
        let (flag, value) = super::option(arg, args, &mut i, &FLAGS, &mut seen, unknown)?;
        let secs = |v: &str| parse_duration(v).map_err(|e| UserError(format!("{flag}: {e}")));
        match flag.as_str() {
            "--preset" => a.preset = Some(value),
            "--scenario" => a.scenario = Some(value),
            "--nodes" => a.nodes = Some(number(&flag, &value)?),
            "--zones" => a.zones = Some(number(&flag, &value)?),
            "--pods-per-node" => a.pods_per_node = Some(number(&flag, &value)?),
            "--services" => a.services = Some(number(&flag, &value)?),
            "--batch" => a.batch = Some(number(&flag, &value)?),
            "--seed" => a.seed = Some(number(&flag, &value)?),
            "--downtime" => a.downtime_s = Some(secs(&value)?),
            "--pause" => a.pause_s = Some(secs(&value)?),
            "--version" => a.version = Some(super::parse_version(&value)?),
            "--policy" => a.policy = super::parse_policy(&value)?,
            "--format" => {
                a.json = match value.as_str() {
                    "table" => false,
                    "json" => true,
                    _ => {
                        return Err(format!(
                            "invalid --format {value:?}; accepted values: table, json"
                        )
                        .into())
                    }
                }
            }
            "--out" => a.out = Some(value),
            _ => unreachable!("flag checked above"),
        }
    }
    match (&a.preset, &a.scenario) {
        (None, None) => Err(format!(
            "fleet needs --preset NAME or --scenario FILE; presets: {}",
            fleet::PRESETS.join(", ")
        )
        .into()),
        (Some(_), Some(_)) => Err("give either --preset or --scenario, not both".into()),
        _ => Ok(Some(a)),
    }
}

fn resolve(a: &FleetArgs) -> Result<Fleet, UserError> {
    let mut f = match (&a.preset, &a.scenario) {
        (Some(name), _) => fleet::preset(name).ok_or_else(|| {
            format!(
                "unknown fleet preset {name:?}; accepted presets: {}",
                fleet::PRESETS.join(", ")
            )
        })?,
        (_, Some(path)) => super::load::<Fleet>(path)?,
        _ => unreachable!("checked while parsing"),
    };
    if let Some(v) = a.nodes {
        f.nodes = v;
        f.sample_nodes = f.sample_nodes.min(v);
    }
    if let Some(v) = a.zones {
        f.zones = v;
    }
    if let Some(v) = a.pods_per_node {
        f.pods_per_node = v;
    }
    if let Some(v) = a.services {
        f.services = v;
    }
    if let Some(v) = a.batch {
        f.rolling.batch = v;
    }
    if let Some(v) = a.downtime_s {
        f.rolling.downtime_s = v;
    }
    if let Some(v) = a.pause_s {
        f.rolling.pause_s = v;
    }
    if let Some(v) = a.version {
        f.cluster.version = v;
    }
    if let Some(v) = a.seed {
        f.seed = v;
    }
    if a.wait_ready {
        f.rolling.wait_ready = true;
    }
    f.validate().map_err(|e| {
        let list: Vec<String> = e.iter().map(|e| e.message.clone()).collect();
        UserError(format!("invalid fleet: {}", list.join("; ")))
    })?;
    let v = f.cluster.version;
    if !v.has_kep_4781() && a.policy != Some(Policy::Legacy) {
        return Err(format!(
            "Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): use --policy legacy, or --version 1.35 or later",
            v.as_str()
        )
        .into());
    }
    Ok(f)
}

#[derive(Serialize)]
struct Doc<'a> {
    fleet: &'a Fleet,
    runs: &'a [FleetRun],
}

pub fn run(a: &FleetArgs) -> Result<String, UserError> {
    let f = resolve(a)?;
    let runs = fleet::compare(&f, a.policy).map_err(|e| {
        let list: Vec<String> = e.iter().map(|e| e.message.clone()).collect();
        UserError(format!("invalid fleet: {}", list.join("; ")))
    })?;
    if a.json {
        let mut s = serde_json::to_string_pretty(&Doc {
            fleet: &f,
            runs: &runs,
        })
        .expect("plain data serializes");
        s.push('\n');
        return Ok(s);
    }
    Ok(table(&f, &runs))
}

fn table(f: &Fleet, runs: &[FleetRun]) -> String {
    let mut s = format!(
        "{} — {}\nKubernetes {} · {} nodes in {} zones × {} pods ({} Services{}) · batches of {} nodes, kubelet down {}, pause {} · {} · seed {}\n\n",
        f.name,
        f.description,
        f.cluster.version.as_str(),
        f.nodes,
        f.zones,
        f.pods_per_node,
        f.services,
        if f.daemonset { ", a DaemonSet pod per node" } else { "" },
        f.rolling.batch,
        fmt_secs(f.rolling.downtime_s),
        fmt_secs(f.rolling.pause_s),
        fmt_secs(f.horizon_s()),
        f.seed
    );
    type Row = (&'static str, fn(&fleet::Totals) -> f64);
    let rows: [Row; 8] = [
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
    s.push_str(&format!("{:<30}", "metric"));
    for r in runs {
        s.push_str(&format!("{:>18}", r.kubelet));
    }
    if runs.len() == 2 {
        s.push_str(&format!("{:>18}", "KEP saves"));
    }
    s.push('\n');
    for (name, get) in rows {
        s.push_str(&format!("{name:<30}"));
        for r in runs {
            s.push_str(&format!("{:>18}", fmt(get(&r.totals))));
        }
        if runs.len() == 2 {
            let (l, k) = (get(&runs[0].totals), get(&runs[1].totals));
            let saved = if l > 0.0 {
                format!("{} ({:.0} %)", fmt(l - k), (l - k) / l * 100.0)
            } else {
                "-".into()
            };
            s.push_str(&format!("{saved:>18}"));
        }
        s.push('\n');
    }
    if runs.len() == 2 {
        let (l, k) = (&runs[0].totals, &runs[1].totals);
        s.push_str(&format!(
            "\nIn words: over this rolling restart KEP-4781 avoids {} Pod Ready transitions, {} pod status writes and {} EndpointSlice updates — {} watch events delivered to the nodes' kube-proxies.\n",
            l.ready_transitions.saturating_sub(k.ready_transitions),
            (l.kubelet_status_writes + l.nlc_status_writes)
                .saturating_sub(k.kubelet_status_writes + k.nlc_status_writes),
            l.endpointslice_updates.saturating_sub(k.endpointslice_updates),
            l.watch_events.saturating_sub(k.watch_events)
        ));
    }
    s
}

fn fmt(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}
