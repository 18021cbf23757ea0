// One signature for the prober calls whose arguments changed between releases (RestartScope's
// oracle hooks). This file serves 1.35 and later; v1.34/ holds the form up to 1.34.
package prober

import (
	"context"

	v1 "k8s.io/api/core/v1"
)

func OracleAddPod(ctx context.Context, m Manager, pod *v1.Pod) { m.AddPod(ctx, pod) }

func OracleUpdatePodStatus(ctx context.Context, m Manager, pod *v1.Pod, s *v1.PodStatus) {
	m.UpdatePodStatus(ctx, pod, s)
}
