package main

// An in-place kubelet upgrade runs in two processes, one per release (two releases of
// k8s.io/kubernetes cannot be built into one binary): the release it upgrades from runs the
// story until its kubelet stops (-handover-out) and writes a Handover; the release it upgrades
// to (-handover-in) takes it, seeds its fake API, runtime and control plane with it and goes on.
// oracle/scripts/oracle.sh runs the pair.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"k8s.io/kubernetes/pkg/controller/nodelifecycle"

	"restartscope/oracle/internal/node"
	"restartscope/oracle/internal/trace"
)

// Handover is the node and the cluster when the old kubelet stops.
type Handover struct {
	// The release the story ran on so far, its kubelet's gates.
	From         string `json:"from"`
	FeatureGates string `json:"feature_gates"`
	Scenario     string `json:"scenario"`
	Policy       string `json:"policy"`
	// What the old release's process could not drive (the pair is not run).
	Skipped []string `json:"skipped,omitempty"`
	// The fake API's objects of the story's node (the control plane's peers are its own).
	Pods  []v1.Pod       `json:"pods,omitempty"`
	Node  *v1.Node       `json:"node,omitempty"`
	Lease *coordv1.Lease `json:"lease,omitempty"`
	// The container runtime and the node's state outside the kubelet process.
	Runtime *node.Carried `json:"runtime,omitempty"`
	// The node lifecycle controller's memory, each node's and each zone's.
	Health map[string]nodelifecycle.OracleHealth `json:"health,omitempty"`
	Zones  map[string]string                     `json:"zones,omitempty"`
	// The events so far, as recorded.
	Events []trace.Event `json:"events"`
}

func readHandover(path string) (*Handover, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var h Handover
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &h, nil
}

func (h *Handover) write(path string) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// take reads what the old process leaves: the API's objects, the runtime, the controller's
// memory, the timed work it could not carry.
func (h *Handover) take(ctx context.Context, client *fake.Clientset, n *node.Node, cp interface {
	Memory() (map[string]nodelifecycle.OracleHealth, map[string]string)
	Pending() []string
}) error {
	pods, err := client.CoreV1().Pods(node.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	h.Pods = pods.Items
	if h.Node, err = client.CoreV1().Nodes().Get(ctx, node.NodeName, metav1.GetOptions{}); err != nil {
		return err
	}
	if h.Lease, err = client.CoordinationV1().Leases(v1.NamespaceNodeLease).Get(ctx, node.NodeName, metav1.GetOptions{}); err != nil {
		return err
	}
	h.Runtime = n.Carry()
	h.Health, h.Zones = cp.Memory()
	h.Skipped = append(h.Skipped, cp.Pending()...)
	return nil
}

// seed puts the old process's objects in this process's fake API.
func (h *Handover) seed(ctx context.Context, client *fake.Clientset) error {
	for i := range h.Pods {
		p := h.Pods[i].DeepCopy()
		p.ResourceVersion = ""
		if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	nd := h.Node.DeepCopy()
	nd.ResourceVersion = ""
	if _, err := client.CoreV1().Nodes().Create(ctx, nd, metav1.CreateOptions{}); err != nil {
		return err
	}
	l := h.Lease.DeepCopy()
	l.ResourceVersion = ""
	_, err := client.CoordinationV1().Leases(l.Namespace).Create(ctx, l, metav1.CreateOptions{})
	return err
}
