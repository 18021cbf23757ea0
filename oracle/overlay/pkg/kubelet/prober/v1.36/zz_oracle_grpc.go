// RestartScope's oracle hooks for the gRPC prober, in the form its Probe has up to 1.36 (no
// ProbeOptions). See ../zz_oracle_grpc.go.
package prober

import (
	"time"

	"k8s.io/kubernetes/pkg/probe"
	grpcprobe "k8s.io/kubernetes/pkg/probe/grpc"
)

type oracleGRPC struct{ a OracleAnswer }

func (o oracleGRPC) Probe(host, _ string, port int, _ time.Duration) (probe.Result, string, error) {
	r, err := o.a("grpc", host, port)
	return r, "", err
}

// oracleRealGRPC is the release's own gRPC prober (pkg/probe/grpc grpcProber.Probe), as
// prober.runProbe calls it.
func oracleRealGRPC(host string, port int, timeout time.Duration) (probe.Result, string, error) {
	return grpcprobe.New().Probe(host, "", port, timeout)
}
