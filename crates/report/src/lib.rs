//! One reading of a RestartScope trace for every consumer: the CLI, the figure and the web app
//! call this crate instead of walking trace events themselves. No web crates.
//!
//! - [`timeline`]: every object of a trace as pieces of constant state, built once; state at
//!   any time `t` by binary search.
//! - [`notable`]: which events an event log shows.
//! - [`pdb`]: the PodDisruptionBudget's `disruptionsAllowed` over time.
//! - [`metrics`]: the one table of metric descriptors (title, unit, format, better direction),
//!   and the metrics at any time `t` ([`metrics_at`]).
//! - [`why`]: why pod Ready changed, grouped by rule, optionally up to a time.
//! - [`kubectl`]: the rows of `kubectl get pods -w`, up to a time.
//! - [`describe`](mod@describe): an event in plain words.
//! - [`json`], [`table`] and [`markdown`]: the CLI's `--format json`, `--format table` and
//!   `--format markdown` (the app's JSON download is [`json::render`] too).
//! - [`watch`]: what to watch in an animated figure, one sentence from the runs.

pub mod describe;
pub mod json;
pub mod kubectl;
pub mod markdown;
pub mod metrics;
pub mod notable;
pub mod pdb;
pub mod table;
pub mod timeline;
pub mod versions;
pub mod watch;
pub mod why;

pub use describe::describe;
pub use metrics::{metrics_at, Metric, METRICS};
pub use timeline::{State, Timeline, Track};
