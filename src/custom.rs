//! The type of an imported base scenario, on its own so that `form.rs` and `url.rs` can hold one
//! without importing `imported.rs` (which builds settings from it).

use restartscope_sim::Scenario;

/// A scenario made from the reader's manifests (or a scenario file).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// `Deployment web (3 pods)`: the preset picker shows `Imported: <label>`.
    pub label: String,
    /// Validated by the model.
    pub scenario: Scenario,
    /// The `scenario=` value, or `None` when the link would be too long to share.
    pub packed: Option<String>,
}

/// The `preset` of settings with an imported base.
pub const IMPORTED: &str = "imported";
