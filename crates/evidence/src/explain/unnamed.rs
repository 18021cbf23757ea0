//! Why no other restart is named when the evidence shows something of one: the best restart's
//! score under `NAMED_AT` and what it rests on, and the signs that are every restart's or none's
//! (one boot id, restart counts without the moment they restarted). "No known
//! restart kind explains this", with its reason, rather than a guess. Called by `answer`. The
//! signs a reboot needs are the kubelet's: the `Rebooted` event when the boot id it recorded
//! changes (`kubelet_node_status.go`), a new sandbox for every pod (`SandboxChanged`,
//! `computePodActions`), and kubectl's RESTARTS `1 (5m ago)` (printPod's last restart time).

use super::restarts::{OtherRestart, NAMED_AT};
use super::verdict::Verdict;
use crate::types::{Obs, What};

/// The reason, or `None` when the evidence shows nothing of another restart.
pub fn why_none(obs: &[Obs], ranked: &[Verdict]) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let best = ranked
        .iter()
        .filter(|v| v.restart.is_some() && v.score > 0.0)
        .max_by(|a, b| a.score.total_cmp(&b.score));
    if let Some(v) = best {
        let what = OtherRestart::of_verdict(v).map_or("?", |k| k.what());
        parts.push(format!(
            "the best, {what}, scores {:.0} of 100 on its own signature (named from {NAMED_AT:.0}): {}",
            v.score,
            v.why.join("; ")
        ));
    }
    let has = |f: &dyn Fn(&What) -> bool| obs.iter().find(|o| f(&o.what));
    let boots: Vec<&Obs> = obs
        .iter()
        .filter(|o| matches!(o.what, What::BootId(_)))
        .collect();
    if let (Some(b), None) = (boots.first(), has(&|w| matches!(w, What::NodeRebooted(_)))) {
        if boots.iter().all(|o| o.what == b.what) {
            parts.push(format!("one boot id (line {}) names no reboot: a reboot shows as the kubelet's Rebooted event or a second, different boot id of the node", b.line));
        }
    }
    // Several pods' (a reboot restarts every pod of the node; one pod's count is its own).
    let counted: Vec<&Obs> = obs
        .iter()
        .filter(|o| matches!(o.what, What::RestartCount(n) if n > 0))
        .collect();
    let mut pods: Vec<Option<&str>> = Vec::new();
    for o in &counted {
        if !pods.contains(&o.pod.as_deref()) {
            pods.push(o.pod.as_deref());
        }
    }
    let several = pods.len() > 1;
    if let (Some(o), None, true) = (
        counted.iter().min_by_key(|o| o.line),
        has(&|w| matches!(w, What::RestartedTogether { .. })),
        several,
    ) {
        parts.push(format!(
            "restart counts ({} pods, from line {}) say how often containers restarted, not that they restarted together: a reboot shows as every pod of the node restarting at one moment (RESTARTS `1 (5m ago)` alike in one printing)",
            pods.len(),
            o.line
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "no known restart kind explains this either — {}",
            parts.join("; ")
        )
    })
}
