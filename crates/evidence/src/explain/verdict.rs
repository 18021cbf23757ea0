//! One candidate's verdict: its score and why. A leaf of `explain`, shared by the ranking
//! (`explain/mod.rs`) and the answer (`answer.rs`). Mirrors no Kubernetes file.

use serde::Serialize;

/// A candidate's score and why.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// `report-113646-flap · 1.35 · ChangeContainerStatusOnKubeletRestart=true (legacy)` or a
    /// release's kubelet label.
    pub candidate: String,
    pub kubelet: String,
    pub preset: Option<String>,
    pub known_bug: Option<String>,
    pub fixed_in: Option<String>,
    /// A restart other than the kubelet's (its run: `node-reboot`, `runtime-restart`,
    /// `upgrade-1.30-to-1.31` or the evidence's upgrade, `upgrade-1.34.2-to-1.35`), scored on its
    /// signature alone.
    pub restart: Option<String>,
    /// 0–100.
    pub score: f64,
    pub why: Vec<String>,
}
