//! Core of the engine, shared by every actor: simulated time, keyed random draws, the one event
//! queue and the context a handler runs in. Depends on nothing else in the crate but the trace
//! types; every actor module depends on it.

pub mod few;
pub mod queue;
pub mod rng;
pub mod sort;
pub mod time;

pub use few::Few;
pub use queue::{Ctx, Ev, NodeId, Queue, What};
pub use time::ms;
