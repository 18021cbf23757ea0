//! One timeline layout for RestartScope traces, two renderers.
//!
//! [`layout`] turns traces (legacy and/or KEP-4781) into a [`Figure`]: plain positioned shapes.
//! The CLI writes [`Figure::to_svg`] to a file (the web app's SVG download too); the web app
//! draws the same shapes on a canvas with [`paint`] (the SVG's style as data, light and dark),
//! finds tooltips with [`Figure::title_at`] and places its playhead with [`Figure::x_of`] /
//! [`Figure::t_of`]. [`Figure::to_svg_inner`] and [`Figure::css`] are the two halves of the SVG,
//! for a host that supplies its own `<svg class="rs-figure">`.
//!
//! Every state drawn is read from the trace's `restartscope_report::Timeline` (built once per
//! trace; no lane replays events); at t = 0 the model is in steady state (kubelet up, node Ready,
//! pods Ready, endpoints ready). Nothing relies on colour alone: states carry text labels and
//! hatching, probe results differ in shape, writers are letters.
//!
//! Modules: `layout` (groups, header, stacking), `lanes` (one function per lane), `glyphs`
//! (every mark, shared with `legend`), `axis`, `builder` (the shape list), `geom` (sizes, time →
//! x), `figure` (the data types), `svg` (style, escaping, output), `paint` (the style as data).

mod animate;
mod axis;
mod builder;
mod figure;
mod geom;
mod glyphs;
mod lanes;
mod layout;
mod legend;
pub mod paint;
mod svg;

pub use animate::{counter_steps, header_steps, Animation};
pub use figure::{Figure, GroupBox, LayoutOpts, ObservedPod, ObservedStep, Shape};
pub use layout::{layout, layout_read, metrics_lines};
pub use svg::esc;

#[cfg(test)]
mod tests;
