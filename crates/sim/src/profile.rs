//! Kubelet behaviour as data. A profile is a kubelet release plus its feature gates, resolved to
//! the rule variants the engine runs. The engine asks the profile (`Rules`), never the version
//! or the policy, so a later release is a new profile and, where its code differs, a switch.
//! Called by `lib.rs` (which profile a run uses) and read by the kubelet.
//!
//! Sources (docs/research/versions.md): KEP-4781 landed in v1.35.0 (kubernetes PR #134746) behind
//! the gate `ChangeContainerStatusOnKubeletRestart` (default false = the new behaviour; true = the
//! legacy one); releases before 1.35 have no such code. #137146 / #137885 (v1.36.0 / v1.35.4)
//! seed a sidecar's startup result; #141342 and #141487 (main, v1.38.0-alpha.1) compare container
//! IDs before inheriting Started and Ready. `KubeletProfile::csp` is not a release: the
//! ContainerScopedProbes proposal (kubernetes PR #140704, unmerged) as read at branch commit
//! 1b5df269 (docs/research/csp.md; docs/MODEL.md "ContainerScopedProbes (proposal)").

use crate::releases::Line;
use crate::rules::Rule;
use crate::scenario::{KubeVersion, Policy};

/// The rule variants a kubelet runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// P1k: `worker.go` `doProbe` (`isRestart`): a worker does not write its initial result for a
    /// running container that started before `kubeletStart − kubeletRestartGracePeriod`.
    pub skip_initial_result_for_old_containers: bool,
    /// S1: `kubelet_pods.go` `convertToAPIContainerStatuses` keeps the previous status's
    /// Started=true for a running container.
    pub keep_started_from_previous_status: bool,
    /// S1 after #141342: … only when the previous status names the same container ID (before it,
    /// by container name: a replaced container inherits Started=true).
    pub keep_started_requires_same_container: bool,
    /// S3: `prober_manager.go` `UpdatePodStatus` → `setReadyStateOnKubeletRestart`.
    pub ready_from_api_on_restart: bool,
    /// P1k and S3 after #141487: … only when the API status names the same container ID.
    pub restart_inherit_requires_same_container: bool,
    /// P1s, #137146 (v1.36.0) / #137885 (v1.35.4): `worker.go` `doProbe` seeds a restartable init
    /// container's startup result with Success when its status says Started=true (gate off only).
    /// Without it a sidecar older than the kubelet never has a startup result after a restart and
    /// `computeInitContainerActions` never initializes a pod whose regular containers all exited
    /// (K3i, kubernetes#136910).
    pub seed_sidecar_startup_from_api: bool,
    /// The ContainerScopedProbes proposal (kubernetes PR #140704, unmerged; gate
    /// `ContainerScopedProbes`, branch commit 1b5df269): `prober/container_bound_manager.go`
    /// (@ 5ab9c23f) replaces the legacy manager. Workers are bound to one container ID, started
    /// by the runtime's start hook (startup first, readiness and liveness once startup passes)
    /// and stopped with the container; after a kubelet restart `EnsureProbes` adopts a running
    /// container, seeding its results from its API container status (P1a) instead of P1/P1k/P1s;
    /// `UpdatePodStatus` reads the cache only (S1, S2; no S3); the first probe comes at
    /// `startedAt + initialDelaySeconds` (`container_bound_worker.go` `firstProbeDelay`). With it
    /// on, the KEP-4781 switches above are not read.
    pub container_scoped_probes: bool,
    /// K2n, 1.30 and older (#124397; fixed by #124430 in v1.31.0): the kubelet's first node
    /// status says Ready=False ("container runtime status check may not have completed yet")
    /// because `syncNodeStatus` runs before the first `updateRuntimeUp` has succeeded.
    pub not_ready_at_start: bool,
    /// #142457 (v1.38.0-alpha.2): a gRPC probe whose connection is refused fails at once, not at
    /// `timeoutSeconds` (`grpc_refused` in the prober).
    pub grpc_refused_fails_at_once: bool,
    /// K3i after #138514 (v1.37.0): `computeInitContainerActions` takes the pod as initialized
    /// when any regular container of the current sandbox exists, an exited one too
    /// (`kubecontainer.HasAnyActiveRegularContainerStarted` over `ActiveContainerStatuses`);
    /// before it, only a Created or Running one counted (the node-reboot workaround of #120269,
    /// which could not tell the sandboxes' containers apart). Not behind a gate.
    pub exited_regular_initializes: bool,
    /// A1s, on in **no release**: kubernetes PR #133803 (open) puts a `skipIgnorableChecks` in
    /// `pkg/kubelet/lifecycle/predicate.go` `Admit` behind a gate `NotEvictPodOnKubeletRestart`
    /// (beta, on by default, as read at 00991fb9): admission at start would skip the node
    /// affinity and NoExecute taint checks for a pod that has started and was admitted before.
    /// Neither the gate (`pkg/features/kube_features.go`) nor the skip (`predicate.go` `Admit`,
    /// `generalFilter`) is in the source of v1.31.14, v1.32.13, v1.33.13, v1.34.4, v1.35.4,
    /// v1.36.3, v1.37.2 or v1.38.0-beta.0, so every release profile (and `csp`) has it off; a
    /// profile built by hand can turn it on to show what the PR would change.
    pub skip_ignorable_admission_checks: bool,
}

impl Rules {
    pub const LEGACY: Rules = Rules {
        skip_initial_result_for_old_containers: false,
        keep_started_from_previous_status: false,
        keep_started_requires_same_container: false,
        ready_from_api_on_restart: false,
        restart_inherit_requires_same_container: false,
        seed_sidecar_startup_from_api: false,
        container_scoped_probes: false,
        not_ready_at_start: false,
        grpc_refused_fails_at_once: false,
        exited_regular_initializes: false,
        skip_ignorable_admission_checks: false,
    };
    /// KEP-4781 as released in v1.35.0.
    pub const KEP_4781: Rules = Rules {
        skip_initial_result_for_old_containers: true,
        keep_started_from_previous_status: true,
        keep_started_requires_same_container: false,
        ready_from_api_on_restart: true,
        restart_inherit_requires_same_container: false,
        seed_sidecar_startup_from_api: false,
        container_scoped_probes: false,
        not_ready_at_start: false,
        grpc_refused_fails_at_once: false,
        exited_regular_initializes: false,
        skip_ignorable_admission_checks: false,
    };
    /// The ContainerScopedProbes proposal (PR #140704 at 1b5df269): the container-bound prober
    /// alone; none of the legacy manager's KEP-4781 branches (its e2e pins
    /// `ChangeContainerStatusOnKubeletRestart=false`, and the new manager never reads the gate).
    pub const CSP: Rules = Rules {
        skip_initial_result_for_old_containers: false,
        keep_started_from_previous_status: false,
        keep_started_requires_same_container: false,
        ready_from_api_on_restart: false,
        restart_inherit_requires_same_container: false,
        seed_sidecar_startup_from_api: false,
        container_scoped_probes: true,
        not_ready_at_start: false,
        // The proposal targets 1.38, which has #142457.
        grpc_refused_fails_at_once: true,
        // The proposal's branch is based on 1.38's main, which has #138514.
        exited_regular_initializes: true,
        // Not in v1.38.0-beta.0 either (A1s).
        skip_ignorable_admission_checks: false,
    };
}

/// What a proposal profile's labels say about it: the PR and the commit the model follows.
pub const CSP_PROPOSAL: &str = "ContainerScopedProbes, unmerged PR #140704 at 1b5df269";

/// A kubelet release with its feature gates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeletProfile {
    pub version: KubeVersion,
    /// `ChangeContainerStatusOnKubeletRestart` (true = the legacy behaviour; always true before
    /// 1.35, where the gate does not exist).
    pub change_container_status_on_kubelet_restart: bool,
    pub rules: Rules,
    /// A proposal, not a release: what it is, with its PR and commit
    /// (`Some(CSP_PROPOSAL)` for `csp`); `None` for every release profile.
    pub proposal: Option<&'static str>,
    /// The lane this kubelet is drawn in: the gate's setting asked for. It differs from the
    /// gate only before 1.35, where the KEP lane of an in-place upgrade to 1.35 or later runs the
    /// legacy kubelet until the upgrade (`Kubelet::upgrade` keeps the lane).
    pub lane: Policy,
}

/// What `restartscope versions` lists for each release.
pub struct VersionInfo {
    pub version: KubeVersion,
    /// What differs from the release before, in a line.
    pub differs: &'static str,
    pub source: &'static str,
}

pub const VERSIONS: [VersionInfo; 9] = [
    VersionInfo {
        version: KubeVersion::V1_30,
        differs: "legacy kubelet only; grace 40 s; node Ready=False for a moment at every kubelet start (K2n, #124397); containers hashed by their whole spec, so an in-place upgrade to 1.31 restarts every container (U1, PR #124220)",
        source: "v1.30; #124397 fixed by PR #124430 in v1.31.0",
    },
    VersionInfo {
        version: KubeVersion::V1_31,
        differs: "legacy kubelet only (no KEP-4781 code); node monitor grace period 40 s; node Ready=True at start (runtime checked first, #124430); containers hashed by name and image (PR #124220)",
        source: "v1.31; grace default before PR #126287",
    },
    VersionInfo {
        version: KubeVersion::V1_34,
        differs: "legacy kubelet only; grace period 50 s (PR #126287, v1.32)",
        source: "v1.34",
    },
    VersionInfo {
        version: KubeVersion::V1_35,
        differs: "KEP-4781 (gate ChangeContainerStatusOnKubeletRestart=false by default): P1k, S1 Started kept by container name, S3",
        source: "v1.35.0, PR #134746",
    },
    VersionInfo {
        version: KubeVersion::V1_35_4,
        differs: "P1s: a sidecar's startup result is seeded Success from its Started status after a restart, so a crashed app container behind it is restarted again (#136910)",
        source: "v1.35.4, PR #137885",
    },
    VersionInfo {
        version: KubeVersion::V1_36,
        differs: "as 1.35.4",
        source: "v1.36.0, PR #137146",
    },
    VersionInfo {
        version: KubeVersion::V1_37,
        differs: "as 1.36",
        source: "v1.37.0",
    },
    VersionInfo {
        version: KubeVersion::V1_38,
        differs: "Started kept only for the same container ID (#141155); P1k/S3: a container the API names with another ID is not inherited, NotReady from the first SyncPod (#141473)",
        source: "v1.38.0, not released (rc.0 2026-12-02, GA 2026-12-16): modelled from main at v1.38.0-alpha.2, PRs #141342, #141487; CHANGELOG-1.38 alpha.1-.2 lists nothing else on these paths",
    },
    VersionInfo {
        version: KubeVersion::Main,
        differs: "as 1.38: Started kept only for the same container ID (#141155); P1k/S3: a container the API names with another ID is not inherited, NotReady from the first SyncPod (#141473)",
        source: "main at v1.38.0-alpha.2: PRs #141342, #141487",
    },
];

impl KubeletProfile {
    /// How this profile runs `rule` where releases differ, with the PR: what the event log adds
    /// to the rule's source. `None` where every release runs it alike.
    pub fn rule_variant(&self, rule: Rule) -> Option<&'static str> {
        let r = &self.rules;
        if r.container_scoped_probes {
            return match rule {
                Rule::P1a => Some("proposal, unmerged PR #140704 at 1b5df269: container_bound_manager.go adoptLocked"),
                Rule::P1 => Some("proposal, unmerged PR #140704 at 1b5df269: initial result written when the worker is created (start hook; readiness and liveness once startup passes)"),
                Rule::P2 => Some("proposal, unmerged PR #140704 at 1b5df269: first probe at startedAt + initialDelaySeconds, jittered only for an adopted container"),
                Rule::S1 => Some("proposal, unmerged PR #140704 at 1b5df269: Started = running and (no startup probe or startup Success)"),
                Rule::S2 => Some("proposal, unmerged PR #140704 at 1b5df269: Ready = started and (no readiness probe or readiness Success), no worker fallback"),
                Rule::K3 => Some("proposal, unmerged PR #140704 at 1b5df269: EnsureProbes adopts before the first status is generated (the PR's tests' order)"),
                _ => None,
            };
        }
        match rule {
            Rule::S1 if r.keep_started_requires_same_container => {
                Some("this release: Started kept only for the same container ID (#141342)")
            }
            Rule::S1 if r.keep_started_from_previous_status => {
                Some("this release: Started kept by container name (#141155; main compares IDs, #141342)")
            }
            Rule::P1k | Rule::S3 if r.restart_inherit_requires_same_container => {
                Some("this release: a container the API names with another ID is not inherited, NotReady from the first SyncPod (#141487)")
            }
            Rule::P1s if r.seed_sidecar_startup_from_api => {
                Some("this release: 1.35.4+ / 1.36 (#137885 / #137146)")
            }
            _ => None,
        }
    }

    /// The profile that `--policy` names on a release; `Err` (in words, for the user) when the
    /// release has no KEP-4781 code.
    pub fn new(version: KubeVersion, policy: Policy) -> Result<Self, String> {
        if policy == Policy::Kep && !version.has_kep_4781() {
            return Err(format!(
                "the KEP-4781 kubelet needs Kubernetes 1.35 or later; {} has only the legacy kubelet (use policy legacy, or a version from 1.35 on)",
                version.as_str()
            ));
        }
        Ok(Self::for_policy(version, policy))
    }

    /// Like `new`, without the check (callers validate first).
    pub fn for_policy(version: KubeVersion, policy: Policy) -> Self {
        let gate = policy == Policy::Legacy || !version.has_kep_4781();
        let mut rules = if gate {
            Rules {
                not_ready_at_start: version.line() <= Line::L1_30,
                ..Rules::LEGACY
            }
        } else {
            let mut r = Rules::KEP_4781;
            let line = version.line();
            r.seed_sidecar_startup_from_api = line >= Line::L1_35_4;
            r.keep_started_requires_same_container = line >= Line::L1_38;
            r.restart_inherit_requires_same_container = line >= Line::L1_38;
            r
        };
        // Not behind the gate: both lanes of 1.38 and main.
        rules.grpc_refused_fails_at_once = version.line() >= Line::L1_38;
        // Not behind a gate either: both lanes of 1.37, 1.38 and main (#138514, v1.37.0).
        rules.exited_regular_initializes = version.line() >= Line::L1_37;
        // A1s (`NotEvictPodOnKubeletRestart`) stays off: no release's source has the gate.
        KubeletProfile {
            version,
            change_container_status_on_kubelet_restart: gate,
            rules,
            proposal: None,
            lane: policy,
        }
    }

    /// The ContainerScopedProbes proposal (PR #140704 at 1b5df269) on `version`: the
    /// container-bound prober (`Rules::CSP`), with `ChangeContainerStatusOnKubeletRestart=false`
    /// as the PR's e2e sets it (`policy()` is `Kep`; there is no legacy lane of it).
    /// `csp` where the proposal applies: it targets 1.38 (PR #140704), so 1.38 and main; `Err`
    /// (in words, for the user) before. The CLI's `VERSION+csp` and the app's lane call this.
    pub fn csp_on(version: KubeVersion) -> Result<KubeletProfile, String> {
        if version < KubeVersion::V1_38 {
            return Err(format!(
                "the ContainerScopedProbes proposal (unmerged PR #140704) targets 1.38: pick 1.38 or main to compare it (now {})",
                version.as_str()
            ));
        }
        Ok(Self::csp(version))
    }

    pub fn csp(version: KubeVersion) -> KubeletProfile {
        KubeletProfile {
            version,
            change_container_status_on_kubelet_restart: false,
            rules: Rules::CSP,
            proposal: Some(CSP_PROPOSAL),
            lane: Policy::Kep,
        }
    }

    /// The profiles a release offers by default: legacy and KEP from 1.35 on, legacy before.
    pub fn defaults(version: KubeVersion) -> Vec<KubeletProfile> {
        let mut v = vec![Self::for_policy(version, Policy::Legacy)];
        if version.has_kep_4781() {
            v.push(Self::for_policy(version, Policy::Kep));
        }
        v
    }

    /// The policy this profile shows (legacy when the gate restores the old behaviour).
    pub fn policy(&self) -> Policy {
        self.lane
    }

    /// This profile is what the release runs by default: the gate's default (false from 1.35,
    /// i.e. KEP-4781), or the only kubelet before 1.35.
    pub fn is_default(&self) -> bool {
        self.proposal.is_none()
            && (!self.version.has_kep_4781() || !self.change_container_status_on_kubelet_restart)
    }

    /// The feature gates this profile sets away from the release's defaults, as the kubelet's
    /// `--feature-gates` flag reads them (empty for a release's default kubelet).
    pub fn feature_gates(&self) -> &'static str {
        if self.proposal.is_some() {
            "ContainerScopedProbes=true"
        } else if self.is_default() {
            ""
        } else {
            "ChangeContainerStatusOnKubeletRestart=true"
        }
    }

    /// Lane and JSON label, saying which kubelet is the release's default: "1.35 · default
    /// (KEP-4781)", "1.35 · legacy (opt-in gate)", "1.34 · default (legacy)".
    pub fn label(&self) -> String {
        let v = self.version.as_str();
        if self.proposal.is_some() {
            return format!("{v} · proposal CSP (#140704)");
        }
        if !self.version.has_kep_4781() && self.lane == Policy::Legacy {
            return format!("{v} · default (legacy)");
        }
        if !self.version.has_kep_4781() {
            // The KEP lane before its upgrade to 1.35 or later.
            return format!("{v} · default (legacy, KEP lane)");
        }
        match self.policy() {
            Policy::Kep => format!("{v} · default (KEP-4781)"),
            Policy::Legacy => format!("{v} · legacy (opt-in gate)"),
        }
    }

    /// The label with the gate in Kubernetes' words, for tables, captions and the JSON:
    /// "1.35 · ChangeContainerStatusOnKubeletRestart=true (legacy)".
    pub fn long_label(&self) -> String {
        if self.is_default() {
            self.label()
        } else {
            format!(
                "{} · {} (legacy)",
                self.version.as_str(),
                self.feature_gates()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_before_1_35_have_no_kep_kubelet() {
        for v in [KubeVersion::V1_31, KubeVersion::V1_34] {
            let e = KubeletProfile::new(v, Policy::Kep).unwrap_err();
            assert!(e.contains("1.35"), "{e}");
            assert_eq!(KubeletProfile::defaults(v).len(), 1);
            assert_eq!(KubeletProfile::defaults(v)[0].rules, Rules::LEGACY);
        }
        assert_eq!(
            KubeletProfile::new(KubeVersion::V1_34, Policy::Legacy)
                .unwrap()
                .label(),
            "1.34 · default (legacy)"
        );
    }

    #[test]
    fn later_releases_add_switches() {
        let kep = |v| KubeletProfile::new(v, Policy::Kep).unwrap().rules;
        assert_eq!(kep(KubeVersion::V1_35), Rules::KEP_4781);
        assert!(kep(KubeVersion::V1_35_4).seed_sidecar_startup_from_api);
        assert!(!kep(KubeVersion::V1_37).keep_started_requires_same_container);
        assert!(kep(KubeVersion::Main).keep_started_requires_same_container);
        assert!(kep(KubeVersion::Main).restart_inherit_requires_same_container);
        // The gate restores the legacy kubelet on every release.
        for v in KubeVersion::ALL {
            let rules = KubeletProfile::new(v, Policy::Legacy).unwrap().rules;
            // 1.30 also posts node Ready=False at start (#124397, fixed in 1.31 by #124430).
            let start = v == KubeVersion::V1_30;
            assert_eq!(rules.not_ready_at_start, start, "{v:?}");
            // 1.38 and main fail a refused gRPC probe at once (#142457), on both lanes.
            assert_eq!(rules.grpc_refused_fails_at_once, v >= KubeVersion::V1_38);
            // 1.37 on take an exited regular container as initialized (#138514).
            assert_eq!(rules.exited_regular_initializes, v >= KubeVersion::V1_37);
            // NotEvictPodOnKubeletRestart (PR #133803) is in no release's
            // pkg/features/kube_features.go, v1.31.14 to v1.38.0-beta.0: A1s off everywhere.
            assert!(!rules.skip_ignorable_admission_checks, "{v:?}");
            assert_eq!(
                Rules {
                    not_ready_at_start: false,
                    grpc_refused_fails_at_once: false,
                    exited_regular_initializes: false,
                    ..rules
                },
                Rules::LEGACY
            );
        }
        // Nor on the KEP-4781 lanes, main (v1.38.0-beta.0's source) and the proposal included.
        for p in KubeVersion::ALL
            .into_iter()
            .flat_map(KubeletProfile::defaults)
        {
            assert!(!p.rules.skip_ignorable_admission_checks, "{}", p.label());
        }
        assert!(
            !KubeletProfile::csp(KubeVersion::Main)
                .rules
                .skip_ignorable_admission_checks
        );
        assert_eq!(
            KubeletProfile::new(KubeVersion::Main, Policy::Kep)
                .unwrap()
                .label(),
            "main · default (KEP-4781)"
        );
        let legacy = KubeletProfile::new(KubeVersion::V1_35, Policy::Legacy).unwrap();
        assert_eq!(legacy.label(), "1.35 · legacy (opt-in gate)");
        assert_eq!(
            legacy.long_label(),
            "1.35 · ChangeContainerStatusOnKubeletRestart=true (legacy)"
        );
        assert!(!legacy.is_default());
        // An exact patch release runs its line's rules under its own name.
        let p = KubeletProfile::new(KubeVersion::parse("1.36.4").unwrap(), Policy::Kep).unwrap();
        assert_eq!(p.rules, kep(KubeVersion::V1_36));
        assert_eq!(p.label(), "1.36.4 · default (KEP-4781)");
        assert_eq!(kep(KubeVersion::V1_38), kep(KubeVersion::Main));
        assert!(
            !kep(KubeVersion::parse("1.37.2").unwrap()).restart_inherit_requires_same_container
        );
        assert_eq!(VERSIONS.len(), KubeVersion::ALL.len());
    }

    #[test]
    fn the_event_log_names_each_releases_variant_and_its_pr() {
        let kep = |v| KubeletProfile::for_policy(v, Policy::Kep);
        let legacy = |v| KubeletProfile::for_policy(v, Policy::Legacy);
        assert!(kep(KubeVersion::V1_35)
            .rule_variant(Rule::S1)
            .unwrap()
            .contains("by container name (#141155"));
        assert!(kep(KubeVersion::Main)
            .rule_variant(Rule::S1)
            .unwrap()
            .contains("#141342"));
        assert!(kep(KubeVersion::Main)
            .rule_variant(Rule::S3)
            .unwrap()
            .contains("#141487"));
        assert_eq!(kep(KubeVersion::V1_35).rule_variant(Rule::S3), None);
        assert_eq!(kep(KubeVersion::V1_35).rule_variant(Rule::P1s), None);
        assert!(kep(KubeVersion::V1_35_4)
            .rule_variant(Rule::P1s)
            .unwrap()
            .contains("#137885"));
        // The legacy kubelet and rules every release runs alike name no variant.
        assert_eq!(legacy(KubeVersion::Main).rule_variant(Rule::S1), None);
        assert_eq!(kep(KubeVersion::Main).rule_variant(Rule::N1), None);
        assert_eq!(kep(KubeVersion::Main).rule_variant(Rule::P1a), None);
    }

    #[test]
    fn the_csp_proposal_is_labelled_as_one() {
        let p = KubeletProfile::csp(KubeVersion::Main);
        assert_eq!(p.rules, Rules::CSP);
        assert!(!p.change_container_status_on_kubelet_restart);
        assert_eq!(p.policy(), Policy::Kep);
        assert_eq!(p.label(), "main · proposal CSP (#140704)");
        assert!(p
            .proposal
            .unwrap()
            .contains("unmerged PR #140704 at 1b5df269"));
        assert!(p.rule_variant(Rule::P1a).unwrap().contains("#140704"));
        assert_eq!(p.rule_variant(Rule::S3), None);
        // No release profile is a proposal or runs the container-bound prober.
        for v in KubeVersion::ALL {
            for q in KubeletProfile::defaults(v) {
                assert_eq!(q.proposal, None);
                assert!(!q.rules.container_scoped_probes);
            }
        }
    }
}
