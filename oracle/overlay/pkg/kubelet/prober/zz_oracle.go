// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package
// with `go build -overlay`. They export what the package's own tests reach from inside it
// (worker.doProbe, the manual trigger, the manager's workers), so a harness can run the real
// prober on a fake clock. No rule of the package is changed.
package prober

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"

	kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"
	"k8s.io/kubernetes/pkg/kubelet/prober/results"
	"k8s.io/kubernetes/pkg/kubelet/status"
	"k8s.io/kubernetes/pkg/probe"
)

// OracleClock is read where the package reads the wall clock (worker.go.sed, prober_manager.go.sed).
var OracleClock clock.PassiveClock = clock.RealClock{}

func oracleNow() time.Time                  { return OracleClock.Now() }
func oracleSince(t time.Time) time.Duration { return OracleClock.Since(t) }

// oracleRun stands for AddPod's `go w.run(ctx)`: the harness runs the worker's loop itself.
func oracleRun(w *worker, _ ...any) { oracleAdded = append(oracleAdded, w) }

var oracleAdded []*worker

// OracleAnswer answers the http, tcp and grpc probes (exec probes go through the runner the
// manager is built with, as in the kubelet).
type OracleAnswer func(kind string, host string, port int) (probe.Result, error)

// OracleWorker is one probe worker.
type OracleWorker struct{ w *worker }

// OracleNewManager is NewManager with the given runner and answers for the network probes.
func OracleNewManager(sm status.Manager, liveness, readiness, startup results.Manager, runner kubecontainer.CommandRunner, answer OracleAnswer) Manager {
	m := NewManager(sm, liveness, readiness, startup, runner, &record.FakeRecorder{}).(*manager)
	m.prober.http = oracleHTTP{answer}
	m.prober.tcp = oracleTCP{answer}
	m.prober.grpc = oracleGRPC{answer}
	return m
}

// OracleTakeAdded returns the workers AddPod created since the last call, in key order.
func OracleTakeAdded() []OracleWorker {
	ws := oracleAdded
	oracleAdded = nil
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].pod.UID != ws[j].pod.UID {
			return ws[i].pod.UID < ws[j].pod.UID
		}
		if ws[i].container.Name != ws[j].container.Name {
			return ws[i].container.Name < ws[j].container.Name
		}
		return ws[i].probeType < ws[j].probeType
	})
	out := make([]OracleWorker, len(ws))
	for i, w := range ws {
		out[i] = OracleWorker{w}
	}
	return out
}

func (o OracleWorker) PodUID() types.UID { return o.w.pod.UID }
func (o OracleWorker) Container() string { return o.w.container.Name }

// Kind is "liveness", "readiness" or "startup".
func (o OracleWorker) Kind() string {
	switch o.w.probeType {
	case liveness:
		return "liveness"
	case readiness:
		return "readiness"
	default:
		return "startup"
	}
}
func (o OracleWorker) Period() time.Duration {
	return time.Duration(o.w.spec.PeriodSeconds) * time.Second
}

// Started is the manager's start (run's "kubelet started recently" test).
func (o OracleWorker) ManagerStart() time.Time { return o.w.probeManager.start }

// DoProbe is one doProbe; false when the worker's loop ends.
func (o OracleWorker) DoProbe(ctx context.Context) bool { return o.w.doProbe(ctx) }

// TakeTrigger receives a pending manual trigger (run's select).
func (o OracleWorker) TakeTrigger() bool {
	select {
	case <-o.w.manualTriggerCh:
		return true
	default:
		return false
	}
}

// TakeStop receives a pending stop (run's select).
func (o OracleWorker) TakeStop() bool {
	select {
	case <-o.w.stopCh:
		return true
	default:
		return false
	}
}

// Exit is run's deferred clean-up.
func (o OracleWorker) Exit() {
	w := o.w
	if !w.containerID.IsEmpty() {
		w.resultsManager.Remove(w.containerID)
	}
	w.probeManager.removeWorker(w.pod.UID, w.container.Name, w.probeType)
}

// Seed gives a worker of the steady state before the story the results it would hold after an
// hour of probing a healthy container: its container ID seen and its result cached.
func (o OracleWorker) Seed(containerID string, pod *v1.Pod, ok bool) {
	w := o.w
	w.containerID = kubecontainer.ContainerID{Type: "containerd", ID: strings.TrimPrefix(containerID, "containerd://")}
	r := results.Success
	if !ok {
		r = results.Failure
	}
	w.resultsManager.Set(w.containerID, r, pod)
	w.lastResult = r
	w.resultRun = 1000
	if w.probeType == startup && ok {
		w.onHold = true
		w.resultRun = 0
	}
}

type oracleHTTP struct{ a OracleAnswer }
type oracleTCP struct{ a OracleAnswer }

func (o oracleHTTP) Probe(req *http.Request, _ time.Duration) (probe.Result, string, error) {
	port, _ := strconv.Atoi(req.URL.Port())
	r, err := o.a("http", req.URL.Hostname(), port)
	return r, "", err
}

func (o oracleHTTP) ProbeH2C(req *http.Request, t time.Duration) (probe.Result, string, error) {
	return o.Probe(req, t)
}

func (o oracleTCP) Probe(host string, port int, _ time.Duration) (probe.Result, string, error) {
	r, err := o.a("tcp", host, port)
	return r, "", err
}
