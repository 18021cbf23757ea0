// RestartScope's oracle: OracleDrain in the form of the work queues from 1.31 (typed,
// workqueue.TypedInterface); v1.30/ holds the 1.30 form (untyped: each item asserted). The rest
// of the hooks are in zz_oracle.go, one file for every release.
package tainteviction

import (
	"context"
)

// OracleDrain does what Run's goroutines do until both queues are empty: worker takes every
// node update (handleNodeUpdate) before a pod update (handlePodUpdate).
func (tc *Controller) OracleDrain(ctx context.Context) {
	for {
		if tc.nodeUpdateQueue.Len() > 0 {
			item, shutdown := tc.nodeUpdateQueue.Get()
			if shutdown {
				return
			}
			tc.handleNodeUpdate(ctx, item)
			tc.nodeUpdateQueue.Done(item)
			continue
		}
		if tc.podUpdateQueue.Len() > 0 {
			item, shutdown := tc.podUpdateQueue.Get()
			if shutdown {
				return
			}
			tc.handlePodUpdate(ctx, item)
			tc.podUpdateQueue.Done(item)
			continue
		}
		return
	}
}
