// RestartScope's oracle hooks for the gRPC prober, in the form its Probe has from 1.37 (with
// ProbeOptions); v1.36/ holds the form up to 1.36. The answer of a probe comes from the harness,
// as oracleHTTP's does; what this release's own gRPC prober does with a port nobody listens on
// is found by running it (OracleGRPCRefused).
package prober

import (
	"time"

	"k8s.io/kubernetes/pkg/probe"
	grpcprobe "k8s.io/kubernetes/pkg/probe/grpc"
)

type oracleGRPC struct{ a OracleAnswer }

func (o oracleGRPC) Probe(host, _ string, port int, _ time.Duration, _ grpcprobe.ProbeOptions) (probe.Result, string, error) {
	r, err := o.a("grpc", host, port)
	return r, "", err
}

// oracleRealGRPC is the release's own gRPC prober (pkg/probe/grpc grpcProber.Probe), as
// prober.runProbe calls it for a probe without TLS.
func oracleRealGRPC(host string, port int, timeout time.Duration) (probe.Result, string, error) {
	return grpcprobe.New().Probe(host, "", port, timeout, grpcprobe.ProbeOptions{})
}
