//! The other restarts a node goes through, as `explain` candidates beside the known bugs: a node
//! reboot (rules B1, B2), a container-runtime restart or outage (R1–R4) and an in-place kubelet
//! upgrade (U1 where it crosses the container hash change of 1.31; every upgraded node and the
//! upgrade's sentence and run: `upgrade`). Each scores only on its own signature
//! in the evidence (`signature`, 0–100), never on a Ready sequence a kubelet bug could also
//! write; its run is its preset (`node-reboot`, `runtime-restart`, `upgrade-1.30-to-1.31`, or
//! the evidence's own upgrade where the model knows its releases) with the evidence's downtime (`candidates`). `named` picks the one the answer names: at least
//! `NAMED_AT`, and at least the best bug's score (ties never favour a bug).
//!
//! Called by `candidates` (the runs), the ranking in `explain/mod.rs` (the scores) and `answer`
//! (the headline). Mirrors the kubelet code the signatures come from: `kubelet_node_status.go`
//! (the `Rebooted` event when the boot id changes), `kubelet.go` `syncLoop` and `runtime.go`
//! `runtimeErrors` ("container runtime is down", "PLEG is not healthy"), `kuberuntime_manager.go`
//! `computePodActions` ("Container … definition changed, will be restarted") and PR #124220 (the
//! 1.31 hash).

use super::verdict::Verdict;
use crate::types::{Obs, What};
use serde::Serialize;

/// A restart other than the kubelet's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OtherRestart {
    Node,
    Runtime,
    Upgrade,
}

/// The least signature score the answer names a restart on.
pub const NAMED_AT: f64 = 50.0;

impl OtherRestart {
    pub const ALL: [OtherRestart; 3] = [
        OtherRestart::Node,
        OtherRestart::Runtime,
        OtherRestart::Upgrade,
    ];

    /// The model's preset drawn for it.
    pub fn preset(self) -> &'static str {
        match self {
            OtherRestart::Node => "node-reboot",
            OtherRestart::Runtime => "runtime-restart",
            OtherRestart::Upgrade => "upgrade-1.30-to-1.31",
        }
    }

    /// In words, as the answer names it.
    pub fn what(self) -> &'static str {
        match self {
            OtherRestart::Node => "a node reboot",
            OtherRestart::Runtime => "a container runtime restart",
            OtherRestart::Upgrade => "an in-place kubelet upgrade",
        }
    }

    /// The answer's headline when this restart is named: the kubelet's versions across the hash
    /// change, a spec-hash restart, or the kubelet's version changing alone.
    pub fn headline(self, obs: &[Obs]) -> String {
        let hop = hop_seen(obs);
        match self {
            OtherRestart::Node => "A node reboot explains this: every container restarts (expected on every release, not a bug).".into(),
            OtherRestart::Runtime => "A container runtime restart (or outage) explains this: the kubelet posts node Ready=False while the runtime is down and the pods stay Ready (rule R3; kubernetes#125618) — expected behaviour, not a kubelet bug.".into(),
            OtherRestart::Upgrade => {
                let spec = obs.iter().find(|o| matches!(o.what, What::SpecChanged(_)));
                match (super::upgrade::headline(obs), spec) {
                    (Some(h), None) => h,
                    (Some(h), Some(o)) => format!("{h} The evidence shows a container restarted so: its hash changed (line {}).", o.line),
                    (None, _) if hop => "An in-place kubelet upgrade across 1.30→1.31 explains this: the container hash changed (PR #124220), so the new kubelet restarts every container at its first SyncPod (rule U1; kubernetes#129385) — expected, not a bug; drain the node before a minor upgrade.".into(),
                    (None, Some(_)) => "A container-spec-hash restart explains this — as after an in-place kubelet upgrade across 1.30→1.31 (rule U1; kubernetes#129385), or an edit of the pod's spec: expected, not a kubelet bug.".into(),
                    (None, None) => "An in-place kubelet upgrade explains this.".into(),
                }
            }
        }
    }

    /// The kind a verdict's `restart` names.
    pub fn of_verdict(v: &Verdict) -> Option<OtherRestart> {
        OtherRestart::of_name(v.restart.as_deref()?)
    }

    /// The kind a run's name names: its preset, or an upgrade's run (`upgrade-1.34-to-1.35`).
    pub fn of_name(p: &str) -> Option<OtherRestart> {
        OtherRestart::ALL
            .into_iter()
            .find(|k| k.preset() == p || (*k == OtherRestart::Upgrade && p.starts_with("upgrade-")))
    }
}

/// A restart's score on this evidence and why.
pub struct Signature {
    pub score: f64,
    pub why: Vec<String>,
}

fn line(o: &Obs) -> String {
    format!("line {}", o.line)
}

/// The minor of a `v1.31.2`-like version.
fn minor(v: &str) -> Option<u32> {
    v.trim_start_matches('v').split('.').nth(1)?.parse().ok()
}

/// Whether a node-level NotReady shows before `t` (the node controller's, the kubelet's).
fn node_not_ready(o: &Obs) -> bool {
    match &o.what {
        What::NodeReady(false) | What::ControllerNotReady | What::NodeNotReadyBecause(_) => true,
        What::ReadyChanged(false) => {
            o.by.as_deref()
                .is_some_and(|b| b.contains("node-controller"))
        }
        _ => false,
    }
}

/// The score and its reasons: only the restart's own signature counts.
pub fn signature(kind: OtherRestart, obs: &[Obs]) -> Signature {
    let mut why = Vec::new();
    let mut score: f64 = 0.0;
    let start = obs.iter().find(|o| o.what == What::KubeletStarted);
    match kind {
        OtherRestart::Node => {
            let rebooted = obs.iter().find(|o| matches!(o.what, What::NodeRebooted(_)));
            if let Some(o) = rebooted {
                score += 70.0;
                // The kubelet's event, journalctl's mark between boots, logind's, kured's, MCD's.
                let said = match o.by.as_deref() {
                    Some("systemd-journald") => {
                        "journalctl's `-- Reboot --` between two boots' entries"
                    }
                    Some("systemd-logind") => "systemd-logind's \"System is rebooting.\"",
                    // kured's reboot command (`invokeReboot`); OpenShift's Machine Config Daemon's
                    // (`reboot`): the node goes down right after (a failed command ends them).
                    Some("kured") => "kured's reboot command",
                    Some("machine-config-daemon") => {
                        "the Machine Config Daemon's \"initiating reboot\""
                    }
                    Some(b) if b.contains("KERNEL-VERSION") => {
                        "its KERNEL-VERSION changed between two printings of `kubectl get nodes -o wide` (the kubelet reads it at its start)"
                    }
                    _ => "the kubelet's Rebooted event",
                };
                let meaning = if said.starts_with("the kubelet") {
                    "the node's boot id changed — it rebooted"
                } else if said.starts_with("kured") || said.starts_with("the Machine Config") {
                    "it rebooted the node (its time: just after this line)"
                } else {
                    "the host rebooted"
                };
                why.push(format!(
                    "{}: {said} ({}): {meaning} (+70)",
                    crate::types::node_words(o.node.as_deref()),
                    line(o)
                ));
            }
            // Two boot ids of one node that differ (two describes, a Node's YAML and a journal).
            let boots: Vec<&Obs> = obs
                .iter()
                .filter(|o| matches!(o.what, What::BootId(_)))
                .collect();
            let other = boots.iter().find_map(|a| {
                boots
                    .iter()
                    .find(|b| b.node == a.node && b.what != a.what)
                    .map(|b| (*a, *b))
            });
            if let (Some((a, b)), None) = (other, rebooted) {
                score += 70.0;
                why.push(format!(
                    "{}: its boot id differs between {} and {}: it rebooted between them (+70)",
                    crate::types::node_words(a.node.as_deref()),
                    line(a),
                    line(b)
                ));
            }
            let (inferred, mut said) = reboot_hints(obs, start);
            why.append(&mut said);
            if rebooted.is_none() && other.is_none() && inferred > INFERRED_MAX {
                score += INFERRED_MAX;
                why.push(format!("without the kubelet's Rebooted event a reboot is only inferred: at most {INFERRED_MAX:.0}"));
            } else {
                score += inferred;
            }
            if score > 0.0 && score < 70.0 {
                why.push("no Rebooted event: the node's events (`kubectl get events --field-selector involvedObject.kind=Node`) would say whether it rebooted".into());
            }
        }
        OtherRestart::Runtime => {
            // The runtime's own log, or systemd's lines about its unit: it stopped, started.
            let stop = obs
                .iter()
                .find(|o| matches!(o.what, What::RuntimeStopped(_)));
            let begin = obs
                .iter()
                .find(|o| matches!(o.what, What::RuntimeStarted(_)));
            let said = match (stop, begin) {
                (Some(a), Some(b)) => Some((
                    60.0,
                    format!(
                        "the container runtime's own lines say it stopped ({}) and started ({})",
                        line(a),
                        line(b)
                    ),
                )),
                (Some(a), None) => Some((
                    50.0,
                    format!(
                        "the container runtime's own lines say it was stopped ({})",
                        line(a)
                    ),
                )),
                // kubectl's CONTAINER-RUNTIME column at another version: a new binary, so a
                // restart.
                (None, Some(b))
                    if b.by
                        .as_deref()
                        .is_some_and(|x| x.contains("CONTAINER-RUNTIME")) =>
                {
                    Some((
                        50.0,
                        format!(
                            "the container runtime started ({}, {})",
                            line(b),
                            b.by.as_deref().unwrap_or("")
                        ),
                    ))
                }
                // Its own lines, systemd's or node-problem-detector's: started more than once
                // is a restart; once is also how its first start at the node's boot looks.
                (None, Some(b)) => {
                    let starts = obs
                        .iter()
                        .filter(|o| matches!(o.what, What::RuntimeStarted(_)) && o.node == b.node)
                        .count();
                    let by = b.by.as_deref().unwrap_or("its own lines");
                    Some(if starts > 1 {
                        (
                            50.0,
                            format!("the container runtime started {starts} times, the first at {} ({by}): it restarted", line(b)),
                        )
                    } else {
                        (
                            30.0,
                            format!("the container runtime started once ({}, {by}): a restart, or its first start at the node's boot", line(b)),
                        )
                    })
                }
                (None, None) => None,
            };
            if let Some((s, w)) = &said {
                score += s;
                why.push(format!("{w} (+{s})"));
                if !obs.iter().any(|o| {
                    matches!(
                        o.what,
                        What::KubeletStarted | What::KubeletStopped | What::NodeRebooted(_)
                    )
                }) {
                    score += 10.0;
                    why.push(
                        "neither the kubelet nor the node restarted in the evidence (+10)".into(),
                    );
                }
            }
            let mut best: Option<(f64, &Obs, &str)> = None;
            for o in obs {
                let m = match &o.what {
                    What::NodeNotReadyBecause(m) | What::RuntimeDown(m) => m.as_str(),
                    _ => continue,
                };
                // The kubelet's first seconds (its PLEG never relisted, its runtime never
                // checked): it has just started, and its runtime state says "container runtime
                // is down" until its first status check — not an outage.
                if crate::klog_says::pleg_never_relisted(m) {
                    continue;
                }
                let s = if m.contains("container runtime is down") {
                    70.0
                } else if m.starts_with("container runtime not answering")
                    || m.starts_with("container runtime sanity check failed")
                    || m.contains("PLEG is not healthy")
                {
                    60.0
                } else {
                    continue;
                };
                if best.is_none_or(|b| s > b.0) {
                    best = Some((s, o, m));
                }
            }
            if let Some((s, o, m)) = best {
                score += s;
                // dockerd's own lines about the containerd under it, else the kubelet's.
                let who = match o.by.as_deref() {
                    Some(b @ ("dockerd" | "docker" | "dockerd-current")) => {
                        format!("{b}'s own lines say")
                    }
                    _ => "the kubelet says".into(),
                };
                let whence = if who.starts_with("the kubelet") {
                    ": `runtimeErrors` / the PLEG's relist"
                } else {
                    ""
                };
                why.push(format!(
                    "{who} the container runtime is not answering ({}: \"{}\"){whence} (+{s})",
                    line(o),
                    crate::types::cut_to(m, 100)
                ));
                if let Some(k) = start.filter(|k| k.file == o.file && k.t_ms > o.t_ms) {
                    score -= 20.0;
                    why.push(format!(
                        "the kubelet itself started after it ({}): the outage ended in a kubelet or node restart, not the runtime's alone (−20)",
                        line(k)
                    ));
                }
                let kubelet_ready = obs.iter().any(|o| {
                    matches!(o.what, What::ReadyChanged(_))
                        && !o
                            .by
                            .as_deref()
                            .is_some_and(|b| b.contains("node-controller"))
                });
                if obs.iter().any(|o| o.pod.is_some()) && !kubelet_ready {
                    score += 10.0;
                    why.push("no pod's Ready changed by the kubelet: the pods stay Ready while the node is NotReady (R3) (+10)".into());
                }
                if !obs
                    .iter()
                    .any(|o| matches!(o.what, What::KubeletStarted | What::KubeletStopped))
                {
                    score += 10.0;
                    why.push("no kubelet stop or start in the evidence (+10)".into());
                }
            }
            // The kubelet's words alone say the runtime did not answer it, not that the runtime
            // restarted (it may never have come up, or the kubelet misread it): moderate at most.
            if said.is_none() && score > KUBELET_WORDS_MAX {
                score = KUBELET_WORDS_MAX;
                why.push(format!("only the kubelet's words, not the runtime's own lines, say it: at most {KUBELET_WORDS_MAX:.0}"));
            }
        }
        OtherRestart::Upgrade => {
            let changed: Vec<&Obs> = obs
                .iter()
                .filter(|o| matches!(o.what, What::SpecChanged(_)))
                .collect();
            if let Some(first) = changed.first() {
                score += 50.0;
                why.push(format!(
                    "a container restarted as its hash changed ({}: \"definition changed, will be restarted\", before 1.13 \"spec hash changed\"; `computePodActions`) (+50)",
                    line(first)
                ));
                if changed.len() > 1 {
                    score += 10.0;
                    why.push(format!("{} containers restarted so (+10)", changed.len()));
                }
                if let Some(s) = start.filter(|s| s.file == first.file && s.t_ms <= first.t_ms) {
                    score += 15.0;
                    why.push(format!(
                        "at the kubelet's first SyncPod after its start ({}) (+15)",
                        line(s)
                    ));
                }
            }
            // A node's kubelet at two versions (printings of `kubectl get nodes`, a journal and
            // a Node's YAML): a kubelet of another version started there; each node said.
            if !super::upgrade::changes(obs).is_empty() {
                let s = if changed.is_empty() { 60.0 } else { 15.0 };
                score += s;
                why.extend(super::upgrade::why(obs, s));
            }
            let minors: Vec<u32> = obs
                .iter()
                .filter_map(|o| match &o.what {
                    What::KubeletVersion(v) => minor(v),
                    _ => None,
                })
                .collect();
            if score > 0.0 && !minors.is_empty() {
                let (lo, hi) = (minors.iter().min(), minors.iter().max());
                if let (Some(&lo), Some(&hi)) = (lo, hi) {
                    if lo <= 30 && hi >= 31 {
                        score += 25.0;
                        why.push(format!("the kubelet went from 1.{lo} to 1.{hi}: the 1.31 hash (PR #124220) differs from 1.30's (+25)"));
                    } else if lo >= 31 && !changed.is_empty() {
                        score -= 20.0;
                        why.push(format!("the kubelet is 1.{lo}–1.{hi}: every hop from 1.31 on keeps the hash, so the pod's spec was edited (−20)"));
                    }
                }
            }
        }
    }
    Signature {
        score: score.clamp(0.0, 100.0),
        why,
    }
}

/// The most a runtime restart scores on the kubelet's words alone (no line of the runtime's own
/// or of systemd about its unit).
const KUBELET_WORDS_MAX: f64 = 70.0;

/// The most a reboot scores on what only suggests it (no Rebooted event): moderate, never strong.
const INFERRED_MAX: f64 = 65.0;

/// How close two events must be to be one moment of a node's restart (a kubelet and a kube-proxy
/// starting, two pods' sandboxes changing): the agents of a booting node start within a minute
/// or two of each other.
const ONE_MOMENT_MS: i64 = 120_000;

/// What suggests a node reboot without the kubelet's Rebooted event, and why: the kubelet's start
/// after the node's NotReady, kube-proxy starting with it (both agents restarted: the node did;
/// k3s runs both in one process, so this alone stays under `NAMED_AT`), the runtime not answering
/// before (a node going down stops it first), every observed pod's containers started again,
/// several pods' sandboxes re-created at once (`SandboxChanged`), one printing of `kubectl get
/// pods` putting every pod's last restart at one moment, pods the graceful node shutdown
/// terminated.
fn reboot_hints(obs: &[Obs], start: Option<&Obs>) -> (f64, Vec<String>) {
    let mut score = 0.0;
    let mut why = Vec::new();
    if let Some(s) = start {
        score += 10.0;
        why.push(format!("the kubelet started ({}) (+10)", line(s)));
        if let Some(n) = obs
            .iter()
            .find(|o| node_not_ready(o) && o.file == s.file && o.t_ms <= s.t_ms)
        {
            score += 10.0;
            why.push(format!(
                "the node was NotReady before it ({}): its lease stopped with the node (+10)",
                line(n)
            ));
        }
        if let Some(p) = obs.iter().find(|o| {
            o.what == What::ProxyStarted
                && o.file == s.file
                && (o.t_ms - s.t_ms).abs() <= ONE_MOMENT_MS
        }) {
            score += 20.0;
            why.push(format!(
                "kube-proxy started with it ({}): the node's agents both started again, as at a boot (+20)",
                line(p)
            ));
        }
        if let Some(d) = obs
            .iter()
            .find(|o| matches!(o.what, What::RuntimeDown(_)) && o.file == s.file && o.t_ms < s.t_ms)
        {
            score += 10.0;
            why.push(format!(
                "the container runtime stopped answering before it ({}): a node going down stops its runtime first (+10)",
                line(d)
            ));
        }
        let mut pods: Vec<&String> = obs.iter().filter_map(|o| o.pod.as_ref()).collect();
        pods.sort();
        pods.dedup();
        let restarted = |p: &&String| {
            obs.iter().any(|o| {
                o.pod.as_ref() == Some(*p)
                    && o.file == s.file
                    && o.t_ms >= s.t_ms
                    && matches!(o.what, What::ContainerStarted | What::Restarted(_))
            })
        };
        if !pods.is_empty() && pods.iter().all(restarted) {
            score += 10.0;
            why.push(format!(
                "every observed pod's containers started again after the kubelet's start ({} pod{}) (+10)",
                pods.len(),
                if pods.len() == 1 { "" } else { "s" }
            ));
        }
    }
    // Several pods' sandboxes re-created within one moment.
    let changed: Vec<&Obs> = obs
        .iter()
        .filter(|o| o.what == What::SandboxChanged)
        .collect();
    if let Some(first) = changed.first() {
        let mut pods: Vec<&str> = Vec::new();
        for o in &changed {
            let near = o.file == first.file && (o.t_ms - first.t_ms).abs() <= ONE_MOMENT_MS;
            match o.pod.as_deref() {
                Some(p) if near && !pods.contains(&p) => pods.push(p),
                _ => {}
            }
        }
        if pods.len() >= 2 {
            score += 40.0;
            why.push(format!(
                "{} pods' sandboxes changed at one moment ({}): after a node reboot every pod's sandbox is gone (+40)",
                pods.len(),
                line(first)
            ));
        } else {
            why.push(format!("one pod's SandboxChanged ({}) alone does not say the node rebooted: the network plugin or the runtime can fail one pod's sandbox", line(first)));
        }
    }
    if let Some(o) = obs
        .iter()
        .find(|o| matches!(o.what, What::RestartedTogether { .. }))
    {
        if let What::RestartedTogether { pods, ago_ms } = o.what {
            let s = if pods >= 3 { 60.0 } else { 50.0 };
            score += s;
            why.push(format!(
                "{pods} pods' containers last restarted at one moment, {} before `kubectl get pods` printed ({}), and no Ready pod there went without a restart: every container on the node started again, as after a reboot — or a runtime restart that kills containers (dockerd without live-restore) (+{s:.0})",
                crate::time::duration_text(ago_ms),
                line(o)
            ));
        }
    }
    let shut: Vec<&Obs> = obs
        .iter()
        .filter(|o| matches!(&o.what, What::PodMessage { message, .. } if message.contains("graceful node shutdown")))
        .collect();
    let pods = shut.iter().filter(|o| o.pod.is_some()).count();
    if let Some(o) = shut.first() {
        score += 60.0;
        let what = if pods == 0 {
            "the kubelet's graceful node shutdown began".to_string()
        } else {
            format!(
                "{pods} pod{} terminated by the kubelet's graceful node shutdown",
                if pods == 1 { "" } else { "s" }
            )
        };
        why.push(format!(
            "{what} ({}, nodeshutdown_manager_linux.go): the node was shutting down (+60)",
            line(o)
        ));
    }
    // `kubectl get nodes` printed again: a node NotReady, then Ready.
    let back = obs.iter().find(|b| {
        b.what == What::NodeReady(true) && b.by.as_deref() == Some("kubectl (STATUS changed)")
    });
    if let Some(b) = back {
        score += 20.0;
        why.push(format!(
            "{}: Ready again in `kubectl get nodes` ({}): a kubelet or node restart, or an outage's end; weak (+20)",
            crate::types::node_words(b.node.as_deref()),
            line(b)
        ));
    }
    (score, why)
}

/// Whether the evidence shows the kubelet's versions across 1.30→1.31.
pub fn hop_seen(obs: &[Obs]) -> bool {
    let m: Vec<u32> = obs
        .iter()
        .filter_map(|o| match &o.what {
            What::KubeletVersion(v) => minor(v),
            _ => None,
        })
        .collect();
    m.iter().any(|&x| x <= 30) && m.iter().any(|&x| x >= 31)
}

/// A node reboot's downtime the evidence dates: from the node's first NotReady to the kubelet's
/// start (same file), a lower bound (the node controller waits its grace before NotReady).
pub fn reboot_downtime_s(obs: &[Obs]) -> Option<f64> {
    let s = obs.iter().find(|o| o.what == What::KubeletStarted)?;
    let n = obs
        .iter()
        .filter(|o| node_not_ready(o) && o.file == s.file && o.t_ms < s.t_ms)
        .min_by_key(|o| o.t_ms)?;
    Some((s.t_ms - n.t_ms) as f64 / 1000.0)
}

/// The restart the answer names, its place in `ranked`: the best-scoring one, at least
/// `NAMED_AT`, and at least `bug` (the named or best bug's score): ties never favour a bug.
pub fn named(ranked: &[Verdict], bug: Option<f64>) -> Option<usize> {
    let (i, v) = ranked
        .iter()
        .enumerate()
        .filter(|(_, v)| v.restart.is_some())
        .max_by(|a, b| a.1.score.total_cmp(&b.1.score).then(b.0.cmp(&a.0)))?;
    (v.score >= NAMED_AT && bug.is_none_or(|b| v.score >= b)).then_some(i)
}

/// The answer in a few words (`Answer::short`): the bug, else the restart, else no known bug.
pub fn short(bug: Option<&str>, restart: Option<&str>) -> String {
    match (bug, restart) {
        (Some(b), _) => format!("{b} explains this"),
        (None, Some(r)) => {
            let what = OtherRestart::of_name(r).map_or(r, |k| k.what());
            format!("{what} explains this")
        }
        (None, None) => "no known bug explains this".into(),
    }
}

#[cfg(test)]
#[path = "restarts_tests.rs"]
mod tests;
