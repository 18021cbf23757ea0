//! Kubernetes releases as they ship: every release the model knows (each patch release with its
//! date), the kubelet profile line it runs, and what each minor's feature gate does. Read by
//! `KubeVersion` (which release a scenario names), `profile.rs` (its rules) and `restartscope
//! versions`. A leaf: no other module of the model is read here.
//!
//! Sources (docs/research/patch-releases.md, versions.md): release dates from kubernetes.io's
//! release pages and `data/releases/schedule.yaml`, git tags (endoflife-date release data);
//! backports from `CHANGELOG/CHANGELOG-1.3x.md`. A release whose date is only scheduled, or whose
//! content could not be read, is marked `released: false` and says so in its note.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The kubelet profile lines: releases whose restart path runs the same code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Line {
    /// No KEP-4781 code; grace 40 s; the container hash covers the whole container spec (PR
    /// #124220 changed it in 1.31) and the kubelet posts node Ready=False at start until its first
    /// runtime check (#124397, fixed by #124430 in 1.31).
    L1_30,
    /// No KEP-4781 code; `--node-monitor-grace-period` 40 s.
    L1_31,
    /// No KEP-4781 code; grace 50 s (#126287, v1.32.0): 1.32, 1.33 and 1.34.
    L1_34,
    /// KEP-4781 (#134746, v1.35.0).
    L1_35,
    /// + the sidecar startup seed (#137885, v1.35.4).
    L1_35_4,
    /// As 1.35.4 (#137146, v1.36.0).
    L1_36,
    /// As 1.36, and an exited regular container of the current sandbox initializes the pod
    /// (K3i after #138514, v1.37.0; both lanes).
    L1_37,
    /// + Started and Ready inherited only for the same container ID (#141342, #141487).
    L1_38,
    /// kubernetes/kubernetes main as read (v1.38.0-alpha.2).
    Main,
}

/// One release.
#[derive(Debug)]
pub struct Release {
    /// `1.36.4`; an x.y.0 release is named `x.y` (`1.36`), as the model always named it.
    pub name: &'static str,
    /// Release date (YYYY-MM-DD; for a release not known to have shipped, the scheduled one).
    pub date: &'static str,
    pub line: Line,
    /// Known to have shipped (stored release notes or release pages say so).
    pub released: bool,
    /// What this release carries on the paths the model follows, or why it is marked.
    pub note: &'static str,
}

const fn r(
    name: &'static str,
    date: &'static str,
    line: Line,
    released: bool,
    note: &'static str,
) -> Release {
    Release {
        name,
        date,
        line,
        released,
        note,
    }
}

use Line::*;

/// Every release the model knows, oldest first; `main` last.
pub const RELEASES: [Release; 77] = [
    r("1.30", "2024-04-17", L1_30, true, "the 1.30 line as far as the restarts modelled: start-up NotReady (#124397) and the container hash of the whole spec (in-place upgrade to 1.31 restarts every container, PR #124220); its patch releases are not listed separately"),
    r("1.31", "2024-08-13", L1_31, true, ""),
    r("1.31.1", "2024-09-11", L1_31, true, "init-container fixes #127202/#127212 merged to release-1.31 before it (patch not verified; not on the restart path modelled)"),
    r("1.31.2", "2024-10-22", L1_31, true, ""),
    r("1.31.3", "2024-11-19", L1_31, true, ""),
    r("1.31.4", "2024-12-10", L1_31, true, ""),
    r("1.31.5", "2025-01-15", L1_31, true, ""),
    r("1.31.6", "2025-02-12", L1_31, true, ""),
    r("1.31.7", "2025-03-11", L1_31, true, ""),
    r("1.31.8", "2025-04-22", L1_31, true, ""),
    r("1.31.9", "2025-05-15", L1_31, true, ""),
    r("1.31.10", "2025-06-17", L1_31, true, ""),
    r("1.31.11", "2025-07-15", L1_31, true, ""),
    r("1.31.12", "2025-08-13", L1_31, true, ""),
    r("1.31.13", "2025-09-09", L1_31, true, ""),
    r("1.31.14", "2025-11-11", L1_31, true, "final 1.31 patch"),
    r("1.32", "2024-12-11", L1_34, true, "1.32 regression #130356 (fixed in 1.32.3): the node may fail to report status after a kubelet restart; not modelled, this profile posts node status as later patches do"),
    r("1.32.1", "2025-01-15", L1_34, true, "1.32 regression #130356 (fixed in 1.32.3): the node may fail to report status after a kubelet restart; not modelled, this profile posts node status as later patches do"),
    r("1.32.2", "2025-02-12", L1_34, true, "1.32 regression #130356 (fixed in 1.32.3): the node may fail to report status after a kubelet restart; not modelled, this profile posts node status as later patches do"),
    r("1.32.3", "2025-03-11", L1_34, true, "#130356: node status after a kubelet restart fixed"),
    r("1.32.4", "2025-04-22", L1_34, true, "#130684: a kubelet restart no longer unmounts volumes of running pods whose PVC is being deleted (not modelled)"),
    r("1.32.5", "2025-05-15", L1_34, true, ""),
    r("1.32.6", "2025-06-17", L1_34, true, ""),
    r("1.32.7", "2025-07-15", L1_34, true, ""),
    r("1.32.8", "2025-08-13", L1_34, true, ""),
    r("1.32.9", "2025-09-09", L1_34, true, ""),
    r("1.32.10", "2025-11-11", L1_34, true, ""),
    r("1.32.11", "2025-12-16", L1_34, true, ""),
    r("1.32.12", "2026-02-10", L1_34, true, ""),
    r("1.32.13", "2026-02-26", L1_34, true, "last 1.32 patch found"),
    r("1.33", "2025-04-23", L1_34, true, ""),
    r("1.33.1", "2025-05-15", L1_34, true, ""),
    r("1.33.2", "2025-06-17", L1_34, true, ""),
    r("1.33.3", "2025-07-15", L1_34, true, ""),
    r("1.33.4", "2025-08-12", L1_34, true, ""),
    r("1.33.5", "2025-09-09", L1_34, true, ""),
    r("1.33.6", "2025-11-11", L1_34, true, ""),
    r("1.33.7", "2025-12-09", L1_34, true, ""),
    r("1.33.8", "2026-02-10", L1_34, true, ""),
    r("1.33.9", "2026-02-26", L1_34, true, ""),
    r("1.33.10", "2026-03-19", L1_34, true, ""),
    r("1.33.11", "2026-04-14", L1_34, true, ""),
    r("1.33.12", "2026-05-12", L1_34, true, ""),
    r("1.33.13", "2026-06-09", L1_34, true, "the Go module proxy serves k8s.io/kubernetes v1.33.13 (date as scheduled)"),
    r("1.34", "2025-08-27", L1_34, true, ""),
    r("1.34.1", "2025-09-09", L1_34, true, ""),
    r("1.34.2", "2025-11-11", L1_34, true, "#134800: sidecar startup-probe race fix (restartPolicy Never; not on the restart path modelled)"),
    r("1.34.3", "2025-12-09", L1_34, true, "#135207: a slow container runtime at start no longer gets the kubelet killed by the watchdog (not modelled)"),
    r("1.34.4", "2026-02-10", L1_34, true, ""),
    r("1.34.5", "2026-02-26", L1_34, true, ""),
    r("1.34.6", "2026-03-19", L1_34, true, ""),
    r("1.34.7", "2026-04-14", L1_34, true, ""),
    r("1.34.8", "2026-05-12", L1_34, true, ""),
    r("1.34.9", "2026-06-09", L1_34, true, ""),
    r("1.34.10", "2026-07-14", L1_34, false, "scheduled date; seen only in a third-party rebuild"),
    r("1.35", "2025-12-17", L1_35, true, "KEP-4781 (#134746); #136910 sidecar deadlock present"),
    r("1.35.1", "2026-02-10", L1_35, true, ""),
    r("1.35.2", "2026-02-26", L1_35, true, ""),
    r("1.35.3", "2026-03-19", L1_35, true, ""),
    r("1.35.4", "2026-04-14", L1_35_4, true, "#137885 (cherry-pick of #137146): sidecar startup result seeded, #136910 fixed"),
    r("1.35.5", "2026-05-12", L1_35_4, true, ""),
    r("1.35.6", "2026-06-09", L1_35_4, true, ""),
    r("1.35.7", "2026-07-14", L1_35_4, true, ""),
    r("1.35.8", "2026-08-11", L1_35_4, true, ""),
    r("1.35.9", "2026-09-15", L1_35_4, true, "#142043 / #142255 (cherry-picks of #141342 / #141487) still open"),
    r("1.35.10", "2026-10-13", L1_35_4, false, "scheduled date; release and whether it carries #142043 / #142255 not verified: modelled without them"),
    r("1.36", "2026-04-22", L1_36, true, "#137146: sidecar startup result seeded"),
    r("1.36.1", "2026-05-13", L1_36, true, ""),
    r("1.36.2", "2026-06-09", L1_36, true, ""),
    r("1.36.3", "2026-07-14", L1_36, true, ""),
    r("1.36.4", "2026-08-11", L1_36, true, ""),
    r("1.36.5", "2026-09-15", L1_36, false, "scheduled date; release not verified; #142042 / #142254 not in it"),
    r("1.37", "2026-08-26", L1_37, true, "#138514: computeInitContainerActions takes an exited regular container of the current sandbox as initialized (read in the module's v1.37.0 source; not in v1.36.3)"),
    r("1.37.1", "2026-09-15", L1_37, true, "#142041 / #142253 (cherry-picks of #141342 / #141487) still open"),
    r("1.37.2", "2026-10-13", L1_37, true, "the Go module proxy serves k8s.io/kubernetes v1.37.2 (date as scheduled); its pkg/kubelet/prober has no canInheritProbeState, so it carries neither #142041 nor #142253"),
    r("1.38", "2026-12-16", L1_38, false, "not released: rc.0 scheduled 2026-12-02, GA 2026-12-16; modelled from main at v1.38.0-alpha.2 (#141342, #141487; nothing else on these paths in CHANGELOG-1.38 alpha.1-.2)"),
    r("main", "", Main, false, "kubernetes/kubernetes main as read: v1.38.0-alpha.2 (CHANGELOG-1.38 @ 0411cc70)"),
];

/// One minor release line: its `ChangeContainerStatusOnKubeletRestart` gate and support dates.
pub struct Minor {
    pub minor: &'static str,
    /// The gate's stage and default (`pkg/features/kube_features.go`).
    pub gate: &'static str,
    /// End of support (kubernetes.io releases pages).
    pub end_of_support: &'static str,
}

pub const MINORS: [Minor; 9] = [
    Minor { minor: "1.30", gate: "absent: legacy kubelet only", end_of_support: "2025-06-28" },
    Minor { minor: "1.31", gate: "absent: legacy kubelet only", end_of_support: "2025-10-28 (last patch 1.31.14, 2025-11-11)" },
    Minor { minor: "1.32", gate: "absent: legacy kubelet only", end_of_support: "2026-02-28" },
    Minor { minor: "1.33", gate: "absent: legacy kubelet only", end_of_support: "2026-06-28" },
    Minor { minor: "1.34", gate: "absent: legacy kubelet only", end_of_support: "2026-10-27" },
    Minor { minor: "1.35", gate: "Deprecated, default false: KEP-4781 by default, =true restores the legacy kubelet (#134746)", end_of_support: "2027-02-28" },
    Minor { minor: "1.36", gate: "Deprecated, default false", end_of_support: "2027-06-28" },
    Minor { minor: "1.37", gate: "Deprecated, default false", end_of_support: "2027-10-28" },
    Minor { minor: "1.38", gate: "Deprecated, default false (main still branches on it)", end_of_support: "not released (GA scheduled 2026-12-16)" },
];

/// A Kubernetes release whose kubelet and controller defaults the model knows: an index into
/// `RELEASES` (so ordered as releases are). Written and read as its name (`1.36.4`, `main`);
/// `v1.36.4` and `1.36.0` are read too.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion(u8);

const fn index_of(name: &str) -> u8 {
    let mut i = 0;
    while i < RELEASES.len() {
        if eq(RELEASES[i].name.as_bytes(), name.as_bytes()) {
            return i as u8;
        }
        i += 1;
    }
    panic!("no such release")
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl KubeVersion {
    pub const V1_30: KubeVersion = KubeVersion(index_of("1.30"));
    pub const V1_31: KubeVersion = KubeVersion(index_of("1.31"));
    pub const V1_34: KubeVersion = KubeVersion(index_of("1.34"));
    /// v1.35.0 (1.35.1–1.35.3 are the same on these paths).
    pub const V1_35: KubeVersion = KubeVersion(index_of("1.35"));
    /// v1.35.4: the sidecar startup fix (#137885).
    pub const V1_35_4: KubeVersion = KubeVersion(index_of("1.35.4"));
    pub const V1_36: KubeVersion = KubeVersion(index_of("1.36"));
    pub const V1_37: KubeVersion = KubeVersion(index_of("1.37"));
    /// v1.38.0 (not yet released): main at v1.38.0-alpha.2.
    pub const V1_38: KubeVersion = KubeVersion(index_of("1.38"));
    /// kubernetes/kubernetes main as of v1.38.0-alpha.2.
    pub const MAIN: KubeVersion = KubeVersion(index_of("main"));
    #[allow(non_upper_case_globals)]
    pub const Main: KubeVersion = KubeVersion::MAIN;

    /// One release of each profile line (the app's version picker, tests over every profile).
    pub const ALL: [KubeVersion; 9] = [
        KubeVersion::V1_30,
        KubeVersion::V1_31,
        KubeVersion::V1_34,
        KubeVersion::V1_35,
        KubeVersion::V1_35_4,
        KubeVersion::V1_36,
        KubeVersion::V1_37,
        KubeVersion::V1_38,
        KubeVersion::MAIN,
    ];

    /// Every release, oldest first.
    pub fn releases() -> impl Iterator<Item = KubeVersion> {
        (0..RELEASES.len() as u8).map(KubeVersion)
    }

    pub fn release(self) -> &'static Release {
        &RELEASES[self.0 as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.release().name
    }

    pub fn line(self) -> Line {
        self.release().line
    }

    /// The release that names this one's profile line (`1.36.4` → `1.36`, `1.35.7` → `1.35.4`).
    pub fn profile(self) -> KubeVersion {
        let line = self.line();
        *KubeVersion::ALL
            .iter()
            .find(|v| v.line() == line)
            .expect("every line has a release in ALL")
    }

    /// The minor (`1.36`), or `main`.
    pub fn minor(self) -> &'static str {
        let n = self.as_str();
        match n.match_indices('.').nth(1) {
            Some((i, _)) => &n[..i],
            None => n,
        }
    }

    /// An in-place upgrade from this release to `to` changes the container hash, so the new
    /// kubelet restarts every container at its first SyncPod ("Container … definition changed,
    /// will be restarted"): PR #124220 (v1.31.0) hashes a container by name and image only, so
    /// every container a 1.30 kubelet started looks changed to a 1.31 or later one; every later
    /// hop keeps the hash.
    pub fn upgrade_changes_hash(self, to: KubeVersion) -> bool {
        self < KubeVersion::V1_31 && to >= KubeVersion::V1_31
    }

    /// `monitorNodeHealth` hands `processTaintBaseEviction` the Ready condition this pass wrote
    /// (`currentReadyCondition`) from v1.34.0, the fix of kubernetes#120815; before it, the
    /// condition observed at the start of the pass, so the NoExecute taint was queued one pass
    /// (`--node-monitor-period`) after the node went Unknown.
    pub fn taints_on_current_condition(self) -> bool {
        self >= KubeVersion::V1_34
    }

    /// The kubelet has KEP-4781's code (gate `ChangeContainerStatusOnKubeletRestart`): v1.35 on.
    pub fn has_kep_4781(self) -> bool {
        self.line() >= Line::L1_35
    }

    /// `--node-monitor-grace-period` default: 40 s up to v1.31, 50 s from v1.32 (kubernetes PR #126287).
    pub fn default_grace_s(self) -> f64 {
        match self.line() {
            Line::L1_30 | Line::L1_31 => 40.0,
            _ => 50.0,
        }
    }

    /// A release by name: `1.36.4`, `v1.36.4`, `1.36`, `1.36.0`, `main`.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        let s = s
            .strip_suffix(".0")
            .filter(|m| m.matches('.').count() == 1)
            .unwrap_or(s);
        RELEASES
            .iter()
            .position(|r| r.name == s)
            .map(|i| KubeVersion(i as u8))
            // The 1.30 patch releases run the 1.30 line's restart path (not listed one by one).
            .or_else(|| {
                let patch = s.strip_prefix("1.30.")?;
                patch.parse::<u32>().ok().map(|_| KubeVersion::V1_30)
            })
    }

    /// `parse`, or a message naming the nearest releases the model knows.
    pub fn parse_or_explain(s: &str) -> Result<Self, String> {
        if let Some(v) = Self::parse(s) {
            return Ok(v);
        }
        let t = s.trim().strip_prefix('v').unwrap_or(s.trim());
        let nums: Vec<Option<u32>> = t.split('.').map(|p| p.parse().ok()).collect();
        let known = "RestartScope knows 1.30 to 1.38 with their patch releases, and main (`restartscope versions` lists them)";
        let (major, minor) = match nums.as_slice() {
            [Some(1), Some(m)] | [Some(1), Some(m), Some(_)] => (1, *m),
            _ => {
                return Err(format!(
                    "`{s}` is not a Kubernetes version: write 1.MINOR or 1.MINOR.PATCH (e.g. 1.36.4), or main; {known}"
                ))
            }
        };
        let _ = major;
        let in_minor: Vec<&Release> = RELEASES
            .iter()
            .filter(|r| {
                r.name == format!("1.{minor}") || r.name.starts_with(&format!("1.{minor}."))
            })
            .collect();
        if let (Some(first), Some(last)) = (in_minor.first(), in_minor.last()) {
            let when = if last.released { "" } else { ", scheduled" };
            return Err(format!(
                "Kubernetes {t} is not a release the model knows: 1.{minor} runs from {} to {} ({}{when}); {known}",
                first.name, last.name, last.date
            ));
        }
        let oldest = RELEASES[0].name;
        if minor < 30 {
            return Err(format!(
                "Kubernetes {t} is older than the oldest release the model knows, {oldest}; {known}"
            ));
        }
        Err(format!(
            "Kubernetes {t} is not released: the newest release the model knows is 1.38 (GA scheduled 2026-12-16), and main (v1.38.0-alpha.2); {known}"
        ))
    }
}

impl std::fmt::Debug for KubeVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KubeVersion({})", self.as_str())
    }
}

impl Serialize for KubeVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for KubeVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        KubeVersion::parse_or_explain(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_in_order_and_each_line_has_its_named_release() {
        let key = |n: &str| -> (u32, u32, u32) {
            if n == "main" {
                return (u32::MAX, 0, 0);
            }
            let p: Vec<u32> = n.split('.').map(|x| x.parse().unwrap()).collect();
            (p[0], p[1], p.get(2).copied().unwrap_or(0))
        };
        for w in RELEASES.windows(2) {
            assert!(
                key(w[0].name) < key(w[1].name),
                "{} {}",
                w[0].name,
                w[1].name
            );
            assert!(w[0].line <= w[1].line);
        }
        for v in KubeVersion::ALL {
            assert_eq!(v.profile(), v);
        }
        assert_eq!(
            KubeVersion::parse("v1.36.4").unwrap().profile(),
            KubeVersion::V1_36
        );
        assert_eq!(
            KubeVersion::parse("1.35.9").unwrap().profile(),
            KubeVersion::V1_35_4
        );
        assert_eq!(
            KubeVersion::parse("1.35.3").unwrap().profile(),
            KubeVersion::V1_35
        );
        assert_eq!(
            KubeVersion::parse("1.33.7").unwrap().profile(),
            KubeVersion::V1_34
        );
        assert_eq!(KubeVersion::parse("1.36.0"), Some(KubeVersion::V1_36));
        assert_eq!(KubeVersion::parse("1.37.1").unwrap().minor(), "1.37");
        assert_eq!(KubeVersion::MAIN.minor(), "main");
    }

    #[test]
    fn unknown_versions_name_the_nearest_known_ones() {
        let e = KubeVersion::parse_or_explain("1.36.9").unwrap_err();
        assert!(e.contains("from 1.36 to 1.36.5"), "{e}");
        let e = KubeVersion::parse_or_explain("1.39").unwrap_err();
        assert!(e.contains("1.38") && e.contains("main"), "{e}");
        let e = KubeVersion::parse_or_explain("1.29.3").unwrap_err();
        assert!(e.contains("oldest") && e.contains("1.30"), "{e}");
        // The 1.30 patch releases read as the 1.30 line.
        assert_eq!(KubeVersion::parse("v1.30.14"), Some(KubeVersion::V1_30));
        let e = KubeVersion::parse_or_explain("latest").unwrap_err();
        assert!(e.contains("1.MINOR.PATCH"), "{e}");
    }
}
