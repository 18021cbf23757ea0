//! The EndpointSlice controller: the endpoint conditions of each pod behind a Service, its
//! EndpointSlices of at most 100 endpoints, and one update per changed slice per instant. Owns
//! which slice each endpoint is in and how many endpoints of each Service are ready. Called by
//! the cluster at the end of each instant, with the pods the API server marked dirty.
//!
//! Mirrors `pkg/controller/endpointslice` (`--max-endpoints-per-slice` 100; the reconciler
//! updates only the slices whose endpoints changed; `--endpointslice-updates-batch-period` 0, so
//! changes within one instant coalesce) and `staging/.../endpointslice/utils.go`
//! `podToEndpoint`: serving = PodReady, terminating = deletion timestamp set,
//! ready = serving ∧ ¬terminating; terminating pods stay listed.

use super::api::ApiServer;
use crate::rules::Rule;
use crate::scenario::Pod;
use crate::trace::recorder::Recorder;
use crate::trace::{Actor, EndpointValue, Kind, Ms, NodeId, Value};

/// `--max-endpoints-per-slice`.
pub const MAX_ENDPOINTS_PER_SLICE: u32 = 100;

pub struct EndpointSliceController {
    /// Service names, sorted.
    pub names: Vec<String>,
    /// Per node, per pod: its Service and the slice its endpoint is in.
    place: Vec<Vec<Option<(u16, u32)>>>,
    /// Ready endpoints per Service.
    pub ready: Vec<u32>,
    /// Listed endpoints per Service.
    pub listed: Vec<u32>,
    /// Endpoints per Service at the start.
    initial: Vec<u32>,
    /// `flush`'s per-Service changes (the first `changed_len` are this instant's); kept, with
    /// their lists, to reuse their memory from instant to instant.
    changed: Vec<(u16, Vec<NodeId>, Vec<u32>)>,
    changed_len: usize,
}

impl EndpointSliceController {
    /// Every pod with a Service listed and ready (the steady state); endpoints fill slices in
    /// node, then pod order.
    pub fn new(spec: &[&[Pod]]) -> Self {
        let mut names: Vec<&str> = spec
            .iter()
            .flat_map(|pods| pods.iter().filter_map(|p| p.service.as_deref()))
            .collect();
        crate::core::sort::sort_dedup(&mut names);
        let mut listed = vec![0u32; names.len()];
        let place = spec
            .iter()
            .map(|pods| {
                pods.iter()
                    .map(|p| {
                        let s = names.binary_search(&p.service.as_deref()?).ok()?;
                        let slice = listed[s] / MAX_ENDPOINTS_PER_SLICE;
                        listed[s] += 1;
                        Some((s as u16, slice))
                    })
                    .collect()
            })
            .collect();
        EndpointSliceController {
            ready: listed.clone(),
            initial: listed.clone(),
            listed,
            names: names.into_iter().map(str::to_owned).collect(),
            place,
            changed: Vec::new(),
            changed_len: 0,
        }
    }

    /// Ready endpoints ÷ endpoints listed at the start, per Service.
    pub fn ready_share(&self) -> impl Iterator<Item = f32> + '_ {
        self.ready
            .iter()
            .zip(&self.initial)
            .map(|(r, l)| if *l == 0 { 0.0 } else { *r as f32 / *l as f32 })
    }

    /// ES1 for one instant.
    pub fn flush(&mut self, api: &mut ApiServer, rec: &mut Recorder, now: Ms) {
        if api.dirty_endpoints.is_empty() {
            return;
        }
        let mut dirty = std::mem::take(&mut api.dirty_endpoints);
        crate::core::sort::sort_dedup(&mut dirty);
        // Per Service: the nodes whose endpoints changed (first = the one counted) and slices.
        self.changed_len = 0;
        for &(node, p) in &dirty {
            let p = p as usize;
            let Some((svc, slice)) = self.place[node as usize][p] else {
                continue;
            };
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
            let was_ready = a.endpoint.is_some_and(|e| e.ready);
            let is_ready = new.is_some_and(|e| e.ready);
            let s = svc as usize;
            self.ready[s] = self.ready[s] + is_ready as u32 - was_ready as u32;
            if a.endpoint.is_some() && new.is_none() {
                self.listed[s] -= 1;
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
            let used = &mut self.changed[..self.changed_len];
            match used.iter_mut().find(|(s, _, _)| *s == svc) {
                Some((_, nodes, slices)) => {
                    if !nodes.contains(&node) {
                        nodes.push(node);
                    }
                    if !slices.contains(&slice) {
                        slices.push(slice);
                    }
                }
                None => {
                    if self.changed_len == self.changed.len() {
                        self.changed.push((svc, Vec::new(), Vec::new()));
                    }
                    let (s, nodes, slices) = &mut self.changed[self.changed_len];
                    *s = svc;
                    nodes.clear();
                    nodes.push(node);
                    slices.clear();
                    slices.push(slice);
                    self.changed_len += 1;
                }
            }
        }
        dirty.clear();
        api.dirty_endpoints = dirty;
        let changed = &mut self.changed[..self.changed_len];
        // One entry per Service: the unstable sort gives the one order.
        crate::core::sort::sort_unstable_by_key(changed, |c| c.0);
        for (svc, nodes, slices) in changed.iter() {
            // One update per changed slice (counted on the first node whose endpoint it
            // carries); each node whose endpoint changed records the Service's update.
            rec.node_metrics(nodes[0]).endpointslice_updates += slices.len() as u32;
            if let Some(s) = rec.series.as_mut() {
                s.count_slice_updates(now, slices.len() as u32);
            }
            for &node in nodes {
                if !rec.keeps(node) {
                    continue;
                }
                rec.emit(
                    now,
                    node,
                    Kind::EndpointsliceUpdate,
                    None,
                    None,
                    Value::Service(self.names[*svc as usize].clone()),
                    Rule::ES1,
                    Actor::EndpointsliceController,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Container, Workload};

    #[test]
    fn endpoints_fill_slices_of_one_hundred() {
        let pod = |svc: &str| Pod {
            name: "p".into(),
            workload: Workload::Deployment,
            service: Some(svc.into()),
            termination_grace_s: 30.0,
            init_containers: vec![],
            containers: vec![Container {
                name: "c".into(),
                restart_policy: None,
                startup_probe: None,
                readiness_probe: None,
                liveness_probe: None,
                warmup_s: 0.0,
                truth: vec![],
            }],
        };
        let node: Vec<Pod> = (0..30)
            .map(|i| pod(if i % 2 == 0 { "a" } else { "b" }))
            .collect();
        let spec: Vec<&[Pod]> = (0..10).map(|_| node.as_slice()).collect();
        let c = EndpointSliceController::new(&spec);
        assert_eq!(c.names, vec!["a", "b"]);
        assert_eq!(c.listed, vec![150, 150]);
        assert_eq!(c.place[0][0], Some((0, 0)));
        assert_eq!(
            c.place[9][28],
            Some((0, 1)),
            "the 150th endpoint of a is in slice 1"
        );
    }
}
