//! node-problem-detector's own log: the status each of its monitors generates, as
//! `pkg/systemlogmonitor/log_monitor.go` `processLog` logs it (`glog.Infof("New status
//! generated: %+v", status)`):
//!
//! `I0820 02:06:49.633546 1 log_monitor.go:159] New status generated: &{Source:systemd-monitor
//! Events:[{Severity:warn Timestamp:2024-08-20 02:05:43.239889 +0000 UTC Reason:ContainerdStart
//! Message:Starting containerd container runtime...}] Conditions:[]}`
//!
//! Each event is read through the reasons every events reader shares (`reasons.rs`: the
//! systemd-monitor's `KubeletStart`, `DockerStart`, `ContainerdStart`; the kernel monitor's
//! `OOMKilling`), at the time of the journal line it matched ("We use the timestamp of the first
//! log line as the timestamp of the status", `generateStatus`), not at the time NPD logged it:
//! its `lookback` reads the journal since boot, minutes late. Called by `klog::read`.

use crate::reasons::{self, On};
use crate::types::What;

/// An event's time as (MMDD, hh:mm:ss.micro), for `time::klog`.
type At = Option<(String, String)>;

/// A `New status generated: &{Source:…}` message: its source (the monitor) and each event
/// read, with its time. `None` for another message.
pub(crate) fn status(m: &str) -> Option<(String, Vec<(At, What)>)> {
    let rest = m.strip_prefix("New status generated: &{Source:")?;
    let source = rest.split([' ', '}']).next().unwrap_or("").to_string();
    let mut out = Vec::new();
    // `%+v` of []types.Event: `{Severity:warn Timestamp:… Reason:R Message:M}` each. Message is
    // last and free text, so an event ends at "}" followed by " {" or "]".
    let events = rest.split_once(" Events:[").map_or("", |(_, e)| e);
    for ev in events.split("} {") {
        let field = |k: &str, next: &str| -> Option<String> {
            let i = ev.find(&format!("{k}:"))? + k.len() + 1;
            let v = &ev[i..];
            let end = if next.is_empty() {
                v.find("}]").unwrap_or(v.len())
            } else {
                v.find(&format!(" {next}:")).unwrap_or(v.len())
            };
            Some(v[..end].trim_start_matches('{').to_string())
        };
        let (Some(reason), message) = (field("Reason", "Message"), field("Message", "")) else {
            continue;
        };
        let at = field("Timestamp", "Reason").and_then(|t| {
            // "2024-08-20 02:05:43.239889 +0000 UTC"
            let mut p = t.split(' ');
            let (date, hms) = (p.next()?, p.next()?);
            let mut d = date.split('-').skip(1);
            Some((format!("{}{}", d.next()?, d.next()?), hms.to_string()))
        });
        if let Some((what, _)) =
            reasons::said(&reason, On::Node, message.as_deref().unwrap_or(""), None)
        {
            out.push((at, what));
        }
    }
    Some((source, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kops#16763's line (paste 77): one ContainerdStart at 02:05:43, logged at 02:06:49.
    #[test]
    fn systemd_monitor_event() {
        let m = "New status generated: &{Source:systemd-monitor Events:[{Severity:warn Timestamp:2024-08-20 02:05:43.239889 +0000 UTC Reason:ContainerdStart Message:Starting containerd container runtime...}] Conditions:[]}";
        let (src, evs) = status(m).unwrap();
        assert_eq!(src, "systemd-monitor");
        assert_eq!(
            evs,
            vec![(
                Some(("0820".into(), "02:05:43.239889".into())),
                What::RuntimeStarted("containerd".into())
            )]
        );
        // A custom plugin's condition only: no event.
        let c = "New status generated: &{Source:health-checker Events:[] Conditions:[{Type:ContainerRuntimeUnhealthy Status:False}]}";
        assert_eq!(status(c).unwrap().1, vec![]);
        assert_eq!(status("Start logs from plugin {Type:permanent}"), None);
    }
}
