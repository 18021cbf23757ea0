//! The "kubectl get pods -w" panel: rows printed each time what kubectl shows of a pod changes.
//! Pure presentation of trace events.

use restartscope_sim::{fmt_secs, Actor, Kind, Trace, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub t_ms: i64,
    pub name: String,
    pub ready: String,
    pub status: &'static str,
    pub restarts: u32,
    /// The PodReady condition and who wrote it (kubectl's READY column counts containers).
    pub condition: String,
    pub condition_ready: bool,
}

struct PodView {
    ready: Vec<bool>,
    running: Vec<bool>,
    restarts: u32,
    deleted: bool,
    removed: bool,
    condition: bool,
    writer: Actor,
}

impl PodView {
    fn row(&self, t_ms: i64, name: &str) -> Row {
        let n = self.ready.len();
        let r = self.ready.iter().filter(|r| **r).count();
        let status = if self.removed {
            "Deleted"
        } else if self.deleted {
            "Terminating"
        } else if self.running.iter().all(|r| *r) {
            "Running"
        } else {
            "Error"
        };
        let who = match self.writer {
            Actor::NodeLifecycleController => "node-lifecycle-controller",
            _ => "kubelet",
        };
        Row {
            t_ms,
            name: name.to_string(),
            ready: format!("{r}/{n}"),
            status,
            restarts: self.restarts,
            condition: format!(
                "Ready={} by {who}",
                if self.condition { "True" } else { "False" }
            ),
            condition_ready: self.condition,
        }
    }
}

/// Rows up to and including `until_ms`, oldest first.
pub fn rows(tr: &Trace, until_ms: i64) -> Vec<Row> {
    let mut pods: Vec<PodView> = tr
        .pods
        .iter()
        .map(|p| PodView {
            ready: vec![true; p.containers.len()],
            running: vec![true; p.containers.len()],
            restarts: 0,
            deleted: false,
            removed: false,
            condition: true,
            writer: Actor::Kubelet,
        })
        .collect();
    let mut out: Vec<Row> = tr
        .pods
        .iter()
        .enumerate()
        .map(|(i, p)| pods[i].row(0, &p.name))
        .collect();
    for e in tr.events.iter().take_while(|e| e.t <= until_ms) {
        let Some(p) = e.pod.map(usize::from) else {
            continue;
        };
        let c = e.container.map(usize::from);
        let v = &mut pods[p];
        let changed = match (e.kind, c) {
            (Kind::ContainerReady, Some(c)) => {
                v.ready[c] = e.value == Value::Bool(true);
                false // printed with the PodReady / status write of the same instant
            }
            (Kind::StatusWrite, _) => true,
            (Kind::PodReady, _) => {
                v.condition = e.value == Value::Bool(true);
                v.writer = e.by;
                true
            }
            (Kind::ContainerExit, Some(c)) => {
                v.running[c] = false;
                true
            }
            (Kind::ContainerRestart, Some(c)) => {
                v.running[c] = true;
                v.restarts += 1;
                true
            }
            (Kind::Eviction, _) => {
                v.deleted = true;
                true
            }
            (Kind::PodRemoved, _) => {
                v.removed = true;
                true
            }
            _ => false,
        };
        if changed {
            let row = v.row(e.t, &tr.pods[p].name);
            // One row per visible change (a status write and its PodReady at one instant).
            if let Some(last) = out.iter().rev().find(|r| r.name == row.name) {
                if (
                    last.ready.as_str(),
                    last.status,
                    last.restarts,
                    last.condition.as_str(),
                ) == (
                    row.ready.as_str(),
                    row.status,
                    row.restarts,
                    row.condition.as_str(),
                ) {
                    continue;
                }
            }
            if let Some(last) = out.last_mut() {
                if last.name == row.name && last.t_ms == row.t_ms {
                    *last = row;
                    continue;
                }
            }
            out.push(row);
        }
    }
    out
}

pub fn clock(t_ms: i64) -> String {
    fmt_secs((t_ms as f64 / 1000.0).round())
}

#[cfg(test)]
mod tests {
    use super::*;
    use restartscope_sim::{compare, presets};

    #[test]
    fn legacy_short_restart_prints_the_flap() {
        let [legacy, kep] = compare(&presets::short_restart()).unwrap();
        let rows = rows(&legacy, legacy.horizon);
        // 3 initial rows + a False and a True row per pod.
        assert_eq!(rows.len(), 9, "{rows:#?}");
        assert!(rows
            .iter()
            .any(|r| r.ready == "0/1" && r.condition == "Ready=False by kubelet"));
        assert_eq!(super::rows(&kep, kep.horizon).len(), 3);
        // Nothing after the playhead.
        assert_eq!(super::rows(&legacy, 40_000).len(), 3);
    }

    #[test]
    fn node_lifecycle_controller_writes_are_attributed() {
        let [_, kep] = compare(&presets::long_restart()).unwrap();
        let rows = rows(&kep, kep.horizon);
        assert!(
            rows.iter()
                .any(|r| r.ready == "1/1"
                    && r.condition == "Ready=False by node-lifecycle-controller")
        );
    }
}
