# addPodEvictorForNewZone's token bucket (the NoExecute tainting queue's rate limiter) reads
# the wall clock: the harness's fake clock instead (scheduler/zz_oracle.go OracleClock).
s/flowcontrol\.NewTokenBucketRateLimiter(nc\.evictionLimiterQPS, scheduler\.EvictionRateLimiterBurst)/flowcontrol.NewTokenBucketRateLimiterWithClock(nc.evictionLimiterQPS, scheduler.EvictionRateLimiterBurst, scheduler.OracleClock())/
