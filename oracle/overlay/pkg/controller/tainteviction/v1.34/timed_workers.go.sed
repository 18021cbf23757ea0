# createWorker starts an immediate worker with a bare go statement (1.31 to 1.34): the same
# goroutine, counted for the harness (zz_oracle.go oracleGo) so it can wait for the deletion.
s/^\t\tgo fWithErrorLogging()$/\t\toracleGo(nil, fWithErrorLogging)/
