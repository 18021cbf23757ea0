//! Probes that cannot answer: an exec probe while the container runtime is down (R2), a gRPC
//! probe of a container whose port is still closed. Called by the probe workers' `doProbe`
//! (`worker.rs`).
//!
//! Mirrors `pkg/kubelet/prober/prober.go` (`runProbe`: an exec probe through CRI `ExecSync`;
//! `worker.go` `doProbe`: "Prober error, throw away the result") and
//! `pkg/probe/grpc/grpc.go` (`Probe`: the dial, with `grpc.WithBlock()` before #142457).

use crate::core::Ctx;
use crate::node::kubelet::Kubelet;
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::trace::{Actor, Kind, Ms, Value};

impl Kubelet<'_> {
    /// R2: an exec probe runs through the runtime (CRI `ExecSync`); while it does not answer the
    /// probe errors and `doProbe` throws the result away ("Prober error, throw away the
    /// result"): no result, no run counted, no kill. httpGet, tcpSocket and grpc probes reach
    /// the container's network, which its sandbox keeps. Returns whether this probe errored
    /// (recorded as a probe with an Unknown result).
    #[inline]
    pub fn probe_thrown_away(
        &self,
        cx: &mut Ctx,
        rt: &Runtime,
        p: usize,
        c: usize,
        kind: crate::trace::ProbeKind,
    ) -> bool {
        // The runtime's state first: it is up on nearly every tick.
        !rt.up && self.probe_errors_without_runtime(cx, p, c, kind)
    }

    fn probe_errors_without_runtime(
        &self,
        cx: &mut Ctx,
        p: usize,
        c: usize,
        kind: crate::trace::ProbeKind,
    ) -> bool {
        if !self
            .probe(p, c, kind)
            .is_some_and(|pr| pr.handler.via_runtime())
        {
            return false;
        }
        cx.emit(
            Kind::Probe,
            Some(p),
            Some(c),
            Value::Probe(crate::trace::ProbeValue {
                probe: kind,
                result: crate::trace::Outcome::Unknown,
                run: 0,
                threshold: 0,
            }),
            Rule::R2,
            Actor::Kubelet,
        );
        true
    }

    /// A gRPC probe of a container still warming up meets a closed port (connection refused):
    /// before #142457 (v1.38.0-alpha.2) the kubelet's gRPC prober dialled with
    /// `grpc.WithBlock()` and failed only at `timeoutSeconds`; from it, a refused connection fails
    /// the probe at once. `Some(how long it takes)` for such a probe, `None` for every other.
    pub fn grpc_refused(
        &self,
        rt: &Runtime,
        p: usize,
        c: usize,
        kind: crate::trace::ProbeKind,
        now: Ms,
    ) -> Option<Ms> {
        // A warm container's port is open: the spec is read only for one still warming up.
        let r = &rt.pods[p][c];
        if !(r.running && now < r.warm_at) {
            return None;
        }
        let pr = self.probe(p, c, kind)?;
        if pr.handler != crate::scenario::Handler::Grpc {
            return None;
        }
        Some(if self.profile.rules.grpc_refused_fails_at_once {
            0
        } else {
            pr.timeout_s as Ms * 1000
        })
    }
}
