package main

import (
	"context"
	"time"

	"k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"

	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

// controlPlane is the node lifecycle and taint eviction controllers (internal/controlplane).
type controlPlane interface {
	NextDue() time.Time
	Step(ctx context.Context) error
}

type noControlPlane struct{}

func (noControlPlane) NextDue() time.Time             { return trace.At(1 << 50) }
func (noControlPlane) Step(ctx context.Context) error { return nil }

func newControlPlane(ctx context.Context, client *fake.Clientset, clk *testingclock.FakeClock, rec *trace.Recorder, sc *scenario.Scenario) (controlPlane, error) {
	return noControlPlane{}, nil
}
