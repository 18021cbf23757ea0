//! Fleet: a rolling kubelet restart across a cluster — what each kubelet profile costs the
//! control plane and the Services. Owns the fleet scenario (nodes, zones, pods per node from the
//! single-node pod template, Services, the rolling plan), its validation, and the run: one
//! cluster with zones, full events only for a few sampled nodes, totals and per-second series.
//! Called by the CLI (`restartscope fleet`) and, later, the app's fleet view.
//!
//! The control plane follows `node_lifecycle_controller.go` across nodes (zones, rate-limited
//! tainting, master disruption mode) and the EndpointSlice controller (slices of 100); see
//! `control_plane/zones.rs` and `control_plane/endpointslice.rs`.

pub mod edit;
pub mod run;
pub mod scenario;

pub use run::{compare, compare_with, profiles, run, run_with, FleetRun, Totals};
pub use scenario::*;
