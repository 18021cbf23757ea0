//! A small JSON reader: the text parsed into a [`Json`] tree, and [`Obj`], a JSON object read
//! field by field with serde's rules (`deny_unknown_fields`, missing fields, defaults, `null` for
//! an absent `Option`). It exists for the web page: serde_json's deserializer and the visitors
//! serde derives for [`Scenario`](super::Scenario) were about 30 KB of the page's gzip bundle,
//! and the page reads JSON in three places only — a `scenario=` link, the importer worker's
//! answer and the tour's steps (`src/imported.rs`, `src/importer.rs`,
//! `restartscope_tour::data`). `read.rs` reads a Scenario with it; native code (the CLI, scenario
//! files) keeps serde, and `crates/sim/tests/json_read.rs` checks that both accept and reject the
//! same texts and read the same scenarios. Its writer, [`Out`], is `write.rs`. Mirrors no
//! Kubernetes file.

pub use super::write::{quote, Out};

/// A parsed JSON value. Numbers keep their text, so an integer field is read without a detour
/// through `f64` (a seed is a `u64`).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// How deep arrays and objects may nest (serde_json's recursion limit).
const MAX_DEPTH: usize = 128;

/// Parses one JSON value (and nothing after it but whitespace). The error names the line and
/// column, as serde_json's does.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.value().and_then(|v| {
        p.ws();
        if p.i < p.s.len() {
            Err("trailing characters".to_string())
        } else {
            Ok(v)
        }
    });
    v.map_err(|e| {
        let before = &p.s[..p.i.min(p.s.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let col = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
        format!("{e} at line {line} column {col}")
    })
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.i += hit as usize;
        hit
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err("expected value".into())
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        match self.peek() {
            None => Err("EOF while parsing a value".into()),
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[' | b'{') => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err("recursion limit exceeded".into());
                }
                let v = if self.s[self.i] == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                v
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err("expected value".into()),
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.i += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Json::Arr(items));
            }
            if !self.eat(b',') {
                return Err(self.end("expected `,` or `]`", "list"));
            }
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.i += 1;
        let mut fields = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Obj(fields));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.end("key must be a string", "object"));
            }
            let k = self.string()?;
            if !self.eat(b':') {
                return Err(self.end("expected `:`", "object"));
            }
            fields.push((k, self.value()?));
            if self.eat(b'}') {
                return Ok(Json::Obj(fields));
            }
            if !self.eat(b',') {
                return Err(self.end("expected `,` or `}`", "object"));
            }
        }
    }

    /// `what`, or "EOF while parsing a(n) `inside`" at the end of the text.
    fn end(&self, what: &str, inside: &str) -> String {
        if self.i >= self.s.len() {
            format!(
                "EOF while parsing a{} {inside}",
                if inside == "object" { "n" } else { "" }
            )
        } else {
            what.into()
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while matches!(p.s.get(p.i), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i > from
        };
        self.i += (self.s[self.i] == b'-') as usize;
        let lead_zero = self.s.get(self.i) == Some(&b'0');
        if !digits(self) || (lead_zero && self.i - start > 1 + (self.s[start] == b'-') as usize) {
            return Err("invalid number".into());
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if !digits(self) {
                return Err("invalid number".into());
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            self.i += matches!(self.s.get(self.i), Some(b'+' | b'-')) as usize;
            if !digits(self) {
                return Err("invalid number".into());
            }
        }
        // The bytes matched are ASCII, so this is a char boundary.
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        Ok(Json::Num(text))
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.i) else {
                return Err("EOF while parsing a string".into());
            };
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).map_err(|_| "invalid unicode".into()),
                b'\\' => {
                    let e = self.s.get(self.i).copied();
                    self.i += 1;
                    let c = match e {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode()?,
                        _ => return Err("invalid escape".into()),
                    };
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                0..=0x1f => {
                    return Err(
                        "control character (\\u0000-\\u001F) found while parsing a string".into(),
                    )
                }
                _ => out.push(b),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .ok_or("EOF while parsing a string")?;
        let h = std::str::from_utf8(h).map_err(|_| "invalid escape")?;
        let v = u32::from_str_radix(h, 16).map_err(|_| "invalid escape")?;
        self.i += 4;
        Ok(v)
    }

    fn unicode(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if !self.s[self.i..].starts_with(b"\\u") {
                return Err("unexpected end of hex escape".into());
            }
            self.i += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err("lone leading surrogate in hex escape".into());
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| "lone leading surrogate in hex escape".into())
    }
}

impl Json {
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "a list",
            Json::Obj(_) => "an object",
        }
    }

    /// Field `k` of an object (`None` for a missing field or a value that is not an object),
    /// without the unknown-field check of [`Obj`].
    pub fn get(&self, k: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(f, _)| f == k).map(|(_, v)| v),
            _ => None,
        }
    }

    fn wrong(&self, at: &str, want: &str) -> String {
        format!("{at}: expected {want}, found {}", self.kind())
    }

    /// A number, as `f64` (an integer or a decimal).
    pub fn f64(&self, at: &str) -> Result<f64, String> {
        match self {
            Json::Num(t) => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{at}: number out of range")),
            _ => Err(self.wrong(at, "a number")),
        }
    }

    /// A whole number that fits `T` (serde refuses `1.0` or `-1` for an unsigned field, and
    /// `-0`, which serde_json reads as the float -0.0).
    pub fn int<T: TryFrom<i128>>(&self, at: &str) -> Result<T, String> {
        match self {
            Json::Num(t) => t
                .parse::<i128>()
                .ok()
                .filter(|_| t != "-0")
                .and_then(|v| T::try_from(v).ok())
                .ok_or_else(|| format!("{at}: invalid value {t}")),
            _ => Err(self.wrong(at, "a whole number")),
        }
    }

    pub fn bool(&self, at: &str) -> Result<bool, String> {
        match self {
            Json::Bool(b) => Ok(*b),
            _ => Err(self.wrong(at, "a boolean")),
        }
    }

    pub fn string(&self, at: &str) -> Result<String, String> {
        match self {
            Json::Str(s) => Ok(s.clone()),
            _ => Err(self.wrong(at, "a string")),
        }
    }

    pub fn items(&self, at: &str) -> Result<&[Json], String> {
        match self {
            Json::Arr(v) => Ok(v),
            _ => Err(self.wrong(at, "a list")),
        }
    }

    /// Each item read by `read`, named `at[i]` in messages.
    pub fn list<T>(
        &self,
        at: &str,
        read: impl Fn(&Json, &str) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let items = self.items(at)?;
        items
            .iter()
            .enumerate()
            .map(|(i, j)| read(j, &format!("{at}[{i}]")))
            .collect()
    }

    /// One of `names` (a unit enum variant, by its serde name).
    pub fn variant<T: Copy>(&self, at: &str, names: &[(&str, T)]) -> Result<T, String> {
        let s = self.string(at)?;
        names
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, v)| v)
            .ok_or_else(|| {
                let all: Vec<String> = names.iter().map(|(n, _)| format!("`{n}`")).collect();
                format!(
                    "{at}: unknown variant `{s}`, expected one of {}",
                    all.join(", ")
                )
            })
    }
}

/// A JSON object read as a struct with `#[serde(deny_unknown_fields)]`.
pub struct Obj<'a> {
    fields: &'a [(String, Json)],
    path: String,
}

impl<'a> Obj<'a> {
    /// `j` as an object at `path` (empty for the top) whose fields are all in `known`.
    pub fn new(j: &'a Json, path: &str, known: &[&str]) -> Result<Self, String> {
        let Json::Obj(fields) = j else {
            return Err(j.wrong(if path.is_empty() { "the text" } else { path }, "an object"));
        };
        let o = Obj {
            fields,
            path: path.to_string(),
        };
        for (n, (k, _)) in fields.iter().enumerate() {
            if !known.contains(&k.as_str()) {
                let all: Vec<String> = known.iter().map(|f| format!("`{f}`")).collect();
                return Err(format!(
                    "{}: unknown field, expected one of {}",
                    o.at(k),
                    all.join(", ")
                ));
            }
            if fields[..n].iter().any(|(e, _)| e == k) {
                return Err(format!("{}: duplicate field", o.at(k)));
            }
        }
        Ok(o)
    }

    /// The path of field `k`, for messages.
    pub fn at(&self, k: &str) -> String {
        if self.path.is_empty() {
            k.to_string()
        } else {
            format!("{}.{k}", self.path)
        }
    }

    /// Field `k`, if given.
    pub fn get(&self, k: &str) -> Option<&'a Json> {
        self.fields.iter().find(|(f, _)| f == k).map(|(_, v)| v)
    }

    /// Field `k`, which must be given.
    pub fn req(&self, k: &str) -> Result<&'a Json, String> {
        self.get(k)
            .ok_or_else(|| format!("{}: missing field", self.at(k)))
    }

    /// Field `k` read by `read`, or `default` when not given.
    pub fn or<T>(
        &self,
        k: &str,
        default: impl FnOnce() -> T,
        read: impl FnOnce(&Json, &str) -> Result<T, String>,
    ) -> Result<T, String> {
        match self.get(k) {
            Some(j) => read(j, &self.at(k)),
            None => Ok(default()),
        }
    }

    /// Field `k` read by `read`; an `Option` field: missing or `null` is `None`.
    pub fn opt<T>(
        &self,
        k: &str,
        read: impl FnOnce(&Json, &str) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        match self.get(k) {
            None | Some(Json::Null) => Ok(None),
            Some(j) => read(j, &self.at(k)).map(Some),
        }
    }

    /// Field `k`, which must be given, read by `read`.
    pub fn with<T>(
        &self,
        k: &str,
        read: impl FnOnce(&Json, &str) -> Result<T, String>,
    ) -> Result<T, String> {
        read(self.req(k)?, &self.at(k))
    }
}
