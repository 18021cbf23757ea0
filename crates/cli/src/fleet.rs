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
    /// `--kubelet-config`, `--controller-manager`.
    settings: crate::args::SettingsOpts,
    /// `-f`: cluster settings files.
    manifests: Vec<String>,
    format: Format,
    pub out: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Table,
    Markdown,
    Json,
}

/// `fleet`'s options, checked; the settings go through `fleet::edit` (the web view's rules).
pub fn args(o: crate::args::FleetOpts) -> Result<FleetArgs, UserError> {
    let mut a = FleetArgs {
        preset: o.preset,
        scenario: o.scenario,
        set: Overrides::default(),
        settings: o.settings,
        manifests: o.manifests,
        format: Format::Table,
        out: super::out_path(o.out)?,
    };
    if o.wait_ready {
        a.set.wait_ready = Some(true);
    }
    if let Some(v) = &o.kubernetes_version {
        super::parse_version(v)?;
    }
    for (key, value) in [
        ("nodes", o.nodes),
        ("zones", o.zones),
        ("pods-per-node", o.pods_per_node),
        ("services", o.services),
        ("batch", o.batch),
        ("downtime", o.downtime),
        ("pause", o.pause),
        ("version", o.kubernetes_version),
        ("upgrade-to", o.upgrade_to),
        ("policy", o.policy),
        ("seed", o.seed),
    ] {
        if let Some(v) = value {
            a.set.set(key, &v)?;
        }
    }
    if let Some(value) = o.format {
        a.format = match value.as_str() {
            "table" => Format::Table,
            "markdown" => Format::Markdown,
            "json" => Format::Json,
            _ => {
                return Err(format!(
                    "invalid --format {value:?}; accepted values: table, markdown, json"
                )
                .into())
            }
        }
    }
    match (&a.preset, &a.scenario) {
        (None, None) if !a.manifests.is_empty() => {
            let name = crate::manifest::SETTINGS_FLEET_PRESET;
            eprintln!(
                "restartscope: note: fleet -f without --preset or --scenario: running fleet preset {name} with the settings of {}",
                a.manifests.join(", ")
            );
            a.preset = Some(name.to_string());
            Ok(a)
        }
        (None, None) => Err(format!(
            "fleet needs --preset NAME or --scenario FILE; presets: {}",
            fleet::PRESETS.join(", ")
        )
        .into()),
        (Some(_), Some(_)) => Err("give either --preset or --scenario, not both".into()),
        _ => Ok(a),
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
    let mut f = f;
    let from_files = if a.manifests.is_empty() {
        restartscope_manifest::settings::ClusterSettings::default()
    } else {
        crate::manifest::load_settings(
            &a.manifests,
            "fleet",
            "fleet runs its own pods (--pods-per-node, --services)",
        )?
    };
    from_files.apply(&mut f.cluster);
    let files = crate::manifest::cluster_settings(&a.settings)?;
    eprint!("{}", crate::manifest::disagreements(&from_files, &files));
    files.apply(&mut f.cluster);
    let f = a.set.apply(f).map_err(|e| {
        let list: Vec<String> = e.iter().map(|e| e.message.clone()).collect();
        UserError(format!("invalid fleet: {}", list.join("; ")))
    })?;
    // An upgrade to 1.35 or later has a KEP lane.
    let v = f
        .rolling
        .upgrade_to
        .map_or(f.cluster.version, |u| u.max(f.cluster.version));
    if !v.has_kep_4781() && a.set.policy.is_none() && a.set.version.is_some() {
        // The release's one kubelet runs alone (`fleet::profiles` with no policy).
        eprintln!(
            "note: Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): running it alone",
            v.as_str()
        );
    }
    if !v.has_kep_4781() && a.set.policy == Some(Policy::Kep) {
        return Err(format!(
            "Kubernetes {} has only the legacy kubelet (KEP-4781 arrived in 1.35): use --policy legacy, or --kubernetes-version 1.35 or later",
            v.as_str()
        )
        .into());
    }
    // What the settings files set, once the fleet is valid (an error stays one line).
    eprint!("{}", crate::manifest::settings_summary(&from_files));
    eprint!("{}", crate::manifest::settings_summary(&files));
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
    if a.format == Format::Json {
        let mut s = serde_json::to_string_pretty(&Doc {
            fleet: &f,
            runs: &runs,
        })
        .expect("plain data serializes");
        s.push('\n');
        return Ok(s);
    }
    if a.format == Format::Markdown {
        return Ok(markdown(&f, &runs));
    }
    Ok(table(&f, &runs))
}

/// `--format markdown`: the header as a paragraph and the totals as a GitHub table.
fn markdown(f: &Fleet, runs: &[FleetRun]) -> String {
    let text = table(f, runs);
    let mut lines = text.lines();
    let mut s = format!(
        "**{}**\n\n{}\n\n",
        lines.next().unwrap_or(""),
        lines.next().unwrap_or("")
    );
    s.push_str("| metric |");
    for r in runs {
        s.push_str(&format!(" {} |", r.kubelet));
    }
    if runs.len() == 2 {
        s.push_str(" KEP saves |");
    }
    s.push_str("\n|---|");
    let cols = runs.len() + usize::from(runs.len() == 2);
    s.push_str(&"---:|".repeat(cols));
    s.push('\n');
    for (name, get) in edit::ROWS {
        s.push_str(&format!("| {name} |"));
        for r in runs {
            s.push_str(&format!(" {} |", edit::fmt_total(get(&r.totals))));
        }
        if runs.len() == 2 {
            let (l, k) = (get(&runs[0].totals), get(&runs[1].totals));
            s.push_str(&format!(" {} |", edit::saving(l, k)));
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
    let up = edit::upgrade_words(f);
    if !up.is_empty() {
        s.push_str(&format!("\n{up}\n"));
    }
    s
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
    // Each column as wide as its longest label ("1.34 → 1.35 · legacy (opt-in gate)"), at least 18.
    let w = (runs.iter().map(|r| r.kubelet.chars().count() + 2)).fold(18, usize::max);
    s.push_str(&format!("{:<30}", "metric"));
    for r in runs {
        s.push_str(&format!("{:>w$}", r.kubelet));
    }
    if runs.len() == 2 {
        s.push_str(&format!("{:>18}", "KEP saves"));
    }
    s.push('\n');
    for (name, get) in edit::ROWS {
        s.push_str(&format!("{name:<30}"));
        for r in runs {
            s.push_str(&format!("{:>w$}", edit::fmt_total(get(&r.totals))));
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
    let up = edit::upgrade_words(f);
    if !up.is_empty() {
        s.push_str(&format!("\n{up}\n"));
    }
    s
}
