//! Property tests over random scenarios.

use proptest::prelude::*;
use restartscope_sim::*;

fn probe() -> impl Strategy<Value = Option<Probe>> {
    prop::option::of(
        // Kubernetes accepts a probe that runs as long as its period or longer (periodSeconds 1,
        // timeoutSeconds 1 is common); so does the model.
        (
            1u32..=20,
            1u32..=3,
            1u32..=4,
            0u32..=15,
            0u32..=30,
            1u32..=3,
        )
            .prop_map(|(period, succ, fail, delay, exec10, timeout)| Probe {
                period_s: period,
                timeout_s: timeout,
                success_threshold: succ,
                failure_threshold: fail,
                initial_delay_s: delay,
                exec_s: exec10 as f64 / 10.0,
                handler: Default::default(),
            }),
    )
}

fn health() -> impl Strategy<Value = Health> {
    prop_oneof![
        Just(Health::Healthy),
        Just(Health::FailingReadiness),
        Just(Health::Failing),
        Just(Health::Exited)
    ]
}

fn container(healthy: bool) -> impl Strategy<Value = Container> {
    (
        probe(),
        probe(),
        probe(),
        0u32..=20,
        prop::collection::vec((0u32..=400, health()), 0..=if healthy { 0 } else { 3 }),
    )
        .prop_map(move |(s, r, l, warm, mut truth)| {
            truth.sort_by_key(|t| t.0);
            // A probe that runs past its timeout fails: a healthy container's probes finish in time.
            let in_time = |p: Option<Probe>| {
                p.map(|p| Probe {
                    exec_s: if healthy {
                        p.exec_s.min(p.timeout_s as f64)
                    } else {
                        p.exec_s
                    },
                    ..p
                })
            };
            let (s, r, l) = (in_time(s), in_time(r), in_time(l));
            Container {
                name: "c".into(),
                restart_policy: None,
                startup_probe: s.map(|p| Probe {
                    success_threshold: 1,
                    ..p
                }),
                readiness_probe: r,
                liveness_probe: l.map(|p| Probe {
                    success_threshold: 1,
                    ..p
                }),
                warmup_s: warm as f64,
                truth: truth
                    .into_iter()
                    .map(|(t, state)| Truth {
                        at_s: t as f64,
                        state,
                    })
                    .collect(),
            }
        })
}

fn scenario(healthy: bool, max_downtime: u32) -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(
            (
                prop::collection::vec(container(healthy), 1..=2),
                any::<bool>(),
                any::<bool>(),
            ),
            1..=4,
        ),
        prop::collection::vec((5u32..=100, 0u32..=max_downtime), 1..=2),
        any::<u64>(),
        prop::sample::select(KubeVersion::ALL.to_vec()),
        0u32..=400,
        0u32..=5,
    )
        .prop_map(move |(pods, restarts, seed, version, toleration, sync)| {
            let mut at = 0.0;
            let restarts: Vec<Restart> = restarts
                .into_iter()
                .map(|(gap, d)| {
                    at += gap as f64;
                    let r = Restart::new(at, d as f64);
                    at += d as f64;
                    r
                })
                .collect();
            let horizon = at + 200.0;
            Scenario {
                node: Default::default(),
                name: "prop".into(),
                description: String::new(),
                cluster: Cluster {
                    version,
                    toleration_s: toleration as f64,
                    ..Cluster::default()
                },
                kubelet: Kubelet {
                    policy: Policy::Kep,
                    restarts,
                    api_unreachable: Vec::new(),
                    first_sync_delay_s: sync as f64,
                },
                pods: pods
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mut containers, ds, svc))| {
                        for (j, c) in containers.iter_mut().enumerate() {
                            c.name = format!("c{j}");
                            c.truth.retain(|t| t.at_s <= horizon);
                        }
                        Pod {
                            name: format!("p{i}"),
                            workload: if ds {
                                Workload::DaemonSet
                            } else {
                                Workload::Deployment
                            },
                            owner: None,
                            services: if svc { vec!["svc".to_string()] } else { vec![] },
                            termination_grace_s: 30.0,
                            init_containers: vec![],
                            node_selector: Default::default(),
                            node_affinity: vec![],
                            tolerations: vec![],
                            containers,
                        }
                    })
                    .collect(),
                pdb: None,
                seed,
                horizon_s: horizon,
            }
        })
}

/// Replays a trace and checks: while the kubelet is up and has synced a pod, the API never
/// says Ready for a pod with a container that is not running.
fn check_ready_implies_running(tr: &Trace) -> Result<(), String> {
    let n = tr.pods.len();
    // When each container stopped (None: running). The PLEG relists every second, so a kubelet
    // may report a stopped container as running for up to one relist period.
    let mut stopped: Vec<Vec<Option<Ms>>> = tr
        .pods
        .iter()
        .map(|p| vec![None; p.containers.len()])
        .collect();
    let mut ready = vec![true; n];
    let mut synced = vec![true; n];
    let mut removed = vec![false; n];
    let mut up = true;
    let mut i = 0;
    while i < tr.events.len() {
        let t = tr.events[i].t;
        while i < tr.events.len() && tr.events[i].t == t {
            let e = &tr.events[i];
            let p = e.pod.map(|p| p as usize);
            match e.kind {
                Kind::KubeletStop => {
                    up = false;
                    synced.iter_mut().for_each(|s| *s = false);
                }
                Kind::KubeletStart => up = true,
                Kind::PodSync => synced[p.unwrap()] = true,
                Kind::ContainerExit => {
                    stopped[p.unwrap()][e.container.unwrap() as usize].get_or_insert(e.t);
                }
                Kind::ContainerRestart => stopped[p.unwrap()][e.container.unwrap() as usize] = None,
                Kind::PodReady => ready[p.unwrap()] = e.value == Value::Bool(true),
                Kind::PodRemoved => removed[p.unwrap()] = true,
                _ => {}
            }
            i += 1;
        }
        for p in 0..n {
            let stale = stopped[p]
                .iter()
                .any(|s| s.is_some_and(|at| t - at >= PLEG_RELIST));
            if up && synced[p] && !removed[p] && ready[p] && stale {
                return Err(format!("pod {p} Ready with a stopped container at {t} ms"));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, .. ProptestConfig::default() })]

    #[test]
    fn no_panic_deterministic_and_ready_implies_running(sc in scenario(false, 500)) {
        prop_assert!(sc.validate().is_ok(), "{:?}", sc.validate());
        let a = compare_default(&sc).unwrap();
        let b = compare_default(&sc).unwrap();
        prop_assert_eq!(&a, &b);
        for tr in &a {
            check_ready_implies_running(tr).map_err(TestCaseError::fail)?;
            prop_assert!(tr.events.windows(2).all(|w| w[0].t <= w[1].t));
        }
    }

    #[test]
    fn no_node_lifecycle_action_while_lease_gap_is_under_grace(sc in scenario(false, 60)) {
        for tr in &compare_default(&sc).unwrap() {
            // The last renewal before t = 0 is at most one renew interval (10 s) earlier.
            let mut renews: Vec<i64> = vec![-10_000];
            renews.extend(tr.events.iter().filter(|e| e.kind == Kind::LeaseRenew).map(|e| e.t));
            let max_gap = renews.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            let monitor = (sc.cluster.node_monitor_period_s * 1000.0) as i64;
            if max_gap + monitor <= tr.grace {
                // The not-ready taints follow a Ready=False the kubelet posted itself (the 1.30
                // kubelet at each start, K2n): not the lease's doing.
                let lease_driven = |e: &&restartscope_sim::Event| {
                    e.by == Actor::NodeLifecycleController
                        && !matches!(e.rule, Rule::K2n | Rule::R3 | Rule::R4)
                };
                prop_assert!(tr.events.iter().find(lease_driven).is_none(),
                    "gap {} ms, grace {} ms", max_gap, tr.grace);
                prop_assert_eq!(tr.metrics.nlc_status_writes, 0);
            }
        }
    }

    #[test]
    fn kep_keeps_healthy_pods_ready_across_short_restarts(sc in scenario(true, 34)) {
        // 34 s + 10 s renew + 5 s pass < 50 s (1.35) — but 1.31's grace is 40 s.
        let mut sc = sc;
        sc.cluster.version = KubeVersion::V1_35;
        let kep = simulate_policy(&sc, Policy::Kep).unwrap();
        prop_assert!(kep.events.iter().all(|e| e.kind != Kind::PodReady),
            "{:?}", kep.events.iter().find(|e| e.kind == Kind::PodReady));
        prop_assert_eq!(kep.metrics.unjustified_not_ready_s, 0.0);
    }
}
