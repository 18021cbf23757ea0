//! A node's Conditions as `kubectl describe node` prints them (`describe.go`
//! `describeNode`: Type, Status, LastHeartbeatTime, LastTransitionTime, Reason, Message, apart
//! by two spaces or more; tabs before kubectl 1.5), and the fragments reporters paste of them:
//! one row without the header, the Ready condition's Reason and Message alone, a table trimmed of
//! its time columns. Read by `describe`.

use crate::time;

/// A node's own condition types (the kubelet's `nodestatus/setters.go`; OutOfDisk before 1.13;
/// the cloud route controller's NetworkUnavailable): a table of them is a node's.
pub(crate) const TYPES: [&str; 5] = [
    "MemoryPressure",
    "DiskPressure",
    "PIDPressure",
    "OutOfDisk",
    "NetworkUnavailable",
];

/// A row's cells: apart by two spaces or more, or by tabs.
fn cols(t: &str) -> Vec<String> {
    t.replace('\t', "  ")
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// A row of a node's Conditions table (`Ready  False  <heartbeat>  <transition>  KubeletNotReady
/// PLEG is not healthy: …`), pasted without the table's header.
pub(crate) fn row(t: &str) -> bool {
    let c = cols(t);
    c.len() >= 5
        && matches!(c[1].as_str(), "True" | "False" | "Unknown")
        && time::rfc1123z(&c[2]).is_some()
        && time::rfc1123z(&c[3]).is_some()
}

/// The node Ready condition's Reason and Message alone (`KubeletNotReady  container runtime is
/// down,PLEG is not healthy: …`): the kubelet's (`nodestatus/setters.go` ReadyCondition) or the
/// node lifecycle controller's (`NodeStatusUnknown`), and the message.
pub(crate) fn fragment(t: &str) -> Option<(&'static str, &str)> {
    let (reason, msg) = t.split_once("  ")?;
    let by = match reason {
        "KubeletNotReady" => "kubelet",
        "NodeStatusUnknown" => "node-controller",
        _ => return None,
    };
    let msg = msg.trim();
    (!msg.is_empty()).then_some((by, msg))
}

/// The header's rule: dashes, or box-drawing lines (kubectl 1.1–1.3).
pub(crate) fn rule(t: &str) -> bool {
    let t = t.trim();
    t.is_empty() || t.starts_with("--") || t.starts_with('─')
}

/// The Ready row's (status, its last transition in ms or 0, message), by the columns the
/// table's header names (`header`: `Type Status LastHeartbeatTime …`, or a trimmed `Type Status
/// Reason Message`); `None` for another row.
pub(crate) fn ready(t: &str, header: &[String]) -> Option<(&'static str, i64, String)> {
    let c = cols(t);
    if c.first().map(String::as_str) != Some("Ready") {
        return None;
    }
    let at = |n: &str| header.iter().position(|h| h == n);
    let since = (at("LastTransitionTime").and_then(|i| c.get(i)))
        .and_then(|x| time::rfc1123z(x))
        .unwrap_or(0);
    let message = (at("Message").and_then(|i| c.get(i..))).map_or(String::new(), |m| m.join("  "));
    let status = match at("Status").and_then(|i| c.get(i)).map(String::as_str) {
        Some("True") => "True",
        Some("False") => "False",
        Some("Unknown") => "Unknown",
        _ => return None,
    };
    Some((status, since, message))
}

/// Another condition's row written by the node lifecycle controller when the kubelet stopped
/// posting (`tryUpdateNodeHealth` sets every condition Unknown, reason NodeStatusUnknown,
/// "Kubelet stopped posting node status."): its last transition in ms or 0, and the message. A
/// paste cut before the Ready row (kubespray#4900's) still says the node is NotReady.
pub(crate) fn stopped_posting(t: &str, header: &[String]) -> Option<(i64, String)> {
    let c = cols(t);
    let at = |n: &str| header.iter().position(|h| h == n);
    let status = c.get(at("Status")?)?;
    let reason = c.get(at("Reason")?)?;
    if status != "Unknown" || reason != "NodeStatusUnknown" {
        return None;
    }
    let since = (at("LastTransitionTime").and_then(|i| c.get(i)))
        .and_then(|x| time::rfc1123z(x))
        .unwrap_or(0);
    let message = (at("Message").and_then(|i| c.get(i..))).map_or(String::new(), |m| m.join("  "));
    Some((since, message))
}
