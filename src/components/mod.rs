//! The page's parts, one component (or two) per file. Each takes the shared state with
//! `Ui::get()` and reads runs through `state::Runs` and the report crate; none imports another
//! component or `app.rs`, which puts them together.

pub mod controls;
pub mod event_log;
pub mod export;
pub mod help;
pub mod import;
pub mod kubectl;
pub mod lanes;
pub mod metrics;
pub mod notices;
pub mod params;
pub mod pdb;
pub mod presenter;
pub mod qr;
pub mod restarts;
pub mod tour;
pub mod why;
