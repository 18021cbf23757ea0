//! Documents → objects: workloads (where each kind keeps its pod template, how many pods it
//! asks for), Services (their selectors) and PodDisruptionBudgets. Checks `apiVersion` and
//! `kind` as the API server would route them; a `kind: List` (what `kubectl get -o yaml`
//! prints) is read item by item. Everything not read is listed as not used. Called by `lib.rs`;
//! `build.rs` makes the scenario from [`Objects`].

use crate::podspec::{self, Template};
use crate::read::{labels, Ctx, Obj};
use crate::refusals::{check_api, not_a_manifest};
use crate::settings::{self, ClusterSettings};
use crate::yaml::{Node, Value};

/// `n` with every line moved down by `by` (a document embedded in a block scalar).
fn shifted(mut n: Node, by: usize) -> Node {
    n.line += by;
    n.value = match n.value {
        Value::Seq(v) => Value::Seq(v.into_iter().map(|c| shifted(c, by)).collect()),
        Value::Map(m) => Value::Map(m.into_iter().map(|(k, c)| (k, shifted(c, by))).collect()),
        v => v,
    };
    n
}
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
    // The Deployment's predecessor, still served: spec.replicas and spec.template as a
    // ReplicaSet's (its spec.selector is a plain label map).
    ("ReplicationController", &["v1"], Template_::Template),
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
    /// `spec.clusterIP: None`: a headless Service (its EndpointSlices are kept all the same).
    pub headless: bool,
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
    /// Reads one document of `source` (whose whole text is `text`).
    pub fn read(
        &mut self,
        source: &str,
        text: &str,
        document: usize,
        root: &Node,
    ) -> Result<(), ImportError> {
        let mut cx = Ctx {
            source: source.to_string(),
            document,
            object: format!("document {document}"),
            unused: Vec::new(),
            notes: Vec::new(),
        };
        if let Some(e) = not_a_manifest(&cx, root) {
            return Err(e);
        }
        self.object(&mut cx, root, "", text)?;
        self.unused.append(&mut cx.unused);
        self.notes.append(&mut cx.notes);
        Ok(())
    }

    fn object(
        &mut self,
        cx: &mut Ctx,
        root: &Node,
        at: &str,
        text: &str,
    ) -> Result<(), ImportError> {
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
                self.object(cx, item, &format!("{base}[{i}]"), text)?;
            }
            return Ok(());
        }
        // The cluster's settings, not workloads: a KubeletConfiguration, a control-plane
        // static pod, kubeadm's configurations, ….
        let src = if cx.source.is_empty() {
            "the input".to_string()
        } else {
            cx.source.clone()
        };
        let place = format!("{src} (document {})", cx.document);
        if self.settings_object(cx, root, kind, &place, text)? {
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
            let (selector, headless) = match &mut spec {
                Some(s) => {
                    let p = s.at("selector");
                    let sel = labels(cx, s.get("selector"), &p)?;
                    let headless = s.str(cx, "clusterIP")? == Some("None");
                    // podToEndpoint (staging/src/k8s.io/endpointslice/utils.go): with it, every
                    // endpoint is listed ready whatever the pod's Ready; the model lists the
                    // pod's Ready.
                    s.skip(
                        cx,
                        "publishNotReadyAddresses",
                        "not modelled: it lists every endpoint of this Service ready whatever the pod's Ready (podToEndpoint); the model's endpoints follow the pod's Ready",
                    );
                    (sel, headless)
                }
                None => (Vec::new(), false),
            };
            if let Some(s) = spec {
                s.done(cx);
            }
            o.done(cx);
            self.services.push(ServiceObj {
                name,
                selector,
                headless,
            });
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

    /// Reads `root` as the cluster's settings when it is one of their kinds (true), placing each
    /// value at `place` and its line; `text` is the document's file (to place the lines of a
    /// ConfigMap's embedded configuration).
    fn settings_object(
        &mut self,
        cx: &Ctx,
        root: &Node,
        kind: &str,
        place: &str,
        text: &str,
    ) -> Result<bool, ImportError> {
        let api = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
        let err = |m: String| cx.field(m, root);
        let got = |this: &mut Objects, what: String, s: ClusterSettings| {
            this.settings.extend(s);
            this.settings.objects.push(what);
        };
        if kind == "KubeletConfiguration" {
            let s = settings::from_kubelet_config(place, root).map_err(err)?;
            got(self, format!("KubeletConfiguration ({place})"), s);
            return Ok(true);
        }
        // OpenShift's KubeletConfig: KubeletConfiguration fields at spec.kubeletConfig; its other
        // fields (machineConfigPoolSelector, autoSizingReserved, …) say where and how it applies.
        if kind == "KubeletConfig" && api.starts_with("machineconfiguration.openshift.io/") {
            let spec = root.get("spec");
            let mut s = match spec.and_then(|s| s.get("kubeletConfig")) {
                Some(kc) => settings::from_kubelet_config(
                    &format!("{place}, KubeletConfig spec.kubeletConfig"),
                    kc,
                )
                .map_err(err)?,
                None => ClusterSettings::default(),
            };
            if let Some(Value::Map(m)) = spec.map(|s| &s.value) {
                let n = m.iter().filter(|(k, _)| k != "kubeletConfig").count();
                s.other.push((format!("{place}, KubeletConfig spec"), n));
            }
            got(self, format!("OpenShift KubeletConfig ({place})"), s);
            return Ok(true);
        }
        if let Some((c, words)) = settings::component_pod(root) {
            let src = format!("{place}, {}'s static pod", c.program());
            let s = settings::flags(&src, &words, c).map_err(err)?;
            got(self, format!("{}'s static pod ({place})", c.program()), s);
            return Ok(true);
        }
        if api.starts_with("kubeadm.k8s.io/") {
            let mut s = ClusterSettings::default();
            let mut args = |path: [&str; 2], c: settings::Component| -> Result<(), ImportError> {
                if let Some(n) = root.get(path[0]).and_then(|n| n.get(path[1])) {
                    let words = settings::extra_args(n).map_err(|m| cx.field(m, n))?;
                    let src = format!("{place}, {kind} {}.{}", path[0], path[1]);
                    s.extend(settings::flags(&src, &words, c).map_err(|m| cx.field(m, n))?);
                }
                Ok(())
            };
            match kind {
                "ClusterConfiguration" => {
                    args(
                        ["controllerManager", "extraArgs"],
                        settings::Component::ControllerManager,
                    )?;
                    args(["apiServer", "extraArgs"], settings::Component::ApiServer)?;
                }
                "InitConfiguration" | "JoinConfiguration" => {
                    args(
                        ["nodeRegistration", "kubeletExtraArgs"],
                        settings::Component::Kubelet,
                    )?;
                }
                // ClusterStatus, UpgradeConfiguration, ResetConfiguration: nothing the model has.
                _ => {}
            }
            got(self, format!("kubeadm {kind} ({place})"), s);
            return Ok(true);
        }
        // Configurations of other components: none of their settings bears on the model.
        if matches!(
            kind,
            "KubeProxyConfiguration" | "KubeSchedulerConfiguration"
        ) {
            let n = match &root.value {
                Value::Map(m) => m.len().saturating_sub(2),
                _ => 0,
            };
            let mut s = ClusterSettings::default();
            s.other.push((format!("{place}, {kind}"), n));
            got(self, format!("{kind} ({place})"), s);
            return Ok(true);
        }
        // kubeadm's ConfigMaps in kube-system: kubeadm-config (data.ClusterConfiguration, as
        // `kubectl -n kube-system get cm kubeadm-config -o yaml` prints it) and kubelet-config
        // (data.kubelet, the nodes' KubeletConfiguration; kubelet-config-1.N before 1.24).
        if kind == "ConfigMap" && api == "v1" {
            let meta = root.get("metadata");
            let name = meta
                .and_then(|m| m.get("name"))
                .and_then(Node::as_str)
                .unwrap_or("");
            let ns = meta.and_then(|m| m.get("namespace")).and_then(Node::as_str);
            let key = match name {
                "kubeadm-config" => "ClusterConfiguration",
                n if n == "kubelet-config" || n.starts_with("kubelet-config-1.") => "kubelet",
                _ => return Ok(false),
            };
            if ns.is_some_and(|n| n != "kube-system") {
                return Ok(false);
            }
            let Some(v) = root.get("data").and_then(|d| d.get(key)) else {
                return Ok(false);
            };
            let Some(embedded) = v.as_str() else {
                return Err(cx.field(format!("data.{key} must be a string, got {}", v.kind()), v));
            };
            // A block scalar (`ClusterConfiguration: |`) starts on the next line: its lines
            // are the file's, shifted; a quoted one (-o json) is placed within the string.
            let indicator = |n: usize| {
                let l = text.lines().nth(n.checked_sub(1)?)?;
                let after = l.rsplit_once(':')?.1.trim();
                (after.starts_with(['|', '>'])
                    && after[1..]
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == '-' || c == '+'))
                .then_some(n)
            };
            // The parser places a block scalar at its indicator's line or its first line.
            let block = indicator(v.line).or_else(|| indicator(v.line.checked_sub(1)?));
            let (offset, inner) = if let Some(b) = block {
                (b, place.to_string())
            } else {
                (0, format!("{place}, ConfigMap {name} data.{key}"))
            };
            let docs = crate::yaml::parse(embedded).map_err(|e| {
                cx.field(
                    format!("ConfigMap {name} data.{key} is not YAML: {}", e.message),
                    v,
                )
            })?;
            let before = self.settings.objects.len();
            for d in docs {
                let r = shifted(d.root, offset);
                let k = if key == "kubelet" {
                    "KubeletConfiguration"
                } else {
                    r.get("kind").and_then(Node::as_str).unwrap_or("")
                };
                let k = k.to_string();
                self.settings_object(cx, &r, &k, &inner, "")?;
            }
            let read: Vec<String> = self.settings.objects.drain(before..).collect();
            self.settings.objects.push(format!(
                "ConfigMap {name} ({place}: {})",
                if read.is_empty() {
                    "nothing the model reads".to_string()
                } else {
                    read.join(", ")
                }
            ));
            return Ok(true);
        }
        Ok(false)
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
