//! An in-place kubelet upgrade as the evidence shows it: every node whose kubelet is seen at two
//! versions (printings of `kubectl get nodes`, a Node's `kubeletVersion`, the kubelet's "Kubelet
//! version" line), the answer's sentence about the containers, and the model run drawn beside.
//!
//! The kubelet restarts at every upgrade; its containers restart too only where the new kubelet
//! hashes a container differently from the one that started it (`kuberuntime_manager.go`
//! `computePodActions`: "Container … definition changed, will be restarted"). The model knows
//! that for its own releases only (`KubeVersion::upgrade_changes_hash`, 1.30 to main): beside an
//! upgrade it knows, the run is that upgrade; beside one outside its releases, the nearest run
//! it has, and the answer says it cannot tell from those releases' code. Called by `restarts`
//! (the signature, the headline) and `candidates` (the run).

use super::versions::{seen_version, SeenVersion};
use crate::types::{Obs, What};
use restartscope_sim::KubeVersion;

fn version(o: &Obs) -> &str {
    match &o.what {
        What::KubeletVersion(v) => v,
        _ => "?",
    }
}

/// (major, minor, patch) of a printed version: `v1.34.2`, `v1.31.0-eks-a5565ad`, `v1.36.2+k3s1`.
fn numbers(v: &str) -> Option<(u32, u32, u32)> {
    let core = v.trim().trim_start_matches('v');
    let mut it = core.split('.').map(|p| {
        let digits = p.bytes().take_while(u8::is_ascii_digit).count();
        p[..digits].parse::<u32>().ok()
    });
    Some((it.next()??, it.next()??, it.next().flatten().unwrap_or(0)))
}

/// Whether the kubelet went to an older release (a rollback), by the printed versions.
fn went_down(a: &Obs, b: &Obs) -> bool {
    matches!((numbers(version(a)), numbers(version(b))), (Some(x), Some(y)) if y < x)
}

/// Each node whose kubelet is seen at two versions: its first and the last that differs, in
/// the order the evidence shows the new versions.
pub fn changes(obs: &[Obs]) -> Vec<(&Obs, &Obs)> {
    // Each node's first version, and its last later one that differs: one pass (a cluster's
    // `get nodes -w` has thousands of rows).
    // (Node → index: the same map type as `nodes_table`'s, one copy of its code in the wasm.)
    let mut index: std::collections::BTreeMap<&str, usize> = Default::default();
    let mut by_node: Vec<(&Obs, Option<&Obs>)> = Vec::new();
    for o in obs {
        let (What::KubeletVersion(v), Some(n)) = (&o.what, o.node.as_deref()) else {
            continue;
        };
        let i = *index.entry(n).or_insert(by_node.len());
        if i == by_node.len() {
            by_node.push((o, None));
        }
        let e = &mut by_node[i];
        if matches!(&e.0.what, What::KubeletVersion(x) if x != v) {
            e.1 = Some(o);
        }
    }
    let mut out: Vec<(&Obs, &Obs)> = Vec::new();
    for (a, b) in by_node {
        let Some(b) = b else { continue };
        // In the order the new versions show, the first node's first among equals (no sort: its
        // code weighs on the importer's wasm).
        let at = out
            .iter()
            .position(|(x, y)| (y.file, y.line, x.line) > (b.file, b.line, a.line))
            .unwrap_or(out.len());
        out.insert(at, (a, b));
    }
    out
}

/// One upgraded node in words: "node n1's kubelet went from v1.34.2 (line 2) to v1.35.0 (line 4)".
fn node_went(a: &Obs, b: &Obs) -> String {
    format!(
        "{}'s kubelet went from {} (line {}) to {} (line {})",
        crate::types::node_words(b.node.as_deref()),
        version(a),
        a.line,
        version(b),
        b.line
    )
}

/// The reasons' line for each upgraded node; `score` on the first.
pub fn why(obs: &[Obs], score: f64) -> Vec<String> {
    let mut out = Vec::new();
    for (a, b) in changes(obs) {
        let s = if out.is_empty() {
            format!(" (+{score})")
        } else {
            String::new()
        };
        let how = if went_down(a, b) {
            "downgraded"
        } else {
            "upgraded"
        };
        out.push(format!(
            "{}: {how} in place, so it restarted{s}",
            node_went(a, b)
        ));
    }
    out
}

/// The model's run beside an upgrade: its releases, and why they are not the evidence's when
/// the evidence's are outside the model's (the nearest run it has).
pub struct Run {
    pub from: KubeVersion,
    pub to: KubeVersion,
    pub nearest: Option<String>,
}

impl Run {
    /// The run's name, as a preset is named (`upgrade-1.30-to-1.31`).
    pub fn name(&self) -> String {
        format!("upgrade-{}-to-{}", self.from.as_str(), self.to.as_str())
    }
}

fn known(v: &str) -> Option<KubeVersion> {
    match seen_version(v)? {
        SeenVersion::Known(k) => Some(k),
        SeenVersion::Older => None,
    }
}

/// The run for the first upgraded node's versions: that upgrade where the model knows both
/// releases (the newer one later); a downgrade between two it knows, the same releases the
/// other way (its containers fare alike: the hash differs either way or neither); else the
/// nearest (from 1.30, the model's oldest release).
pub fn run(obs: &[Obs]) -> Option<Run> {
    let (a, b) = *changes(obs).first()?;
    let (va, vb) = (version(a), version(b));
    let oldest = KubeVersion::V1_30.as_str();
    Some(match (known(va), known(vb)) {
        (Some(from), Some(to)) if to > from => Run {
            from,
            to,
            nearest: None,
        },
        (Some(from), Some(to)) if to == from => Run {
            from,
            to,
            nearest: Some(SAME.to_string()),
        },
        (Some(from), Some(to)) if to < from => Run {
            from: to,
            to: from,
            nearest: Some(DOWN.to_string()),
        },
        (None, Some(to)) if to > KubeVersion::V1_30 => Run {
            from: KubeVersion::V1_30,
            to,
            nearest: Some(format!("its oldest release is {oldest}")),
        },
        (None, None) => Run {
            from: KubeVersion::V1_30,
            to: KubeVersion::V1_31,
            nearest: Some(format!("its releases begin at {oldest}")),
        },
        _ => Run {
            from: KubeVersion::V1_30,
            to: KubeVersion::V1_31,
            nearest: Some(format!(
                "its release table has no upgrade from {va} to {vb}"
            )),
        },
    })
}

/// Why a downgrade's run is the upgrade between the same two releases.
const DOWN: &str = "the model runs upgrades only: the same two releases the other way, where the containers fare as in this downgrade";

/// Why two patches of one minor are drawn as one release restarted.
const SAME: &str =
    "the model has one release of that minor: the kubelet restarted on the same release";

/// The answer's headline: every upgraded node with its versions and lines, then what is known
/// of their containers and which run is drawn beside; `None` without a version change.
pub fn headline(obs: &[Obs]) -> Option<String> {
    let ch = changes(obs);
    let r = run(obs)?;
    let (a, b) = (version(ch[0].0), version(ch[0].1));
    let nodes: Vec<String> = ch.iter().map(|(x, y)| node_went(x, y)).collect();
    let (them, each) = if ch.len() == 1 {
        ("its", "it")
    } else {
        ("their", "each")
    };
    let downs = ch.iter().filter(|(x, y)| went_down(x, y)).count();
    let what = match downs {
        0 => "upgrade",
        n if n == ch.len() => "downgrade",
        _ => "upgrade and downgrade",
    };
    let mut s = format!(
        "An in-place kubelet {what} explains this: {}, so {each} restarted — expected, not a bug.",
        nodes.join(", and ")
    );
    if r.nearest.as_deref() == Some(SAME) {
        s.push_str(&format!(
            " From {a} to {b}, the containers keep running: the patches of one minor hash a container alike, so only the kubelet restarts. Drawn beside: {} ({SAME}).",
            r.name()
        ));
        return Some(s);
    }
    if r.nearest.as_deref() == Some(DOWN) {
        let does = if r.from.upgrade_changes_hash(r.to) {
            format!("every container restarts too: the {b} kubelet hashes a container otherwise than the {a} one (from 1.31 its name and image only, PR #124220; before, its whole spec), so it restarts each at its first SyncPod — drain the node before a rollback across 1.31")
        } else {
            "the containers keep running: every kubelet from 1.31 on hashes a container alike, so only the kubelet restarts".to_string()
        };
        s.push_str(&format!(
            " From {a} to {b}, {does}. Drawn beside: {} ({DOWN}).",
            r.name()
        ));
        return Some(s);
    }
    let does = if r.from.upgrade_changes_hash(r.to) {
        "every container restarts too: the 1.31 hash (name and image only, PR #124220) differs from 1.30's, so the new kubelet restarts each at its first SyncPod (rule U1) — drain the node before a minor upgrade"
    } else {
        "the containers keep running: every kubelet from 1.31 on hashes a container alike, so only the kubelet restarts"
    };
    match &r.nearest {
        None => s.push_str(&format!(
            " In the model's upgrade from {} to {}, drawn beside, {does}.",
            r.from.as_str(),
            r.to.as_str()
        )),
        Some(why) => {
            let outside: Vec<&str> = [a, b].into_iter().filter(|v| known(v).is_none()).collect();
            let cannot = if outside.is_empty() {
                "the model has no run of that upgrade".to_string()
            } else {
                format!(
                    "the model's kubelets run from {} to main, so it cannot say from {}'s code",
                    KubeVersion::V1_30.as_str(),
                    outside.join("'s or ")
                )
            };
            let there = if r.from.upgrade_changes_hash(r.to) {
                "every container restarts across the 1.31 hash change"
            } else {
                "the containers keep running"
            };
            s.push_str(&format!(
                " Whether {them} containers restarted too depends on whether the {b} kubelet hashes a container as the {a} one did (if not, it restarts each: \"definition changed, will be restarted\"); {cannot}. Drawn beside: the nearest run it has, {} ({why}), where {there}.",
                r.name(),
            ));
        }
    }
    Some(s)
}
