// RestartScope's oracle: OracleDrain in the form of the work queues from 1.31 (typed,
// workqueue.TypedInterface); v1.30/ holds the 1.30 form (untyped: each item asserted). The rest
// of the hooks are in zz_oracle.go, one file for every release.
package nodelifecycle

import (
	"context"

	"k8s.io/klog/v2"
)

// OracleDrain does what Run's workers do until both queues are empty: each node as
// doNodeProcessingPassWorker (doNoScheduleTaintingPass, then reconcileNodeLabels), then each
// pod as doPodProcessingWorker (processPod).
func (nc *Controller) OracleDrain(ctx context.Context) {
	logger := klog.FromContext(ctx)
	for nc.nodeUpdateQueue.Len() > 0 {
		nodeName, shutdown := nc.nodeUpdateQueue.Get()
		if shutdown {
			return
		}
		if err := nc.doNoScheduleTaintingPass(ctx, nodeName); err != nil {
			logger.Error(err, "Failed to taint NoSchedule on node, requeue it", "node", klog.KRef("", nodeName))
		}
		if err := nc.reconcileNodeLabels(ctx, nodeName); err != nil {
			logger.Error(err, "Failed to reconcile labels for node, requeue it", "node", klog.KRef("", nodeName))
		}
		nc.nodeUpdateQueue.Done(nodeName)
	}
	for nc.podUpdateQueue.Len() > 0 {
		item, shutdown := nc.podUpdateQueue.Get()
		if shutdown {
			return
		}
		nc.processPod(ctx, item)
	}
}
