//! The EndpointSlice controller: the endpoint conditions of each pod behind a Service, and one
//! EndpointSlice update per Service per instant in which any of its endpoints changed. Called by
//! the cluster at the end of each instant, with the pods the API server marked dirty.
//!
//! Mirrors `pkg/controller/endpointslice` and `staging/.../endpointslice/utils.go`
//! `podToEndpoint`: serving = PodReady, terminating = deletion timestamp set,
//! ready = serving ∧ ¬terminating; terminating pods stay listed.

use super::api::ApiServer;
use crate::core::NodeId;
use crate::rules::Rule;
use crate::scenario::Pod;
use crate::trace::recorder::Recorder;
use crate::trace::{Actor, EndpointValue, Kind, Ms, Value};

/// ES1 for one instant. `spec[node]` gives each node's pods (for their Service).
pub fn flush(api: &mut ApiServer, rec: &mut Recorder, now: Ms, spec: &[&[Pod]]) {
    if api.dirty_endpoints.is_empty() {
        return;
    }
    let mut dirty = std::mem::take(&mut api.dirty_endpoints);
    dirty.sort_unstable();
    dirty.dedup();
    // (service, first node whose endpoint changed, other nodes)
    let mut services: Vec<(&str, Vec<NodeId>)> = Vec::new();
    for (node, p) in dirty {
        let p = p as usize;
        let a = &mut api.pods[node as usize][p];
        let new = if a.removed {
            None
        } else {
            let serving = a.status.ready;
            let terminating = a.deleted_at.is_some();
            Some(EndpointValue {
                ready: serving && !terminating,
                serving,
                terminating,
            })
        };
        if new == a.endpoint {
            continue;
        }
        a.endpoint = new;
        rec.emit(
            now,
            node,
            Kind::Endpoint,
            Some(p),
            None,
            new.map(Value::Endpoint).unwrap_or(Value::None),
            Rule::ES1,
            Actor::EndpointsliceController,
        );
        let svc = spec[node as usize][p].service.as_deref().unwrap_or("");
        match services.iter_mut().find(|(s, _)| *s == svc) {
            Some((_, nodes)) => {
                if !nodes.contains(&node) {
                    nodes.push(node)
                }
            }
            None => services.push((svc, vec![node])),
        }
    }
    services.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (svc, nodes) in services {
        // One update per Service (counted once); each node whose endpoint it carries records it.
        rec.node_metrics(nodes[0]).endpointslice_updates += 1;
        for node in nodes {
            rec.emit(
                now,
                node,
                Kind::EndpointsliceUpdate,
                None,
                None,
                Value::Service(svc.to_string()),
                Rule::ES1,
                Actor::EndpointsliceController,
            );
        }
    }
}
