//! The words the page writes about the runs on screen, from the runs themselves: each run's
//! whole-run totals (the numbers the figure's header prints) and the scenario line for settings
//! edited away from their preset's. No Kubernetes logic: counts and times read off the traces.
//! Called by `state.rs` (the alt text) and `components/controls.rs` (the scenario line).

use crate::state::Runs;

impl Runs {
    /// What each run did, whole-run totals: "1.35 · legacy (opt-in gate): 6 Ready transitions, 6
    /// EndpointSlice updates, 0 evictions; …" (the numbers the figure's header prints).
    pub fn counts(&self) -> String {
        let runs: Vec<String> = self
            .traces
            .iter()
            .map(|t| {
                let m = &t.metrics;
                format!(
                    "{}: {}, {}, {}",
                    t.kubelet,
                    restartscope_sim::plural(
                        m.ready_transitions.into(),
                        "Ready transition",
                        "Ready transitions"
                    ),
                    restartscope_sim::plural(
                        m.endpointslice_updates.into(),
                        "EndpointSlice update",
                        "EndpointSlice updates"
                    ),
                    restartscope_sim::plural(m.evictions.into(), "eviction", "evictions")
                )
            })
            .collect();
        runs.join("; ")
    }

    /// The scenario line for settings edited away from their preset's: the preset's own sentence
    /// described its own restart, so the words come from these runs instead.
    pub fn edited_words(&self, preset: &str) -> String {
        let rs = &self.scenario.kubelet.restarts;
        let restart = match rs.first() {
            None => "no kubelet restart".to_string(),
            Some(r) => format!(
                "{} at {} for {}{}{}",
                match r.what {
                    restartscope_sim::RestartKind::Kubelet => "the kubelet stops".to_string(),
                    k => format!("a {}", k.label()),
                },
                restartscope_sim::fmt_secs(r.at_s),
                restartscope_sim::fmt_secs(r.downtime_s),
                r.upgrade_to
                    .map(|v| format!(", the kubelet back as {}", v.as_str()))
                    .unwrap_or_default(),
                match rs.len() {
                    1 => String::new(),
                    2 => " (and 1 more restart)".to_string(),
                    n => format!(" (and {} more restarts)", n - 1),
                }
            ),
        };
        format!("Edited from {preset}: {restart}. {}.", self.counts())
    }
}
