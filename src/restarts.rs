//! The kubelet restarts a person edits: stopping and starting the kubelet at the playhead (`K`),
//! the list in the parameters panel, and dragging a "kubelet down" bar's ends in the figure. Pure
//! edits of `kubelet.restarts` (no web types, tested natively); the model judges the result
//! (`Overrides::apply`: order, overlaps, the horizon, at most `limits::RESTARTS.1`). Called by
//! `ui.rs` (the commands), `components/restarts.rs` (list and handles) and `url.rs`.
//! Kubernetes has no such list: it is the scenario's ground truth of when the kubelet process
//! is down (`kubelet.restarts`, SPEC §3).

use restartscope_sim::{fmt_secs, limits, parse_span, Restart};

/// The most restarts one run holds (the model's limit).
pub const MAX: usize = limits::RESTARTS.1;

/// How long a kubelet stopped with `K` stays down until it is started again: to the end of the
/// run on screen, and at least this long, so the future shown is "if nobody starts it".
pub const OPEN_MIN_S: f64 = 60.0;

/// Which restart holds the kubelet down at `t_s` (its stop included, its return not).
pub fn down_at(list: &[Restart], t_s: f64) -> Option<usize> {
    list.iter().position(|r| r.at_s <= t_s && t_s < r.end_s())
}

/// Seconds on a whole second (the list and the address hold whole seconds).
fn whole(t_s: f64) -> f64 {
    t_s.round().max(0.0)
}

/// What `K` does at `t_s` in a run that ends at `horizon_s`: stops the kubelet there when it
/// is up, starts it there when a restart holds it down. A stop lasts until the next planned
/// stop's return (the two merge: the kubelet stays down), or else to the end of the run and at
/// least [`OPEN_MIN_S`]; starting at the stop's own second takes the stop back.
pub fn toggle_at(list: &[Restart], t_s: f64, horizon_s: f64) -> Result<Vec<Restart>, String> {
    let t = whole(t_s);
    let mut out = list.to_vec();
    if let Some(i) = down_at(list, t_s) {
        let r = &mut out[i];
        r.downtime_s = (t - r.at_s).max(0.0);
        if r.downtime_s == 0.0 && out.len() > 1 {
            out.remove(i);
        }
        return Ok(out);
    }
    let next = out.iter().position(|r| r.at_s > t);
    let stop = match next {
        Some(n) => {
            let r = out.remove(n);
            Restart::new(t, r.end_s() - t)
        }
        None => {
            if out.len() >= MAX {
                return Err(too_many());
            }
            let until = horizon_s.max(t + OPEN_MIN_S);
            Restart::new(t, (until - t).round().min(limits::DOWNTIME_S.1))
        }
    };
    out.push(stop);
    crate::form::sort_by_start(&mut out);
    Ok(out)
}

fn too_many() -> String {
    format!("at most {MAX} kubelet restarts (kubelet.restarts) in one run: remove one first")
}

/// A restart added at the end of the list: a minute after the last return, down 20 s.
pub fn add(list: &[Restart]) -> Result<Vec<Restart>, String> {
    if list.len() >= MAX {
        return Err(too_many());
    }
    let at = list.iter().map(Restart::end_s).fold(0.0, f64::max) + 60.0;
    let mut out = list.to_vec();
    out.push(Restart::new(whole(at), 20.0));
    Ok(out)
}

/// The list without restart `i` (the last restart stays: a run shows at least one).
pub fn remove(list: &[Restart], i: usize) -> Result<Vec<Restart>, String> {
    if list.len() <= 1 {
        return Err("a run needs at least one kubelet restart (kubelet.restarts)".into());
    }
    let mut out = list.to_vec();
    if i < out.len() {
        out.remove(i);
    }
    Ok(out)
}

/// Which end of a "kubelet down" bar a handle moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The stop: moves the start, keeps the return.
    Stop,
    /// The return: changes the downtime.
    Start,
}

impl Edge {
    pub fn word(self) -> &'static str {
        match self {
            Edge::Stop => "stops",
            Edge::Start => "starts again",
        }
    }
}

/// Restart `i` with one edge at `t_s` (whole seconds), kept between its neighbours: the stop
/// no earlier than the previous return and no later than its own return; the return no earlier
/// than its stop, no later than the next stop and the longest downtime.
pub fn move_edge(list: &[Restart], i: usize, edge: Edge, t_s: f64) -> Vec<Restart> {
    let mut out = list.to_vec();
    let Some(r) = out.get(i).cloned() else {
        return out;
    };
    let prev_end = if i == 0 { 0.0 } else { out[i - 1].end_s() };
    let next_at = out.get(i + 1).map_or(f64::INFINITY, |n| n.at_s);
    let t = whole(t_s);
    match edge {
        Edge::Stop => {
            let end = r.end_s();
            let lo = prev_end.max(end - limits::DOWNTIME_S.1);
            let at = t.clamp(lo, end);
            out[i] = Restart::new(at, end - at);
        }
        Edge::Start => {
            let hi = next_at.min(r.at_s + limits::DOWNTIME_S.1);
            let end = t.clamp(r.at_s, hi);
            out[i].downtime_s = end - r.at_s;
        }
    }
    out
}

/// `30:20,120:45` — the address's `restarts=` (seconds, `AT:DOWNTIME` as the CLI's
/// `--restart`).
pub fn to_param(list: &[Restart]) -> String {
    list.iter()
        .map(|r| format!("{}:{}", num(r.at_s), num(r.downtime_s)))
        .collect::<Vec<_>>()
        .join(",")
}

fn num(v: f64) -> String {
    crate::form::fmt_num(v)
}

/// The address's `restarts=`, or `None` when an item is not `AT:DOWNTIME` or there are more
/// than [`MAX`] (the model judges the values).
pub fn from_param(v: &str) -> Option<Vec<Restart>> {
    let list: Option<Vec<Restart>> = v
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| parse_span(s).map(|(at_s, downtime_s)| Restart::new(at_s, downtime_s)))
        .collect();
    list.filter(|l| !l.is_empty() && l.len() <= MAX)
}

/// "kubelet down 30 s to 50 s (20 s)" — a restart in words for the list and screen readers.
pub fn words(r: &Restart) -> String {
    format!(
        "kubelet down {} to {} ({})",
        fmt_secs(r.at_s),
        fmt_secs(r.end_s()),
        fmt_secs(r.downtime_s)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(at_s: f64, downtime_s: f64) -> Restart {
        Restart::new(at_s, downtime_s)
    }

    #[test]
    fn k_stops_where_the_kubelet_is_up_and_starts_where_it_is_down() {
        let list = vec![r(30.0, 20.0)];
        // Up at 70 s: a stop there, open to the end of the run (140 s).
        let stopped = toggle_at(&list, 70.4, 140.0).unwrap();
        assert_eq!(stopped, vec![r(30.0, 20.0), r(70.0, 70.0)]);
        // Down at 82 s: started there, so the kubelet was down 70–82 s.
        let started = toggle_at(&stopped, 82.0, 140.0).unwrap();
        assert_eq!(started, vec![r(30.0, 20.0), r(70.0, 12.0)]);
        // Inside the planned restart: it ends there.
        assert_eq!(toggle_at(&list, 40.0, 140.0).unwrap(), vec![r(30.0, 10.0)]);
        // Started at its own stop: the stop is taken back (another restart remains).
        assert_eq!(toggle_at(&stopped, 70.2, 140.0).unwrap(), list);
    }

    #[test]
    fn a_stop_before_a_planned_restart_lasts_until_its_return() {
        let list = vec![r(30.0, 20.0)];
        assert_eq!(toggle_at(&list, 10.0, 140.0).unwrap(), vec![r(10.0, 40.0)]);
        // Near the end of the run it still lasts a minute.
        assert_eq!(
            toggle_at(&list, 130.0, 140.0).unwrap(),
            vec![r(30.0, 20.0), r(130.0, OPEN_MIN_S)]
        );
    }

    #[test]
    fn the_list_is_capped_with_a_message() {
        let mut list = vec![r(0.0, 1.0)];
        while list.len() < MAX {
            list = add(&list).unwrap();
        }
        let e = add(&list).unwrap_err();
        assert!(
            e.contains("at most 20") && e.contains("kubelet.restarts"),
            "{e}"
        );
        let end = list.last().unwrap().end_s();
        assert!(toggle_at(&list, end + 5.0, end + 100.0).is_err());
        assert!(remove(&[r(0.0, 1.0)], 0).is_err());
        assert_eq!(remove(&list, 0).unwrap().len(), MAX - 1);
    }

    #[test]
    fn edges_stay_between_their_neighbours() {
        let list = vec![r(30.0, 20.0), r(100.0, 10.0)];
        assert_eq!(move_edge(&list, 0, Edge::Start, 75.0)[0], r(30.0, 45.0));
        assert_eq!(move_edge(&list, 0, Edge::Start, 500.0)[0], r(30.0, 70.0));
        assert_eq!(move_edge(&list, 0, Edge::Start, 10.0)[0], r(30.0, 0.0));
        assert_eq!(move_edge(&list, 1, Edge::Stop, 20.0)[1], r(50.0, 60.0));
        assert_eq!(move_edge(&list, 1, Edge::Stop, 200.0)[1], r(110.0, 0.0));
        assert_eq!(move_edge(&list, 0, Edge::Stop, 12.6)[0], r(13.0, 37.0));
    }

    #[test]
    fn the_address_round_trips() {
        let list = vec![r(30.0, 20.0), r(100.0, 12.5)];
        assert_eq!(to_param(&list), "30:20,100:12.5");
        assert_eq!(from_param("30:20,100:12.5"), Some(list));
        assert_eq!(from_param("30s:20s,2m:1m30s").unwrap()[1], r(120.0, 90.0));
        assert_eq!(from_param("30"), None);
        assert_eq!(from_param(""), None);
        let many = ["1:1"; MAX + 1].join(",");
        assert_eq!(from_param(&many), None);
    }
}
