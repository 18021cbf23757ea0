// Hooks the RestartScope oracle (oracle/ in the RestartScope repository) adds to this package
// when it builds Kubernetes' own tree: they export what node_lifecycle_controller_test.go
// reaches from inside the package (nodeController.now, monitorNodeHealth,
// doNoExecuteTaintingPass), and the bodies of Run's goroutines (doNodeProcessingPassWorker,
// doPodProcessingWorker) and of the informer handlers NewNodeLifecycleController registers,
// so a harness runs this controller on its own clock, one step at a time, with informer stores
// it fills by hand. No rule is changed.
// The same file serves every release; OracleDrain, whose queues' types changed in 1.31, is in
// zz_oracle_drain.go.
package nodelifecycle

import (
	"context"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OracleSetNow replaces the controller's clock, as node_lifecycle_controller_test.go sets
// nodeController.now.
func (nc *Controller) OracleSetNow(now func() metav1.Time) { nc.now = now }

// OracleMonitorNodeHealth is one pass of Run's monitorNodeHealth loop (every
// --node-monitor-period).
func (nc *Controller) OracleMonitorNodeHealth(ctx context.Context) error {
	return nc.monitorNodeHealth(ctx)
}

// OracleNoExecuteTaintingPass is one pass of Run's doNoExecuteTaintingPass loop (every
// scheduler.NodeEvictionPeriod).
func (nc *Controller) OracleNoExecuteTaintingPass(ctx context.Context) {
	nc.doNoExecuteTaintingPass(ctx)
}

// OracleNodeChanged is the node informer's AddFunc and UpdateFunc
// (NewNodeLifecycleController): the node goes on nodeUpdateQueue.
func (nc *Controller) OracleNodeChanged(name string) { nc.nodeUpdateQueue.Add(name) }

// OracleNodeDeleted is the node informer's DeleteFunc.
func (nc *Controller) OracleNodeDeleted(name string) { nc.nodesToRetry.Delete(name) }

// OraclePodChanged is the pod informer's AddFunc and UpdateFunc: podUpdated.
func (nc *Controller) OraclePodChanged(oldPod, newPod *v1.Pod) { nc.podUpdated(oldPod, newPod) }

// OracleQueued is how many items wait on nodeUpdateQueue and podUpdateQueue.
func (nc *Controller) OracleQueued() int {
	return nc.nodeUpdateQueue.Len() + nc.podUpdateQueue.Len()
}

// OracleTaintQueueLen is how many nodes wait in the zones' NoExecute tainting queues
// (zoneNoExecuteTainter): doNoExecuteTaintingPass does nothing while it is 0.
func (nc *Controller) OracleTaintQueueLen() int {
	nc.evictorLock.Lock()
	defer nc.evictorLock.Unlock()
	n := 0
	for _, q := range nc.zoneNoExecuteTainter {
		n += q.OracleLen()
	}
	return n
}

// OracleShutdown stops what NewNodeLifecycleController started (its event broadcaster) and
// shuts its queues down, as Run does when its context ends.
func (nc *Controller) OracleShutdown() {
	nc.nodeUpdateQueue.ShutDown()
	nc.podUpdateQueue.ShutDown()
	nc.broadcaster.Shutdown()
}
