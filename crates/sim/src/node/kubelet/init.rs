//! Pod initialization after a kubelet restart (K3i): whether SyncPod may start the regular
//! containers, as `computeInitContainerActions` returns it, and the regular containers that wait
//! for it. Called by SyncPod's container restarts (`sync.rs`) and, when a sidecar's startup
//! result or running state changes, by the sync loop.
//!
//! Mirrors `pkg/kubelet/kuberuntime/kuberuntime_container.go` `computeInitContainerActions` and
//! `kuberuntime_manager.go` `computePodActions` (`if changes.KillPod || !hasInitialized { return
//! changes }`: the regular containers are not looked at until the pod has initialized).
//!
//! What the model keeps of it: ordinary init containers completed before the story starts and,
//! as Kubernetes' reverse walk decides, stay completed (`isPreviouslyInitialized`: once a regular
//! container runs, or the last init container is done, ordinary ones are skipped); sidecars are
//! restarted whenever they exit (`InitContainersToStart`, with the crash-loop back-off).

use super::Kubelet;
use crate::core::{Ctx, What};
use crate::node::runtime::Runtime;
use crate::rules::Rule;
use crate::scenario::ContainerRole;
use crate::trace::{Actor, Kind, Outcome, ProbeKind, Value};

impl Kubelet<'_> {
    /// `computeInitContainerActions`' return value for the runtime's state now:
    /// - no init containers: initialized;
    /// - a regular container Running (or Created): initialized (`podHasInitialized`; before
    ///   #138514, v1.37.0, an Exited one does not count, the node-reboot workaround of PR
    ///   #120269; from it, any regular container of the current sandbox counts, Exited too:
    ///   `Rules::exited_regular_initializes`);
    /// - else the last init container decides: an ordinary one that exited 0 is initialized; a
    ///   sidecar is when it runs and, if it has a startup probe, the startup manager holds
    ///   Success for its container ID. `found == false` (no result at all) `break`s out of the
    ///   switch before `podHasInitialized = true` — after a 1.35.0 restart with the gate off a
    ///   sidecar that predates the kubelet never gets a startup result (P1k, and Started=true
    ///   stops its startup worker), so a pod whose regular containers have all exited is never
    ///   initialized again: kubernetes#136910, fixed by seeding the result (P1s, #137146 /
    ///   #137885).
    pub fn initialized(&self, rt: &Runtime, p: usize) -> bool {
        let spec = &self.spec[p];
        let ni = spec.init_containers.len();
        if ni == 0 || (ni..spec.n_containers()).any(|c| rt.pods[p][c].running) {
            return true;
        }
        if rt.reinit[p].is_some() {
            // B2: a new sandbox whose init containers have not all run again.
            return false;
        }
        if self.profile.rules.exited_regular_initializes
            && (ni..spec.n_containers()).any(|c| rt.pods[p][c].instance > 0)
        {
            // #138514 (v1.37.0): a regular container of the current sandbox, exited too.
            return true;
        }
        let last = ni - 1;
        match spec.role(last) {
            ContainerRole::Sidecar => {
                rt.pods[p][last].running
                    && (spec.container(last).startup_probe.is_none()
                        || self.sidecar_started(rt, p, last))
            }
            // An ordinary init container: completed with exit 0 in the model.
            ContainerRole::Init | ContainerRole::Regular => true,
        }
    }

    /// The startup manager holds Success for the sidecar's running container.
    pub fn sidecar_started(&self, rt: &Runtime, p: usize, c: usize) -> bool {
        let r = &rt.pods[p][c];
        self.pods[p]
            .probes
            .results
            .get(c, ProbeKind::Startup, r.instance)
            == Some(Outcome::Success)
    }

    /// K3i: SyncPod does not start regular container `c` of a pod that has not initialized; the
    /// container waits (recorded once) until a change of the last sidecar lets it through.
    pub fn wait_for_init(&mut self, cx: &mut Ctx, p: usize, c: usize) {
        if std::mem::replace(&mut self.pods[p].waiting_init[c], true) {
            return;
        }
        cx.emit(
            Kind::ContainerWaiting,
            Some(p),
            Some(c),
            Value::None,
            Rule::K3i,
            Actor::Kubelet,
        );
    }

    /// The sync loop ran a pod sync after a sidecar changed (a startup result, a restart): if
    /// the pod has now initialized, SyncPod starts the regular containers that waited.
    pub fn retry_init_waiters(&mut self, cx: &mut Ctx, rt: &Runtime, p: usize) {
        if !self.pods[p].waiting_init.iter().any(|w| *w) || !self.initialized(rt, p) {
            return;
        }
        let gen = self.gen;
        for c in 0..self.pods[p].waiting_init.len() {
            if std::mem::take(&mut self.pods[p].waiting_init[c]) {
                cx.at(
                    cx.now,
                    What::ContainerRestart {
                        gen,
                        pod: p as u16,
                        c: c as u8,
                        checked: false,
                    },
                );
            }
        }
    }
}
