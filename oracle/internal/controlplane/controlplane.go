// Package controlplane runs the control plane around the story's node with Kubernetes' own Go
// code of the release the harness is built with: the node lifecycle controller
// (pkg/controller/nodelifecycle: monitorNodeHealth, doNoExecuteTaintingPass, the NoSchedule
// tainting and MarkPodsNotReady) and the taint eviction controller
// (pkg/controller/tainteviction: the NoExecute taint's pod deletions), on the harness's fake
// clock, one step at a time, against the fake API the kubelet side writes.
//
// It drives them as their unit tests do (node_lifecycle_controller_test.go,
// taint_eviction_test.go): informers that never run, whose stores this package fills from the
// fake clientset before every action (so no informer goroutine races the clock), the
// controllers' clocks replaced, and the loops of their Run methods called one pass at a time:
//   - monitorNodeHealth every --node-monitor-period, from the model's phase
//     (draw(seed, Nlc)·period, crates/sim/src/cluster/mod.rs Cluster::new);
//   - doNoExecuteTaintingPass every scheduler.NodeEvictionPeriod (100 ms), from the model's
//     tainting phase (draw(seed, TaintingPhase)·100 ms), on ticks where a node waits to be
//     tainted (a pass over empty queues does nothing, and takes no token from the limiter);
//   - the informer handlers each controller registers, for every object that changed, then
//     the controllers' workers (doNodeProcessingPassWorker, doPodProcessingWorker, the taint
//     eviction controller's worker) until their queues are empty; again after each write, so
//     a write is seen at once, as the model assumes;
//   - a pending deletion (TimedWorkerQueue) when it falls due.
//
// The hooks these need inside Kubernetes' packages are oracle/overlay/pkg/controller/…
// (zz_oracle.go files, and sed scripts that only swap wall-clock reads and goroutine starts).
//
// What the controllers change is recorded in the model's trace vocabulary
// (crates/sim/src/trace/mod.rs Kind, Value, Actor::as_str), by comparing the API's objects
// before and after each action: node_ready (Unknown), taint_added and taint_removed (value the
// effect, NoSchedule or NoExecute, as the model's TaintEffect), status_write and pod_ready
// false (MarkPodsNotReady), eviction_scheduled (value: when, in seconds), eviction_cancelled,
// status_write (the DisruptionTarget condition) and eviction (the pod's deletion). Only the
// story's node (Config.Nodes[0]) and its pods are recorded; what others write (the kubelet
// side) is theirs to record.
package controlplane

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	goruntime "runtime"
	"runtime/debug"
	"sort"
	"sync/atomic"
	"time"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
	"k8s.io/kubernetes/pkg/controller/tainteviction"

	"restartscope/oracle/internal/draw"
	"restartscope/oracle/internal/trace"
)

// The controllers as the model's trace names them (crates/sim/src/trace/mod.rs Actor::as_str).
const (
	ByNodeLifecycle = "node-lifecycle-controller"
	ByTaintEviction = "taint-eviction-controller"
)

// kube-controller-manager's name for the taint eviction controller
// (cmd/kube-controller-manager/names TaintEvictionController).
const taintEvictionControllerName = "taint-eviction-controller"

// Rounds of informer events and workers after one action before Step gives up: the
// controllers settle in two or three.
const maxRounds = 50

// Config is the control plane's settings (kube-controller-manager's flags) and the nodes.
type Config struct {
	// --node-monitor-grace-period, --node-monitor-period.
	NodeMonitorGracePeriod time.Duration
	NodeMonitorPeriod      time.Duration
	// --node-startup-grace-period (default 60 s): only for a node that never posted Ready.
	NodeStartupGracePeriod time.Duration
	// The peers' leases' duration (their kubelets' nodeLeaseDurationSeconds; default 40 s).
	LeaseDuration time.Duration
	// The model's seed: the controllers' phases are its draws.
	Seed uint64
	// The story's node first: the kubelet side writes it, its lease and its pods. The others
	// are peers this package creates and keeps Ready (their leases renewed before every pass),
	// as the model's single-node view assumes a healthy multi-node cluster
	// (crates/sim/src/control_plane/node_lifecycle.rs): with them the zone is not fully
	// disrupted (handleDisruption would stop tainting) and stays Normal with up to two
	// not-Ready nodes (ComputeZoneState). One peer is enough for one story node.
	Nodes []string
	// --node-eviction-rate (0.1), --secondary-node-eviction-rate (0.01),
	// --large-cluster-size-threshold (50), --unhealthy-zone-threshold (0.55).
	EvictionLimiterQPS          float32
	SecondaryEvictionLimiterQPS float32
	LargeClusterThreshold       int32
	UnhealthyZoneThreshold      float32
	// By default this package makes the fake clientset delete a pod bound to a node as the API
	// server does (registry/core/pod's graceful deletion): it sets deletionTimestamp and
	// deletionGracePeriodSeconds and keeps the object until a delete with grace period 0 (the
	// kubelet's, once the containers stopped). ImmediatePodDeletion keeps the fake's own
	// delete, which removes the object at once.
	ImmediatePodDeletion bool
}

func (cfg *Config) defaults() {
	if cfg.NodeStartupGracePeriod == 0 {
		cfg.NodeStartupGracePeriod = 60 * time.Second
	}
	if cfg.LeaseDuration == 0 {
		cfg.LeaseDuration = 40 * time.Second
	}
	if cfg.EvictionLimiterQPS == 0 {
		cfg.EvictionLimiterQPS = 0.1
	}
	if cfg.SecondaryEvictionLimiterQPS == 0 {
		cfg.SecondaryEvictionLimiterQPS = 0.01
	}
	if cfg.LargeClusterThreshold == 0 {
		cfg.LargeClusterThreshold = 50
	}
	if cfg.UnhealthyZoneThreshold == 0 {
		cfg.UnhealthyZoneThreshold = 0.55
	}
}

// ControlPlane is the two controllers on the harness's clock. One per process at a time: the
// hooks' clocks are package variables of Kubernetes' packages.
type ControlPlane struct {
	cfg    Config
	client *fake.Clientset
	clk    *testingclock.FakeClock
	teClk  *stepClock
	rec    *trace.Recorder

	nc *nodelifecycle.Controller
	tc *tainteviction.Controller

	nodeStore, podStore, leaseStore cache.Store

	// The objects as the controllers' stores last took them.
	nodes  map[string]*v1.Node
	pods   map[string]*v1.Pod
	leases map[string]*coordv1.Lease

	monitorPhase, taintPhase time.Duration
	nextMonitor              time.Time
	// The last Step's instant, and the last doNoExecuteTaintingPass tick's.
	stepAt, taintedAt time.Time
	busy              atomic.Bool
}

var podsResource = v1.SchemeGroupVersion.WithResource("pods")

// New builds the controllers as kube-controller-manager does (NewNodeLifecycleController with
// the SeparateTaintEvictionController gate on, the default since 1.29, and tainteviction.New on
// the same informers), creates the peers, and takes in the API as it is.
func New(ctx context.Context, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, cfg Config) (*ControlPlane, error) {
	cfg.defaults()
	if len(cfg.Nodes) == 0 {
		return nil, fmt.Errorf("controlplane: no nodes")
	}
	if cfg.NodeMonitorPeriod <= 0 || cfg.NodeMonitorGracePeriod <= 0 {
		return nil, fmt.Errorf("controlplane: node monitor period and grace period must be positive")
	}
	c := &ControlPlane{
		cfg: cfg, client: client, clk: clk, rec: rec,
		teClk:  &stepClock{FakeClock: clk},
		nodes:  map[string]*v1.Node{},
		pods:   map[string]*v1.Pod{},
		leases: map[string]*coordv1.Lease{},
	}
	if !cfg.ImmediatePodDeletion {
		client.PrependReactor("delete", "pods", c.gracefulDelete)
	}
	if err := c.createPeers(ctx); err != nil {
		return nil, err
	}

	// The clocks: the controller's now (as node_lifecycle_controller_test.go sets it), the
	// tainting queue's and its token buckets', the taint eviction controller's.
	scheduler.OracleUseClock(clk)
	tainteviction.OracleSetNow(clk.Now)

	factory := informers.NewSharedInformerFactory(client, 0)
	leaseInformer := factory.Coordination().V1().Leases()
	nodeInformer := factory.Core().V1().Nodes()
	podInformer := factory.Core().V1().Pods()
	daemonSetInformer := factory.Apps().V1().DaemonSets()
	nc, err := nodelifecycle.NewNodeLifecycleController(ctx, leaseInformer, podInformer, nodeInformer, daemonSetInformer, client,
		cfg.NodeMonitorPeriod, cfg.NodeStartupGracePeriod, cfg.NodeMonitorGracePeriod,
		cfg.EvictionLimiterQPS, cfg.SecondaryEvictionLimiterQPS, cfg.LargeClusterThreshold, cfg.UnhealthyZoneThreshold)
	if err != nil {
		return nil, err
	}
	nc.OracleSetNow(func() metav1.Time { return metav1.NewTime(clk.Now()) })
	// kube-controller-manager's startTaintEvictionController: the pod informer carries the
	// spec.nodeName index NewNodeLifecycleController added.
	tc, err := tainteviction.New(ctx, client, podInformer, nodeInformer, taintEvictionControllerName)
	if err != nil {
		return nil, err
	}
	tc.OracleUseClock(c.teClk)
	c.nc, c.tc = nc, tc
	c.nodeStore = nodeInformer.Informer().GetStore()
	c.podStore = podInformer.Informer().GetIndexer()
	c.leaseStore = leaseInformer.Informer().GetStore()

	period := msDuration(cfg.NodeMonitorPeriod)
	c.monitorPhase = time.Duration(float64(period)*draw.Draw(cfg.Seed, draw.Nlc, 0, [3]uint64{})) * time.Millisecond
	c.taintPhase = time.Duration(float64(msDuration(scheduler.NodeEvictionPeriod))*draw.Draw(cfg.Seed, draw.TaintingPhase, 0, [3]uint64{})) * time.Millisecond
	now := clk.Now()
	c.nextMonitor = gridAtOrAfter(c.monitorPhase, cfg.NodeMonitorPeriod, now)
	if err := c.settle(ctx, ""); err != nil {
		return nil, err
	}
	return c, nil
}

// msDuration is d in whole milliseconds (the model's clock), as a count.
func msDuration(d time.Duration) int64 { return d.Milliseconds() }

// gridAtOrAfter is the first instant phase + k·period (from trace.Base) at or after t.
func gridAtOrAfter(phase, period time.Duration, t time.Time) time.Time {
	first := trace.Base.Add(phase)
	if !t.After(first) {
		return first
	}
	k := (t.Sub(first) + period - 1) / period
	return first.Add(k * period)
}

// MonitorPhase is when monitorNodeHealth first runs (then every NodeMonitorPeriod), and
// TaintingPhase when doNoExecuteTaintingPass first may (then every 100 ms): the model's nlc_phase
// and tainting phase.
func (c *ControlPlane) MonitorPhase() time.Time  { return trace.Base.Add(c.monitorPhase) }
func (c *ControlPlane) TaintingPhase() time.Time { return trace.Base.Add(c.taintPhase) }

// NextDue is the next instant Step must run at: the next monitorNodeHealth pass, the next
// doNoExecuteTaintingPass tick while a node waits to be tainted, the next pending deletion.
func (c *ControlPlane) NextDue() time.Time {
	next := c.nextMonitor
	if c.nc.OracleTaintQueueLen() > 0 {
		// The next tick after the one that ran (or after now: the queue is filled only by a
		// pass, in a Step, whose own instant's tick ran there).
		from := c.clk.Now()
		if c.taintedAt.Equal(from) || c.stepAt.Equal(from) {
			from = from.Add(time.Nanosecond)
		}
		if tick := gridAtOrAfter(c.taintPhase, scheduler.NodeEvictionPeriod, from); tick.Before(next) {
			next = tick
		}
	}
	if at, ok := c.teClk.next(); ok && at.Before(next) {
		next = at
	}
	return next
}

// Sync takes in what others wrote (the kubelet side) and runs the controllers' informer-driven
// work at once, as their informers would within milliseconds: the NoSchedule taint that follows
// a Ready condition the kubelet posted (doNoScheduleTaintingPass), processPod for a pod newly
// bound to a not-Ready node, the taint eviction controller's handlers. Call it after each write
// of the kubelet side; Step does it first too.
func (c *ControlPlane) Sync(ctx context.Context) error {
	c.busy.Store(true)
	defer c.busy.Store(false)
	return c.settle(ctx, "")
}

// Busy says whether the controllers are running (inside Step or Sync): a write the fake
// clientset sees then is theirs (a reactor of the kubelet side that counts the kubelet's status
// patches can skip it: the taint eviction controller patches the DisruptionTarget condition).
func (c *ControlPlane) Busy() bool { return c.busy.Load() }

// Step runs everything due at the clock's now, in this order: what others wrote since the last
// step (informer events, then the workers), the deletions that fall due, a monitorNodeHealth
// pass, a doNoExecuteTaintingPass tick; each action's writes are taken in (and the workers run)
// before the next.
func (c *ControlPlane) Step(ctx context.Context) error {
	now := c.clk.Now()
	c.stepAt = now
	c.busy.Store(true)
	defer c.busy.Store(false)
	if err := c.settle(ctx, ""); err != nil {
		return err
	}
	// TimedWorkerQueue: each deletion whose time has come (deletePodHandler).
	before := c.tc.OracleScheduled()
	if c.teClk.fire(now) > 0 {
		tainteviction.OracleWait()
		c.recordScheduled(before, c.tc.OracleScheduled(), now)
		if err := c.settle(ctx, ByTaintEviction); err != nil {
			return err
		}
	}
	if !now.Before(c.nextMonitor) {
		if err := c.renewPeers(ctx); err != nil {
			return err
		}
		if err := c.settle(ctx, ""); err != nil {
			return err
		}
		if err := c.nc.OracleMonitorNodeHealth(ctx); err != nil {
			return err
		}
		if err := c.settle(ctx, ByNodeLifecycle); err != nil {
			return err
		}
		c.nextMonitor = gridAtOrAfter(c.monitorPhase, c.cfg.NodeMonitorPeriod, now.Add(time.Nanosecond))
	}
	// A doNoExecuteTaintingPass tick, if now is one. Only monitorNodeHealth adds to the
	// tainting queues, so the tick after it at the same instant sees what it added; and NextDue
	// stops at every tick while a node waits, so a tick with a node waiting is never skipped.
	if c.nc.OracleTaintQueueLen() > 0 && !c.taintedAt.Equal(now) &&
		gridAtOrAfter(c.taintPhase, scheduler.NodeEvictionPeriod, now).Equal(now) {
		c.taintedAt = now
		c.nc.OracleNoExecuteTaintingPass(ctx)
		if err := c.settle(ctx, ByNodeLifecycle); err != nil {
			return err
		}
	}
	return nil
}

// Close stops what the controllers started (their event broadcasters) and shuts their queues.
func (c *ControlPlane) Close() {
	c.nc.OracleShutdown()
	c.tc.OracleShutdown()
}

// settle takes in the API's changes (attributed to by; "" for others' writes, not recorded),
// then runs the workers of both controllers, taking in their writes after each, until no work
// is left.
func (c *ControlPlane) settle(ctx context.Context, by string) error {
	if err := c.observe(ctx, by); err != nil {
		return err
	}
	for range maxRounds {
		ncWork, tcWork := c.nc.OracleQueued() > 0, c.tc.OracleQueued() > 0
		if !ncWork && !tcWork {
			return nil
		}
		if ncWork {
			c.nc.OracleDrain(ctx)
			if err := c.observe(ctx, ByNodeLifecycle); err != nil {
				return err
			}
		}
		if tcWork {
			before := c.tc.OracleScheduled()
			c.tc.OracleDrain(ctx)
			tainteviction.OracleWait()
			c.recordScheduled(before, c.tc.OracleScheduled(), c.clk.Now())
			if err := c.observe(ctx, ByTaintEviction); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("controlplane: the controllers' queues did not empty after %d rounds", maxRounds)
}

// observe lists the API's leases, nodes and pods, puts what changed in the controllers'
// stores and calls the handlers their informers would (nodes before pods, each in name
// order), and records what changed on the story's node.
func (c *ControlPlane) observe(ctx context.Context, by string) error {
	leaseList, err := c.client.CoordinationV1().Leases(v1.NamespaceNodeLease).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	nodeList, err := c.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	podList, err := c.client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}

	seenLeases := map[string]bool{}
	for i := range leaseList.Items {
		l := leaseList.Items[i].DeepCopy()
		seenLeases[l.Name] = true
		old := c.leases[l.Name]
		if old != nil && apiequality.Semantic.DeepEqual(old, l) {
			continue
		}
		if err := storeSet(c.leaseStore, old != nil, l); err != nil {
			return err
		}
		c.leases[l.Name] = l
	}
	for _, name := range sortedKeys(c.leases) {
		if !seenLeases[name] {
			if err := c.leaseStore.Delete(c.leases[name]); err != nil {
				return err
			}
			delete(c.leases, name)
		}
	}

	nodes := make([]*v1.Node, 0, len(nodeList.Items))
	for i := range nodeList.Items {
		nodes = append(nodes, nodeList.Items[i].DeepCopy())
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	seenNodes := map[string]bool{}
	for _, n := range nodes {
		seenNodes[n.Name] = true
		old := c.nodes[n.Name]
		if old != nil && apiequality.Semantic.DeepEqual(old, n) {
			continue
		}
		if err := storeSet(c.nodeStore, old != nil, n); err != nil {
			return err
		}
		c.recordNode(by, old, n)
		c.nodes[n.Name] = n
		// The node informers' AddFunc/UpdateFunc (NewNodeLifecycleController, tainteviction.New).
		c.nc.OracleNodeChanged(n.Name)
		if old == nil {
			c.tc.NodeUpdated(nil, n)
		} else {
			c.tc.NodeUpdated(old, n)
		}
	}
	for _, name := range sortedKeys(c.nodes) {
		if seenNodes[name] {
			continue
		}
		old := c.nodes[name]
		if err := c.nodeStore.Delete(old); err != nil {
			return err
		}
		delete(c.nodes, name)
		c.nc.OracleNodeDeleted(name)
		c.tc.NodeUpdated(old, nil)
	}

	pods := make([]*v1.Pod, 0, len(podList.Items))
	for i := range podList.Items {
		pods = append(pods, podList.Items[i].DeepCopy())
	}
	sort.Slice(pods, func(i, j int) bool { return podKey(pods[i]) < podKey(pods[j]) })
	seenPods := map[string]bool{}
	for _, p := range pods {
		key := podKey(p)
		seenPods[key] = true
		old := c.pods[key]
		if old != nil && apiequality.Semantic.DeepEqual(old, p) {
			continue
		}
		if err := storeSet(c.podStore, old != nil, p); err != nil {
			return err
		}
		c.recordPod(by, old, p)
		c.pods[key] = p
		// The pod informers' AddFunc/UpdateFunc.
		if old == nil {
			c.nc.OraclePodChanged(nil, p)
			c.tc.PodUpdated(nil, p)
		} else {
			c.nc.OraclePodChanged(old, p)
			c.tc.PodUpdated(old, p)
		}
	}
	for _, key := range sortedKeys(c.pods) {
		if seenPods[key] {
			continue
		}
		old := c.pods[key]
		if err := c.podStore.Delete(old); err != nil {
			return err
		}
		delete(c.pods, key)
		c.recordPod(by, old, nil)
		// The pod informer's DeleteFunc (the node lifecycle controller's, where the release
		// has one, calls podUpdated(pod, nil), which does nothing).
		c.tc.PodUpdated(old, nil)
	}
	return nil
}

func storeSet(s cache.Store, had bool, obj interface{}) error {
	if had {
		return s.Update(obj)
	}
	return s.Add(obj)
}

func podKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (c *ControlPlane) now() int64 { return trace.Ms(c.clk.Now()) }

func (c *ControlPlane) add(kind, pod string, value any, by string) {
	c.rec.Add(trace.Event{T: c.now(), Kind: kind, Pod: pod, Value: value, By: by})
}

func nodeReady(n *v1.Node) v1.ConditionStatus {
	for _, cond := range n.Status.Conditions {
		if cond.Type == v1.NodeReady {
			return cond.Status
		}
	}
	return ""
}

// recordNode: the story node's Ready condition and taints as a controller changed them.
func (c *ControlPlane) recordNode(by string, old, n *v1.Node) {
	if by == "" || old == nil || n.Name != c.cfg.Nodes[0] {
		return
	}
	if r := nodeReady(n); r != nodeReady(old) {
		c.add("node_ready", "", string(r), by)
	}
	has := func(list []v1.Taint, t v1.Taint) bool {
		for _, x := range list {
			if x.Key == t.Key && x.Effect == t.Effect {
				return true
			}
		}
		return false
	}
	for _, t := range old.Spec.Taints {
		if !has(n.Spec.Taints, t) {
			c.add("taint_removed", "", string(t.Effect), by)
		}
	}
	for _, t := range n.Spec.Taints {
		if !has(old.Spec.Taints, t) {
			c.add("taint_added", "", string(t.Effect), by)
		}
	}
}

func podCondition(p *v1.Pod, t v1.PodConditionType) v1.ConditionStatus {
	for _, cond := range p.Status.Conditions {
		if cond.Type == t {
			return cond.Status
		}
	}
	return ""
}

// recordPod: a pod of the story's node as a controller changed it: its Ready condition
// (MarkPodsNotReady: a status write, then PodReady), the DisruptionTarget condition the taint
// eviction controller writes before it deletes the pod (addConditionAndDeletePod), the deletion.
func (c *ControlPlane) recordPod(by string, old, p *v1.Pod) {
	if by == "" || old == nil || old.Spec.NodeName != c.cfg.Nodes[0] {
		return
	}
	if p == nil {
		c.add("eviction", old.Name, nil, by)
		return
	}
	dt := v1.PodConditionType("DisruptionTarget")
	if podCondition(p, dt) == v1.ConditionTrue && podCondition(old, dt) != v1.ConditionTrue {
		c.add("status_write", p.Name, by, by)
	}
	if r := podCondition(p, v1.PodReady); r != podCondition(old, v1.PodReady) {
		c.add("status_write", p.Name, by, by)
		c.add("pod_ready", p.Name, r == v1.ConditionTrue, by)
	}
	if old.DeletionTimestamp == nil && p.DeletionTimestamp != nil {
		c.add("eviction", p.Name, nil, by)
	}
}

// recordScheduled: the taint eviction controller's pending deletions before and after an
// action. A deletion that is gone before its time was cancelled (cancelWorkWithEvent); one gone
// at or after it fired.
func (c *ControlPlane) recordScheduled(before, after map[string]time.Time, now time.Time) {
	name := func(key string) string {
		ns, n, err := cache.SplitMetaNamespaceKey(key)
		if err != nil || ns == "" {
			return key
		}
		return n
	}
	onNode := func(key string) bool {
		p := c.pods[key]
		return p == nil || p.Spec.NodeName == c.cfg.Nodes[0]
	}
	for _, key := range sortedKeys(before) {
		at := before[key]
		if next, ok := after[key]; (!ok || !next.Equal(at)) && at.After(now) && onNode(key) {
			c.add("eviction_cancelled", name(key), nil, ByTaintEviction)
		}
	}
	for _, key := range sortedKeys(after) {
		at := after[key]
		if prev, ok := before[key]; (!ok || !prev.Equal(at)) && onNode(key) {
			c.add("eviction_scheduled", name(key), seconds(at), ByTaintEviction)
		}
	}
}

// seconds is t as the model's Value::Seconds: simulated seconds, to the millisecond.
func seconds(t time.Time) float64 { return math.Round(float64(trace.Ms(t))) / 1000 }

// createPeers creates the peers' Ready nodes and their leases.
func (c *ControlPlane) createPeers(ctx context.Context) error {
	now := metav1.NewTime(c.clk.Now())
	for _, name := range c.cfg.Nodes[1:] {
		_, err := c.client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			node := &v1.Node{
				ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelHostname: name}},
				Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{
					Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
					Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now,
				}}},
			}
			if _, err = c.client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		_, err = c.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			lease := &coordv1.Lease{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease},
				Spec: coordv1.LeaseSpec{
					HolderIdentity:       ptr.To(name),
					LeaseDurationSeconds: ptr.To(int32(c.cfg.LeaseDuration / time.Second)),
					RenewTime:            &metav1.MicroTime{Time: c.clk.Now()},
				},
			}
			if _, err = c.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Create(ctx, lease, metav1.CreateOptions{}); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
	return nil
}

// renewPeers renews the peers' leases (their kubelets are up).
func (c *ControlPlane) renewPeers(ctx context.Context) error {
	for _, name := range c.cfg.Nodes[1:] {
		l, err := c.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		l.Spec.RenewTime = &metav1.MicroTime{Time: c.clk.Now()}
		if _, err := c.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Update(ctx, l, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// gracefulDelete is the API server's deletion of a pod bound to a node
// (pkg/registry/core/pod/strategy.go CheckGracefulDelete, staging apiserver's
// rest.BeforeDelete): with a grace period above zero (the request's, else the pod's
// terminationGracePeriodSeconds, else 30 s) the pod gets deletionTimestamp and
// deletionGracePeriodSeconds and stays; a pod already terminating keeps its deletion (a
// shorter grace period is not modelled); grace period 0, or a pod on no node, goes at once (the
// fake clientset's own delete).
func (c *ControlPlane) gracefulDelete(a k8stesting.Action) (bool, runtime.Object, error) {
	var name string
	var opts metav1.DeleteOptions
	switch d := a.(type) {
	case k8stesting.DeleteActionImpl:
		name, opts = d.Name, d.DeleteOptions
	case *k8stesting.DeleteActionImpl:
		name, opts = d.Name, d.DeleteOptions
	default:
		return false, nil, nil
	}
	ns := a.GetNamespace()
	obj, err := c.client.Tracker().Get(podsResource, ns, name)
	if err != nil {
		return false, nil, nil
	}
	pod, ok := obj.(*v1.Pod)
	if !ok {
		return false, nil, nil
	}
	grace := int64(30)
	switch {
	case opts.GracePeriodSeconds != nil:
		grace = *opts.GracePeriodSeconds
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || grace <= 0 {
		return false, nil, nil
	}
	if pod.DeletionTimestamp != nil {
		return true, pod, nil
	}
	pod = pod.DeepCopy()
	pod.DeletionTimestamp = ptr.To(metav1.NewTime(c.clk.Now()))
	pod.DeletionGracePeriodSeconds = ptr.To(grace)
	if err := c.client.Tracker().Update(podsResource, pod, ns); err != nil {
		return true, nil, err
	}
	return true, pod, nil
}

// KubernetesRelease is the k8s.io/kubernetes release this binary was built with ("v1.37.2"):
// from the build information, else (a test binary has no dependencies in it) from the path of
// the release's source it was compiled from (the module cache's kubernetes@vX.Y.Z or the
// harness's .k8s/vX.Y.Z tree); "" when neither says.
func KubernetesRelease() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "k8s.io/kubernetes" {
				return m.Version
			}
		}
	}
	f := goruntime.FuncForPC(reflect.ValueOf(nodelifecycle.NewNodeLifecycleController).Pointer())
	if f == nil {
		return ""
	}
	file, _ := f.FileLine(f.Entry())
	if m := releaseInPath.FindStringSubmatch(file); m != nil {
		return m[1]
	}
	return ""
}

var releaseInPath = regexp.MustCompile(`(?:kubernetes@|\.k8s/)(v1\.[0-9]+\.[0-9]+[^/]*)/`)

// Memory is what the node lifecycle controller knows of each node (nodeHealthMap,
// knownNodeSet) and of each zone: an in-place upgrade of a kubelet, which the harness runs in
// two processes, does not restart kube-controller-manager, so the second process's controller
// is given it (Remember) before its first pass.
func (c *ControlPlane) Memory() (map[string]nodelifecycle.OracleHealth, map[string]string) {
	return c.nc.OracleMemory()
}

// Remember gives the node lifecycle controller the memory of the process before.
func (c *ControlPlane) Remember(health map[string]nodelifecycle.OracleHealth, zones map[string]string) {
	c.nc.OracleRemember(health, zones)
}

// Pending names the control plane's timed work a hand-over could not carry: a node waiting in
// the NoExecute tainting queue, a pod's scheduled deletion (the taint eviction controller's
// TimedWorkerQueue times it from when it saw the taint).
func (c *ControlPlane) Pending() []string {
	var out []string
	if c.nc.OracleTaintQueueLen() > 0 {
		out = append(out, "a node waiting in the NoExecute tainting queue at the hand-over")
	}
	for _, key := range sortedKeys(c.tc.OracleScheduled()) {
		out = append(out, "a taint eviction of "+key+" pending at the hand-over")
	}
	return out
}
