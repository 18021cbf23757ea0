//! Helpers shared by the figure's unit tests: a preset's two traces (legacy and KEP-4781, as
//! `compare` runs them) and an SVG parsed as XML (failing the test, with the SVG, when it is not
//! well formed). Called by the `layout`, `animation` and `observed` tests. Mirrors no Kubernetes
//! file.

use restartscope_sim::{compare, presets, Trace};

pub(super) fn traces(name: &str) -> [Trace; 2] {
    let sc = (presets::find(name).unwrap().build)();
    compare(&sc).unwrap()
}

pub(super) fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"))
}
