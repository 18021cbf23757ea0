//! What restarts on a node and when: the scenario's restarts put on the queue by kind (the
//! kubelet, the container runtime, the whole node; an upgrade with the start that carries it),
//! and the dispatch of the events they lead to (runtime down and back, node status posts,
//! runtime checks, init containers re-running after a reboot). Called by `mod.rs`
//! (`Cluster::new`, `dispatch`); the kubelet's side is `node/kubelet/restarts.rs`.

use super::{wake_changed, Cluster};
use crate::core::{ms, Ctx, Ev, NodeId, What};
use crate::scenario::{Restart, RestartKind};

impl Cluster<'_> {
    /// Each restart's stop and start on the queue; an upgrade is remembered by the kubelet for
    /// the start it comes with.
    pub(super) fn schedule_restarts(&mut self, id: NodeId, restarts: &[Restart]) {
        for r in restarts {
            let (at, end) = (ms(r.at_s), ms(r.end_s()));
            let (stop, start) = match r.what {
                RestartKind::Kubelet => (What::KubeletStop, What::KubeletStart),
                RestartKind::Runtime => (What::RuntimeStop, What::RuntimeStart),
                RestartKind::Node => (What::NodeShutdown, What::NodeBoot),
            };
            self.push(at, id, stop);
            self.push(end, id, start);
            if let Some(to) = r.upgrade_to {
                self.nodes[id as usize].kubelet.upgrades.push((end, to));
            }
        }
    }

    /// The events of `schedule_restarts`' restarts and what follows them.
    pub(super) fn dispatch_restart(&mut self, ev: Ev) {
        let n = ev.node as usize;
        if matches!(ev.what, What::RuntimeStop | What::NodeShutdown) && self.nlc.is_quiet(n) {
            self.wake(n);
        }
        let mut cx = Ctx {
            now: self.now,
            node: ev.node,
            q: &mut self.queue,
            rec: &mut self.rec,
        };
        let node = &mut self.nodes[n];
        let (k, rt, api) = (&mut node.kubelet, &mut node.runtime, &mut self.api);
        match ev.what {
            What::RuntimeStop => k.runtime_stopped(&mut cx, rt),
            What::RuntimeStart => k.runtime_started(&mut cx, rt, api),
            What::NodeShutdown => k.node_shutdown(&mut cx, rt),
            What::NodeBoot => k.node_boot(&mut cx, rt, api),
            What::NodeStatus { .. } => k.node_status(&mut cx, api),
            What::RuntimeCheck { .. } => k.runtime_check(&mut cx, rt, api),
            What::SyncLoopResume { .. } => k.sync_loop_resume(&mut cx, rt, api),
            What::InitDone { pod, c } => {
                if !api.pod(ev.node, pod as usize).removed {
                    k.init_done(&mut cx, rt, pod as usize, c as usize);
                }
            }
            What::InitNext { pod, .. } => k.init_next(&mut cx, rt, api, pod as usize),
            _ => unreachable!("not a restart's event"),
        }
        wake_changed(&mut cx, k, rt);
    }
}
