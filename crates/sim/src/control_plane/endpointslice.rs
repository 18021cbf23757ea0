//! The EndpointSlice controller: the endpoint conditions of each pod behind a Service, each
//! Service's EndpointSlices of at most 100 endpoints, and one update per changed slice per
//! instant. A pod behind several Services (every Service whose selector matches it) has an
//! endpoint in each one's slices: the controller reconciles each Service on its own
//! (`Controller.syncService`), so a change of the pod updates a slice of every one of them. Owns
//! which slice each endpoint is in and how many endpoints of each Service are ready. Called by
//! the cluster at the end of each instant, with the pods the API server marked dirty.
//!
//! The conditions are the same in every Service's slice (`podToEndpoint` reads only the pod;
//! `publishNotReadyAddresses`, which makes `ready` true whatever the pod says, is not modelled),
//! so the trace keeps one endpoint state per pod.
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
    /// Per node, per pod: where its entries start in `slots` (one more than the pods: the end).
    place: Vec<Vec<u32>>,
    /// Per pod and Service it is behind: the Service and the slice its endpoint is in.
    slots: Vec<(u16, u32)>,
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
            .flat_map(|pods| {
                pods.iter()
                    .flat_map(|p| p.services.iter().map(String::as_str))
            })
            .collect();
        crate::core::sort::sort_dedup(&mut names);
        let mut listed = vec![0u32; names.len()];
        let mut slots = Vec::new();
        let place = spec
            .iter()
            .map(|pods| {
                let mut starts = Vec::with_capacity(pods.len() + 1);
                for p in pods.iter() {
                    starts.push(slots.len() as u32);
                    for svc in &p.services {
                        let Ok(s) = names.binary_search(&svc.as_str()) else {
                            continue;
                        };
                        if slots[*starts.last().unwrap() as usize..]
                            .iter()
                            .any(|&(x, _)| x as usize == s)
                        {
                            continue; // named twice: one endpoint
                        }
                        let slice = listed[s] / MAX_ENDPOINTS_PER_SLICE;
                        listed[s] += 1;
                        slots.push((s as u16, slice));
                    }
                }
                starts.push(slots.len() as u32);
                starts
            })
            .collect();
        EndpointSliceController {
            ready: listed.clone(),
            initial: listed.clone(),
            listed,
            names: names.into_iter().map(str::to_owned).collect(),
            place,
            slots,
            changed: Vec::new(),
            changed_len: 0,
        }
    }

    /// The (Service, slice) of each endpoint of pod `p` on `node`.
    fn endpoints_of(&self, node: usize, p: usize) -> std::ops::Range<usize> {
        let starts = &self.place[node];
        starts[p] as usize..starts[p + 1] as usize
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
            let range = self.endpoints_of(node as usize, p);
            if range.is_empty() {
                continue;
            }
            let a = &mut api.pods[node as usize][p];
            let new = if a.removed || a.failed {
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
            let gone = a.endpoint.is_some() && new.is_none();
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
            // The same endpoint in each of the pod's Services' slices.
            for k in range {
                let (svc, slice) = self.slots[k];
                let s = svc as usize;
                self.ready[s] = self.ready[s] + is_ready as u32 - was_ready as u32;
                if gone {
                    self.listed[s] -= 1;
                }
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
        let pod = |svc: &[&str]| Pod {
            name: "p".into(),
            workload: Workload::Deployment,
            owner: None,
            services: svc.iter().map(|s| s.to_string()).collect(),
            termination_grace_s: 30.0,
            init_containers: vec![],
            node_selector: Default::default(),
            node_affinity: vec![],
            tolerations: vec![],
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
            .map(|i| pod(if i % 2 == 0 { &["a"] } else { &["b"] }))
            .collect();
        let spec: Vec<&[Pod]> = (0..10).map(|_| node.as_slice()).collect();
        let c = EndpointSliceController::new(&spec);
        assert_eq!(c.names, vec!["a", "b"]);
        assert_eq!(c.listed, vec![150, 150]);
        let at = |n: usize, p: usize| -> Vec<(u16, u32)> { c.slots[c.endpoints_of(n, p)].to_vec() };
        assert_eq!(at(0, 0), [(0, 0)]);
        assert_eq!(at(9, 28), [(0, 1)], "the 150th endpoint of a is in slice 1");
    }

    #[test]
    fn a_pod_behind_two_services_has_an_endpoint_in_each() {
        let pod = |svc: &[&str]| Pod {
            name: "p".into(),
            workload: Workload::Deployment,
            owner: None,
            services: svc.iter().map(|s| s.to_string()).collect(),
            termination_grace_s: 30.0,
            init_containers: vec![],
            node_selector: Default::default(),
            node_affinity: vec![],
            tolerations: vec![],
            containers: vec![],
        };
        let node = vec![pod(&["web", "web-headless"]), pod(&[]), pod(&["web"])];
        let c = EndpointSliceController::new(&[node.as_slice()]);
        assert_eq!(c.names, vec!["web", "web-headless"]);
        assert_eq!(c.listed, vec![2, 1]);
        assert_eq!(c.slots[c.endpoints_of(0, 0)], [(0, 0), (1, 0)]);
        assert!(c.endpoints_of(0, 1).is_empty());
        assert_eq!(c.slots[c.endpoints_of(0, 2)], [(0, 0)]);
    }
}
