//! Every real paste's answer, pinned: read or refused, and the restart named (a node reboot, a
//! container runtime restart or outage, a spec-hash restart as after an in-place upgrade) or
//! none. Checked by eye against each file's "what happened" line (`cargo run -p
//! restartscope-evidence --example pastes` prints both); where they differ, the comment says
//! why. No paste names a known kubelet bug: none of these incidents had one.

mod common;
use common::paste;
use restartscope_evidence::explain::{answer, candidates, explain_for};
use restartscope_evidence::read;

#[derive(Debug, PartialEq)]
enum Said {
    Refused,
    Read(Option<&'static str>),
    /// Read, and a known kubelet bug named: the incident was that bug's.
    Bug(&'static str),
}
use Said::*;

const REBOOT: Option<&str> = Some("node-reboot");
const RUNTIME: Option<&str> = Some("runtime-restart");
/// An in-place kubelet upgrade: a spec-hash restart, or one node's kubelet at two versions.
const HASH: Option<&str> = Some("upgrade-1.30-to-1.31");

/// Each paste (its number) and what replay says of it.
const ANSWERS: [(&str, Said); 294] = [
    ("01-", Read(REBOOT)),
    ("02-", Read(REBOOT)),
    ("03-", Read(REBOOT)),
    // a reboot: the journal shows only the kubelet's start at boot (and one boot id).
    ("04-", Read(None)),
    ("05-", Read(RUNTIME)),
    ("06-", Read(RUNTIME)),
    ("07-", Read(RUNTIME)),
    // PLEG unhealthy for hours; the reboot came after, as the fix.
    ("08-", Read(RUNTIME)),
    ("09-", Read(RUNTIME)),
    ("10-", Read(RUNTIME)),
    // the runtime down on a node just set up: an outage, not a restart.
    ("11-", Read(RUNTIME)),
    // the kubelet restarted twice (no other kind of restart to name).
    ("12-", Read(None)),
    ("13-", Read(None)),
    ("14-", Read(None)),
    ("15-", Read(None)),
    ("16-", Refused),
    // one message without a time: the kubelet's first seconds (PLEG never relisted).
    ("17-", Refused),
    ("18-", Refused),
    ("19-", Read(None)),
    // the kubelet misread docker's version and marked the runtime down: an outage as the kubelet saw it.
    ("20-", Read(RUNTIME)),
    ("21-", Read(RUNTIME)),
    ("22-", Read(HASH)),
    // a reboot: every pod restarted, but this kubectl prints no time for RESTARTS.
    ("23-", Read(None)),
    ("24-", Read(None)),
    // a reboot (`reboot` at node1's prompt): the pods' table shows no one moment of restarts.
    ("25-", Read(None)),
    ("26-", Read(REBOOT)),
    ("27-", Refused),
    ("28-", Refused),
    // a runtime hang: the node controller's Unknown alone names no restart.
    ("29-", Read(None)),
    ("30-", Read(None)),
    ("31-", Refused),
    ("32-", Read(RUNTIME)),
    // containerd's journal without its stop or start (the restart is after the cut).
    ("33-", Refused),
    ("34-", Read(RUNTIME)),
    ("35-", Refused),
    // CRI-O failed to start after a reboot: the runtime down is named, the reboot not shown.
    ("36-", Read(RUNTIME)),
    ("37-", Read(RUNTIME)),
    // a reboot: systemctl status shows only the kubelet's start.
    ("38-", Read(None)),
    ("39-", Refused),
    // prose, `get nodes` (both nodes NotReady when printed: a state), a Conditions table cut
    // before Ready (its lines not understood).
    ("40-", Read(None)),
    ("41-", Refused),
    ("42-", Read(RUNTIME)),
    // `kubectl get nodes` alone (kubectl 1.7, roles in STATUS): one node NotReady when printed, a
    // state, not a restart.
    ("43-", Read(None)),
    // `kubectl get nodes` above a cut `describe node` (not understood): one node NotReady, a state.
    ("44-", Read(None)),
    ("45-", Read(None)),
    ("46-", Read(None)),
    // the kind node containers restarted: two kubelet starts, no other agent in the excerpt.
    ("47-", Read(None)),
    ("48-", Read(REBOOT)),
    ("49-", Refused),
    ("50-", Refused),
    ("51-", Refused),
    ("52-", Read(None)),
    // kube-controller-manager's "Event occurred" lines: the node controller marking each pod
    // NotReady (MarkPodsNotReady) as the node went down; which restart, if any, is not said.
    ("53-", Read(None)),
    ("54-", Read(None)),
    ("55-", Read(None)),
    ("56-", Read(None)),
    ("57-", Read(None)),
    ("58-", Refused),
    ("59-", Read(None)),
    ("60-", Read(None)),
    ("61-", Read(None)),
    ("62-", Read(None)),
    // `oc get nodes` before and after a cluster restart: Ready → NotReady on each node (AGE grew:
    // the same node objects); they stayed down, so no restart is seen to end.
    ("63-", Read(None)),
    // a reboot: the kubelet's lines cut before their klog header (no time).
    ("64-", Refused),
    // a reboot: the kubelet's unit in an auto-restart loop.
    ("65-", Read(None)),
    ("66-", Read(None)),
    ("67-", Read(None)),
    ("68-", Read(None)),
    ("69-", Read(None)),
    ("70-", Read(None)),
    // `kubectl get nodes -o wide` twice during a reboot: kube2 Ready → NotReady, the paste ends
    // before it came back; the cut `cri-o://1.` is no runtime change.
    ("71-", Read(None)),
    ("72-", Read(RUNTIME)),
    // a reboot: a Go goroutine dump, no time.
    ("73-", Refused),
    ("74-", Read(REBOOT)),
    // back after a graceful shutdown: new pods ContainerCreating, no restart count moved.
    ("75-", Read(None)),
    ("76-", Read(None)),
    // node-problem-detector saw containerd start once, at the node's boot: not named a restart.
    ("77-", Read(None)),
    // dockerd's health checks of its containerd failing: a runtime not answering (an outage).
    ("78-", Read(RUNTIME)),
    // Control-plane pods restarting on their own for days: `(3d1h ago)` is to the hour, too
    // coarse to call two restarts one moment, and the apiserver's differs.
    ("79-", Read(None)),
    // six printings of `kubectl get nodes` during `sealos upgrade`: each node's VERSION goes
    // v1.16.10 → v1.17.12 (moderate: the kubelet restarted; no spec hash shows).
    ("80-", Read(HASH)),
    // after, then "before upgrade": read in AGE order, v1.6.2 → v1.6.4 on each node.
    ("81-", Read(HASH)),
    // headerless kubectl 1.3 rows, four nodes NotReady: states.
    ("82-", Read(None)),
    // kubectl 1.0's NAME LABELS STATUS rows, both NotReady: states.
    ("83-", Read(None)),
    // one NotReady node at another version than the others: a mixed cluster, no upgrade seen.
    ("84-", Read(None)),
    // a node named `minikube` (a command's name), NotReady at v1.16.2 after a failed upgrade.
    ("85-", Read(None)),
    // one printing: each node's state (the kubelet misreporting docker's version), no restart.
    ("86-", Read(None)),
    // one printing: a cordoned node, never drained; no restart.
    ("87-", Read(None)),
    // the kernel's OOM lines and one of dockerd's: no runtime stop or start, no kubelet line.
    ("88-", Refused),
    // a kubelet restarted by hand: its first NotReady is its start, not an outage.
    ("89-", Read(None)),
    ("90-", Read(None)),
    ("91-", Read(None)),
    // containerd killed and started again four times, seen by node-problem-detector.
    ("92-", Read(RUNTIME)),
    // the node controller's NotReady echoes: the kubelet stopped posting; why is not said.
    ("93-", Read(None)),
    ("94-", Read(None)),
    // readiness failures of a 1.32+ kubelet ("not ready"): no restart.
    ("95-", Read(None)),
    // the node controller's taint queue: a kubelet stopped (96, 97) or never Ready (98); the
    // kubelet's stop itself is not in these logs.
    ("96-", Read(None)),
    ("97-", Read(None)),
    ("98-", Read(None)),
    // Pasted with the prose around its code blocks, each block read on its own:
    // describe's Events with ages `<invalid>` (a clock ahead) and AKS's own KubeletIsDown (99),
    // NPD's KubeletUnhealthy then `systemctl status kubelet` (100).
    ("99-", Read(None)),
    ("100-", Read(None)),
    // the kernel monitor's TaskHung rows only: nothing the model follows.
    ("101-", Refused),
    ("102-", Read(None)),
    // containerd restarted by hand: the kubelet's CRI calls `Unavailable` (103), gRPC
    // reconnecting to containerd.sock (107); docker restarting on its own, the kubelet's
    // "container runtime is down" (108); containerd OOM-killed, systemd stopping the kubelet
    // and dockerd after it (104: weak, a stop without a start).
    ("103-", Read(RUNTIME)),
    ("104-", Read(RUNTIME)),
    // CRI-O restarted by hand, only its start pasted: a start alone is also a boot's.
    ("105-", Read(None)),
    // `kubectl get nodes` Ready, then NotReady after docker's restart: no restart named.
    ("106-", Read(None)),
    ("107-", Read(RUNTIME)),
    ("108-", Read(RUNTIME)),
    // the kubelet's graceful node shutdown: logind's PrepareForShutdown (a simulated one, 109:
    // the kubelet believed it), a GKE preemption killing a pod (110).
    ("109-", Read(REBOOT)),
    ("110-", Read(REBOOT)),
    // journalctl's `-- Reboot --` (111), describe's Rebooted event (112), logind's "System is
    // rebooting." (116).
    ("111-", Read(REBOOT)),
    ("112-", Read(REBOOT)),
    // one printing of `get nodes` after an upgrade of three of four: versions, no change seen.
    ("113-", Read(None)),
    // "Container spec hash changed" (kubelet 1.11 → 1.12): a spec-hash restart.
    ("114-", Read(HASH)),
    // pods `Completed` after a graceful shutdown, their reasons in prose: no restart named.
    ("115-", Read(None)),
    ("116-", Read(REBOOT)),
    // prose without code blocks (117), NPD's conditions all False (118), journal lines without
    // their time (119), a journal whose host and process run together (120).
    ("117-", Refused),
    ("118-", Refused),
    ("119-", Refused),
    ("120-", Refused),
    // Incidents collected apart, as the project's held-out cases are, read as they came:
    // a status YAML whose reporter wrote `image:<image>` (not kubectl's) (121), refused;
    // "Starting kubelet." twice and NPD's DockerStart (122): a kubelet restart, no Ready change;
    // rke2 and k3s upgrades seen in `get pods` (123, 124, 126): restart counts, not a moment;
    // MicroK8s's kubelite restarting (125); describe node cut before its Ready row, the
    // controller's Unknown (127); one status-patch line (128) and Ansible's output (129),
    // refused; describe's events of memory pressure (130), kubelets that stopped posting (131,
    // 133, 134), a kubelet started after evictions (132); the PLEG unhealthy for 4h19m beside
    // dockerd's broken pipe (135): a runtime outage; `get node` behind an alias's prompt, the
    // pods' restart counts (136); a Windows node NotReady (137); pods of a NotReady node (138).
    ("121-", Refused),
    ("122-", Read(None)),
    ("123-", Read(None)),
    ("124-", Read(None)),
    ("125-", Read(None)),
    ("126-", Read(None)),
    ("127-", Read(None)),
    ("128-", Refused),
    ("129-", Refused),
    ("130-", Read(None)),
    ("131-", Read(None)),
    ("132-", Read(None)),
    ("133-", Read(None)),
    ("134-", Read(None)),
    ("135-", Read(RUNTIME)),
    ("136-", Read(None)),
    ("137-", Read(None)),
    ("138-", Read(None)),
    // docker 20.10.19's container the PLEG could not inspect: PLEG unhealthy, the node not
    // ready (a runtime hang).
    ("139-", Read(RUNTIME)),
    // Collected apart too, pods' Ready around node events: the node controller's NodeNotReady
    // and taint eviction (140, 143), Ready False beside ContainersReady True (141), a node
    // NotReady for 29 minutes (142), endpoints' NotReadyAddresses (144, refused: describe of
    // an Endpoints), pods Unknown or stale after a reboot or shutdown (145, 146, 148), pods
    // Terminating after a graceful shutdown (147), sandboxes re-created after k3s restarts
    // (149). No restart is named: none shows its kind's signature.
    ("140-", Read(None)),
    ("141-", Read(None)),
    ("142-", Read(None)),
    ("143-", Read(None)),
    ("144-", Refused),
    ("145-", Read(None)),
    ("146-", Read(None)),
    ("147-", Read(None)),
    ("148-", Read(None)),
    ("149-", Read(None)),
    // 150–191: collected apart (in-place upgrades, runtime outages, reboots, kubelet restarts),
    // read as they came, fixed after (INDEX.md says what).
    ("150-", Read(None)),
    // the kubelet restarted again and again on a soak-test node (no other kind to name).
    ("151-", Read(None)),
    ("152-", Refused),
    // one `get nodes` whose names the reporter masked to one: each row its own node, no upgrade.
    ("153-", Read(None)),
    ("154-", Refused),
    ("155-", Read(None)),
    ("156-", Refused),
    ("157-", Refused),
    ("158-", Refused),
    ("159-", Refused),
    ("160-", Read(None)),
    ("161-", Refused),
    ("162-", Read(RUNTIME)),
    ("163-", Read(None)),
    ("164-", Refused),
    // containerd started once (`systemctl status` without its glyph): a boot looks the same.
    ("165-", Read(None)),
    ("166-", Refused),
    // dockerd (RHEL's dockerd-current) starting new containerd processes again and again.
    ("167-", Read(RUNTIME)),
    // dockerd's logrus file: containerd lost ("transport is closing"), a new containerd process.
    ("168-", Read(RUNTIME)),
    ("169-", Read(RUNTIME)),
    ("170-", Read(RUNTIME)),
    ("171-", Read(RUNTIME)),
    // reboots seen only as nodes' states in one `get nodes`.
    ("172-", Read(None)),
    ("173-", Read(None)),
    ("174-", Refused),
    ("175-", Refused),
    ("176-", Read(REBOOT)),
    // the kubelet's `Shutdown` event (graceful node shutdown) before a talosctl reboot.
    ("177-", Read(REBOOT)),
    ("178-", Read(None)),
    ("179-", Refused),
    ("180-", Read(None)),
    ("181-", Read(REBOOT)),
    ("182-", Read(None)),
    // kubernetes#117955 (UnexpectedAdmissionError after a kubelet restart): not a Ready bug.
    ("183-", Read(None)),
    ("184-", Read(None)),
    ("185-", Refused),
    // kubernetes#113646 itself: READY 1/1 → 0/1 → 1/1 after a kubelet restart, as reported.
    ("186-", Bug("kubernetes#113646")),
    ("187-", Read(None)),
    ("188-", Read(None)),
    ("189-", Read(None)),
    ("190-", Read(None)),
    // kubernetes#138446 (a device plugin's pod killed after a kubelet restart): not a Ready bug.
    ("191-", Read(None)),
    // 192–196: kured's own logs. Its lock held after a reboot is not one (kured#151: "No reboot
    // was done in that log"); its reboot command is.
    ("192-", Refused),
    ("193-", Read(REBOOT)),
    // the reboot decided and the drain begun, the paste cut before kured's reboot command.
    ("194-", Refused),
    ("195-", Refused),
    ("196-", Refused),
    // 197–216: collected apart again (pods around node incidents, node logs around restarts).
    // Nodes powered off, shut down, rebooted: seen only as pods' states in one printing.
    ("197-", Read(None)),
    ("198-", Read(None)),
    ("199-", Read(None)),
    ("200-", Read(None)),
    ("201-", Read(None)),
    ("202-", Read(None)),
    ("203-", Read(None)),
    ("204-", Read(None)),
    ("205-", Read(None)),
    ("206-", Read(None)),
    ("207-", Read(None)),
    ("208-", Refused),
    // MarkAllPodsNotReady on nine nodes whose leases the controller lost: no restart.
    ("209-", Read(None)),
    // docker's json-file log of kube-controller-manager: pods marked NotReady.
    ("210-", Read(None)),
    // OpenShift's Machine Config Daemon: "initiating reboot", then the kubelet stopped.
    ("211-", Read(REBOOT)),
    ("212-", Read(None)),
    ("213-", Refused),
    ("214-", Refused),
    ("215-", Read(None)),
    ("216-", Refused),
    // 217–233: collected apart once more (describe node and events around node problems; pods
    // after kubelet restarts).
    ("217-", Read(None)),
    // Bottlerocket: Starting kubelet, Rebooted with its boot id, NodeNotReady.
    ("218-", Read(REBOOT)),
    ("219-", Read(None)),
    ("220-", Read(None)),
    ("221-", Read(None)),
    ("222-", Read(None)),
    ("223-", Read(None)),
    ("224-", Read(None)),
    ("225-", Read(None)),
    // a hung-task panic restarted the node; the paste was cut above its Rebooted row.
    ("226-", Read(None)),
    ("227-", Refused),
    // the e2e framework restarting the kubelet over ssh; the node stayed Ready.
    ("228-", Read(None)),
    ("229-", Refused),
    ("230-", Read(None)),
    ("231-", Read(None)),
    ("232-", Read(None)),
    ("233-", Refused),
    // 234–242: node-pool upgrades, drains and cordons. AKS#3927: a surge node's ContainerdStart
    // row printed twice is one start at its provisioning, no runtime restart.
    ("234-", Read(None)),
    ("235-", Read(None)),
    ("236-", Read(None)),
    ("237-", Read(None)),
    ("238-", Read(None)),
    ("239-", Read(None)),
    ("240-", Refused),
    ("241-", Read(None)),
    ("242-", Read(None)),
    // 243–262: OpenShift/OKD and CRI-O nodes; k3s, RKE2, MicroK8s, minikube, Talos. okd#493:
    // the Machine Config Daemon's own "initiating reboot" line names the reboot.
    ("243-", Read(None)),
    ("244-", Read(None)),
    ("245-", Read(None)),
    ("246-", Read(None)),
    ("247-", Read(None)),
    ("248-", Read(None)),
    ("249-", Refused),
    ("250-", Read(REBOOT)),
    ("251-", Read(None)),
    ("252-", Refused),
    ("253-", Read(None)),
    ("254-", Read(None)),
    ("255-", Read(None)),
    ("256-", Read(None)),
    ("257-", Read(None)),
    ("258-", Refused),
    ("259-", Read(None)),
    ("260-", Refused),
    ("261-", Read(None)),
    ("262-", Read(None)),
    // 263–279: pods' status after node events; managed clouds' node problems.
    ("263-", Refused),
    ("264-", Refused),
    ("265-", Refused),
    ("266-", Read(None)),
    ("267-", Refused),
    ("268-", Read(None)),
    ("269-", Read(None)),
    ("270-", Read(None)),
    ("271-", Read(None)),
    ("272-", Read(None)),
    ("273-", Read(None)),
    ("274-", Refused),
    ("275-", Refused),
    ("276-", Refused),
    ("277-", Read(None)),
    ("278-", Refused),
    ("279-", Read(None)),
    // 280–294: `get pods -w` of any cause; the kubelet's probe and PLEG lines. 281: a pod in
    // CrashLoopBackOff, NotReady from the watch's first row, restarted: its own exits, no bug.
    ("280-", Read(None)),
    ("281-", Read(None)),
    ("282-", Read(None)),
    ("283-", Read(None)),
    ("284-", Read(None)),
    ("285-", Read(None)),
    ("286-", Read(None)),
    ("287-", Read(None)),
    ("288-", Read(None)),
    ("289-", Refused),
    ("290-", Refused),
    ("291-", Read(None)),
    ("292-", Read(None)),
    ("293-", Read(None)),
    ("294-", Refused),
];

#[test]
fn every_pastes_answer() {
    let mut wrong = Vec::new();
    for (f, want) in ANSWERS {
        let got = match read(&paste(f), 0) {
            Err(_) => Refused,
            Ok(ev) => {
                let c = candidates(&ev.obs, None, None);
                let a = answer(&ev.obs, explain_for(&ev.obs, &c, None), None).0;
                if let Some(b) = a.bug.as_deref() {
                    match want {
                        Bug(w) if w == b => continue,
                        _ => panic!("{f}: {b} named for an incident that was not it"),
                    }
                }
                Read(
                    [REBOOT, RUNTIME, HASH]
                        .into_iter()
                        .flatten()
                        .find(|k| a.restart.as_deref() == Some(*k)),
                )
            }
        };
        if got != want {
            wrong.push(format!("{f}: {got:?}, not {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(ANSWERS.iter().filter(|a| a.1 == Refused).count(), 66);
}
