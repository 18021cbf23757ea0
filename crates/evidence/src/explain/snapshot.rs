//! A single snapshot's bug signature: a state the stated release's kubelet reaches only through
//! a known bug (kubernetes#136910's app container never restarted beside a running sidecar).
//! Mirrors no Kubernetes file; the signature cites the kubelet code it comes from.

use crate::types::{Obs, What};

/// kubernetes#136910's snapshot signature per pod: a running init container (a sidecar: a regular
/// init container has exited before app containers run) beside an app container terminated with
/// an error and restart count 0, in a pod that is not finished. A kubelet without the bug restarts
/// the app container (`computePodActions`, `pkg/kubelet/kuberuntime/kuberuntime_manager.go`); with
/// it, `computeInitContainerActions` never sets podHasInitialized after a kubelet restart (#137146).
///
/// Describe fragments pasted without their `Containers:` / `Init Containers:` headings (as the
/// report itself pasted them) do not say which container is the sidecar: a running container of
/// unknown kind stands for it, and the line of that container is returned so the answer says it
/// assumed so.
pub(super) struct Stuck {
    pub pod: String,
    pub container: String,
    pub line: usize,
    /// The line of a running container the evidence does not say is an init container.
    pub assumed_sidecar: Option<usize>,
}

pub(super) fn sidecar_stuck(obs: &[Obs]) -> Option<Stuck> {
    let mut pods: Vec<&str> = obs.iter().filter_map(|o| o.pod.as_deref()).collect();
    pods.dedup();
    for p in pods {
        let mine: Vec<&Obs> = obs.iter().filter(|o| o.pod.as_deref() == Some(p)).collect();
        let finished = mine.iter().any(|o| matches!(&o.what, What::PodPhase(_)));
        let running = |known: bool| {
            mine.iter().find_map(|o| match &o.what {
                What::ContainerState(c)
                    if c.state == "running" && c.kind_known == known && (c.init || !known) =>
                {
                    Some(o.line)
                }
                _ => None,
            })
        };
        let stuck = mine.iter().find_map(|o| match &o.what {
            What::ContainerState(c)
                if !c.init
                    && c.state == "terminated"
                    && c.restart_count == Some(0)
                    && c.reason.as_deref() != Some("Completed")
                    && c.reason.as_deref() != Some("OOMKilled")
                    && c.exit_code != Some(0) =>
            {
                Some((c.name.clone(), o.line, c.kind_known))
            }
            _ => None,
        });
        let Some((container, line, stuck_known)) = stuck else {
            continue;
        };
        if finished {
            continue;
        }
        let assumed_sidecar = match (running(true), stuck_known) {
            (Some(_), _) => None,
            // A running container of unknown kind beside a stuck one of unknown kind.
            (None, false) => match running(false) {
                Some(l) => Some(l),
                None => continue,
            },
            (None, true) => continue,
        };
        return Some(Stuck {
            pod: p.to_string(),
            container,
            line,
            assumed_sidecar,
        });
    }
    None
}
