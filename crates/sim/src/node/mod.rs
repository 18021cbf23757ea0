//! One node: its container runtime and its kubelet. The runtime survives kubelet restarts;
//! the kubelet's memory does not.

pub mod kubelet;
pub mod runtime;

use kubelet::Kubelet;
use runtime::Runtime;

pub struct Node<'a> {
    pub runtime: Runtime<'a>,
    pub kubelet: Kubelet<'a>,
}
