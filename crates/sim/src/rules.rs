//! Rule ids: every trace event names the rule that produced it. Ids follow SPEC §4; finer ids
//! (a letter suffix) are ours and are listed in docs/MODEL.md.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rule {
    /// Ground truth of the scenario (not a Kubernetes rule).
    #[serde(rename = "TRUTH")]
    Truth,
    K1,
    K2,
    /// Lease renewal every 0.25 × lease duration.
    K2r,
    /// The node cannot reach the API server (or reaches it again): lease renewals and pod
    /// status writes fail while the kubelet keeps running.
    K2u,
    K3,
    /// Exited container restarted by SyncPod (restart policy, crash-loop back-off).
    K3r,
    /// computeInitContainerActions: regular containers wait until the pod has initialized.
    K3i,
    /// Kubelet terminates a pod that has a deletion timestamp.
    K4,
    /// `killContainer` raises a termination grace under 2 s to 2 s.
    K4g,
    /// PLEG reports a container exit; SyncPod regenerates the status.
    K5,
    P1,
    /// KEP: initial value not written for a container that predates this kubelet.
    P1k,
    /// #137146 / #137885: a sidecar's startup result seeded Success from its Started status.
    P1s,
    /// ContainerScopedProbes proposal (#140704): a running container the prober does not track
    /// (after a kubelet restart) is adopted, its results seeded from its API container status.
    P1a,
    P2,
    P4,
    P5,
    P6,
    /// During graceful deletion liveness and startup report Success.
    P7,
    S1,
    S2,
    S3,
    /// The API server is reachable again: the status manager writes the status it holds.
    S5r,
    N1,
    /// NoSchedule `unreachable` taint follows the node's Ready condition.
    N1t,
    N2,
    N3,
    /// Every zone fully disrupted: the controller stops tainting and removes NoExecute taints.
    N4,
    E1,
    /// Eviction cancelled because the NoExecute taint was removed.
    E1c,
    /// Pod object removed once its containers are gone.
    E1d,
    /// The 1.30 kubelet posts node Ready=False at start until its first runtime check (#124397)
    K2n,
    /// The container runtime stops: containers keep running under their shims; the kubelet keeps running, renews its lease; PLEG relists fail, kills and terminations wait for the runtime
    R1,
    /// An exec probe errors while the runtime is down and its result is thrown away; httpGet, tcpSocket and grpc probes reach the container as before
    R2,
    /// 30 s after the last good runtime check the kubelet reports "container runtime is down": the next node status posts Ready=False and the sync loop skips every iteration (pod updates and deletions, PLEG events, probe results, housekeeping wait); the not-ready taints follow, pods are not marked NotReady
    R3,
    /// The runtime is back: the next runtime check (every 5 s) clears the error, the sync loop runs again at its next back-off wake and does the pod work that waited, the next node status posts Ready=True, the taints go; PLEG sees what changed
    R4,
    /// The node shuts down: every container stops, the kubelet with them
    B1,
    /// The node has booted: the kubelet's first SyncPod finds no sandbox, creates one and starts the init containers in order, then the regular containers (restart count +1); Started and Ready wait for the probes, on every kubelet
    B2,
    /// An in-place kubelet upgrade whose container hash differs (1.30 to 1.31+): the new kubelet's first SyncPod kills and restarts every container ("Container definition changed")
    U1,
    /// A not-ready NoExecute taint: pods are deleted after their not-ready toleration (300 s by default), even if Ready
    E1n,
    /// Admission at the kubelet's start (HandlePodAdditions, before the first SyncPod) rejects a running pod that no longer fits the node, a pod being deleted included: phase Failed, "Pod was rejected: …"
    A1,
    /// In no release (open PR #133803, NotEvictPodOnKubeletRestart; only a hand-built profile): admission at start skips the node-affinity and NoExecute-taint checks for a pod that has started and was admitted before
    A1s,
    /// The rejected pod's containers are killed by housekeeping (HandlePodCleanups, every 2 s); phase Failed is written once none can run; a Failed pod with a deletion timestamp is removed at the next housekeeping
    A2,
    /// A NoExecute taint a user adds: pods that do not tolerate it are deleted at once, or after their tolerationSeconds
    E1u,
    ES1,
}

impl Rule {
    pub fn id(self) -> &'static str {
        match self {
            Rule::Truth => "TRUTH",
            Rule::K1 => "K1",
            Rule::K2 => "K2",
            Rule::K2r => "K2r",
            Rule::K2u => "K2u",
            Rule::K3 => "K3",
            Rule::K3r => "K3r",
            Rule::K3i => "K3i",
            Rule::K4 => "K4",
            Rule::K4g => "K4g",
            Rule::K5 => "K5",
            Rule::P1 => "P1",
            Rule::P1k => "P1k",
            Rule::P1s => "P1s",
            Rule::P1a => "P1a",
            Rule::P2 => "P2",
            Rule::P4 => "P4",
            Rule::P5 => "P5",
            Rule::P6 => "P6",
            Rule::P7 => "P7",
            Rule::S1 => "S1",
            Rule::S2 => "S2",
            Rule::S3 => "S3",
            Rule::S5r => "S5r",
            Rule::N1 => "N1",
            Rule::N1t => "N1t",
            Rule::N2 => "N2",
            Rule::N3 => "N3",
            Rule::N4 => "N4",
            Rule::E1 => "E1",
            Rule::E1c => "E1c",
            Rule::E1d => "E1d",
            Rule::K2n => "K2n",
            Rule::R1 => "R1",
            Rule::R2 => "R2",
            Rule::R3 => "R3",
            Rule::R4 => "R4",
            Rule::B1 => "B1",
            Rule::B2 => "B2",
            Rule::U1 => "U1",
            Rule::E1n => "E1n",
            Rule::A1 => "A1",
            Rule::A1s => "A1s",
            Rule::A2 => "A2",
            Rule::E1u => "E1u",
            Rule::ES1 => "ES1",
        }
    }

    /// One line: what the rule says.
    pub fn title(self) -> &'static str {
        match self {
            Rule::Truth => "Scenario ground truth: what the container really does",
            Rule::K1 => "Kubelet stops: no lease, no probes, no status writes; its memory is lost",
            Rule::K2 => "Kubelet starts: renews the lease and posts node Ready=True",
            Rule::K2r => "Kubelet renews its node lease every 0.25 × lease duration",
            Rule::K2u => "Node cannot reach the API server: lease renewals and pod status writes fail, probes and restarts go on; when it can again, the lease is renewed at the next retry (within 7 s) and node Ready posted at the next node-status update (10 s grid)",
            Rule::K3 => "First SyncPod: status generated before the probe workers exist",
            Rule::K3r => "SyncPod restarts an exited container (new container, new StartedAt)",
            Rule::K3i => "SyncPod starts regular containers only once the pod has initialized (last init container done, last sidecar running and started)",
            Rule::K4 => "Kubelet kills the containers of a deleted pod (termination grace)",
            Rule::K4g => "Kubelet kills with at least 2 s: a terminationGracePeriodSeconds under 2 s is raised to 2 s",
            Rule::K5 => "PLEG reports a container exit; SyncPod reports it not running",
            Rule::P1 => "A new probe worker writes its initial result (readiness Failure)",
            Rule::P1k => "KEP-4781: initial result not written for a container older than this kubelet",
            Rule::P1s => "1.35.4+ KEP-4781: a sidecar's startup result is seeded Success when its status says Started",
            Rule::P1a => "Proposal CSP (#140704): an untracked running container is adopted, its results seeded from its API status (same container ID) without an update",
            Rule::P2 => "Probe worker ticks every period (first tick jittered after a kubelet start)",
            Rule::P4 => "Probe result for a container that is not running is Failure",
            Rule::P5 => "Result cached after successThreshold / failureThreshold in a row",
            Rule::P6 => "Liveness or startup failure kills the container",
            Rule::P7 => "A pod being deleted: liveness and startup probes report Success",
            Rule::S1 => "Started computed by isContainerStarted",
            Rule::S2 => "Ready computed by UpdatePodStatus",
            Rule::S3 => "KEP-4781: Ready of an old container follows the API pod's Ready condition until a probe result exists",
            Rule::S5r => "API server reachable again: the status manager writes the pod status it holds",
            Rule::N1 => "Lease older than the grace period: node Unknown, pods marked NotReady",
            Rule::N1t => "NoSchedule unreachable taint follows node Ready",
            Rule::N2 => "NoExecute unreachable taint added at the next 100 ms tainting tick (from 1.34 after the pass that set Unknown, before it after the following pass)",
            Rule::N3 => "Lease moving and node Ready again: taints removed (pods left as they are)",
            Rule::N4 => "Every zone fully disrupted: no more NoExecute taints, existing ones removed",
            Rule::E1 => "NoExecute taint: pod deleted after its toleration",
            Rule::E1c => "Taint removed before the toleration ran out: eviction cancelled",
            Rule::E1d => "Pod object removed once its containers are gone",
            Rule::K2n => "1.30 kubelet: node Ready=False at start (\"container runtime status check may not have completed yet\") until its first runtime check; fixed in 1.31 (#124430)",
            Rule::R1 => "Container runtime stops: containers and the kubelet keep running; the lease is renewed; PLEG relists fail; kills and terminations wait for the runtime",
            Rule::R2 => "Exec probe error thrown away while the runtime is down (no result, no failure counted); network probes keep working",
            Rule::R3 => "Runtime down 30 s: node Ready=False posted by the kubelet, not-ready taints, no MarkPodsNotReady (#125618); the sync loop skips pod work (probe results, deletions, exits)",
            Rule::R4 => "Runtime back: runtime check passes, the sync loop does the pod work that waited, node Ready=True at the next node status, taints removed",
            Rule::B1 => "Node shuts down: every container and the kubelet stop",
            Rule::B2 => "Node booted: new sandbox, init containers re-run in order, every container new (restart count +1)",
            Rule::U1 => "Upgrade across the container-hash change (1.30 → 1.31): every container restarted at the first SyncPod",
            Rule::E1n => "not-ready:NoExecute taint: pod deleted after its not-ready toleration",
            Rule::A1 => "Admission at kubelet start rejects a running pod that no longer fits the node (node selector, NoExecute taint): Failed, \"Pod was rejected\"",
            Rule::A1s => "In no release (open PR #133803, NotEvictPodOnKubeletRestart): admission at start would skip node affinity and NoExecute taints for a pod already started and admitted",
            Rule::A2 => "Rejected pod: housekeeping kills its containers, then phase Failed is written and its endpoint goes; a deleted one is then removed",
            Rule::E1u => "User NoExecute taint: pods that don't tolerate it deleted at once or after tolerationSeconds",
            Rule::ES1 => "EndpointSlice: serving = PodReady, terminating = deleting, ready = serving ∧ ¬terminating",
        }
    }

    /// The Kubernetes source the rule follows.
    pub fn source(self) -> &'static str {
        match self {
            Rule::Truth => "scenario",
            Rule::K1 => "pkg/kubelet/kubelet.go (process exit)",
            Rule::K2 => "pkg/kubelet/nodelease, kubelet_node_status.go syncNodeStatus",
            Rule::K2r => "pkg/kubelet/nodelease controller (renewInterval)",
            Rule::K2u => "component-helpers lease/controller.go sync, backoffEnsureLease (retried 200 ms doubling to 7 s until the API answers); pkg/kubelet/status/status_manager.go syncPod (update fails, status kept); kubelet_node_status.go syncNodeStatus",
            Rule::K3 => "pkg/kubelet/kubelet.go SyncPod: generateAPIPodStatus before probeManager.AddPod",
            Rule::K3r => "pkg/kubelet/kuberuntime computePodActions (restartPolicy, CrashLoopBackOff)",
            Rule::K3i => "pkg/kubelet/kuberuntime/kuberuntime_container.go computeInitContainerActions; kuberuntime_manager.go computePodActions (!hasInitialized)",
            Rule::K4 => "pkg/kubelet/kubelet.go SyncTerminatingPod",
            Rule::K4g => "pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer (minimumGracePeriodInSeconds = 2)",
            Rule::K5 => "pkg/kubelet/pleg/generic.go relist, kubelet.go syncLoopIteration",
            Rule::P1 => "pkg/kubelet/prober/worker.go newWorker, doProbe",
            Rule::P1k => "pkg/kubelet/prober/worker.go doProbe (isRestart), kubeletRestartGracePeriod",
            Rule::P1s => "pkg/kubelet/prober/worker.go doProbe (isRestartableInitContainer, startup), PR #137146 (v1.36.0), #137885 (v1.35.4)",
            Rule::P1a => "PR #140704 (unmerged, 1b5df269): pkg/kubelet/prober/container_bound_manager.go EnsureProbes, adoptLocked; results_manager.go Seed",
            Rule::P2 => "pkg/kubelet/prober/worker.go run",
            Rule::P4 => "pkg/kubelet/prober/worker.go doProbe (non-running container)",
            Rule::P5 => "pkg/kubelet/prober/worker.go doProbe (resultRun), results_manager.go Set",
            Rule::P6 => "pkg/kubelet/kuberuntime computePodActions (liveness / startup Failure)",
            Rule::P7 => "pkg/kubelet/prober/worker.go doProbe (DeletionTimestamp)",
            Rule::S1 => "pkg/kubelet/prober/prober_manager.go isContainerStarted",
            Rule::S2 => "pkg/kubelet/prober/prober_manager.go UpdatePodStatus",
            Rule::S3 => "pkg/kubelet/prober/prober_manager.go setReadyStateOnKubeletRestart",
            Rule::S5r => "pkg/kubelet/status/status_manager.go syncBatch (needsUpdate), syncPod",
            Rule::N1 => "pkg/controller/nodelifecycle monitorNodeHealth, tryUpdateNodeHealth; controller_utils.go MarkPodsNotReady",
            Rule::N1t => "pkg/controller/nodelifecycle doNoScheduleTaintingPass",
            Rule::N2 => "pkg/controller/nodelifecycle processTaintBaseEviction (currentReadyCondition from v1.34, kubernetes#120815), markNodeForTainting, doNoExecuteTaintingPass",
            Rule::N3 => "pkg/controller/nodelifecycle markNodeAsReachable, doNoScheduleTaintingPass",
            Rule::N4 => "pkg/controller/nodelifecycle handleDisruption (master disruption mode), ComputeZoneState",
            Rule::E1 => "pkg/controller/tainteviction handleNodeUpdate, processPodOnNode",
            Rule::E1c => "pkg/controller/tainteviction handleNodeUpdate (no NoExecute taints: cancel)",
            Rule::E1d => "pkg/kubelet/status/status_manager.go (pod deletion once terminated)",
            Rule::K2n => "pkg/kubelet/kubelet.go Run (syncNodeStatus before updateRuntimeUp), runtime.go runtimeErrors; fixed by PR #124430 (v1.31.0)",
            Rule::R1 => "pkg/kubelet/pleg/generic.go relist (GetPods fails), pkg/kubelet/kubelet.go updateRuntimeUp (Status fails: no setRuntimeSync), SyncTerminatingPod / kuberuntime KillContainer (CRI calls fail: the pod worker retries), kubelet_pods.go HandlePodCleanups (Error listing containers)",
            Rule::R2 => "pkg/kubelet/prober/worker.go doProbe (\"Prober error, throw away the result\"), prober.go runProbe (exec through CRI ExecSync), kubernetes#106682",
            Rule::R3 => "pkg/kubelet/runtime.go runtimeErrors (maxWaitForContainerRuntime 30 s), kubelet.go syncLoop (Skipping pod synchronization: no syncLoopIteration, so no config update, PLEG event, probe result or housekeeping is handled), kubelet_node_status.go syncNodeStatus (nodeStatusUpdateFrequency 10 s); nodelifecycle monitorNodeHealth (observed False: no MarkPodsNotReady, kubernetes#125618), doNoScheduleTaintingPass, processTaintBaseEviction",
            Rule::R4 => "pkg/kubelet/kubelet.go updateRuntimeUp (every 5 s: setRuntimeSync), syncLoop (its sleep, 100 ms doubling to 5 s, ends at the next check of runtimeErrors), kubelet_node_status.go syncNodeStatus; nodelifecycle markNodeAsReachable",
            Rule::B1 => "node shutdown (process exit); e2e_node container_lifecycle_test.go node-reboot case",
            Rule::B2 => "pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions (podSandboxChanged: CreateSandbox, InitContainersToStart from the first), kuberuntime_container.go startContainer (restartCount + 1)",
            Rule::U1 => "pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions (containerChanged: hash of the spec), PR #124220 (v1.31.0: hash of name and image only); kubernetes#129385, #129659",
            Rule::E1n => "pkg/controller/tainteviction processPodOnNode; plugin/pkg/admission/defaulttolerationseconds (--default-not-ready-toleration-seconds)",
            Rule::A1 => "pkg/kubelet/kubelet.go HandlePodAdditions (canAdmitPod before podWorkers.UpdatePod; skipped only if IsPodTerminationRequested or the phase is terminal, not for a deletion timestamp), rejectPod; lifecycle/predicate.go Admit, generalFilter (NodeAffinity, NoExecute taints only); kubernetes#118497, #124586; e2e_node restart_test.go (PR #124445)",
            Rule::A1s => "PR #133803 (open): lifecycle/predicate.go Admit (skipIgnorableChecks: Status.StartTime set and allocationManager.IsPodAllocated) behind NotEvictPodOnKubeletRestart; neither is in pkg/features/kube_features.go or predicate.go of v1.31.14 to v1.37.2 or v1.38.0-beta.0",
            Rule::A2 => "pkg/kubelet/kubelet_pods.go HandlePodCleanups (orphaned runtime pod: SyncPodKill, grace 1 s; housekeepingPeriod 2 s; filterTerminalPodsToDelete: a deleted Failed pod is removed), status/status_manager.go mergePodStatus (terminal phase waits for PodCouldHaveRunningContainers), syncBatch (10 s), canBeDeleted; endpointslice ShouldPodBeInEndpoints",
            Rule::E1u => "pkg/controller/tainteviction processPodOnNode (getMatchingTolerations, getMinTolerationTime); k8s.io/api/core/v1 toleration.go ToleratesTaint",
            Rule::ES1 => "staging/src/k8s.io/endpointslice/utils.go podToEndpoint",
        }
    }

    pub const ALL: [Rule; 46] = [
        Rule::Truth,
        Rule::K1,
        Rule::K2,
        Rule::K2r,
        Rule::K2u,
        Rule::K3,
        Rule::K3r,
        Rule::K3i,
        Rule::K4,
        Rule::K4g,
        Rule::K5,
        Rule::P1,
        Rule::P1k,
        Rule::P1s,
        Rule::P1a,
        Rule::P2,
        Rule::P4,
        Rule::P5,
        Rule::P6,
        Rule::P7,
        Rule::S1,
        Rule::S2,
        Rule::S3,
        Rule::S5r,
        Rule::N1,
        Rule::N1t,
        Rule::N2,
        Rule::N3,
        Rule::N4,
        Rule::E1,
        Rule::E1c,
        Rule::E1d,
        Rule::K2n,
        Rule::R1,
        Rule::R2,
        Rule::R3,
        Rule::R4,
        Rule::B1,
        Rule::B2,
        Rule::U1,
        Rule::E1n,
        Rule::A1,
        Rule::A1s,
        Rule::A2,
        Rule::E1u,
        Rule::ES1,
    ];
}
