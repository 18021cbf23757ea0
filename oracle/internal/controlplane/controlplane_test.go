package controlplane

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"restartscope/oracle/internal/draw"
	"restartscope/oracle/internal/trace"
)

// The model's presets long-restart and eviction (crates/sim/src/presets.rs): seed 1, a 40 s
// lease, --node-monitor-period 5 s, the 50 s grace period of 1.32 on, three pods with the
// default 300 s tolerations and a 30 s termination grace period.
const (
	seed      = 1
	grace     = 50_000
	period    = 5_000
	leaseDur  = 40_000
	renew     = leaseDur / 4 // the kubelet's lease controller: renewInterval = 0.25 × duration
	tolerate  = 300_000
	storyNode = "node-0"
	peerNode  = "node-1"
	kubeBorn  = -86_400_000 // crates/sim/src/node/kubelet/mod.rs KUBELET_BORN
	firstSync = 2_000       // the scenario's first_sync_delay_s
)

var podNames = []string{"web-0", "web-1", "web-2"}

// story is what the fake kubelet below does: its kubelet stops at StopAt and starts again at
// StartAt; or (RuntimeDownAt > 0) it stays up, renewing its lease, and posts node Ready=False
// from RuntimeDownAt to RuntimeUpAt (the kubelet's runtime check, kubelet_node_status.go).
type story struct {
	StopAt, StartAt            int64
	RuntimeDownAt, RuntimeUpAt int64
	Horizon                    int64
	// At is run at these instants (before the control plane's step at the same instant).
	At map[int64]func(*fake.Clientset)
}

type kev struct {
	t   int64
	seq int
	f   func()
}

// fakeKubelet is the kubelet side, as far as the control plane sees it: the node lease (the
// model's renewals: first at draw(seed, Lease)·renewInterval, then renewInterval plus up to 4 %
// jitter, crates/sim/src/node/kubelet/lifecycle.rs lease_wait), the node's Ready condition, and
// the pods' Ready condition set again after the kubelet's first sync.
type fakeKubelet struct {
	client    *fake.Clientset
	clk       *testingclock.FakeClock
	queue     []kev
	seq       int
	gen       int
	startedAt int64
	renewals  uint64
	renewedAt []int64
}

func (k *fakeKubelet) at(t int64, f func()) {
	k.seq++
	k.queue = append(k.queue, kev{t, k.seq, f})
}

func (k *fakeKubelet) pop(before int64) (kev, bool) {
	if len(k.queue) == 0 {
		return kev{}, false
	}
	sort.Slice(k.queue, func(i, j int) bool {
		if k.queue[i].t != k.queue[j].t {
			return k.queue[i].t < k.queue[j].t
		}
		return k.queue[i].seq < k.queue[j].seq
	})
	if k.queue[0].t >= before {
		return kev{}, false
	}
	e := k.queue[0]
	k.queue = k.queue[1:]
	return e, true
}

func (k *fakeKubelet) now() int64 { return trace.Ms(k.clk.Now()) }

func (k *fakeKubelet) renewLease(gen int) {
	if gen != k.gen {
		return
	}
	ctx := context.Background()
	l, err := k.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Get(ctx, storyNode, metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	l.Spec.RenewTime = &metav1.MicroTime{Time: k.clk.Now()}
	if _, err := k.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Update(ctx, l, metav1.UpdateOptions{}); err != nil {
		panic(err)
	}
	k.renewedAt = append(k.renewedAt, k.now())
	j := draw.Draw(seed, draw.LeaseJitter, 0, [3]uint64{uint64(k.startedAt), k.renewals, 0})
	k.renewals++
	k.at(k.now()+renew+int64(j*0.04*renew), func() { k.renewLease(gen) })
}

func (k *fakeKubelet) postReady(status v1.ConditionStatus) {
	ctx := context.Background()
	n, err := k.client.CoreV1().Nodes().Get(ctx, storyNode, metav1.GetOptions{})
	if err != nil {
		panic(err)
	}
	for i := range n.Status.Conditions {
		c := &n.Status.Conditions[i]
		if c.Type != v1.NodeReady {
			continue
		}
		if c.Status != status {
			c.LastTransitionTime = metav1.NewTime(k.clk.Now())
		}
		c.Status = status
		c.LastHeartbeatTime = metav1.NewTime(k.clk.Now())
	}
	if _, err := k.client.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
		panic(err)
	}
}

func (k *fakeKubelet) podsReady() {
	ctx := context.Background()
	for _, name := range podNames {
		p, err := k.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			continue
		}
		for i := range p.Status.Conditions {
			if p.Status.Conditions[i].Type == v1.PodReady && p.Status.Conditions[i].Status != v1.ConditionTrue {
				p.Status.Conditions[i].Status = v1.ConditionTrue
				p.Status.Conditions[i].LastTransitionTime = metav1.NewTime(k.clk.Now())
				if _, err := k.client.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
					panic(err)
				}
			}
		}
	}
}

type result struct {
	events    []trace.Event
	renewedAt []int64
	cp        *ControlPlane
	client    *fake.Clientset
}

func run(t *testing.T, s story) result {
	t.Helper()
	ctx := context.Background()
	client := fake.NewSimpleClientset()
	clk := testingclock.NewFakeClock(trace.At(0))
	k := &fakeKubelet{client: client, clk: clk, startedAt: kubeBorn}
	phase := int64(draw.Draw(seed, draw.Lease, 0, [3]uint64{}) * renew)

	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: storyNode, Labels: map[string]string{v1.LabelHostname: storyNode}},
		Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{
			Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady",
			LastHeartbeatTime: metav1.NewTime(trace.At(-10_000)), LastTransitionTime: metav1.NewTime(trace.At(kubeBorn)),
		}}},
	}
	lease := &coordv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: storyNode, Namespace: v1.NamespaceNodeLease},
		Spec: coordv1.LeaseSpec{
			HolderIdentity:       ptr.To(storyNode),
			LeaseDurationSeconds: ptr.To(int32(leaseDur / 1000)),
			RenewTime:            &metav1.MicroTime{Time: trace.At(phase - renew)},
		},
	}
	if _, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoordinationV1().Leases(v1.NamespaceNodeLease).Create(ctx, lease, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range podNames {
		tol := int64(tolerate / 1000)
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
			Spec: v1.PodSpec{
				NodeName:                      storyNode,
				TerminationGracePeriodSeconds: ptr.To(int64(30)),
				Containers:                    []v1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}},
				// The DefaultTolerationSeconds admission plugin's tolerations.
				Tolerations: []v1.Toleration{
					{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &tol},
					{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &tol},
				},
			},
			Status: v1.PodStatus{Phase: v1.PodRunning, Conditions: []v1.PodCondition{
				{Type: v1.PodReady, Status: v1.ConditionTrue},
				{Type: v1.ContainersReady, Status: v1.ConditionTrue},
			}},
		}
		if _, err := client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	rec := &trace.Recorder{}
	cp, err := New(ctx, client, clk, rec, Config{
		NodeMonitorGracePeriod: grace * time.Millisecond,
		NodeMonitorPeriod:      period * time.Millisecond,
		LeaseDuration:          leaseDur * time.Millisecond,
		Seed:                   seed,
		Nodes:                  []string{storyNode, peerNode},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cp.Close)

	k.at(phase, func() { k.renewLease(0) })
	if s.StopAt > 0 {
		k.at(s.StopAt, func() { k.gen++ })
		k.at(s.StartAt, func() {
			k.gen++
			k.startedAt, k.renewals = k.now(), 0
			k.postReady(v1.ConditionTrue)
			k.renewLease(k.gen)
			k.at(k.now()+firstSync, k.podsReady)
		})
	}
	if s.RuntimeDownAt > 0 {
		k.at(s.RuntimeDownAt, func() { k.postReady(v1.ConditionFalse) })
		k.at(s.RuntimeUpAt, func() { k.postReady(v1.ConditionTrue) })
	}
	for at, f := range s.At {
		k.at(at, func() { f(client) })
	}

	for {
		due := trace.Ms(cp.NextDue())
		if e, ok := k.pop(min(due, s.Horizon+1)); ok {
			clk.SetTime(trace.At(e.t))
			e.f()
			if err := cp.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if due > s.Horizon {
			break
		}
		clk.SetTime(trace.At(due))
		if err := cp.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range rec.Events {
		t.Logf("%9.3f %-19s %-6s %-24v %s", float64(e.T)/1000, e.Kind, e.Pod, e.Value, e.By)
	}
	return result{events: rec.Events, renewedAt: k.renewedAt, cp: cp, client: client}
}

// minor is the Kubernetes minor release the test is built with (34 for v1.34.4).
func minor(t *testing.T) int {
	t.Helper()
	rel := KubernetesRelease()
	parts := strings.Split(strings.TrimPrefix(rel, "v"), ".")
	if len(parts) < 2 {
		t.Fatalf("cannot tell the Kubernetes release from the build information (%q)", rel)
	}
	m, err := strconv.Atoi(parts[1])
	if err != nil {
		t.Fatalf("release %q: %v", rel, err)
	}
	return m
}

// passes is the monitorNodeHealth passes' grid; firstAfter the first pass strictly after t.
func (r result) firstPassAfter(t int64) int64 {
	p := trace.Ms(r.cp.MonitorPhase())
	for p <= t {
		p += period
	}
	return p
}

// firstTickAtOrAfter is the first doNoExecuteTaintingPass tick at or after t.
func (r result) firstTickAtOrAfter(t int64) int64 {
	p := trace.Ms(r.cp.TaintingPhase())
	for p < t {
		p += 100
	}
	return p
}

// unknownAt is the pass that sets the node's Ready Unknown after the kubelet stopped at stop:
// the pass that first saw the last renewal before the stop sets probeTimestamp
// (tryUpdateNodeHealth); the first pass more than the grace period later gives up on the node.
// A renewal at a pass's millisecond is seen by the next pass (the harness's loop steps the
// control plane first).
func (r result) unknownAt(stop int64) int64 {
	last := int64(-1 << 62)
	for _, at := range r.renewedAt {
		if at < stop {
			last = at
		}
	}
	probe := r.firstPassAfter(last)
	return r.firstPassAfter(probe + grace)
}

func find(evs []trace.Event, kind string, pred func(trace.Event) bool) []trace.Event {
	var out []trace.Event
	for _, e := range evs {
		if e.Kind == kind && (pred == nil || pred(e)) {
			out = append(out, e)
		}
	}
	return out
}

func by(who string) func(trace.Event) bool {
	return func(e trace.Event) bool { return e.By == who }
}

func value(v any) func(trace.Event) bool {
	return func(e trace.Event) bool { return fmt.Sprint(e.Value) == fmt.Sprint(v) }
}

// expectAt checks that evs are n events, all at t.
func expectAt(t *testing.T, what string, evs []trace.Event, n int, at int64) {
	t.Helper()
	if len(evs) != n {
		t.Errorf("%s: %d events, want %d: %v", what, len(evs), n, evs)
		return
	}
	for _, e := range evs {
		if e.T != at {
			t.Errorf("%s at %.3f s, want %.3f s", what, float64(e.T)/1000, float64(at)/1000)
		}
	}
}

// noExecuteTaintAt is when the NoExecute taint lands for a node whose Ready condition became
// Unknown in the pass at unknown. From 1.34 processTaintBaseEviction is given the condition
// tryUpdateNodeHealth has just written (currentReadyCondition), so that same pass queues the
// node (markNodeForTainting) and the next doNoExecuteTaintingPass tick taints it; up to 1.33 it
// is given the condition observed at the start of the pass (observedReadyCondition, still
// True), so only the next pass queues it.
func (r result) noExecuteTaintAt(t *testing.T, unknown int64) int64 {
	if minor(t) >= 34 {
		return r.firstTickAtOrAfter(unknown)
	}
	return r.firstTickAtOrAfter(unknown + period)
}

func checkOutage(t *testing.T, r result, stop, start int64) (unknown, tainted int64) {
	t.Helper()
	evs := r.events
	unknown = r.unknownAt(stop)
	tainted = r.noExecuteTaintAt(t, unknown)
	expectAt(t, "node_ready Unknown by the node lifecycle controller", find(evs, "node_ready", by(ByNodeLifecycle)), 1, unknown)
	if got := find(evs, "node_ready", by(ByNodeLifecycle)); len(got) == 1 && got[0].Value != "Unknown" {
		t.Errorf("node_ready %v, want Unknown", got[0].Value)
	}
	expectAt(t, "taint_added NoSchedule", find(evs, "taint_added", value("NoSchedule")), 1, unknown)
	expectAt(t, "taint_added NoExecute", find(evs, "taint_added", value("NoExecute")), 1, tainted)
	expectAt(t, "MarkPodsNotReady: pod_ready false", find(evs, "pod_ready", by(ByNodeLifecycle)), 3, unknown)
	expectAt(t, "MarkPodsNotReady: status_write", find(evs, "status_write", by(ByNodeLifecycle)), 3, unknown)
	for _, e := range find(evs, "pod_ready", by(ByNodeLifecycle)) {
		if e.Value != false {
			t.Errorf("pod_ready %v by the node lifecycle controller, want false", e.Value)
		}
	}
	sched := find(evs, "eviction_scheduled", nil)
	expectAt(t, "eviction_scheduled", sched, 3, tainted)
	for _, e := range sched {
		if e.Value != float64(tainted+tolerate)/1000 {
			t.Errorf("eviction_scheduled for %.3f s, want %.3f s", e.Value, float64(tainted+tolerate)/1000)
		}
	}
	// The taint's NoSchedule half follows the kubelet's Ready=True at once
	// (doNoScheduleTaintingPass on the node update).
	if start > 0 {
		expectAt(t, "taint_removed NoSchedule", find(evs, "taint_removed", value("NoSchedule")), 1, start)
	}
	return unknown, tainted
}

// A 100 s outage (the kubelet stops at 30 s, back at 130 s): Ready Unknown after the grace
// period, the unreachable taints, the pods marked NotReady by the controller, the deletions
// scheduled for the toleration's end and cancelled when the node is Ready again at the next
// pass (markNodeAsReachable); no eviction.
func TestOutageShorterThanToleration(t *testing.T) {
	const stop, start = 30_000, 130_000
	r := run(t, story{StopAt: stop, StartAt: start, Horizon: 200_000})
	checkOutage(t, r, stop, start)
	back := r.firstPassAfter(start)
	expectAt(t, "taint_removed NoExecute", find(r.events, "taint_removed", value("NoExecute")), 1, back)
	expectAt(t, "eviction_cancelled", find(r.events, "eviction_cancelled", nil), 3, back)
	if ev := find(r.events, "eviction", nil); len(ev) > 0 {
		t.Errorf("evictions in a 100 s outage: %v", ev)
	}
	// No pod status write by the taint eviction controller either.
	if ev := find(r.events, "status_write", by(ByTaintEviction)); len(ev) > 0 {
		t.Errorf("DisruptionTarget written in a 100 s outage: %v", ev)
	}
}

// A 400 s outage: the taint eviction controller deletes each pod when its 300 s toleration of
// the unreachable taint ends (the DisruptionTarget condition first, addConditionAndDeletePod);
// the API server keeps the pod, terminating, for the kubelet.
func TestOutageLongerThanToleration(t *testing.T) {
	const stop, start = 30_000, 430_000
	r := run(t, story{StopAt: stop, StartAt: start, Horizon: 480_000})
	_, tainted := checkOutage(t, r, stop, start)
	expectAt(t, "status_write DisruptionTarget", find(r.events, "status_write", by(ByTaintEviction)), 3, tainted+tolerate)
	expectAt(t, "eviction", find(r.events, "eviction", by(ByTaintEviction)), 3, tainted+tolerate)
	if ev := find(r.events, "eviction_cancelled", nil); len(ev) > 0 {
		t.Errorf("evictions cancelled: %v", ev)
	}
	for _, name := range podNames {
		p, err := r.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.DeletionTimestamp == nil || trace.Ms(p.DeletionTimestamp.Time) != tainted+tolerate {
			t.Errorf("%s: deletionTimestamp %v, want %.3f s", name, p.DeletionTimestamp, float64(tainted+tolerate)/1000)
		}
		if podCondition(p, "DisruptionTarget") != v1.ConditionTrue {
			t.Errorf("%s: no DisruptionTarget condition", name)
		}
	}
}

// The kubelet posts node Ready=False (its container runtime is down) and keeps renewing its
// lease: the node lifecycle controller never sets Unknown, taints the node not-ready
// (NoSchedule on the node update, NoExecute from the next pass), and leaves the pods' Ready
// alone: monitorNodeHealth calls MarkPodsNotReady only when the condition it observed was True
// and is no longer (kubernetes#125618), and the kubelet wrote False itself. The pods' deletions
// are scheduled for the not-ready toleration's end and cancelled when the kubelet posts True.
// The times are the model's preset runtime-restart (the runtime down from 30 s to 120 s, the
// kubelet posts False 30 s after its last good runtime check).
func TestKubeletPostedNotReady(t *testing.T) {
	const down, up = 60_000, 120_000
	var taintsAtDown []v1.Taint
	r := run(t, story{RuntimeDownAt: down, RuntimeUpAt: up, Horizon: 200_000, At: map[int64]func(*fake.Clientset){
		up - 1: func(c *fake.Clientset) {
			n, err := c.CoreV1().Nodes().Get(context.Background(), storyNode, metav1.GetOptions{})
			if err != nil {
				panic(err)
			}
			taintsAtDown = n.Spec.Taints
		},
	}})
	evs := r.events
	if ev := find(evs, "node_ready", by(ByNodeLifecycle)); len(ev) > 0 {
		t.Errorf("the node lifecycle controller changed Ready while the lease was renewed: %v", ev)
	}
	if ev := find(evs, "pod_ready", by(ByNodeLifecycle)); len(ev) > 0 {
		t.Errorf("MarkPodsNotReady after a kubelet-posted Ready=False: %v", ev)
	}
	if ev := find(evs, "status_write", by(ByNodeLifecycle)); len(ev) > 0 {
		t.Errorf("pod status writes by the node lifecycle controller: %v", ev)
	}
	queued := r.firstPassAfter(down)
	tainted := r.firstTickAtOrAfter(queued)
	expectAt(t, "taint_added NoSchedule", find(evs, "taint_added", value("NoSchedule")), 1, down)
	expectAt(t, "taint_added NoExecute", find(evs, "taint_added", value("NoExecute")), 1, tainted)
	want := map[string]bool{v1.TaintNodeNotReady + ":NoSchedule": true, v1.TaintNodeNotReady + ":NoExecute": true}
	got := map[string]bool{}
	for _, tn := range taintsAtDown {
		got[tn.Key+":"+string(tn.Effect)] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("taints while Ready=False: %v, want %v", got, want)
	}
	expectAt(t, "eviction_scheduled", find(evs, "eviction_scheduled", value(float64(tainted+tolerate)/1000)), 3, tainted)
	expectAt(t, "taint_removed NoSchedule", find(evs, "taint_removed", value("NoSchedule")), 1, up)
	back := r.firstPassAfter(up)
	expectAt(t, "taint_removed NoExecute", find(evs, "taint_removed", value("NoExecute")), 1, back)
	expectAt(t, "eviction_cancelled", find(evs, "eviction_cancelled", nil), 3, back)
	for _, name := range podNames {
		p, err := r.client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if podCondition(p, v1.PodReady) != v1.ConditionTrue {
			t.Errorf("%s: Ready %s, want True", name, podCondition(p, v1.PodReady))
		}
	}
}

// The fake kubelet's renewals are the model's (crates/sim/src/node/kubelet/lifecycle.rs): the
// eviction preset's first three are at 0.442, 10.615 and 20.865 s.
func TestLeaseRenewalsFollowTheModel(t *testing.T) {
	r := run(t, story{StopAt: 30_000, StartAt: 390_000, Horizon: 30_000})
	want := []int64{442, 10_615, 20_865}
	if fmt.Sprint(r.renewedAt) != fmt.Sprint(want) {
		t.Errorf("renewals %v, want %v", r.renewedAt, want)
	}
}
