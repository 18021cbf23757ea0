//! Kubelet behaviour as data. A profile is a kubelet release plus its feature gates, resolved to
//! the rule variants the engine runs. The engine asks the profile (`Rules`), never the version
//! or the policy, so a later release is a new profile and, where its code differs, a switch.
//!
//! Sources: KEP-4781 landed in v1.35 (kubernetes PR #134746) behind the gate
//! `ChangeContainerStatusOnKubeletRestart` (default false in 1.35 = the new behaviour; true =
//! the legacy one). Its three code changes are the three switches below.

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
    /// S3: `prober_manager.go` `UpdatePodStatus` → `setReadyStateOnKubeletRestart`.
    pub ready_from_api_on_restart: bool,
}

impl Rules {
    pub const LEGACY: Rules = Rules {
        skip_initial_result_for_old_containers: false,
        keep_started_from_previous_status: false,
        ready_from_api_on_restart: false,
    };
    pub const KEP_4781: Rules = Rules {
        skip_initial_result_for_old_containers: true,
        keep_started_from_previous_status: true,
        ready_from_api_on_restart: true,
    };
}

/// A kubelet release with its feature gates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeletProfile {
    pub version: KubeVersion,
    /// `ChangeContainerStatusOnKubeletRestart` (true = the legacy behaviour).
    pub change_container_status_on_kubelet_restart: bool,
    pub rules: Rules,
}

impl KubeletProfile {
    /// The profile that `--policy` names on a version. (Today every version accepts both
    /// policies, as before the engine rebuild; versions without KEP-4781 code are issue 11.)
    pub fn for_policy(version: KubeVersion, policy: Policy) -> Self {
        let gate = policy == Policy::Legacy;
        KubeletProfile {
            version,
            change_container_status_on_kubelet_restart: gate,
            rules: if gate { Rules::LEGACY } else { Rules::KEP_4781 },
        }
    }

    /// The policy this profile shows (legacy when the gate restores the old behaviour).
    pub fn policy(&self) -> Policy {
        if self.rules == Rules::LEGACY {
            Policy::Legacy
        } else {
            Policy::Kep
        }
    }

    /// Lane and JSON label: "1.35 · KEP", "1.35 · legacy".
    pub fn label(&self) -> String {
        let p = match self.policy() {
            Policy::Legacy => "legacy",
            Policy::Kep => "KEP",
        };
        format!("{} · {p}", self.version.as_str())
    }
}
