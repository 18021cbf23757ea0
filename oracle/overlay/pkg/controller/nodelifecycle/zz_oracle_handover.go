// Hooks the RestartScope oracle adds to this package for an in-place kubelet upgrade, which it
// runs as two processes (one per release): the first reads the controller's memory of each node
// when the old kubelet stops, the second gives it to its own controller before its first pass,
// so kube-controller-manager, which an upgrade of a node's kubelet does not restart, goes on
// with what it knew (nodeHealthMap's probe and ready-transition timestamps, knownNodeSet with
// each node's zone evictor, zoneStates). No rule is changed. The same file serves every release
// from 1.30.
package nodelifecycle

import (
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
)

// OracleHealth is one node's nodeHealthData.
type OracleHealth struct {
	ProbeTimestamp           metav1.Time    `json:"probe_timestamp"`
	ReadyTransitionTimestamp metav1.Time    `json:"ready_transition_timestamp"`
	Status                   *v1.NodeStatus `json:"status,omitempty"`
	Lease                    *coordv1.Lease `json:"lease,omitempty"`
	Known                    *v1.Node       `json:"known,omitempty"`
}

// OracleMemory is each node's health and knownNodeSet entry, and the zones' states.
func (nc *Controller) OracleMemory() (map[string]OracleHealth, map[string]string) {
	out := map[string]OracleHealth{}
	nc.nodeHealthMap.lock.RLock()
	for name, h := range nc.nodeHealthMap.nodeHealths {
		if h == nil {
			continue
		}
		out[name] = OracleHealth{ProbeTimestamp: h.probeTimestamp, ReadyTransitionTimestamp: h.readyTransitionTimestamp,
			Status: h.status.DeepCopy(), Lease: h.lease.DeepCopy()}
	}
	nc.nodeHealthMap.lock.RUnlock()
	for name, n := range nc.knownNodeSet {
		h := out[name]
		h.Known = n.DeepCopy()
		out[name] = h
	}
	zones := map[string]string{}
	for z, s := range nc.zoneStates {
		zones[z] = string(s)
	}
	return out, zones
}

// OracleRemember gives the controller that memory, as if it had run all along.
func (nc *Controller) OracleRemember(health map[string]OracleHealth, zones map[string]string) {
	logger := klog.Background()
	for name, h := range health {
		nc.nodeHealthMap.set(name, &nodeHealthData{probeTimestamp: h.ProbeTimestamp, readyTransitionTimestamp: h.ReadyTransitionTimestamp,
			status: h.Status, lease: h.Lease})
		if h.Known != nil {
			nc.knownNodeSet[name] = h.Known
			nc.addPodEvictorForNewZone(logger, h.Known)
		}
	}
	for z, s := range zones {
		nc.zoneStates[z] = ZoneState(s)
	}
}
