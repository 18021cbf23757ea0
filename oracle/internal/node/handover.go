package node

// An in-place kubelet upgrade (a restart with `upgrade_to`): two releases cannot be built into
// one Go process, so the harness runs it as two. The old release's process runs the story until
// its kubelet stops and writes down what outlives the kubelet process (Carried: the container
// runtime's containers, each with the hash the old kubelet's kuberuntime wrote into its labels,
// the node's own state); the API's objects and the control plane's memory travel beside it
// (cmd/oracle). The new release's process (Resume) takes them and goes on: the downtime, then a
// kubelet of its own release started as any restart starts one (new managers, empty memory).
//
// What the new kubelet's first SyncPod does with a container an older kubelet created is its
// release's code: kuberuntime_manager.go computePodActions kills and starts again a running
// container whose containerChanged says so (`kubecontainer.HashContainer(container)` of the
// new release against the hash label the old one recorded, its own HashContainer's), "Container
// … definition changed"; doBackOff, over the runtime status from before the kill, finds the
// newest exited instance if there is one, and the new kubelet's empty back-off memory holds
// nothing for it: the container starts in the same SyncPod (backOff.Next records the exit).

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"

	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

// Carried is what the old release's process hands over besides the API: the runtime's
// containers and the node's state that does not live in the kubelet process.
type Carried struct {
	AtMs        int64        `json:"at_ms"`
	Gen         int          `json:"gen"`
	RuntimeUp   bool         `json:"runtime_up"`
	RuntimeSync int64        `json:"runtime_sync"`
	PostedFalse bool         `json:"posted_false"`
	Cut         bool         `json:"cut"`
	Pods        []CarriedPod `json:"pods"`
}

type CarriedPod struct {
	Name       string       `json:"name"`
	Rejected   bool         `json:"rejected,omitempty"`
	NewSandbox bool         `json:"new_sandbox,omitempty"`
	Waiting    []string     `json:"waiting,omitempty"`
	Containers []CarriedCtr `json:"containers"`
}

// CarriedCtr is one container as the runtime holds it. Hash is the container's hash label
// (kuberuntime_container.go newContainerLabels: kubecontainer.HashContainer of the kubelet
// that created the instance).
type CarriedCtr struct {
	Name     string `json:"name"`
	Instance int    `json:"instance"`
	Started  int64  `json:"started"`
	Running  bool   `json:"running"`
	Finished int64  `json:"finished"`
	Health   string `json:"health"`
	WarmAt   int64  `json:"warm_at"`
	Gone     bool   `json:"gone,omitempty"`
	Hash     uint64 `json:"hash"`
}

// HandedOver says whether the upgrade's kubelet has stopped (the old release's process ends
// there); HandOverAt makes the upgrade's stop the end of this process's story.
func (n *Node) HandedOver() bool { return n.handedOver }
func (n *Node) HandOverAt()      { n.handOver = true }

// Carry is the runtime and node state at the hand-over.
func (n *Node) Carry() *Carried {
	c := &Carried{AtMs: n.now(), Gen: n.gen, RuntimeUp: n.runtimeUp, RuntimeSync: n.runtimeSync, PostedFalse: n.postedFalse, Cut: n.cut}
	for _, p := range n.pods {
		cp := CarriedPod{Name: p.spec.Name, Rejected: p.rejected, NewSandbox: p.newSandbox}
		for _, ct := range p.all() {
			if p.waiting[ct] {
				cp.Waiting = append(cp.Waiting, ct.spec.Name)
			}
			cp.Containers = append(cp.Containers, CarriedCtr{Name: ct.spec.Name, Instance: ct.instance, Started: ct.started,
				Running: ct.running, Finished: ct.finished, Health: ct.health, WarmAt: ct.warmAt, Gone: ct.gone, Hash: ct.hash})
		}
		c.Pods = append(c.Pods, cp)
	}
	return c
}

// Resume builds the node of the new release's process from what the old one carried, at
// c.AtMs, its kubelet down; the API (client) already holds the old process's objects.
// Schedule then puts on the queue only what comes after the hand-over.
func Resume(sc *scenario.Scenario, gates Gates, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, q *Queue, c *Carried) (*Node, error) {
	n := build(sc, gates, client, clk, rec, q)
	if len(c.Pods) != len(n.pods) {
		return nil, fmt.Errorf("handover: %d pods, the scenario has %d", len(c.Pods), len(n.pods))
	}
	for i, p := range n.pods {
		cp := c.Pods[i]
		all := p.all()
		if cp.Name != p.spec.Name || len(cp.Containers) != len(all) {
			return nil, fmt.Errorf("handover: pod %s is not the scenario's %s", cp.Name, p.spec.Name)
		}
		p.rejected, p.newSandbox = cp.Rejected, cp.NewSandbox
		for j, ct := range all {
			cc := cp.Containers[j]
			ct.instance, ct.started, ct.running, ct.finished = cc.Instance, cc.Started, cc.Running, cc.Finished
			ct.health, ct.warmAt, ct.gone, ct.hash = cc.Health, cc.WarmAt, cc.Gone, cc.Hash
			for _, w := range cp.Waiting {
				if w == ct.spec.Name {
					p.waiting[ct] = true
				}
			}
		}
	}
	n.gen, n.runtimeUp, n.runtimeSync, n.postedFalse, n.cut = c.Gen, c.RuntimeUp, c.RuntimeSync, c.PostedFalse, c.Cut
	n.resuming, n.resumeAt = true, c.AtMs
	clk.SetTime(trace.At(c.AtMs))
	n.installReactors()
	n.snapshot(false)
	n.recording = true
	return n, nil
}

// specHash is kubecontainer.HashContainer of the container as the pod object has it (this
// process's release).
func (n *Node) specHash(p *podRT, c *ctrRT) uint64 {
	pod := n.podObject(p)
	for _, list := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			if list[i].Name == c.spec.Name {
				return kubecontainer.HashContainer(&list[i])
			}
		}
	}
	return 0
}

// hashChanged is computePodActions' containerChanged for each running regular container and
// sidecar (computeInitContainerActions checks a restartable init container the same way): the
// ones whose hash label is not this release's HashContainer are killed and started again in
// this SyncPod: doBackOff first (an exited instance's FinishedAt; the memory is the new
// kubelet's).
func (n *Node) hashChanged(p *podRT) {
	for _, c := range p.all() {
		if c.init || !c.running || c.hash == n.specHash(p, c) {
			continue
		}
		if c.finished >= 0 {
			key := fmt.Sprintf("%s_%s_%s", p.spec.Name, p.uid, c.spec.Name)
			// (IsInBackOffSince is false in a new kubelet's first SyncPod.)
			if ts := trace.At(c.finished); !n.k.backoff.IsInBackOffSince(key, ts) {
				n.k.backoff.Next(key, ts)
			}
		}
		c.running = false
		c.finished = n.now()
		n.rec.Add(trace.Event{T: n.now(), Kind: "container_exit", Pod: p.spec.Name, Container: c.spec.Name, Value: "definition changed", By: "kubelet"})
		n.restartContainer(p, c, true)
	}
}

// future says whether an item of the scenario at t is still to come in this process: all of
// them, but after a hand-over only those at or after it.
func (n *Node) future(t int64) bool { return !n.resuming || t >= n.resumeAt }
