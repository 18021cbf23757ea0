//! Two small choices a scenario makes: what a restart stops (`RestartKind`) and how a probe
//! runs (`Handler`). A leaf beside `types.rs`, which re-exports both.

use serde::{Deserialize, Serialize};

/// What a restart stops: the kubelet process (K1/K2), the container runtime (R1–R4: the
/// kubelet keeps running, containers keep running under their shims) or the whole node (B1–B3:
/// every process, every container). See docs/MODEL.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RestartKind {
    #[default]
    Kubelet,
    Runtime,
    Node,
}

impl RestartKind {
    pub const ALL: [RestartKind; 3] = [
        RestartKind::Kubelet,
        RestartKind::Runtime,
        RestartKind::Node,
    ];
    pub fn is_kubelet(&self) -> bool {
        *self == RestartKind::Kubelet
    }
    pub fn as_str(self) -> &'static str {
        match self {
            RestartKind::Kubelet => "kubelet",
            RestartKind::Runtime => "runtime",
            RestartKind::Node => "node",
        }
    }
    /// The words the figure and the CLI use for it.
    pub fn label(self) -> &'static str {
        match self {
            RestartKind::Kubelet => "kubelet restart",
            RestartKind::Runtime => "container runtime restart",
            RestartKind::Node => "node reboot",
        }
    }
    pub fn parse(s: &str) -> Option<RestartKind> {
        RestartKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s.trim().to_ascii_lowercase())
    }
    /// The kubelet process stops (a kubelet restart or a reboot).
    pub fn stops_kubelet(self) -> bool {
        self != RestartKind::Runtime
    }
}

/// How the kubelet runs a probe (`v1.ProbeHandler`; `pkg/kubelet/prober/prober.go` `runProbe`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Handler {
    #[default]
    #[serde(rename = "exec")]
    Exec,
    #[serde(rename = "httpGet")]
    HttpGet,
    #[serde(rename = "tcpSocket")]
    TcpSocket,
    #[serde(rename = "grpc")]
    Grpc,
}

impl Handler {
    pub const ALL: [Handler; 4] = [
        Handler::Exec,
        Handler::HttpGet,
        Handler::TcpSocket,
        Handler::Grpc,
    ];
    pub fn is_exec(&self) -> bool {
        *self == Handler::Exec
    }
    /// Kubernetes' field name.
    pub fn as_str(self) -> &'static str {
        match self {
            Handler::Exec => "exec",
            Handler::HttpGet => "httpGet",
            Handler::TcpSocket => "tcpSocket",
            Handler::Grpc => "grpc",
        }
    }
    pub fn parse(s: &str) -> Option<Handler> {
        Handler::ALL
            .into_iter()
            .find(|h| h.as_str().eq_ignore_ascii_case(s.trim()))
    }
    /// The probe goes through the container runtime (CRI `ExecSync`).
    pub fn via_runtime(self) -> bool {
        self == Handler::Exec
    }
}
