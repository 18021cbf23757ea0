//! The probe table of the form: for each container of the scenario that can have probes (its
//! regular containers and sidecars, by name; in an import of several workloads, by workload and
//! name, workloads whose container of that name probes identically sharing one row), the text of
//! every field of its startup, readiness and liveness probe. No Kubernetes logic: the field names, their parsing and the edits are the
//! model's (`ProbeField`, `ProbeEdit`); this module turns the texts into edits against the
//! preset's own table and finds the cell a model message belongs to. A leaf under `form.rs`.

use restartscope_sim::{
    ContainerRole, Probe, ProbeChange, ProbeEdit, ProbeField, ProbeKind, ProbeOverrides, Scenario,
};

/// One input of the table: a field of a probe, or (`field: None`) the probe itself (add/remove).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Index into the table (`Settings::probes`).
    pub container: u16,
    pub kind: ProbeKind,
    pub field: Option<ProbeField>,
}

/// A container's probes as the form shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct ContainerProbes {
    /// The workloads whose pods the row is (`Pod::workload_name`), in an import of several
    /// workloads: one, or several whose container of this name has the same probes (an edit
    /// applies to each); empty: the container of that name in every pod.
    pub workloads: Vec<String>,
    pub name: String,
    /// An init container with `restartPolicy: Always`.
    pub sidecar: bool,
    /// Per `ProbeKind::ALL`: the text of each `ProbeField::ALL`, or `None` without that probe.
    pub probes: [Option<[String; 6]>; 3],
}

impl ContainerProbes {
    /// `containers[app]` or `initContainers[proxy]`, as validation names the container.
    pub fn k8s(&self) -> String {
        if self.sidecar {
            format!("initContainers[{}]", self.name)
        } else {
            format!("containers[{}]", self.name)
        }
    }

    /// Whether the row holds the container of workload `w` (`None`: a row of every pod).
    pub fn covers(&self, w: Option<&str>) -> bool {
        self.workloads.is_empty() || w.is_some_and(|w| self.workloads.iter().any(|x| x == w))
    }

    /// The workloads an edit of the row is written for, one link key each (`None`: every pod).
    pub fn each(&self) -> Vec<Option<String>> {
        if self.workloads.is_empty() {
            return vec![None];
        }
        self.workloads.iter().cloned().map(Some).collect()
    }

    /// `frontend/server`, `cart, checkout/server` or `server`: the row's label.
    pub fn label(&self) -> String {
        match self.workloads.is_empty() {
            false => format!("{}/{}", self.workloads.join(", "), self.name),
            true => self.name.clone(),
        }
    }
}

pub fn num_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The texts of a probe's fields, in `ProbeField::ALL` order.
pub fn texts(p: &Probe) -> [String; 6] {
    ProbeField::ALL.map(|f| num_text(f.get(p)))
}

/// The scenario's probe table: sidecars, then regular containers, each name once, with the
/// probes of the first pod that has it (an edit applies to the container in every pod). With
/// `per_workload` and pods of several workloads (`Pod::workload_name`: an import's Deployments
/// `frontend` and `api`), each workload's containers once instead (an edit applies to that
/// workload's pods only), so ten Deployments whose `server` containers probe differently show
/// ten rows; those whose `server` probes the same share one ([`merge`]).
pub fn table_of(sc: &Scenario, per_workload: bool) -> Vec<ContainerProbes> {
    let by_workload = per_workload && sc.workload_names().len() > 1;
    let mut out: Vec<ContainerProbes> = Vec::new();
    for pass in [ContainerRole::Sidecar, ContainerRole::Regular] {
        for p in &sc.pods {
            let workload = by_workload.then(|| p.workload_name());
            for i in 0..p.n_containers() {
                let c = p.container(i);
                if p.role(i) != pass || out.iter().any(|x| x.name == c.name && x.covers(workload)) {
                    continue;
                }
                out.push(ContainerProbes {
                    workloads: workload.into_iter().map(str::to_string).collect(),
                    name: c.name.clone(),
                    sidecar: pass == ContainerRole::Sidecar,
                    probes: ProbeKind::ALL.map(|k| c.probe(k).map(texts)),
                });
            }
        }
    }
    merge(out)
}

/// Rows of workloads whose container of one name has the same probes, as one row (at the first
/// one's place, its workloads in order); rows of every pod are left as they are.
pub fn merge(rows: Vec<ContainerProbes>) -> Vec<ContainerProbes> {
    let mut out: Vec<ContainerProbes> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|o| {
            !o.workloads.is_empty()
                && !r.workloads.is_empty()
                && (&o.name, o.sidecar, &o.probes) == (&r.name, r.sidecar, &r.probes)
        }) {
            Some(o) => o.workloads.extend(r.workloads),
            None => out.push(r),
        }
    }
    out
}

/// The edits that turn `base` (the preset's table) into `table`, per workload of each row (a
/// row and the base's may group workloads differently): a field whose value differs is set, a
/// probe added is set whole, a probe removed is removed. A text that is not a number is named
/// with its cell; ranges are validation's.
pub fn edits(
    table: &[ContainerProbes],
    base: &[ContainerProbes],
) -> Result<Vec<ProbeEdit>, Vec<(Cell, String)>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for (ci, c) in table.iter().enumerate() {
        for (wi, w) in c.each().into_iter().enumerate() {
            let b = base
                .iter()
                .find(|b| b.name == c.name && b.covers(w.as_deref()));
            for kind in ProbeKind::ALL {
                let was = b.and_then(|b| b.probes[kind.index()].as_ref());
                let edit = |change| ProbeEdit {
                    workload: w.clone(),
                    container: c.name.clone(),
                    kind,
                    change,
                };
                let Some(now) = &c.probes[kind.index()] else {
                    if was.is_some() {
                        out.push(edit(ProbeChange::Remove));
                    }
                    continue;
                };
                let mut o = ProbeOverrides::default();
                let mut changed = was.is_none();
                for (fi, f) in ProbeField::ALL.into_iter().enumerate() {
                    let Some(v) = f.parse(&now[fi]) else {
                        if wi > 0 {
                            continue;
                        }
                        let what = if f.is_int() {
                            "a whole number"
                        } else {
                            "a number of seconds"
                        };
                        errs.push((
                            Cell {
                                container: ci as u16,
                                kind,
                                field: Some(f),
                            },
                            format!(
                                "{}.{}.{} must be {what}; got {:?}",
                                c.k8s(),
                                kind.k8s(),
                                f.k8s(),
                                now[fi].trim()
                            ),
                        ));
                        continue;
                    };
                    if was.is_none_or(|w| f.parse(&w[fi]) != Some(v)) {
                        f.set(&mut o, v);
                        changed = true;
                    }
                }
                if changed {
                    out.push(edit(ProbeChange::Set(o)));
                }
            }
        }
    }
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(errs)
    }
}

/// The cell a validation message names (`containers[app].livenessProbe.periodSeconds`), in the
/// row of `workload` (the workload of the pod the message is about, `Pod::workload_name`) when
/// the table has rows per workload.
pub fn cell_of(table: &[ContainerProbes], k8s: &str, workload: Option<&str>) -> Option<Cell> {
    let rest = k8s
        .strip_prefix("containers[")
        .or_else(|| k8s.strip_prefix("initContainers["))?;
    let (name, rest) = rest.split_once("].")?;
    let container = table
        .iter()
        .position(|c| c.name == name && c.covers(workload))? as u16;
    let mut it = rest.split('.');
    let kind = ProbeKind::from_k8s(it.next()?)?;
    let field = it.next().and_then(ProbeField::from_k8s);
    Some(Cell {
        container,
        kind,
        field,
    })
}

/// short-restart's pod as the pods of these Deployments (name, pods), in order, each with its
/// Deployment as its owner and named as its ReplicaSet names them (`frontend-<hash>-<5>`), as
/// the importer makes them.
#[cfg(test)]
pub(crate) fn deployments(workloads: &[(&str, usize)]) -> Scenario {
    use restartscope_sim::{Owner, OwnerKind};
    let n = workloads.iter().map(|w| w.1).sum();
    let mut sc = (restartscope_sim::presets::find("short-restart")
        .unwrap()
        .build)()
    .with_pods(n);
    let mut used = Vec::new();
    let mut pods = sc.pods.iter_mut();
    for (name, k) in workloads {
        let owner = Owner::new(OwnerKind::Deployment, *name);
        // The names first: `zip` takes no pod once they run out.
        for (name, p) in owner
            .pod_names(0, *k, &mut used)
            .into_iter()
            .zip(pods.by_ref())
        {
            p.name = name;
            p.owner = Some(owner.to_string());
        }
    }
    sc
}

/// An import of two workloads whose `app` containers probe differently: Deployment `frontend`
/// (2 pods, readiness every 10 s) and Deployment `api` (1 pod, every 3 s).
#[cfg(test)]
pub(crate) fn two_workloads() -> std::sync::Arc<crate::custom::Imported> {
    let mut sc = deployments(&[("frontend", 2), ("api", 1)]);
    sc.pods[2].containers[0]
        .readiness_probe
        .as_mut()
        .unwrap()
        .period_s = 3;
    let mut im = crate::imported::checked(
        sc,
        Some("Deployment frontend (2 pods), Deployment api (1 pod)"),
    )
    .unwrap();
    im.packed = Some("abc".into());
    std::sync::Arc::new(im)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::form::{Field, Settings};

    #[test]
    fn an_import_of_two_workloads_has_a_row_per_workload_and_edits_one_workload() {
        let im = two_workloads();
        let s = Settings::for_custom(im.clone());
        let rows: Vec<String> = s.probes.iter().map(ContainerProbes::label).collect();
        assert_eq!(rows, ["frontend/app", "api/app"]);
        let period = |s: &Settings, row: usize| {
            s.probes[row].probes[ProbeKind::Readiness.index()]
                .as_ref()
                .unwrap()[1]
                .clone()
        };
        assert_eq!((period(&s, 0), period(&s, 1)), ("10".into(), "3".into()));
        // An edit of api's row changes api's pod only.
        let mut s2 = s.clone();
        s2.probes[1].probes[ProbeKind::Readiness.index()]
            .as_mut()
            .unwrap()[1] = "7".into();
        let sc = s2.scenario().unwrap();
        let got: Vec<u32> = sc
            .pods
            .iter()
            .map(|p| p.containers[0].readiness_probe.as_ref().unwrap().period_s)
            .collect();
        assert_eq!(got, [10, 10, 7]);
        // A message of the model lands in the row of the pod's workload: api's cell, not
        // frontend's (both rows are container `app`).
        let mut s3 = s.clone();
        s3.probes[1].probes[ProbeKind::Liveness.index()] = Some(texts(&Probe {
            success_threshold: 2,
            ..Probe::default()
        }));
        let errs = s3.scenario().unwrap_err();
        let cells: Vec<Cell> = errs
            .iter()
            .filter_map(|(f, _)| match f {
                Field::Probe(c) => Some(*c),
                _ => None,
            })
            .collect();
        assert_eq!(
            cells,
            [Cell {
                container: 1,
                kind: ProbeKind::Liveness,
                field: Some(ProbeField::Success),
            }],
            "{errs:?}"
        );
        // A preset keeps one row per container name, as does an import of one workload.
        assert_eq!(Settings::for_preset("short-restart").probes.len(), 1);
        assert_eq!(table_of(&im.scenario, false).len(), 1);
        assert!(table_of(&im.scenario, false)[0].workloads.is_empty());
    }
}
