//! The command line as clap (derive) reads it: every subcommand, its options and its help. Values
//! are read as text here and checked by the subcommand's own code (`main.rs`, `fleet.rs`, …), so
//! a bad value gets the same message as before clap; clap's own usage errors (unknown option,
//! missing value, an option given twice, a typo) are put on one line by [`one_line`].

use clap::{Args, Parser, Subcommand};

const ABOUT: &str =
    "What a kubelet restart does to a node's pods: the legacy kubelet against KEP-4781";

const EXAMPLES: &str = "\
Examples:
  restartscope presets
  restartscope simulate --preset long-restart
  restartscope simulate -f web.yaml --downtime 90s -o markdown
  kubectl get deploy web -o yaml | restartscope simulate -f -
  restartscope fleet --preset rolling-upgrade --nodes 1000 --batch 50
  restartscope completions bash > /etc/bash_completion.d/restartscope

Exit status: 0 ok, 2 bad input (option, value, preset, scenario, manifest), 1 output not writable.";

#[derive(Parser, Debug)]
#[command(
    name = "restartscope",
    version,
    about = ABOUT,
    propagate_version = true,
    subcommand_required = true,
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// List the built-in scenarios and what each teaches
    Presets,
    /// List the kubelet profiles (releases), what differs and the source
    Versions,
    /// Run a scenario under the legacy and the KEP-4781 kubelet: table, markdown, JSON or SVG
    Simulate(SimOpts),
    /// A rolling kubelet restart across a cluster: totals per kubelet and what KEP-4781 saves
    Fleet(FleetOpts),
    /// Print the scenario Kubernetes manifests make, as a TOML scenario file (for --scenario)
    Import(ImportOpts),
    /// Write a guided tour: one SVG per step and index.md
    Tour(TourOpts),
    /// Evidence beside the model: kubectl -w transcripts, events, audit and kubelet logs in,
    /// "is this a known bug?" out
    Replay(ReplayOpts),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Cluster settings read from files (`simulate`, `fleet`, `import`).
#[derive(Args, Debug, Default, Clone)]
pub struct SettingsOpts {
    /// A KubeletConfiguration (YAML or JSON; or OpenShift's KubeletConfig): sets nodeLeaseDurationSeconds
    /// (cluster.lease_duration_s); says which of its settings the model does not have
    #[arg(long, value_name = "FILE", help_heading = "Cluster settings")]
    pub kubelet_config: Option<String>,
    /// kube-controller-manager's static-pod manifest, a kubeadm ClusterConfiguration, or a file
    /// of its flags
    /// (--node-monitor-grace-period=50s …): sets --node-monitor-grace-period and
    /// --node-monitor-period
    #[arg(long, value_name = "FILE", help_heading = "Cluster settings")]
    pub controller_manager: Option<String>,
}

#[derive(Args, Debug)]
pub struct SimOpts {
    /// A built-in scenario (see `restartscope presets`)
    #[arg(long, value_name = "NAME", help_heading = "Input (one of)")]
    pub preset: Option<String>,
    /// A scenario file, .toml or .json
    #[arg(long, value_name = "FILE", help_heading = "Input (one of)")]
    pub scenario: Option<String>,
    /// Kubernetes YAML or JSON: a file, a directory (its .yaml/.yml/.json, recursively) or - for
    /// standard input; multi-document streams and kind: List; workloads and cluster settings
    /// (KubeletConfiguration, kubeadm's configuration, control-plane static pods) in any mix,
    /// settings alone run short-restart; beside --preset or --scenario, settings only; repeatable
    #[arg(
        short = 'f',
        long = "manifest",
        value_name = "FILE|DIR|-",
        help_heading = "Input (one of)"
    )]
    pub manifests: Vec<String>,
    /// With --manifest: pods of each workload on this node (default: every replica)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub replicas_on_node: Option<String>,
    #[command(flatten)]
    pub settings: SettingsOpts,
    /// legacy | kep | both [default: both]
    #[arg(long, value_name = "P", help_heading = "Scenario")]
    pub policy: Option<String>,
    /// Downtime of the first kubelet restart (45s, 6m30s, 1h, 500ms); the run is extended to
    /// show the kubelet's return and what follows
    #[arg(
        long,
        value_name = "DUR",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub downtime: Option<String>,
    /// One restart, stop at AT, down for DUR, of the kubelet (default), the container runtime
    /// or the whole node (30s:20s, 30s:90s:runtime, 1m:2m:node); repeatable: replaces the
    /// scenario's restarts (not with --downtime)
    #[arg(
        long = "restart",
        value_name = "AT:DUR[:WHAT]",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub restarts: Vec<String>,
    /// kube-controller-manager --node-monitor-grace-period (cluster.node_monitor_grace_s)
    #[arg(
        long,
        value_name = "DUR",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub grace: Option<String>,
    /// The kubelet release the first kubelet or node restart starts: an in-place upgrade
    /// (1.31 from 1.30 restarts every container; later hops keep them)
    #[arg(long, value_name = "V", help_heading = "Scenario")]
    pub upgrade_to: Option<String>,
    /// Kubelet release: any release from 1.30 to 1.38 with its patch (1.36.4, v1.35.9) or main
    /// (cluster.version; see `restartscope versions`; before 1.35 only --policy legacy)
    #[arg(long, value_name = "V", help_heading = "Scenario")]
    pub kubernetes_version: Option<String>,
    /// Any kubelets side by side: VERSION[:legacy|kep],… e.g. 1.34,1.35:kep (not with --policy)
    #[arg(long, value_name = "LIST", help_heading = "Scenario")]
    pub kubelets: Option<String>,
    /// Random seed (a non-negative integer)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub seed: Option<String>,
    /// Pods on the node, 1-110; more copy the first pod as healthy replicas
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub pods: Option<String>,
    /// A probe field of container C in every pod, or with W/ in workload W's pods only:
    /// [W/]C.KIND.FIELD=V (KIND startupProbe | readinessProbe | livenessProbe; FIELD
    /// initialDelaySeconds | periodSeconds | timeoutSeconds | successThreshold |
    /// failureThreshold | execSeconds) or [W/]C.KIND=on|off; repeatable
    #[arg(
        long = "probe",
        value_name = "[W/]C.KIND.FIELD=V",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub probes: Vec<String>,
    /// table | markdown | json | svg | mermaid | mermaid-md | png | gif [default: table];
    /// mermaid is Mermaid itself (one diagram per run; with --out and two runs, one file per
    /// run), mermaid-md the Markdown to paste (headings, fenced diagrams, the rules cited); png
    /// and gif are binary: give --out FILE or redirect standard output
    #[arg(short = 'o', long, value_name = "F", help_heading = "Output")]
    pub format: Option<String>,
    #[command(flatten)]
    pub anim: AnimOpts,
    #[command(flatten)]
    pub raster: RasterOpts,
    /// Write to FILE instead of standard output
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub out: Option<String>,
}

/// `--animate [--duration DUR]`: the SVG played by CSS keyframes (`simulate --format svg`,
/// `tour`).
#[derive(Args, Debug, Default, Clone)]
pub struct AnimOpts {
    /// With --format svg: an animated SVG (CSS only, plays inside <img>): a playhead sweeps the
    /// time axis, the counters count up, it loops after a 2 s pause
    #[arg(long, help_heading = "Output")]
    pub animate: bool,
    /// With --animate (or --format gif): how long the sweep lasts, 5s-120s [default: 20s]
    #[arg(
        long,
        value_name = "DUR",
        allow_hyphen_values = true,
        help_heading = "Output"
    )]
    pub duration: Option<String>,
}

/// `--format png|gif`'s options (`simulate`).
#[derive(Args, Debug, Default, Clone)]
pub struct RasterOpts {
    /// With --format gif: frames per second, 1-25 [default: 10]; the sweep lasts --duration
    /// (5s-120s) [default: 20s], then the last frame holds 2 s
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Output"
    )]
    pub fps: Option<String>,
    /// With --format png|gif: pixels per figure px, 0.5-4 [default: 2 for png, 1 for gif]
    #[arg(
        long,
        value_name = "X",
        allow_hyphen_values = true,
        help_heading = "Output"
    )]
    pub scale: Option<String>,
    /// With --format png|gif: light | dark [default: light] (an image cannot follow the
    /// reader's colour scheme as the SVG does)
    #[arg(long, value_name = "T", help_heading = "Output")]
    pub theme: Option<String>,
}

#[derive(Args, Debug)]
pub struct FleetOpts {
    /// The fleet preset: rolling-upgrade
    #[arg(long, value_name = "NAME", help_heading = "Input (one of)")]
    pub preset: Option<String>,
    /// A fleet file (.toml or .json)
    #[arg(long, value_name = "FILE", help_heading = "Input (one of)")]
    pub scenario: Option<String>,
    /// The cluster's settings as Kubernetes keeps them (KubeletConfiguration, kubeadm's
    /// configuration or kubeadm-config ConfigMap, control-plane static pods, OpenShift's
    /// KubeletConfig): a file, a directory or -; repeatable. Alone: the rolling-upgrade preset
    #[arg(
        short = 'f',
        long = "manifest",
        value_name = "FILE|DIR|-",
        help_heading = "Cluster settings"
    )]
    pub manifests: Vec<String>,
    #[command(flatten)]
    pub settings: SettingsOpts,
    /// Nodes, 1-5000
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub nodes: Option<String>,
    /// Zones, 1-100 (at most the nodes)
    #[arg(
        long,
        value_name = "Z",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub zones: Option<String>,
    /// Pods per node, 1-110
    #[arg(
        long,
        value_name = "M",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub pods_per_node: Option<String>,
    /// Services, 0-1000
    #[arg(
        long,
        value_name = "K",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub services: Option<String>,
    /// Nodes restarted together, 1-nodes
    #[arg(
        long,
        value_name = "B",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub batch: Option<String>,
    /// Kubelet downtime per batch (30s, 1m30s, 500ms)
    #[arg(
        long,
        value_name = "DUR",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub downtime: Option<String>,
    /// Pause between batches
    #[arg(
        long,
        value_name = "DUR",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub pause: Option<String>,
    /// Start the next batch only when every pod of the previous one is synced and Ready
    #[arg(long, help_heading = "Scenario")]
    pub wait_ready: bool,
    /// Kubelet release: 1.30 to 1.38 with its patch (1.36.4) or main (cluster.version)
    #[arg(long, value_name = "V", help_heading = "Scenario")]
    pub kubernetes_version: Option<String>,
    /// Each kubelet comes back as this release, in place (1.30 → 1.31 restarts every container)
    #[arg(long, value_name = "V", help_heading = "Scenario")]
    pub upgrade_to: Option<String>,
    /// legacy | kep | both [default: both]
    #[arg(long, value_name = "P", help_heading = "Scenario")]
    pub policy: Option<String>,
    /// Random seed (a non-negative integer)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "Scenario"
    )]
    pub seed: Option<String>,
    /// table | markdown | json [default: table]
    #[arg(short = 'o', long, value_name = "F", help_heading = "Output")]
    pub format: Option<String>,
    /// Write to FILE instead of standard output
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub out: Option<String>,
}

#[derive(Args, Debug)]
pub struct ImportOpts {
    /// Kubernetes YAML or JSON: a file, a directory (recursively) or - for standard input;
    /// repeatable
    #[arg(short = 'f', long = "manifest", value_name = "FILE|DIR|-")]
    pub manifests: Vec<String>,
    /// Pods of each workload on this node (default: every replica)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub replicas_on_node: Option<String>,
    #[command(flatten)]
    pub settings: SettingsOpts,
    /// Write to FILE instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

#[derive(Args, Debug)]
pub struct TourOpts {
    /// The tour [default: kep-4781]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The directory to write the SVGs and index.md into (created if missing; required)
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    #[command(flatten)]
    pub anim: AnimOpts,
}

#[derive(Args, Debug)]
pub struct ReplayOpts {
    /// Evidence: a `kubectl get pods -w` transcript, `kubectl get events` (table, -o json|yaml),
    /// `kubectl get pod NAME -o yaml|json`, `kubectl describe pod|node`, audit log lines
    /// (audit.k8s.io/v1) or kubelet / kube-controller-manager log lines (klog, journald, JSON);
    /// the format is detected per file; a file that cannot be read is skipped and said; repeatable
    #[arg(long = "evidence", value_name = "FILE", num_args = 1.., required = true)]
    pub evidence: Vec<String>,
    /// Kubernetes YAML or JSON of the pods (instead of pods made from the evidence); repeatable
    #[arg(short = 'f', long = "manifest", value_name = "FILE|DIR|-")]
    pub manifests: Vec<String>,
    /// The kubelet's release (1.36.4, v1.35.9, main; older than 1.31, e.g. 1.25.3: 1.31's legacy
    /// kubelet stands for it): compare with its kubelets only, and mark down the real-bug presets
    /// (run on their own releases) whose bug that release cannot have
    #[arg(long, value_name = "V")]
    pub kubernetes_version: Option<String>,
    /// table | json | svg [default: table]; svg: the best-ranked candidate's run and the other
    /// kubelet of its release, each pod's observed Ready drawn under its modelled lane
    #[arg(short = 'o', long, value_name = "F")]
    pub format: Option<String>,
    /// Write the output to FILE instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

/// `simulate --version 1.36` (or `fleet --version=main`): the kubelet release was `--version`
/// before; now `--version` is the program's at every level. Checked before clap, which would
/// only say that `1.36` is unexpected.
pub fn old_version_flag(args: &[String]) -> Option<String> {
    let sub = args.iter().position(|a| a == "simulate" || a == "fleet")?;
    let rest = &args[sub + 1..];
    for (i, a) in rest.iter().enumerate() {
        if a == "--" {
            return None;
        }
        let value = match a.strip_prefix("--version") {
            Some(v) if v.starts_with('=') => Some(v[1..].to_string()),
            Some("") => rest.get(i + 1).filter(|n| !n.starts_with('-')).cloned(),
            _ => None,
        };
        if let Some(v) = value {
            return Some(format!(
                "--version is the program's version; the kubelet release is --kubernetes-version (kubeadm's name): use `restartscope {} --kubernetes-version {v}`",
                args[sub]
            ));
        }
    }
    None
}

/// A clap error as one line: its message and its tips, without the usage block (the first line
/// of standard error is the message; `--help` has the rest).
pub fn one_line(e: &clap::Error, bin: &str, sub: Option<&str>) -> String {
    let text = e.render().to_string();
    let mut out = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with("Usage:") || l.starts_with("For more information") {
            break;
        }
        if l.is_empty() {
            continue;
        }
        let l = l.strip_prefix("error: ").unwrap_or(l);
        if !out.is_empty() {
            out.push_str(if l.starts_with("tip:") { "; " } else { " " });
        }
        out.push_str(l);
    }
    let help = match sub {
        Some(s) => format!("{bin} {s} --help"),
        None => format!("{bin} --help"),
    };
    format!("{out} (options: `{help}`)")
}
