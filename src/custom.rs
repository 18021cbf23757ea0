//! The type of an imported base scenario, on its own so that `form.rs` and `url.rs` can hold one
//! without importing `imported.rs` (which builds settings from it).

use restartscope_figure::ObservedPod;
use restartscope_sim::Scenario;

/// A scenario made from the reader's manifests (or a scenario file).
#[derive(Clone, Debug)]
pub struct Imported {
    /// `Deployment web (3 pods)`: the preset picker shows `Imported: <label>`.
    pub label: String,
    /// Validated by the model.
    pub scenario: Scenario,
    /// The `scenario=` value, or `None` when the link would be too long to share.
    pub packed: Option<String>,
    /// Evidence replayed beside the model (as `restartscope replay` does): each pod's observed Ready, on the
    /// model's axis, and the note that says how the clocks were aligned. Not in the link.
    pub observed: Vec<ObservedPod>,
    pub observed_note: Option<String>,
}

/// The `preset` of settings with an imported base.
pub const IMPORTED: &str = "imported";

/// The same import (one object), or the same packed scenario and label: no deep comparison of
/// the scenario (its code would weigh on the page's bundle).
impl PartialEq for Imported {
    fn eq(&self, other: &Imported) -> bool {
        std::ptr::eq(self, other)
            || (self.packed.is_some() && self.packed == other.packed && self.label == other.label)
    }
}
