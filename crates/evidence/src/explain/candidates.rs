//! The candidates `explain` ranks: the known bugs (`BUGS`, each a `report-*` preset with the
//! kubelet it needs and where it is fixed), the other restarts (`restarts::OtherRestart`: a node
//! reboot, a runtime restart, an in-place upgrade, each its preset; the upgrade the evidence's
//! own releases where the model knows them, `upgrade::run`) and every release
//! profile's kubelet, run on the evidence's scenario (`scenario_from`, one pod per observed pod)
//! with the evidence's downtime (`observed_downtime_s`). Called by `explain` (its re-exports: the CLI's `replay`, the
//! evidence tests) and by `observed` (`observed_pods`). Mirrors no Kubernetes file.

use super::restarts::{reboot_downtime_s, OtherRestart};
use super::versions::{evidence_version, SeenVersion};
use crate::types::{Obs, What};
use restartscope_sim::{
    presets, Health, KubeVersion, KubeletProfile, Policy, Probe, Scenario, Truth,
};
use std::collections::HashSet;

/// A known bug: the report, what it is, where it is fixed.
#[derive(Clone, Copy, Debug)]
pub struct Bug {
    pub preset: &'static str,
    pub issue: &'static str,
    pub policy: Policy,
    pub fixed_in: &'static str,
    /// The first release line whose kubelet (of the bug's policy) no longer has it; `None`: not
    /// fixed for that kubelet (the legacy kubelet keeps its restart behaviour; #142305 is open).
    pub fixed: Option<KubeVersion>,
}

pub const BUGS: [Bug; 7] = [
    Bug {
        preset: "report-113646-flap",
        issue: "kubernetes#113646",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781, the default kubelet; the gate ChangeContainerStatusOnKubeletRestart=true keeps the legacy behaviour)",
        fixed: None,
    },
    Bug {
        preset: "report-125397-startup-rerun",
        issue: "kubernetes#125397",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781 keeps Started; the legacy kubelet behind ChangeContainerStatusOnKubeletRestart=true still reruns the startup probe)",
        fixed: None,
    },
    Bug {
        preset: "report-135795-notready-flip",
        issue: "kubernetes#135795",
        policy: Policy::Legacy,
        fixed_in: "1.35 (KEP-4781 keeps the pod NotReady; the legacy kubelet behind ChangeContainerStatusOnKubeletRestart=true still flips it)",
        fixed: None,
    },
    Bug {
        preset: "report-136910-sidecar-startup",
        issue: "kubernetes#136910",
        policy: Policy::Kep,
        fixed_in: "1.35.4 (#137885) and 1.36.0 (#137146)",
        fixed: Some(KubeVersion::V1_35_4),
    },
    Bug {
        preset: "report-141155-started-by-name",
        issue: "kubernetes#141155",
        policy: Policy::Kep,
        fixed_in: "1.38 / main (#141342); cherry-picks to 1.35–1.37 open",
        fixed: Some(KubeVersion::V1_38),
    },
    Bug {
        preset: "report-142305-started-early",
        issue: "kubernetes#142305",
        policy: Policy::Kep,
        fixed_in: "not fixed (open; PR #142303 proposed)",
        fixed: None,
    },
    Bug {
        preset: "report-141473-replaced-during-partition",
        issue: "kubernetes#141473",
        policy: Policy::Kep,
        fixed_in: "1.38 / main (#141487); cherry-picks to 1.35–1.37 open",
        fixed: Some(KubeVersion::V1_38),
    },
];

/// One model run to compare with the evidence.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub scenario: Scenario,
    pub profile: KubeletProfile,
    pub bug: Option<Bug>,
    /// A restart other than the kubelet's (scored on its own signature, not on Ready).
    pub restart: Option<OtherRestart>,
}

impl Candidate {
    pub fn name(&self) -> String {
        match (self.bug, self.restart) {
            (Some(b), _) => format!("{} · {}", b.preset, self.profile.long_label()),
            // The restart's run: its preset, or the evidence's upgrade (`upgrade-1.34-to-1.35`).
            (None, Some(_)) => format!("{} · {}", self.scenario.name, self.profile.long_label()),
            (None, None) => self.profile.long_label(),
        }
    }
}

/// The kubelet's downtime the evidence shows, in seconds: a systemd stop followed by a start,
/// else the longest gap between lease renewals less one renew interval (10 s) when it is over
/// 15 s.
pub fn observed_downtime_s(obs: &[Obs]) -> Option<f64> {
    let stop = obs.iter().find(|o| o.what == What::KubeletStopped);
    if let Some(stop) = stop {
        if let Some(start) = obs
            .iter()
            .find(|o| o.what == What::KubeletStarted && o.t_ms > stop.t_ms && o.file == stop.file)
        {
            return Some((start.t_ms - stop.t_ms) as f64 / 1000.0);
        }
    }
    let mut leases: Vec<i64> = obs
        .iter()
        .filter(|o| o.what == What::LeaseRenewed)
        .map(|o| o.t_ms)
        .collect();
    leases.sort_unstable();
    let gap = leases.windows(2).map(|w| w[1] - w[0]).max()?;
    (gap > 15_000).then(|| (gap - 10_000) as f64 / 1000.0)
}

/// The pods the evidence names, in order of first appearance.
pub fn observed_pods(obs: &[Obs]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for o in obs {
        if let Some(p) = &o.pod {
            if seen.insert(p) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// A pod name the model accepts (a lowercase RFC 1123 subdomain): `(unnamed pod)` →
/// `unnamed-pod`. Real pod names pass unchanged.
fn model_name(n: &str) -> String {
    let s: String = n
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let s = s
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string();
    if s.is_empty() {
        "pod-0".into()
    } else {
        s
    }
}

/// A scenario made from the evidence alone: one pod per observed pod, one container with the
/// default readiness probe, failing readiness from the start when first seen NotReady; the
/// kubelet restarted at 60 s for the observed downtime (else 10 s).
pub fn scenario_from(obs: &[Obs]) -> Scenario {
    let mut sc = presets::short_restart();
    sc.name = "evidence".into();
    sc.description = "A scenario made from the evidence's pods".into();
    let proto = sc.pods[0].clone();
    let names = observed_pods(obs);
    let names = if names.is_empty() {
        vec!["pod-0".to_string()]
    } else {
        names
    };
    sc.pods = names
        .iter()
        .take(110)
        .map(|n| {
            let mut p = proto.clone();
            p.name = model_name(n);
            p.containers[0].readiness_probe = Some(Probe::default());
            let not_ready = obs
                .iter()
                .any(|o| o.pod.as_deref() == Some(n) && o.what == What::ReadyAtStart(false));
            if not_ready {
                p.containers[0].truth = vec![Truth {
                    at_s: 0.0,
                    state: Health::FailingReadiness,
                }];
            }
            p
        })
        .collect();
    let down = observed_downtime_s(obs).unwrap_or(10.0);
    // At 60 s: a pod failing readiness has been marked NotReady by then (3 × 10 s).
    sc.kubelet.restarts[0].at_s = 60.0;
    sc.kubelet.restarts[0].downtime_s = down;
    sc.horizon_s = 60.0 + down + 170.0;
    sc
}

/// Every candidate: the release profiles on `base` (or on `scenario_from(obs)`), restricted to
/// `version` when given, and every real-bug preset: a legacy-kubelet bug on the kubelet's release
/// when `version` or the evidence names it, else (and a KEP-4781 bug always) on its own.
pub fn candidates(
    obs: &[Obs],
    base: Option<&Scenario>,
    version: Option<KubeVersion>,
) -> Vec<Candidate> {
    let down = observed_downtime_s(obs);
    let mut base = base.cloned().unwrap_or_else(|| scenario_from(obs));
    if let (Some(d), Some(r)) = (down, base.kubelet.restarts.first_mut()) {
        r.downtime_s = d;
        base.horizon_s = base.horizon_s.max(r.at_s + d + 170.0);
    }
    let versions: Vec<KubeVersion> = match version {
        Some(v) => vec![v],
        None => KubeVersion::ALL.to_vec(),
    };
    // The kubelet's release: the one given, else the evidence's (older than 1.31: 1.31's).
    let known = version.or_else(|| match evidence_version(obs)?.1 {
        SeenVersion::Known(v) => Some(v),
        SeenVersion::Older => Some(KubeVersion::V1_31),
    });
    let mut out = Vec::new();
    for b in BUGS {
        let Some(p) = presets::find(b.preset) else {
            continue;
        };
        let mut sc = (p.build)();
        if let (Some(d), Some(r)) = (down, sc.kubelet.restarts.first_mut()) {
            r.downtime_s = d;
            sc.horizon_s = sc.horizon_s.max(r.at_s + d + 170.0);
        }
        // A legacy-kubelet bug runs on the kubelet's own release when it is known (every release
        // has the legacy kubelet); a KEP-4781 bug on the release its preset names.
        if let (Policy::Legacy, Some(v)) = (b.policy, known) {
            sc.cluster.version = v;
        }
        let Ok(profile) = KubeletProfile::new(sc.cluster.version, b.policy) else {
            continue;
        };
        out.push(Candidate {
            scenario: sc,
            profile,
            bug: Some(b),
            restart: None,
        });
    }
    // The other restarts: each its preset, on its own release (the upgrade from 1.30), with the
    // evidence's downtime (a reboot's: from the node's NotReady to the kubelet's start).
    for r in OtherRestart::ALL {
        let Some(p) = presets::find(r.preset()) else {
            continue;
        };
        let mut sc = (p.build)();
        // An upgrade: the evidence's own (from → to) where the model knows both releases, else
        // the nearest it has (the answer says which and why); on the lane the new release runs
        // by default (KEP-4781 from 1.35: the old kubelet, without that code, runs as legacy).
        let upgrade = match r {
            OtherRestart::Upgrade => super::upgrade::run(obs),
            _ => None,
        };
        if let Some(u) = &upgrade {
            sc.name = u.name();
            if u.nearest.is_none() {
                sc.description = format!(
                    "An in-place kubelet upgrade from {} to {}, as the evidence shows",
                    u.from.as_str(),
                    u.to.as_str()
                );
            }
            sc.cluster.version = u.from;
            sc.kubelet.policy = if u.to.has_kep_4781() {
                Policy::Kep
            } else {
                Policy::Legacy
            };
            if let Some(x) = sc.kubelet.restarts.first_mut() {
                x.upgrade_to = Some(u.to);
            }
        }
        let d = match r {
            OtherRestart::Node => down.or_else(|| reboot_downtime_s(obs)),
            _ => down,
        };
        if let (Some(d), Some(x)) = (d.filter(|d| *d > 0.0), sc.kubelet.restarts.first_mut()) {
            x.downtime_s = d;
            sc.horizon_s = sc.horizon_s.max(x.at_s + d + 170.0);
        }
        let profile = match upgrade {
            Some(_) => KubeletProfile::for_policy(sc.cluster.version, sc.kubelet.policy),
            None => match KubeletProfile::new(sc.cluster.version, sc.kubelet.policy) {
                Ok(p) => p,
                Err(_) => continue,
            },
        };
        out.push(Candidate {
            scenario: sc,
            profile,
            bug: None,
            restart: Some(r),
        });
    }
    for v in versions {
        let mut sc = base.clone();
        sc.cluster.version = v;
        for profile in KubeletProfile::defaults(v) {
            out.push(Candidate {
                scenario: sc.clone(),
                profile,
                bug: None,
                restart: None,
            });
        }
    }
    out
}
