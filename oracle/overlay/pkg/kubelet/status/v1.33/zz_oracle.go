// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package
// with `go build -overlay`: the status manager's private sync (syncBatch, the podStatusChannel
// its Start goroutine waits on), so a harness runs the real status manager on its own clock,
// and one signature for calls whose arguments changed between releases. No rule is changed.
// This is the 1.33 form.
package status

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"

	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
)

func OracleNewManager(c clientset.Interface, pm PodManager, safety PodDeletionSafetyProvider, lat PodStartupLatencyStateHelper) Manager {
	return NewManager(c, pm, safety, lat)
}

func OracleSetPodStatus(m Manager, pod *v1.Pod, s v1.PodStatus) {
	m.SetPodStatus(pod, s)
}

func OracleSetContainerReadiness(m Manager, uid types.UID, id kubecontainer.ContainerID, ready bool) {
	m.SetContainerReadiness(uid, id, ready)
}

func OracleSetContainerStartup(m Manager, uid types.UID, id kubecontainer.ContainerID, started bool) {
	m.SetContainerStartup(uid, id, started)
}

// OracleSync is what the Start goroutine does: syncBatch(false) when podStatusChannel is
// signalled, syncBatch(true) on its 10 s ticker (all). It reports whether it ran.
func OracleSync(ctx context.Context, m Manager, all bool) bool {
	mm := m.(*manager)
	select {
	case <-mm.podStatusChannel:
	default:
		if !all {
			return false
		}
	}
	_ = ctx
	mm.syncBatch(all)
	return true
}

// OracleConditions are generateAPIPodStatus's ContainersReady and Ready conditions.
func OracleConditions(pod *v1.Pod, old *v1.PodStatus, conditions []v1.PodCondition, cs []v1.ContainerStatus, phase v1.PodPhase) (v1.PodCondition, v1.PodCondition) {
	cr := GenerateContainersReadyCondition(pod, old, cs, phase)
	return cr, GeneratePodReadyCondition(pod, old, append(conditions, cr), cs, phase)
}

// OracleInitialized is generateAPIPodStatus's Initialized condition (over the init and regular
// container statuses, as generateAPIPodStatus passes them).
func OracleInitialized(pod *v1.Pod, old *v1.PodStatus, cs []v1.ContainerStatus, phase v1.PodPhase) v1.PodCondition {
	return GeneratePodInitializedCondition(pod, old, cs, phase)
}
