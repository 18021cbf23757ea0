//! Crash-loop back-off: one entry per container in kubelet memory (lost at a restart). Called by
//! SyncPod before it starts a container that has exited.
//!
//! Mirrors `pkg/kubelet/kuberuntime/kuberuntime_manager.go` `doBackOff` and
//! `client-go/util/flowcontrol/backoff.go` (`IsInBackOffSince`, `Next`, `hasExpired`), with the
//! kubelet's `backOffPeriod` 10 s and `MaxContainerBackOff` 300 s and no jitter.

use crate::trace::Ms;

/// `backOffPeriod`.
pub const INITIAL: Ms = 10_000;
/// `MaxContainerBackOff`.
pub const MAX: Ms = 300_000;

/// A `flowcontrol.Backoff` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub backoff: Ms,
    pub last_update: Ms,
}

/// `hasExpired`: the entry is stale when the event is more than 2 × max after its last update
/// (the container ran long enough to be considered stable).
fn expired(event: Ms, e: &Entry) -> bool {
    event - e.last_update > 2 * MAX
}

/// `doBackOff` for one container at `now`. `exited_at` is the FinishedAt of the newest exited
/// instance in the pod status snapshot SyncPod works from (`None`: there is none, so no
/// back-off and no entry). Returns `None` when the container may start now (after `Next`), or
/// the time from which it may start.
pub fn check(entry: &mut Option<Entry>, exited_at: Option<Ms>, now: Ms) -> Option<Ms> {
    let ts = exited_at?;
    if let Some(e) = entry {
        // IsInBackOffSince.
        if !expired(ts, e) && now - ts < e.backoff {
            return Some(ts + e.backoff);
        }
    }
    // Next.
    *entry = Some(match *entry {
        Some(e) if !expired(ts, &e) => Entry {
            backoff: (e.backoff * 2).min(MAX),
            last_update: now,
        },
        _ => Entry {
            backoff: INITIAL,
            last_update: now,
        },
    });
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_start_is_free_then_ten_seconds_doubling_to_five_minutes() {
        let mut e = None;
        // No exited instance: start, no entry.
        assert_eq!(check(&mut e, None, 0), None);
        assert_eq!(e, None);
        // A crash at 100 s: first Next, start at once, back-off 10 s.
        assert_eq!(check(&mut e, Some(100_000), 100_000), None);
        // It crashes again at 105 s: wait until 115 s.
        assert_eq!(check(&mut e, Some(105_000), 105_000), Some(115_000));
        assert_eq!(check(&mut e, Some(105_000), 115_000), None);
        assert_eq!(e.unwrap().backoff, 20_000);
        let mut t = 115_000;
        for _ in 0..10 {
            // It runs a second and crashes; the next start waits out the back-off.
            t += 1_000;
            let retry = check(&mut e, Some(t), t).unwrap();
            assert_eq!(check(&mut e, Some(t), retry), None);
            t = retry;
        }
        assert_eq!(e.unwrap().backoff, MAX);
    }

    #[test]
    fn a_container_that_ran_ten_minutes_starts_over() {
        let mut e = Some(Entry {
            backoff: 160_000,
            last_update: 0,
        });
        assert_eq!(check(&mut e, Some(700_000), 700_000), None);
        assert_eq!(e.unwrap().backoff, INITIAL);
    }

    /// Two liveness kills 100 s apart: each kill restarts in the same SyncPod, and the snapshot's
    /// newest exited instance is the previous one, so both restart at once (while the back-off,
    /// doubled by each `Next`, is under 100 s: see the next test).
    #[test]
    fn liveness_kills_count_from_the_previous_exit() {
        let mut e = None;
        assert_eq!(check(&mut e, None, 50_000), None);
        assert_eq!(check(&mut e, Some(50_000), 150_000), None);
        assert_eq!(check(&mut e, Some(150_000), 250_000), None);
    }

    /// Kills 100 s apart restart at once only until the back-off passes 100 s: each restart's
    /// `Next` doubles it (10, 20, 40, 80, 160 s), so the sixth kill, 100 s after the fifth,
    /// is in back-off: the SyncPod writes the killed container, and the next one, whose
    /// snapshot's newest exited instance is the killed one, waits 160 s from that kill.
    #[test]
    fn liveness_kills_100_s_apart_wait_once_the_backoff_passes_100_s() {
        let mut e = None;
        assert_eq!(check(&mut e, None, 50_000), None);
        for k in 1..=5 {
            let kill = 50_000 + 100_000 * k;
            assert_eq!(check(&mut e, Some(kill - 100_000), kill), None, "kill {k}");
        }
        assert_eq!(e.unwrap().backoff, 160_000);
        let sixth = 650_000;
        assert_eq!(check(&mut e, Some(550_000), sixth), Some(710_000));
        assert_eq!(check(&mut e, Some(sixth), 710_000), Some(sixth + 160_000));
        assert_eq!(check(&mut e, Some(sixth), sixth + 160_000), None);
        assert_eq!(e.unwrap().backoff, MAX);
    }
}
