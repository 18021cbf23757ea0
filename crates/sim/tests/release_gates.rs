//! The release table (`releases.rs`, `profile.rs`) against each release's own feature gates: a
//! release has a feature when that release's own source has it. `oracle/scripts/gates.sh` reads
//! the newest patch of every minor the Go module proxy serves for k8s.io/kubernetes from 1.31 on
//! (`pkg/features/kube_features.go`, `versioned_kube_features.go` in 1.31 and 1.32, the code
//! that reads the gates, a few defaults) into `oracle/vectors/<release>/features.json`
//! (`oracle/cmd/gates`); these tests read those files, never the network.
//!
//! Each test lists every disagreement it finds: the release, the gate, what the source says
//! (with its file and line in that release) and what the model says.

mod common;
use common::canonical;
use restartscope_sim::releases::MINORS;
use restartscope_sim::*;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// The gate KEP-4781's code sits behind (`true` restores the legacy kubelet).
const KEP_GATE: &str = "ChangeContainerStatusOnKubeletRestart";
/// A1s's gate (`pkg/kubelet/lifecycle/predicate.go` reads it where a release has it).
const ADMIT_GATE: &str = "NotEvictPodOnKubeletRestart";
const CSP_GATE: &str = "ContainerScopedProbes";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One release's `features.json`.
struct Vector {
    /// `v1.37.2`, `v1.38.0-beta.0`.
    tag: String,
    /// (major, minor, patch).
    num: (u32, u32, u32),
    /// A pre-release tag (`-beta.0`): the minor has no release yet.
    pre: bool,
    json: Json,
}

/// What the source says of one watched gate.
struct Watch {
    in_source: bool,
    default: bool,
    kubelet_reads: Vec<String>,
}

impl Vector {
    /// The model's release for this tag: itself, or for a pre-release the x.y.0 it leads to.
    fn model(&self) -> Result<KubeVersion, String> {
        let (maj, min, patch) = self.num;
        KubeVersion::parse_or_explain(&format!("{maj}.{min}.{patch}"))
    }

    /// `v1.37.2 (model 1.37.2)`.
    fn name(&self) -> String {
        match self.model() {
            Ok(v) => format!("{} (model {})", self.tag, v.as_str()),
            Err(_) => self.tag.clone(),
        }
    }

    fn gate(&self, gate: &str) -> Option<&Json> {
        self.json["gates"].get(gate)
    }

    fn watch(&self, gate: &str) -> Watch {
        let w = &self.json["watched"][gate];
        assert!(
            w.is_object(),
            "{}: oracle/vectors/{}/features.json does not watch {gate}: add it to Watched in oracle/cmd/gates/main.go and run oracle/scripts/gates.sh",
            self.tag,
            self.tag
        );
        Watch {
            in_source: w["inSource"].as_bool().unwrap(),
            default: w["default"].as_bool().unwrap(),
            kubelet_reads: w["kubeletReads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect(),
        }
    }

    /// What the source says of `gate`, in words: "ChangeContainerStatusOnKubeletRestart is
    /// Deprecated, default false at 1.37 (pkg/features/kube_features.go:1407)".
    fn says(&self, gate: &str) -> String {
        match self.gate(gate) {
            Some(g) => format!(
                "{gate} is {}, default {}{} at {} ({})",
                g["prerelease"].as_str().unwrap(),
                g["default"],
                if g["lockToDefault"] == Json::Bool(true) {
                    ", locked"
                } else {
                    ""
                },
                self.json["minor"].as_str().unwrap(),
                g["at"].as_str().unwrap()
            ),
            None => format!(
                "no gate {gate} in {}",
                self.json["files"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// Every `oracle/vectors/*/features.json`, oldest release first.
fn vectors() -> Vec<Vector> {
    let dir = root().join("oracle/vectors");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = e.unwrap().path().join("features.json");
        if !path.exists() {
            continue;
        }
        let json: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let tag = json["release"].as_str().unwrap().to_string();
        let dir_name = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        assert_eq!(tag, dir_name, "{}: release field", path.display());
        let (core, pre) = match tag.split_once('-') {
            Some((c, _)) => (c, true),
            None => (tag.as_str(), false),
        };
        let n: Vec<u32> = core
            .trim_start_matches('v')
            .split('.')
            .map(|p| p.parse().unwrap_or_else(|_| panic!("{tag}: not vX.Y.Z")))
            .collect();
        assert_eq!(n.len(), 3, "{tag}: not vX.Y.Z");
        out.push(Vector {
            num: (n[0], n[1], n[2]),
            tag,
            pre,
            json,
        });
    }
    out.sort_by_key(|v| (v.num, !v.pre));
    assert!(
        !out.is_empty(),
        "no oracle/vectors/*/features.json: run oracle/scripts/gates.sh"
    );
    out
}

/// The model's release for each vector; the vectors whose release the model does not know are
/// reported by `every_served_release_is_in_the_release_table`.
fn known() -> Vec<(Vector, KubeVersion)> {
    vectors()
        .into_iter()
        .filter_map(|v| v.model().ok().map(|k| (v, k)))
        .collect()
}

fn check(what: &str, problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{} disagreement(s) between the model's release table and the releases' own source ({what}; oracle/vectors/*/features.json, from oracle/scripts/gates.sh):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

fn lane(p: &KubeletProfile) -> &'static str {
    p.policy().as_str()
}

#[test]
fn every_served_release_is_in_the_release_table() {
    let vs = vectors();
    let mut problems = Vec::new();
    for v in &vs {
        if let Err(e) = v.model() {
            problems.push(format!(
                "{}: the Go module proxy serves this release, the model's table (releases.rs RELEASES) does not have it: {e}",
                v.tag
            ));
        }
    }
    // One vector a minor, and no minor missing between the oldest and the newest.
    for w in vs.windows(2) {
        let (a, b) = (w[0].num, w[1].num);
        if (a.0, a.1) == (b.0, b.1) || (b.0 == a.0 && b.1 != a.1 + 1) {
            problems.push(format!(
                "{} then {}: expected one release of each minor (rerun oracle/scripts/gates.sh)",
                w[0].tag, w[1].tag
            ));
        }
    }
    check("releases", problems);
}

/// A release the proxy serves (its tag exists) has shipped; a minor whose newest tag is a
/// pre-release has not.
#[test]
fn served_releases_are_marked_released() {
    let mut problems = Vec::new();
    for (v, k) in known() {
        let r = k.release();
        if r.released == v.pre {
            problems.push(format!(
                "{}: the proxy serves tag {}{}; the model says released: {} (releases.rs: r(\"{}\", \"{}\", …, {}, {:?}))",
                v.name(),
                v.tag,
                if v.pre { ", a pre-release: the minor has no release yet" } else { ", so it has shipped" },
                r.released,
                r.name,
                r.date,
                r.released,
                r.note
            ));
        }
    }
    check("released", problems);
}

/// KEP-4781 lanes iff the release's source has `ChangeContainerStatusOnKubeletRestart`; the
/// default lane is the gate's default at that release, the legacy lane sets the gate to its
/// value before KEP-4781 (its first spec), and the kubelet reads the gate where the model's
/// switches say (`worker.go` P1k/P1s, `prober_manager.go` S3, `kubelet_pods.go` S1).
#[test]
fn kep_4781_lanes_follow_change_container_status_on_kubelet_restart() {
    let mut problems = Vec::new();
    for (v, k) in known() {
        let src = v.watch(KEP_GATE);
        let model = k.has_kep_4781();
        let says = v.says(KEP_GATE);
        let profiles = KubeletProfile::defaults(k);
        if profiles.len() != 1 + model as usize
            || KubeletProfile::new(k, Policy::Kep).is_ok() != model
        {
            problems.push(format!(
                "{}: has_kep_4781 = {model} but the profiles offered are {:?}",
                v.name(),
                profiles.iter().map(|p| p.label()).collect::<Vec<_>>()
            ));
        }
        if src.in_source != model {
            problems.push(format!(
                "{}: gate {KEP_GATE}: source: {says}; model: {} (releases.rs line {:?}, KubeVersion::has_kep_4781 = {model})",
                v.name(),
                if model { "KEP-4781 and legacy lanes" } else { "the legacy kubelet only, no KEP-4781 lane" },
                k.line()
            ));
            continue;
        }
        if !model {
            continue;
        }
        let g = v.gate(KEP_GATE).unwrap();
        let before = g["specs"][0]["default"].as_bool().unwrap();
        let default: Vec<&KubeletProfile> = profiles.iter().filter(|p| p.is_default()).collect();
        match default.as_slice() {
            [d] if d.change_container_status_on_kubelet_restart == src.default => {}
            _ => problems.push(format!(
                "{}: gate {KEP_GATE}: source: {says}; model's default lane: {:?} (gate = {:?})",
                v.name(),
                default.iter().map(|p| p.label()).collect::<Vec<_>>(),
                default
                    .iter()
                    .map(|p| p.change_container_status_on_kubelet_restart)
                    .collect::<Vec<_>>()
            )),
        }
        for p in &profiles {
            let want = if p.policy() == Policy::Legacy {
                before
            } else {
                !before
            };
            if p.change_container_status_on_kubelet_restart != want {
                problems.push(format!(
                    "{}: gate {KEP_GATE}: its first spec ({}) defaults to {before}, the behaviour before KEP-4781; the model's {} lane sets it to {}",
                    v.name(),
                    g["specs"][0],
                    lane(p),
                    p.change_container_status_on_kubelet_restart
                ));
            }
            let flag = if p.is_default() {
                String::new()
            } else {
                format!(
                    "{KEP_GATE}={}",
                    p.change_container_status_on_kubelet_restart
                )
            };
            if p.feature_gates() != flag {
                problems.push(format!(
                    "{}: gate {KEP_GATE} (source: {says}): the model's {} lane says --feature-gates={:?}, the source's default makes it {flag:?}",
                    v.name(),
                    lane(p),
                    p.feature_gates()
                ));
            }
        }
        for file in [
            "pkg/kubelet/prober/worker.go",
            "pkg/kubelet/prober/prober_manager.go",
            "pkg/kubelet/kubelet_pods.go",
        ] {
            if !src.kubelet_reads.iter().any(|r| r.starts_with(file)) {
                problems.push(format!(
                    "{}: gate {KEP_GATE}: {file} does not read it (the kubelet reads it at {:?}); the model's KEP-4781 switches (profile.rs Rules) follow that file",
                    v.name(),
                    src.kubelet_reads
                ));
            }
        }
    }
    check(KEP_GATE, problems);
}

/// A1s (`Rules::skip_ignorable_admission_checks`) on, on both lanes, iff the release's source
/// has `NotEvictPodOnKubeletRestart`, on by default, and `predicate.go` reads it.
#[test]
fn admission_skips_ignorable_checks_iff_not_evict_pod_on_kubelet_restart_is_on() {
    let mut problems = Vec::new();
    for (v, k) in known() {
        let src = v.watch(ADMIT_GATE);
        let on = src.in_source && src.default;
        for p in KubeletProfile::defaults(k) {
            if p.rules.skip_ignorable_admission_checks != on {
                problems.push(format!(
                    "{}: gate {ADMIT_GATE}: source: {}{}; model: A1s (Rules::skip_ignorable_admission_checks) is {} on the {} lane (profile.rs KubeletProfile::for_policy)",
                    v.name(),
                    v.says(ADMIT_GATE),
                    if src.in_source { format!(", read at {:?}", src.kubelet_reads) } else { String::new() },
                    if p.rules.skip_ignorable_admission_checks { "on" } else { "off" },
                    lane(&p)
                ));
            }
        }
        if on
            && !src
                .kubelet_reads
                .iter()
                .any(|r| r.starts_with("pkg/kubelet/lifecycle/predicate.go"))
        {
            problems.push(format!(
                "{}: gate {ADMIT_GATE} is on by default but pkg/kubelet/lifecycle/predicate.go does not read it (the kubelet reads it at {:?}); the model's A1s follows predicate.go",
                v.name(),
                src.kubelet_reads
            ));
        }
    }
    check(ADMIT_GATE, problems);
}

/// No release runs the ContainerScopedProbes proposal by default: the model's release profiles
/// never switch it on, so the source must not either.
#[test]
fn container_scoped_probes_is_on_by_default_in_no_release() {
    let mut problems = Vec::new();
    for (v, k) in known() {
        let src = v.watch(CSP_GATE);
        for p in KubeletProfile::defaults(k) {
            let model = p.rules.container_scoped_probes;
            if model || (src.in_source && src.default && p.is_default()) {
                problems.push(format!(
                    "{}: gate {CSP_GATE}: source: {}; model's {} lane ({}): container_scoped_probes {model}, proposal {:?}",
                    v.name(),
                    v.says(CSP_GATE),
                    lane(&p),
                    p.label(),
                    p.proposal
                ));
            }
        }
    }
    check(CSP_GATE, problems);
}

/// On in a release: its default is true there, or the gate is gone after an earlier served
/// release had it GA and locked to true. `None`: cannot tell (gone before the oldest vector).
fn on_or_graduated(vs: &[(Vector, KubeVersion)], i: usize, gate: &str) -> Option<bool> {
    let (v, _) = &vs[i];
    if let Some(g) = v.gate(gate) {
        return Some(g["default"] == Json::Bool(true));
    }
    let last = vs[..i].iter().rev().find_map(|(w, _)| w.gate(gate))?;
    Some(
        last["prerelease"] == "GA"
            && last["default"] == Json::Bool(true)
            && last["lockToDefault"] == Json::Bool(true),
    )
}

/// Features the model runs on every release, behind gates of the source: sidecars
/// (`SidecarContainers`: an init container with restartPolicy Always validates and runs on every
/// release) and the taint eviction controller (`SeparateTaintEvictionController`: rules E1, E1n,
/// E1u on every release). Each must be on by default, or gone after it was GA and locked on.
#[test]
fn sidecars_and_taint_eviction_are_on_in_every_release() {
    let vs = known();
    let mut problems = Vec::new();
    for (i, (v, k)) in vs.iter().enumerate() {
        let mut sc = canonical(20.0, 1);
        sc.cluster.version = *k;
        sc.kubelet.policy = Policy::Legacy;
        let mut sidecar = sc.pods[0].containers[0].clone();
        sidecar.name = "proxy".into();
        sidecar.restart_policy = Some("Always".into());
        sc.pods[0].init_containers.push(sidecar);
        let model_sidecars = sc.validate().is_ok();
        for (gate, model, what) in [
            (
                "SidecarContainers",
                model_sidecars,
                "an init container with restartPolicy Always",
            ),
            (
                "SeparateTaintEvictionController",
                true,
                "the taint eviction controller (rules E1, E1n, E1u)",
            ),
        ] {
            v.watch(gate);
            match on_or_graduated(&vs, i, gate) {
                Some(on) if on == model => {}
                Some(on) => problems.push(format!(
                    "{}: gate {gate}: source: {} ({}); model {} {what}",
                    v.name(),
                    v.says(gate),
                    if on { "on" } else { "off" },
                    if model { "runs" } else { "refuses" }
                )),
                None => problems.push(format!(
                    "{}: gate {gate}: source: {}, and no older vector has it, so whether it is on cannot be told; model runs {what}",
                    v.name(),
                    v.says(gate)
                )),
            }
        }
    }
    check(
        "SidecarContainers, SeparateTaintEvictionController",
        problems,
    );
}

/// The model's crash-loop back-off (10 s doubling to 300 s, `node/kubelet/backoff.rs`) in every
/// profile holds while `ReduceDefaultCrashLoopBackOffDecay` is off (docs/research/versions.md).
#[test]
fn crash_loop_back_off_is_the_unreduced_one_in_every_release() {
    let gate = "ReduceDefaultCrashLoopBackOffDecay";
    let mut problems = Vec::new();
    for (v, _) in known() {
        let src = v.watch(gate);
        if src.in_source && src.default {
            problems.push(format!(
                "{}: gate {gate}: source: {}; model: back-off 10 s to 300 s in every profile (node/kubelet/backoff.rs)",
                v.name(),
                v.says(gate)
            ));
        }
    }
    check(gate, problems);
}

/// `--node-monitor-grace-period` by release (`KubeVersion::default_grace_s`), the kubelet's
/// `nodeLeaseDurationSeconds` and, where the release keeps it in
/// `pkg/controller/nodelifecycle/config/v1alpha1/defaults.go`, `--node-monitor-period`
/// (`Cluster::default()`).
#[test]
fn node_lifecycle_defaults_match_the_source() {
    let mut problems = Vec::new();
    let cluster = Cluster::default();
    for (v, k) in known() {
        for (key, model, what, required) in [
            (
                "kube-controller-manager.NodeMonitorGracePeriod",
                k.default_grace_s(),
                "--node-monitor-grace-period (KubeVersion::default_grace_s)",
                true,
            ),
            (
                "kubelet.NodeLeaseDurationSeconds",
                cluster.lease_duration_s,
                "nodeLeaseDurationSeconds (Cluster::default().lease_duration_s)",
                true,
            ),
            (
                "kube-controller-manager.NodeMonitorPeriod",
                cluster.node_monitor_period_s,
                "--node-monitor-period (Cluster::default().node_monitor_period_s)",
                false,
            ),
        ] {
            let d = &v.json["defaults"][key];
            match d["value"].as_f64() {
                Some(s) if s == model => {}
                Some(s) => problems.push(format!(
                    "{}: {what}: source: {s} s ({}); model: {model} s",
                    v.name(),
                    d["at"].as_str().unwrap()
                )),
                None if required => problems.push(format!(
                    "{}: {what}: the source's default was not read ({key} missing); model: {model} s",
                    v.name()
                )),
                None => {}
            }
        }
    }
    check("defaults", problems);
}

/// `releases::MINORS` states `ChangeContainerStatusOnKubeletRestart`'s stage and default per
/// minor: "absent…" where the source has no such gate, "<Stage>, default <bool>…" where it has.
#[test]
fn the_minors_table_states_the_kep_gate_as_the_source_has_it() {
    let mut problems = Vec::new();
    for v in vectors() {
        let minor = format!("{}.{}", v.num.0, v.num.1);
        let Some(m) = MINORS.iter().find(|m| m.minor == minor) else {
            problems.push(format!(
                "{}: releases.rs MINORS has no {minor}; source: {}",
                v.tag,
                v.says(KEP_GATE)
            ));
            continue;
        };
        let want = match v.gate(KEP_GATE) {
            Some(g) => format!(
                "{}, default {}",
                g["prerelease"].as_str().unwrap(),
                g["default"]
            ),
            None => "absent".to_string(),
        };
        if !m.gate.starts_with(&want) {
            problems.push(format!(
                "{}: gate {KEP_GATE}: source: {}; releases.rs MINORS[{minor}].gate: {:?} (expected it to start with {want:?})",
                v.tag,
                v.says(KEP_GATE),
                m.gate
            ));
        }
    }
    check("MINORS", problems);
}

/// Every gate that profile.rs, releases.rs or docs/MODEL.md names is one the oracle watches, so
/// the tests above can tie it to the model.
#[test]
fn every_gate_the_model_names_is_watched() {
    let vs = vectors();
    let mut problems = Vec::new();
    for file in [
        "crates/sim/src/profile.rs",
        "crates/sim/src/releases.rs",
        "docs/MODEL.md",
    ] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let mut names: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let gate = vs.iter().any(|v| v.gate(name).is_some());
            let unwatched: Vec<&str> = vs
                .iter()
                .filter(|v| v.json["watched"].get(name).is_none())
                .map(|v| v.tag.as_str())
                .collect();
            if gate && !unwatched.is_empty() {
                problems.push(format!(
                    "{file} names gate {name}, which oracle/vectors/{{{}}}/features.json do not watch: add it to Watched in oracle/cmd/gates/main.go, run oracle/scripts/gates.sh and tie it to the model here",
                    unwatched.join(",")
                ));
            }
        }
    }
    check("watched gates", problems);
}
