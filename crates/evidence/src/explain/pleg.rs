//! What the kubelet's words about its PLEG say about its start: a leaf, read by `restarts` (a
//! runtime outage's signature leaves the kubelet's first seconds out), `facts` (the reasons'
//! words) and `answer` (whether a kubelet restart shows). Mirrors `pkg/kubelet/pleg/generic.go`
//! `Healthy` and `pkg/kubelet/runtime.go` `runtimeErrors`.

use crate::types::{Obs, What};

/// A message saying the kubelet's PLEG has not relisted once since the kubelet started: the
/// PLEG's `Healthy` (`pkg/kubelet/pleg/generic.go`) says "pleg has yet to be successful" while
/// its relist time is zero, or, before that wording, "last seen active
/// 2562047h47m16.854775807s ago" (Go's largest duration: now minus a zero time). Every kubelet
/// says it in its first seconds after a start (kubernetes#69007, #122338); it lasts only while
/// the runtime has not answered since. "container runtime status check may not have completed
/// yet" (`runtimeErrors`, `pkg/kubelet/runtime.go`) alone is not this: beside a PLEG that did
/// relist (kubernetes#101056, "last seen active 16m6s ago") it is a runtime that stopped
/// answering.
pub(crate) fn kubelet_first_seconds(m: &str) -> bool {
    m.contains("pleg has yet to be successful") || m.contains("2562047h47m16.854775807s")
}

/// Whether a kubelet's own words show it had just started (`kubelet_first_seconds`).
pub(crate) fn start_said(obs: &[Obs]) -> bool {
    obs.iter().any(|o| match &o.what {
        What::NodeNotReadyBecause(m) | What::RuntimeDown(m) => kubelet_first_seconds(m),
        _ => false,
    })
}
