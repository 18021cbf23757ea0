//! The operator's knobs on a scenario: the number of pods ([`Scenario::with_pods`]) and any probe
//! of any container ([`ProbeEdit`], [`Scenario::with_probe`]). Applied by `Overrides::apply`
//! (`edit.rs`), which the CLI (`--pods`, `--probe`) and the web form share.

use super::check::FieldError;
use super::types::{Container, Owner, Pod, Probe, ProbeKind, Scenario};

/// The most pods the `pods` knob gives a node: the kubelet's default `maxPods` (110).
pub const MAX_PODS: usize = 110;

/// Probe fields to set; `None` keeps the probe's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeOverrides {
    pub period_s: Option<u32>,
    pub timeout_s: Option<u32>,
    pub success_threshold: Option<u32>,
    pub failure_threshold: Option<u32>,
    pub initial_delay_s: Option<u32>,
    pub exec_s: Option<f64>,
}

impl ProbeOverrides {
    /// Sets the given fields on `p`.
    pub fn apply_to(&self, p: &mut Probe) {
        let set = |slot: &mut u32, v: Option<u32>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        set(&mut p.period_s, self.period_s);
        set(&mut p.timeout_s, self.timeout_s);
        set(&mut p.success_threshold, self.success_threshold);
        set(&mut p.failure_threshold, self.failure_threshold);
        set(&mut p.initial_delay_s, self.initial_delay_s);
        if let Some(e) = self.exec_s {
            p.exec_s = e;
        }
    }
}

/// A field of a probe, by its Kubernetes name; `execSeconds` is the model's own (how long one
/// probe runs, [`Probe::exec_s`]). Shared by the CLI's `--probe` and the web app's link keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProbeField {
    InitialDelay,
    Period,
    Timeout,
    Success,
    Failure,
    Exec,
}

impl ProbeField {
    pub const ALL: [ProbeField; 6] = [
        ProbeField::InitialDelay,
        ProbeField::Period,
        ProbeField::Timeout,
        ProbeField::Success,
        ProbeField::Failure,
        ProbeField::Exec,
    ];
    pub fn k8s(self) -> &'static str {
        match self {
            ProbeField::InitialDelay => "initialDelaySeconds",
            ProbeField::Period => "periodSeconds",
            ProbeField::Timeout => "timeoutSeconds",
            ProbeField::Success => "successThreshold",
            ProbeField::Failure => "failureThreshold",
            ProbeField::Exec => "execSeconds",
        }
    }
    pub fn from_k8s(s: &str) -> Option<ProbeField> {
        Self::ALL.into_iter().find(|f| f.k8s() == s)
    }
    /// The range validation accepts ([`super::check::limits`]); Kubernetes' rules between
    /// fields (`successThreshold` 1 for liveness and startup probes) come on top.
    pub fn range(self) -> (f64, f64) {
        use super::check::limits::*;
        let f = |(lo, hi): (u32, u32)| (f64::from(lo), f64::from(hi));
        match self {
            ProbeField::InitialDelay => f(INITIAL_DELAY_S),
            ProbeField::Period => f(PERIOD_S),
            ProbeField::Timeout => f(TIMEOUT_S),
            ProbeField::Success | ProbeField::Failure => f(THRESHOLD),
            ProbeField::Exec => EXEC_S,
        }
    }
    /// A whole number (every field but `execSeconds`).
    pub fn is_int(self) -> bool {
        self != ProbeField::Exec
    }
    pub fn get(self, p: &Probe) -> f64 {
        match self {
            ProbeField::InitialDelay => p.initial_delay_s as f64,
            ProbeField::Period => p.period_s as f64,
            ProbeField::Timeout => p.timeout_s as f64,
            ProbeField::Success => p.success_threshold as f64,
            ProbeField::Failure => p.failure_threshold as f64,
            ProbeField::Exec => p.exec_s,
        }
    }
    /// Sets the field on `o` (a whole-number field takes `v` as given: check [`Self::parse`]).
    pub fn set(self, o: &mut ProbeOverrides, v: f64) {
        let n = Some(v as u32);
        match self {
            ProbeField::InitialDelay => o.initial_delay_s = n,
            ProbeField::Period => o.period_s = n,
            ProbeField::Timeout => o.timeout_s = n,
            ProbeField::Success => o.success_threshold = n,
            ProbeField::Failure => o.failure_threshold = n,
            ProbeField::Exec => o.exec_s = Some(v),
        }
    }
    /// The text of a value: a whole number 0–4294967295, or for `execSeconds` a finite number
    /// of seconds. Ranges and the rules between fields are validation's ([`Scenario::validate`]).
    pub fn parse(self, text: &str) -> Option<f64> {
        let t = text.trim();
        if self.is_int() {
            t.parse::<u32>().ok().map(f64::from)
        } else {
            t.parse::<f64>().ok().filter(|v| v.is_finite())
        }
    }
}

/// A probe key, parsed: `[WORKLOAD/]CONTAINER.KIND[.FIELD]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeKey<'a> {
    /// The workload (`frontend` in `frontend/server.readinessProbe`); `None` for every pod.
    pub workload: Option<&'a str>,
    pub container: &'a str,
    pub kind: ProbeKind,
    /// `None` for the probe itself (`=on|off`).
    pub field: Option<ProbeField>,
}

/// `app.readinessProbe.periodSeconds` → (every pod, `app`, readiness, Some(period));
/// `app.livenessProbe` → (every pod, `app`, liveness, None);
/// `frontend/server.readinessProbe.periodSeconds` → the `server` container of workload
/// `frontend`'s pods only. The key the CLI's `--probe` and the link take. A `/` is in neither a
/// workload's name (a DNS-1123 subdomain: `a-z0-9-.`) nor a container's (a DNS-1123 label), so
/// it separates them, and the dots of a workload's name need no escaping: the container's name,
/// after the `/`, has none.
pub fn parse_probe_key(key: &str) -> Option<ProbeKey<'_>> {
    let (workload, rest) = match key.split_once('/') {
        Some((w, rest)) => {
            if w.is_empty() || rest.contains('/') {
                return None;
            }
            (Some(w), rest)
        }
        None => (None, key),
    };
    let mut it = rest.split('.');
    let (c, k, f) = (it.next()?, it.next()?, it.next());
    if c.is_empty() || it.next().is_some() {
        return None;
    }
    let kind = ProbeKind::from_k8s(k)?;
    let field = match f {
        None => None,
        Some(f) => Some(ProbeField::from_k8s(f)?),
    };
    Some(ProbeKey {
        workload,
        container: c,
        kind,
        field,
    })
}

/// The key of a probe (`[WORKLOAD/]CONTAINER.KIND`), as [`parse_probe_key`] reads it.
pub fn probe_key(workload: Option<&str>, container: &str, kind: ProbeKind) -> String {
    match workload {
        Some(w) => format!("{w}/{container}.{}", kind.k8s()),
        None => format!("{container}.{}", kind.k8s()),
    }
}

/// What to do to one probe of one container (by name), in every pod that has the container, or
/// (`workload`) in one workload's pods only.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeEdit {
    /// The workload whose pods it changes ([`Pod::workload_name`]); `None` for every pod.
    pub workload: Option<String>,
    /// The container's name (a regular container or a sidecar).
    pub container: String,
    pub kind: ProbeKind,
    pub change: ProbeChange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ProbeChange {
    /// Set these fields; a container without this probe gets one with the Kubernetes defaults
    /// (`SetDefaults_Probe`) first, so `Set(ProbeOverrides::default())` adds a default probe.
    Set(ProbeOverrides),
    /// Remove the probe.
    Remove,
}

impl Container {
    /// The container's probe of `kind`.
    pub fn probe(&self, kind: ProbeKind) -> Option<&Probe> {
        match kind {
            ProbeKind::Startup => self.startup_probe.as_ref(),
            ProbeKind::Readiness => self.readiness_probe.as_ref(),
            ProbeKind::Liveness => self.liveness_probe.as_ref(),
        }
    }
    pub fn probe_mut(&mut self, kind: ProbeKind) -> &mut Option<Probe> {
        match kind {
            ProbeKind::Startup => &mut self.startup_probe,
            ProbeKind::Readiness => &mut self.readiness_probe,
            ProbeKind::Liveness => &mut self.liveness_probe,
        }
    }
}

/// `web-2` → (`web`, Some(2)); `startup-exec` → (`startup-exec`, None).
fn split_index(name: &str) -> (&str, Option<u64>) {
    match name.rsplit_once('-') {
        Some((base, n))
            if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            (base, n.parse().ok())
        }
        _ => (name, None),
    }
}

impl Pod {
    /// The pod's owner (`owner`, read by [`Owner::parse`]), when it has one that reads.
    pub fn owned_by(&self) -> Option<Owner> {
        self.owner.as_deref().and_then(Owner::parse)
    }

    /// The workload the pod belongs to: its `owner`'s name when it has one (the import sets it:
    /// a Deployment's pods `web-688597-w57c9` → `web`). Else by its name, as scenarios without
    /// owners name a controller's pods `<workload>-<index>` (`with_pods` names their copies
    /// so): the name without a trailing `-<digits>`, `frontend-3` → `frontend`, `probe-repro`
    /// → `probe-repro` (a bare Pod is its own workload; one named `api-2` is counted with
    /// `api`'s pods).
    pub fn workload_name(&self) -> &str {
        match &self.owner {
            // `Deployment/web` → `web` (one that does not read is validation's to refuse).
            Some(o) => o.split_once('/').map_or(o.as_str(), |(_, name)| name),
            None => split_index(&self.name).0,
        }
    }
}

impl Scenario {
    /// The workloads of the pods ([`Pod::workload_name`]), each once, in the pods' order.
    pub fn workload_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in &self.pods {
            let w = p.workload_name();
            if !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    /// `n` pods: fewer keeps the first `n`; more adds copies of the first pod, named as its
    /// owner's controller names the pods it creates (`Owner::pod_names`: a Deployment's
    /// `web-688597-w57c9` → more of its ReplicaSet's, a StatefulSet's `db-0` → `db-1`, …), or,
    /// without an owner, after it (`web-0` … `web-2` → `web-3`, `web-4`, …; `probe-repro` →
    /// `probe-repro-1`, …); never a name in use. A copy has the template's spec (containers,
    /// init containers, probes, warm-up, Service, workload, owner) and no truth schedule: a
    /// healthy replica, whatever the template's own story (docs/MODEL.md, "Pods").
    pub fn with_pods(mut self, n: usize) -> Scenario {
        if n <= self.pods.len() {
            self.pods.truncate(n);
            return self;
        }
        let Some(template) = self.pods.first().cloned() else {
            return self;
        };
        let names = match template.owned_by() {
            Some(owner) => {
                let mut used: Vec<String> = self.pods.iter().map(|p| p.name.clone()).collect();
                let from = self
                    .pods
                    .iter()
                    .filter(|p| p.owner == template.owner)
                    .count();
                owner.pod_names(from, n - self.pods.len(), &mut used)
            }
            None => self.indexed_names(&template.name, n - self.pods.len()),
        };
        for name in names {
            let mut copy: Pod = template.clone();
            copy.name = name;
            for c in copy
                .init_containers
                .iter_mut()
                .chain(copy.containers.iter_mut())
            {
                c.truth.clear();
            }
            self.pods.push(copy);
        }
        self
    }

    /// `n` names after `name` with the next free indices: `web-2` → `web-3`, `web-4`, …
    fn indexed_names(&self, name: &str, n: usize) -> Vec<String> {
        let (base, _) = split_index(name);
        let next = self
            .pods
            .iter()
            .filter_map(|p| match split_index(&p.name) {
                (b, Some(i)) if b == base => Some(i + 1),
                _ => None,
            })
            .max()
            .unwrap_or(1);
        (next..)
            .map(|i| format!("{base}-{i}"))
            .filter(|name| !self.pods.iter().any(|p| &p.name == name))
            .take(n)
            .collect()
    }

    /// Applies one probe edit to the container of that name in every pod, or in the pods of
    /// the edit's workload (a regular container or an init container; a probe on an ordinary
    /// init container is then rejected by validation, as Kubernetes does). An error when no
    /// such pod has such a container.
    pub fn with_probe(mut self, edit: &ProbeEdit) -> Result<Scenario, FieldError> {
        let mut found = false;
        let workload = edit.workload.as_deref();
        for c in self
            .pods
            .iter_mut()
            .filter(|p| workload.is_none_or(|w| p.workload_name() == w))
            .flat_map(|p| p.init_containers.iter_mut().chain(p.containers.iter_mut()))
            .filter(|c| c.name == edit.container)
        {
            found = true;
            let slot = c.probe_mut(edit.kind);
            match &edit.change {
                ProbeChange::Remove => *slot = None,
                ProbeChange::Set(o) => o.apply_to(slot.get_or_insert_with(Probe::default)),
            }
        }
        if found {
            return Ok(self);
        }
        let f = format!("containers[{}]", edit.container);
        if let Some(w) = workload {
            let workloads = self.workload_names();
            let message = if workloads.contains(&w) {
                let names = container_names(self.pods.iter().filter(|p| p.workload_name() == w));
                format!(
                    "{f}.{}: workload {w:?} has no container named {:?} (its containers: {})",
                    edit.kind.k8s(),
                    edit.container,
                    names.join(", ")
                )
            } else {
                format!(
                    "{f}.{}: the scenario has no workload named {w:?} (its workloads: {})",
                    edit.kind.k8s(),
                    workloads.join(", ")
                )
            };
            return Err(FieldError {
                field: f.clone(),
                k8s: f,
                message,
            });
        }
        let names = container_names(self.pods.iter());
        Err(FieldError {
            field: f.clone(),
            k8s: f.clone(),
            message: format!(
                "{f}.{}: the scenario has no container named {:?} (its containers: {})",
                edit.kind.k8s(),
                edit.container,
                names.join(", ")
            ),
        })
    }
}

/// The names of the pods' containers, each once.
fn container_names<'a>(pods: impl Iterator<Item = &'a Pod>) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for c in pods.flat_map(Pod::all_containers) {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    names
}

/// The `pods` knob's own check: 1 to [`MAX_PODS`].
pub(super) fn check_pods(n: usize) -> Option<FieldError> {
    (!(1..=MAX_PODS).contains(&n)).then(|| FieldError {
        field: "pods".into(),
        k8s: "pods".into(),
        message: format!(
            "pods must be between 1 and {MAX_PODS}, got {n}: {MAX_PODS} is the kubelet's default maxPods, the most pods one node runs"
        ),
    })
}
