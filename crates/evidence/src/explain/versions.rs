//! The kubelet's release as the evidence names it (a Node's `kubeletVersion`, the kubelet's
//! `"Kubelet version"` line, or `--kubernetes-version`), mapped onto the model's release lines.
//! Called by `explain_for` (the release penalty) and `candidates` (the release a legacy-kubelet
//! bug runs on). Mirrors no Kubernetes file.

use crate::types::{Obs, What};
use restartscope_sim::KubeVersion;

/// The kubelet's release as the evidence names it: `v1.34.3`, `v1.36.2+k3s1`, `v1.35.0-eks-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeenVersion {
    /// A release the model knows.
    Known(KubeVersion),
    /// Older than 1.31 (the model's oldest line): a legacy kubelet, like 1.31's.
    Older,
}

/// Parses a kubelet version (`v1.25.3` is `Older`; a minor newer than the model knows is
/// `None`).
pub fn seen_version(s: &str) -> Option<SeenVersion> {
    let core = s.trim().split(['+', '-']).next().unwrap_or("");
    if let Some(v) = KubeVersion::parse(core) {
        return Some(SeenVersion::Known(v));
    }
    let t = core.strip_prefix('v').unwrap_or(core);
    let mut it = t.split('.');
    let (major, minor) = (
        it.next()?.parse::<u32>().ok()?,
        it.next()?.parse::<u32>().ok()?,
    );
    if major == 1 && minor < 31 {
        return Some(SeenVersion::Older);
    }
    // A patch release the table does not list: its minor's line.
    KubeVersion::parse(&format!("1.{minor}")).map(SeenVersion::Known)
}

/// The kubelet version the evidence states (the last `KubeletVersion` observation).
pub fn evidence_version(obs: &[Obs]) -> Option<(String, SeenVersion)> {
    obs.iter().rev().find_map(|o| match &o.what {
        What::KubeletVersion(v) => seen_version(v).map(|x| (v.clone(), x)),
        _ => None,
    })
}
