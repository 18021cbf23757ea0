//! Reading Kubernetes objects out of the YAML tree: [`Obj`] reads a mapping key by key and lists
//! every key it did not read as not used by the model ([`Unused`]); typed getters fail with a
//! message that starts with the field's path (`spec.template.spec.containers[0].readinessProbe.
//! periodSeconds must be an integer, got a string`) and carries its line and column.
//! Used by `podspec.rs` and `objects.rs`.

use crate::yaml::{Node, Value};
use crate::{ErrorKind, ImportError, Unused};

/// Where the importer is: which input, document and object; collects what is not used.
pub(crate) struct Ctx {
    pub source: String,
    /// 1-based.
    pub document: usize,
    /// `Deployment web`.
    pub object: String,
    pub unused: Vec<Unused>,
    /// Warnings about the object that Kubernetes itself only reports when the pod runs (a
    /// probe's named port no container port has), for the import's notes.
    pub notes: Vec<String>,
}

impl Ctx {
    pub fn error(&self, kind: ErrorKind, message: String, at: Option<&Node>) -> ImportError {
        ImportError {
            kind,
            message,
            source: self.source.clone(),
            document: Some(self.document),
            line: at.map(|n| n.line),
            column: at.map(|n| n.column),
            errors: Vec::new(),
        }
    }
    /// A field of the wrong type or value.
    pub fn field(&self, message: String, at: &Node) -> ImportError {
        self.error(ErrorKind::Field, message, Some(at))
    }
    pub fn unused(&mut self, path: String, at: &Node, why: Option<&str>) {
        self.unused.push(Unused {
            source: self.source.clone(),
            document: self.document,
            object: self.object.clone(),
            path,
            line: at.line,
            column: at.column,
            why: why.map(str::to_string),
        });
    }
}

/// A mapping being read.
pub(crate) struct Obj<'a> {
    pub node: &'a Node,
    pub path: String,
    read: Vec<&'static str>,
}

impl<'a> Obj<'a> {
    /// `node` must be a mapping (`path` names it in the message).
    pub fn new(cx: &Ctx, node: &'a Node, path: &str) -> Result<Obj<'a>, ImportError> {
        match node.value {
            Value::Map(_) => Ok(Obj {
                node,
                path: path.to_string(),
                read: Vec::new(),
            }),
            _ => Err(cx.field(
                format!("{} must be a mapping, got {}", show(path), node.kind()),
                node,
            )),
        }
    }
    /// The path of `key` under this mapping.
    pub fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }
    /// The value of `key`, marked as read; an explicit `null` is absent, as in Kubernetes.
    pub fn get(&mut self, key: &'static str) -> Option<&'a Node> {
        self.read.push(key);
        self.node.get(key).filter(|n| n.value != Value::Null)
    }
    /// A nested mapping.
    pub fn obj(&mut self, cx: &Ctx, key: &'static str) -> Result<Option<Obj<'a>>, ImportError> {
        let path = self.at(key);
        self.get(key).map(|n| Obj::new(cx, n, &path)).transpose()
    }
    /// A list.
    pub fn seq(&mut self, cx: &Ctx, key: &'static str) -> Result<&'a [Node], ImportError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Node {
                value: Value::Seq(v),
                ..
            }) => Ok(v),
            Some(n) => Err(cx.field(
                format!("{} must be a list, got {}", self.at(key), n.kind()),
                n,
            )),
        }
    }
    pub fn str(&mut self, cx: &Ctx, key: &'static str) -> Result<Option<&'a str>, ImportError> {
        match self.get(key) {
            None => Ok(None),
            Some(n) => n.as_str().map(Some).ok_or_else(|| {
                cx.field(
                    format!("{} must be a string, got {}", self.at(key), n.kind()),
                    n,
                )
            }),
        }
    }
    /// An `int32` field: at least 0 (Kubernetes' `must be greater than or equal to 0`).
    pub fn uint(&mut self, cx: &Ctx, key: &'static str) -> Result<Option<u32>, ImportError> {
        let path = self.at(key);
        match self.get(key) {
            None => Ok(None),
            Some(n) => match n.value {
                Value::Int(i) if i < 0 => Err(cx.field(
                    format!("{path} must be greater than or equal to 0, got {i}"),
                    n,
                )),
                Value::Int(i) if i > i32::MAX as i64 => Err(cx.field(
                    format!("{path} must be at most {} (int32), got {i}", i32::MAX),
                    n,
                )),
                Value::Int(i) => Ok(Some(i as u32)),
                _ => Err(cx.field(format!("{path} must be an integer, got {}", n.kind()), n)),
            },
        }
    }
    /// Marks `key` read and lists it as not used, with a reason.
    pub fn skip(&mut self, cx: &mut Ctx, key: &'static str, why: &str) {
        if let Some(n) = self.get(key) {
            cx.unused(self.at(key), n, Some(why));
        }
    }
    /// Lists every key not read as not used by the model.
    pub fn done(self, cx: &mut Ctx) {
        if let Value::Map(m) = &self.node.value {
            for (k, v) in m {
                if !self.read.contains(&k.as_str()) {
                    let path = if self.path.is_empty() {
                        k.clone()
                    } else {
                        format!("{}.{k}", self.path)
                    };
                    cx.unused(path, v, None);
                }
            }
        }
    }
}

/// A path for a message: the document itself when empty.
fn show(path: &str) -> &str {
    if path.is_empty() {
        "the document"
    } else {
        path
    }
}

/// `key: value` pairs of a string map (labels, a selector's `matchLabels`).
pub(crate) fn labels(
    cx: &Ctx,
    node: Option<&Node>,
    path: &str,
) -> Result<Vec<(String, String)>, ImportError> {
    let Some(n) = node else { return Ok(Vec::new()) };
    let Value::Map(m) = &n.value else {
        return Err(cx.field(format!("{path} must be a mapping, got {}", n.kind()), n));
    };
    m.iter()
        .map(|(k, v)| match &v.value {
            Value::Str(s) => Ok((k.clone(), s.clone())),
            Value::Int(i) => Ok((k.clone(), i.to_string())),
            Value::Bool(b) => Ok((k.clone(), b.to_string())),
            _ => Err(cx.field(format!("{path}.{k} must be a string, got {}", v.kind()), v)),
        })
        .collect()
}
