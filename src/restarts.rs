//! The restarts a person edits: stopping and starting the kubelet (or the container runtime, or
//! the node: the kind chosen beside the slider) at the playhead (`K`), the list in the
//! parameters panel, and dragging a "kubelet down" bar's ends in the figure. Pure edits of
//! `kubelet.restarts` (no web types, tested natively); every edit keeps each restart's kind
//! (`what`) and upgrade (`upgrade_to`); the model judges the result (`Overrides::apply`: order,
//! overlaps, the horizon, at most `limits::RESTARTS.1`). Called by `ui.rs` (the commands),
//! `components/restarts.rs` (list and handles) and `url.rs`. Kubernetes has no such list: it is
//! the scenario's ground truth of when the kubelet process is down (`kubelet.restarts`, SPEC §3).

use restartscope_sim::{fmt_secs, limits, parse_span, KubeVersion, Restart, RestartKind};

/// The most restarts one run holds (the model's limit).
pub const MAX: usize = limits::RESTARTS.1;

/// How long a kubelet stopped with `K` stays down until it is started again: to the end of the
/// run on screen, and at least this long, so the future shown is "if nobody starts it".
pub const OPEN_MIN_S: f64 = 60.0;

/// Which restart of kind `what` is down at `t_s` (its stop included, its return not).
pub fn down_at(list: &[Restart], t_s: f64, what: RestartKind) -> Option<usize> {
    list.iter()
        .position(|r| r.what == what && r.at_s <= t_s && t_s < r.end_s())
}

/// Seconds on a whole second (the list and the address hold whole seconds).
fn whole(t_s: f64) -> f64 {
    t_s.round().max(0.0)
}

/// What `K` does at `t_s` in a run that ends at `horizon_s`, for restarts of kind `what`: stops
/// (the kubelet, the runtime, the node) there when it is up, starts it there when a restart of
/// that kind holds it down. A stop lasts until the next planned stop's return when that restart
/// is of the same kind (the two merge: it stays down), until the next restart's stop when it is
/// of another kind, or else to the end of the run and at least [`OPEN_MIN_S`]; starting at the
/// stop's own second takes the stop back.
pub fn toggle_at(
    list: &[Restart],
    t_s: f64,
    horizon_s: f64,
    what: RestartKind,
) -> Result<Vec<Restart>, String> {
    let t = whole(t_s);
    let mut out = list.to_vec();
    if let Some(i) = down_at(list, t_s, what) {
        let r = &mut out[i];
        r.downtime_s = (t - r.at_s).max(0.0);
        if r.downtime_s == 0.0 && out.len() > 1 {
            out.remove(i);
        }
        return Ok(out);
    }
    let next = out.iter().position(|r| r.at_s > t);
    let stop = match next {
        Some(n) if out[n].what == what => {
            let r = out.remove(n);
            Restart {
                at_s: t,
                downtime_s: r.end_s() - t,
                ..r
            }
        }
        _ if out.len() >= MAX => return Err(too_many()),
        Some(n) => Restart::of(what, t, out[n].at_s - t),
        None => {
            let until = horizon_s.max(t + OPEN_MIN_S);
            Restart::of(what, t, (until - t).round().min(limits::DOWNTIME_S.1))
        }
    };
    out.push(stop);
    crate::form::sort_by_start(&mut out);
    Ok(out)
}

fn too_many() -> String {
    format!("at most {MAX} kubelet restarts (kubelet.restarts) in one run: remove one first")
}

/// A restart of kind `what` added at the end of the list: a minute after the last return,
/// down 20 s.
pub fn add(list: &[Restart], what: RestartKind) -> Result<Vec<Restart>, String> {
    if list.len() >= MAX {
        return Err(too_many());
    }
    let at = list.iter().map(Restart::end_s).fold(0.0, f64::max) + 60.0;
    let mut out = list.to_vec();
    out.push(Restart::of(what, whole(at), 20.0));
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
            out[i] = Restart {
                at_s: at,
                downtime_s: end - at,
                ..r
            };
        }
        Edge::Start => {
            let hi = next_at.min(r.at_s + limits::DOWNTIME_S.1);
            let end = t.clamp(r.at_s, hi);
            out[i].downtime_s = end - r.at_s;
        }
    }
    out
}

/// `30:20,120:45:runtime,300:60:node:1.36` — the address's `restarts=` (seconds,
/// `AT:DOWNTIME` as the CLI's `--restart`, then `:runtime` or `:node` when the restart is not
/// the kubelet's, and `:RELEASE` when it upgrades the kubelet — after the kind, `:kubelet`
/// written then).
pub fn to_param(list: &[Restart]) -> String {
    list.iter()
        .map(|r| {
            let mut s = format!("{}:{}", num(r.at_s), num(r.downtime_s));
            if r.what != RestartKind::Kubelet || r.upgrade_to.is_some() {
                s = format!("{s}:{}", r.what.as_str());
            }
            if let Some(v) = r.upgrade_to {
                s = format!("{s}:{}", v.as_str());
            }
            s
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether the list needs `restarts=` in the address (more than one restart, or one that is
/// not a plain kubelet restart), rather than `downtime=` and `at=`.
pub fn needs_param(list: &[Restart]) -> bool {
    list.len() > 1
        || list
            .iter()
            .any(|r| r.what != RestartKind::Kubelet || r.upgrade_to.is_some())
}

fn num(v: f64) -> String {
    crate::form::fmt_num(v)
}

/// One item of `restarts=`: `AT:DOWNTIME[:KIND[:RELEASE]]`.
fn item(s: &str) -> Option<Restart> {
    let mut parts = s.splitn(4, ':');
    let span = format!("{}:{}", parts.next()?, parts.next()?);
    let (at_s, downtime_s) = parse_span(&span)?;
    let what = match parts.next() {
        Some(k) => RestartKind::parse(k)?,
        None => RestartKind::Kubelet,
    };
    let upgrade_to = match parts.next() {
        Some(v) => Some(KubeVersion::parse(v)?),
        None => None,
    };
    Some(Restart {
        what,
        upgrade_to,
        ..Restart::new(at_s, downtime_s)
    })
}

/// The address's `restarts=`, or `None` when an item is not `AT:DOWNTIME[:KIND[:RELEASE]]` or
/// there are more than [`MAX`] (the model judges the values).
pub fn from_param(v: &str) -> Option<Vec<Restart>> {
    let list: Option<Vec<Restart>> = v
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(item)
        .collect();
    list.filter(|l| !l.is_empty() && l.len() <= MAX)
}

/// What a kind stops, for words about a restart: "kubelet", "runtime", "node".
pub fn subject(what: RestartKind) -> &'static str {
    match what {
        RestartKind::Kubelet => "kubelet",
        RestartKind::Runtime => "runtime",
        RestartKind::Node => "node",
    }
}

/// "kubelet down 30 s to 50 s (20 s)", "node down … → 1.36" — a restart in words for the list
/// and screen readers.
pub fn words(r: &Restart) -> String {
    let up = r
        .upgrade_to
        .map(|v| format!(", kubelet → {}", v.as_str()))
        .unwrap_or_default();
    format!(
        "{} down {} to {} ({}){up}",
        subject(r.what),
        fmt_secs(r.at_s),
        fmt_secs(r.end_s()),
        fmt_secs(r.downtime_s)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: RestartKind = RestartKind::Kubelet;

    fn r(at_s: f64, downtime_s: f64) -> Restart {
        Restart::new(at_s, downtime_s)
    }

    #[test]
    fn k_stops_where_the_kubelet_is_up_and_starts_where_it_is_down() {
        let list = vec![r(30.0, 20.0)];
        // Up at 70 s: a stop there, open to the end of the run (140 s).
        let stopped = toggle_at(&list, 70.4, 140.0, K).unwrap();
        assert_eq!(stopped, vec![r(30.0, 20.0), r(70.0, 70.0)]);
        // Down at 82 s: started there, so the kubelet was down 70–82 s.
        let started = toggle_at(&stopped, 82.0, 140.0, K).unwrap();
        assert_eq!(started, vec![r(30.0, 20.0), r(70.0, 12.0)]);
        // Inside the planned restart: it ends there.
        assert_eq!(
            toggle_at(&list, 40.0, 140.0, K).unwrap(),
            vec![r(30.0, 10.0)]
        );
        // Started at its own stop: the stop is taken back (another restart remains).
        assert_eq!(toggle_at(&stopped, 70.2, 140.0, K).unwrap(), list);
    }

    #[test]
    fn a_stop_before_a_planned_restart_lasts_until_its_return() {
        let list = vec![r(30.0, 20.0)];
        assert_eq!(
            toggle_at(&list, 10.0, 140.0, K).unwrap(),
            vec![r(10.0, 40.0)]
        );
        // Near the end of the run it still lasts a minute.
        assert_eq!(
            toggle_at(&list, 130.0, 140.0, K).unwrap(),
            vec![r(30.0, 20.0), r(130.0, OPEN_MIN_S)]
        );
    }

    #[test]
    fn the_list_is_capped_with_a_message() {
        let mut list = vec![r(0.0, 1.0)];
        while list.len() < MAX {
            list = add(&list, K).unwrap();
        }
        let e = add(&list, K).unwrap_err();
        assert!(
            e.contains("at most 20") && e.contains("kubelet.restarts"),
            "{e}"
        );
        let end = list.last().unwrap().end_s();
        assert!(toggle_at(&list, end + 5.0, end + 100.0, K).is_err());
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

    fn kind(what: RestartKind, at_s: f64, downtime_s: f64) -> Restart {
        Restart::of(what, at_s, downtime_s)
    }

    #[test]
    fn every_edit_keeps_each_restarts_kind_and_upgrade() {
        let up = KubeVersion::parse("1.36").unwrap();
        let node = Restart {
            upgrade_to: Some(up),
            ..kind(RestartKind::Node, 30.0, 20.0)
        };
        let list = vec![node.clone(), kind(RestartKind::Runtime, 100.0, 10.0)];
        // A bar's stop and return.
        let moved = move_edge(&list, 0, Edge::Stop, 25.0);
        assert_eq!(moved[0].what, RestartKind::Node);
        assert_eq!(moved[0].upgrade_to, Some(up));
        assert_eq!((moved[0].at_s, moved[0].downtime_s), (25.0, 25.0));
        let moved = move_edge(&list, 1, Edge::Start, 120.0);
        assert_eq!(moved[1], kind(RestartKind::Runtime, 100.0, 20.0));
        let moved = move_edge(&list, 1, Edge::Stop, 95.0);
        assert_eq!(moved[1], kind(RestartKind::Runtime, 95.0, 15.0));
        // K inside the node reboot ends it there; the upgrade stays.
        let ended = toggle_at(&list, 40.0, 200.0, RestartKind::Node).unwrap();
        assert_eq!(
            ended[0],
            Restart {
                downtime_s: 10.0,
                ..node.clone()
            }
        );
        // K before the runtime restart, with runtime chosen: merged, still a runtime restart.
        let merged = toggle_at(&list, 80.0, 200.0, RestartKind::Runtime).unwrap();
        assert_eq!(merged[1], kind(RestartKind::Runtime, 80.0, 30.0));
        // Remove and add keep the others as they were.
        assert_eq!(remove(&list, 1).unwrap(), vec![node.clone()]);
        let added = add(&list, RestartKind::Runtime).unwrap();
        assert_eq!(&added[..2], &list[..]);
        assert_eq!(added[2], kind(RestartKind::Runtime, 170.0, 20.0));
    }

    #[test]
    fn k_adds_a_restart_of_the_chosen_kind() {
        let list = vec![r(30.0, 20.0)];
        // Runtime chosen, the runtime up at 70 s: a runtime restart from there.
        let stopped = toggle_at(&list, 70.0, 140.0, RestartKind::Runtime).unwrap();
        assert_eq!(stopped[1], kind(RestartKind::Runtime, 70.0, 70.0));
        // Inside the kubelet restart, the runtime is up: a runtime restart starts there too.
        let inside = toggle_at(&list, 40.0, 140.0, RestartKind::Runtime).unwrap();
        assert_eq!(inside[1], kind(RestartKind::Runtime, 40.0, 100.0));
        // A node reboot chosen before a kubelet restart lasts until that restart's stop.
        let before = toggle_at(&list, 10.0, 140.0, RestartKind::Node).unwrap();
        assert_eq!(
            before,
            vec![kind(RestartKind::Node, 10.0, 20.0), r(30.0, 20.0)]
        );
        assert_eq!(down_at(&before, 15.0, RestartKind::Node), Some(0));
        assert_eq!(down_at(&before, 15.0, K), None);
    }

    #[test]
    fn the_address_keeps_kinds_and_upgrades() {
        let up = KubeVersion::parse("1.36").unwrap();
        let list = vec![
            Restart {
                upgrade_to: Some(up),
                ..r(30.0, 20.0)
            },
            kind(RestartKind::Runtime, 120.0, 90.0),
            Restart {
                upgrade_to: Some(up),
                ..kind(RestartKind::Node, 300.0, 60.0)
            },
        ];
        let text = to_param(&list);
        assert_eq!(text, "30:20:kubelet:1.36,120:90:runtime,300:60:node:1.36");
        assert_eq!(from_param(&text).as_ref(), Some(&list));
        assert_eq!(
            from_param("2m:90s:Runtime").unwrap(),
            vec![kind(RestartKind::Runtime, 120.0, 90.0)]
        );
        // A plain kubelet restart is written as before.
        assert_eq!(to_param(&[r(30.0, 20.0)]), "30:20");
        assert!(!needs_param(&[r(30.0, 20.0)]));
        assert!(needs_param(&[kind(RestartKind::Node, 30.0, 20.0)]));
        for bad in [
            "30:20:reboot",
            "30:20:node:1.2",
            "30:20:node:1.36:x",
            "30:20:",
        ] {
            assert_eq!(from_param(bad), None, "{bad}");
        }
        assert_eq!(words(&list[2]), "node down 5m to 6m (1m), kubelet → 1.36");
    }
}
