# handleNodeUpdate and handlePodUpdate read the wall clock for the time a deletion is scheduled
# from: the harness's fake clock instead (zz_oracle.go oracleNow).
s/time\.Now()/oracleNow()/g
