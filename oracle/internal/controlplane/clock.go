package controlplane

import (
	"sort"
	"sync"
	"time"

	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// stepClock is the harness's fake clock as the taint eviction controller's TimedWorkerQueue
// sees it (timed_workers.go CreateWorkerQueue takes clock.RealClock; timed_workers_test.go
// gives it a fake one): it reads the time from the harness's FakeClock, but a timer set with
// AfterFunc fires only when Step calls fire, in a fixed order, so the deletion it starts
// happens inside Step (FakeClock would run it from whoever moves the clock).
type stepClock struct {
	*testingclock.FakeClock

	mu     sync.Mutex
	seq    int
	timers []*stepTimer
}

var _ clock.WithDelayedExecution = (*stepClock)(nil)

type stepTimer struct {
	c      *stepClock
	at     time.Time
	seq    int
	f      func()
	active bool
	listed bool // in c.timers
}

func (c *stepClock) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &stepTimer{c: c, at: c.Now().Add(d), seq: c.seq, f: f, active: true, listed: true}
	c.timers = append(c.timers, t)
	return t
}

func (t *stepTimer) C() <-chan time.Time { return nil }

func (t *stepTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

func (t *stepTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.c.seq++
	t.at, t.seq, t.active = t.c.Now().Add(d), t.c.seq, true
	if !t.listed {
		t.c.timers = append(t.c.timers, t)
		t.listed = true
	}
	return was
}

// next is when the earliest pending timer fires.
func (c *stepClock) next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var at time.Time
	found := false
	for _, t := range c.timers {
		if t.active && (!found || t.at.Before(at)) {
			at, found = t.at, true
		}
	}
	return at, found
}

// fire runs, in order of (time, creation), every timer due at now; it reports how many ran.
func (c *stepClock) fire(now time.Time) int {
	c.mu.Lock()
	var due []*stepTimer
	kept := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case !t.active:
			t.listed = false
		case !t.at.After(now):
			t.active, t.listed = false, false
			due = append(due, t)
		default:
			kept = append(kept, t)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	sort.Slice(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].seq < due[j].seq
	})
	for _, t := range due {
		t.f()
	}
	return len(due)
}
