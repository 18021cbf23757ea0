package node

// A partition between the node and the API server (the scenario's kubelet.api_unreachable
// windows; the model's rule K2u).
//
// Kubernetes' own code meets it where it calls the API: the status manager's syncPod (its Get
// fails, the status stays in its cache, and syncBatch writes it once a call gets through:
// needsUpdate, needsReconcile), the node lifecycle controller (the lease is not renewed, the
// grace runs out: Unknown, the unreachable taints, MarkPodsNotReady) and the taint eviction
// controller.
//
// The harness's glue: the partition itself — a reactor in front of client-go's fake clientset
// fails every call the kubelet makes while it lasts (the control plane's calls, and the
// recorder's and the scenario's own, are not the kubelet's); the lease controller's sync
// (component-helpers lease/controller.go: retryUpdateLease's updates fail, backoffEnsureLease
// tries again 200 ms, 400 ms, … doubling to 7 s apart, and the renewal that gets through starts
// the next interval); syncNodeStatus on its 10 s grid from the kubelet's start (its 4 % jitter
// not drawn), which posts Ready=True once the API answers and shows the node otherwise; and a
// kubelet that starts during a window, whose pod source lists nothing until the API answers and
// then hands every pod to HandlePodAdditions and its first SyncPod at once (the reflector's
// retry back-off is not drawn).

import (
	"context"
	"errors"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	"restartscope/oracle/internal/trace"
)

var errRefused = errors.New(`Get "https://10.1.0.100:6443": dial tcp 10.1.0.100:6443: connect: connection refused`)

// installPartition puts the partition's reactor in front of the fake clientset's chain (after
// the status-write recorder, so a write that fails is not counted).
func (n *Node) installPartition() {
	n.leaseFailedAt = -1
	n.client.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if n.cut && !n.outside && (n.Busy == nil || !n.Busy()) {
			return true, nil, errRefused
		}
		return false, nil, nil
	})
}

// asOutside runs f as a call that is not the kubelet's (the recorder, a user's kubectl).
func (n *Node) asOutside(f func()) {
	n.outside = true
	defer func() { n.outside = false }()
	f()
}

// schedulePartitions puts the windows on the queue.
func (n *Node) schedulePartitions() {
	for _, w := range n.sc.Kubelet.APIUnreachable {
		at, end := int64(w.AtS*1000), int64((w.AtS+w.DurationS)*1000)
		if n.future(at) {
			n.q.At(at, func() {
				n.cut = true
				n.rec.Add(trace.Event{T: n.now(), Kind: "api_reachable", Value: false, By: "scenario"})
			})
		}
		if !n.future(end) {
			continue
		}
		n.q.At(end, func() {
			n.cut = false
			n.rec.Add(trace.Event{T: n.now(), Kind: "api_reachable", Value: true, By: "scenario"})
			n.apiBack()
		})
	}
}

// leaseRetryAt is backoffEnsureLease's first attempt at or after now of a lease sync whose
// first attempt failed at failed: sleep starts at 100 ms and doubles before each wait, up to
// maxBackoff (7 s).
func leaseRetryAt(failed, now int64) int64 {
	t, sleep := failed, int64(100)
	for t < now {
		sleep = min(2*sleep, 7_000)
		t += sleep
	}
	return t
}

// apiBack: the API answers again. The lease sync blocked in backoffEnsureLease renews at its
// next attempt; syncNodeStatus posts what it finds changed at its next tick; a kubelet that
// started meanwhile lists its pods; the status manager writes what it holds at its next
// syncBatch (its own code).
func (n *Node) apiBack() {
	k := n.k
	if k == nil {
		return
	}
	gen := k.gen
	if n.leaseFailedAt >= 0 {
		n.q.At(leaseRetryAt(n.leaseFailedAt, n.now()), func() { n.renewLease(gen) })
	}
	if !k.nodeStatusLoop {
		k.nodeStatusLoop = true
		n.syncNodeStatus(gen, tickAtOrAfter(k.start, nodeStatusFreq, n.now()))
	}
	if k.awaitingPods {
		k.awaitingPods = false
		n.listPods(k)
		n.handlePodAdditions()
		for _, p := range n.pods {
			if !p.rejected {
				n.firstSync(p, false)
			}
		}
		n.afterKubelet()
	}
}

// listPods is the pod source's list for a kubelet process: every pod of the API into its pod
// manager; false when the API does not answer.
func (n *Node) listPods(k *kubelet) bool {
	list, err := n.client.CoreV1().Pods(Namespace).List(k.ctx, metav1.ListOptions{})
	if err != nil {
		k.awaitingPods = true
		return false
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	for i := range list.Items {
		k.podMgr.AddPod(&list.Items[i])
	}
	return true
}

// syncNodeStatus from `at` on, every nodeStatusUpdateFrequency: tryUpdateNodeStatus posts
// Ready=True when the node's Ready condition in the API is not (the node lifecycle
// controller's Unknown); with node leases it posts nothing that did not change. A call that
// fails (the API is cut off again) posts nothing.
func (n *Node) syncNodeStatus(gen int, at int64) {
	n.q.At(at, func() {
		if !n.alive(gen) {
			return
		}
		node, err := n.client.CoreV1().Nodes().Get(context.Background(), NodeName, metav1.GetOptions{})
		if err == nil && !n.runtimeErrors() && !n.postedFalse {
			for _, c := range node.Status.Conditions {
				if c.Type == v1.NodeReady && c.Status != v1.ConditionTrue {
					n.postNodeReady()
					n.afterKubelet()
				}
			}
		}
		n.syncNodeStatus(gen, at+nodeStatusFreq)
	})
}

// watchPods is the kubelet's pod watch (config/apiserver.go, HandlePodUpdates →
// podManager.UpdatePod): the pod manager follows the API's pods, the status the node lifecycle
// controller writes included, which the status manager's needsReconcile compares with what it
// holds. A kubelet that cannot reach the API server, or has not listed its pods, sees nothing.
func (n *Node) watchPods(items []v1.Pod) {
	k := n.k
	if k == nil || n.cut || k.awaitingPods {
		return
	}
	for i := range items {
		if old, ok := k.podMgr.GetPodByUID(items[i].UID); ok && !equality.Semantic.DeepEqual(old, &items[i]) {
			k.podMgr.UpdatePod(items[i].DeepCopy())
		}
	}
}
