// Hooks the RestartScope oracle adds to this package (see ../zz_oracle.go): the form of 1.34
// (the node getter without arguments, HandleAdmissionFailure with a context).
package lifecycle

import (
	"context"

	v1 "k8s.io/api/core/v1"

	schedulerframework "k8s.io/kubernetes/pkg/scheduler/framework"
)

// oracleFailures is preemption.CriticalPodAdmissionHandler's answer for a pod that is not
// critical: the reasons unchanged.
type oracleFailures struct{}

func (oracleFailures) HandleAdmissionFailure(_ context.Context, _ *v1.Pod, r []PredicateFailureReason) ([]PredicateFailureReason, error) {
	return r, nil
}

func OracleAdmit(node func() (*v1.Node, error), pod *v1.Pod, others []*v1.Pod) (bool, string, string) {
	h := NewPredicateAdmitHandler(node, oracleFailures{}, func(*schedulerframework.NodeInfo, *PodAdmitAttributes) error { return nil })
	r := h.Admit(&PodAdmitAttributes{Pod: pod, OtherPods: others})
	return r.Admit, r.Reason, r.Message
}
