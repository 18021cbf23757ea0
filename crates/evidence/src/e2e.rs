//! The Kubernetes e2e test framework's log, as flake reports paste it: `Feb 25 11:53:11.774:
//! INFO: …` (the framework's `Logf`, `test/e2e/framework/log.go`), also inside a prow build log
//! whose own prefix comes first (`I0513 20:23:46.093] May 13 20:15:45.596: INFO: …`). Not the
//! kubelet's log: what the test saw of the node. Read: the node's Ready condition as the
//! framework waits on it (`test/e2e/framework/node/resource.go` `isNodeConditionSetAsExpected`:
//! "Condition Ready of node N is false instead of true. Reason: R, message: M"), which the
//! kubelet (or the node controller) wrote.

use crate::time;
use crate::types::What;

/// The framework's line: (ms since 1 January, the message after the level).
pub(crate) fn line(l: &str) -> Option<(i64, &str)> {
    let l = strip_prow(l.trim_start());
    let mut it = l.splitn(4, ' ');
    let (mon, day, hms) = (it.next()?, it.next()?, it.next()?);
    let t = time::journal(mon, day, hms.strip_suffix(':')?)?;
    let rest = it.next()?;
    let (level, msg) = rest.split_once(": ")?;
    matches!(level, "INFO" | "FAIL" | "WARNING" | "STEP").then_some((t, msg))
}

/// A prow build log's own prefix (`I0513 20:23:46.093] `): the time the CI read the line.
fn strip_prow(l: &str) -> &str {
    let b = l.as_bytes();
    let prow = b.len() > 20
        && matches!(b[0], b'I' | b'W' | b'E')
        && l.get(1..5)
            .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()))
        && l.get(18..20) == Some("] ");
    if prow {
        &l[20..]
    } else {
        l
    }
}

/// Ginkgo's step line as the framework printed it before its time stamps (`STEP: Restarting
/// kubelet`): what the test does next, not an observation.
pub(crate) fn is_step(l: &str) -> bool {
    l.trim_start().starts_with("STEP: ")
}

/// What a framework message says: (the node, if named; the observation). The framework's ssh
/// command restarting the kubelet (`e2essh`'s "ssh root@10.0.0.5:22: command: sudo systemctl
/// restart kubelet", as the restart tests run it) is the kubelet restarted then.
pub(crate) fn says(msg: &str) -> Option<(Option<String>, What)> {
    if let Some((_, cmd)) = msg
        .split_once(": command: ")
        .filter(|(s, _)| s.starts_with("ssh "))
    {
        return crate::types::restarts_kubelet(cmd).then_some((None, What::KubeletStarted));
    }
    let rest = msg.strip_prefix("Condition Ready of node ")?;
    let (node, rest) = rest.split_once(" is ")?;
    let (value, rest) = rest.split_once(" instead of ")?;
    let message = rest.split_once(", message: ").map_or("", |(_, m)| m).trim();
    let what = match value {
        "true" => What::NodeReady(true),
        _ if message.is_empty() => What::NodeReady(false),
        _ => What::NodeNotReadyBecause(message.to_string()),
    };
    Some((Some(node.to_string()), what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framework_lines_with_and_without_prow() {
        let (t, m) = line("Feb 25 11:53:11.774: INFO: Condition Ready of node n1 is false instead of true. Reason: KubeletNotReady, message: container runtime is down").unwrap();
        assert_eq!(t, time::journal("Feb", "25", "11:53:11.774").unwrap());
        assert_eq!(
            says(m),
            Some((
                Some("n1".into()),
                What::NodeNotReadyBecause("container runtime is down".into())
            ))
        );
        let (_, m) = line("I0513 20:23:46.093] May 13 20:15:45.596: INFO: node \"n1\" unschedulable=false ready=false").unwrap();
        assert_eq!(says(m), None);
        assert!(line("Mar 08 19:24:47 host kubelet[1]: I0308 …").is_none());
    }
}
