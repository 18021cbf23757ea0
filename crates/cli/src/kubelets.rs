//! `--kubelets LIST`: the kubelet profiles `simulate` compares on one clock. Called by `main.rs`.

use super::UserError;
use restartscope_sim::{KubeVersion, KubeletProfile, Policy};

/// `--kubelets 1.34,1.35:kep,main:kep,1.38+csp`: each `VERSION[:legacy|kep]`; a version alone
/// is that release's default kubelet (legacy before 1.35, KEP-4781 from 1.35: the gate defaults
/// off). `VERSION+csp` (1.38 or main) is the ContainerScopedProbes proposal, unmerged PR #140704
/// as modelled (`KubeletProfile::csp`).
pub(crate) fn parse_kubelets(value: &str) -> Result<Vec<KubeletProfile>, UserError> {
    let mut out = Vec::new();
    for item in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(v) = item.strip_suffix("+csp") {
            let version = KubeVersion::parse_or_explain(v)
                .map_err(|e| format!("invalid --kubelets item {item:?}: {e}"))?;
            out.push(
                KubeletProfile::csp_on(version)
                    .map_err(|m| format!("invalid --kubelets item {item:?}: {m}"))?,
            );
            continue;
        }
        let (v, p) = match item.split_once(':') {
            Some((v, p)) => (v, Some(p)),
            None => (item, None),
        };
        let version = KubeVersion::parse_or_explain(v)
            .map_err(|e| format!("invalid --kubelets item {item:?}: {e}"))?;
        let policy = match p {
            None if version.has_kep_4781() => Policy::Kep,
            None | Some("legacy") => Policy::Legacy,
            Some("kep") => Policy::Kep,
            Some(x) => {
                return Err(format!(
                    "invalid --kubelets item {item:?}: policy {x:?}; accepted: legacy, kep"
                )
                .into())
            }
        };
        out.push(
            KubeletProfile::new(version, policy)
                .map_err(|m| format!("invalid --kubelets item {item:?}: {m}"))?,
        );
    }
    if out.is_empty() || out.len() > 4 {
        return Err(
            "--kubelets takes 1 to 4 comma-separated VERSION[:legacy|kep] or VERSION+csp, e.g. 1.34,1.35:kep,1.38+csp"
                .into(),
        );
    }
    Ok(out)
}
