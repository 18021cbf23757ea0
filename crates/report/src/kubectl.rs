//! What `kubectl get pods -w` prints: one row per pod at the start, then one each time what
//! kubectl shows of a pod changes (READY containers, STATUS, RESTARTS), with the PodReady
//! condition and its writer as a comment. Read from the timeline at each instant a pod's object
//! may change ([`crate::timeline::PodTimeline::watch`]). Called by the web app's kubectl panels.

use crate::timeline::{ApiContainers, PodState, Timeline};
use restartscope_sim::{fmt_secs, Actor, ContainerRole, Ms};

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub t_ms: Ms,
    pub name: String,
    /// Ready containers / containers, as kubectl's READY column.
    pub ready: String,
    /// kubectl's STATUS: `Running`, `Error`, `Init:0/1`, `Terminating`, a Failed pod's reason.
    pub status: String,
    pub restarts: u32,
    /// The PodReady condition and who wrote it (kubectl's READY column counts containers).
    pub condition: String,
    pub condition_ready: bool,
}

impl Row {
    /// `p`: the pod at `t_ms`; `api`: its containers as the kubelet's last status write showed
    /// them (kubectl prints the API object, not the runtime: STATUS and RESTARTS change only
    /// when the kubelet writes; `None`: the steady state, all running).
    fn of(t_ms: Ms, name: &str, p: &PodState, api: Option<ApiContainers>) -> Row {
        // kubectl's printPod counts the regular containers and the sidecars (restartable init
        // containers), not the completed ordinary init containers.
        let counted = || {
            p.containers
                .iter()
                .filter(|c| c.role != ContainerRole::Init)
        };
        let n = counted().count();
        // A pod the kubelet's admission rejected has no container statuses in the API.
        let r = if p.rejected {
            0
        } else {
            counted().filter(|c| c.ready).count()
        };
        // `kubectl get pods -w` prints a deleted pod's last object (Terminating), never "Deleted":
        // the deletion is said in the comment. A Failed pod shows its status reason (`printPod`);
        // before that the rejected pod's phase stays Running (`mergePodStatus`).
        // printPod: an ordinary init container running shows `Init:i/n` (after a reboot, B2).
        let status = if p.removed || p.deleting {
            "Terminating".to_string()
        } else if let Some(reason) = p.failed {
            reason.to_string()
        } else if let Some((i, n)) = api.and_then(|a| a.init) {
            format!("Init:{i}/{n}")
        } else if p.rejected || api.is_none_or(|a| a.running) {
            "Running".to_string()
        } else {
            "Error".to_string()
        };
        let who = match p.writer.map(|w| w.by) {
            Some(Actor::NodeLifecycleController) => "node-lifecycle-controller",
            _ => "kubelet",
        };
        // The last value written (also for a pod that is gone).
        let condition = p.writer.is_none_or(|w| w.ready);
        Row {
            t_ms,
            name: name.to_string(),
            ready: format!("{r}/{n}"),
            status,
            restarts: api.map_or(0, |a| a.restarts),
            condition: format!(
                "Ready={} by {who}{}",
                if condition { "True" } else { "False" },
                if p.removed { ", pod deleted" } else { "" }
            ),
            condition_ready: condition,
        }
    }

    /// What kubectl would print (the time aside).
    fn shows(&self) -> (&str, &str, u32, &str) {
        (&self.ready, &self.status, self.restarts, &self.condition)
    }
}

/// Rows up to and including `until`, oldest first.
pub fn rows(tl: &Timeline, until: Ms) -> Vec<Row> {
    let mut out: Vec<Row> = tl
        .pods
        .iter()
        .map(|p| Row::of(0, &p.name, &p.initial(), None))
        .collect();
    let mut last: Vec<usize> = (0..out.len()).collect();
    let mut instants: Vec<(usize, Ms, usize)> = tl
        .pods
        .iter()
        .enumerate()
        .flat_map(|(p, pt)| {
            pt.watch
                .iter()
                .take_while(move |w| w.0 <= until)
                .map(move |&(t, ev)| (ev, t, p))
        })
        .collect();
    restartscope_sim::core::sort::sort_unstable(&mut instants);
    for (_, t, p) in instants {
        let pt = &tl.pods[p];
        let row = Row::of(t, &pt.name, &pt.state_at(t), pt.api_containers_at(t));
        // Several Ready writes of the pod in one instant are several watch events: each but the
        // last gets its own row (the header counts every one of them as a transition).
        let at: Vec<_> = pt.writes.iter().filter(|w| w.t == t).collect();
        for w in at.iter().take(at.len().saturating_sub(1)) {
            let mut mid = row.clone();
            let n = mid.ready.split('/').nth(1).unwrap_or("0").to_string();
            mid.ready = format!("{}/{n}", if w.ready { n.as_str() } else { "0" });
            mid.condition = format!(
                "Ready={} by {}",
                if w.ready { "True" } else { "False" },
                match w.by {
                    Actor::NodeLifecycleController => "node-lifecycle-controller",
                    _ => "kubelet",
                }
            );
            mid.condition_ready = w.ready;
            if out[last[p]].shows() != mid.shows() {
                last[p] = out.len();
                out.push(mid);
            }
        }
        if out[last[p]].shows() != row.shows() {
            last[p] = out.len();
            out.push(row);
        }
    }
    out
}

/// A time as the panel prints it: whole seconds, `1m30s`.
pub fn clock(t_ms: Ms) -> String {
    fmt_secs((t_ms as f64 / 1000.0).round())
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    #[test]
    fn legacy_short_restart_prints_the_flap() {
        let [legacy, kep] = compare(&presets::short_restart()).unwrap();
        let (l, k) = (Timeline::new(&legacy), Timeline::new(&kep));
        let all = rows(&l, legacy.horizon);
        // 3 initial rows + a False and a True row per pod.
        assert_eq!(all.len(), 9, "{all:#?}");
        assert!(all
            .iter()
            .any(|r| r.ready == "0/1" && r.condition == "Ready=False by kubelet"));
        assert_eq!(rows(&k, kep.horizon).len(), 3);
        // Nothing after the playhead.
        assert_eq!(rows(&l, 40_000).len(), 3);
        assert!(all.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
        assert_eq!(clock(61_600), "1m2s");
    }

    #[test]
    fn node_lifecycle_controller_writes_are_attributed() {
        let [_, kep] = compare(&presets::long_restart()).unwrap();
        let rows = rows(&Timeline::new(&kep), kep.horizon);
        assert!(
            rows.iter()
                .any(|r| r.ready == "1/1"
                    && r.condition == "Ready=False by node-lifecycle-controller")
        );
    }

    #[test]
    fn eviction_shows_terminating_then_the_deletion_in_the_comment() {
        let [legacy, _] = compare(&presets::eviction()).unwrap();
        let rows = rows(&Timeline::new(&legacy), legacy.horizon);
        let name = &legacy.pods[0].name;
        let statuses: Vec<&str> = rows
            .iter()
            .filter(|r| &r.name == name)
            .map(|r| r.status.as_str())
            .collect();
        assert!(statuses.contains(&"Terminating"), "{statuses:?}");
        // kubectl never prints "Deleted": the last row is the last object, the comment says so.
        assert!(rows.iter().all(|r| r.status != "Deleted"));
        let last = rows.iter().rfind(|r| &r.name == name).unwrap();
        assert_eq!(last.status, "Terminating");
        assert!(last.condition.ends_with(", pod deleted"), "{last:?}");
    }

    /// A pod rejected at the kubelet's start: 0/1 Running (no container statuses, the phase
    /// kept while its container may run), then `NodeAffinity` once Failed.
    #[test]
    fn a_rejected_pod_shows_its_reason_once_failed() {
        let sc = presets::admission_after_relabel();
        let tr = restartscope_sim::simulate_policy(&sc, restartscope_sim::Policy::Legacy).unwrap();
        let rows = rows(&Timeline::new(&tr), tr.horizon);
        let web0: Vec<(i64, &str, &str)> = rows
            .iter()
            .filter(|r| r.name == "web-0")
            .map(|r| (r.t_ms, r.ready.as_str(), r.status.as_str()))
            .collect();
        assert_eq!(
            web0,
            [
                (0, "1/1", "Running"),
                (42_000, "0/1", "Running"),
                (50_000, "0/1", "NodeAffinity")
            ]
        );
    }

    #[test]
    fn a_crash_counts_a_restart() {
        let [legacy, _] = compare(&presets::crash_during_downtime()).unwrap();
        let rows = rows(&Timeline::new(&legacy), legacy.horizon);
        assert!(rows.iter().any(|r| r.status == "Error"), "{rows:#?}");
        assert!(rows.iter().any(|r| r.restarts == 1), "{rows:#?}");
    }
}

#[cfg(test)]
mod every_write {
    use super::*;

    /// Each run's kubectl rows show as many Ready condition changes as the header counts
    /// transitions, for every preset on every release it runs on.
    #[test]
    fn one_condition_change_per_ready_transition() {
        for p in restartscope_sim::presets::PRESETS {
            let sc = (p.build)();
            for tr in restartscope_sim::compare_default(&sc).unwrap() {
                let tl = Timeline::new(&tr);
                let rs = rows(&tl, tr.horizon);
                let mut changes = 0;
                for pod in &tl.pods {
                    let mine: Vec<_> = rs.iter().filter(|r| r.name == pod.name).collect();
                    changes += mine
                        .windows(2)
                        .filter(|w| w[0].condition_ready != w[1].condition_ready)
                        .count();
                }
                assert_eq!(
                    changes as u32, tr.metrics.ready_transitions,
                    "{} {}",
                    p.name, tr.kubelet
                );
            }
        }
    }
}

#[cfg(test)]
mod dump {
    use super::*;
    #[test]
    #[ignore]
    fn print_rows() {
        let name = std::env::var("PRESET").unwrap();
        let sc = (restartscope_sim::presets::find(&name).unwrap().build)();
        for tr in restartscope_sim::compare_default(&sc).unwrap() {
            println!("== {}", tr.kubelet);
            let tl = Timeline::new(&tr);
            for r in rows(&tl, tr.horizon) {
                println!(
                    "{:>8} {} {} {} {} # {}",
                    r.t_ms, r.name, r.ready, r.status, r.restarts, r.condition
                );
            }
            for w in tl.ready_writes() {
                println!("   write {} {} {:?} {:?}", w.t, w.ready, w.by, w.rule);
            }
            println!("   transitions {}", tr.metrics.ready_transitions);
        }
    }
}

#[cfg(test)]
mod reboot {
    use super::*;

    /// A node reboot: nothing new while the kubelet is down (30–70 s); at boot the kubelet
    /// writes the re-run init container as `Init:0/1` (printPod), then Running.
    #[test]
    fn a_rebooted_pod_shows_init_then_running() {
        let sc = (restartscope_sim::presets::find("node-reboot")
            .unwrap()
            .build)();
        for tr in restartscope_sim::compare_default(&sc).unwrap() {
            let rs = rows(&Timeline::new(&tr), tr.horizon);
            let web0: Vec<(i64, &str)> = (rs.iter())
                .filter(|r| r.name == "web-0")
                .map(|r| (r.t_ms, r.status.as_str()))
                .collect();
            assert!(
                web0.iter().all(|(t, _)| *t == 0 || *t >= 70_000),
                "{web0:?}"
            );
            assert!(web0.iter().any(|(_, s)| *s == "Init:0/1"), "{web0:?}");
            assert_eq!(web0.last().unwrap().1, "Running", "{web0:?}");
        }
    }
}
