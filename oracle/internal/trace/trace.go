// Package trace is the oracle's output: the model's own trace vocabulary (crates/sim/src/trace),
// as JSON, so crates/sim/tests/oracle.rs can compare a model run with what Kubernetes' Go code
// did on the same scenario.
package trace

import "time"

// Event is one state change, as the model's trace names it: `kind` is the model's Kind
// (pod_ready, status_write, container_started, container_ready, node_ready, taint_added,
// taint_removed, eviction, pod_removed, pod_rejected, container_restart, …).
type Event struct {
	T         int64  `json:"t"`
	Kind      string `json:"kind"`
	Pod       string `json:"pod,omitempty"`
	Container string `json:"container,omitempty"`
	Value     any    `json:"value"`
	// By: the model's Actor names (kubelet, runtime, node-lifecycle-controller,
	// taint-eviction-controller).
	By string `json:"by,omitempty"`
}

// Recorder collects events on the harness's one clock; sim time 0 is Base.
type Recorder struct {
	Events []Event
}

// Base is the wall time of simulated time 0.
var Base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Ms is simulated milliseconds since Base.
func Ms(t time.Time) int64 { return t.Sub(Base).Milliseconds() }

// At is the wall time of simulated milliseconds.
func At(ms int64) time.Time { return Base.Add(time.Duration(ms) * time.Millisecond) }

func (r *Recorder) Add(e Event) { r.Events = append(r.Events, e) }
