//! The runs on screen, as pure functions of the settings: no signals, no DOM. `compute` runs the
//! release's default kubelets (`compare_default`: legacy and KEP from 1.35 on, the legacy kubelet
//! alone before), reads each trace once into a report `Timeline`, lays out the figure and merges
//! the notable events. Called by `app.rs` (the recompute effect), `ui.rs` (the commands),
//! `playback.rs` and the components, which read `Runs` and never the model.

use crate::form::{Field, Settings};
use restartscope_figure::{layout_read, Figure, LayoutOpts, ObservedPod};
use restartscope_report::{notable, Timeline};
use restartscope_sim::{compare_default, KubeletProfile, Policy, Scenario, Trace};
use std::sync::Arc;

/// Playback speeds (× real time); the URL's `speed` and the `+`/`−` keys index this.
pub const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
pub const DEFAULT_SPEED: usize = 4; // 4×

/// The runs of the current settings (one per kubelet the release offers), with their figure.
#[derive(Clone)]
pub struct Runs {
    pub scenario: Arc<Scenario>,
    /// Legacy first, then KEP-4781 when the release has it.
    pub traces: Arc<Vec<Trace>>,
    /// `timelines[i]` is `traces[i]` read once (state at any time).
    pub timelines: Arc<Vec<Timeline>>,
    pub figure: Arc<Figure>,
    /// Notable events of every run, in time order: (run index, event index).
    pub log: Arc<Vec<(usize, usize)>>,
    pub horizon: i64,
    /// Pods per run the figure leaves out to fit the window (counted under its lanes); the
    /// page offers to draw them all (`Ui::every_pod`).
    pub pods_left_out: usize,
    /// Evidence replayed beside the runs (`restartscope replay`'s): each pod's observed lane and the alignment
    /// note, drawn in the figure and in its downloads.
    pub observed: Arc<(Vec<ObservedPod>, Option<String>)>,
}

/// What the page shows about one run besides its data: its kubelet profile's label ("1.35 · default (KEP-4781)",
/// "1.34"), its policy and whether it is the ContainerScopedProbes proposal (the colour: CSS
/// class `legacy`, `kep` or `csp`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub index: usize,
    pub kubelet: String,
    pub policy: Policy,
    /// The proposal's run (unmerged PR #140704), the third lane.
    pub proposal: bool,
}

impl Lane {
    /// The CSS class and element-id part of the run: `legacy`, `kep` or `csp` (the proposal
    /// runs KEP-4781's policy, but its panels need ids and a colour of their own).
    pub fn class(&self) -> &'static str {
        if self.proposal {
            "csp"
        } else {
            self.policy.as_str()
        }
    }

    /// The short badge of the event log and the metrics' heads: `legacy`, `KEP` or `CSP`.
    pub fn short(&self) -> &'static str {
        match (self.proposal, self.policy) {
            (true, _) => "CSP",
            (_, Policy::Legacy) => "legacy",
            (_, Policy::Kep) => "KEP",
        }
    }
}

impl Runs {
    /// Whether the scenario's release (its newest kubelet, for an in-place upgrade) has
    /// KEP-4781's kubelet at all: from 1.35 on.
    pub fn has_kep_kubelet(&self) -> bool {
        restartscope_sim::KubeletProfile::new(self.scenario.newest_kubelet(), Policy::Kep).is_ok()
    }

    pub fn lanes(&self) -> Vec<Lane> {
        self.traces
            .iter()
            .enumerate()
            .map(|(index, t)| Lane {
                index,
                kubelet: t.kubelet.clone(),
                policy: t.policy,
                proposal: !t.proposal.is_empty(),
            })
            .collect()
    }

    /// Times (ms) of the event log's events, in order.
    pub fn event_times(&self) -> impl Iterator<Item = i64> + '_ {
        self.log.iter().map(|&(p, i)| self.traces[p].events[i].t)
    }

    /// The next (or previous) event-log time after (before) `now`.
    pub fn step_from(&self, now: i64, forward: bool) -> Option<i64> {
        let times = self.event_times();
        if forward {
            times.filter(|&t| t > now).min()
        } else {
            times.filter(|&t| t < now).max()
        }
    }

    /// The event log's window around `now`: `(from, split, to)` into `log`, where `split` is the
    /// first event after `now`; seven events before it, four from it.
    pub fn log_window(&self, now: i64) -> (usize, usize, usize) {
        let split = self
            .log
            .partition_point(|&(p, i)| self.traces[p].events[i].t <= now);
        (
            split.saturating_sub(7),
            split,
            (split + 4).min(self.log.len()),
        )
    }

    /// Download file name without extension: `restartscope-long-restart-90s`.
    /// The figure for a file (the animated SVG for a README, where GitHub strips iframes): the command line's
    /// layout (full, every pod up to its limit, 1200 px), in the window on screen, whatever the
    /// page's own figure had to leave out to fit the window.
    pub fn export_figure(&self) -> Figure {
        layout_read(
            &self.traces,
            &self.timelines,
            &LayoutOpts {
                t0_ms: self.figure.t0_ms,
                t1_ms: self.figure.t1_ms,
                observed: self.observed.0.clone(),
                // Under the title, what to watch (as the CLI's figures have it), unless the
                // evidence's own note is there.
                note: (self.observed.1.clone())
                    .or_else(|| Some(restartscope_report::watch::watch_line(&self.traces))),
                ..LayoutOpts::default()
            },
        )
    }

    /// Alt text for the figure in a README ("Copy for a README"): the scenario, the
    /// restart and what each run did, in words a reader without the image gets the story from.
    pub fn alt_text(&self) -> String {
        let sc = &self.scenario;
        let r = &sc.kubelet.restarts[0];
        let more = match sc.kubelet.restarts.len() {
            1 => String::new(),
            n => format!(" (and {} more restarts)", n - 1),
        };
        format!(
            "RestartScope timeline of {} ({} pods, Kubernetes {}): the kubelet stops at {} for {}{more}. {}.",
            sc.name,
            sc.pods.len(),
            sc.cluster.version.as_str(),
            restartscope_sim::fmt_secs(r.at_s),
            restartscope_sim::fmt_secs(r.downtime_s),
            self.counts()
        )
    }

    pub fn file_stem(&self) -> String {
        format!(
            "restartscope-{}-{}s",
            self.scenario.name, self.scenario.kubelet.restarts[0].downtime_s
        )
    }
}

/// "both runs", "the run": what the footer says was recomputed.
pub fn runs_words(n: usize) -> String {
    match n {
        1 => "the run".into(),
        2 => "both runs".into(),
        n => format!("{n} runs"),
    }
}

pub fn compute(settings: &Settings) -> Result<Runs, Vec<(Field, String)>> {
    compute_at_width(settings, 1200.0, false)
}

/// How the figure is laid out for the page it is in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FigureSpec {
    /// Layout width in px: the figure is drawn at about the size it is shown, so its text is
    /// the size the layout says (a 1200-px layout scaled into a 480-px frame had 4-px text).
    pub width: f64,
    /// The short layout (`LayoutOpts::compact`).
    pub compact: bool,
    /// Pods drawn per run.
    pub max_pods: usize,
    /// The tallest the laid-out figure may be (px of the layout): fewer pods are drawn (down to
    /// one per run, the rest counted) until it fits.
    pub max_height: Option<f64>,
    /// The full layout gives way to the compact one where that fits more pods in `max_height`.
    pub compact_fallback: bool,
    /// The pods' lanes carry their tooltips (`LayoutOpts::tooltips`): not while a slider is
    /// held, when no pointer can hover and writing them was half the figure's layout.
    pub tooltips: bool,
}

/// The smallest text the compact layout draws (badge letters, 8.5 px) must show at 12 px on a
/// projector: the figure is scaled up at least this much in presentation view.
pub const PRESENT_SCALE: f64 = 12.0 / 8.5;

/// Height (CSS px) above the figure in presentation view: header and playback bar.
pub const PRESENT_CHROME_H: f64 = 190.0;

/// Height (CSS px) above the figure in the embed: the header line.
pub const EMBED_CHROME_H: f64 = 50.0;

/// The embed draws its figure this much larger than its layout, so the smallest text (8.5 px)
/// shows at 9.5 px.
pub const EMBED_SCALE: f64 = 9.5 / 8.5;

/// Pods drawn per run in presentation view and the embed (the rest are counted under the lanes).
pub const PRESENT_PODS: usize = 4;

/// The everyday view narrower than this (CSS px of the figure) is a phone's: the figure is drawn
/// compact and scaled up as in the embed ([`EMBED_SCALE`]), so its smallest text shows at 9.5 px.
pub const NARROW_W: f64 = 700.0;

/// CSS px the everyday view keeps free under the figure within the window: wide, a margin; on a
/// phone, the downtime control, which comes right after the figure.
pub const WIDE_BELOW_H: f64 = 14.0;
pub const NARROW_BELOW_H: f64 = 118.0;

/// Where the everyday view's figure starts (CSS px from the top of the page) before the page
/// has been measured (`env::figure_top`): the header and the playback bar.
pub fn figure_top_guess(shown_w: f64) -> f64 {
    if shown_w < NARROW_W {
        96.0
    } else {
        124.0
    }
}

/// The figure for a page: presentation view at 860 px, compact (both runs and the axis fit a
/// 1280×720 screen under the playback bar, text ≥ 12 px once scaled); the embed compact at its
/// frame's width over [`EMBED_SCALE`] (text ≥ 9.5 px; both runs' pod lanes fit a 560-px-high
/// frame), with two pods per run below 400 px; the everyday view at the width it is shown, up to
/// 1200 px, as tall as the window leaves under `fig_top` (the figure's top on the page): the full
/// layout, or the compact one where that draws more pods (so the downtime slider and both
/// runs' pod lanes fit one screen; `Ui::every_pod` lifts the limit); on a phone
/// ([`NARROW_W`]) compact and scaled like the embed. `view_h` 0: no height limit (tests, exports).
pub fn figure_spec(
    present: bool,
    embed: bool,
    shown_w: f64,
    view_h: f64,
    fig_top: f64,
) -> FigureSpec {
    if present {
        FigureSpec {
            width: 860.0,
            compact: true,
            compact_fallback: false,
            max_pods: PRESENT_PODS,
            max_height: Some(((view_h - PRESENT_CHROME_H) / PRESENT_SCALE).max(200.0)),
            tooltips: true,
        }
    } else if embed {
        FigureSpec {
            width: (shown_w / EMBED_SCALE).clamp(240.0, 1200.0),
            compact: true,
            compact_fallback: false,
            max_pods: if shown_w < 400.0 { 2 } else { PRESENT_PODS },
            max_height: Some(((view_h - EMBED_CHROME_H) / EMBED_SCALE).max(200.0)),
            tooltips: true,
        }
    } else {
        let narrow = shown_w < NARROW_W;
        let width = if narrow {
            (shown_w / EMBED_SCALE).max(240.0)
        } else {
            shown_w.clamp(320.0, 1200.0)
        };
        let scale = (shown_w / width).max(1.0);
        let below = if narrow { NARROW_BELOW_H } else { WIDE_BELOW_H };
        FigureSpec {
            width,
            compact: narrow,
            compact_fallback: !narrow,
            max_pods: LayoutOpts::default().max_pods,
            max_height: (view_h > 0.0).then(|| ((view_h - fig_top - below) / scale).max(240.0)),
            tooltips: true,
        }
    }
}

/// `width` is the figure's layout width: narrower means larger text once scaled to the page.
/// `zoom` narrows the figure to the restart: from 10 s before the stop to 45 s after the return.
pub fn compute_at_width(
    settings: &Settings,
    width: f64,
    zoom: bool,
) -> Result<Runs, Vec<(Field, String)>> {
    compute_for(
        settings,
        figure_spec(false, false, width, 0.0, 0.0),
        zoom.then_some(0),
    )
}

/// The runs for presentation view on a 1280×720 screen ([`figure_spec`]).
pub fn compute_present(settings: &Settings, zoom: bool) -> Result<Runs, Vec<(Field, String)>> {
    compute_for(
        settings,
        figure_spec(true, false, 0.0, 720.0, 0.0),
        zoom.then_some(0),
    )
}

/// Simulates `settings` and lays the runs out as `spec` says; `zoom`: narrowed to that
/// restart (the selected one, `Ui::sel_restart`; the first when there is no such restart).
pub fn compute_for(
    settings: &Settings,
    spec: FigureSpec,
    zoom: Option<usize>,
) -> Result<Runs, Vec<(Field, String)>> {
    let sc = settings.scenario()?;
    let mut traces = compare_default(&sc).map_err(crate::form::by_field)?;
    if settings.csp {
        // The ContainerScopedProbes proposal (unmerged PR #140704) as a third run.
        let profile = KubeletProfile::csp_on(sc.cluster.version).map_err(|mut m| {
            m[..1].make_ascii_uppercase();
            vec![(Field::Version, m)]
        })?;
        traces.push(
            restartscope_sim::simulate_profile(&sc, &profile).map_err(crate::form::by_field)?,
        );
    }
    let list = &sc.kubelet.restarts;
    let restart = zoom.and_then(|i| list.get(i)).unwrap_or(&list[0]);
    let window = if zoom.is_some() {
        (
            (ms_of(restart.at_s) - 10_000).max(0),
            ms_of(restart.at_s + restart.downtime_s) + 45_000,
        )
    } else {
        (0, 0)
    };
    let observed = settings
        .custom
        .as_ref()
        .map(|c| (c.observed.clone(), c.observed_note.clone()))
        .unwrap_or_default();
    Ok(assemble(sc, traces, spec, window, observed))
}

/// The runs of `traces` (simulated from `sc`) with their figure laid out as `spec` says, in
/// `window` (`(0, 0)`: the whole run).
/// `observed`: evidence replayed beside the runs (each pod's observed lane, the alignment note).
pub fn assemble(
    sc: Scenario,
    traces: Vec<Trace>,
    spec: FigureSpec,
    window: (i64, i64),
    (observed, note): (Vec<ObservedPod>, Option<String>),
) -> Runs {
    let FigureSpec {
        width,
        compact,
        max_pods,
        max_height,
        compact_fallback,
        tooltips,
    } = spec;
    let timelines: Vec<Timeline> = traces.iter().map(Timeline::new).collect();
    let lay = |compact: bool, max_pods: usize| {
        layout_read(
            &traces,
            &timelines,
            &LayoutOpts {
                width,
                t0_ms: window.0,
                t1_ms: window.1,
                compact,
                max_pods,
                observed: observed.clone(),
                note: note.clone(),
                tooltips,
                ..LayoutOpts::default()
            },
        )
    };
    let fits = |f: &Figure| max_height.is_none_or(|h| f.height <= h);
    let shown_pods = sc.pods.len().clamp(1, max_pods.max(1));
    // The full layout gives way to the compact one where that draws more pods, or where even
    // one pod a run does not fit and the compact one is shorter (three runs on a 720-px screen,
    // once the downtime passes the grace period and the node's rows come in).
    let fallback = |(figure, pods): (Figure, usize), (small, small_pods): (Figure, usize)| {
        if small_pods > pods || (!fits(&figure) && small.height < figure.height) {
            (small, small_pods)
        } else {
            (figure, pods)
        }
    };
    let fit = |compact: bool| {
        let key = crate::fit::Key::new(width, max_height, compact, max_pods);
        crate::fit::most_pods(key, shown_pods, |p| lay(compact, p), fits)
    };
    let (figure, pods) = if compact_fallback && !compact && shown_pods > 1 {
        // Where the full layout cannot draw every pod and the compact one can, the compact one
        // is the answer whatever number the full one would fit (a laptop's screen, every
        // slider move: two layouts, not three).
        let all = lay(false, shown_pods);
        if fits(&all) {
            (all, shown_pods)
        } else {
            let (small, small_pods) = fit(true);
            if small_pods == shown_pods {
                (small, small_pods)
            } else {
                let (figure, pods) = fit(false);
                fallback((figure, pods), (small, small_pods))
            }
        }
    } else {
        let (figure, pods) = fit(compact);
        if compact_fallback && !compact && (pods < shown_pods || !fits(&figure)) {
            fallback((figure, pods), fit(true))
        } else {
            (figure, pods)
        }
    };
    let pods_left_out = sc.pods.len().saturating_sub(pods);
    let log = notable::merged(&traces);
    let observed = Arc::new((observed, note));
    Runs {
        observed,
        scenario: Arc::new(sc),
        horizon: traces.iter().map(|t| t.horizon).max().unwrap_or(1),
        timelines: Arc::new(timelines),
        traces: Arc::new(traces),
        figure: Arc::new(figure),
        log: Arc::new(log),
        pods_left_out,
    }
}

fn ms_of(s: f64) -> i64 {
    (s * 1000.0).round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(version: &str) -> Settings {
        Settings {
            version: version.into(),
            ..Settings::default()
        }
    }

    #[test]
    fn the_figure_fits_the_window_with_the_most_pods_that_fit() {
        // 12 pods; each height limit keeps the most pods whose figure fits, and the fewest
        // left out, as the one-by-one search did.
        let s = Settings {
            pods: "12".into(),
            ..Settings::default()
        };
        for h in [400.0, 600.0, 900.0, 1400.0, 3000.0] {
            let r = compute_for(&s, figure_spec(false, false, 1000.0, h, 124.0), None).unwrap();
            let spec = figure_spec(false, false, 1000.0, h, 124.0);
            let max = spec.max_height.unwrap();
            let drawn = 12 - r.pods_left_out;
            assert!(
                r.figure.height <= max || drawn == 1,
                "{h}: {} > {max}",
                r.figure.height
            );
            if drawn < 12 {
                // One more pod, in either layout, would not fit.
                let sc = s.scenario().unwrap();
                let traces = compare_default(&sc).unwrap();
                let timelines: Vec<Timeline> = traces.iter().map(Timeline::new).collect();
                for compact in [false, true] {
                    let more = layout_read(
                        &traces,
                        &timelines,
                        &LayoutOpts {
                            width: 1000.0,
                            compact,
                            max_pods: drawn + 1,
                            ..LayoutOpts::default()
                        },
                    );
                    assert!(
                        more.height > max,
                        "{h}: {} pods would fit (compact {compact})",
                        drawn + 1
                    );
                }
            }
        }
    }

    #[test]
    fn the_readme_alt_text_tells_what_each_run_did() {
        let r = compute(&Settings::default()).unwrap();
        let alt = r.alt_text();
        assert!(alt.starts_with("RestartScope timeline of short-restart (3 pods, Kubernetes 1.35): the kubelet stops at 30s for 20s."), "{alt}");
        assert!(alt.contains("1.35 · legacy (opt-in gate): 6 Ready transitions, 6 EndpointSlice updates, 0 evictions"), "{alt}");
        assert!(alt.contains("1.35 · default (KEP-4781): 0 Ready transitions, 0 EndpointSlice updates, 0 evictions"), "{alt}");
        // The file's figure draws every pod, whatever the window left room for.
        let small = compute_for(
            &Settings::default(),
            figure_spec(false, false, 1000.0, 380.0, 124.0),
            None,
        )
        .unwrap();
        assert!(small.pods_left_out > 0);
        let words = small.export_figure().to_svg();
        assert!(words.contains("web-2"));
        // Under the title, what to watch: the command line's caption.
        assert!(words.contains("Watch — legacy kubelet:"), "no caption");
    }

    #[test]
    fn releases_before_1_35_run_the_legacy_kubelet_alone() {
        for v in ["1.31", "1.34"] {
            let r = compute(&at(v)).unwrap_or_else(|e| panic!("{v}: {e:?}"));
            let lanes = r.lanes();
            assert_eq!(lanes.len(), 1, "{v}");
            assert_eq!(lanes[0].kubelet, format!("{v} · default (legacy)"));
            assert_eq!(lanes[0].policy, Policy::Legacy);
            assert_eq!(r.figure.groups.len(), 1);
            assert!(r.log.iter().all(|&(p, _)| p == 0));
        }
    }

    #[test]
    fn every_later_release_runs_legacy_and_kep() {
        for v in ["1.35", "1.35.4", "1.36", "1.36.4", "1.37", "1.38", "main"] {
            let r = compute(&at(v)).unwrap_or_else(|e| panic!("{v}: {e:?}"));
            let names: Vec<String> = r.lanes().into_iter().map(|l| l.kubelet).collect();
            assert_eq!(
                names,
                [
                    format!("{v} · legacy (opt-in gate)"),
                    format!("{v} · default (KEP-4781)")
                ]
            );
            assert!(r
                .figure
                .to_svg()
                .contains(&format!("KEP-4781 kubelet · {v}")));
        }
    }

    #[test]
    fn steps_and_log_window_follow_the_merged_log() {
        let r = compute(&Settings::default()).unwrap();
        let times: Vec<i64> = r.event_times().collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        let first = times[0];
        assert_eq!(r.step_from(-1, true), Some(first));
        assert_eq!(r.step_from(first, false), None);
        let (from, split, to) = r.log_window(first);
        assert_eq!(from, 0);
        assert!(split >= 1 && to <= r.log.len() && to - split <= 4);
        assert_eq!(r.file_stem(), "restartscope-short-restart-20s");
        assert_eq!(runs_words(2), "both runs");
    }

    /// The ContainerScopedProbes proposal's lane (kubernetes PR #140704) beside a release's two
    /// kubelets, from 1.38 on; before, the version field says why (nothing is simulated).
    #[test]
    fn the_csp_proposal_is_a_third_lane_from_1_38() {
        let mut s = at("1.38");
        s.csp = true;
        let r = compute(&s).unwrap();
        let names: Vec<String> = r.lanes().into_iter().map(|l| l.kubelet).collect();
        assert_eq!(
            names,
            [
                "1.38 · legacy (opt-in gate)",
                "1.38 · default (KEP-4781)",
                "1.38 · proposal CSP (#140704)"
            ]
        );
        assert_eq!(r.figure.groups.len(), 3);
        let mut s = at("1.36.4");
        s.csp = true;
        let Err(e) = compute(&s) else {
            panic!("1.36.4 has no proposal lane")
        };
        assert_eq!(e[0].0, Field::Version);
        assert!(e[0].1.contains("targets 1.38"), "{e:?}");
    }
}
