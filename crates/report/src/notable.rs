//! Which events a reader sees in an event log: the one definition of "notable", used by the web
//! app's event log (and its previous / next event keys) and the `dump` example. Left out: lease
//! renewals, single probe executions, status writes and endpoint changes (their effect shows as
//! a Ready change), SyncPod, container Started/Ready (folded into PodReady), and liveness
//! results that stay Success.

use restartscope_sim::{Event, Kind, Outcome, ProbeKind, Trace, Value};

/// Is this event worth a line in the log?
pub fn is_notable(e: &Event) -> bool {
    match e.kind {
        Kind::LeaseRenew
        | Kind::Probe
        | Kind::StatusWrite
        | Kind::Endpoint
        | Kind::PodSync
        | Kind::ContainerStarted
        | Kind::ContainerReady => false,
        Kind::ProbeResult => match e.value {
            Value::Probe(p) => !(p.probe == ProbeKind::Liveness && p.result == Outcome::Success),
            _ => true,
        },
        _ => true,
    }
}

/// The notable events of one trace with their indices.
pub fn events(tr: &Trace) -> impl Iterator<Item = (usize, &Event)> {
    tr.events.iter().enumerate().filter(|(_, e)| is_notable(e))
}

/// The notable events of several traces on one clock: `(trace index, event index)` ordered by
/// time, then trace, then event.
pub fn merged(traces: &[Trace]) -> Vec<(usize, usize)> {
    let mut log: Vec<(usize, usize)> = traces
        .iter()
        .enumerate()
        .flat_map(|(p, tr)| events(tr).map(move |(i, _)| (p, i)))
        .collect();
    // (t, p, i) is unique: the unstable sort gives the one order.
    restartscope_sim::core::sort::sort_unstable_by_key(&mut log, |&(p, i)| {
        (traces[p].events[i].t, p, i)
    });
    log
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets, Rule};

    #[test]
    fn hides_the_chatter_and_keeps_what_changed() {
        let [legacy, _] = compare(&presets::short_restart()).unwrap();
        let kinds: Vec<Kind> = events(&legacy).map(|(_, e)| e.kind).collect();
        for hidden in [
            Kind::LeaseRenew,
            Kind::Probe,
            Kind::StatusWrite,
            Kind::Endpoint,
            Kind::ContainerReady,
        ] {
            assert!(!kinds.contains(&hidden), "{hidden:?} shown");
        }
        for shown in [Kind::KubeletStop, Kind::KubeletStart, Kind::PodReady] {
            assert!(kinds.contains(&shown), "{shown:?} missing");
        }
        // The legacy kubelet's initial readiness Failure (P1) is shown.
        assert!(events(&legacy).any(|(_, e)| e.kind == Kind::ProbeResult && e.rule == Rule::P1));
    }

    #[test]
    fn liveness_staying_success_is_hidden() {
        let mut e = compare(&presets::short_restart()).unwrap()[0].events[0].clone();
        e.kind = Kind::ProbeResult;
        for (probe, result, want) in [
            (ProbeKind::Liveness, Outcome::Success, false),
            (ProbeKind::Liveness, Outcome::Failure, true),
            (ProbeKind::Readiness, Outcome::Success, true),
        ] {
            e.value = Value::Probe(restartscope_sim::ProbeValue {
                probe,
                result,
                run: 1,
                threshold: 1,
            });
            assert_eq!(is_notable(&e), want, "{probe:?} {result:?}");
        }
    }

    #[test]
    fn merged_is_in_time_order_legacy_first_at_a_tie() {
        let traces = compare(&presets::long_restart()).unwrap();
        let log = merged(&traces);
        assert_eq!(
            log.len(),
            events(&traces[0]).count() + events(&traces[1]).count()
        );
        for w in log.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (ta, tb) = (traces[a.0].events[a.1].t, traces[b.0].events[b.1].t);
            assert!(ta < tb || (ta == tb && (a.0, a.1) < (b.0, b.1)));
        }
        // The kubelet stops at the same instant in both runs: legacy is listed first.
        let stops: Vec<usize> = log
            .iter()
            .filter(|&&(p, i)| traces[p].events[i].kind == Kind::KubeletStop)
            .map(|&(p, _)| p)
            .collect();
        assert_eq!(stops, vec![0, 1]);
    }
}
