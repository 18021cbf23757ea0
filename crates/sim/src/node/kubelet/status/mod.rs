//! The kubelet's status logic: `generate` (pure functions: what the status should be) and
//! `manager` (the status manager's cache and patch-if-different).
//!
//! Mirrors `pkg/kubelet/status/` (`generate.go`, `status_manager.go`) and the parts of
//! `kubelet_pods.go` (`generateAPIPodStatus`, `convertToAPIContainerStatuses`) and
//! `prober_manager.go` (`UpdatePodStatus`, `isContainerStarted`) that decide Started and Ready.

pub mod generate;
pub mod manager;
