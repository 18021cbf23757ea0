package node

// A node reboot (the model's B1, B2; scenario `what = "node"`): the harness's glue. The node
// shuts down: the kubelet stops and every container with it, and nothing tells the API. At boot
// the container runtime holds no container and no sandbox; a new kubelet starts as after a
// kubelet restart (new managers, empty memory: startKubelet). What its SyncPods then do is
// written here from the release's kubelet:
//   - kuberuntime_manager.go computePodActions: the sandbox changed (PodSandboxChanged: none is
//     ready), so SyncPod kills what is left, creates a sandbox and starts the first init
//     container (InitContainersToStart = [0]), or every regular container when the pod has
//     none; later SyncPods run computeInitContainerActions over the new sandbox's containers
//     only: the next init container once the one before has exited 0 (a sidecar with a
//     startup probe once started), then the regular containers;
//   - doBackOff finds no exited instance in the new sandbox's runtime status: no back-off;
//   - kubelet_pods.go convertToAPIContainerStatuses for a container the runtime does not
//     have: the previous status when it was Terminated (a completed init container keeps its
//     Completed status, Ready), else Waiting (PodInitializing with init containers,
//     ContainerCreating without) with no container ID and the previous restart count (+1 when
//     it was Running), so a probe worker's doProbe waits for a container ID;
//   - kuberuntime_container.go startContainer: the new instance's restart count is one more
//     (from the log directory when the runtime forgot the old one).

import (
	"strings"

	"k8s.io/kubernetes/pkg/kubelet/prober/results"

	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"

	v1 "k8s.io/api/core/v1"

	"restartscope/oracle/internal/trace"
)

// nodeShutdown is B1: the kubelet stops (K1) and every running container with it.
func (n *Node) nodeShutdown() {
	at := n.now()
	n.rec.Add(trace.Event{T: at, Kind: "node_shutdown", By: "scenario"})
	n.stopKubelet()
	n.rec.Add(trace.Event{T: at, Kind: "kubelet_stop", By: "kubelet"})
	for _, p := range n.pods {
		for _, c := range p.all() {
			if c.running {
				c.running = false
				c.finished = at
				n.rec.Add(trace.Event{T: at, Kind: "container_exit", Pod: p.spec.Name, Container: c.spec.Name, By: "runtime"})
			}
		}
	}
}

// nodeBoot is B2: the runtime answers with no container and no sandbox; the kubelet starts.
func (n *Node) nodeBoot() {
	at := n.now()
	for _, p := range n.pods {
		p.newSandbox = true
		for _, c := range p.all() {
			c.gone = true
		}
	}
	n.rec.Add(trace.Event{T: at, Kind: "node_boot", By: "scenario"})
	n.rec.Add(trace.Event{T: at, Kind: "kubelet_start", By: "kubelet"})
	n.startKubelet(at, false)
	n.afterKubelet()
}

// nextInit is SyncPod's container work in a pod whose sandbox the reboot re-created: the
// first init container with no instance in the new sandbox starts; an ordinary one holds the
// rest until it has exited 0 (its exit's relist calls SyncPod again), a sidecar with a startup
// probe until the startup manager holds Success for it. With every init container done, the
// regular containers start.
func (n *Node) nextInit(p *podRT) {
	if !p.newSandbox || n.k == nil {
		return
	}
	for _, c := range p.ics {
		switch {
		case c.gone:
			n.restartContainer(p, c, false)
			if c.init || c.spec.StartupProbe != nil {
				return
			}
		case c.running && c.init:
			return
		case c.running && c.sidecar && c.spec.StartupProbe != nil:
			r, found := n.k.startup.Get(kubecontainer.ContainerID{Type: "containerd", ID: strings.TrimPrefix(c.id(p), "containerd://")})
			if !found || r != results.Success {
				return
			}
		}
	}
	p.newSandbox = false
	for _, c := range p.cs {
		if !c.running {
			n.restartContainer(p, c, false)
		}
	}
}

// initExited: an ordinary init container of the new sandbox exits 0 after its warmup_s (at
// least 1 ms); the PLEG's next relist reports it and SyncPod writes it and goes on (nextInit).
func (n *Node) initExited(p *podRT, c *ctrRT, instance int) {
	if !c.running || c.instance != instance {
		return
	}
	n.exited(p, c, func() {
		n.syncPod(p)
		n.afterKubelet()
	})
}

// goneStatus is convertToAPIContainerStatuses' status for a container the runtime does not
// have (a reboot's): the previous status when it was Terminated; else the default Waiting
// with the previous restart count, one more when the previous status was Running.
func goneStatus(name string, hasInit bool, old v1.ContainerStatus, found bool) v1.ContainerStatus {
	if found && old.State.Terminated != nil {
		return old
	}
	reason := "ContainerCreating"
	if hasInit {
		reason = "PodInitializing"
	}
	cs := v1.ContainerStatus{Name: name, Image: "registry.k8s.io/pause:3.10",
		State: v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: reason}}}
	if found {
		cs.RestartCount = old.RestartCount
		cs.LastTerminationState = old.LastTerminationState
		if old.State.Running != nil && cs.LastTerminationState.Terminated == nil {
			cs.LastTerminationState.Terminated = &v1.ContainerStateTerminated{
				Reason: "ContainerStatusUnknown", ExitCode: 137,
				Message: "The container could not be located when the pod was deleted.  The container used to be Running"}
			cs.RestartCount++
		}
	}
	return cs
}
