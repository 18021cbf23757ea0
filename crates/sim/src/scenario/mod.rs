//! Scenario: what the user sets up. Plain serde data, readable as TOML and JSON (preset files,
//! scenario files, the CLI's JSON output), with the Kubernetes defaults. Built by `presets`, the
//! CLI (`--scenario`) and the web form; read by the engine.
//!
//! Durations are seconds (`*_s`, decimals allowed); the engine works in integer milliseconds.
//!
//! - `types.rs`: [`Scenario`] and its parts, [`Policy`], [`KubeVersion`], the defaults;
//!   `kinds.rs`: what a restart stops ([`RestartKind`]) and a probe's [`Handler`]; `node.rs`:
//!   the node object's labels and taints and a pod's node selector, affinity and tolerations;
//!   `one_or_many.rs`: a pod's Services read from one name or a list; `owner.rs`: the workload
//!   that made a pod ([`Owner`]) and the names its controller gives its pods.
//! - `validate.rs`: what is accepted ([`Scenario::validate`], [`limits`], [`FieldError`]).
//! - `knobs.rs`: the number of pods and any probe of any container (`with_pods`, `with_probe`).
//! - `json.rs`: a Scenario to and from JSON with serde_json, errors naming the field's path
//!   ([`Scenario::from_json`], [`Scenario::to_json`]).
//! - `edit.rs`: the one way the CLI and the app change a scenario ([`Overrides`],
//!   `Scenario::with_*`).
//!
//! Imports go one way: `types` ← `validate` ← `edit`, and this file only re-exports them.

mod check;
mod edit;
pub mod json;
mod kinds;
mod knobs;
mod node;
pub(crate) mod one_or_many;
mod owner;
mod pods;
mod types;
mod validate;

pub use check::{dns_subdomain_ok, limits, FieldError, SUBDOMAIN};
pub use edit::{Overrides, MIN_TAIL_S};
pub use knobs::{
    parse_probe_key, probe_key, ProbeChange, ProbeEdit, ProbeField, ProbeKey, ProbeOverrides,
    MAX_PODS,
};
pub use node::{
    affinity_matches, selector_matches, untolerated, Effect, NodeChange, NodeObject, Operator,
    Requirement, SelectorOp, SelectorTerm, Taint, Toleration,
};
pub use types::*;
