// RestartScope's oracle: how this release's gRPC prober meets a container that does not listen
// yet, found by running it.
package prober

import (
	"net"
	"sync"
	"time"

	"k8s.io/kubernetes/pkg/probe"
)

// OracleGRPCRefused runs the release's own gRPC prober against a loopback port nobody listens
// on, with a timeout of two seconds of wall clock, once per process. atOnce: it returned before
// half the timeout (a refused connection fails the probe at once); otherwise it returned at the
// timeout (the dial blocked, as with grpc.WithBlock). result is what it returned.
func OracleGRPCRefused() (atOnce bool, result probe.Result) {
	oracleRefusedOnce.Do(func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic("oracle: no loopback port for the gRPC probe: " + err.Error())
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		const timeout = 2 * time.Second
		t0 := time.Now()
		oracleRefusedResult, _, _ = oracleRealGRPC("127.0.0.1", port, timeout)
		oracleRefusedAtOnce = time.Since(t0) < timeout/2
	})
	return oracleRefusedAtOnce, oracleRefusedResult
}

var (
	oracleRefusedOnce   sync.Once
	oracleRefusedAtOnce bool
	oracleRefusedResult probe.Result
)
