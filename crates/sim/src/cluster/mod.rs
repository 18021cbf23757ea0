//! A cluster: any number of nodes (runtime + kubelet each) and the control plane, driven by one
//! event queue. Owns the clock and the dispatch: the one place where an event of a kubelet
//! process that has gone (stale generation) is dropped, and where actors' reactions to one
//! another are routed (a deletion reaches the kubelet, a taint reaches taint eviction). At the
//! end of each instant the EndpointSlice controller flushes and the metrics re-classify the
//! pods that changed. The control plane's periodic passes, the rollout poll and the per-second
//! samples are in `control.rs`. Called by `lib.rs` (`simulate*`, `compare`) and `fleet::run`.

use crate::control_plane::api::{ApiNode, ApiPod, ApiServer, Status};
use crate::control_plane::endpointslice::EndpointSliceController;
use crate::control_plane::node_lifecycle::{
    quiet_allowed, NodeHealth, NodeLifecycleController, Zoned,
};
use crate::control_plane::taint_eviction::{Pending, TaintEvictionController};
use crate::control_plane::zones::{Zone, TAINTING_PERIOD};
mod control;
#[cfg(not(feature = "small-code"))]
mod eager;
mod outside;
mod restarts;
use crate::core::rng::{draw, Purpose};
use crate::core::{ms, Ctx, Ev, NodeId, Queue, What};
use crate::node::kubelet::prober::{first_tick, probe_spec};
use crate::node::kubelet::Kubelet;
use crate::node::runtime::{Runtime, TruthChange};
use crate::node::Node;
use crate::nodes::expected_events;
pub use crate::nodes::NodeSetup;
use crate::rules::Rule;
use crate::scenario::{Cluster as ClusterSpec, Pod};
use crate::trace::checkpoints::Checkpoints;
use crate::trace::metrics::Class;
use crate::trace::recorder::{Keep, Recorder};
use crate::trace::{heat::Heat, series::Series};
use crate::trace::{Event, Metrics, Ms, ProbeKind};

/// Settings shared by the whole cluster.
pub struct Setup<'a> {
    pub cluster: &'a ClusterSpec,
    pub first_sync_delay_s: f64,
    pub seed: u64,
    pub horizon_s: f64,
    pub keep: Keep,
    /// Zones of a fleet (node `n` is in zone `n % zones`); `None`: the single-node view, whose
    /// node's peers are assumed healthy.
    pub zones: Option<u16>,
    /// Collect the per-second series.
    pub series: bool,
    /// On nodes whose events are not kept, let quiet probe workers sleep until their container
    /// changes (same metrics, far fewer events; see `prober/worker.rs`).
    pub elide: bool,
    /// A rollout that waits for each batch: the batches after the first (whose restarts the
    /// `NodeSetup`s carry) start only once every pod of the previous batch is Ready again.
    pub rollout: Option<Rollout>,
    /// A PodDisruptionBudget over node 0's pods (the single-node view).
    pub pdb: Option<crate::disruption::Budget>,
    /// Record node 0's checkpoint series (the single-node view; fleets do not pay for it).
    pub checkpoints: bool,
}

/// A rollout that waits for Ready polls from 1 s on.
const FIRST_ROLLOUT_POLL: Ms = 1000;

/// A rolling restart driven by readiness (polled every second, as an upgrade tool would).
#[derive(Clone, Debug)]
pub struct Rollout {
    /// Every batch, the first included.
    pub batches: Vec<Vec<NodeId>>,
    pub downtime: Ms,
    pub pause: Ms,
    /// Each kubelet comes back as this release (an in-place upgrade).
    pub upgrade_to: Option<crate::releases::KubeVersion>,
}

struct RolloutState {
    plan: Rollout,
    /// The batch being waited for.
    current: usize,
}

pub struct Cluster<'a> {
    now: Ms,
    horizon: Ms,
    queue: Queue,
    nodes: Vec<Node<'a>>,
    api: ApiServer,
    nlc: NodeLifecycleController,
    te: TaintEvictionController,
    eps: EndpointSliceController,
    rec: Recorder,
    spec: Vec<&'a [Pod]>,
    rollout: Option<RolloutState>,
    pdb: Option<crate::disruption::Budget>,
    /// Nodes may be quiet (`node_lifecycle::quiet_allowed`).
    quiet_allowed: bool,
    /// When each node's pending kubelet stop was scheduled (before the story: `Ms::MIN`).
    stop_scheduled_at: Vec<Ms>,
    /// The nodes a pass visits (kept to reuse its memory).
    live: Vec<usize>,
    /// The pods touched in an instant (kept to reuse its memory).
    touched: Vec<(NodeId, u16)>,
    /// The first probes run node by node (`eager.rs`). Not in the page (feature `small-code`),
    /// whose one node has no use for it: not even its fields, so the page's code stays as it was.
    #[cfg(not(feature = "small-code"))]
    eager: eager::Eager,
}

/// The result of a run: the kept events (all nodes interleaved), metrics per node and, if asked,
/// the per-second series.
pub struct Outcome {
    pub events: Vec<Event>,
    pub metrics: Vec<Metrics>,
    pub series: Option<Series>,
    /// Ready pods per node over time (with the series).
    pub heat: Option<Heat>,
    pub checkpoints: Option<Checkpoints>,
    /// Nodes whose kubelet stopped at least once by the horizon (a readiness-driven rollout can
    /// stall on a batch that never becomes Ready, leaving the later batches untouched).
    pub restarted_nodes: u32,
}

impl<'a> Cluster<'a> {
    /// The cluster in its steady state at t = 0: kubelets up for a day, containers for an hour,
    /// every pod Ready, every worker with a cached Success.
    pub fn new(setup: &Setup<'a>, nodes: Vec<NodeSetup<'a>>) -> Self {
        let c = setup.cluster;
        let lease = ms(c.lease_duration_s);
        let renew_interval = (lease / 4).max(1);
        let monitor_period = ms(c.node_monitor_period_s).max(1);
        let seed = setup.seed;
        let pods_per_node: Vec<usize> = nodes.iter().map(|n| n.pods.len()).collect();
        let mut cl = Cluster {
            now: 0,
            horizon: ms(setup.horizon_s),
            queue: Queue::default(),
            nodes: Vec::with_capacity(nodes.len()),
            api: ApiServer {
                nodes: Vec::with_capacity(nodes.len()),
                pods: Vec::with_capacity(nodes.len()),
                dirty_endpoints: Vec::new(),
                not_ready: 0,
                ready_flips: Vec::new(),
            },
            nlc: NodeLifecycleController {
                grace: ms(c.grace_s()),
                period: monitor_period,
                health: Vec::with_capacity(nodes.len()),
                zoned: setup.zones.map(|z| {
                    let z = z.max(1);
                    let zone_of: Vec<u16> =
                        (0..nodes.len()).map(|n| (n % z as usize) as u16).collect();
                    Zoned {
                        zones: (0..z)
                            .map(|k| {
                                Zone::new(
                                    (0..nodes.len() as NodeId)
                                        .filter(|n| zone_of[*n as usize] == k)
                                        .collect(),
                                )
                            })
                            .collect(),
                        zone_of,
                        all_fully_disrupted: false,
                        counted_ready: vec![true; nodes.len()],
                    }
                }),
                phase: 0,
                last_pass: Ms::MIN,
                quiet: vec![0; nodes.len().div_ceil(64)],
                current_condition: c.version.taints_on_current_condition(),
                marked: Vec::new(),
                tick_due: false,
                tainting_phase: (draw(seed, Purpose::TaintingPhase, 0, [0, 0, 0])
                    * TAINTING_PERIOD as f64) as Ms,
            },
            te: TaintEvictionController {
                toleration: ms(c.toleration_s),
                not_ready_toleration: ms(c.not_ready_toleration_s),
                pods: Vec::with_capacity(nodes.len()),
            },
            eps: EndpointSliceController::new(&nodes.iter().map(|n| n.pods).collect::<Vec<_>>()),
            rec: Recorder::new(
                &pods_per_node,
                &setup.keep,
                expected_events(setup.horizon_s, &setup.keep, &nodes),
                setup.checkpoints,
            ),
            spec: nodes.iter().map(|n| n.pods).collect(),
            rollout: setup
                .rollout
                .clone()
                .map(|plan| RolloutState { plan, current: 0 }),
            pdb: setup.pdb.clone(),
            quiet_allowed: quiet_allowed(renew_interval, monitor_period, ms(c.grace_s())),
            stop_scheduled_at: vec![Ms::MIN; nodes.len()],
            live: Vec::new(),
            touched: Vec::new(),
            #[cfg(not(feature = "small-code"))]
            eager: eager::Eager::default(),
        };
        if setup.series {
            let pods: Vec<usize> = cl.spec.iter().map(|p| p.len()).collect();
            cl.rec.collect_series(&pods, cl.horizon);
        }
        if cl.pdb.is_some() {
            cl.rec.with_pdb();
        }
        let first_sync = ms(setup.first_sync_delay_s);
        for (i, ns) in nodes.iter().enumerate() {
            let id = i as NodeId;
            let lease_phase =
                (draw(seed, Purpose::Lease, id, [0, 0, 0]) * renew_interval as f64) as Ms;
            let last_renew = lease_phase - renew_interval;
            cl.api.nodes.push(ApiNode {
                lease_renew: last_renew,
                heartbeat: last_renew,
                ready: true,
                posted_false: false,
                taint_noschedule: false,
                taint_noexecute: false,
                noexecute_not_ready: false,
            });
            cl.api.pods.push(
                ns.pods
                    .iter()
                    .map(|p| ApiPod {
                        status: Status::steady(p),
                        deleted_at: None,
                        removed: false,
                        failed: false,
                        has_service: !p.services.is_empty(),
                        endpoint: (!p.services.is_empty()).then_some(crate::trace::EndpointValue {
                            ready: true,
                            serving: true,
                            terminating: false,
                        }),
                    })
                    .collect(),
            );
            cl.nlc.health.push(NodeHealth {
                saved_renew: last_renew,
                probe_ts: last_renew,
            });
            cl.te.pods.push(vec![Pending::default(); ns.pods.len()]);
            cl.nodes.push(Node {
                runtime: Runtime::new(ns.pods),
                kubelet: Kubelet::steady(
                    ns.pods,
                    ns.profile.clone(),
                    seed,
                    renew_interval,
                    first_sync,
                ),
            });
            let kept = match &setup.keep {
                Keep::All => true,
                Keep::Nodes(v) => v.contains(&id),
            };
            cl.nodes[i].kubelet.elide = setup.elide && !kept;
            cl.push(lease_phase, id, What::LeaseRenew { gen: 0 });
            // Every pod's first class, while its records are in the cache (what `settle` does at
            // the end, in the same order). The page (feature `small-code`) leaves it to `settle`:
            // same classes, and Cluster::new stays inlined (2 KB gzip of the page's wasm).
            for p in 0..ns.pods.len() {
                if cfg!(feature = "small-code") {
                    cl.rec.touch(id, p);
                } else {
                    cl.classify(id, p);
                }
            }
        }
        let nlc_phase = (draw(seed, Purpose::Nlc, 0, [0, 0, 0]) * monitor_period as f64) as Ms;
        cl.nlc.phase = nlc_phase;
        cl.push(nlc_phase, 0, What::NlcPass);
        if setup.zones.is_some() {
            let phase =
                (draw(seed, Purpose::TaintingPhase, 0, [0, 0, 0]) * TAINTING_PERIOD as f64) as Ms;
            cl.push(phase, 0, What::TaintingPass);
        }
        for (i, ns) in nodes.iter().enumerate() {
            let id = i as NodeId;
            cl.schedule_restarts(id, ns.restarts);
            for (pi, p) in ns.pods.iter().enumerate() {
                for (ci, c) in p.all_containers().enumerate() {
                    for (k, t) in c.truth.iter().enumerate() {
                        let what = What::Truth {
                            pod: pi as u16,
                            c: ci as u8,
                            idx: k as u16,
                        };
                        cl.push(ms(t.at_s), id, what);
                    }
                    for kind in ProbeKind::ALL {
                        if let Some(pr) = probe_spec(c, kind) {
                            let period = pr.period_s as Ms * 1000;
                            let phase = first_tick(seed, id, pi, ci, kind, period);
                            let what = What::ProbeTick {
                                gen: 0,
                                pod: pi as u16,
                                c: ci as u8,
                                kind,
                                seq: 0,
                            };
                            cl.push(phase, id, what);
                        }
                    }
                }
            }
        }
        if setup.rollout.is_some() {
            cl.push(FIRST_ROLLOUT_POLL, 0, What::RolloutPoll);
        }
        #[cfg(not(feature = "small-code"))]
        {
            let stop = (setup.rollout.as_ref()).map(|r| eager::first_rollout_stop(r, &nodes));
            cl.eager.undisturbed = nodes
                .iter()
                .map(|ns| eager::undisturbed_until(ns, stop))
                .collect();
        }
        if cfg!(feature = "small-code") {
            cl.settle();
        } else {
            // A layout for the cache of a large fleet; the page's one node has no use for it.
            cl.queue.pack();
            if cl.spec.iter().any(|p| !p.is_empty()) {
                cl.settle_pdb();
            }
        }
        cl
    }

    /// Whether nodes may be quiet (by default when the settings allow it; `false` visits every
    /// node on every pass and schedules every renewal, which a test compares against).
    pub fn with_quiet_nodes(mut self, allowed: bool) -> Self {
        self.quiet_allowed &= allowed;
        self
    }

    fn push(&mut self, t: Ms, node: NodeId, what: What) {
        self.queue.push(t, Ev { node, what });
    }

    /// Runs to the horizon.
    /// The node lifecycle controller's first pass and its period (`--node-monitor-period`).
    pub fn nlc_timing(&self) -> (Ms, Ms) {
        (self.nlc.phase, self.nlc.period)
    }

    pub fn run(self) -> Outcome {
        self.run_with(&mut |_| {})
    }

    /// Runs to the horizon, telling `progress` the simulated time reached (about 100 times).
    pub fn run_with(mut self, progress: &mut dyn FnMut(Ms)) -> Outcome {
        let (mut next_sample, mut next_report): (Ms, Ms) = (0, 0);
        #[cfg(not(feature = "small-code"))]
        self.first_probes_by_node();
        while let Some((t, ev)) = self.queue.pop() {
            if t > self.horizon {
                break;
            }
            if t != self.now {
                if t >= next_report {
                    progress(t);
                    next_report = t + (self.horizon / 100).max(1);
                }
                self.end_instant();
                self.sample_until(&mut next_sample, t);
                self.now = t;
            }
            self.dispatch(ev);
        }
        self.end_instant();
        self.sample_until(&mut next_sample, self.horizon + 1);
        self.now = self.horizon;
        self.finish_quiet();
        let restarted_nodes = self
            .nodes
            .iter()
            .filter(|n| n.kubelet.restart_idx > 0 || !n.kubelet.up)
            .count() as u32;
        let (series, heat) = self.rec.take_series(self.horizon);
        let (events, metrics, checkpoints) = self.rec.finish(self.horizon);
        Outcome {
            events,
            metrics,
            series,
            heat,
            checkpoints,
            restarted_nodes,
        }
    }

    /// ES1 once per instant, then the metrics re-classify the pods that changed (and checkpoint).
    fn end_instant(&mut self) {
        self.eps.flush(&mut self.api, &mut self.rec, self.now);
        self.settle();
        self.rec.end_instant(self.now);
    }

    fn settle(&mut self) {
        let mut touched = std::mem::take(&mut self.touched);
        self.rec.take_touched(&mut touched);
        for &(node, pod) in &touched {
            self.classify(node, pod as usize);
        }
        let any = !touched.is_empty();
        self.touched = touched;
        if any {
            self.settle_pdb();
        }
    }

    /// The pod's metric class now.
    fn classify(&mut self, node: NodeId, p: usize) {
        let a = self.api.pod(node, p);
        let healthy = self.nodes[node as usize].runtime.healthy(p, self.now);
        let (gone, ready) = (a.gone_or_deleting(), a.status.ready);
        let class = Class::of(gone, ready, healthy);
        self.rec.classify(node, p, class, ready && !gone, self.now);
    }

    /// The PodDisruptionBudget after the instant: does it allow more evictions than it would
    /// if the wrongfully Ready pods (Class::UnjustifiedReady) were counted as not Ready?
    fn settle_pdb(&mut self) {
        let Some(b) = &self.pdb else {
            return;
        };
        let (mut listed, mut ready, mut wrongful) = (0, 0, 0);
        for &p in &b.pods {
            let a = self.api.pod(0, p as usize);
            if a.removed {
                continue;
            }
            listed += 1;
            // countHealthyPods: a pod being deleted does not count.
            if a.deleted_at.is_none() && a.status.ready {
                ready += 1;
                if !self.nodes[0].runtime.healthy(p as usize, self.now) {
                    wrongful += 1;
                }
            }
        }
        let api = b.status(listed, ready).disruptions_allowed;
        let truthful = b.status(listed, ready - wrongful).disruptions_allowed;
        self.rec.pdb_over(api > truthful, self.now);
    }

    fn dispatch(&mut self, ev: Ev) {
        let n = ev.node as usize;
        self.rec.count_event(ev.node);
        // A first tick that ran ahead of the queue (`eager.rs`) is stale: dropped without the
        // look at its worker, and counted as it was.
        #[cfg(not(feature = "small-code"))]
        if let What::ProbeTick {
            gen: 0,
            pod,
            c,
            kind,
            seq: 0,
        } = ev.what
        {
            if self.eager.slept.has(n, pod, c, kind) {
                return;
            }
        }
        if let Some(gen) = ev.what.kubelet_gen() {
            // A stale generation: the kubelet process that scheduled this is gone.
            let k = &self.nodes[n].kubelet;
            if gen != k.gen || !k.up {
                return;
            }
        }
        // `matches!`, not `==`: the derived `PartialEq` of `What` was a call per event.
        match ev.what {
            What::NlcPass => return self.nlc_pass(),
            What::TaintingPass => return self.tainting_pass(),
            What::RolloutPoll => return self.poll_rollout(),
            What::RuntimeStop
            | What::RuntimeStart
            | What::NodeShutdown
            | What::NodeBoot
            | What::NodeStatus { .. }
            | What::RuntimeCheck { .. }
            | What::SyncLoopResume { .. }
            | What::InitDone { .. }
            | What::InitNext { .. } => return self.dispatch_restart(ev),
            What::OrphanKilled { .. }
            | What::PodFailed { .. }
            | What::PodCleanup { .. }
            | What::NodeEdit { .. }
            | What::StatusSync { .. } => return self.dispatch_admission(ev),
            _ => {}
        }
        if matches!(ev.what, What::KubeletStop) && self.nlc.is_quiet(n) {
            self.wake(n);
        }
        let mut cx = Ctx {
            now: self.now,
            node: ev.node,
            q: &mut self.queue,
            rec: &mut self.rec,
        };
        let node = &mut self.nodes[n];
        let (k, rt, api) = (&mut node.kubelet, &mut node.runtime, &mut self.api);
        let removed = |api: &ApiServer, pod: u16| api.pod(ev.node, pod as usize).removed;
        match ev.what {
            What::KubeletStop => k.stop(&mut cx),
            What::KubeletStart => k.start(&mut cx, rt, api),
            What::ApiLost => k.api_lost(&mut cx),
            What::ApiBack => k.api_back(&mut cx, rt, api),
            What::LeaseRenew { .. } => k.renew_lease(&mut cx, api, Rule::K2r),
            What::FirstSync { pod, .. } => k.first_sync(&mut cx, rt, api, pod as usize),
            What::ProbeUpdates { .. } => k.probe_updates(&mut cx, rt, api),
            What::ProbeTick {
                pod, c, kind, seq, ..
            } => {
                // A stale tick changes nothing: the kubelet's worker says so before a look at
                // the API's pod (a fleet's cache misses); `probe_tick` checks both.
                k.probe_tick(&mut cx, rt, api, pod as usize, c as usize, kind, seq);
            }
            What::ProbeDone {
                pod,
                c,
                kind,
                success,
                seq,
                ..
            } => {
                if !removed(api, pod) {
                    let (p, c) = (pod as usize, c as usize);
                    k.probe_done(&mut cx, rt, api, p, c, kind, success, seq);
                }
            }
            What::Truth { pod, c, idx } => {
                if !removed(api, pod) {
                    let (p, c) = (pod as usize, c as usize);
                    if let TruthChange::Exited = rt.truth(&mut cx, p, c, idx as usize) {
                        if k.up {
                            // The PLEG notices the exit at its next relist.
                            let at = k.next_relist(ev.node, self.now);
                            let gen = k.gen;
                            cx.at(
                                at,
                                What::PlegRelist {
                                    gen,
                                    pod,
                                    c: c as u8,
                                },
                            );
                        }
                    }
                }
            }
            What::PlegRelist { pod, c, .. } => {
                if !removed(api, pod) {
                    k.on_container_exit(&mut cx, rt, api, pod as usize, c as usize);
                }
            }
            What::PlegStarted { pod, .. } => k.on_container_started(&mut cx, rt, api, pod as usize),
            What::Warm { pod } => {
                cx.touch(pod as usize);
                rt.changed.push(pod);
            }
            What::ContainerRestart {
                pod, c, checked, ..
            } => k.container_restart(&mut cx, rt, api, pod as usize, c as usize, checked),
            What::Eviction { pod, seq } => {
                if self.te.due(&mut cx, api, pod as usize, seq) {
                    // The kubelet's pod watch sees the deletion timestamp.
                    k.on_pod_deleted(&mut cx, rt, api, pod as usize);
                }
            }
            What::TerminationDone { pod, .. } => k.termination_done(&mut cx, rt, api, pod as usize),
            _ => unreachable!("the control plane's and the restarts' events are handled above"),
        }
        wake_changed(&mut cx, k, rt);
    }
}

/// Sleeping probe workers of pods whose containers changed during an event resume their tickers.
/// Called at the end of every node event's dispatch (`dispatch`, `dispatch_restart`).
#[inline]
fn wake_changed(cx: &mut Ctx, k: &mut Kubelet, rt: &mut Runtime) {
    (!rt.changed.is_empty()).then(|| wake_each_changed(cx, k, rt));
}

fn wake_each_changed(cx: &mut Ctx, k: &mut Kubelet, rt: &mut Runtime) {
    let mut changed = std::mem::take(&mut rt.changed);
    if k.up && k.elide {
        crate::core::sort::sort_dedup(&mut changed);
        for p in &changed {
            k.wake(cx, *p as usize);
        }
    }
    changed.clear();
    rt.changed = changed;
}
