//! The figure crate's unit tests, by subject: `layout` (the static figure: groups, lanes,
//! window, width, escaping, the style and its themes, the legend, tooltips), `animation` (the
//! counters' steps, the CSS-keyframe animation and its single moments), `observed` (`replay`'s
//! observed lanes under the modelled ones), `kinds` (runtime restarts, node reboots, upgrades,
//! node Ready=False and the taints' keys), `tooltips` (the figure laid out without its pods'
//! tooltips); `common` holds their helpers (a preset's traces, the
//! SVG parsed). Run by `cargo test -p restartscope-figure`. Mirrors no Kubernetes file.

mod animation;
mod common;
mod kinds;
mod layout;
mod observed;
mod tooltips;
