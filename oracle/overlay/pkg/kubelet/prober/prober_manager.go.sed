# NewManager stamps the manager's start (kubeletRestartGracePeriod's base) with the wall clock,
# and AddPod starts each worker's goroutine: the harness's fake clock instead, and the harness
# runs each worker's loop (run) on that clock (zz_oracle.go oracleRun).
s/clock\.RealClock{}\.Now()/oracleNow()/
s/go w\.run(/oracleRun(w, /
$a var _ = clock.RealClock{}
