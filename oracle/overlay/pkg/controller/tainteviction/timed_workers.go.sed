# createWorker starts the worker's goroutine on the queue's WaitGroup (1.35 on): the same
# goroutine, counted for the harness (zz_oracle.go oracleGo) so it can wait for the deletion.
s/^\t\twg\.Go(func() {$/\t\toracleGo(wg, func() {/
