//! The probe table of the form: for each container of the scenario that can have probes (its
//! regular containers and sidecars, by name), the text of every field of its startup, readiness
//! and liveness probe. No Kubernetes logic: the field names, their parsing and the edits are the
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
/// probes of the first pod that has it (an edit applies to the container in every pod).
pub fn table_of(sc: &Scenario) -> Vec<ContainerProbes> {
    let mut out: Vec<ContainerProbes> = Vec::new();
    for pass in [ContainerRole::Sidecar, ContainerRole::Regular] {
        for p in &sc.pods {
            for i in 0..p.n_containers() {
                let c = p.container(i);
                if p.role(i) != pass || out.iter().any(|x| x.name == c.name) {
                    continue;
                }
                out.push(ContainerProbes {
                    name: c.name.clone(),
                    sidecar: pass == ContainerRole::Sidecar,
                    probes: ProbeKind::ALL.map(|k| c.probe(k).map(texts)),
                });
            }
        }
    }
    out
}

/// The edits that turn `base` (the preset's table) into `table`: a field whose value differs
/// is set, a probe added is set whole, a probe removed is removed. A text that is not a number
/// is named with its cell; ranges are validation's.
pub fn edits(
    table: &[ContainerProbes],
    base: &[ContainerProbes],
) -> Result<Vec<ProbeEdit>, Vec<(Cell, String)>> {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for (ci, c) in table.iter().enumerate() {
        let b = base.iter().find(|b| b.name == c.name);
        for kind in ProbeKind::ALL {
            let was = b.and_then(|b| b.probes[kind.index()].as_ref());
            let edit = |change| ProbeEdit {
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
    if errs.is_empty() {
        Ok(out)
    } else {
        Err(errs)
    }
}

/// The cell a validation message names (`containers[app].livenessProbe.periodSeconds`).
pub fn cell_of(table: &[ContainerProbes], k8s: &str) -> Option<Cell> {
    let rest = k8s
        .strip_prefix("containers[")
        .or_else(|| k8s.strip_prefix("initContainers["))?;
    let (name, rest) = rest.split_once("].")?;
    let container = table.iter().position(|c| c.name == name)? as u16;
    let mut it = rest.split('.');
    let kind = ProbeKind::from_k8s(it.next()?)?;
    let field = it.next().and_then(ProbeField::from_k8s);
    Some(Cell {
        container,
        kind,
        field,
    })
}
