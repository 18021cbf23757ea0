//! Guided tours of RestartScope, as data: each [`Tour`] is a list of [`Step`]s, and each step
//! says which scenario to run (a preset of `restartscope_sim::presets` plus [`Edit`]s applied
//! through the model's one edit path, `Overrides::apply`), which kubelets to show ([`Runs`]), the
//! time window that frames the point, what to highlight ([`Mark`]s on the time axis, one pod) and
//! a caption for a KEP reader.
//!
//! Captions are templates: every number is read from the step's runs (`{legacy.ready_transitions}`,
//! `{kep.notready_s:1}`, …) and every rule is cited through the model's rule table (`{rule:P1k}`
//! becomes the id and its Kubernetes source from `restartscope_sim::Rule::source`), so a caption
//! cannot drift from the model: `tests/captions.rs` checks that each cited rule occurs in the
//! step's trace and that no caption carries a number of its own. See [`caption`] for the syntax.
//!
//! For the web app (no web dependencies here; compiles to wasm32):
//!
//! ```
//! use restartscope_tour::{find, TOURS};
//! let tour = find("kep-4781").unwrap();
//! let step = tour.step(1).unwrap();          // 1-based, as in `?tour=kep-4781&step=1`
//! let scenario = step.scenario().unwrap();   // what the app's form would have built
//! let (t0_ms, t1_ms) = step.window();        // the window that frames the point
//! let traces = step.traces().unwrap();       // the runs the step shows, legacy first
//! let caption = step.caption(&traces).unwrap(); // paragraphs, numbers and rules filled in
//! let marks = step.marks(&traces);           // (t_ms, label) on the time axis
//! assert_eq!(TOURS[0].name, "kep-4781");
//! assert!(t0_ms < t1_ms && !caption.is_empty() && !marks.is_empty());
//! # let _ = scenario;
//! ```
//!
//! [`svg::step_svg`] draws a step as a standalone SVG (figure, marks, caption) and
//! [`svg::index_md`] the markdown page that lists the steps (`restartscope tour --out DIR`).

pub mod caption;
pub mod data;
mod kep4781;
pub mod svg;

use restartscope_figure::LayoutOpts;
use restartscope_sim::{
    presets, simulate_policy, FieldError, Kind, KubeVersion, Ms, Overrides, Policy, Rule, Scenario,
    Trace,
};

/// Every tour.
pub static TOURS: &[Tour] = &[kep4781::TOUR];

/// The tour with this name (`?tour=NAME`).
pub fn find(name: &str) -> Option<&'static Tour> {
    TOURS.iter().find(|t| t.name == name)
}

/// A named sequence of steps.
#[derive(Debug)]
pub struct Tour {
    /// The link name: `?tour=kep-4781`, `restartscope tour --name kep-4781`.
    pub name: &'static str,
    pub title: &'static str,
    /// One paragraph introducing the tour (index.md, the app's tour entry point).
    pub intro: &'static str,
    pub steps: &'static [Step],
}

impl Tour {
    /// Step `n`, counted from 1 as in the link (`?tour=kep-4781&step=N`) and "Step N of M".
    pub fn step(&self, n: usize) -> Option<&'static Step> {
        n.checked_sub(1).and_then(|i| self.steps.get(i))
    }

    /// The query string that opens step `n` (1-based) in the web app.
    pub fn link(&self, n: usize) -> String {
        format!("?tour={}&step={n}", self.name)
    }

    /// The file name of step `n` (1-based) in `restartscope tour --out DIR`: `01-legacy-flap.svg`.
    pub fn file_name(&self, n: usize) -> Option<String> {
        self.step(n).map(|s| format!("{n:02}-{}.svg", s.slug))
    }
}

/// Which kubelets a step runs, on the scenario's release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// Legacy above KEP-4781, on one clock.
    Both,
    Only(Policy),
}

/// Changes to the preset, applied through `Overrides::apply` (the CLI's and the form's path).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Edit {
    pub downtime_s: Option<f64>,
    pub restart_at_s: Option<f64>,
    pub version: Option<KubeVersion>,
    pub grace_s: Option<f64>,
    pub toleration_s: Option<f64>,
    pub seed: Option<u64>,
}

impl Edit {
    /// No change: the preset as shipped.
    pub const NONE: Edit = Edit {
        downtime_s: None,
        restart_at_s: None,
        version: None,
        grace_s: None,
        toleration_s: None,
        seed: None,
    };

    /// The same settings as the model's [`Overrides`].
    pub fn overrides(&self) -> Overrides {
        Overrides {
            downtime_s: self.downtime_s,
            restart_at_s: self.restart_at_s,
            version: self.version,
            grace_s: self.grace_s,
            toleration_s: self.toleration_s,
            seed: self.seed,
            ..Overrides::default()
        }
    }
}

/// Where a mark on the time axis goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// A fixed time, in seconds.
    Secs(f64),
    /// The first kubelet restart's start (K1).
    Stop,
    /// The kubelet's return (K2).
    Return,
    /// The first event of this rule at or after the kubelet stop, in any run the step shows.
    First(Rule),
    /// The first event of this rule at or after the kubelet stop, in this run only.
    FirstIn(Policy, Rule),
    /// The first event of this kind at or after the kubelet stop, in any run the step shows.
    Kind(Kind),
    /// The pod's first API Ready=True change at or after the kubelet stop, in this run.
    Ready(Policy, u16),
    /// The pod's first API Ready=False change at or after the kubelet stop, in this run.
    NotReady(Policy, u16),
}

/// A labelled instant to point at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub at: At,
    pub label: &'static str,
}

/// A "predict, then reveal" beat (the audience commits to an answer before the figure shows it): the page first shows the step up to `from` with
/// the rest of the figure veiled and `question` in place of the step's title and caption; the
/// next key reveals the rest (and plays it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Predict {
    pub question: &'static str,
    pub from: At,
}

/// One step of a tour.
#[derive(Debug)]
pub struct Step {
    /// Short name, used in file names (`01-legacy-flap.svg`).
    pub slug: &'static str,
    pub title: &'static str,
    /// A preset of `restartscope_sim::presets::PRESETS`.
    pub preset: &'static str,
    pub edit: Edit,
    pub runs: Runs,
    /// The window that frames the point, in seconds (clamped to the run by the figure).
    pub window_s: (f64, f64),
    pub marks: &'static [Mark],
    /// A pod (index in the scenario) to highlight.
    pub pod: Option<u16>,
    /// Paragraphs, as templates ([`caption`]): the first says what to look at, the next why.
    pub caption: &'static [&'static str],
    /// Ask the reader to predict what follows `Predict::from` before showing it.
    pub predict: Option<Predict>,
}

/// Why a step cannot be shown (a tour that names a missing preset or an invalid edit: the
/// tests rule it out for the shipped tours).
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    UnknownPreset(String),
    Invalid(Vec<FieldError>),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::UnknownPreset(p) => write!(f, "unknown preset {p:?}"),
            StepError::Invalid(errs) => {
                let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
                write!(f, "invalid scenario: {}", list.join("; "))
            }
        }
    }
}

impl Step {
    /// The scenario the step runs: the preset with the step's edits, validated.
    pub fn scenario(&self) -> Result<Scenario, StepError> {
        let p = presets::find(self.preset)
            .ok_or_else(|| StepError::UnknownPreset(self.preset.to_string()))?;
        self.edit
            .overrides()
            .apply((p.build)())
            .map_err(StepError::Invalid)
    }

    /// The window `(t0_ms, t1_ms)` to show (`LayoutOpts::t0_ms` / `t1_ms`).
    pub fn window(&self) -> (Ms, Ms) {
        let ms = |s: f64| (s * 1000.0).round() as Ms;
        (ms(self.window_s.0), ms(self.window_s.1))
    }

    /// The kubelets the step shows, legacy first.
    pub fn policies(&self) -> Vec<Policy> {
        match self.runs {
            Runs::Both => Policy::BOTH.to_vec(),
            Runs::Only(p) => vec![p],
        }
    }

    /// The step's runs, in [`Step::policies`] order.
    pub fn traces(&self) -> Result<Vec<Trace>, StepError> {
        let sc = self.scenario()?;
        self.policies()
            .into_iter()
            .map(|p| simulate_policy(&sc, p).map_err(StepError::Invalid))
            .collect()
    }

    /// The figure options for the step: its window, no title (the step's title goes above).
    pub fn layout_opts(&self) -> LayoutOpts {
        let (t0_ms, t1_ms) = self.window();
        LayoutOpts {
            t0_ms,
            t1_ms,
            title: None,
            ..LayoutOpts::default()
        }
    }

    /// The caption's paragraphs with every placeholder filled from `traces` (the step's runs,
    /// [`Step::traces`]). An error names a placeholder the runs cannot fill.
    pub fn caption(&self, traces: &[Trace]) -> Result<Vec<String>, String> {
        self.caption
            .iter()
            .map(|p| caption::expand(p, traces))
            .collect()
    }

    /// The rule ids the caption cites (`{rule:ID}`), in order of first citation.
    pub fn cited_rules(&self) -> Vec<Rule> {
        let mut out = Vec::new();
        for p in self.caption {
            for r in caption::cited(p) {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        out
    }

    /// The predict beat resolved on `traces`: `(t_ms, question)`; `None` without one, or when
    /// its instant never comes.
    pub fn predict(&self, traces: &[Trace]) -> Option<(Ms, String)> {
        let p = self.predict?;
        caption::resolve(p.from, traces).map(|t| (t, p.question.to_string()))
    }

    /// The marks resolved on `traces`, in time order; a mark whose rule never fires is left out.
    pub fn marks(&self, traces: &[Trace]) -> Vec<(Ms, String)> {
        let mut out: Vec<(Ms, String)> = self
            .marks
            .iter()
            .filter_map(|m| caption::resolve(m.at, traces).map(|t| (t, m.label.to_string())))
            .collect();
        out.sort_by_key(|(t, _)| *t);
        out
    }
}
