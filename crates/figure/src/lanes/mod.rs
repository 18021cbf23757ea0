//! The lanes, one function each, all reading the report timeline (never the events): node-level
//! lanes in [`node`] (kubelet, lease age, node Ready, taints), per-pod lanes in [`pod`] (Ready
//! with writer badges, probes, endpoint, eviction countdown; the observed lane of an incident's
//! evidence, drawn from `LayoutOpts::observed`). Each draws at a given `y`; the
//! group layout (`crate::layout`) stacks them.

pub mod node;
pub mod pod;

use restartscope_report::Timeline;
use restartscope_sim::{Ms, Trace};

/// One trace being drawn: the trace (names, policy, event words), its timeline, and the end of
/// the visible window for this trace.
pub struct Group<'a> {
    pub tr: &'a Trace,
    pub tl: &'a Timeline,
    pub end: Ms,
}
