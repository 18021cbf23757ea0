package node

// Admission at the kubelet's start on a node whose labels or taints changed while the pods ran
// (IgnoredDuringExecution), and the end of a pod it rejects.
//
// Kubernetes' own code: the predicate admit handler of the release
// (pkg/kubelet/lifecycle NewPredicateAdmitHandler and its Admit: the OS checks, the scheduler's
// AdmissionCheck — resources, node name, host ports, node affinity and nodeSelector — then the
// NoExecute taints; from 1.35 its second read of the node when only the node affinity failed),
// reached through the overlay's lifecycle.OracleAdmit; the status manager's SetPodStatus,
// mergePodStatus (the Failed phase waits while the pod could have running containers, the
// kubelet-owned conditions and the container statuses go at once) and syncBatch's reconcile.
//
// The harness's glue, each step named after the kubelet code it stands for:
//   - HandlePodAdditions: the pods of the first API list sorted by creation time
//     (sliceutils.PodsByCreationTime), a terminal pod skipped, each admitted against the pods
//     admitted before it; the kubelet's other admit handlers (eviction, sysctls, AppArmor,
//     shutdown, the topology and resource managers) admit every scenario pod and are not run;
//   - rejectPod: the Warning event (not written) and SetPodStatus {QOSClass (from 1.33, read
//     from the release's kubelet.go), Phase Failed, Reason, Message "Pod was rejected: " +
//     Admit's message}; no pod worker is created, so no SyncPod and no probe worker;
//   - HandlePodCleanups on the sync loop's 2 s housekeeping tick (from the kubelet's start,
//     strictly after the rejection): the running containers no pod worker knows are killed
//     ("Clean up containers for orphaned pod", grace 1 s, the containers taking all of it);
//   - the PodDeletionSafetyProvider (kubelet.PodCouldHaveRunningContainers): true for an
//     admitted pod (its pod worker is not terminated), for a rejected one while its containers
//     run (the orphan's pod worker ends when they are gone).
//
// Where the model puts it: A1 and A2 of docs/MODEL.md; admission at the first SyncPod's time
// (start + first_sync_delay_s), as the model does.

import (
	"context"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	v1qos "k8s.io/kubernetes/pkg/apis/core/v1/helper/qos"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/kubelet/util/sliceutils"

	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

const (
	housekeeping     = 2_000 // kubelet.go housekeepingPeriod
	orphanKillGrace  = 1_000 // HandlePodCleanups' PodTerminationGracePeriodSecondsOverride
	controllerTaints = "node.kubernetes.io/"
)

// nodeLabels is the node's labels: the scenario's, and the hostname label the kubelet registers.
func nodeLabels(l map[string]string) map[string]string {
	out := map[string]string{"kubernetes.io/hostname": NodeName}
	for k, v := range l {
		out[k] = v
	}
	return out
}

func taintObjects(ts []scenario.Taint) []v1.Taint {
	var out []v1.Taint
	for _, t := range ts {
		out = append(out, v1.Taint{Key: t.Key, Value: t.Value, Effect: v1.TaintEffect(t.Effect)})
	}
	return out
}

// allocatable: what the kubelet's node status reports; the scheduler's AdmissionCheck counts
// the pods against it (110, the default maxPods).
func allocatable() v1.ResourceList {
	return v1.ResourceList{
		v1.ResourcePods:   resource.MustParse("110"),
		v1.ResourceCPU:    resource.MustParse("4"),
		v1.ResourceMemory: resource.MustParse("8Gi"),
	}
}

// placement is the pod's nodeSelector, required node affinity and the scenario's tolerations.
func placement(spec *v1.PodSpec, p *scenario.Pod) {
	spec.NodeSelector = p.NodeSelector
	if len(p.NodeAffinity) > 0 {
		var terms []v1.NodeSelectorTerm
		for _, t := range p.NodeAffinity {
			var term v1.NodeSelectorTerm
			for _, r := range t.MatchExpressions {
				term.MatchExpressions = append(term.MatchExpressions, v1.NodeSelectorRequirement{
					Key: r.Key, Operator: v1.NodeSelectorOperator(r.Operator), Values: r.Values})
			}
			terms = append(terms, term)
		}
		spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: terms}}}
	}
	for _, t := range p.Tolerations {
		op := v1.TolerationOperator(t.Operator)
		if op == "" {
			op = v1.TolerationOpEqual
		}
		spec.Tolerations = append(spec.Tolerations, v1.Toleration{Key: t.Key, Operator: op, Value: t.Value,
			Effect: v1.TaintEffect(t.Effect), TolerationSeconds: t.Seconds})
	}
}

// scheduleNodeChanges: `kubectl label` / `kubectl taint` at each change's time, on the node
// object in the API (the controllers' taints stay). Nothing running is touched.
func (n *Node) scheduleNodeChanges() {
	for _, ch := range n.sc.Node.Changes {
		ch := ch
		if !n.future(int64(ch.AtS * 1000)) {
			continue
		}
		n.q.At(int64(ch.AtS*1000), func() { n.asOutside(func() { n.editNode(ch) }) })
	}
}

// editNode is the user's change to the node object.
func (n *Node) editNode(ch scenario.NodeChange) {
	ctx := context.Background()
	node, err := n.client.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return
	}
	if ch.Labels != nil {
		node.Labels = nodeLabels(*ch.Labels)
	}
	if ch.Taints != nil {
		var keep []v1.Taint
		for _, t := range node.Spec.Taints {
			if strings.HasPrefix(t.Key, controllerTaints) {
				keep = append(keep, t)
			}
		}
		node.Spec.Taints = append(keep, taintObjects(*ch.Taints)...)
	}
	_, _ = n.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	n.rec.Add(trace.Event{T: n.now(), Kind: "node_edited", Value: nodeText(node), By: "scenario"})
}

// nodeText is the model's NodeEdited value: the user's labels and taints.
func nodeText(node *v1.Node) string {
	var shown []string
	var keys []string
	for k := range node.Labels {
		if k != "kubernetes.io/hostname" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		shown = append(shown, k+"="+node.Labels[k])
	}
	for _, t := range node.Spec.Taints {
		if strings.HasPrefix(t.Key, controllerTaints) {
			continue
		}
		v := ""
		if t.Value != "" {
			v = "=" + t.Value
		}
		shown = append(shown, t.Key+v+":"+string(t.Effect))
	}
	if len(shown) == 0 {
		return "no labels, no taints"
	}
	return strings.Join(shown, ", ")
}

// handlePodAdditions is HandlePodAdditions for the first API list of a kubelet that starts:
// every pod that is not terminal goes through the predicate admit handler; a rejected pod gets
// rejectPod and no pod worker.
func (n *Node) handlePodAdditions() {
	k := n.k
	var pods []*v1.Pod
	for _, pod := range k.podMgr.GetPods() {
		pods = append(pods, pod)
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	sort.Sort(sliceutils.PodsByCreationTime(pods))
	getNode := func() (*v1.Node, error) {
		return n.client.CoreV1().Nodes().Get(context.Background(), NodeName, metav1.GetOptions{})
	}
	var admitted []*v1.Pod
	for _, pod := range pods {
		if pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded {
			continue
		}
		if ok, reason, message := lifecycle.OracleAdmit(getNode, pod, admitted); !ok {
			n.rejectPod(pod, reason, message)
			continue
		}
		admitted = append(admitted, pod)
	}
}

// rejectPod is kubelet.go rejectPod, then housekeeping's kill of the orphaned containers.
func (n *Node) rejectPod(pod *v1.Pod, reason, message string) {
	k := n.k
	var p *podRT
	for _, q := range n.pods {
		if q.uid == pod.UID {
			p = q
		}
	}
	if p == nil {
		return
	}
	p.rejected = true
	n.rec.Add(trace.Event{T: n.now(), Kind: "pod_rejected", Pod: pod.Name, Value: "Pod was rejected: " + message, By: "kubelet"})
	s := v1.PodStatus{Phase: v1.PodFailed, Reason: reason, Message: "Pod was rejected: " + message}
	if n.gates.RejectKeepsQOSClass {
		s.QOSClass = v1qos.GetPodQOS(pod)
	}
	status.OracleSetPodStatus(k.sm, pod, s)
	n.killOrphan(p, tickAtOrAfter(k.start, housekeeping, n.now()+1), k.gen)
}

// killOrphan: HandlePodCleanups at `at` finds the rejected pod's containers running with no pod
// worker and kills them with a 1 s grace; while the runtime does not answer, housekeeping
// returns at its runtime listing and tries again at its next tick.
func (n *Node) killOrphan(p *podRT, at int64, gen int) {
	n.q.At(at, func() {
		if !n.alive(gen) {
			return
		}
		if !n.runtimeUp {
			n.killOrphan(p, at+housekeeping, gen)
			return
		}
		n.q.At(at+orphanKillGrace, func() {
			if !n.alive(gen) {
				return
			}
			for _, c := range p.all() {
				if c.running {
					c.running = false
					c.finished = n.now()
					n.rec.Add(trace.Event{T: n.now(), Kind: "container_exit", Pod: p.spec.Name, Container: c.spec.Name, By: "kubelet"})
				}
			}
		})
	})
}

// safety is the kubelet's PodDeletionSafetyProvider (PodCouldHaveRunningContainers) as the
// status manager asks it: an admitted pod's worker is not terminated; a rejected pod's orphan
// worker ends when its containers are gone.
type safety struct{ n *Node }

func (s safety) PodCouldHaveRunningContainers(pod *v1.Pod) bool {
	for _, p := range s.n.pods {
		if p.uid != pod.UID {
			continue
		}
		if !p.rejected {
			return true
		}
		for _, c := range p.all() {
			if c.running {
				return true
			}
		}
		return false
	}
	return false
}
