//! Helpers shared by the figure's unit tests: a preset's two traces (legacy and KEP-4781, as
//! `compare` runs them) and an SVG parsed as XML (failing the test, with the SVG, when it is not
//! well formed). Called by the `layout`, `animation` and `observed` tests. Mirrors no Kubernetes
//! file.

use restartscope_sim::{compare, compare_default, presets, Trace};

pub(super) fn traces(name: &str) -> [Trace; 2] {
    let sc = (presets::find(name).unwrap().build)();
    compare(&sc).unwrap()
}

/// A preset's runs as the app draws them: legacy and KEP-4781, or the legacy kubelet alone for a
/// release (and its upgrades) before 1.35.
pub(super) fn runs(name: &str) -> Vec<Trace> {
    let sc = (presets::find(name).unwrap().build)();
    compare_default(&sc).unwrap()
}

pub(super) fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"))
}
