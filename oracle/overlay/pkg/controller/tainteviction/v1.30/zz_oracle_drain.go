// RestartScope's oracle: OracleDrain in the 1.30 form of the work queues (untyped,
// workqueue.Interface: each item asserted). See ../zz_oracle_drain.go.
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
			tc.handleNodeUpdate(ctx, item.(nodeUpdateItem))
			tc.nodeUpdateQueue.Done(item)
			continue
		}
		if tc.podUpdateQueue.Len() > 0 {
			item, shutdown := tc.podUpdateQueue.Get()
			if shutdown {
				return
			}
			tc.handlePodUpdate(ctx, item.(podUpdateItem))
			tc.podUpdateQueue.Done(item)
			continue
		}
		return
	}
}
