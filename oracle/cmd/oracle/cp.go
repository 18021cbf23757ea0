package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"

	"restartscope/oracle/internal/controlplane"
	"restartscope/oracle/internal/node"
	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

// controlConfig is kube-controller-manager's node lifecycle settings for the scenario: its own
// values where it sets them, else the release's defaults as its source has them
// (pkg/controller/nodelifecycle/config/v1alpha1/defaults.go RecommendedDefaultNodeLifecycleControllerConfiguration).
func controlConfig(sc *scenario.Scenario, kdir string) (controlplane.Config, error) {
	cfg := controlplane.Config{
		NodeMonitorPeriod: time.Duration(sc.Cluster.NodeMonitorPeriodS * float64(time.Second)),
		LeaseDuration:     time.Duration(sc.Cluster.LeaseDurationS * float64(time.Second)),
		Seed:              sc.Seed,
		Nodes:             []string{node.NodeName, "node-1"},
	}
	if g := sc.Cluster.NodeMonitorGraceS; g != nil {
		cfg.NodeMonitorGracePeriod = time.Duration(*g * float64(time.Second))
		return cfg, nil
	}
	src, err := os.ReadFile(filepath.Join(kdir, "pkg/controller/nodelifecycle/config/v1alpha1/defaults.go"))
	if err != nil {
		return cfg, err
	}
	m := regexp.MustCompile(`NodeMonitorGracePeriod = metav1\.Duration\{Duration: (\d+) \* time\.Second\}`).FindSubmatch(src)
	if m == nil {
		return cfg, fmt.Errorf("no NodeMonitorGracePeriod default in %s", kdir)
	}
	s, _ := strconv.Atoi(string(m[1]))
	cfg.NodeMonitorGracePeriod = time.Duration(s) * time.Second
	return cfg, nil
}

func newControlPlane(ctx context.Context, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, sc *scenario.Scenario, kdir string) (*controlplane.ControlPlane, error) {
	cfg, err := controlConfig(sc, kdir)
	if err != nil {
		return nil, err
	}
	return controlplane.New(ctx, client, clk, rec, cfg)
}
