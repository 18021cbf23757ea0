//! Documents → objects: workloads (where each kind keeps its pod template, how many pods it
//! asks for), Services (their selectors) and PodDisruptionBudgets. Checks `apiVersion` and
//! `kind` as the API server would route them; a `kind: List` (what `kubectl get -o yaml`
//! prints) is read item by item. Everything not read is listed as not used. Called by `lib.rs`;
//! `build.rs` makes the scenario from [`Objects`].

use crate::podspec::{self, Template};
use crate::read::{labels, Ctx, Obj};
use crate::settings::{self, ClusterSettings};
use crate::yaml::{Node, Value};
use crate::{ErrorKind, ImportError, Unused};
use restartscope_sim::{IntOrPercent, Workload};

/// The workload kinds, the `apiVersion`s Kubernetes serves (or served) them under, and where
/// the pod template is.
const WORKLOADS: &[(&str, &[&str], Template_)] = &[
    ("Pod", &["v1"], Template_::Spec),
    (
        "Deployment",
        &[
            "apps/v1",
            "apps/v1beta2",
            "apps/v1beta1",
            "extensions/v1beta1",
        ],
        Template_::Template,
    ),
    (
        "StatefulSet",
        &["apps/v1", "apps/v1beta2", "apps/v1beta1"],
        Template_::Template,
    ),
    (
        "DaemonSet",
        &["apps/v1", "apps/v1beta2", "extensions/v1beta1"],
        Template_::Template,
    ),
    (
        "ReplicaSet",
        &["apps/v1", "apps/v1beta2", "extensions/v1beta1"],
        Template_::Template,
    ),
    ("Job", &["batch/v1"], Template_::Template),
    (
        "CronJob",
        &["batch/v1", "batch/v1beta1"],
        Template_::JobTemplate,
    ),
];

/// The other kinds the importer reads.
const SERVICE: (&str, &[&str]) = ("Service", &["v1"]);
const PDB: (&str, &[&str]) = ("PodDisruptionBudget", &["policy/v1", "policy/v1beta1"]);

#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
enum Template_ {
    /// A Pod: `spec`.
    Spec,
    /// `spec.template.spec`, replicas at `spec.replicas` (a Job: `spec.parallelism`).
    Template,
    /// A CronJob: `spec.jobTemplate.spec.template.spec`.
    JobTemplate,
}

pub(crate) struct WorkloadObj {
    pub kind: &'static str,
    pub name: String,
    pub source: String,
    pub document: usize,
    pub replicas: u32,
    pub labels: Vec<(String, String)>,
    pub template: Template,
}

pub(crate) struct ServiceObj {
    pub name: String,
    pub selector: Vec<(String, String)>,
}

pub(crate) struct PdbObj {
    pub name: String,
    pub match_labels: Vec<(String, String)>,
    pub min_available: Option<IntOrPercent>,
    pub max_unavailable: Option<IntOrPercent>,
}

#[derive(Default)]
pub(crate) struct Objects {
    pub workloads: Vec<WorkloadObj>,
    pub services: Vec<ServiceObj>,
    pub pdbs: Vec<PdbObj>,
    /// Objects of other kinds: (`ConfigMap web-config`, source, line, column).
    pub others: Vec<(String, String, usize, usize)>,
    pub unused: Vec<Unused>,
    pub notes: Vec<String>,
    /// A KubeletConfiguration's and kube-controller-manager's settings (not workloads).
    pub settings: ClusterSettings,
}

impl Objects {
    /// Reads one document of `source`.
    pub fn read(&mut self, source: &str, document: usize, root: &Node) -> Result<(), ImportError> {
        let mut cx = Ctx {
            source: source.to_string(),
            document,
            object: format!("document {document}"),
            unused: Vec::new(),
        };
        self.object(&mut cx, root, "")?;
        self.unused.append(&mut cx.unused);
        Ok(())
    }

    fn object(&mut self, cx: &mut Ctx, root: &Node, at: &str) -> Result<(), ImportError> {
        let mut o = Obj::new(cx, root, at)?;
        let kind_path = o.at("kind");
        let kind = o
            .str(cx, "kind")?
            .ok_or_else(|| cx.error(ErrorKind::ApiVersion, format!("{kind_path} is required (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob)"), Some(root)))?;
        let api_path = o.at("apiVersion");
        let api = o.str(cx, "apiVersion")?.ok_or_else(|| {
            cx.error(
                ErrorKind::ApiVersion,
                format!("{api_path} is required (kind {kind})"),
                Some(root),
            )
        })?;
        if kind.ends_with("List") {
            if kind != "List" {
                cx.object = kind.to_string();
            }
            let items = o.seq(cx, "items")?;
            let base = o.at("items");
            o.skip(cx, "metadata", "a list's metadata");
            o.done(cx);
            for (i, item) in items.iter().enumerate() {
                self.object(cx, item, &format!("{base}[{i}]"))?;
            }
            return Ok(());
        }
        // The cluster's settings, not workloads: a KubeletConfiguration, kube-controller-manager's
        // static pod.
        let place = |cx: &Ctx| {
            let src = if cx.source.is_empty() {
                "the input"
            } else {
                &cx.source
            };
            format!("{src} (document {})", cx.document)
        };
        if kind == "KubeletConfiguration" {
            let s =
                settings::from_kubelet_config(&place(cx), root).map_err(|m| cx.field(m, root))?;
            self.settings.extend(s);
            return Ok(());
        }
        if let Some(words) = settings::controller_manager_pod(root) {
            let src = format!("{}, kube-controller-manager's static pod", place(cx));
            let s = settings::from_flags(&src, &words).map_err(|m| cx.field(m, root))?;
            self.settings.extend(s);
            return Ok(());
        }
        let mut meta = o.obj(cx, "metadata")?;
        let name = match &mut meta {
            Some(m) => m.str(cx, "name")?.map(str::to_string),
            None => None,
        };
        let name = name.ok_or_else(|| {
            cx.field(
                format!("{} is required (kind {kind})", o.at("metadata.name")),
                root,
            )
        })?;
        cx.object = format!("{kind} {name}");
        if let Some(&(k, served, shape)) = WORKLOADS.iter().find(|w| w.0 == kind) {
            check_api(cx, &o, api, kind, served)?;
            if api != served[0] {
                self.notes.push(format!(
                    "{} {name}: apiVersion {api} is no longer served by Kubernetes; read as {}",
                    k, served[0]
                ));
            }
            self.workload(cx, &mut o, meta, k, name, shape)?;
            o.done(cx);
        } else if kind == SERVICE.0 {
            check_api(cx, &o, api, kind, SERVICE.1)?;
            if let Some(m) = meta {
                m.done(cx);
            }
            let mut spec = o.obj(cx, "spec")?;
            let selector = match &mut spec {
                Some(s) => {
                    let p = s.at("selector");
                    labels(cx, s.get("selector"), &p)?
                }
                None => Vec::new(),
            };
            if let Some(s) = spec {
                s.done(cx);
            }
            o.done(cx);
            self.services.push(ServiceObj { name, selector });
        } else if kind == PDB.0 {
            check_api(cx, &o, api, kind, PDB.1)?;
            if let Some(m) = meta {
                m.done(cx);
            }
            let pdb = self.pdb(cx, &mut o, name)?;
            o.done(cx);
            self.pdbs.push(pdb);
        } else {
            self.others
                .push((cx.object.clone(), cx.source.clone(), root.line, root.column));
            // The whole object is not used: one entry, not one per field.
            let at = if at.is_empty() {
                "(the whole object)".to_string()
            } else {
                at.to_string()
            };
            cx.unused(
                at,
                root,
                Some("not a workload, Service or PodDisruptionBudget"),
            );
        }
        Ok(())
    }

    fn workload(
        &mut self,
        cx: &mut Ctx,
        o: &mut Obj,
        meta: Option<Obj>,
        kind: &'static str,
        name: String,
        shape: Template_,
    ) -> Result<(), ImportError> {
        let workload = if kind == "DaemonSet" {
            Workload::DaemonSet
        } else {
            Workload::Deployment
        };
        let (template, labels_, replicas) = match shape {
            Template_::Spec => {
                let mut meta = meta;
                let l = match &mut meta {
                    Some(m) => {
                        let p = m.at("labels");
                        labels(cx, m.get("labels"), &p)?
                    }
                    None => Vec::new(),
                };
                if let Some(m) = meta {
                    m.done(cx);
                }
                let spec = o
                    .get("spec")
                    .ok_or_else(|| cx.field(format!("{} is required", o.at("spec")), o.node))?;
                let path = o.at("spec");
                (podspec::read(cx, spec, &path, workload)?, l, 1)
            }
            Template_::Template | Template_::JobTemplate => {
                if let Some(m) = meta {
                    m.done(cx);
                }
                let mut outer = o
                    .obj(cx, "spec")?
                    .ok_or_else(|| cx.field(format!("{} is required", o.at("spec")), o.node))?;
                let (outer, mut spec) = if let Template_::JobTemplate = shape {
                    let mut jt = outer.obj(cx, "jobTemplate")?.ok_or_else(|| {
                        cx.field(
                            format!("{} is required", outer.at("jobTemplate")),
                            outer.node,
                        )
                    })?;
                    let js = jt.obj(cx, "spec")?.ok_or_else(|| {
                        cx.field(format!("{} is required", jt.at("spec")), jt.node)
                    })?;
                    jt.done(cx);
                    (Some(outer), js)
                } else {
                    (None, outer)
                };
                let replicas = match kind {
                    "DaemonSet" => 1,
                    "Job" | "CronJob" => {
                        let par = spec.uint(cx, "parallelism")?.unwrap_or(1);
                        match spec.uint(cx, "completions")? {
                            Some(c) => par.min(c),
                            None => par,
                        }
                    }
                    _ => spec.uint(cx, "replicas")?.unwrap_or(1),
                };
                let mut tpl = spec.obj(cx, "template")?.ok_or_else(|| {
                    cx.field(format!("{} is required", spec.at("template")), spec.node)
                })?;
                let l = match tpl.obj(cx, "metadata")? {
                    Some(mut m) => {
                        let p = m.at("labels");
                        let l = labels(cx, m.get("labels"), &p)?;
                        m.done(cx);
                        l
                    }
                    None => Vec::new(),
                };
                let ps = tpl
                    .get("spec")
                    .ok_or_else(|| cx.field(format!("{} is required", tpl.at("spec")), tpl.node))?;
                let t = podspec::read(cx, ps, &tpl.at("spec"), workload)?;
                tpl.done(cx);
                spec.done(cx);
                if let Some(outer) = outer {
                    outer.done(cx);
                }
                (t, l, replicas)
            }
        };
        if let Some(p) = &template.restart_policy {
            self.notes.push(format!(
                "{kind} {name}: restartPolicy {p}: the model restarts every exited container (restartPolicy Always) and its pods never complete"
            ));
        }
        if kind == "DaemonSet" && template.tolerates != podspec::Tolerates::Default {
            self.notes.push(format!(
                "DaemonSet {name}: the DaemonSet controller replaces its unreachable toleration by one without tolerationSeconds (AddOrUpdateDaemonPodTolerations): its pods are never evicted"
            ));
        }
        self.workloads.push(WorkloadObj {
            kind,
            name,
            source: cx.source.clone(),
            document: cx.document,
            replicas,
            labels: labels_,
            template,
        });
        Ok(())
    }

    fn pdb(&mut self, cx: &mut Ctx, o: &mut Obj, name: String) -> Result<PdbObj, ImportError> {
        let mut spec = o
            .obj(cx, "spec")?
            .ok_or_else(|| cx.field(format!("{} is required", o.at("spec")), o.node))?;
        let mut int_or_pct = |key: &'static str| -> Result<Option<IntOrPercent>, ImportError> {
            let path = spec.at(key);
            Ok(match spec.get(key) {
                None => None,
                Some(n) => Some(match &n.value {
                    Value::Int(i) => IntOrPercent::Int(*i),
                    Value::Str(s) => IntOrPercent::Str(s.clone()),
                    _ => {
                        return Err(cx.field(
                            format!("{path} must be an integer or a percent, got {}", n.kind()),
                            n,
                        ))
                    }
                }),
            })
        };
        let min_available = int_or_pct("minAvailable")?;
        let max_unavailable = int_or_pct("maxUnavailable")?;
        let match_labels = match spec.obj(cx, "selector")? {
            Some(mut sel) => {
                let p = sel.at("matchLabels");
                let l = labels(cx, sel.get("matchLabels"), &p)?;
                sel.skip(
                    cx,
                    "matchExpressions",
                    "only matchLabels is read to find the budget's pods",
                );
                sel.done(cx);
                l
            }
            None => Vec::new(),
        };
        spec.done(cx);
        Ok(PdbObj {
            name,
            match_labels,
            min_available,
            max_unavailable,
        })
    }
}

/// `apiVersion` must be one Kubernetes serves `kind` under.
fn check_api(cx: &Ctx, o: &Obj, api: &str, kind: &str, served: &[&str]) -> Result<(), ImportError> {
    if served.contains(&api) {
        return Ok(());
    }
    Err(cx.error(
        ErrorKind::ApiVersion,
        format!(
            "{} {api:?} does not serve kind {kind}: Kubernetes serves it as {}",
            o.at("apiVersion"),
            served.join(", ")
        ),
        o.node.get("apiVersion"),
    ))
}
