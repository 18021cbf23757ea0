//! RestartScope's fleet view (`fleet/index.html`): a rolling kubelet restart across a cluster.
//! Two wasm binaries, so the page stays small and never blocks: `fleet-worker` (the `worker`
//! module: reads the query with the CLI's rules, runs `restartscope_sim::fleet` per kubelet
//! profile, posts progress and plain results) and `fleet-page` (the `page` module: controls,
//! progress bar, heatmap and charts drawn by `draw`, playback; no Kubernetes logic).
//! Imports point one way: `js`, `dom` ◄ `draw` ◄ `worker`; `results` ◄ `page`.

pub mod dom;
pub mod draw;
pub mod js;
pub mod page;
pub mod results;
pub mod worker;
