//! A pod template's `spec` (`PodSpec`) → the model's [`Pod`]: containers and init containers
//! (a sidecar is an init container with `restartPolicy: Always`), their probes with the
//! Kubernetes defaults (`SetDefaults_Probe`: period 10, timeout 1, success 1, failure 3; a 0 is
//! the default, as the API server's defaulting makes it), `terminationGracePeriodSeconds`, and
//! the tolerations of the `node.kubernetes.io/unreachable:NoExecute` taint as taint eviction reads
//! them (`getMinTolerationTime`). Called by `objects.rs`.

use crate::read::{Ctx, Obj};
use crate::yaml::{Node, Value};
use crate::ImportError;
use restartscope_sim::{Container, Pod, Probe, Workload};

/// The taints the node lifecycle controller puts on a node whose kubelet stopped, and on one
/// whose kubelet says NotReady.
pub(crate) const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
pub(crate) const NOT_READY: &str = "node.kubernetes.io/not-ready";

/// How long a pod tolerates `node.kubernetes.io/unreachable:NoExecute`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tolerates {
    /// No toleration for it: the DefaultTolerationSeconds admission plugin adds one of 300 s
    /// (`--default-unreachable-toleration-seconds`): the scenario's `cluster.toleration_s`.
    Default,
    /// The smallest `tolerationSeconds` of the tolerations that match (≤ 0: evicted at once).
    Seconds(i64),
    /// A matching toleration without `tolerationSeconds`: never evicted.
    Forever,
}

/// A pod template read: the model's pod (its name set by the caller), the pod's labels, its
/// unreachable toleration, and where each container and probe is in the manifest
/// (`containers[0].readiness_probe` → its node), to place validation errors.
pub(crate) struct Template {
    pub pod: Pod,
    pub tolerates: Tolerates,
    pub locs: Vec<(String, usize, usize)>,
    /// The pod's `restartPolicy` when it is not `Always`.
    pub restart_policy: Option<String>,
}

/// Reads `spec` (at `path`) of a pod of `workload`.
pub(crate) fn read(
    cx: &mut Ctx,
    spec: &Node,
    path: &str,
    workload: Workload,
) -> Result<Template, ImportError> {
    let mut s = Obj::new(cx, spec, path)?;
    let mut locs = Vec::new();
    let mut init_containers = Vec::new();
    for (j, n) in s.seq(cx, "initContainers")?.iter().enumerate() {
        let p = format!("{}[{j}]", s.at("initContainers"));
        init_containers.push(container(
            cx,
            n,
            &p,
            &format!("init_containers[{j}]"),
            &mut locs,
        )?);
    }
    let mut containers = Vec::new();
    for (j, n) in s.seq(cx, "containers")?.iter().enumerate() {
        let p = format!("{}[{j}]", s.at("containers"));
        containers.push(container(
            cx,
            n,
            &p,
            &format!("containers[{j}]"),
            &mut locs,
        )?);
    }
    let termination_grace_s = s
        .uint(cx, "terminationGracePeriodSeconds")?
        .map_or(30.0, f64::from);
    let (tolerates, model_tolerations) = tolerations(cx, &mut s)?;
    let node_affinity = node_affinity(cx, &mut s)?;
    let selector = s.get("nodeSelector");
    let node_selector = crate::read::labels(cx, selector, &s.at("nodeSelector"))?
        .into_iter()
        .collect();
    let restart_policy = s
        .str(cx, "restartPolicy")?
        .filter(|p| *p != "Always")
        .map(str::to_string);
    s.done(cx);
    Ok(Template {
        pod: Pod {
            name: String::new(),
            workload,
            owner: None,
            services: Vec::new(),
            termination_grace_s,
            init_containers,
            containers,
            node_selector,
            node_affinity,
            tolerations: model_tolerations,
        },
        tolerates,
        locs,
        restart_policy,
    })
}

fn container(
    cx: &mut Ctx,
    node: &Node,
    path: &str,
    model_path: &str,
    locs: &mut Vec<(String, usize, usize)>,
) -> Result<Container, ImportError> {
    let mut c = Obj::new(cx, node, path)?;
    locs.push((model_path.to_string(), node.line, node.column));
    let name = c
        .str(cx, "name")?
        .ok_or_else(|| cx.field(format!("{path}.name is required"), node))?
        .to_string();
    let restart_policy = c.str(cx, "restartPolicy")?.map(str::to_string);
    // The names of its ports, for a probe's named port (`ports` itself stays listed as not
    // used: it is read here only to check the probes).
    let port_names: Vec<&str> = match node.get("ports").map(|n| &n.value) {
        Some(Value::Seq(ps)) => ps
            .iter()
            .filter_map(|p| p.get("name").and_then(Node::as_str))
            .collect(),
        _ => Vec::new(),
    };
    let mut probes: [Option<Probe>; 3] = [None, None, None];
    for (slot, (key, model)) in probes.iter_mut().zip([
        ("startupProbe", "startup_probe"),
        ("readinessProbe", "readiness_probe"),
        ("livenessProbe", "liveness_probe"),
    ]) {
        if let Some(n) = c.get(key) {
            locs.push((format!("{model_path}.{model}"), n.line, n.column));
            *slot = Some(probe(cx, n, &c.at(key), &name, &port_names)?);
        }
    }
    c.done(cx);
    let [startup_probe, readiness_probe, liveness_probe] = probes;
    Ok(Container {
        name,
        restart_policy,
        startup_probe,
        readiness_probe,
        liveness_probe,
        warmup_s: 0.0,
        truth: Vec::new(),
    })
}

/// The four handlers a probe may have; exactly one (`validateHandler`).
const HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "grpc"];

/// A handler's contents in one line: `path: /healthz, port: http`, an exec's command.
fn handler_summary(n: &Node) -> String {
    fn one(n: &Node) -> String {
        match &n.value {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) => s.clone(),
            Value::Seq(v) => v.iter().map(one).collect::<Vec<_>>().join(" "),
            Value::Map(m) => m
                .iter()
                .map(|(k, v)| format!("{k}: {}", one(v)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
    let s = one(n);
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

fn probe(
    cx: &mut Ctx,
    node: &Node,
    path: &str,
    container: &str,
    port_names: &[&str],
) -> Result<Probe, ImportError> {
    let mut p = Obj::new(cx, node, path)?;
    let handlers: Vec<&str> = HANDLERS
        .into_iter()
        .filter(|h| p.get(h).is_some())
        .collect();
    if handlers.len() != 1 {
        let got = if handlers.is_empty() {
            "none".to_string()
        } else {
            handlers.join(" and ")
        };
        return Err(cx.field(
            format!("{path} must specify exactly one handler type (exec, httpGet, tcpSocket or grpc), got {got}"),
            node,
        ));
    }
    // The handler's type is used (an exec probe runs through the container runtime: rule R2);
    // its target is not: the model decides each probe's result from the container's modelled
    // state, not by running it.
    let h = handlers[0];
    if let Some(n) = node.get(h) {
        let contents = handler_summary(n);
        cx.unused(
            format!("{path}.{h}"),
            n,
            Some(&format!(
                "{h} ({contents}): the model uses the handler's type (an exec probe fails with the container runtime, the others do not) and times probes by periodSeconds, initialDelaySeconds, timeoutSeconds and the thresholds, taking each result from the container's modelled state; the handler's target decides a real probe's result, which the model does not run"
            )),
        );
        // A named port must name one of the container's ports; Kubernetes' validation allows
        // any IANA_SVC_NAME, and the kubelet fails the probe when it runs
        // (pkg/kubelet/prober/prober.go: probe.ResolveContainerPort → findPortByName,
        // "couldn't find port").
        if let Some(port) = n.get("port").and_then(Node::as_str) {
            if port.parse::<u16>().is_err() && !port_names.contains(&port) {
                let have = if port_names.is_empty() {
                    "it has no named port".to_string()
                } else {
                    format!("its ports are named {}", port_names.join(", "))
                };
                cx.notes.push(format!(
                    "{}: {path}.{h}.port {port:?} (line {}) names no port of container {container} ({have}): the kubelet fails this probe every time it runs (findPortByName)",
                    cx.object, n.line
                ));
            }
        }
    }
    // SetDefaults_Probe: an unset or 0 field is the default.
    let d = Probe::default();
    let mut field = |k: &'static str, default: u32| -> Result<u32, ImportError> {
        Ok(match p.uint(cx, k)? {
            None | Some(0) => default,
            Some(v) => v,
        })
    };
    let probe = Probe {
        period_s: field("periodSeconds", d.period_s)?,
        timeout_s: field("timeoutSeconds", d.timeout_s)?,
        success_threshold: field("successThreshold", d.success_threshold)?,
        failure_threshold: field("failureThreshold", d.failure_threshold)?,
        initial_delay_s: p.uint(cx, "initialDelaySeconds")?.unwrap_or(0),
        exec_s: d.exec_s,
        handler: restartscope_sim::Handler::parse(h).unwrap_or_default(),
    };
    p.skip(
        cx,
        "terminationGracePeriodSeconds",
        "a probe's own grace period is not modelled; a killed container stops at once",
    );
    p.done(cx);
    Ok(probe)
}

/// `spec.tolerations`: which match `node.kubernetes.io/unreachable:NoExecute` (`ToleratesTaint`:
/// the key, or an empty key with `Exists`; the effect, or none; `Exists`, or `Equal` to the
/// taint's empty value), and the smallest `tolerationSeconds` among them. A not-ready toleration
/// is listed as not used: the model's node never reports NotReady.
/// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`,
/// which the kubelet's admission checks again at each start; the rest of `affinity` (preferred
/// terms, pod affinity) is the scheduler's alone and stays listed as not used.
fn node_affinity(
    cx: &mut Ctx,
    s: &mut Obj,
) -> Result<Vec<restartscope_sim::SelectorTerm>, ImportError> {
    use restartscope_sim::{Requirement, SelectorOp, SelectorTerm};
    let Some(mut a) = s.obj(cx, "affinity")? else {
        return Ok(Vec::new());
    };
    let mut terms = Vec::new();
    let mut fields = false;
    if let Some(mut na) = a.obj(cx, "nodeAffinity")? {
        if let Some(mut r) = na.obj(cx, "requiredDuringSchedulingIgnoredDuringExecution")? {
            for (i, t) in r.seq(cx, "nodeSelectorTerms")?.iter().enumerate() {
                let mut to = Obj::new(cx, t, &format!("{}[{i}]", r.at("nodeSelectorTerms")))?;
                let mut term = SelectorTerm::default();
                for (j, e) in to.seq(cx, "matchExpressions")?.iter().enumerate() {
                    let path = format!("{}[{j}]", to.at("matchExpressions"));
                    let mut eo = Obj::new(cx, e, &path)?;
                    let key = eo
                        .str(cx, "key")?
                        .ok_or_else(|| cx.field(format!("{path}.key: Required value"), e))?;
                    let op = eo.str(cx, "operator")?.unwrap_or("");
                    let operator = match op {
                        "In" => SelectorOp::In,
                        "NotIn" => SelectorOp::NotIn,
                        "Exists" => SelectorOp::Exists,
                        "DoesNotExist" => SelectorOp::DoesNotExist,
                        "Gt" => SelectorOp::Gt,
                        "Lt" => SelectorOp::Lt,
                        _ => {
                            return Err(cx.field(
                                format!("{path}.operator: Unsupported value: {op:?}: supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\""),
                                e,
                            ))
                        }
                    };
                    let mut values = Vec::new();
                    for v in eo.seq(cx, "values")? {
                        values.push(match &v.value {
                            crate::yaml::Value::Str(x) => x.clone(),
                            crate::yaml::Value::Int(x) => x.to_string(),
                            _ => {
                                return Err(cx.field(
                                    format!("{path}.values must be strings, got {}", v.kind()),
                                    v,
                                ))
                            }
                        });
                    }
                    eo.done(cx);
                    term.match_expressions.push(Requirement {
                        key: key.to_string(),
                        operator,
                        values,
                    });
                }
                if to.get("matchFields").is_some() {
                    fields = true;
                }
                to.done(cx);
                terms.push(term);
            }
            r.done(cx);
        }
        na.done(cx);
    }
    a.done(cx);
    if fields {
        // A term on the node's own fields (metadata.name) cannot be checked without the
        // node's name: the pod is taken to fit, as the scheduler placed it.
        cx.notes.push(format!(
            "{}: a nodeSelectorTerm uses matchFields (the node's metadata.name), which the model's node has not: admission at the kubelet's start is taken to find the pod still fitting",
            s.at("affinity")
        ));
        return Ok(Vec::new());
    }
    Ok(terms)
}

/// The pod's tolerations: how long it tolerates the `unreachable` taint, and each toleration as
/// the kubelet's admission and the taint eviction controller match it against the node's taints.
fn tolerations(
    cx: &mut Ctx,
    s: &mut Obj,
) -> Result<(Tolerates, Vec<restartscope_sim::Toleration>), ImportError> {
    let mut all = Vec::new();
    let mut matched = false;
    let mut min: Option<i64> = None;
    for (i, n) in s.seq(cx, "tolerations")?.iter().enumerate() {
        let path = format!("{}[{i}]", s.at("tolerations"));
        let mut t = Obj::new(cx, n, &path)?;
        let key = t.str(cx, "key")?.unwrap_or("");
        let op = t.str(cx, "operator")?.unwrap_or("Equal");
        let value = t.str(cx, "value")?.unwrap_or("");
        let effect = t.str(cx, "effect")?.unwrap_or("");
        let secs = match t.get("tolerationSeconds") {
            None => None,
            Some(v) => match v.value {
                crate::yaml::Value::Int(i) => Some(i),
                _ => {
                    return Err(cx.field(
                        format!(
                            "{path}.tolerationSeconds must be an integer, got {}",
                            v.kind()
                        ),
                        v,
                    ))
                }
            },
        };
        if op != "Equal" && op != "Exists" {
            return Err(cx.field(
                format!("{path}.operator must be Equal or Exists, got {op:?}"),
                n,
            ));
        }
        let effect_of = |e: &str| match e {
            "NoSchedule" => Some(Some(restartscope_sim::Effect::NoSchedule)),
            "PreferNoSchedule" => Some(Some(restartscope_sim::Effect::PreferNoSchedule)),
            "NoExecute" => Some(Some(restartscope_sim::Effect::NoExecute)),
            "" => Some(None),
            _ => None,
        };
        let Some(model_effect) = effect_of(effect) else {
            return Err(cx.field(
                format!("{path}.effect must be NoSchedule, PreferNoSchedule or NoExecute, got {effect:?}"),
                n,
            ));
        };
        all.push(restartscope_sim::Toleration {
            key: key.to_string(),
            operator: if op == "Exists" {
                restartscope_sim::Operator::Exists
            } else {
                restartscope_sim::Operator::Equal
            },
            value: value.to_string(),
            effect: model_effect,
            toleration_seconds: secs,
        });
        let key_ok = key == UNREACHABLE || (key.is_empty() && op == "Exists");
        let effect_ok = effect.is_empty() || effect == "NoExecute";
        let value_ok = op == "Exists" || value.is_empty();
        if key_ok && effect_ok && value_ok {
            matched = true;
            if let Some(v) = secs {
                min = Some(min.map_or(v, |m: i64| m.min(v)));
            }
        } else if key == NOT_READY {
            cx.unused(
                path.clone(),
                n,
                Some("its not-ready time is the cluster's cluster.not_ready_toleration_s, the same for every pod; it is still matched against the node's own taints at admission"),
            );
        }
        t.done(cx);
    }
    let tolerates = match (matched, min) {
        (false, _) => Tolerates::Default,
        // getMinTolerationTime: any toleration with tolerationSeconds bounds the time.
        (true, Some(v)) => Tolerates::Seconds(v),
        (true, None) => Tolerates::Forever,
    };
    Ok((tolerates, all))
}
