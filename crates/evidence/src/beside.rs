//! The evidence beside the model: the best-ranked candidate's run and the other
//! kubelet of its release on the same scenario (legacy and KEP-4781 from 1.35; one run
//! before), the evidence's clock aligned on the first run (`observed::align`), the observed
//! lanes and, per pod, the differences in words. Called by the CLI's `replay` (table, JSON,
//! `-o svg`) and the app's importer worker (`crates/import-web`), which draw and list the same.
//! Mirrors no Kubernetes file.

use crate::explain::{Candidate, Verdict};
use crate::observed::{align, differences, lanes, Alignment, Lane, PodDifferences, Run};
use crate::types::{Evidence, Obs};
use restartscope_sim::{simulate_profile, KubeletProfile, Policy, Scenario, Trace};

/// The evidence beside the model: the runs drawn (the best-ranked candidate's, then the other
/// kubelet of its release on the same scenario, when the release has one), the clocks aligned on
/// the first run, the observed lanes and the differences.
pub struct Beside {
    /// The candidate's scenario (its release set), which the runs simulate.
    pub scenario: Scenario,
    pub traces: Vec<Trace>,
    pub names: Vec<String>,
    pub alignment: Alignment,
    pub lanes: Vec<Lane>,
    pub differences: Vec<PodDifferences>,
}

pub fn beside(
    files: &[Evidence],
    obs: &[Obs],
    cands: &[Candidate],
    verdicts: &[Verdict],
) -> Option<Beside> {
    let top = verdicts.first()?;
    let c = cands.iter().find(|c| c.name() == top.candidate)?;
    let first = simulate_profile(&c.scenario, &c.profile).ok()?;
    let other = match c.profile.policy() {
        Policy::Legacy => Policy::Kep,
        Policy::Kep => Policy::Legacy,
    };
    let second = KubeletProfile::new(c.profile.version, other)
        .ok()
        .and_then(|p| simulate_profile(&c.scenario, &p).ok());
    let preset = c
        .bug
        .map(|b| b.preset)
        .or(c.restart.map(|_| c.scenario.name.as_str()));
    let mut traces = vec![first];
    traces.extend(second);
    let alignment = align(files, &traces[0]);
    let lanes = lanes(obs, &alignment, &traces[0]);
    let runs: Vec<Run> = traces
        .iter()
        .enumerate()
        .map(|(i, t)| Run::named(t, if i == 0 { preset } else { None }))
        .collect();
    let differences = differences(&lanes, &runs, obs, &alignment);
    let names = runs.iter().map(|r| r.name.clone()).collect();
    let mut scenario = c.scenario.clone();
    scenario.cluster.version = c.profile.version;
    Some(Beside {
        scenario,
        names,
        alignment,
        lanes,
        differences,
        traces,
    })
}

impl Beside {
    /// The differences as lines, per pod: a heading line (the pod, the tolerance), then one
    /// indented line per difference. The CLI's table prints them; the app lists them.
    pub fn pod_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for p in &self.differences {
            out.push(match p.tolerance_s {
                Some(t) => format!("{} (times compared within ±{t:.1} s):", p.pod),
                None => format!("{}:", p.pod),
            });
            if p.items.is_empty() {
                out.push(
                    "  - no Ready change observed or modelled in the observed window".to_string(),
                );
            }
            for d in &p.items {
                out.push(format!("  - {}", d.text));
            }
        }
        out
    }

    /// Per run, how many observed Ready changes it writes within the tolerance.
    pub fn summary(&self) -> String {
        let changes: Vec<_> = self
            .differences
            .iter()
            .flat_map(|p| &p.items)
            .filter(|d| d.kind == "observed_change")
            .collect();
        if changes.is_empty() {
            return "No observed Ready change to compare with the model's.".into();
        }
        let parts: Vec<String> = self
            .names
            .iter()
            .map(|n| {
                let m = changes
                    .iter()
                    .filter(|d| d.runs.iter().any(|r| &r.run == n && r.matches))
                    .count();
                format!(
                    "{n} writes {m} of the {} observed Ready change{} of its pods",
                    changes.len(),
                    if changes.len() == 1 { "" } else { "s" }
                )
            })
            .collect();
        let mut s = format!("{}.", parts.join("; "));
        if let Some(c) = s.get(..1) {
            s = c.to_uppercase() + &s[1..];
        }
        let missing: Vec<&str> = self
            .differences
            .iter()
            .filter(|p| !p.in_model && p.compared_with.is_none())
            .map(|p| p.pod.as_str())
            .collect();
        if !missing.is_empty() {
            s.push_str(&format!(" Not in the model: {}.", missing.join(", ")));
        }
        let paired: Vec<String> = self
            .lanes
            .iter()
            .filter_map(|l| {
                let m = l.model_pod.as_deref()?;
                (m != l.pod).then(|| format!("{} beside {m}", l.pod))
            })
            .collect();
        if !paired.is_empty() {
            s.push_str(&format!(
                " No pod of the same name in the model, compared with the best-matching one: {}.",
                paired.join(", ")
            ));
        }
        s
    }
}
