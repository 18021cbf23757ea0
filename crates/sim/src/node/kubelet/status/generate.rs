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

/// `canInheritProbeState` (#141487, `prober_manager.go`): false only when the API status names
/// this container with an ID other than the running one (no status, or an empty ID on either
/// side, may inherit; instance 0 is an empty ID).
pub fn can_inherit_probe_state(api: &Status, c: usize, runtime_instance: u32) -> bool {
    api.cs
        .get(c)
        .is_none_or(|s| s.instance == NO_ID || s.instance == runtime_instance)
}

/// A container status without a container ID: a container the runtime has had no instance of
/// since the node booted (`convertToAPIContainerStatuses`' Waiting status; B2).
pub const NO_ID: u32 = 0;

pub fn generate(x: &Input) -> Generated {
    let n = x.runtime.len();
    let mut cs = Few::new();
    let mut ready_rules = Vec::with_capacity(n);
    let mut triggers = Vec::new();
    for (c, r) in x.runtime.iter().enumerate() {
        if x.spec.is_completed_init(c) {
            // UpdatePodStatus: an init container that is not restartable is Ready once it
            // terminated with exit code 0 (not while it runs); isContainerStarted: started
            // while it runs (it has no probe workers). It runs again only in a sandbox a
            // reboot re-created (B2); its previous Completed status stands until then
            // (`convertToAPIContainerStatuses` keeps a Terminated status the runtime lost).
            cs.push(CStatus {
                instance: r.instance,
                running: r.running,
                started: Some(r.running),
                ready: !r.running,
            });
            ready_rules.push(Rule::S2);
            continue;
        }
        let res = |k: ProbeKind| x.probes.results.get(c, k, r.instance);
        if x.rules.container_scoped_probes {
            // Proposal CSP (#140704), `containerBoundManager.UpdatePodStatus`: from the cache
            // alone, by the spec. S1: running and (no startup probe or startup Success). S2:
            // started and (no readiness probe or readiness Success). No worker fallback, no
            // immediate-probe request, no Started kept from the previous status, no S3.
            let spec = x.spec.container(c);
            let started = r.running
                && (spec.startup_probe.is_none()
                    || res(ProbeKind::Startup) == Some(Outcome::Success));
            let ready = started
                && (spec.readiness_probe.is_none()
                    || res(ProbeKind::Readiness) == Some(Outcome::Success));
            cs.push(CStatus {
                instance: r.instance,
                running: r.running,
                started: Some(started),
                ready,
            });
            ready_rules.push(Rule::S2);
            continue;
        }
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
            // S3 setReadyStateOnKubeletRestart (gate off): a container older than the kubelet
            // with no readiness result is Ready; then, if it has a readiness probe and the API
            // pod's Ready condition is not True, NotReady. #141487 (main) adds to that second
            // test `!canInheritProbeState(pod.Status.ContainerStatuses, name, runtimeID)`: a
            // container the API status names with another ID is NotReady, even at the first
            // SyncPod, before its worker exists (prober_manager_test.go at v1.38.0-alpha.2,
            // TestUpdatePodStatusOnKubeletRestart: docs/research/141487-manager.md).
            if x.rules.ready_from_api_on_restart && r.running && r.started_at < x.predates_before {
                let can_inherit = !x.rules.restart_inherit_requires_same_container
                    || can_inherit_probe_state(x.api, c, r.instance);
                if !ready && res(ProbeKind::Readiness).is_none() {
                    ready = true;
                    rule = Rule::S3;
                }
                if x.spec.container(c).readiness_probe.is_some() && (!x.api.ready || !can_inherit) {
                    if ready {
                        rule = Rule::S3;
                    }
                    ready = false;
                }
            }
            ready
        };
        cs.push(CStatus {
            instance: if r.lost { NO_ID } else { r.instance },
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
            owner: None,
            services: vec![],
            termination_grace_s: 30.0,
            init_containers: vec![],
            node_selector: Default::default(),
            node_affinity: vec![],
            tolerations: vec![],
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
            lost: false,
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

    /// A healthy running container instance that started at `started_at`.
    fn running(instance: u32, started_at: Ms) -> RtContainer {
        RtContainer {
            instance,
            running: true,
            started_at,
            health: crate::scenario::Health::Healthy,
            warm_at: 0,
            finished_at: None,
            lost: false,
        }
    }

    /// `TestUpdatePodStatusOnKubeletRestart` (`pkg/kubelet/prober/prober_manager_test.go` at
    /// v1.38.0-alpha.2, commit 0411cc70, #141487): one container with a readiness probe, running,
    /// started a minute before `kubeletStart − 10 s`, runtime ID "new"; the API pod Ready=True and
    /// its container status Ready with `apiContainerID`; no readiness result. "first sync": no
    /// readiness worker yet (SyncPod generates the status before `AddPod`).
    fn kubelet_restart_case(gate: bool, api_same_id: bool, first_sync: bool) -> bool {
        let version = crate::scenario::KubeVersion::Main;
        let policy = if gate {
            crate::scenario::Policy::Legacy
        } else {
            crate::scenario::Policy::Kep
        };
        let rules = crate::profile::KubeletProfile::for_policy(version, policy).rules;
        let spec = pod();
        let predates_before = 90_000;
        let rt = [running(2, predates_before - 60_000)];
        let mut probes = PodProbes::new(1);
        if !first_sync {
            probes.workers[0][ProbeKind::Readiness.index()] = Some(Worker::new());
        }
        let mut api = Status::healthy(1);
        api.cs[0].instance = if api_same_id { 2 } else { 1 };
        let g = generate(&Input {
            rules,
            spec: &spec,
            runtime: &rt,
            probes: &probes,
            prev: &api.clone(),
            api: &api,
            predates_before,
        });
        g.status.cs[0].ready
    }

    #[test]
    fn test_update_pod_status_on_kubelet_restart_six_cases() {
        // (name, gate ChangeContainerStatusOnKubeletRestart, API names the same ID, first sync,
        // expected Ready)
        let cases = [
            ("feature is disabled, the container survived the restart", false, true, false, true),
            ("feature is disabled, the container was replaced while the API server was unreachable", false, false, false, false),
            ("feature is disabled, the container survived the restart, first sync", false, true, true, true),
            ("feature is disabled, the container was replaced while the API server was unreachable, first sync", false, false, true, false),
            ("feature is enabled, the container survived the restart", true, true, false, false),
            ("feature is enabled, the container was replaced", true, false, false, false),
        ];
        for (name, gate, same, first, want) in cases {
            assert_eq!(kubelet_restart_case(gate, same, first), want, "{name}");
        }
    }

    /// The same cases on a release without #141487 (1.37 with KEP-4781): a replaced container
    /// inherits Ready (kubernetes#141473), at the first sync and after.
    #[test]
    fn before_141487_a_replaced_container_inherits_ready() {
        let rules = crate::profile::KubeletProfile::for_policy(
            crate::scenario::KubeVersion::V1_37,
            crate::scenario::Policy::Kep,
        )
        .rules;
        for first_sync in [false, true] {
            let spec = pod();
            let rt = [running(2, 0)];
            let mut probes = PodProbes::new(1);
            if !first_sync {
                probes.workers[0][ProbeKind::Readiness.index()] = Some(Worker::new());
            }
            let api = Status::healthy(1);
            let g = generate(&Input {
                rules,
                spec: &spec,
                runtime: &rt,
                probes: &probes,
                prev: &api,
                api: &api,
                predates_before: 90_000,
            });
            assert!(g.status.cs[0].ready, "first sync {first_sync}");
        }
    }

    /// `TestUpdatePodStatusOnKubeletRestartWithMultipleContainers` (same file and commit): two
    /// containers with readiness workers and no results, one survived (same ID), one replaced;
    /// with the API pod Ready=True only the survivor is Ready; with Ready=False neither.
    #[test]
    fn test_update_pod_status_on_kubelet_restart_with_multiple_containers() {
        let rules = crate::profile::KubeletProfile::for_policy(
            crate::scenario::KubeVersion::Main,
            crate::scenario::Policy::Kep,
        )
        .rules;
        let mut spec = pod();
        let mut second = spec.containers[0].clone();
        second.name = "replaced".into();
        spec.containers.push(second);
        let rt = [running(1, 0), running(2, 0)];
        let mut probes = PodProbes::new(2);
        for i in 0..2 {
            probes.workers[i][ProbeKind::Readiness.index()] = Some(Worker::new());
        }
        for (api_ready, want) in [(true, [true, false]), (false, [false, false])] {
            let mut api = Status::healthy(2);
            api.ready = api_ready;
            let g = generate(&Input {
                rules,
                spec: &spec,
                runtime: &rt,
                probes: &probes,
                prev: &api,
                api: &api,
                predates_before: 90_000,
            });
            let got = [g.status.cs[0].ready, g.status.cs[1].ready];
            assert_eq!(got, want, "API PodReady={api_ready}");
        }
    }

    /// Proposal CSP (#140704): `TestContainerBoundManagerUpdatePodStatus`'s rows (csp.md §5)
    /// "startup probe with no cached result" → Started=false, Ready=false and "readiness probe
    /// with no cached result" → Started=true, Ready=false; a cached Success makes each true.
    /// Spec-driven: a worker's existence, the previous status and the API's Ready do not count.
    #[test]
    fn csp_reads_the_cache_alone() {
        let mut spec = pod();
        spec.containers[0].startup_probe = Some(Probe::default());
        let rt = [RtContainer {
            instance: 1,
            running: true,
            started_at: -3_600_000,
            health: crate::scenario::Health::Healthy,
            warm_at: 0,
            finished_at: None,
            lost: false,
        }];
        let api = Status::healthy(1);
        let run = |spec: &Pod, probes: &PodProbes| {
            let g = generate(&Input {
                rules: Rules::CSP,
                spec,
                runtime: &rt,
                probes,
                prev: &api,
                api: &api,
                predates_before: 90_000,
            });
            assert!(g.triggers.is_empty());
            assert_eq!(g.ready_rules, vec![Rule::S2]);
            (g.status.cs[0].started, g.status.cs[0].ready)
        };
        // Workers exist, no results: not started, not ready (no "no worker" fallback either).
        let mut probes = PodProbes::new(1);
        probes.workers[0][ProbeKind::Readiness.index()] = Some(Worker::new());
        probes.workers[0][ProbeKind::Startup.index()] = Some(Worker::new());
        assert_eq!(run(&spec, &probes), (Some(false), false));
        assert_eq!(run(&spec, &PodProbes::new(1)), (Some(false), false));
        probes
            .results
            .set(0, ProbeKind::Startup, 1, Outcome::Success);
        assert_eq!(run(&spec, &probes), (Some(true), false));
        probes
            .results
            .set(0, ProbeKind::Readiness, 1, Outcome::Success);
        assert_eq!(run(&spec, &probes), (Some(true), true));
        // Results of another container instance do not count.
        let mut other = PodProbes::new(1);
        other
            .results
            .set(0, ProbeKind::Startup, 7, Outcome::Success);
        other
            .results
            .set(0, ProbeKind::Readiness, 7, Outcome::Success);
        assert_eq!(run(&spec, &other), (Some(false), false));
        // No startup probe: Started while running; no readiness probe either: Ready.
        spec.containers[0].startup_probe = None;
        assert_eq!(run(&spec, &PodProbes::new(1)), (Some(true), false));
        spec.containers[0].readiness_probe = None;
        assert_eq!(run(&spec, &PodProbes::new(1)), (Some(true), true));
    }
}
