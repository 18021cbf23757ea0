// Package node drives one node's kubelet on the harness's clock: Kubernetes' own prober
// manager and workers (pkg/kubelet/prober), results managers (prober/results) and status
// manager (pkg/kubelet/status) of the release the harness is built with, around a fake
// container runtime whose containers follow the scenario's truth, and a fake API (client-go's
// fake clientset) the control plane reads too.
//
// What this package does itself is the kubelet's glue between those components, each step
// named after the kubelet code it stands for:
//   - the steady state before the story (kubelet up for a day, containers for an hour, every
//     worker holding a Success), as the model starts (crates/sim/src/cluster/mod.rs Cluster::new);
//   - a kubelet restart: the process's managers dropped; new ones, with empty memory, created
//     at its start (kubelet.go NewMainKubelet) while the containers keep running;
//   - the first SyncPod of each pod (kubelet.go SyncPod): generateAPIPodStatus, then
//     probeManager.AddPod. generateAPIPodStatus lives on *Kubelet; its container-status part
//     (convertToAPIContainerStatuses: Started kept from the previous status while the KEP-4781
//     gate is off) is written here from kubelet_pods.go of the release, and everything else it
//     calls is Go's: probeManager.UpdatePodStatus, status.GenerateContainersReadyCondition and
//     GeneratePodReadyCondition;
//   - each worker's run loop (worker.go run: the initial sleep, the ticker that keeps one tick,
//     manualTriggerCh, stopCh) on the fake clock, calling the real doProbe;
//   - the sync loop's probe-result handling (kubelet.go syncLoopIteration: readiness →
//     SetContainerReadiness, startup → SetContainerStartup, then HandlePodSyncs);
//   - the status manager's goroutine (status_manager.go Start: syncBatch on podStatusChannel,
//     syncBatch(all) every 10 s);
//   - init containers: ordinary ones completed before the story (Terminated, exit 0, in
//     InitContainerStatuses); sidecars (restartPolicy Always) running beside the regular
//     containers, probed by the workers AddPod creates for them; and
//     computeInitContainerActions' "initialized" before SyncPod starts a regular container;
//   - the node lease (component-helpers lease controller) and the node's Ready condition.
//   - admission at a kubelet's start on a changed node, through the release's predicate admit
//     handler, and the end of a pod it rejects (admission.go);
//   - a partition between node and API server: the kubelet's calls fail, the lease sync backs
//     off, the pod watch stops (partition.go);
//   - a node reboot: the kubelet and every container stop; at boot a new kubelet re-creates
//     each sandbox, init containers first (reboot.go).
//
// The timing randomness (a worker's initial sleep, ticker phases, lease jitter) is the model's
// keyed draws (internal/draw), so both take the same random path.
package node

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
	testingclock "k8s.io/utils/clock/testing"
	utilexec "k8s.io/utils/exec"
	"k8s.io/utils/ptr"

	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	kubepod "k8s.io/kubernetes/pkg/kubelet/pod"
	"k8s.io/kubernetes/pkg/kubelet/prober"
	"k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/status"
	kubeletutil "k8s.io/kubernetes/pkg/kubelet/util"
	"k8s.io/kubernetes/pkg/probe"

	"restartscope/oracle/internal/draw"
	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

const (
	kubeletBorn    = -86_400_000 // ms: the kubelet of the steady state started a day before
	containersBorn = -3_600_000  // ms: its containers an hour before
	statusSync     = 10_000      // status_manager.go syncPeriod
	nodeStatusFreq = 10_000      // nodeStatusUpdateFrequency
	Namespace      = "default"
	NodeName       = "node-0"
)

// Gates is what the run needs to know of the release's feature gates.
type Gates struct {
	// ChangeContainerStatusOnKubeletRestart is enabled (the legacy kubelet from 1.35 on).
	ChangeContainerStatus bool
	// The release has the KEP-4781 code at all (1.35 on).
	HasKEP bool
	// kubelet_pods.go keeps Started only for the same container ID (#141342).
	StartedBySameID bool
	// computeInitContainerActions counts any regular container of the active sandbox, an
	// exited one too, as initialized (kubecontainer.HasAnyActiveRegularContainerStarted);
	// before, only a Created or Running one.
	ExitedRegularInitializes bool
	// kubelet.go rejectPod keeps the pod's QOSClass in the Failed status (1.33 on).
	RejectKeepsQOSClass bool
}

// Node is one node: its runtime, its kubelet process (nil while down) and the API.
type Node struct {
	sc     *scenario.Scenario
	gates  Gates
	client *fake.Clientset
	clk    *testingclock.FakeClock
	rec    *trace.Recorder
	q      *Queue

	pods []*podRT
	k    *kubelet
	// A drainResults is queued for this instant (drainSoon).
	drainPending bool
	gen          int
	// The last API state the recorder saw, to record what the kubelet changed.
	seen map[string]apiSeen
	// The lease's renewal count (its jitter's key).
	renewals uint64
	// The handshake with the worker goroutine whose doProbe runs now.
	current chan probeCall
	// Record events (off while the steady state is built).
	recording bool
	// The control plane is writing (its patches are not the kubelet's).
	Busy func() bool
	// The container runtime answers; the kubelet's last good updateRuntimeUp; the kubelet has
	// posted node Ready=False.
	runtimeUp   bool
	runtimeSync int64
	postedFalse bool
	// The node cannot reach the API server (partition.go); a call now is not the kubelet's;
	// the lease sync's first failed attempt (-1: none).
	cut, outside  bool
	leaseFailedAt int64
	// An in-place upgrade (handover.go): this process ends when the upgrade's kubelet stops
	// (handOver; handedOver once it has), or goes on from there (resuming, at resumeAt).
	handOver, handedOver bool
	resuming             bool
	resumeAt             int64
	// The release this process runs (the upgrade's kubelet_start names it).
	Release string
}

const (
	runtimeCheck      = 5_000  // kubelet.go Run: updateRuntimeUp every 5 s
	maxWaitForRuntime = 30_000 // runtime.go maxWaitForContainerRuntime
)

// tickAtOrAfter is the first tick of a period grid anchored at base at or after t.
func tickAtOrAfter(base, period, t int64) int64 {
	d := t - base + period - 1
	k := d / period
	if d < 0 && d%period != 0 {
		k--
	}
	return base + k*period
}

// runtimeErrors is runtime.go runtimeErrors: "container runtime is down" once the last good
// updateRuntimeUp is maxWaitForContainerRuntime old.
func (n *Node) runtimeErrors() bool {
	return !n.runtimeUp && n.now() >= n.runtimeSync+maxWaitForRuntime
}

type podRT struct {
	idx  int
	spec *scenario.Pod
	uid  types.UID
	ip   string
	// The init containers (spec.initContainers, in order) and the regular containers.
	ics []*ctrRT
	cs  []*ctrRT
	// Regular containers SyncPod did not start because the pod had not initialized.
	waiting map[*ctrRT]bool
	// Admission at the kubelet's start turned it away (admission.go): no pod worker.
	rejected bool
	// A reboot re-created its sandbox; its init containers have not all run again (reboot.go).
	newSandbox bool
}

// all is the pod's containers as the model numbers them: init containers first.
func (p *podRT) all() []*ctrRT { return append(append([]*ctrRT{}, p.ics...), p.cs...) }

type ctrRT struct {
	spec *scenario.Container
	// The index among the pod's init and regular containers, init containers first (the
	// model's numbering, the key of its draws).
	idx int
	// An ordinary init container (completed, exit 0, before the story) or a restartable one
	// (a sidecar: restartPolicy Always, running beside the regular containers).
	init, sidecar bool
	instance      int
	started       int64
	running       bool
	// The newest exited instance's FinishedAt (-1: none), the container's health now, and when
	// a fresh instance answers probes (warmup_s after its start).
	finished int64
	health   string
	warmAt   int64
	// No instance in the runtime since the node booted (reboot.go).
	gone bool
	// The instance's hash label: HashContainer of the kubelet that created it (handover.go).
	hash uint64
}

func (c *ctrRT) id(p *podRT) string {
	return fmt.Sprintf("containerd://%s-%s-%d", p.spec.Name, c.spec.Name, c.instance)
}

type apiSeen struct {
	ready   bool
	failed  bool
	started map[string]bool
	cready  map[string]bool
	exists  bool
}

// kubelet is one kubelet process.
type kubelet struct {
	gen     int
	start   int64
	sm      status.Manager
	pm      prober.Manager
	podMgr  kubepod.Manager
	live    results.Manager
	ready   results.Manager
	startup results.Manager
	workers []*wrk
	synced  map[types.UID]bool
	backoff *flowcontrol.Backoff
	ctx     context.Context
	cancel  context.CancelFunc
	// Its pod source has listed nothing yet: the API did not answer (partition.go).
	awaitingPods bool
	// syncNodeStatus runs on its grid (from the end of a partition; partition.go).
	nodeStatusLoop bool
}

// wrk is run's loop state for one worker.
type wrk struct {
	w        prober.OracleWorker
	pod      *podRT
	ctr      *ctrRT
	probe    *scenario.Probe
	period   int64
	inLoop   bool
	busy     bool
	held     bool  // the ticker holds one tick for a busy loop
	nextTick int64 // the ticker's next tick
	tickSeq  int
	done     bool
}

// build is the node's runtime before anything is in the API: each pod's containers as the
// steady state has them.
func build(sc *scenario.Scenario, gates Gates, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, q *Queue) *Node {
	n := &Node{sc: sc, gates: gates, client: client, clk: clk, rec: rec, q: q, seen: map[string]apiSeen{}, runtimeUp: true}
	for i := range sc.Pods {
		p := &podRT{idx: i, spec: &sc.Pods[i], uid: types.UID("uid-" + sc.Pods[i].Name), ip: fmt.Sprintf("10.0.0.%d", i+1)}
		p.waiting = map[*ctrRT]bool{}
		ni := len(sc.Pods[i].InitContainers)
		for j := range sc.Pods[i].InitContainers {
			spec := &sc.Pods[i].InitContainers[j]
			c := &ctrRT{spec: spec, idx: j, instance: 1, started: containersBorn, running: true,
				finished: -1, health: "healthy", warmAt: containersBorn}
			if spec.RestartPolicy == "Always" {
				c.sidecar = true
			} else {
				// Ran to completion before the regular containers started.
				c.init, c.running = true, false
				c.started, c.finished = containersBorn-2_000, containersBorn-1_000
			}
			p.ics = append(p.ics, c)
		}
		for j := range sc.Pods[i].Containers {
			p.cs = append(p.cs, &ctrRT{spec: &sc.Pods[i].Containers[j], idx: ni + j, instance: 1, started: containersBorn, running: true,
				finished: -1, health: "healthy", warmAt: containersBorn})
		}
		n.pods = append(n.pods, p)
		// The steady state's containers were created by this release's kubelet.
		for _, c := range p.all() {
			c.hash = n.specHash(p, c)
		}
	}
	return n
}

// New builds the node in its steady state at t = 0.
func New(sc *scenario.Scenario, gates Gates, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, q *Queue) (*Node, error) {
	n := build(sc, gates, client, clk, rec, q)
	ctx := context.Background()
	for _, p := range n.pods {
		pod := n.podObject(p)
		pod.Status = n.steadyStatus(p)
		if _, err := client.CoreV1().Pods(Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: NodeName, Labels: nodeLabels(sc.Node.Labels)},
		Spec:       v1.NodeSpec{Taints: taintObjects(sc.Node.Taints)},
		Status: v1.NodeStatus{Capacity: allocatable(), Allocatable: allocatable(), Conditions: []v1.NodeCondition{{
			Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
			LastHeartbeatTime: metav1.NewTime(trace.At(-10_000)), LastTransitionTime: metav1.NewTime(trace.At(kubeletBorn)),
		}}},
	}
	if _, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	leaseMs := int64(sc.Cluster.LeaseDurationS * 1000)
	renew := max(leaseMs/4, 1)
	phase := int64(draw.Draw(sc.Seed, draw.Lease, 0, [3]uint64{}) * float64(renew))
	lease := &coordv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: NodeName, Namespace: "kube-node-lease"},
		Spec: coordv1.LeaseSpec{
			HolderIdentity:       ptr.To(NodeName),
			LeaseDurationSeconds: ptr.To(int32(sc.Cluster.LeaseDurationS)),
			RenewTime:            &metav1.MicroTime{Time: trace.At(phase - renew)},
		},
	}
	if _, err := client.CoordinationV1().Leases("kube-node-lease").Create(ctx, lease, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	n.installReactors()
	n.snapshot(false)

	// The steady-state kubelet: up for a day; every worker has seen its container and holds a
	// Success; its ticker's phase is the model's draw.
	n.startKubelet(kubeletBorn, true)
	for _, p := range n.pods {
		n.firstSync(p, true)
	}
	n.snapshot(false)
	n.recording = true
	return n, nil
}

// installReactors puts the harness's reactors in front of the fake clientset's chain.
func (n *Node) installReactors() {
	// Writes by the kubelet's status manager, as the model counts them.
	n.client.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() == "status" && n.recording && (n.Busy == nil || !n.Busy()) {
			n.rec.Add(trace.Event{T: trace.Ms(n.clk.Now()), Kind: "status_write", Pod: podName(a), By: "kubelet"})
		}
		return false, nil, nil
	})
	n.installPartition()
}

func podName(a k8stesting.Action) string {
	if pa, ok := a.(k8stesting.PatchAction); ok {
		return pa.GetName()
	}
	return ""
}

func (n *Node) now() int64 { return trace.Ms(n.clk.Now()) }

func (n *Node) podObject(p *podRT) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.spec.Name, Namespace: Namespace, UID: p.uid,
			CreationTimestamp: metav1.NewTime(trace.At(containersBorn - 5_000))},
		Spec: v1.PodSpec{NodeName: NodeName, RestartPolicy: v1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr.To(int64(p.spec.TerminationGraceS))},
	}
	tol := int64(n.sc.Cluster.TolerationS)
	ntol := tol
	if n.sc.Cluster.NotReadyTolerationS != nil {
		ntol = int64(*n.sc.Cluster.NotReadyTolerationS)
	}
	if p.spec.Workload != "daemonset" {
		// DefaultTolerationSeconds admission.
		pod.Spec.Tolerations = []v1.Toleration{
			{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &ntol},
			{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &tol},
		}
	} else {
		// The DaemonSet controller's tolerations (no tolerationSeconds).
		pod.Spec.Tolerations = []v1.Toleration{
			{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
			{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
		}
	}
	placement(&pod.Spec, p.spec)
	for _, c := range p.all() {
		ct := v1.Container{Name: c.spec.Name, Image: "registry.k8s.io/pause:3.10"}
		ct.StartupProbe = probeObject(c.spec.StartupProbe, c.idx)
		ct.ReadinessProbe = probeObject(c.spec.ReadinessProbe, c.idx)
		ct.LivenessProbe = probeObject(c.spec.LivenessProbe, c.idx)
		if c.sidecar {
			ct.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
		}
		if c.sidecar || c.init {
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, ct)
		} else {
			pod.Spec.Containers = append(pod.Spec.Containers, ct)
		}
	}
	return pod
}

func probeObject(p *scenario.Probe, idx int) *v1.Probe {
	if p == nil {
		return nil
	}
	o := &v1.Probe{PeriodSeconds: p.PeriodS, TimeoutSeconds: p.TimeoutS, SuccessThreshold: p.SuccessThreshold,
		FailureThreshold: p.FailureThreshold, InitialDelaySeconds: p.InitialDelayS}
	port := intstr.FromInt32(int32(8000 + idx))
	switch p.Handler {
	case "httpGet":
		o.HTTPGet = &v1.HTTPGetAction{Path: "/healthz", Port: port, Scheme: v1.URISchemeHTTP}
	case "tcpSocket":
		o.TCPSocket = &v1.TCPSocketAction{Port: port}
	case "grpc":
		o.GRPC = &v1.GRPCAction{Port: int32(8000 + idx)}
	default:
		o.Exec = &v1.ExecAction{Command: []string{"probe", fmt.Sprint(idx)}}
	}
	return o
}

func (n *Node) steadyStatus(p *podRT) v1.PodStatus {
	t := metav1.NewTime(trace.At(containersBorn))
	s := v1.PodStatus{Phase: v1.PodRunning, PodIP: p.ip, PodIPs: []v1.PodIP{{IP: p.ip}}, HostIP: "10.1.0.1",
		StartTime: &t, QOSClass: v1.PodQOSBestEffort}
	s.Conditions = []v1.PodCondition{
		{Type: v1.PodInitialized, Status: v1.ConditionTrue, LastTransitionTime: t},
		{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: t},
		{Type: v1.ContainersReady, Status: v1.ConditionTrue, LastTransitionTime: t},
		{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: t},
	}
	for _, c := range p.all() {
		cs := v1.ContainerStatus{
			Name: c.spec.Name, ContainerID: c.id(p), Image: "registry.k8s.io/pause:3.10", ImageID: "sha256:pause",
			Ready: true, Started: ptr.To(true),
			State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: metav1.NewTime(trace.At(c.started))}},
		}
		if c.init {
			// A completed init container: Started false (not running), Ready (exit 0).
			cs.Started = ptr.To(false)
			cs.State = c.terminated(c.finished)
		}
		if c.init || c.sidecar {
			s.InitContainerStatuses = append(s.InitContainerStatuses, cs)
		} else {
			s.ContainerStatuses = append(s.ContainerStatuses, cs)
		}
	}
	return s
}

// terminated is an exited instance's state: an ordinary init container's exit 0
// ("Completed", at its finish), any other container's kill (137, finished as of now).
func (c *ctrRT) terminated(now int64) v1.ContainerState {
	t := &v1.ContainerStateTerminated{ExitCode: 137, Reason: "Error",
		StartedAt: metav1.NewTime(trace.At(c.started)), FinishedAt: metav1.NewTime(trace.At(now))}
	if c.init {
		t.ExitCode, t.Reason, t.FinishedAt = 0, "Completed", metav1.NewTime(trace.At(c.finished))
	}
	return v1.ContainerState{Terminated: t}
}

// ---- the container runtime's answers ----

// answer is what probing the container of kind returns at ms (crates/sim's probe_answer).
func (c *ctrRT) answer(kind string, ms int64) bool {
	if !c.running || ms < c.warmAt {
		return false
	}
	switch c.health {
	case "healthy":
		return true
	case "failing-readiness":
		return kind != "readiness"
	default:
		return false
	}
}

// ---- queue ----

// Queue is the harness's one event queue: (time, order of insertion).
type Queue struct {
	items []item
	seq   int
}

type item struct {
	t   int64
	seq int
	f   func()
}

func (q *Queue) At(t int64, f func()) {
	q.seq++
	q.items = append(q.items, item{t, q.seq, f})
}

// Pop returns the next item at or before limit.
func (q *Queue) Pop(limit int64) (int64, func(), bool) {
	if len(q.items) == 0 {
		return 0, nil, false
	}
	best := 0
	for i, it := range q.items {
		if it.t < q.items[best].t || (it.t == q.items[best].t && it.seq < q.items[best].seq) {
			best = i
		}
	}
	it := q.items[best]
	if it.t > limit {
		return 0, nil, false
	}
	q.items = append(q.items[:best], q.items[best+1:]...)
	return it.t, it.f, true
}

// ---- the kubelet process ----

func (n *Node) startKubelet(at int64, steady bool) {
	n.gen++
	gen := n.gen
	prev := n.clk.Now()
	n.clk.SetTime(trace.At(at))
	ctx, cancel := context.WithCancel(context.Background())
	k := &kubelet{gen: gen, start: at, ctx: ctx, cancel: cancel, synced: map[types.UID]bool{},
		backoff: flowcontrol.NewFakeBackOff(10*time.Second, 300*time.Second, n.clk)}
	k.podMgr = kubepod.NewBasicPodManager()
	k.live, k.ready, k.startup = results.NewManager(), results.NewManager(), results.NewManager()
	k.sm = status.OracleNewManager(n.client, k.podMgr, safety{n}, kubeletutil.NewPodStartupLatencyTracker())
	prober.OracleClock = n.clk
	k.pm = prober.OracleNewManager(k.sm, k.live, k.ready, k.startup, runner{n}, n.netAnswer)
	if steady {
		n.clk.SetTime(prev)
	}
	n.k = k
	n.renewals = 0
	n.leaseFailedAt = -1
	// The pods from the API, as the config source lists them.
	n.listPods(k)
	if steady {
		n.scheduleStatusSync(gen, 0)
		return
	}
	// fastStatusUpdateOnce / syncNodeStatus: the kubelet posts Ready=True at start (1.31 on).
	n.postNodeReady()
	n.renewLease(gen)
	n.scheduleStatusSync(gen, at)
	// HandlePodAdditions admits the first list's pods again before their pod workers start.
	n.q.At(at+int64(n.sc.Kubelet.FirstSyncDelayS*1000), func() {
		if n.alive(gen) && (n.cut || k.awaitingPods) {
			// No pod list yet: the first SyncPods wait for the API (partition.go apiBack).
			k.awaitingPods = true
			return
		}
		if n.alive(gen) {
			n.handlePodAdditions()
			n.afterKubelet()
		}
	})
	for _, p := range n.pods {
		p := p
		n.q.At(at+int64(n.sc.Kubelet.FirstSyncDelayS*1000), func() {
			if n.alive(gen) && !p.rejected && !k.awaitingPods {
				n.firstSync(p, false)
				n.afterKubelet()
			}
		})
	}
}

func (n *Node) alive(gen int) bool { return n.k != nil && n.k.gen == gen }

func (n *Node) stopKubelet() {
	if n.k != nil {
		n.k.cancel()
	}
	n.k = nil
}

// scheduleStatusSync: the status manager's 10 s syncBatch(all), from its start.
func (n *Node) scheduleStatusSync(gen int, from int64) {
	next := from + statusSync
	for next <= n.now() {
		next += statusSync
	}
	n.q.At(next, func() {
		if !n.alive(gen) {
			return
		}
		status.OracleSync(n.k.ctx, n.k.sm, true)
		n.afterKubelet()
		n.scheduleStatusSync(gen, next)
	})
}

// renewLease: the lease controller renews every leaseDuration/4 with JitterUntil(0.04, sliding).
func (n *Node) renewLease(gen int) {
	if !n.alive(gen) {
		return
	}
	ctx := context.Background()
	l, err := n.client.CoordinationV1().Leases("kube-node-lease").Get(ctx, NodeName, metav1.GetOptions{})
	if err == nil {
		l.Spec.RenewTime = &metav1.MicroTime{Time: n.clk.Now()}
		_, err = n.client.CoordinationV1().Leases("kube-node-lease").Update(ctx, l, metav1.UpdateOptions{})
	}
	if err != nil {
		// The sync does not return: backoffEnsureLease tries again until the API answers
		// (partition.go apiBack schedules the attempt that gets through).
		if n.leaseFailedAt < 0 {
			n.leaseFailedAt = n.now()
		}
		return
	}
	n.leaseFailedAt = -1
	renew := max(int64(n.sc.Cluster.LeaseDurationS*1000)/4, 1)
	// The model's key: the kubelet process's start, then the renewal number from 0.
	j := draw.Draw(n.sc.Seed, draw.LeaseJitter, 0, [3]uint64{uint64(n.k.start), n.renewals, 0})
	n.renewals++
	n.q.At(n.now()+renew+int64(j*0.04*float64(renew)), func() { n.renewLease(gen) })
}

// StartLease begins the steady-state kubelet's renewals at the model's phase.
func (n *Node) StartLease() {
	renew := max(int64(n.sc.Cluster.LeaseDurationS*1000)/4, 1)
	phase := int64(draw.Draw(n.sc.Seed, draw.Lease, 0, [3]uint64{}) * float64(renew))
	gen := n.gen
	n.q.At(phase, func() { n.renewLease(gen) })
}

func (n *Node) postNodeReady() { n.postNodeCondition(true) }

// postNodeCondition posts the node's Ready condition: True ("kubelet is posting ready status")
// or False with runtimeErrors' message.
func (n *Node) postNodeCondition(ready bool) {
	ctx := context.Background()
	node, err := n.client.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return
	}
	for i := range node.Status.Conditions {
		c := &node.Status.Conditions[i]
		if c.Type != v1.NodeReady {
			continue
		}
		want, reason, msg := v1.ConditionTrue, "KubeletReady", "kubelet is posting ready status"
		if !ready {
			want, reason, msg = v1.ConditionFalse, "KubeletNotReady", "container runtime is down"
		}
		if c.Status != want {
			c.LastTransitionTime = metav1.NewTime(n.clk.Now())
			n.rec.Add(trace.Event{T: n.now(), Kind: "node_ready", Value: string(want), By: "kubelet"})
		}
		c.Status, c.Reason, c.Message = want, reason, msg
		c.LastHeartbeatTime = metav1.NewTime(n.clk.Now())
		n.postedFalse = !ready
	}
	_, _ = n.client.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
}

// Schedule puts the scenario's truth changes and restarts on the queue.
func (n *Node) Schedule() {
	for _, p := range n.pods {
		for _, c := range p.all() {
			for _, t := range c.spec.Truth {
				p, c, state := p, c, t.State
				// At the hand-over's instant a truth change ran before the kubelet stopped.
				if n.resuming && int64(t.AtS*1000) <= n.resumeAt {
					continue
				}
				n.q.At(int64(t.AtS*1000), func() {
					c.health = state
					if state == "exited" && c.running {
						n.containerExited(p, c)
					}
				})
			}
		}
	}
	// After a hand-over, a restart's stop or start at or before it ran in the old release's
	// process (the restarts before the upgrade's come first at one instant).
	past := func(t int64) bool { return n.resuming && t <= n.resumeAt }
	at := func(t int64, f func()) {
		if !past(t) {
			n.q.At(t, f)
		}
	}
	for _, r := range n.sc.Kubelet.Restarts {
		at0, down := int64(r.AtS*1000), int64(r.DowntimeS*1000)
		if r.What == "runtime" {
			at(at0, n.runtimeStopped)
			at(at0+down, n.runtimeStarted)
			continue
		}
		if r.What == "node" {
			at(at0, n.nodeShutdown)
			at(at0+down, n.nodeBoot)
			continue
		}
		upgrade := r.UpgradeTo != ""
		at(at0, func() {
			n.stopKubelet()
			n.rec.Add(trace.Event{T: at0, Kind: "kubelet_stop", By: "kubelet"})
			if upgrade && n.handOver {
				n.handedOver = true
			}
		})
		at(at0+down, func() {
			e := trace.Event{T: at0 + down, Kind: "kubelet_start", By: "kubelet"}
			if upgrade {
				e.Value = n.Release
			}
			n.rec.Add(e)
			n.startKubelet(at0+down, false)
			n.afterKubelet()
		})
	}
	n.scheduleNodeChanges()
	n.schedulePartitions()
}

// ---- containers that exit and start again ----

// containerExited: the process exits; the PLEG's next relist reports it and the sync loop runs
// SyncPod, which writes the status and starts the container again (kuberuntime computePodActions,
// doBackOff). While the kubelet is down its first SyncPod does this.
func (n *Node) containerExited(p *podRT, c *ctrRT) {
	n.exited(p, c, func() {
		if c.running {
			return
		}
		n.syncPod(p)
		n.restartContainer(p, c, false)
		n.afterKubelet()
	})
}

// exited: container c of p exits, as the runtime reports; the PLEG's next relist hands it to
// the sync loop, which runs relisted (nothing while the kubelet process has not synced the pod,
// or is gone by then).
func (n *Node) exited(p *podRT, c *ctrRT, relisted func()) {
	c.running = false
	c.finished = n.now()
	n.rec.Add(trace.Event{T: n.now(), Kind: "container_exit", Pod: p.spec.Name, Container: c.spec.Name, By: "runtime"})
	if n.k == nil || !n.k.synced[p.uid] {
		return
	}
	gen := n.k.gen
	n.q.At(n.nextRelist(n.now()), func() {
		if n.alive(gen) {
			relisted()
		}
	})
}

// nextRelist is the PLEG's first relist at or after t (every second from a phase drawn per
// kubelet process, as the model draws it).
func (n *Node) nextRelist(t int64) int64 {
	k := n.k
	phase := draw.Draw(n.sc.Seed, draw.PlegPhase, 0, [3]uint64{uint64(k.gen - 1), 0, 0})
	return tickAtOrAfter(k.start+int64(phase*1000), 1000, t)
}

// restartContainer is SyncPod's start of an exited container: doBackOff
// (kuberuntime_manager.go) against the newest exited instance's FinishedAt with client-go's
// flowcontrol.Backoff (10 s doubling to 300 s, the kubelet's backOffPeriod and
// MaxContainerBackOff), then a new instance; the next relist's SyncPod writes its status.
// checked: the back-off was looked at already (a liveness kill restarts in the same SyncPod).
func (n *Node) restartContainer(p *podRT, c *ctrRT, checked bool) {
	k := n.k
	if !checked && !c.init && !c.sidecar && !n.initialized(p) {
		// computePodActions: `if changes.KillPod || !hasInitialized { return changes }`, before
		// the regular containers (and their back-off) are looked at.
		p.waiting[c] = true
		return
	}
	if !checked && c.finished >= 0 && !c.gone {
		key := fmt.Sprintf("%s_%s_%s", p.spec.Name, p.uid, c.spec.Name)
		ts := trace.At(c.finished)
		if k.backoff.IsInBackOffSince(key, ts) {
			retry := c.finished + k.backoff.Get(key).Milliseconds()
			gen := k.gen
			n.q.At(retry, func() {
				if n.alive(gen) && !c.running {
					n.restartContainer(p, c, false)
					n.afterKubelet()
				}
			})
			return
		}
		k.backoff.Next(key, ts)
	}
	c.instance++
	c.running = true
	c.gone = false
	c.hash = n.specHash(p, c)
	c.started = n.now()
	c.health = "healthy"
	c.warmAt = n.now() + int64(c.spec.WarmupS*1000)
	n.rec.Add(trace.Event{T: n.now(), Kind: "container_restart", Pod: p.spec.Name, Container: c.spec.Name, By: "kubelet"})
	gen := k.gen
	if c.init {
		// An ordinary init container of a new sandbox (reboot.go) runs for its warmup_s.
		inst := c.instance
		n.q.At(n.now()+max(int64(c.spec.WarmupS*1000), 1), func() { n.initExited(p, c, inst) })
	}
	n.q.At(n.nextRelist(n.now()+1), func() {
		if n.alive(gen) {
			n.syncPod(p)
			n.afterKubelet()
		}
	})
}

// initialized is computeInitContainerActions' return value (kuberuntime_container.go) for the
// harness's pods, whose ordinary init containers all completed: initialized when the pod has
// no init containers or a regular container is Running (or, where the release's code says
// so, any regular container of the active sandbox: an exited one too); else the last init
// container decides (the reverse walk sets podHasInitialized only at i == len-1): an
// ordinary one exited 0; a sidecar when it runs and, with a startup probe, the startup
// manager holds Success for its container ID (`found == false` breaks out of the switch).
func (n *Node) initialized(p *podRT) bool {
	if len(p.ics) == 0 {
		return true
	}
	for _, c := range p.cs {
		if c.running || (n.gates.ExitedRegularInitializes && c.finished >= 0 && !c.gone) {
			return true
		}
	}
	last := p.ics[len(p.ics)-1]
	if last.init {
		return !last.gone && !last.running
	}
	if !last.running {
		return false
	}
	if last.spec.StartupProbe == nil {
		return true
	}
	r, found := n.k.startup.Get(kubecontainer.ContainerID{Type: "containerd", ID: strings.TrimPrefix(last.id(p), "containerd://")})
	return found && r == results.Success
}

// startWaiting is a later SyncPod's computePodActions: the regular containers that waited
// for the pod to initialize start once it has.
func (n *Node) startWaiting(p *podRT) {
	if len(p.waiting) == 0 || n.k == nil || !n.initialized(p) {
		return
	}
	for _, c := range p.cs {
		if p.waiting[c] {
			delete(p.waiting, c)
			if !c.running {
				n.restartContainer(p, c, false)
			}
		}
	}
}

// livenessKill is SyncPod after a liveness or startup Failure (computePodActions): doBackOff
// reads the snapshot from before the kill, whose newest exited instance is the previous one;
// the container is killed and, out of back-off, started again in the same SyncPod.
func (n *Node) livenessKill(uid types.UID, id kubecontainer.ContainerID) {
	for _, p := range n.pods {
		if p.uid != uid {
			continue
		}
		for _, c := range p.all() {
			if !c.running || strings.TrimPrefix(c.id(p), "containerd://") != id.ID {
				continue
			}
			k := n.k
			retry := int64(-1)
			if c.finished >= 0 {
				key := fmt.Sprintf("%s_%s_%s", p.spec.Name, p.uid, c.spec.Name)
				ts := trace.At(c.finished)
				if k.backoff.IsInBackOffSince(key, ts) {
					retry = c.finished + k.backoff.Get(key).Milliseconds()
				} else {
					k.backoff.Next(key, ts)
				}
			}
			c.running = false
			c.finished = n.now()
			n.rec.Add(trace.Event{T: n.now(), Kind: "container_exit", Pod: p.spec.Name, Container: c.spec.Name, Value: "killed", By: "kubelet"})
			if retry < 0 {
				n.restartContainer(p, c, true)
				return
			}
			// In back-off: SyncPod writes the stopped container; the pod worker retries when
			// the back-off ends.
			n.syncPod(p)
			gen := k.gen
			n.q.At(retry, func() {
				if n.alive(gen) && !c.running {
					n.restartContainer(p, c, false)
					n.afterKubelet()
				}
			})
			return
		}
	}
}

// ---- the container runtime's restart ----

// runtimeStopped: the runtime stops answering; containers keep running under their shims. The
// last good updateRuntimeUp is the last 5 s tick before now; syncNodeStatus (10 s) posts
// Ready=False once runtimeErrors says the runtime is down.
func (n *Node) runtimeStopped() {
	n.runtimeUp = false
	n.rec.Add(trace.Event{T: n.now(), Kind: "runtime_stop", By: "runtime"})
	if n.k == nil {
		return
	}
	start := n.k.start
	n.runtimeSync = start + ((n.now()-1-start)/runtimeCheck)*runtimeCheck
	gen := n.k.gen
	n.q.At(tickAtOrAfter(start, nodeStatusFreq, n.runtimeSync+maxWaitForRuntime), func() { n.nodeStatus(gen) })
}

// runtimeStarted: the runtime answers again; the next updateRuntimeUp is good, the sync loop runs
// what it skipped, and the next syncNodeStatus posts Ready=True.
func (n *Node) runtimeStarted() {
	n.runtimeUp = true
	n.rec.Add(trace.Event{T: n.now(), Kind: "runtime_start", By: "runtime"})
	if n.k == nil {
		return
	}
	gen, start := n.k.gen, n.k.start
	n.q.At(tickAtOrAfter(start, runtimeCheck, n.now()), func() {
		if !n.alive(gen) || !n.runtimeUp {
			return
		}
		n.runtimeSync = n.now()
		n.drainResults(false)
		if n.postedFalse {
			n.q.At(tickAtOrAfter(start, nodeStatusFreq, n.now()), func() { n.nodeStatus(gen) })
		}
	})
}

// nodeStatus is syncNodeStatus: the Ready condition from runtimeErrors (nodestatus.ReadyCondition).
func (n *Node) nodeStatus(gen int) {
	if !n.alive(gen) {
		return
	}
	if n.runtimeErrors() {
		if !n.postedFalse {
			n.postNodeCondition(false)
		}
	} else if n.postedFalse {
		n.postNodeCondition(true)
	}
}

// ---- SyncPod ----

// firstSync is the pod worker's first SyncPod: generateAPIPodStatus and SetPodStatus, then
// probeManager.AddPod (kubelet.go SyncPod), and for the steady state the workers' seeds.
func (n *Node) firstSync(p *podRT, steady bool) {
	k := n.k
	pod, ok := k.podMgr.GetPodByUID(p.uid)
	if !ok {
		return
	}
	api, err := n.client.CoreV1().Pods(Namespace).Get(k.ctx, p.spec.Name, metav1.GetOptions{})
	if err != nil {
		return // removed from the API (evicted): nothing to sync
	}
	pod = api
	k.podMgr.UpdatePod(pod)
	if pod.DeletionTimestamp != nil && !steady {
		n.syncTerminatingPod(p, pod)
		return
	}
	if steady {
		status.OracleSetPodStatus(k.sm, pod, n.steadyStatus(p))
	} else {
		n.syncPod(p)
	}
	k.synced[p.uid] = true
	prober.OracleAddPod(k.ctx, k.pm, pod)
	if !steady {
		// SyncPod's runtime part: containers that exited while the kubelet was down start again.
		// Sidecars first (computePodActions' InitContainersToStart), then the regular
		// containers, which wait until the pod has initialized. In a sandbox a reboot
		// re-created, the init containers run again first (reboot.go).
		if p.newSandbox {
			n.nextInit(p)
		} else {
			n.hashChanged(p)
		}
		for _, c := range p.all() {
			if !p.newSandbox && !c.running && !c.init {
				n.restartContainer(p, c, false)
			}
		}
	}
	for _, w := range prober.OracleTakeAdded() {
		ws := &wrk{w: w, pod: p, period: w.Period().Milliseconds()}
		for _, c := range p.all() {
			if c.spec.Name == w.Container() {
				ws.ctr = c
			}
		}
		ws.probe = map[string]*scenario.Probe{"startup": ws.ctr.spec.StartupProbe, "readiness": ws.ctr.spec.ReadinessProbe, "liveness": ws.ctr.spec.LivenessProbe}[w.Kind()]
		k.workers = append(k.workers, ws)
		kindIdx := map[string]uint64{"startup": 0, "readiness": 1, "liveness": 2}[w.Kind()]
		if steady {
			w.Seed(ws.ctr.id(p), pod, true)
			ws.inLoop = true
			first := int64(draw.Draw(n.sc.Seed, draw.ProbePhase, 0, [3]uint64{uint64(p.idx), uint64(ws.ctr.idx), kindIdx}) * float64(ws.period))
			ws.nextTick = first
			n.armTick(ws, k.gen)
			continue
		}
		// run: the initial sleep when the kubelet started less than a period ago.
		jitter := int64(0)
		if ws.period > n.now()-k.start {
			restartIdx := uint64(k.gen - 1)
			jitter = int64(draw.Draw(n.sc.Seed, draw.WorkerJitter, 0, [3]uint64{restartIdx<<32 | uint64(p.idx), uint64(ws.ctr.idx), kindIdx}) * float64(ws.period))
		}
		gen := k.gen
		n.q.At(n.now()+jitter, func() {
			if !n.alive(gen) || ws.done {
				return
			}
			ws.inLoop = true
			ws.nextTick = n.now() + ws.period
			n.armTick(ws, gen)
			n.loop(ws, gen)
		})
	}
	if steady {
		n.drainResults(true)
	}
}

// syncPod is SyncPod's status part: generateAPIPodStatus → statusManager.SetPodStatus.
func (n *Node) syncPod(p *podRT) {
	k := n.k
	pod, ok := k.podMgr.GetPodByUID(p.uid)
	if !ok {
		return
	}
	old, found := k.sm.GetPodStatus(p.uid)
	if !found {
		old = pod.Status
	}
	s := v1.PodStatus{Phase: v1.PodRunning, PodIP: p.ip, PodIPs: []v1.PodIP{{IP: p.ip}}, HostIP: "10.1.0.1",
		StartTime: old.StartTime, QOSClass: v1.PodQOSBestEffort}
	// convertToAPIContainerStatuses runs once for the init containers and once for the regular
	// ones, each against the previous status's list of its kind.
	oldByName := map[string]v1.ContainerStatus{}
	for _, c := range append(append([]v1.ContainerStatus{}, old.InitContainerStatuses...), old.ContainerStatuses...) {
		oldByName[c.Name] = c
	}
	for _, c := range p.all() {
		cs := v1.ContainerStatus{Name: c.spec.Name, ContainerID: c.id(p), Image: "registry.k8s.io/pause:3.10", ImageID: "sha256:pause",
			RestartCount: int32(c.instance - 1)}
		if c.gone {
			o, found := oldByName[c.spec.Name]
			cs = goneStatus(c.spec.Name, len(p.ics) > 0, o, found)
		} else if c.running {
			cs.State.Running = &v1.ContainerStateRunning{StartedAt: metav1.NewTime(trace.At(c.started))}
		} else {
			cs.State = c.terminated(n.now())
		}
		// kubelet_pods.go convertToAPIContainerStatuses: with the KEP-4781 gate off (1.35 on),
		// a running container keeps the previous status's Started — by container name, or from
		// #141342 only for the same container ID.
		if n.gates.HasKEP && !n.gates.ChangeContainerStatus && c.running {
			if o, ok := oldByName[c.spec.Name]; ok && o.Started != nil && (!n.gates.StartedBySameID || o.ContainerID == cs.ContainerID) {
				cs.Started = o.Started
			}
		}
		if c.init || c.sidecar {
			s.InitContainerStatuses = append(s.InitContainerStatuses, cs)
		} else {
			s.ContainerStatuses = append(s.ContainerStatuses, cs)
		}
	}
	prober.OracleUpdatePodStatus(k.ctx, k.pm, pod, &s)
	// generateAPIPodStatus: the conditions over allContainerStatuses (init containers first).
	all := append(append([]v1.ContainerStatus{}, s.InitContainerStatuses...), s.ContainerStatuses...)
	conds := []v1.PodCondition{status.OracleInitialized(pod, &old, all, s.Phase)}
	cr, ready := status.OracleConditions(pod, &old, conds, all, s.Phase)
	s.Conditions = append(conds, cr, ready, v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
	status.OracleSetPodStatus(k.sm, pod, s)
	n.wakeTriggered()
	if pod.DeletionTimestamp == nil && k.synced[p.uid] {
		n.nextInit(p)
		n.startWaiting(p)
	}
}

// syncTerminatingPod is the pod worker's SyncTerminatingPod for a pod deleted in the API (an
// eviction) that a starting kubelet meets: the status generated with no probe workers (none are
// added for a terminating pod), then the containers killed with the deletion's grace period
// (the model's containers take all of it), then the status generated again, terminal.
func (n *Node) syncTerminatingPod(p *podRT, pod *v1.Pod) {
	k := n.k
	n.syncPod(p)
	grace := int64(p.spec.TerminationGraceS * 1000)
	if pod.DeletionGracePeriodSeconds != nil {
		grace = *pod.DeletionGracePeriodSeconds * 1000
	}
	gen := k.gen
	n.q.At(n.now()+grace, func() {
		if !n.alive(gen) {
			return
		}
		for _, c := range p.all() {
			c.running = false
		}
		n.syncPod(p)
		n.afterKubelet()
	})
}

// ---- a worker's run loop ----

func (n *Node) armTick(ws *wrk, gen int) {
	ws.tickSeq++
	seq, at := ws.tickSeq, ws.nextTick
	n.q.At(at, func() {
		if !n.alive(gen) || ws.done || ws.tickSeq != seq {
			return
		}
		ws.nextTick = at + ws.period
		n.armTick(ws, gen)
		if ws.busy {
			ws.held = true
			return
		}
		n.loop(ws, gen)
	})
}

// loop is one pass of run's for loop: doProbe, then the select.
func (n *Node) loop(ws *wrk, gen int) {
	if ws.w.TakeStop() {
		n.exit(ws)
		return
	}
	ws.busy = true
	ws.held = false
	n.doProbe(ws, gen, func(keep bool) {
		ws.busy = false
		if !n.alive(gen) {
			return
		}
		n.drainSoon()
		if !keep || ws.w.TakeStop() {
			n.exit(ws)
			return
		}
		if ws.w.TakeTrigger() {
			// manualTriggerCh: probeTicker.Reset(period), then probe again at once.
			ws.nextTick = n.now() + ws.period
			n.armTick(ws, gen)
			n.loop(ws, gen)
			return
		}
		if ws.held {
			n.loop(ws, gen)
		}
	})
}

func (n *Node) exit(ws *wrk) {
	ws.done = true
	ws.w.Exit()
}

// wakeTriggered: a worker idle in its select receives a manual trigger at once.
func (n *Node) wakeTriggered() {
	if n.k == nil {
		return
	}
	gen := n.k.gen
	for _, ws := range n.k.workers {
		if ws.inLoop && !ws.busy && !ws.done {
			if ws.w.TakeTrigger() {
				ws.nextTick = n.now() + ws.period
				n.armTick(ws, gen)
				n.q.At(n.now(), func() {
					if n.alive(gen) && !ws.busy && !ws.done {
						n.loop(ws, gen)
					}
				})
			}
		}
	}
}

// doProbe runs the real doProbe in a goroutine. When it reaches the container (the runner or
// a network answer), the probe takes exec_s (or fails at timeoutSeconds) of harness time; the
// answer is the truth when the probe started, as in the model.
func (n *Node) doProbe(ws *wrk, gen int, then func(bool)) {
	started := make(chan probeCall)
	returned := make(chan bool)
	n.current = started
	go func() { returned <- ws.w.DoProbe(n.k.ctx) }()
	drained := false
	for {
		select {
		case keep := <-returned:
			n.current = nil
			then(keep)
			return
		case call := <-started:
			if !drained {
				// What doProbe cached before it reached the container (an initial result) is
				// in the results managers' channels now: the sync loop takes it while the
				// probe runs.
				drained = true
				n.drainSoon()
				n.current = started
			}
			if call.viaRuntime && !n.runtimeUp {
				// CRI ExecSync fails at once: execprobe returns the error, the prober retries
				// (runProbeWithRetries) and doProbe throws the result away.
				call.errc <- true
				call.reply <- false
				continue
			}
			n.current = nil
			kind := ws.w.Kind()
			ok := ws.ctr.answer(kind, n.now())
			exec := int64(*ws.probe.ExecS * 1000)
			timeout := int64(ws.probe.TimeoutS) * 1000
			dur := exec
			if exec > timeout {
				dur, ok = timeout, false
			}
			if ws.probe.Handler == "grpc" && ws.ctr.running && n.now() < ws.ctr.warmAt {
				// The container does not listen yet: the release's own gRPC prober, run
				// against a closed loopback port (grpc.go), fails at once or at the timeout.
				dur, ok = grpcRefused(timeout)
			}
			n.q.At(n.now()+dur, func() {
				call.reply <- ok
				keep := <-returned
				then(keep)
			})
			return
		}
	}
}

type probeCall struct {
	reply chan bool
	// Whether the probe goes through the container runtime (exec: CRI ExecSync).
	viaRuntime bool
	errc       chan bool
}

// probeStarted is called on the worker's goroutine when the probe reaches the container; ok
// false with down true: the runtime did not answer.
func (n *Node) probeStarted(viaRuntime bool) (ok, down bool) {
	c := probeCall{reply: make(chan bool), viaRuntime: viaRuntime, errc: make(chan bool, 1)}
	n.current <- c
	ok = <-c.reply
	select {
	case down = <-c.errc:
	default:
	}
	return ok, down
}

type runner struct{ n *Node }

// RunInContainer is the runtime's ExecSync for an exec probe: exit 0 when healthy, exit 1
// when not.
func (r runner) RunInContainer(_ context.Context, _ kubecontainer.ContainerID, _ []string, _ time.Duration) ([]byte, error) {
	ok, down := r.n.probeStarted(true)
	if down {
		return nil, errors.New("rpc error: code = Unavailable desc = connection error: dial unix /run/containerd/containerd.sock: connect: connection refused")
	}
	if ok {
		return nil, nil
	}
	return nil, utilexec.CodeExitError{Err: errors.New("command terminated with exit code 1"), Code: 1}
}

func (n *Node) netAnswer(kind, host string, port int) (probe.Result, error) {
	if ok, _ := n.probeStarted(false); ok {
		return probe.Success, nil
	}
	return probe.Failure, nil
}

// ---- the sync loop's probe results ----

// drainResults is syncLoopIteration's probe cases: readiness → SetContainerReadiness, startup
// → SetContainerStartup, each followed by HandlePodSyncs (a SyncPod that regenerates the
// status); then the status manager's goroutine writes what changed.
// drainSoon: the sync loop takes what a doProbe put in the results managers' channels once
// every worker due at this instant has run its doProbe. The workers AddPod starts together
// are goroutines that read the status manager at once; the sync loop is another goroutine that
// must be woken by the channel. No worker reads another's initial result: the startup
// worker's Unknown does not clear Started before the readiness worker has looked.
func (n *Node) drainSoon() {
	if n.drainPending {
		return
	}
	n.drainPending = true
	gen := n.k.gen
	n.q.At(n.now(), func() {
		n.drainPending = false
		if n.alive(gen) {
			n.drainResults(false)
			n.wakeTriggered()
		}
	})
}

func (n *Node) drainResults(steady bool) {
	k := n.k
	if !steady && n.runtimeErrors() {
		// syncLoop: "Skipping pod synchronization" while runtimeErrors is set: the probe
		// results wait in their channels. The status manager's own goroutine still writes.
		n.afterKubelet()
		return
	}
	for {
		select {
		case u := <-k.ready.Updates():
			status.OracleSetContainerReadiness(k.sm, u.PodUID, u.ContainerID, u.Result == results.Success)
			n.probeSync(u.PodUID, steady)
		case u := <-k.startup.Updates():
			status.OracleSetContainerStartup(k.sm, u.PodUID, u.ContainerID, u.Result == results.Success)
			if u.Result == results.Failure && !steady {
				n.livenessKill(u.PodUID, u.ContainerID)
			}
			n.probeSync(u.PodUID, steady)
		case u := <-k.live.Updates():
			if u.Result == results.Failure && !steady {
				n.livenessKill(u.PodUID, u.ContainerID)
			}
		default:
			if !steady {
				n.afterKubelet()
			} else {
				status.OracleSync(k.ctx, k.sm, false)
			}
			return
		}
	}
}

func (n *Node) probeSync(uid types.UID, steady bool) {
	if steady {
		return
	}
	for _, p := range n.pods {
		if p.uid == uid && n.k.synced[uid] {
			n.syncPod(p)
		}
	}
}

// afterKubelet: the status manager's goroutine runs syncBatch for a signalled change, and the
// recorder notes what the kubelet changed in the API.
func (n *Node) afterKubelet() {
	if n.k != nil {
		status.OracleSync(n.k.ctx, n.k.sm, false)
	}
	n.snapshot(true)
}

// Snapshot records the API's pod Ready and container Started/Ready changes since the last
// look, attributed to by.
func (n *Node) snapshot(record bool) { n.SnapshotBy(record, "kubelet") }

func (n *Node) SnapshotBy(record bool, by string) {
	var list *v1.PodList
	n.asOutside(func() { list, _ = n.client.CoreV1().Pods(Namespace).List(context.Background(), metav1.ListOptions{}) })
	present := map[string]bool{}
	items := list.Items
	sort.Slice(items, func(i, j int) bool { return podIndex(n, items[i].Name) < podIndex(n, items[j].Name) })
	n.watchPods(items)
	for _, pod := range items {
		present[pod.Name] = true
		cur := apiSeen{exists: true, failed: pod.Status.Phase == v1.PodFailed, started: map[string]bool{}, cready: map[string]bool{}}
		for _, c := range pod.Status.Conditions {
			if c.Type == v1.PodReady {
				cur.ready = c.Status == v1.ConditionTrue
			}
		}
		for _, c := range append(append([]v1.ContainerStatus{}, pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...) {
			cur.started[c.Name] = c.Started != nil && *c.Started
			cur.cready[c.Name] = c.Ready
		}
		prev, had := n.seen[pod.Name]
		n.seen[pod.Name] = cur
		if !record || !had || !n.recording {
			continue
		}
		t := n.now()
		for _, c := range append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
			if prev.started[c.Name] != cur.started[c.Name] {
				n.rec.Add(trace.Event{T: t, Kind: "container_started", Pod: pod.Name, Container: c.Name, Value: cur.started[c.Name], By: by})
			}
			if prev.cready[c.Name] != cur.cready[c.Name] {
				n.rec.Add(trace.Event{T: t, Kind: "container_ready", Pod: pod.Name, Container: c.Name, Value: cur.cready[c.Name], By: by})
			}
		}
		if prev.ready != cur.ready {
			n.rec.Add(trace.Event{T: t, Kind: "pod_ready", Pod: pod.Name, Value: cur.ready, By: by})
		}
		if cur.failed && !prev.failed {
			n.rec.Add(trace.Event{T: t, Kind: "pod_failed", Pod: pod.Name, By: by})
		}
	}
	for name := range n.seen {
		if !present[name] {
			delete(n.seen, name)
		}
	}
}

func podIndex(n *Node, name string) int {
	for i, p := range n.sc.Pods {
		if p.Name == name {
			return i
		}
	}
	return len(n.sc.Pods)
}

// PodUIDName maps a pod name to its index for the vector's ordering.
func PodUIDName(uid types.UID) string { return strings.TrimPrefix(string(uid), "uid-") }
