//! A list of Service names read from one name or a list, written as one name when it holds one
//! (so scenario files and links from before Services were a list read, and read back, the
//! same): `Pod::services` (`types.rs`) and the trace's pod info. Mirrors no Kubernetes file.

use serde::de::{SeqAccess, Visitor};
use serde::{Deserializer, Serialize, Serializer};

pub fn serialize<S: Serializer>(v: &[String], s: S) -> Result<S::Ok, S::Error> {
    match v {
        [one] => one.serialize(s),
        _ => v.serialize(s),
    }
}

struct OneOrMany;

impl<'de> Visitor<'de> for OneOrMany {
    type Value = Vec<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a Service name or a list of Service names")
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(vec![v.to_string()])
    }
    /// `null` (a trace's pod info without a Service, as written before): no Service.
    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(s) = seq.next_element::<String>()? {
            out.push(s);
        }
        Ok(out)
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(OneOrMany)
}
