// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package
// when it builds Kubernetes' own tree: the clock of the rate-limited timed queue (its `now`,
// which rate_limited_queue_test.go also replaces, and its token buckets' clock, swapped in by
// rate_limited_queue.go.sed and ../node_lifecycle_controller.go.sed), and the queue's length.
// No rule is changed. The same file serves every release from 1.31.
package scheduler

import (
	"sync"

	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/utils/clock"
)

var (
	oracleMu    sync.Mutex
	oracleClock flowcontrol.Clock = clock.RealClock{}
)

// OracleUseClock makes the queues of this process read c: TimedValue times (now) and the
// token buckets created from then on. One harness per process.
func OracleUseClock(c flowcontrol.Clock) {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	oracleClock = c
	now = c.Now
}

// OracleClock is the clock token buckets are created with.
func OracleClock() flowcontrol.Clock {
	oracleMu.Lock()
	defer oracleMu.Unlock()
	return oracleClock
}

// OracleLen is how many values wait in the queue.
func (q *RateLimitedTimedQueue) OracleLen() int {
	q.queue.lock.Lock()
	defer q.queue.lock.Unlock()
	return len(q.queue.queue)
}
