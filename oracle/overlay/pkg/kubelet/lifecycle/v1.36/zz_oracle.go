// Hooks the RestartScope oracle adds to this package (see ../zz_oracle.go): the form of 1.35 and
// 1.36 (Admit without a context, HandleAdmissionFailure without the operation).
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
	get := func(context.Context, bool) (*v1.Node, error) { return node() }
	h := NewPredicateAdmitHandler(get, oracleFailures{}, func(*schedulerframework.NodeInfo, *PodAdmitAttributes) error { return nil })
	r := h.Admit(&PodAdmitAttributes{Pod: pod, OtherPods: others})
	return r.Admit, r.Reason, r.Message
}
