// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package
// when it builds Kubernetes' own tree, so a harness runs the taint eviction controller on its
// own clock, one step at a time, with informer stores it fills by hand (as
// taint_eviction_test.go reaches inside the package): the controller's `now` (swapped in for
// time.Now() by taint_eviction.go.sed), the TimedWorkerQueue's clock (timed_workers_test.go
// gives it a fake clock the same way), the goroutines a fired or immediate worker starts
// (oracleGo, swapped in by timed_workers.go.sed, so the harness can wait for them), the body of
// Run's workers (worker: node updates before pod updates) and the pending deletions. No rule
// is changed.
// The same file serves every release; OracleDrain, whose queues' types changed in 1.31, is in
// zz_oracle_drain.go.
package tainteviction

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

var (
	oracleMu       sync.Mutex
	oracleNowFunc  = time.Now
	oracleInflight sync.WaitGroup
)

// OracleSetNow makes handleNodeUpdate and handlePodUpdate read now instead of the wall clock.
// One harness per process.
func OracleSetNow(now func() time.Time) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	oracleNowFunc = now
}

func oracleNow() time.Time {
	oracleMu.Lock()
	f := oracleNowFunc
	oracleMu.Unlock()
	return f()
}

// oracleGo starts f as the release does (on wg where the release has one, else with a bare go
// statement) and counts it until it returns, for OracleWait.
func oracleGo(wg *sync.WaitGroup, f func()) {
	oracleInflight.Add(1)
	run := func() {
		defer oracleInflight.Done()
		f()
	}
	if wg != nil {
		wg.Go(run)
		return
	}
	go run()
}

// OracleWait returns once every goroutine a worker started (addConditionAndDeletePod through
// deletePodHandler) has returned.
func OracleWait() { oracleInflight.Wait() }

// OracleUseClock gives the TimedWorkerQueue the clock whose AfterFunc times the deletions.
func (tc *Controller) OracleUseClock(c clock.WithDelayedExecution) {
	tc.taintEvictionQueue.Lock()
	defer tc.taintEvictionQueue.Unlock()
	tc.taintEvictionQueue.clock = c
}

// OracleQueued is how many updates wait on nodeUpdateQueue and podUpdateQueue.
func (tc *Controller) OracleQueued() int {
	return tc.nodeUpdateQueue.Len() + tc.podUpdateQueue.Len()
}

// OracleScheduled is each pending deletion's pod (namespace/name) and when it fires.
func (tc *Controller) OracleScheduled() map[string]time.Time {
	q := tc.taintEvictionQueue
	q.Lock()
	defer q.Unlock()
	out := make(map[string]time.Time, len(q.workers))
	for key, w := range q.workers {
		if w != nil {
			out[key] = w.FireAt
		}
	}
	return out
}

// OracleShutdown shuts the queues down and stops the event broadcaster, as Run does when its
// context ends.
func (tc *Controller) OracleShutdown() {
	tc.nodeUpdateQueue.ShutDown()
	tc.podUpdateQueue.ShutDown()
	tc.broadcaster.Shutdown()
}
