package node

import (
	"k8s.io/kubernetes/pkg/kubelet/prober"
	"k8s.io/kubernetes/pkg/probe"
)

// grpcRefused is a gRPC probe of a container that does not listen yet (warming up after its
// start): how long it takes on the harness's clock and its result, from running the release's
// own gRPC prober against a closed loopback port (prober.OracleGRPCRefused). Up to v1.38.0-alpha.1
// grpcProber.Probe dials with grpc.WithBlock() and fails at timeoutSeconds; from #142457 a refused
// connection fails the probe at once. The port stays closed for the whole probe here, as in the
// model (whose answer is the truth when the probe starts): a blocking dial that would connect
// when the port opens before the timeout is not driven.
func grpcRefused(timeout int64) (dur int64, ok bool) {
	atOnce, res := prober.OracleGRPCRefused()
	if atOnce {
		return 0, res == probe.Success
	}
	return timeout, res == probe.Success
}
