//! YAML (and JSON, which is YAML 1.2) text → documents of [`Node`]s that remember their line and
//! column. Built from `granit-parser`'s events, iteratively (no recursion on the input's depth),
//! with the limits that keep hostile input harmless: at most [`MAX_DOC_BYTES`] per document,
//! [`MAX_DEPTH`] nested collections and [`MAX_NODES`] nodes once aliases are expanded (no
//! "billion laughs"). Scalars are typed as Kubernetes' YAML reader (`sigs.k8s.io/yaml`) types
//! them for the fields the importer reads: plain `10` is an integer, `"10"` a string.
//!
//! Indentation is read as Kubernetes' reader (go-yaml, a port of libyaml) reads it: inside a flow
//! collection it does not matter, so a `[` … `]` or `{` … `}` continued over lines may close at
//! its key's column or left of it, and a quoted scalar's next lines need not be indented
//! (tektoncd/pipeline's `config/controller.yaml` closes its `args: [` so). The YAML 1.2 spec
//! wants them indented past the key (yaml-test-suite 9C9N, QB6E); `granit-parser`'s default,
//! non-strict indentation accepts them, as libyaml and PyYAML do, and is otherwise the spec's.
//!
//! A leaf: `read.rs` and the importer read the tree; nothing here knows Kubernetes.

use granit_parser::{ErrorKind, Event, Parser, ScalarStyle, ScanError};
use std::collections::HashMap;

/// Documents larger than this are refused before parsing.
pub const MAX_DOC_BYTES: usize = 1 << 20;
/// The whole input (every document) larger than this is refused before parsing.
pub const MAX_INPUT_BYTES: usize = 16 << 20;
/// Nested mappings and sequences deeper than this are refused (Kubernetes objects are < 20).
pub const MAX_DEPTH: usize = 64;
/// Nodes in one document, aliases expanded.
pub const MAX_NODES: usize = 200_000;

/// A YAML value with where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Keys in order; keys are scalars read as text (Kubernetes objects have string keys).
    Map(Vec<(String, Node)>),
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// What kind of value this is, for messages ("a string", "a mapping").
    pub fn kind(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number with a fraction",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// A syntax error or a refused input, with the 1-based line and column where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// A limit refused the input (size, depth, values), rather than a syntax error.
    pub limit: bool,
}

impl SyntaxError {
    fn at(message: String, line: usize, column: usize) -> Self {
        SyntaxError {
            message,
            line: Some(line),
            column: Some(column),
            limit: false,
        }
    }
    fn limit(message: String, line: usize, column: usize) -> Self {
        SyntaxError {
            limit: true,
            ..SyntaxError::at(message, line, column)
        }
    }
}

impl From<ScanError> for SyntaxError {
    fn from(e: ScanError) -> Self {
        let m = e.marker();
        // The parser's lines are 1-based, its columns 0-based.
        let mut s = SyntaxError::at(e.info(), m.line().max(1), m.col() + 1);
        // The parser's own nesting limit.
        s.limit = matches!(e.kind(), ErrorKind::RecursionLimitExceeded);
        s
    }
}

/// One document of the input with the line it starts on.
#[derive(Clone, Debug)]
pub struct Document {
    pub root: Node,
}

/// The sizes of the documents as `---` lines split them, checked before parsing.
fn check_sizes(text: &str) -> Result<(), SyntaxError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(SyntaxError {
            message: format!(
                "the input is {} bytes; inputs over {} MiB are refused",
                text.len(),
                MAX_INPUT_BYTES >> 20
            ),
            line: None,
            column: None,
            limit: true,
        });
    }
    let (mut start_line, mut size, mut line_no) = (1, 0usize, 0);
    for line in text.split_inclusive('\n') {
        line_no += 1;
        if line.starts_with("---") {
            start_line = line_no;
            size = 0;
        }
        size += line.len();
        if size > MAX_DOC_BYTES {
            return Err(SyntaxError::limit(
                format!(
                    "the document starting at line {start_line} is over {} MiB; documents over 1 MiB are refused",
                    MAX_DOC_BYTES >> 20
                ),
                start_line,
                1,
            ));
        }
    }
    Ok(())
}

/// A collection being built; a mapping holds its pending key with the key's line and column.
enum Open {
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>, Option<(String, usize, usize)>),
}

struct Frame {
    open: Open,
    line: usize,
    column: usize,
    anchor: usize,
    /// Nodes in this collection so far (itself included), aliases expanded.
    size: usize,
}

/// The byte ranges of the JSON values of a stream of two or more (`{…}{…}` or `{…}` a line, as
/// `kubectl apply -f` reads them: apimachinery's YAMLOrJSONDecoder decodes JSON values one after
/// another); `None` when `text` is not such a stream (one value, YAML, anything between them).
fn json_stream(text: &str) -> Option<Vec<(usize, usize)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            break;
        }
        if b[i] != b'{' && b[i] != b'[' {
            return None;
        }
        let start = i;
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        while i < b.len() {
            let c = b[i];
            i += 1;
            if in_str {
                match c {
                    _ if esc => esc = false,
                    b'\\' => esc = true,
                    b'"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                b'"' => in_str = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        if depth != 0 {
            return None;
        }
        out.push((start, i));
    }
    (out.len() >= 2).then_some(out)
}

/// Parses every document. Empty documents (only comments, or `---` alone) are skipped. A stream
/// of JSON values (`{…}{…}`) is a document each, with their lines and columns in `text`.
pub fn parse(text: &str) -> Result<Vec<Document>, SyntaxError> {
    if let Some(values) = json_stream(text) {
        if text.len() > MAX_INPUT_BYTES {
            return check_sizes(text).map(|_| Vec::new());
        }
        let mut docs = Vec::new();
        // Line and column of `at`, counted on from the last value's start.
        let (mut at, mut line, mut line_start) = (0usize, 0usize, 0usize);
        for (start, end) in values {
            for (k, c) in text[at..start].bytes().enumerate() {
                if c == b'\n' {
                    line += 1;
                    line_start = at + k + 1;
                }
            }
            at = start;
            let column = start - line_start;
            if end - start > MAX_DOC_BYTES {
                return Err(SyntaxError::limit(
                    format!(
                        "the JSON value starting at line {} is over {} MiB; documents over 1 MiB are refused",
                        line + 1,
                        MAX_DOC_BYTES >> 20
                    ),
                    line + 1,
                    column + 1,
                ));
            }
            // Parsed alone, then moved to its place: lines and columns are the file's.
            let place = |l: &mut usize, c: &mut usize| {
                if *l == 1 {
                    *c += column;
                }
                *l += line;
            };
            let parsed = parse_one(&text[start..end]).map_err(|mut e| {
                if let (Some(l), Some(c)) = (e.line.as_mut(), e.column.as_mut()) {
                    place(l, c);
                }
                e
            })?;
            for mut d in parsed {
                moved(&mut d.root, &place);
                docs.push(d);
            }
        }
        return Ok(docs);
    }
    parse_one(text)
}

/// `n` and every node in it moved by `place`.
fn moved(n: &mut Node, place: &dyn Fn(&mut usize, &mut usize)) {
    place(&mut n.line, &mut n.column);
    match &mut n.value {
        Value::Seq(v) => v.iter_mut().for_each(|c| moved(c, place)),
        Value::Map(m) => m.iter_mut().for_each(|(_, c)| moved(c, place)),
        _ => {}
    }
}

fn parse_one(text: &str) -> Result<Vec<Document>, SyntaxError> {
    check_sizes(text)?;
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, (Node, usize)> = HashMap::new();
    let mut root: Option<Node> = None;
    let mut nodes = 0usize;
    for ev in Parser::new_from_str(text) {
        let (ev, span) = ev?;
        let (line, column) = (span.start.line().max(1), span.start.col() + 1);
        // (node, its anchor, its size aliases expanded, the nodes it adds to the document)
        let (node, anchor, size, add) = match ev {
            Event::DocumentStart(..) => {
                root = None;
                nodes = 0;
                anchors.clear();
                continue;
            }
            Event::DocumentEnd => {
                if let Some(r) = root.take() {
                    if !matches!(r.value, Value::Null) {
                        docs.push(Document { root: r });
                    }
                }
                continue;
            }
            Event::SequenceStart(_, anchor, _) | Event::MappingStart(_, anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(SyntaxError::limit(
                        format!("nesting deeper than {MAX_DEPTH} levels is refused"),
                        line,
                        column,
                    ));
                }
                let open = if matches!(ev, Event::SequenceStart(..)) {
                    Open::Seq(Vec::new())
                } else {
                    Open::Map(Vec::new(), None)
                };
                stack.push(Frame {
                    open,
                    line,
                    column,
                    anchor,
                    size: 1,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(f) = stack.pop() else { continue };
                let value = match f.open {
                    Open::Seq(v) => Value::Seq(v),
                    Open::Map(m, _) => Value::Map(m),
                };
                let node = Node {
                    value,
                    line: f.line,
                    column: f.column,
                };
                (node, f.anchor, f.size, 1)
            }
            Event::Scalar(text, style, anchor, tag) => {
                let tagged_str = tag.as_ref().is_some_and(|t| t.suffix() == "str");
                let value = if style != ScalarStyle::Plain || tagged_str {
                    Value::Str(text.into_owned())
                } else {
                    plain(&text)
                };
                (
                    Node {
                        value,
                        line,
                        column,
                    },
                    anchor,
                    1,
                    1,
                )
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some((n, size)) => {
                    let mut n = n.clone();
                    n.line = line;
                    n.column = column;
                    (n, 0, *size, *size)
                }
                None => {
                    return Err(SyntaxError::at(
                        "alias to an unknown anchor".into(),
                        line,
                        column,
                    ))
                }
            },
            // StreamStart, StreamEnd; Anchor and UnresolvedAlias are not emitted with the
            // default options, nor comments without the `comments` feature.
            _ => continue,
        };
        nodes += add;
        if nodes > MAX_NODES {
            return Err(SyntaxError::limit(
                format!(
                    "the document has more than {MAX_NODES} values (aliases expanded); refused"
                ),
                line,
                column,
            ));
        }
        if anchor > 0 {
            anchors.insert(anchor, (node.clone(), size));
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(f) => {
                f.size += size;
                match &mut f.open {
                    Open::Seq(v) => v.push(node),
                    Open::Map(m, key) => match key.take() {
                        None => {
                            let k = match node.value {
                                Value::Str(s) => s,
                                Value::Int(i) => i.to_string(),
                                Value::Bool(b) => b.to_string(),
                                Value::Null => "null".into(),
                                Value::Float(x) => x.to_string(),
                                _ => {
                                    return Err(SyntaxError::at(
                                        format!(
                                            "a mapping key must be a string, got {}",
                                            node.kind()
                                        ),
                                        node.line,
                                        node.column,
                                    ))
                                }
                            };
                            if m.iter().any(|(have, _)| *have == k) {
                                return Err(SyntaxError::at(
                                    format!("duplicate key {k:?} in a mapping"),
                                    node.line,
                                    node.column,
                                ));
                            }
                            *key = Some((k, node.line, node.column));
                        }
                        // A block collection's events start at its first entry, on the line
                        // below its key (`resources:` then `  limits:`): it is placed at its key,
                        // where a reader looks for the field.
                        Some((k, line, column)) => {
                            let mut node = node;
                            if matches!(node.value, Value::Seq(_) | Value::Map(_))
                                && node.line > line
                            {
                                node.line = line;
                                node.column = column;
                            }
                            m.push((k, node))
                        }
                    },
                }
            }
        }
    }
    Ok(docs)
}

/// A plain scalar as Kubernetes' YAML reader types it (the YAML core schema, with go-yaml's
/// `True`/`TRUE` spellings).
fn plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = s.parse::<i64>() {
            return Value::Int(i);
        }
    }
    if let Some(h) = s.strip_prefix("0x") {
        if let Ok(i) = i64::from_str_radix(h, 16) {
            return Value::Int(i);
        }
    }
    if let Some(o) = s.strip_prefix("0o") {
        if let Ok(i) = i64::from_str_radix(o, 8) {
            return Value::Int(i);
        }
    }
    let numeric = s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        && s.bytes().any(|b| b.is_ascii_digit());
    if numeric {
        if let Ok(x) = s.parse::<f64>() {
            return Value::Float(x);
        }
    }
    Value::Str(s.to_string())
}
