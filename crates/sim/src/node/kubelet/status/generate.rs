//! `generateAPIPodStatus` → `UpdatePodStatus` (S1, S2, S3) → conditions (S4), as a pure
//! function of what the kubelet knows. Called by the status manager on every pod sync.
//!
//! Mirrors `kubelet_pods.go` `generateAPIPodStatus`, `convertToAPIContainerStatuses`;
//! `prober_manager.go` `UpdatePodStatus`, `isContainerStarted`, `setReadyStateOnKubeletRestart`;
//! `status/generate.go` `GenerateContainersReadyCondition`, `GeneratePodReadyCondition`.

use crate::control_plane::api::{CStatus, Status};
use crate::core::Few;
use crate::node::kubelet::prober::PodProbes;
use crate::node::runtime::RtContainer;
use crate::profile::Rules;
use crate::rules::Rule;
use crate::scenario::Pod;
use crate::trace::{Outcome, ProbeKind};

/// Everything `generate` reads.
pub struct Input<'x> {
    pub rules: Rules,
    pub spec: &'x Pod,
    pub runtime: &'x [RtContainer],
    pub probes: &'x PodProbes,
    /// The previous status: the status manager's cache, or the API's when it has none.
    pub prev: &'x Status,
    /// What the API server holds for the pod.
    pub api: &'x Status,
    /// `kubeletStart − kubeletRestartGracePeriod`: containers that started earlier predate the kubelet.
    pub predates_before: crate::trace::Ms,
}

/// The generated status, the rule that decided each container's Ready, and the containers whose
/// readiness worker must be asked for an immediate probe.
pub struct Generated {
    pub status: Status,
    pub ready_rules: Vec<Rule>,
    pub triggers: Vec<usize>,
}

pub fn generate(x: &Input) -> Generated {
    let n = x.runtime.len();
    let mut cs = Few::new();
    let mut ready_rules = Vec::with_capacity(n);
    let mut triggers = Vec::new();
    for (c, r) in x.runtime.iter().enumerate() {
        if x.spec.is_completed_init(c) {
            // UpdatePodStatus: an init container that is not restartable is Ready once it
            // terminated with exit code 0; isContainerStarted: not running, not started.
            cs.push(CStatus {
                instance: r.instance,
                running: false,
                started: Some(false),
                ready: true,
            });
            ready_rules.push(Rule::S2);
            continue;
        }
        let res = |k: ProbeKind| x.probes.results.get(c, k, r.instance);
        let worker = |k: ProbeKind| x.probes.worker(c, k).is_some();
        // S1 isContainerStarted (+ KEP: convertToAPIContainerStatuses keeps Started).
        let started = if !r.running {
            false
        } else if let Some(o) = res(ProbeKind::Startup) {
            o == Outcome::Success
        } else if x.rules.keep_started_from_previous_status
            && x.prev.cs[c].started == Some(true)
            && (!x.rules.keep_started_requires_same_container
                || x.prev.cs[c].instance == r.instance)
        {
            true
        } else {
            !worker(ProbeKind::Startup)
        };
        // S2 UpdatePodStatus.
        let mut rule = Rule::S2;
        let ready = if !started {
            false
        } else if res(ProbeKind::Readiness) == Some(Outcome::Success) {
            true
        } else {
            let exists = worker(ProbeKind::Readiness);
            if exists {
                triggers.push(c);
            }
            let mut ready = !exists;
            // S3 setReadyStateOnKubeletRestart.
            let inherit = x.rules.ready_from_api_on_restart
                && r.running
                && r.started_at < x.predates_before
                && (!x.rules.restart_inherit_requires_same_container
                    || x.api.cs[c].instance == r.instance);
            if inherit {
                if !ready && res(ProbeKind::Readiness).is_none() {
                    ready = true;
                    rule = Rule::S3;
                }
                if x.spec.container(c).readiness_probe.is_some() && !x.api.ready {
                    if ready {
                        rule = Rule::S3;
                    }
                    ready = false;
                }
            }
            ready
        };
        cs.push(CStatus {
            instance: r.instance,
            running: r.running,
            started: Some(started),
            ready,
        });
        ready_rules.push(rule);
    }
    // S4 generate.go GenerateContainersReadyCondition: every container and every restartable
    // init container ready (a completed init container is Ready above); PodReady =
    // ContainersReady.
    let containers_ready = cs.iter().all(|c| c.ready);
    Generated {
        status: Status {
            cs,
            containers_ready,
            ready: containers_ready,
        },
        ready_rules,
        triggers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::kubelet::prober::Worker;
    use crate::scenario::{Container, Probe, Workload};
    use crate::trace::Ms;

    fn pod() -> Pod {
        Pod {
            name: "web-0".into(),
            workload: Workload::Deployment,
            service: None,
            termination_grace_s: 30.0,
            init_containers: vec![],
            containers: vec![Container {
                name: "app".into(),
                restart_policy: None,
                startup_probe: None,
                readiness_probe: Some(Probe::default()),
                liveness_probe: None,
                warmup_s: 0.0,
                truth: vec![],
            }],
        }
    }

    /// A running container that started at `started_at`; a kubelet with a fresh readiness worker
    /// and an empty results cache (the state right after a restart's first SyncPod).
    fn after_restart(rules: Rules, api_ready: bool, started_at: Ms) -> Generated {
        let spec = pod();
        let rt = [RtContainer {
            instance: 1,
            running: true,
            started_at,
            health: crate::scenario::Health::Healthy,
            warm_at: started_at,
            finished_at: None,
        }];
        let mut probes = PodProbes::new(1);
        probes.workers[0][ProbeKind::Readiness.index()] = Some(Worker::new());
        let prev = Status::healthy(1);
        let mut api = Status::healthy(1);
        api.ready = api_ready;
        generate(&Input {
            rules,
            spec: &spec,
            runtime: &rt,
            probes: &probes,
            prev: &prev,
            api: &api,
            predates_before: 90_000,
        })
    }

    #[test]
    fn legacy_reports_not_ready_until_a_probe_and_asks_for_one() {
        let g = after_restart(Rules::LEGACY, true, -3_600_000);
        assert!(!g.status.ready);
        assert_eq!(g.ready_rules, vec![Rule::S2]);
        assert_eq!(g.triggers, vec![0]);
    }

    #[test]
    fn kep_keeps_ready_from_the_api_for_an_old_container() {
        let g = after_restart(Rules::KEP_4781, true, -3_600_000);
        assert!(g.status.ready && g.status.containers_ready);
        assert_eq!(g.ready_rules, vec![Rule::S3]);
    }

    #[test]
    fn kep_keeps_not_ready_when_the_api_says_not_ready() {
        let g = after_restart(Rules::KEP_4781, false, -3_600_000);
        assert!(!g.status.ready);
        assert_eq!(g.ready_rules, vec![Rule::S3]);
    }

    #[test]
    fn kep_treats_a_container_younger_than_the_kubelet_like_legacy() {
        let g = after_restart(Rules::KEP_4781, true, 95_000);
        assert!(!g.status.ready);
        assert_eq!(g.ready_rules, vec![Rule::S2]);
    }
}
