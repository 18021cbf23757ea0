//! The tour `kep-4781`: KEP-4781 ("restarting kubelet does not change pod status") told in seven
//! steps, each on a shipped preset. Captions are templates (`crate::caption`): numbers and rule
//! citations are filled from the step's runs.

use crate::{At, Edit, Mark, Predict, Runs, Step, Tour};
use restartscope_sim::{Kind, Policy, Rule};

const LEGACY: Policy = Policy::Legacy;
const KEP: Policy = Policy::Kep;

const STOP: Mark = Mark {
    at: At::Stop,
    label: "kubelet stops (K1)",
};
const RETURN: Mark = Mark {
    at: At::Return,
    label: "kubelet returns (K2)",
};

pub(crate) const TOUR: Tour = Tour {
    name: "kep-4781",
    title: "KEP-4781: restarting the kubelet does not change pod status",
    intro: "Seven steps through what a kubelet restart does to a node's pods, before and with \
KEP-4781 (v1.35): the flap the KEP removes, what the control plane does on a long outage, the \
special case of a pod that was already NotReady, the risk the KEP accepts, startup probes and \
eviction. Every figure is a run of RestartScope's model; every number in a caption is read from \
that run, and every rule is cited with the Kubernetes function it follows.",
    steps: STEPS,
};

const STEPS: &[Step] = &[
    Step {
        slug: "legacy-flap",
        title: "The legacy flap: a short restart flips healthy pods NotReady",
        preset: "short-restart",
        edit: Edit::NONE,
        runs: Runs::Only(LEGACY),
        window_s: (20.0, 75.0),
        marks: &[
            STOP,
            RETURN,
            Mark {
                at: At::First(Rule::P1),
                label: "first initial Failure (P1)",
            },
        ],
        pod: Some(1),
        caption: &[
            "Look at each pod's Ready lane after the kubelet returns at {return}. It was down \
for {down}, well inside the {grace} grace period, so the control plane noticed nothing; yet \
every healthy pod goes NotReady and back: {legacy.ready_transitions} Ready transitions, \
{legacy.endpointslice_updates} EndpointSlice updates and {legacy.unjustified_not_ready_s} pod·s \
NotReady while every container was healthy.",
            "Why: the restarted kubelet has lost its probe results. Its first SyncPod generates \
the status before the probe workers exist ({rule:K3}); each new readiness worker then writes its \
initial result, Failure ({rule:P1}), and the pod is NotReady until its first probe succeeds \
({rule:P5}). {pod:1} goes first, at {legacy.notready_at:1}, for {legacy.notready_s:1}.",
        ],
        predict: None,
    },
    Step {
        slug: "kep-same-restart",
        title: "The same restart under KEP-4781: no pod changes Ready",
        preset: "short-restart",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (20.0, 75.0),
        marks: &[
            STOP,
            RETURN,
            Mark {
                at: At::FirstIn(KEP, Rule::P1k),
                label: "no initial Failure (P1k)",
            },
        ],
        pod: Some(1),
        caption: &[
            "The same {down} restart, the legacy kubelet above, KEP-4781 below. Under KEP-4781 \
no pod changes Ready and the Service keeps every endpoint: {kep.ready_transitions} Ready \
transitions against {legacy.ready_transitions}, {kep.kubelet_status_writes} kubelet status \
writes against {legacy.kubelet_status_writes}, {kep.endpointslice_updates} EndpointSlice \
updates against {legacy.endpointslice_updates}.",
            "Why: a KEP-4781 probe worker does not write the initial Failure for a container that \
was running before the kubelet started ({rule:P1k}). With no result cached, the generated status \
keeps the Ready the API server holds, and the first probe that succeeds ({id:P5}) confirms it.",
        ],
        predict: Some(Predict {
            question:
                "Predict: the same 20 s restart, the legacy kubelet above and KEP-4781 below. \
When the kubelet returns, which pods will KEP-4781 flip NotReady, and how many EndpointSlice \
updates will the Service see?",
            from: At::Return,
        }),
    },
    Step {
        slug: "long-restart",
        title: "A long restart: the control plane marks pods NotReady, KEP-4781 waits for a probe",
        preset: "long-restart",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (20.0, 140.0),
        marks: &[
            STOP,
            Mark {
                at: At::First(Rule::N1),
                label: "node Unknown, pods NotReady (N1)",
            },
            RETURN,
            Mark {
                at: At::Ready(KEP, 1),
                label: "KEP: first probe success (P5)",
            },
        ],
        pod: None,
        caption: &[
            "The kubelet is down for {down}, longer than the {grace} grace period. At \
{legacy.t:N1} the node lifecycle controller sets the node Unknown and marks every pod NotReady \
({rule:N1}). When the kubelet returns at {return}, the legacy kubelet's first SyncPod writes \
Ready=True from a status without probe results ({rule:S2}), each new worker's initial Failure \
takes it back ({id:P1}) and a successful probe sets it again ({id:P5}): True, False, True, False, \
True, {legacy.ready_transitions} Ready transitions.",
            "KEP-4781 waits for a probe: while no result is cached, an old container's Ready \
follows the API pod's Ready condition, which the controller set to False ({rule:S3}), so each \
pod stays NotReady until its first readiness probe succeeds ({id:P5}): {kep.ready_transitions} \
Ready transitions. The price is {kep.unjustified_not_ready_s} pod·s NotReady while healthy, \
against {legacy.unjustified_not_ready_s} with the legacy kubelet's early True.",
        ],
        predict: None,
    },
    Step {
        slug: "notready-stays-notready",
        title: "A pod NotReady before the restart stays NotReady (#135795)",
        preset: "report-135795-notready-flip",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (50.0, 95.0),
        marks: &[
            STOP,
            RETURN,
            Mark {
                at: At::Ready(LEGACY, 2),
                label: "legacy: Ready (S2)",
            },
            Mark {
                at: At::NotReady(LEGACY, 2),
                label: "legacy: initial Failure (P1)",
            },
        ],
        pod: Some(2),
        caption: &[
            "{pod:2} fails its readiness probe from the start and is NotReady before the restart. \
After the {down} restart the legacy kubelet reports it Ready at {legacy.ready_at:2}: the first \
SyncPod generates the status before the probe workers exist ({rule:K3}), and a container without \
a readiness result is Ready ({rule:S2}). It stays Ready for {legacy.ready_s:2}, until its new \
worker writes the initial Failure ({rule:P1}). This is kubernetes#135795.",
            "Meanwhile every replica looks Ready to the PodDisruptionBudget, which allows an \
eviction it should not: for {legacy.pdb_wrongful_allowed_s} s over the legacy run against \
{kep.pdb_wrongful_allowed_s} s under KEP-4781 (the part before the restart, while the failing \
probe reaches its failureThreshold, is the same in both). KEP-4781 keeps {pod:2} NotReady: its \
worker writes no initial result for the old container ({rule:P1k}), and Ready stays what the API \
server holds.",
        ],
        predict: Some(Predict {
            question:
                "Predict: one pod was already NotReady, failing its readiness probe, when the \
kubelet stopped. When the kubelet returns, what will each kubelet report for it?",
            from: At::Return,
        }),
    },
    Step {
        slug: "broke-during-outage",
        title: "The risk KEP-4781 accepts: a pod that broke during the outage stays Ready",
        preset: "unhealthy-during-downtime",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (25.0, 95.0),
        marks: &[
            STOP,
            Mark {
                at: At::First(Rule::Truth),
                label: "container starts failing",
            },
            RETURN,
            Mark {
                at: At::NotReady(KEP, 1),
                label: "KEP: NotReady (P5)",
            },
            Mark {
                at: At::First(Rule::P6),
                label: "liveness kill (P6)",
            },
        ],
        pod: Some(1),
        caption: &[
            "{pod:1} starts failing at {legacy.t:TRUTH} ({id:TRUTH}), while the kubelet is down \
and nothing probes it ({rule:K1}). Under KEP-4781 it stays Ready after the kubelet returns, until \
its readiness probe has failed failureThreshold ({threshold:1}) times in a row ({rule:P5}) at \
{kep.notready_at:1}; its liveness probe then kills it ({rule:P6}) and the new container \
({rule:K3r}) is Ready again after a probe.",
            "The legacy kubelet marks it NotReady as soon as the new worker writes the initial \
Failure ({rule:P1}), at {legacy.notready_at:1}: by accident, since it does the same to healthy \
pods. This is the risk the KEP accepts: {kep.unjustified_ready_s} pod·s Ready while failing \
under KEP-4781, against {legacy.unjustified_ready_s} with the legacy kubelet (the outage itself \
counts in both).",
        ],
        predict: Some(Predict {
            question: "Predict: one pod's container starts failing while the kubelet is down and \
nothing probes it. When the kubelet returns, how long will each kubelet keep it Ready behind its \
Service?",
            from: At::Return,
        }),
    },
    Step {
        slug: "startup-probe",
        title: "Startup probes: KEP-4781 keeps Started across the restart",
        preset: "startup-probe",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (25.0, 80.0),
        marks: &[
            STOP,
            RETURN,
            Mark {
                at: At::NotReady(LEGACY, 0),
                label: "legacy: Started=false (P1)",
            },
            Mark {
                at: At::Ready(LEGACY, 0),
                label: "legacy: Ready again (P5)",
            },
        ],
        pod: Some(0),
        caption: &[
            "{pod:0} has a startup probe. After the {down} restart the legacy kubelet's new \
startup worker writes its initial result, Unknown ({rule:P1}): Started becomes false, readiness \
is not probed until the startup probe succeeds again ({rule:P5}), and {pod:0} is NotReady for \
{legacy.notready_s:0} although its container never stopped. {pod:1}, with a readiness probe \
only, flaps for {legacy.notready_s:1}.",
            "KEP-4781 writes no initial result, of any probe type, for a container older than the \
kubelet ({rule:P1k}) and carries Started over from the previous status, so {pod:0} keeps Started \
and Ready: {kep.ready_transitions} Ready transitions against {legacy.ready_transitions}, \
{kep.unjustified_not_ready_s} pod·s NotReady while healthy against \
{legacy.unjustified_not_ready_s}.",
        ],
        predict: None,
    },
    Step {
        slug: "eviction",
        title: "Eviction after the toleration: the same under both kubelets",
        preset: "eviction",
        edit: Edit::NONE,
        runs: Runs::Both,
        window_s: (20.0, 440.0),
        marks: &[
            STOP,
            Mark {
                at: At::First(Rule::N1),
                label: "node Unknown (N1)",
            },
            Mark {
                at: At::First(Rule::N2),
                label: "NoExecute taint (N2)",
            },
            Mark {
                at: At::Kind(Kind::Eviction),
                label: "evicted (E1)",
            },
            RETURN,
        ],
        pod: None,
        caption: &[
            "A {down} outage outlives the toleration. After the {grace} grace period the node \
lifecycle controller marks the pods NotReady ({rule:N1}) and taints the node NoExecute at its \
tainting queue's next tick ({rule:N2}); {toleration} later taint eviction deletes every pod ({rule:E1}): \
{legacy.evictions} evictions with the legacy kubelet, {kep.evictions} with KEP-4781, which \
changes nothing on the control plane's side.",
            "When the kubelet returns at {return} it finds the pods deleted and terminates them \
({rule:K4}); each is removed once its containers are gone ({rule:E1d}). The legacy kubelet's \
first status for the Terminating pods says Ready=True ({rule:S2}); KEP-4781 keeps the API's \
False ({rule:S3}): {legacy.ready_transitions} Ready transitions against \
{kep.ready_transitions}.",
        ],
        predict: None,
    },
];
