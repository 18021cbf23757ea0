//! API server audit log: one `audit.k8s.io/v1` `Event` a line (the log backend's format).
//! Read at stage `ResponseComplete` (the other stages of the same request are skipped):
//! pod `status` patches/updates (who wrote them: `user.username`, `system:node:<node>` for a
//! kubelet, the node lifecycle controller's service account); with a request body (level
//! Request or RequestResponse) its Ready condition and containers' `started` / `restartCount`;
//! lease updates in `kube-node-lease` (the kubelet's heartbeat); node status writes with a
//! Ready condition; pod deletions. The time is `requestReceivedTimestamp`.

use crate::time;
use crate::types::{cut, is_comment, Evidence, Format, Obs, Unread, What};
use serde_json::Value as J;
use std::collections::BTreeMap;

fn s<'a>(v: &'a J, path: &[&str]) -> Option<&'a str> {
    let mut v = v;
    for p in path {
        v = v.get(p)?;
    }
    v.as_str()
}

/// The Ready condition's status in a status body (`status.conditions[type=Ready]`).
fn ready_in(body: &J) -> Option<bool> {
    body.get("status")?
        .get("conditions")?
        .as_array()?
        .iter()
        .find(|c| s(c, &["type"]) == Some("Ready"))
        .and_then(|c| s(c, &["status"]))
        .map(|st| st == "True")
}

/// (any container started, total restarts) in a status body's `containerStatuses`.
fn containers_in(body: &J) -> (Option<bool>, Option<u32>) {
    let Some(cs) = body
        .get("status")
        .and_then(|st| st.get("containerStatuses"))
        .and_then(J::as_array)
    else {
        return (None, None);
    };
    let started: Vec<bool> = cs
        .iter()
        .filter_map(|c| c.get("started").and_then(J::as_bool))
        .collect();
    let restarts: Vec<u64> = cs
        .iter()
        .filter_map(|c| c.get("restartCount").and_then(J::as_u64))
        .collect();
    (
        (!started.is_empty()).then(|| started.iter().all(|b| *b)),
        (!restarts.is_empty()).then(|| restarts.iter().sum::<u64>() as u32),
    )
}

#[derive(Default, Clone, Copy)]
struct PodState {
    ready: Option<bool>,
    started: Option<bool>,
    restarts: Option<u32>,
}

pub(crate) fn read(text: &str) -> Evidence {
    let mut ev = Evidence {
        format: Format::Audit,
        absolute: true,
        obs: Vec::new(),
        unread: Vec::new(),
        skipped: 0,
        notes: Vec::new(),
        yearless: false,
    };
    let mut pods: BTreeMap<String, PodState> = BTreeMap::new();
    // Nodes whose kubelet version is recorded (from the first write's userAgent).
    let mut versions: BTreeMap<String, String> = BTreeMap::new();
    for (n, l) in text.lines().enumerate() {
        let line = n + 1;
        if l.trim().is_empty() || is_comment(l) {
            continue;
        }
        let mut unread = |why: String| {
            ev.unread.push(Unread {
                line,
                file: 0,
                why,
                text: cut(l),
            })
        };
        let e: J = match serde_json::from_str(l) {
            Ok(e) => e,
            Err(err) => {
                unread(format!("not a JSON audit event ({err})"));
                continue;
            }
        };
        if !s(&e, &["apiVersion"]).is_some_and(|v| v.starts_with("audit.k8s.io/"))
            || s(&e, &["kind"]) != Some("Event")
        {
            unread("JSON, but not an audit.k8s.io Event".into());
            continue;
        }
        if s(&e, &["stage"]).is_some_and(|st| st != "ResponseComplete") {
            ev.skipped += 1;
            continue;
        }
        let Some(t_ms) = s(&e, &["requestReceivedTimestamp"])
            .or_else(|| s(&e, &["stageTimestamp"]))
            .and_then(time::rfc3339)
        else {
            unread("an audit event without requestReceivedTimestamp".into());
            continue;
        };
        let code = e
            .get("responseStatus")
            .and_then(|r| r.get("code"))
            .and_then(J::as_u64)
            .unwrap_or(200);
        let verb = s(&e, &["verb"]).unwrap_or("");
        let resource = s(&e, &["objectRef", "resource"]).unwrap_or("");
        let sub = s(&e, &["objectRef", "subresource"]).unwrap_or("");
        let ns = s(&e, &["objectRef", "namespace"]).unwrap_or("");
        let name = s(&e, &["objectRef", "name"]).unwrap_or("").to_string();
        let user = s(&e, &["user", "username"]).map(str::to_string);
        let writes = matches!(verb, "patch" | "update");
        let relevant = (resource == "pods" && (sub == "status" && writes || verb == "delete"))
            || (resource == "leases" && ns == "kube-node-lease" && writes)
            || (resource == "nodes" && sub == "status" && writes);
        if !relevant {
            ev.skipped += 1;
            continue;
        }
        if code >= 300 {
            unread(format!(
                "a {verb} of {resource} {name} that failed (HTTP {code}): nothing was written"
            ));
            continue;
        }
        // The kubelet names itself in its userAgent (`kubelet/v1.20.1 (linux/amd64) kubernetes/…`,
        // client-go's default user agent, k8s.io/client-go/rest/config.go DefaultKubernetesUserAgent).
        let agent = s(&e, &["userAgent"])
            .and_then(|a| a.strip_prefix("kubelet/"))
            .and_then(|a| a.split_whitespace().next());
        if let (Some(v), Some(node)) = (
            agent,
            user.as_deref().and_then(|u| u.strip_prefix("system:node:")),
        ) {
            if versions.get(node).map(String::as_str) != Some(v) {
                versions.insert(node.to_string(), v.to_string());
                ev.obs.push(Obs {
                    t_ms,
                    pod: None,
                    node: Some(node.to_string()),
                    what: What::KubeletVersion(v.to_string()),
                    by: user.clone(),
                    line,
                    file: 0,
                });
            }
        }
        let mut push = |pod: Option<String>, node: Option<String>, what: What| {
            ev.obs.push(Obs {
                t_ms,
                pod,
                node,
                what,
                by: user.clone(),
                line,
                file: 0,
            })
        };
        let node_of_user = user
            .as_deref()
            .and_then(|u| u.strip_prefix("system:node:"))
            .map(str::to_string);
        match resource {
            "leases" => push(None, Some(name), What::LeaseRenewed),
            "nodes" => {
                let body = e.get("requestObject").unwrap_or(&J::Null);
                match ready_in(body) {
                    Some(r) => push(None, Some(name), What::NodeReady(r)),
                    None => ev.skipped += 1,
                }
            }
            _ if verb == "delete" => push(Some(name), node_of_user, What::PodDeleted),
            _ => {
                let body = e
                    .get("requestObject")
                    .or_else(|| e.get("responseObject"))
                    .unwrap_or(&J::Null);
                let st = pods.entry(name.clone()).or_default();
                let ready = ready_in(body);
                let (started, restarts) = containers_in(body);
                let mut any = false;
                if let Some(r) = ready {
                    any = true;
                    let what = match st.ready {
                        None => Some(What::ReadyAtStart(r)),
                        Some(was) if was != r => Some(What::ReadyChanged(r)),
                        _ => None,
                    };
                    st.ready = Some(r);
                    if let Some(w) = what {
                        push(Some(name.clone()), node_of_user.clone(), w);
                    }
                }
                if let Some(sd) = started {
                    any = true;
                    if st.started.is_some_and(|was| was != sd) {
                        push(
                            Some(name.clone()),
                            node_of_user.clone(),
                            What::StartedChanged(sd),
                        );
                    }
                    st.started = Some(sd);
                }
                if let Some(rc) = restarts {
                    any = true;
                    if st.restarts.is_some_and(|was| rc > was) {
                        push(
                            Some(name.clone()),
                            node_of_user.clone(),
                            What::Restarted(rc),
                        );
                    }
                    st.restarts = Some(rc);
                }
                if !any {
                    push(Some(name), node_of_user, What::StatusWritten);
                }
            }
        }
    }
    ev.obs.sort_by_key(|o| (o.t_ms, o.line));
    ev
}
