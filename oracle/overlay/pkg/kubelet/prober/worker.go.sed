# worker.go reads the wall clock for the initial-delay check and the initial sleep's "kubelet
# started recently" test: the harness's fake clock instead (zz_oracle.go OracleClock).
s/time\.Since(/oracleSince(/g
s/time\.Now()/oracleNow()/g
