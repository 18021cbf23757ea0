//! The evidence's clocks put on a model run's time axis: one `Shift` per file (per pod when the
//! times are relative), by the first anchor the module doc of `observed` lists, and the
//! caption's sentence that says how (`Alignment::text`). Called by the CLI's `replay`; `lanes` and
//! `differences` read times through it. Mirrors no Kubernetes file (the anchors are what the
//! kubelet's restart looks like in systemd's, klog's and the node lease's records).

use crate::explain::matched_pods;
use crate::types::{Evidence, Obs, What};
use restartscope_sim::Trace;
use serde::Serialize;

/// How one file's (or one pod's, for relative times) clock was put on the model's axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shift {
    pub file: usize,
    /// Set when the shift is the pod's own (relative times, aligned by a Ready change).
    pub pod: Option<String>,
    /// Milliseconds added to the source's times.
    pub shift_ms: i64,
    /// The file's times are relative (kubectl AGE), not wall-clock.
    pub relative: bool,
    /// What was aligned with what, in words.
    pub anchor: String,
    /// The observation aligned by (file, line), when it is a pod's Ready change.
    pub anchor_line: Option<(usize, usize)>,
    /// Nothing to align by: the first observation placed at the model's kubelet stop; times
    /// on this shift are not compared with the model's.
    pub arbitrary: bool,
}

/// Every file's shift, and one sentence for a figure's caption.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alignment {
    pub shifts: Vec<Shift>,
    pub text: String,
}

impl Alignment {
    /// The model time of an observation.
    pub fn model_t(&self, o: &Obs) -> i64 {
        o.t_ms + self.shift_of(o).map_or(0, |s| s.shift_ms)
    }

    /// The shift an observation is put on the model's axis by.
    pub fn shift_of(&self, o: &Obs) -> Option<&Shift> {
        self.shifts
            .iter()
            .find(|s| s.file == o.file && s.pod.is_some() && s.pod == o.pod)
            .or_else(|| {
                self.shifts
                    .iter()
                    .find(|s| s.file == o.file && s.pod.is_none())
            })
    }
}

pub(super) fn secs(ms: i64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

fn signed(ms: i64) -> String {
    format!(
        "{}{:.1} s",
        if ms < 0 { "−" } else { "+" },
        ms.abs() as f64 / 1000.0
    )
}

/// Milliseconds since the epoch as `2026-11-30 10:00:50.0 UTC`.
fn utc(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{} UTC",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000 / 100
    )
}

/// Wall clocks since the epoch (audit, events) are ~1.7e12 ms; klog's, since the start of the
/// year, under 3.2e10.
fn epoch_clock(t: i64) -> bool {
    t > 100_000_000_000
}

/// A file's kubelet anchor: (the source's time, the model's time, in words).
fn kubelet_anchor(obs: &[&Obs], tr: &Trace) -> Option<(i64, i64, String)> {
    let (stop, start) = tr.restarts.first().copied()?;
    if let Some(o) = obs.iter().find(|o| o.what == What::KubeletStopped) {
        return Some((
            o.t_ms,
            stop,
            format!(
                "the kubelet's stop (line {}) at the model's stop ({})",
                o.line,
                secs(stop)
            ),
        ));
    }
    if let Some(o) = obs.iter().find(|o| o.what == What::KubeletStarted) {
        return Some((
            o.t_ms,
            start,
            format!(
                "the kubelet's start (line {}) at the model's start ({})",
                o.line,
                secs(start)
            ),
        ));
    }
    let mut leases: Vec<(i64, usize)> = obs
        .iter()
        .filter(|o| o.what == What::LeaseRenewed)
        .map(|o| (o.t_ms, o.line))
        .collect();
    leases.sort_unstable();
    let (gap, last) = leases
        .windows(2)
        .map(|w| (w[1].0 - w[0].0, w[0]))
        .max_by_key(|x| x.0)?;
    (gap > 15_000).then(|| {
        (
            last.0 + 10_000,
            stop,
            format!(
                "the lease's gap (last renewal before it on line {}, +10 s) at the model's stop ({})",
                last.1,
                secs(stop)
            ),
        )
    })
}

/// The model's first Ready write of its pod `i` after the kubelet's stop.
fn model_first_change(tr: &Trace, i: usize) -> Option<i64> {
    let i = i as u16;
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    tr.pod_ready_changes(i).find(|e| e.t > stop).map(|e| e.t)
}

/// The model's last Ready write of its pod `i`.
fn model_last_change(tr: &Trace, i: usize) -> Option<i64> {
    tr.pod_ready_changes(i as u16).last().map(|e| e.t)
}

/// Puts every file's clock on `tr`'s axis (see the module doc).
pub fn align(files: &[Evidence], tr: &Trace) -> Alignment {
    let stop = tr.restarts.first().map_or(0, |r| r.0);
    let pairs = matched_pods(&crate::merge(files), tr);
    let own: Vec<Option<(i64, i64, String)>> = files
        .iter()
        .map(|e| {
            let obs: Vec<&Obs> = e.obs.iter().collect();
            if e.absolute {
                kubelet_anchor(&obs, tr)
            } else {
                None
            }
        })
        .collect();
    let mut shifts = Vec::new();
    for (i, e) in files.iter().enumerate() {
        let first_t = e.obs.iter().map(|o| o.t_ms).min().unwrap_or(0);
        if let Some((src, model, how)) = &own[i] {
            shifts.push(Shift {
                file: i,
                pod: None,
                shift_ms: model - src,
                relative: false,
                anchor: how.clone(),
                anchor_line: None,
                arbitrary: false,
            });
            continue;
        }
        if e.absolute {
            let borrowed = own.iter().enumerate().find_map(|(j, a)| {
                let a = a.as_ref()?;
                (epoch_clock(a.0) == epoch_clock(first_t)).then_some((j, a))
            });
            if let Some((j, (src, model, how))) = borrowed {
                shifts.push(Shift {
                    file: i,
                    pod: None,
                    shift_ms: model - src,
                    relative: false,
                    anchor: format!("the same clock as file {}: {how}", j + 1),
                    anchor_line: None,
                    arbitrary: false,
                });
                continue;
            }
        }
        // By Ready changes: one shift per file (wall clock), per pod (relative).
        let changes: Vec<&Obs> = e
            .obs
            .iter()
            .filter(|o| {
                matches!(o.what, What::ReadyChanged(_) | What::ReadySince(_)) && o.pod.is_some()
            })
            .collect();
        // A change at the model's first change after the stop; a snapshot's last transition
        // (`ReadySince`) at the model's last.
        let by_change = |o: &Obs| {
            let pod = o.pod.as_deref()?;
            let i = pairs.iter().find(|p| p.0 == pod)?.1?;
            let since = matches!(o.what, What::ReadySince(_));
            let m = if since {
                model_last_change(tr, i)?
            } else {
                model_first_change(tr, i)?
            };
            let which = if since {
                "last transition in the snapshot"
            } else {
                "first observed Ready change"
            };
            let model_which = if since { "last" } else { "first" };
            let whose = if tr.pods[i].name == pod {
                String::new()
            } else {
                format!(", {}'s: the model has no pod of that name", tr.pods[i].name)
            };
            Some((
                m - o.t_ms,
                format!(
                    "{pod}'s {which} (line {}) at the model's {model_which} ({}{whose})",
                    o.line,
                    secs(m)
                ),
            ))
        };
        if e.absolute {
            if let Some((shift, how)) = changes.first().and_then(|o| by_change(o)) {
                shifts.push(Shift {
                    file: i,
                    pod: None,
                    shift_ms: shift,
                    relative: false,
                    anchor: how,
                    anchor_line: Some((i, changes[0].line)),
                    arbitrary: false,
                });
                continue;
            }
        } else {
            let mut pods: Vec<&str> = Vec::new();
            for o in &changes {
                let p = o.pod.as_deref().unwrap_or_default();
                if pods.contains(&p) {
                    continue;
                }
                pods.push(p);
                if let Some((shift, how)) = by_change(o) {
                    shifts.push(Shift {
                        file: i,
                        pod: Some(p.to_string()),
                        shift_ms: shift,
                        relative: true,
                        anchor: how,
                        anchor_line: Some((i, o.line)),
                        arbitrary: false,
                    });
                }
            }
            // Each pod has its own clock: one without a change to align by is placed, and said.
            for pod in crate::explain::observed_pods(&e.obs) {
                if shifts
                    .iter()
                    .any(|s| s.file == i && s.pod.as_deref() == Some(&pod))
                {
                    continue;
                }
                let first = e
                    .obs
                    .iter()
                    .filter(|o| o.pod.as_deref() == Some(&pod))
                    .map(|o| o.t_ms)
                    .min()
                    .unwrap_or(first_t);
                shifts.push(Shift {
                    file: i,
                    pod: Some(pod.clone()),
                    shift_ms: stop - first,
                    relative: true,
                    anchor: format!(
                        "{pod}: no Ready change to align by, its first observation placed at the model's kubelet stop ({}), arbitrarily",
                        secs(stop)
                    ),
                    anchor_line: None,
                    arbitrary: true,
                });
            }
        }
        shifts.push(Shift {
            file: i,
            pod: None,
            shift_ms: stop - first_t,
            relative: !e.absolute,
            anchor: format!(
                "nothing to align by (no kubelet stop or start, lease gap or Ready change): the first observation placed at the model's kubelet stop ({}), arbitrarily: times not comparable",
                secs(stop)
            ),
            anchor_line: None,
            arbitrary: true,
        });
    }
    let text = caption(files, &shifts);
    Alignment { shifts, text }
}

fn caption(files: &[Evidence], shifts: &[Shift]) -> String {
    let many = files.len() > 1;
    let parts: Vec<String> = shifts
        .iter()
        .filter(|s| {
            // A file's fallback shift is only said when nothing else aligned it.
            s.pod.is_some() || !shifts.iter().any(|o| o.file == s.file && o.pod.is_some())
        })
        .map(|s| {
            let file = if many {
                format!("file {}: ", s.file + 1)
            } else {
                String::new()
            };
            let zero = -s.shift_ms;
            if !s.relative && epoch_clock(zero) {
                format!("{file}{} (the model's 0 s is {})", s.anchor, utc(zero))
            } else {
                format!("{file}{} (shifted {})", s.anchor, signed(s.shift_ms))
            }
        })
        .collect();
    let mut text = format!(
        "Observed times put on the model's axis: {}.",
        parts.join("; ")
    );
    if shifts.iter().any(|s| s.relative) {
        text.push_str(" The evidence gives only relative times (kubectl AGE, from each pod's creation): a lane's place on the axis is where it was aligned, only the spacing of its changes is observed.");
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00.0 UTC");
        // 2026-11-30T10:00:50Z
        assert_eq!(super::utc(1_796_032_850_000), "2026-11-30 10:00:50.0 UTC");
        assert_eq!(super::utc(951_782_400_000), "2000-02-29 00:00:00.0 UTC");
    }
}
