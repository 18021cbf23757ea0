//! Zones of the node lifecycle controller: each zone's state from its nodes' Ready conditions,
//! the NoExecute tainting queue per zone with its token-bucket rate limiter, and the rates each
//! state gets. Owned by the node lifecycle controller in a fleet; the single-node view assumes
//! the node's peers are healthy and does not use it (docs/MODEL.md).
//!
//! Mirrors `pkg/controller/nodelifecycle/node_lifecycle_controller.go` (`ComputeZoneState`,
//! `handleDisruption`, `setLimiterInZone`, `doNoExecuteTaintingPass`),
//! `pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go` (`RateLimitedTimedQueue.Try`,
//! `SwapLimiter`) and `client-go/util/flowcontrol` (`NewTokenBucketRateLimiter`, burst 1).

use crate::trace::{Ms, NodeId};
use std::collections::VecDeque;

/// `--node-eviction-rate`.
pub const EVICTION_QPS: f64 = 0.1;
/// `--secondary-node-eviction-rate`.
pub const SECONDARY_EVICTION_QPS: f64 = 0.01;
/// `--large-cluster-size-threshold`.
pub const LARGE_CLUSTER_THRESHOLD: usize = 50;
/// `--unhealthy-zone-threshold`.
pub const UNHEALTHY_ZONE_THRESHOLD: f64 = 0.55;
/// `scheduler.NodeEvictionPeriod`: how often `doNoExecuteTaintingPass` runs.
pub const TAINTING_PERIOD: Ms = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    Initial,
    Normal,
    FullDisruption,
    PartialDisruption,
}

/// `ComputeZoneState`: FullDisruption when no node is Ready (and some is not); Partial when more
/// than 2 nodes are not Ready and they are at least the unhealthy share; else Normal. Returns the
/// number of not-Ready nodes too.
pub fn compute_zone_state(ready: usize, not_ready: usize) -> (usize, ZoneState) {
    if ready == 0 && not_ready > 0 {
        (not_ready, ZoneState::FullDisruption)
    } else if not_ready > 2
        && not_ready as f64 / (not_ready + ready) as f64 >= UNHEALTHY_ZONE_THRESHOLD
    {
        (not_ready, ZoneState::PartialDisruption)
    } else {
        (not_ready, ZoneState::Normal)
    }
}

/// `setLimiterInZone` (with `HealthyQPSFunc` / `ReducedQPSFunc`): the tainting rate of a zone.
pub fn zone_qps(state: ZoneState, zone_size: usize) -> f64 {
    match state {
        ZoneState::Normal | ZoneState::Initial | ZoneState::FullDisruption => EVICTION_QPS,
        ZoneState::PartialDisruption => {
            if zone_size > LARGE_CLUSTER_THRESHOLD {
                SECONDARY_EVICTION_QPS
            } else {
                0.0
            }
        }
    }
}

/// A token bucket with burst 1 (`NewTokenBucketRateLimiter(qps, 1)`); qps 0 never accepts.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    pub qps: f64,
    tokens: f64,
    last: Ms,
}

impl TokenBucket {
    /// A new limiter starts full.
    pub fn new(qps: f64, now: Ms) -> Self {
        TokenBucket {
            qps,
            tokens: 1.0,
            last: now,
        }
    }

    /// Whether `try_accept` would accept now (without taking a token).
    pub fn would_accept(&self, now: Ms) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        let dt = (now - self.last).max(0) as f64 / 1000.0;
        (self.tokens + dt * self.qps).min(1.0) >= 1.0 - 1e-9
    }

    /// `TryAccept`.
    pub fn try_accept(&mut self, now: Ms) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        let dt = (now - self.last).max(0) as f64 / 1000.0;
        self.tokens = (self.tokens + dt * self.qps).min(1.0);
        self.last = now;
        if self.tokens >= 1.0 - 1e-9 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One zone's NoExecute tainting queue.
#[derive(Clone, Debug)]
pub struct Zone {
    pub nodes: Vec<NodeId>,
    /// How many of them are Ready (every node is at the start).
    pub ready: usize,
    pub state: ZoneState,
    pub limiter: TokenBucket,
    /// Nodes waiting for the taint, in the order they were added (each at most once).
    pub queue: VecDeque<NodeId>,
}

impl Zone {
    pub fn new(nodes: Vec<NodeId>) -> Self {
        Zone {
            ready: nodes.len(),
            nodes,
            state: ZoneState::Initial,
            limiter: TokenBucket::new(EVICTION_QPS, 0),
            queue: VecDeque::new(),
        }
    }

    /// `SwapLimiter`: the same rate keeps the old bucket; a new rate gets a new bucket, which
    /// starts full only if the old one could accept now (`if q.limiter.TryAccept() == false {
    /// newLimiter.TryAccept() }`; a rate-0 limiter never accepts).
    pub fn swap_limiter(&mut self, qps: f64, now: Ms) {
        if (self.limiter.qps - qps).abs() > 1e-12 {
            let had_token = self.limiter.would_accept(now);
            self.limiter = TokenBucket::new(qps, now);
            if !had_token {
                self.limiter.try_accept(now);
            }
        }
    }

    /// `markNodeForTainting` for a node without the taint: `Remove` then `Add`, so every pass
    /// moves a waiting node to the back of the queue.
    pub fn add(&mut self, node: NodeId) {
        self.queue.retain(|n| *n != node);
        self.queue.push_back(node);
    }

    /// `markNodeAsReachable`'s dequeue.
    pub fn remove(&mut self, node: NodeId) {
        self.queue.retain(|n| *n != node);
    }

    /// `RateLimitedTimedQueue.Try`: take queued nodes while the limiter accepts.
    pub fn try_take(&mut self, now: Ms) -> Vec<NodeId> {
        let mut out = Vec::new();
        while !self.queue.is_empty() {
            if !self.limiter.try_accept(now) {
                break;
            }
            if let Some(n) = self.queue.pop_front() {
                out.push(n);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The thresholds of `ComputeZoneState` (node_lifecycle_controller_test.go's cases).
    #[test]
    fn zone_states_follow_the_code() {
        assert_eq!(compute_zone_state(3, 0).1, ZoneState::Normal);
        assert_eq!(compute_zone_state(0, 1).1, ZoneState::FullDisruption);
        assert_eq!(compute_zone_state(0, 5).1, ZoneState::FullDisruption);
        // More than 2 not Ready and at least 55 %.
        assert_eq!(compute_zone_state(2, 3).1, ZoneState::PartialDisruption);
        assert_eq!(
            compute_zone_state(1, 2).1,
            ZoneState::Normal,
            "2 is not more than 2"
        );
        assert_eq!(compute_zone_state(3, 3).1, ZoneState::Normal, "50 % < 55 %");
        assert_eq!(compute_zone_state(9, 11).1, ZoneState::PartialDisruption);
        assert_eq!(compute_zone_state(0, 0).1, ZoneState::Normal);
    }

    #[test]
    fn rates_per_state_and_size() {
        assert_eq!(zone_qps(ZoneState::Normal, 10), 0.1);
        assert_eq!(zone_qps(ZoneState::FullDisruption, 10), 0.1);
        assert_eq!(zone_qps(ZoneState::PartialDisruption, 50), 0.0);
        assert_eq!(zone_qps(ZoneState::PartialDisruption, 51), 0.01);
    }

    #[test]
    fn token_bucket_burst_one() {
        let mut b = TokenBucket::new(0.1, 0);
        assert!(b.try_accept(0));
        assert!(!b.try_accept(5_000));
        assert!(b.try_accept(10_000));
        let mut z = Zone::new(vec![0, 1, 2]);
        z.add(0);
        z.add(1);
        z.add(1);
        assert_eq!(z.queue, [0, 1]);
        assert_eq!(z.try_take(100), vec![0]);
        assert_eq!(z.try_take(200), Vec::<NodeId>::new());
        assert_eq!(z.try_take(10_100), vec![1]);
        let mut never = TokenBucket::new(0.0, 0);
        assert!(!never.try_accept(1_000_000));
        // Leaving rate 0 (master disruption) starts with an empty bucket: 10 s to the first token.
        let mut z = Zone::new(vec![0]);
        z.swap_limiter(0.0, 0);
        z.swap_limiter(0.1, 1_000);
        assert!(!z.limiter.try_accept(1_000));
        assert!(z.limiter.try_accept(11_000));
    }
}
