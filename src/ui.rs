//! The page's shared state: one `Ui` of signals that `app.rs` creates and provides as context,
//! and the commands the buttons and the keyboard share (play, step, seek, pick a scenario). The
//! components and `keys.rs` take it with `Ui::get()`. The runs themselves are `state::Runs`.

use crate::form::{Field, Settings};
use crate::state::{Lane, Runs};
use crate::url::{self, Role, Theme, UrlState};
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct Ui {
    pub settings: RwSignal<Settings>,
    /// Messages per form field from the last computation (empty when it was valid).
    pub errors: RwSignal<Vec<(Field, String)>>,
    /// The last valid runs (kept while the settings are invalid). The figure, its handles and
    /// the slider marks follow these at once.
    pub runs: RwSignal<Option<Runs>>,
    /// The runs the panels (metrics, why, kubectl, event log, PDB) show: `runs`, except while
    /// the settings change under a held pointer (a drag), when they catch up once the edits
    /// rest for `app::PANEL_REST_MS` or the pointer is let go, so each move redraws only the figure (drawn within one frame of the move).
    pub panels: RwSignal<Option<Runs>>,
    /// Bumped when a drag rests or ends: the runs are laid out again with the tooltips the
    /// held slider's layouts left out, and the panels show them.
    pub relayout: RwSignal<u32>,
    /// The settings `runs` were simulated from: the only settings the address bar and a copied
    /// link ever hold (a rejected setting is never simulated, never shared).
    pub valid: RwSignal<Option<Settings>>,
    /// The runs' labels and policies; changes only when the set of kubelets does.
    pub lanes: Memo<Vec<Lane>>,
    pub playhead: RwSignal<i64>,
    pub playing: RwSignal<bool>,
    /// Index into `state::SPEEDS`.
    pub speed: RwSignal<usize>,
    /// Milliseconds the last recompute took (footer).
    pub compute_ms: RwSignal<f64>,
    /// Ignored link parameters, in words.
    pub notices: RwSignal<Vec<String>>,
    /// The reader's choice; `None` follows the system.
    pub theme: RwSignal<Option<Theme>>,
    pub system_dark: RwSignal<bool>,
    pub present: RwSignal<bool>,
    /// This window's part in the presenter view (`present.rs`); `None` outside it.
    pub role: RwSignal<Option<Role>>,
    pub zoom: RwSignal<bool>,
    pub help: RwSignal<bool>,
    /// The everyday view draws every pod, however tall the figure (the reader asked: "Draw
    /// every pod" under a figure that leaves some out to fit the window).
    pub every_pod: RwSignal<bool>,
    /// The presenter's QR code is shown large (`components/qr.rs`).
    pub qr_big: RwSignal<bool>,
    /// The "Import your workload" panel is open.
    pub import_open: RwSignal<bool>,
    /// The tab is visible and the page on screen.
    pub visible: RwSignal<bool>,
    /// CSS px width the figure is shown at (10-px steps), for its layout (`state::figure_spec`).
    pub shown_w: RwSignal<f64>,
    /// CSS px height of the window (10-px steps): how tall the figure may be in presentation
    /// view and the embed.
    pub view_h: RwSignal<f64>,
    /// CSS px from the top of the page to the figure's (10-px steps): how tall the everyday
    /// view's figure may be (`state::figure_spec`).
    pub fig_top: RwSignal<f64>,
    /// The device pixel ratio the figure's canvas is drawn at (a zoom or another screen changes
    /// it).
    pub dpr: RwSignal<f64>,
    /// The guided tour on screen and its step (from 1); `None` in free play.
    pub tour: RwSignal<Option<(String, usize)>>,
    /// The tour step's "predict, then reveal" beat is over (or it has none): the figure is shown
    /// whole. False while the question is asked and the figure is veiled after its instant.
    pub revealed: RwSignal<bool>,
    /// What the tour panel shows for the step on screen (set with the runs).
    pub step: RwSignal<Option<crate::tour::StepView>>,
    /// Bumped when a tour's data has loaded (`tour::load`): the runs are computed again.
    pub tours_loaded: RwSignal<u32>,
    pub copied: RwSignal<bool>,
    /// Earlier settings, newest last (`undo`); `app.rs` records one per edit.
    pub history: StoredValue<Vec<Settings>>,
    /// How many settings `history` holds (the Undo button's state).
    pub undo_len: RwSignal<usize>,
    /// The next settings change starts a new undo step (a discrete edit, not a drag's move).
    pub fresh_edit: StoredValue<bool>,
    /// The next settings change is an undo (not recorded).
    pub undoing: StoredValue<bool>,
    /// Why the last restart edit was refused (`restarts.rs`: the cap, the last restart).
    pub restart_msg: RwSignal<Option<String>>,
    /// The restart the sliders and a dragged bar edit (index into `Settings::restarts`).
    pub sel_restart: RwSignal<usize>,
    pub embed: bool,
    pub reduced: bool,
}

impl Ui {
    /// The state a link describes (autoplay unless it pins a time or motion is reduced).
    pub fn new(initial: UrlState, notices: Vec<String>, reduced: bool, system_dark: bool) -> Ui {
        let runs = RwSignal::new(None::<Runs>);
        Ui {
            settings: RwSignal::new(initial.settings),
            errors: RwSignal::new(Vec::new()),
            runs,
            panels: RwSignal::new(None),
            relayout: RwSignal::new(0),
            valid: RwSignal::new(None),
            lanes: Memo::new(move |_| {
                runs.with(|r| r.as_ref().map(Runs::lanes).unwrap_or_default())
            }),
            playhead: RwSignal::new(initial.t_ms.unwrap_or(0)),
            playing: RwSignal::new(initial.t_ms.is_none() && !reduced),
            speed: RwSignal::new(initial.speed.unwrap_or(crate::state::DEFAULT_SPEED)),
            compute_ms: RwSignal::new(0.0),
            notices: RwSignal::new(notices),
            theme: RwSignal::new(initial.theme),
            system_dark: RwSignal::new(system_dark),
            present: RwSignal::new(initial.present),
            role: RwSignal::new(initial.role),
            zoom: RwSignal::new(initial.zoom),
            help: RwSignal::new(false),
            qr_big: RwSignal::new(false),
            every_pod: RwSignal::new(false),
            import_open: RwSignal::new(false),
            visible: RwSignal::new(true),
            shown_w: RwSignal::new(crate::env::figure_width()),
            view_h: RwSignal::new(crate::env::view_height()),
            fig_top: RwSignal::new(crate::state::figure_top_guess(crate::env::figure_width())),
            dpr: RwSignal::new(crate::env::device_pixel_ratio()),
            tour: RwSignal::new(initial.tour.clone()),
            step: RwSignal::new(None),
            revealed: RwSignal::new(true),
            tours_loaded: RwSignal::new(0),
            copied: RwSignal::new(false),
            history: StoredValue::new(Vec::new()),
            undo_len: RwSignal::new(0),
            fresh_edit: StoredValue::new(false),
            undoing: StoredValue::new(false),
            restart_msg: RwSignal::new(None),
            sel_restart: RwSignal::new(0),
            embed: initial.embed,
            reduced,
        }
    }

    /// The `Ui` that `App` provides.
    pub fn get() -> Ui {
        expect_context::<Ui>()
    }

    pub fn effective_theme(&self) -> Theme {
        self.theme.get().unwrap_or(if self.system_dark.get() {
            Theme::Dark
        } else {
            Theme::Light
        })
    }

    /// The end of the runs (ms); 1 before the first computation.
    pub fn horizon(&self) -> i64 {
        self.runs
            .with(|r| r.as_ref().map(|r| r.horizon).unwrap_or(1))
    }

    /// The messages for one field, joined.
    pub fn err_for(&self, f: Field) -> String {
        self.errors.with(|es| errors_of(es, f))
    }

    /// Pause and put the playhead at `t`.
    pub fn seek(&self, t: i64) {
        self.playing.set(false);
        self.playhead.set(t);
    }

    /// Opens step `n` of `name` (or the first step of the KEP-4781 tour).
    pub fn open_tour(&self, name: &str, n: usize) {
        self.tour.set(Some((name.to_string(), n)));
    }

    /// The next (previous) step of the tour on screen; false outside a tour or past its ends.
    pub fn step_tour(&self, forward: bool) -> bool {
        let Some((name, n)) = self.tour.get_untracked() else {
            return false;
        };
        // Forward on a question: the answer first (the figure unveiled and played from there).
        if forward && self.reveal() {
            return true;
        }
        let count = crate::tour::count(&name);
        let next = if forward { n + 1 } else { n.saturating_sub(1) };
        if (1..=count).contains(&next) {
            self.tour.set(Some((name, next)));
        }
        true
    }

    /// To the next (previous) event of the log.
    pub fn step_event(&self, forward: bool) {
        let now = self.playhead.get_untracked();
        let target = self
            .runs
            .with_untracked(|r| r.as_ref().and_then(|r| r.step_from(now, forward)));
        if let Some(t) = target {
            self.seek(t);
        }
    }

    /// Play or pause; playing from the end starts again at 0.
    /// Shows what a tour step's question veiled and plays it from there; false when nothing
    /// was veiled.
    pub fn reveal(&self) -> bool {
        if self.revealed.get_untracked() {
            return false;
        }
        self.revealed.set(true);
        self.playing.set(true);
        true
    }

    /// The time after which the figure is veiled (a tour step's question not yet answered).
    pub fn veiled_from(&self) -> Option<i64> {
        if self.revealed.get() {
            return None;
        }
        self.step
            .with(|s| s.as_ref().and_then(|s| s.predict.as_ref().map(|p| p.0)))
    }

    pub fn toggle_play(&self) {
        // Play on a question reveals the answer.
        if self.reveal() {
            return;
        }
        let end = self
            .runs
            .with_untracked(|r| r.as_ref().map(|r| r.horizon).unwrap_or(1));
        if !self.playing.get_untracked() && self.playhead.get_untracked() >= end {
            self.playhead.set(0);
        }
        self.playing.update(|p| *p = !*p);
    }

    /// Back to 0 s and play.
    pub fn restart(&self) {
        self.playhead.set(0);
        self.playing.set(true);
    }

    /// A scenario with its own values in every field, from 0 s.
    pub fn pick_preset(&self, name: &str) {
        self.settings.set(Settings::for_preset(name));
        self.playhead.set(0);
        self.playing.set(!self.reduced);
    }

    /// A discrete edit of the settings (one undo step of its own).
    pub fn edit(&self, f: impl FnOnce(&mut Settings)) {
        self.fresh_edit.set_value(true);
        self.settings.update(f);
    }

    /// Takes the last edit back (the playhead keeps its place); false when there is none.
    pub fn undo(&self) -> bool {
        let mut prev = None;
        self.history.update_value(|h| prev = h.pop());
        self.undo_len.set(self.history.with_value(|h| h.len()));
        let Some(prev) = prev else { return false };
        self.undoing.set_value(true);
        self.restart_msg.set(None);
        self.settings.set(prev);
        true
    }

    /// Records `before` as the state an undo returns to (at most 100 steps).
    pub fn record(&self, before: Settings) {
        self.history.update_value(|h| {
            h.push(before);
            if h.len() > 100 {
                h.remove(0);
            }
        });
        self.undo_len.set(self.history.with_value(|h| h.len()));
    }

    /// An edit of the restart list; a refused one leaves the list and says why.
    pub fn edit_restarts(
        &self,
        f: impl FnOnce(&[restartscope_sim::Restart]) -> Result<Vec<restartscope_sim::Restart>, String>,
    ) {
        let list = self.settings.with_untracked(Settings::restarts);
        match f(&list) {
            Ok(next) if next != list => {
                self.restart_msg.set(None);
                self.edit(|s| s.set_restarts(next));
                let n = self.settings.with_untracked(|s| s.restarts().len());
                if self.sel_restart.get_untracked() >= n {
                    self.sel_restart.set(n - 1);
                }
            }
            Ok(_) => {}
            Err(m) => self.restart_msg.set(Some(m)),
        }
    }

    /// The kind chosen beside the slider: the selected restart's (what `K` and "Add a restart"
    /// add).
    pub fn chosen_kind(&self) -> restartscope_sim::RestartKind {
        let i = self.sel_restart.get();
        self.settings.with(|s| {
            let l = s.restarts();
            l[i.min(l.len() - 1)].what
        })
    }

    /// Which restart of the chosen kind is down at the playhead (the K button's word).
    pub fn kubelet_down_now(&self) -> Option<usize> {
        let t = self.playhead.get() as f64 / 1000.0;
        let what = self.chosen_kind();
        self.settings
            .with(|s| crate::restarts::down_at(&s.restarts(), t, what))
    }

    /// `K`: stops the kubelet (or the runtime, or the node: the chosen kind) at the playhead,
    /// or starts it there when it is down. Both runs are recomputed; the playhead keeps its
    /// place and playing goes on.
    pub fn toggle_kubelet(&self) {
        let t = self.playhead.get_untracked() as f64 / 1000.0;
        let horizon = self.horizon() as f64 / 1000.0;
        let what = untrack(|| self.chosen_kind());
        self.edit_restarts(|l| crate::restarts::toggle_at(l, t, horizon, what));
        if let Some(i) = self
            .settings
            .with_untracked(|s| crate::restarts::down_at(&s.restarts(), t, what))
        {
            self.sel_restart.set(i);
        }
    }

    /// The model rejects the settings in the form: nothing was simulated from them.
    pub fn rejected(&self) -> bool {
        self.errors.with(|e| !e.is_empty())
    }

    /// What the query string holds (the playhead tracked only while paused, not every frame):
    /// the settings of the runs on screen; `None` before any setting was valid.
    pub fn url_state(&self) -> Option<UrlState> {
        let settings = self.valid.get()?;
        Some(UrlState {
            settings,
            t_ms: Some(if self.playing.get() {
                self.playhead.get_untracked()
            } else {
                self.playhead.get()
            }),
            speed: Some(self.speed.get()),
            theme: self.theme.get(),
            embed: self.embed,
            present: self.present.get(),
            role: self.role.get(),
            zoom: self.zoom.get(),
            tour: self.tour.get(),
        })
    }

    /// The whole link to this screen, playhead included: the last valid settings, never a
    /// rejected one (before any valid setting, the page without parameters).
    pub fn link(&self) -> String {
        self.link_as(self.embed)
    }

    /// The link the presenter's QR code carries (`components/qr.rs`): the same settings, tour
    /// step and zoom, in the everyday view from 0 s in the phone's own theme (no playhead, so
    /// the code stays still while the run plays).
    pub fn audience_link(&self) -> String {
        let Some(st) = self.url_state() else {
            return String::new();
        };
        let q = url::to_query(&UrlState {
            t_ms: None,
            speed: None,
            theme: None,
            embed: false,
            present: false,
            role: None,
            ..st
        });
        page_link(&q)
    }

    /// The same screen in the full view (the embed's "Open full view" link).
    pub fn full_link(&self) -> String {
        self.link_as(false)
    }

    fn link_as(&self, embed: bool) -> String {
        let q = self
            .url_state()
            .map(|st| {
                url::to_query(&UrlState {
                    t_ms: Some(self.playhead.get_untracked()),
                    embed,
                    role: None,
                    ..st
                })
            })
            .unwrap_or_default();
        page_link(&q)
    }
}

/// This page's address (without query or fragment) with query `q` (none when empty).
pub fn page_link(q: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split(['?', '#']).next().unwrap_or("").to_string())
        .unwrap_or_default();
    if q.is_empty() {
        base
    } else {
        format!("{base}?{q}")
    }
}

/// The messages for one field in a list of messages, joined (`Ui::err_for`).
pub fn errors_of(es: &[(Field, String)], f: Field) -> String {
    es.iter()
        .filter(|(g, _)| *g == f)
        .map(|(_, m)| m.as_str())
        .collect::<Vec<_>>()
        .join("; ")
}
