//! The shared types every reader fills and `explain`/`observed` read: observations (`Obs`,
//! `What`), a file's evidence (`Evidence`, `Format`, `Unread`, `ReadError`) and the small helpers
//! the readers share. Below the readers: it imports none of them.

use serde::Serialize;

/// What was observed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum What {
    /// The pod's Ready state as first seen (a watch's first row, an audit write's first value).
    ReadyAtStart(bool),
    /// The pod's Ready condition (or READY column) changed to this value.
    ReadyChanged(bool),
    /// The pod's Ready condition has had this value since `t_ms` (its `lastTransitionTime` in a
    /// `kubectl get pod -o yaml` snapshot): the last transition, earlier ones unknown.
    ReadySince(bool),
    /// Another pod condition (ContainersReady, PodScheduled, Initialized …) since `t_ms`.
    ConditionSince(String, bool),
    /// A container's `restartCount` at a snapshot (`kubectl get pod -o yaml`), or a watch's
    /// RESTARTS on the pod's first row; 0 included: since the pod's creation, not only since the
    /// kubelet's restart.
    RestartCount(u32),
    /// The kubelet's version (`v1.34.3`): a Node's `status.nodeInfo.kubeletVersion`, the
    /// kubelet's `"Kubelet version"` log line.
    KubeletVersion(String),
    /// A container's Started changed to this value.
    StartedChanged(bool),
    /// The pod's restart count became this (0: a restart whose count the source does not give).
    Restarted(u32),
    /// A container was started (an event `Started`, a PLEG `ContainerStarted`).
    ContainerStarted,
    /// A container exited (PLEG `ContainerDied`) or was killed (event `Killing`).
    ContainerDied,
    /// A probe failed (the probe type as Kubernetes writes it: Readiness, Liveness, Startup).
    ProbeFailed(String),
    /// A pod status written without a Ready condition in the record (audit level Metadata, a
    /// patch of other fields).
    StatusWritten,
    KubeletStarted,
    KubeletStopped,
    /// kube-proxy started on the node (its `Starting` event, "Starting kube-proxy.":
    /// `cmd/kube-proxy/app/server.go` `birthCry`). With the kubelet's start at the same time, the
    /// node's agents all restarted: the node did.
    ProxyStarted,
    /// The kubelet found the pod's sandbox gone or changed and makes a new one ("Pod sandbox
    /// changed, it will be killed and re-created.": `computePodActions` in
    /// `kuberuntime_manager.go`): every pod's at once after a node reboot; one pod's again and
    /// again when the CNI or the runtime fails it.
    SandboxChanged,
    /// One printing of `kubectl get pods` puts this many pods' last container restarts at one
    /// moment, `ago_ms` before it printed (`RESTARTS 1 (3m9s ago)`): every pod of the node (or
    /// of the table) that says when it restarted, as when a node reboots.
    RestartedTogether {
        pods: u32,
        ago_ms: i64,
    },
    LeaseRenewed,
    NodeReady(bool),
    PodDeleted,
    /// A container's state as a snapshot shows it (`kubectl get pod -o yaml`, `kubectl describe
    /// pod`): what the pod itself says, shown with its writer before any comparison with a model.
    ContainerState(ContainerSnap),
    /// The pod's phase when it is final (`Failed`, `Succeeded`): `status.phase`, describe's
    /// `Status:`.
    PodPhase(String),
    /// What a writer says about the pod: an eviction (`Evicted`), an admission rejection ("Pod was
    /// rejected: …", the kubelet's `canAdmitPod` in `pkg/kubelet/kubelet.go`), a preemption, an
    /// OOM kill event. `reason` as Kubernetes writes it.
    PodMessage {
        reason: String,
        message: String,
    },
    /// The node lifecycle controller marked the pod NotReady (`MarkPodsNotReady` in
    /// `pkg/controller/util/node/controller_utils.go` sets Ready False and leaves ContainersReady:
    /// a snapshot with Ready False beside ContainersReady True, or its "Updating ready status of
    /// pod … to false" line).
    ControllerNotReady,
    /// A container restarted because its spec hash changed ("Container app definition changed,
    /// will be restarted": `computePodActions` in `pkg/kubelet/kuberuntime/kuberuntime_manager.go`),
    /// as after a kubelet upgrade that changes the hash.
    SpecChanged(String),
    /// The node went NotReady with this message (the kubelet's node status setter: "Node became
    /// not ready", e.g. "PLEG is not healthy: …"; the controller's "NodeNotReady").
    NodeNotReadyBecause(String),
    /// The node rebooted: the kubelet's `Rebooted` event ("Node n1 has been rebooted, boot id:
    /// …", `kubelet_node_status.go` when the boot id it records changes); the boot id.
    NodeRebooted(String),
    /// The node's boot id as the evidence shows it (`kubectl describe node`'s `Boot ID:`, a Node's
    /// `status.nodeInfo.bootID`, cAdvisor's `Machine:` line at the kubelet's start): two of one
    /// node that differ are a reboot between them, as the kubelet's Rebooted event says.
    BootId(String),
    /// The kubelet found the container runtime down or not answering: "skipping pod
    /// synchronization" with its reason (`kubelet.go` `syncLoop`: "container runtime is down",
    /// "PLEG is not healthy: …"); or dockerd found its containerd not answering
    /// (`runtime_log.rs`).
    RuntimeDown(String),
    /// The container runtime stopped or was being stopped, as its own log or systemd's lines
    /// about its unit say it (`containerd.service: Sent signal SIGTERM to main process`,
    /// "Stopping containerd container runtime...", CRI-O's "Received signal to terminate",
    /// dockerd's "Processing signal 'terminated'"); the runtime's name.
    RuntimeStopped(String),
    /// The container runtime started: "Started containerd container runtime.", containerd's
    /// "starting containerd" / "containerd successfully booted", CRI-O's "Starting CRI-O",
    /// dockerd's "Starting up"; the runtime's name.
    RuntimeStarted(String),
    /// The pod seen at its creation: its first watch row is `Pending`, `ContainerCreating`,
    /// `Init:…` or `PodInitializing`, so its first Ready→True is its containers starting, which
    /// every release does (no restart bug concerns a pod created after the restart).
    PodCreated(String),
}

/// One container in a snapshot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContainerSnap {
    pub name: String,
    /// An init container (`initContainerStatuses`, describe's `Init Containers:`); one that is
    /// running beside started app containers is a sidecar (`restartPolicy: Always`): a regular
    /// init container has exited before the app containers start.
    pub init: bool,
    /// Whether the evidence says which kind of container it is (a pod's `containerStatuses` /
    /// `initContainerStatuses`, describe's `Containers:` / `Init Containers:`): false for a
    /// describe fragment pasted without its heading, whose `init` is then unknown (false).
    pub kind_known: bool,
    /// `running`, `terminated`, `waiting`.
    pub state: String,
    /// The state's reason (`Error`, `OOMKilled`, `Completed`, `CrashLoopBackOff`).
    pub reason: Option<String>,
    pub exit_code: Option<i64>,
    pub restart_count: Option<u32>,
    /// `lastState.terminated`'s reason and exit code.
    pub last_reason: Option<String>,
    pub last_exit_code: Option<i64>,
}

impl ContainerSnap {
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}{} {}",
            if self.init {
                "init container "
            } else {
                "container "
            },
            self.name,
            self.state
        );
        if let Some(r) = &self.reason {
            s.push_str(&format!(" ({r}"));
            if let Some(c) = self.exit_code {
                s.push_str(&format!(", exit code {c}"));
            }
            s.push(')');
        } else if let Some(c) = self.exit_code {
            s.push_str(&format!(" (exit code {c})"));
        }
        if let Some(r) = &self.last_reason {
            s.push_str(&format!(", last terminated {r}"));
            if let Some(c) = self.last_exit_code {
                s.push_str(&format!(" ({c})"));
            }
        }
        if let Some(n) = self.restart_count {
            s.push_str(&format!(", restart count {n}"));
        }
        s
    }
}

impl What {
    /// In words, for tables.
    pub fn text(&self) -> String {
        match self {
            What::ReadyAtStart(b) => format!("Ready={} (first seen)", tf(*b)),
            What::ReadyChanged(b) => format!("Ready→{}", tf(*b)),
            What::ReadySince(b) => format!("Ready={} (last transition)", tf(*b)),
            What::ConditionSince(k, b) => format!("{k}={} since", tf(*b)),
            What::KubeletVersion(v) => format!("kubelet {v}"),
            What::RestartCount(n) => format!("restart count {n}"),
            What::StartedChanged(b) => format!("Started→{}", tf(*b)),
            What::Restarted(0) => "container restarted".into(),
            What::Restarted(n) => format!("restarts={n}"),
            What::ContainerStarted => "container started".into(),
            What::ContainerDied => "container exited/killed".into(),
            What::ProbeFailed(k) => format!("{k} probe failed"),
            What::StatusWritten => "status written (no Ready in the record)".into(),
            What::KubeletStarted => "kubelet started".into(),
            What::KubeletStopped => "kubelet stopped".into(),
            What::ProxyStarted => "kube-proxy started".into(),
            What::SandboxChanged => "pod sandbox changed, re-created".into(),
            What::RestartedTogether { pods, ago_ms } => format!(
                "{pods} pods' containers restarted together, {} before the table was printed",
                crate::time::duration_text(*ago_ms)
            ),
            What::LeaseRenewed => "lease renewed".into(),
            What::NodeReady(b) => format!("node Ready={}", tf(*b)),
            What::PodDeleted => "pod deleted".into(),
            What::ContainerState(c) => c.text(),
            What::PodPhase(p) => format!("phase {p}"),
            What::PodMessage { reason, message } => {
                if message.is_empty() {
                    reason.clone()
                } else {
                    format!("{reason}: {}", cut_to(message, 90))
                }
            }
            What::ControllerNotReady => {
                "Ready→False by the node controller (ContainersReady untouched)".into()
            }
            What::SpecChanged(c) => format!("container {c} definition changed, restarted"),
            What::NodeNotReadyBecause(m) => format!("node NotReady: {}", cut_to(m, 90)),
            // Said by another writer than the kubelet's Rebooted event (journalctl's mark,
            // logind, kured, a KERNEL-VERSION change): its words, not a boot id.
            What::NodeRebooted(w)
                if [
                    "journalctl:",
                    "systemd-logind:",
                    "kured:",
                    "machine-config-daemon:",
                    "KERNEL-VERSION",
                ]
                .iter()
                .any(|p| w.starts_with(p)) =>
            {
                format!("node rebooted: {}", cut_to(w, 60))
            }
            What::NodeRebooted(id) => format!("node rebooted (boot id {})", cut_to(id, 40)),
            What::BootId(id) => format!("boot id {}", cut_to(id, 40)),
            // dockerd's own words about its containerd, else the kubelet skipping pod syncs.
            What::RuntimeDown(m) if m.contains(", as dockerd says: ") => cut_to(m, 100),
            What::RuntimeDown(m) => format!("pod sync skipped: {}", cut_to(m, 90)),
            What::RuntimeStopped(r) => format!("container runtime {r} stopping"),
            What::RuntimeStarted(r) => format!("container runtime {r} started"),
            What::PodCreated(status) => format!("pod created ({status})"),
        }
    }
}

fn tf(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// One observation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Obs {
    /// Milliseconds: since the Unix epoch when the source has timestamps (`absolute`), since
    /// the start of the year for klog lines (which carry no year), else relative (kubectl AGE).
    pub t_ms: i64,
    /// The pod (name without namespace), if the observation is about one.
    pub pod: Option<String>,
    /// The node, if the source names it (lease, node condition, journal host).
    pub node: Option<String>,
    pub what: What,
    /// Who wrote it: `system:node:n1`, `system:serviceaccount:kube-system:node-controller`,
    /// `kubelet`, `node-controller` …
    pub by: Option<String>,
    /// 1-based line number in its file.
    pub line: usize,
    /// Index of the file among those read together (0 for a single file).
    pub file: usize,
}

/// The formats `read` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    KubectlWatch,
    EventsJson,
    Audit,
    Klog,
    PodStatus,
    /// `kubectl describe pod|node`.
    Describe,
    /// `kubectl get events` as a table (`-w`, `-A`, `-o wide`).
    EventsTable,
    /// kube-controller-manager's klog (the node lifecycle controller, the taint eviction).
    ControllerLog,
    /// The container runtime's own journal (containerd, CRI-O, dockerd) and systemd's lines
    /// about its unit, with no kubelet line among them.
    RuntimeLog,
    /// The Kubernetes e2e test framework's log: the node's conditions as a test saw them.
    E2eLog,
    /// `kubectl get nodes` as a table (`-o wide`, `-w`, older layouts): each node's state.
    NodesTable,
    /// node-problem-detector's own log: the events its monitors generate (a unit's start seen
    /// in the journal, a kernel OOM kill).
    NpdLog,
    /// kured's log (the Kubernetes Reboot Daemon's pod): the reboots it commands.
    KuredLog,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::KubectlWatch => "kubectl get pods -w",
            Format::EventsJson => "kubectl get events -o json|yaml",
            Format::Audit => "audit log (audit.k8s.io/v1)",
            Format::Klog => "kubelet log (klog)",
            Format::PodStatus => "kubectl get pod -o yaml|json (a snapshot)",
            Format::Describe => "kubectl describe (a snapshot and its events)",
            Format::EventsTable => "kubectl get events (table)",
            Format::ControllerLog => "kube-controller-manager log (klog)",
            Format::RuntimeLog => "container runtime log (containerd, CRI-O or dockerd journal)",
            Format::E2eLog => "e2e test framework log (the node's conditions as the test saw them)",
            Format::NodesTable => "kubectl get nodes (table)",
            Format::NpdLog => "node-problem-detector log (klog)",
            Format::KuredLog => "kured's log (the Kubernetes Reboot Daemon's pod)",
        }
    }
}

/// A line the reader did not understand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unread {
    pub line: usize,
    pub file: usize,
    pub why: String,
    /// The line, cut to 120 characters.
    pub text: String,
}

/// What one file gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub format: Format,
    /// Timestamps are wall-clock (`t_ms` since the epoch or the year), not relative ages.
    pub absolute: bool,
    pub obs: Vec<Obs>,
    pub unread: Vec<Unread>,
    /// Lines in the format that say nothing the model follows (other klog messages, other
    /// audit resources, events of other reasons).
    pub skipped: usize,
    /// What the reader wants said about this file (a snapshot's limits, values without a time).
    pub notes: Vec<String>,
    /// Wall-clock times without a year (klog, journald): `t_ms` counts from 1 January of an
    /// unknown year until `dispatch::align_years` puts them on another file's year.
    pub yearless: bool,
}

impl Evidence {
    /// An empty file's evidence of this format (`absolute`: wall-clock times).
    pub fn new(format: Format, absolute: bool) -> Self {
        Evidence {
            format,
            absolute,
            obs: Vec::new(),
            unread: Vec::new(),
            skipped: 0,
            notes: Vec::new(),
            yearless: false,
        }
    }
}

/// Input that cannot be read at all: the first line at fault and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

pub(crate) fn cut(s: &str) -> String {
    cut_to(s, 120)
}

/// `s` cut to `n` characters (an ellipsis when cut).
pub(crate) fn cut_to(s: &str, n: usize) -> String {
    let s = s.trim_end();
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// A line that is a comment in every text format read here (the fixtures' source line).
pub(crate) fn is_comment(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with('#') || t.starts_with("//")
}

/// A table row without the note a reporter wrote after it (`… v1.30.6 # 14m`): kubectl's
/// columns never hold ` # `.
pub(crate) fn without_note(l: &str) -> &str {
    l.split_once(" # ").map_or(l, |(row, _)| row.trim_end())
}

/// The file one pod's Ready changes are taken from when several files saw them (`mine`: that
/// pod's observations): the one with the most, the first of equals. Files keep their own clocks
/// (a watch's AGE, a journal's wall time), so two files' changes of one flap, merged by time,
/// would read as two flaps. Used by `explain`'s sequences and `observed`'s lanes alike.
pub(crate) fn ready_file(mine: &[&Obs]) -> Option<usize> {
    let mut per_file: Vec<(usize, usize)> = Vec::new();
    for o in mine {
        if matches!(o.what, What::ReadyChanged(_)) {
            match per_file.iter_mut().find(|(f, _)| *f == o.file) {
                Some((_, n)) => *n += 1,
                None => per_file.push((o.file, 1)),
            }
        }
    }
    per_file
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(f, _)| *f)
}

/// Programs whose command lines reporters paste above their output.
const COMMANDS: [&str; 22] = [
    "kubectl",
    "oc",
    "journalctl",
    "grep",
    "egrep",
    "zgrep",
    "cat",
    "tail",
    "head",
    "less",
    "crictl",
    "systemctl",
    "sudo",
    "docker",
    "kubeadm",
    "minikube",
    "kind",
    "zcat",
    "awk",
    "sed",
    "watch",
    "k3s",
];

/// An elision a reporter wrote (`[...]`, `...`, `…`, `<SNIP>`), or a markdown code fence
/// (` ``` `, ` ```bash `): no more data than a prompt.
pub(crate) fn is_elision(l: &str) -> bool {
    let t = l.trim();
    matches!(t, "[...]" | "..." | "…" | "[…]" | "(...)")
        || (t.len() >= 3 && t.chars().all(|c| c == '.' || c == '…'))
        || matches!(
            t.to_ascii_lowercase().as_str(),
            "<snip>" | "[snip]" | "(snip)" | "snip"
        )
        || (t.starts_with("```") && t[3..].bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A prompt and/or a command line (`[root@master ~]# kubectl get pod -w`, `$ k get po -w`,
/// `controlplane:~$ kubectl describe pod x`, `# grep SyncLoop kubelet.INFO`, a bare
/// `kubectl get events -w`): not data in any format. `k` (the usual alias) counts only before
/// `get`, `describe`, `logs`.
/// sudo's password prompt, as it stays in the terminal above the command's output
/// (`[sudo] password for ubuntu: `; sudo's `passprompt`, "[sudo] password for %p: ").
pub(crate) fn is_sudo_prompt(l: &str) -> bool {
    let t = l.trim();
    t.starts_with("[sudo] password for ") && t.ends_with(':')
}

pub(crate) fn is_command(l: &str) -> bool {
    let t = l.trim();
    // An elision a reporter wrote (`[...]`, `...`, `…`) is no more data than a prompt; nor is
    // sudo's password prompt under `sudo kubectl …`.
    if is_elision(t) || is_sudo_prompt(t) {
        return true;
    }
    // `[root@master ~]# …`, also with its `[` lost or a list marker before it (`2)
    // user@host ~]$ systemctl status kubelet`).
    let rest = if let Some(i) = t
        .find("]# ")
        .or_else(|| t.find("]$ "))
        .filter(|&i| t.starts_with('[') || t[..i].split_whitespace().any(|w| w.contains('@')))
    {
        // A `[user@host dir]#` prompt is the shell's, whatever the command after it (a
        // reporter's alias: `kbs get node`, sealos#728).
        let rest = &t[i + 3..];
        if t[..i].contains('@') && !rest.trim().is_empty() {
            return true;
        }
        rest
    } else {
        match t.split_once(' ') {
            Some((p, rest))
                if matches!(p.chars().last(), Some('$' | '#' | '%' | '>' | '➜'))
                    && (p.len() == 1 || p.contains('@') || p.contains(':') || p == "➜") =>
            {
                rest.trim_start()
            }
            // A prompt with a space before its sign (zsh's `host~/dir(master|✚3…) % k get
            // node`, kubernetes#35288).
            _ => [" % ", " $ ", " # "]
                .iter()
                .find_map(|sign| {
                    t.split_once(sign)
                        .filter(|(p, _)| !p.is_empty() && !p.contains(char::is_whitespace))
                        .map(|(_, r)| r.trim_start())
                })
                .unwrap_or(t),
        }
    };
    let mut words = rest.split_whitespace();
    match words.next() {
        Some("k") => matches!(words.next(), Some("get" | "describe" | "logs")),
        // A node named like a command (`minikube   NotReady   master …`) is a row.
        Some(w) => {
            COMMANDS.contains(&w)
                && (rest != t
                    || words.next().is_some_and(|x| {
                        !x.starts_with(':')
                            && !x.starts_with('=')
                            && !matches!(
                                x.split(',').next(),
                                Some("Ready" | "NotReady" | "Unknown")
                            )
                    }))
        }
        None => false,
    }
}

/// A node in an answer's words: "node n1", or "the node" when the paste does not name it (a
/// `describe node` cut above its `Name:`).
pub(crate) fn node_words(n: Option<&str>) -> String {
    n.map_or_else(|| "the node".to_string(), |n| format!("node {n}"))
}

/// A command line that restarts the kubelet: systemd's (`systemctl restart kubelet`, k3s's,
/// rke2's, MicroK8s's kubelite), SysV's `service kubelet restart`, `snap restart`.
pub(crate) fn restarts_kubelet(l: &str) -> bool {
    let t = l.trim();
    let restart = t.contains("restart ") || t.ends_with(" restart");
    let unit = [
        "kubelet",
        "k3s",
        "rke2-server",
        "rke2-agent",
        "kubelite",
        "microk8s",
    ]
    .iter()
    .any(|u| t.contains(u));
    restart && unit && !t.contains("containerd") && !t.contains("docker") && !t.contains("crio")
}
