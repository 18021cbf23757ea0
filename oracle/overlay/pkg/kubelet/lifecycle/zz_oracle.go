// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package:
// the kubelet's predicate admit handler (NewPredicateAdmitHandler, Admit) as HandlePodAdditions
// runs it, behind one signature for the calls whose arguments changed between releases. No rule
// is changed. This file serves 1.37 and later; v1.33/ (up to 1.33), v1.34/ and v1.36/ (1.35,
// 1.36) hold the older signatures.
package lifecycle

import (
	"context"

	v1 "k8s.io/api/core/v1"

	schedulerframework "k8s.io/kubernetes/pkg/scheduler/framework"
)

// oracleFailures is preemption.CriticalPodAdmissionHandler's answer for a pod that is not
// critical (kubetypes.IsCriticalPod false, as every scenario pod is): the reasons unchanged.
type oracleFailures struct{}

func (oracleFailures) HandleAdmissionFailure(_ context.Context, _ *v1.Pod, r []PredicateFailureReason, _ Operation) ([]PredicateFailureReason, error) {
	return r, nil
}

// OracleAdmit is the predicate admit handler's Admit for a pod the kubelet adds
// (HandlePodAdditions → canAdmitPod), with the node from node(); the plugin resource update
// (the container manager's UpdatePluginResources) has no device plugin to account for.
func OracleAdmit(node func() (*v1.Node, error), pod *v1.Pod, others []*v1.Pod) (bool, string, string) {
	get := func(context.Context, bool) (*v1.Node, error) { return node() }
	h := NewPredicateAdmitHandler(get, oracleFailures{}, func(*schedulerframework.NodeInfo, *PodAdmitAttributes) error { return nil })
	r := h.Admit(context.Background(), &PodAdmitAttributes{Pod: pod, OtherPods: others, Operation: AddOperation})
	return r.Admit, r.Reason, r.Message
}
