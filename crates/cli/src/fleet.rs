//! `restartscope fleet`: a rolling kubelet restart across a cluster, per kubelet profile —
//! totals, what KEP-4781 saves, and (JSON) the per-second series. Errors exit 2 with one message,
//! like `simulate`.

use super::UserError;
use restartscope_sim::fleet::edit::{self, Overrides};
use restartscope_sim::fleet::{self, Fleet, FleetRun};
use restartscope_sim::{fmt_secs, Policy};
use serde::Serialize;

pub struct FleetArgs {
    preset: Option<String>,
    scenario: Option<String>,
    /// The settings shared with the web fleet view (`fleet::edit`).
    set: Overrides,
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

/// `None` means help was asked for.
pub fn parse(args: &[String]) -> Result<Option<FleetArgs>, UserError> {
    let mut a = FleetArgs {
        preset: None,
        scenario: None,
        set: Overrides::default(),
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
            a.set.wait_ready = Some(true);
            continue;
        }
        let unknown = |flag: &str| {
            format!(
                "unknown option {flag:?} for fleet; accepted options: {}",
                FLAGS.join(", ")
            )
        };
        let (flag, value) = super::option(arg, args, &mut i, &FLAGS, &mut seen, unknown)?;
        match flag.as_str() {
            "--preset" => a.preset = Some(value),
            "--scenario" => a.scenario = Some(value),
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
            f => a.set.set(&f[2..], &value)?,
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
    let f = match (&a.preset, &a.scenario) {
        (Some(name), _) => fleet::preset(name).ok_or_else(|| {
            format!(
                "unknown fleet preset {name:?}; accepted presets: {}",
                fleet::PRESETS.join(", ")
            )
        })?,
        (_, Some(path)) => super::load::<Fleet>(path)?,
        _ => unreachable!("checked while parsing"),
    };
    let f = a.set.apply(f).map_err(|e| {
        let list: Vec<String> = e.iter().map(|e| e.message.clone()).collect();
        UserError(format!("invalid fleet: {}", list.join("; ")))
    })?;
    let v = f.cluster.version;
    if !v.has_kep_4781() && a.set.policy != Some(Policy::Legacy) {
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
    let runs = fleet::compare(&f, a.set.policy).map_err(|e| {
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
        "{} — {}\nKubernetes {} · {}, kubelet down {}, pause {}{} · {} · seed {}\n\n",
        f.name,
        f.description,
        f.cluster.version.as_str(),
        edit::shape(f),
        fmt_secs(f.rolling.downtime_s),
        fmt_secs(f.rolling.pause_s),
        if f.rolling.wait_ready {
            ", waiting for Ready"
        } else {
            ""
        },
        fmt_secs(f.horizon_s()),
        f.seed
    );
    s.push_str(&format!("{:<30}", "metric"));
    for r in runs {
        s.push_str(&format!("{:>18}", r.kubelet));
    }
    if runs.len() == 2 {
        s.push_str(&format!("{:>18}", "KEP saves"));
    }
    s.push('\n');
    for (name, get) in edit::ROWS {
        s.push_str(&format!("{name:<30}"));
        for r in runs {
            s.push_str(&format!("{:>18}", edit::fmt_total(get(&r.totals))));
        }
        if runs.len() == 2 {
            let (l, k) = (get(&runs[0].totals), get(&runs[1].totals));
            s.push_str(&format!("{:>18}", edit::saving(l, k)));
        }
        s.push('\n');
    }
    if runs.len() == 2 {
        let words = edit::saving_words(&runs[0].totals, &runs[1].totals);
        s.push_str(&format!("\nIn words: o{}\n", &words[1..]));
    }
    if let Some(w) = edit::rollout_words(f, runs) {
        s.push_str(&format!("\n{w}\n"));
    }
    s
}
