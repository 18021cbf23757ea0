// One signature for the prober calls whose arguments changed between releases (RestartScope's
// oracle hooks). The form before 1.35.
package prober

import (
	"context"

	v1 "k8s.io/api/core/v1"
)

func OracleAddPod(ctx context.Context, m Manager, pod *v1.Pod) { _ = ctx; m.AddPod(pod) }

func OracleUpdatePodStatus(ctx context.Context, m Manager, pod *v1.Pod, s *v1.PodStatus) {
	_ = ctx
	m.UpdatePodStatus(pod, s)
}
