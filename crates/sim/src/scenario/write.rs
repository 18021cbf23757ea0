//! A small JSON writer, [`Out`], that writes what serde_json writes (compact, or pretty with two
//! spaces) for the types the app writes: a [`Scenario`] (`Scenario::write_json`, here), and the
//! JSON trace (`restartscope_report::json`). It exists for the web page, as `json.rs`'s reader
//! does: serde_json's serializer and the `Serialize` impls serde derives were about 7 KB of the
//! page's gzip bundle, used only by the "Download JSON trace" button and the compressed
//! `scenario=` link. The CLI writes through it too, so the page and the CLI write the same bytes.
//! `crates/sim/tests/json_read.rs` checks it byte for byte against serde_json on every preset and
//! each with every optional part set (`writes_what_serde_writes`), on ties (`ties_as_serde`) and on
//! random numbers and strings. A field added to `types.rs` must be added here: that test fails
//! until it is. Mirrors no Kubernetes file.

use super::types::*;
use std::fmt::Write;

/// JSON text being written. Objects and arrays are written by closures (`obj`, `list`); a key
/// and then its value inside an object (`key`), or a value alone (`str`, `f64`, …).
pub struct Out {
    s: String,
    pretty: bool,
    depth: usize,
    /// Nothing written yet in the innermost object or array.
    first: bool,
}

impl Out {
    /// Compact, as `serde_json::to_string`.
    pub fn compact() -> Out {
        Out {
            s: String::new(),
            pretty: false,
            depth: 0,
            first: true,
        }
    }

    /// Two-space indents, as `serde_json::to_string_pretty`.
    pub fn pretty() -> Out {
        Out {
            pretty: true,
            ..Out::compact()
        }
    }

    pub fn finish(self) -> String {
        self.s
    }

    fn newline(&mut self) {
        if self.pretty {
            self.s.push('\n');
            for _ in 0..self.depth {
                self.s.push_str("  ");
            }
        }
    }

    /// Before an object's key or an array's value.
    fn item(&mut self) {
        if !self.first {
            self.s.push(',');
        }
        self.first = false;
        self.newline();
    }

    fn open(&mut self, c: char) {
        self.s.push(c);
        self.depth += 1;
        self.first = true;
    }

    fn close(&mut self, c: char) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.s.push(c);
        self.first = false;
    }

    /// An object whose fields `f` writes with [`Out::key`].
    pub fn obj(&mut self, f: impl FnOnce(&mut Out)) -> &mut Out {
        self.open('{');
        f(self);
        self.close('}');
        self
    }

    /// An array of `items`, each written by `f`.
    pub fn list<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Out, &T)) -> &mut Out {
        self.open('[');
        for it in items {
            self.item();
            f(self, it);
        }
        self.close(']');
        self
    }

    /// An object's key; write its value next.
    pub fn key(&mut self, k: &str) -> &mut Out {
        self.item();
        self.str(k);
        self.s.push(':');
        if self.pretty {
            self.s.push(' ');
        }
        self
    }

    /// A string, escaped as serde_json escapes it.
    pub fn str(&mut self, v: &str) -> &mut Out {
        self.s.push('"');
        for c in v.chars() {
            match c {
                '"' => self.s.push_str("\\\""),
                '\\' => self.s.push_str("\\\\"),
                '\n' => self.s.push_str("\\n"),
                '\r' => self.s.push_str("\\r"),
                '\t' => self.s.push_str("\\t"),
                '\u{8}' => self.s.push_str("\\b"),
                '\u{c}' => self.s.push_str("\\f"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.s, "\\u{:04x}", c as u32);
                }
                c => self.s.push(c),
            }
        }
        self.s.push('"');
        self
    }

    /// A number as serde_json writes it (ryu's shortest form): `30.0`, `0.00001`, `1e+16`,
    /// `1.5e-7`; not finite: `null`. Rust's `Display` writes the same shortest digits, except
    /// where two shortest forms are equally near `v` (its exact value ends in a 5 just past
    /// them, e.g. 859961180142157.25): Rust rounds that tie up, ryu to the even digit
    /// (`half_even`).
    pub fn f64(&mut self, v: f64) -> &mut Out {
        let a = v.abs();
        let start = self.s.len();
        if !v.is_finite() {
            self.s.push_str("null");
            return self;
        } else if a == 0.0 || (1e-5..1e16).contains(&a) {
            let _ = write!(self.s, "{v}");
            if !self.s[start..].contains('.') {
                self.s.push_str(".0");
            }
        } else {
            let e = format!("{v:e}");
            self.s
                .push_str(&e.replacen("e", if a >= 1.0 { "e+" } else { "e" }, 1));
        }
        if let Some(i) = half_even(a, &self.s[start..]) {
            // The last digit is odd (the tie rounded up from an even one) and at least 1.
            // An ASCII digit 1–9 less one: still UTF-8 (`from_utf8` cannot fail). The smallest
            // code for the page's bundle of the forms tried (−500 bytes of gzip against `split_off`).
            let mut b = std::mem::take(&mut self.s).into_bytes();
            b[start + i] -= 1;
            self.s = String::from_utf8(b).unwrap_or_default();
        }
        self
    }

    /// A whole number (any integer type).
    pub fn int(&mut self, v: impl std::fmt::Display) -> &mut Out {
        let _ = write!(self.s, "{v}");
        self
    }

    pub fn bool(&mut self, v: bool) -> &mut Out {
        self.s.push_str(if v { "true" } else { "false" });
        self
    }

    pub fn null(&mut self) -> &mut Out {
        self.s.push_str("null");
        self
    }
}

/// Where Rust's shortest form `text` of `a` (> 0) rounded a tie up to an odd last digit, the
/// index of that digit (ryu writes the even one below it). A tie: `a` is exactly the midpoint
/// `(W - ½)·10^q` of the written `W·10^q` (`W` of at most 17 digits), i.e.
/// `2a = (2W - 1)·10^q`; with
/// `a = m·2^e` (`m` odd) and `2W - 1` odd that needs `q < 0`, `e + 1 = q` and `m·5^-q = 2W - 1`,
/// in integers.
fn half_even(a: f64, text: &str) -> Option<usize> {
    // W, its digits after the point and the exponent, read by hand: `str::parse` cost the
    // page's bundle over a kilobyte.
    let (mut w, mut sig, mut frac, mut point, mut last) = (0u64, 0, 0i32, false, 0);
    let (mut exp, mut neg, mut in_exp) = (0i32, false, false);
    for (i, &c) in text.as_bytes().iter().enumerate() {
        match c {
            b'0'..=b'9' if in_exp => exp = exp * 10 + (c - b'0') as i32,
            b'0'..=b'9' => {
                if sig > 0 || c != b'0' {
                    sig += 1;
                    if sig > 17 {
                        return None;
                    }
                    w = w * 10 + (c - b'0') as u64;
                }
                frac += point as i32;
                last = i;
            }
            b'.' => point = true,
            b'e' => in_exp = true,
            b'-' if in_exp => neg = true,
            _ => {}
        }
    }
    if w % 2 == 0 {
        return None;
    }
    let q = if neg { -exp } else { exp } - frac;
    // a = m·2^e as a normal number (a subnormal one is never a tie: e + 1 = q would need a
    // 300-digit W).
    let bits = a.to_bits();
    let m = bits & ((1 << 52) - 1) | 1 << 52;
    let t = m.trailing_zeros() as i32;
    let (m, e) = (m >> t, ((bits >> 52) & 0x7ff) as i32 - 1075 + t);
    if q >= 0 || e + 1 != q {
        return None;
    }
    // m·5^-q = 2W - 1, as 2W - 1 divided by 5 -q times.
    let mut x = 2 * w - 1;
    for _ in 0..-q {
        if x % 5 != 0 {
            return None;
        }
        x /= 5;
    }
    (x == m).then_some(last)
}

/// `s` as a JSON string (`serde_json::to_string(s)`).
pub fn quote(s: &str) -> String {
    let mut o = Out::compact();
    o.str(s);
    o.finish()
}

impl Scenario {
    /// The scenario as `serde_json::to_string` (or `to_string_pretty`) writes it.
    pub fn to_json(&self, pretty: bool) -> String {
        let mut o = if pretty {
            Out::pretty()
        } else {
            Out::compact()
        };
        self.write_json(&mut o);
        o.finish()
    }

    /// Writes the scenario as serde writes it (fields in `types.rs`'s order, the
    /// `skip_serializing_if` fields left out when empty).
    pub fn write_json(&self, o: &mut Out) {
        o.obj(|o| {
            o.key("name").str(&self.name);
            o.key("description").str(&self.description);
            o.key("cluster").obj(|o| cluster(o, &self.cluster));
            o.key("kubelet").obj(|o| kubelet(o, &self.kubelet));
            o.key("pods").list(&self.pods, pod);
            if let Some(p) = &self.pdb {
                o.key("pdb").obj(|o| pdb(o, p));
            }
            o.key("seed").int(self.seed);
            o.key("horizon_s").f64(self.horizon_s);
        });
    }
}

fn cluster(o: &mut Out, c: &Cluster) {
    o.key("version").str(c.version.as_str());
    if let Some(g) = c.node_monitor_grace_s {
        o.key("node_monitor_grace_s").f64(g);
    }
    o.key("node_monitor_period_s").f64(c.node_monitor_period_s);
    o.key("lease_duration_s").f64(c.lease_duration_s);
    o.key("toleration_s").f64(c.toleration_s);
}

fn kubelet(o: &mut Out, k: &Kubelet) {
    o.key("policy").str(k.policy.as_str());
    o.key("restarts").list(&k.restarts, |o, r| {
        o.obj(|o| {
            o.key("at_s").f64(r.at_s);
            o.key("downtime_s").f64(r.downtime_s);
        });
    });
    if !k.api_unreachable.is_empty() {
        o.key("api_unreachable").list(&k.api_unreachable, |o, w| {
            o.obj(|o| {
                o.key("at_s").f64(w.at_s);
                o.key("duration_s").f64(w.duration_s);
            });
        });
    }
    o.key("first_sync_delay_s").f64(k.first_sync_delay_s);
}

fn pod(o: &mut Out, p: &Pod) {
    o.obj(|o| {
        o.key("name").str(&p.name);
        o.key("workload").str(match p.workload {
            Workload::Deployment => "deployment",
            Workload::DaemonSet => "daemonset",
        });
        if let Some(s) = &p.service {
            o.key("service").str(s);
        }
        o.key("termination_grace_s").f64(p.termination_grace_s);
        if !p.init_containers.is_empty() {
            o.key("init_containers").list(&p.init_containers, container);
        }
        o.key("containers").list(&p.containers, container);
    });
}

fn container(o: &mut Out, c: &Container) {
    o.obj(|o| {
        o.key("name").str(&c.name);
        if let Some(r) = &c.restart_policy {
            o.key("restart_policy").str(r);
        }
        let probes = [
            ("startup_probe", &c.startup_probe),
            ("readiness_probe", &c.readiness_probe),
            ("liveness_probe", &c.liveness_probe),
        ];
        for (k, p) in probes {
            if let Some(p) = p {
                o.key(k).obj(|o| probe(o, p));
            }
        }
        o.key("warmup_s").f64(c.warmup_s);
        if !c.truth.is_empty() {
            o.key("truth").list(&c.truth, |o, t| {
                o.obj(|o| {
                    o.key("at_s").f64(t.at_s);
                    o.key("state").str(match t.state {
                        Health::Healthy => "healthy",
                        Health::FailingReadiness => "failing-readiness",
                        Health::Failing => "failing",
                        Health::Exited => "exited",
                    });
                });
            });
        }
    });
}

fn probe(o: &mut Out, p: &Probe) {
    o.key("period_s").int(p.period_s);
    o.key("timeout_s").int(p.timeout_s);
    o.key("success_threshold").int(p.success_threshold);
    o.key("failure_threshold").int(p.failure_threshold);
    o.key("initial_delay_s").int(p.initial_delay_s);
    o.key("exec_s").f64(p.exec_s);
}

fn pdb(o: &mut Out, p: &Pdb) {
    if let Some(s) = &p.service {
        o.key("service").str(s);
    }
    let bounds = [
        ("min_available", &p.min_available),
        ("max_unavailable", &p.max_unavailable),
    ];
    for (k, v) in bounds {
        match v {
            Some(IntOrPercent::Int(n)) => {
                o.key(k).int(n);
            }
            Some(IntOrPercent::Str(s)) => {
                o.key(k).str(s);
            }
            None => {}
        }
    }
}
