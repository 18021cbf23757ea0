//! The control plane around the nodes: the API server (the only writer of API objects), the
//! node lifecycle controller, the taint eviction controller and the EndpointSlice controller.
//! Controllers read and write API objects through `api`; the cluster routes their reactions.

pub mod api;
pub mod endpointslice;
pub mod node_lifecycle;
pub mod taint_eviction;
pub mod zones;
