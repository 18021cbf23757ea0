//! The benchmark workload (one node, one simulated hour) in wasm32, run by wasm-bindgen-test-runner in Node (no browser needed):
//! prints the same table and `RESULT` lines as the native `examples/scale.rs`.
//! A benchmark, not a test: run it through `scripts/bench-wasm.sh` (`make bench`), which builds
//! with the `bench` profile and compares with native.
#![cfg(target_arch = "wasm32")]

use restartscope_bench_wasm::workload;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[wasm_bindgen]
extern "C" {
    /// Milliseconds with sub-millisecond resolution (Node and browsers).
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

#[wasm_bindgen_test]
fn one_node_one_hour_workload() {
    let report = workload::measure(&|| now(), 5);
    console_log!("{report}");
}
