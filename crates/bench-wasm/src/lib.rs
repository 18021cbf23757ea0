//! The model's benchmark workload (one node, one simulated hour), for the wasm32 run (`tests/wasm.rs`, `scripts/bench-wasm.sh`).
//! The module is the very file the criterion bench and `examples/scale.rs` of `restartscope-sim`
//! use, so native and wasm figures come from the same code.

#[path = "../../sim/benches/workload/mod.rs"]
pub mod workload;
