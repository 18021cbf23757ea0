# SwapLimiter's new token bucket reads the wall clock: the harness's fake clock instead
# (zz_oracle.go OracleClock).
s/flowcontrol\.NewTokenBucketRateLimiter(newQPS, EvictionRateLimiterBurst)/flowcontrol.NewTokenBucketRateLimiterWithClock(newQPS, EvictionRateLimiterBurst, OracleClock())/
