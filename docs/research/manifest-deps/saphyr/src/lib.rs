#[path = "../../common.rs"]
mod common;
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
fn count(v: &MarkedYaml) -> i64 {
    match &v.data {
        YamlData::Mapping(m) => 1 + m.values().map(count).sum::<i64>(),
        YamlData::Sequence(a) => 1 + a.iter().map(count).sum::<i64>(),
        _ => 1,
    }
}
fn get<'a, 'b>(v: &'a MarkedYaml<'b>, k: &str) -> Option<&'a MarkedYaml<'b>> {
    v.data.as_mapping_get(k)
}
fn work(s: &str) -> Result<i64, String> {
    let docs = MarkedYaml::load_from_str(s).map_err(|e| e.to_string())?;
    let mut t = 0;
    for v in &docs {
        let spec = get(v, "spec").and_then(|v| get(v, "template")).and_then(|v| get(v, "spec"));
        let mut periods = 0;
        for k in ["initContainers", "containers"] {
            if let Some(YamlData::Sequence(cs)) = spec.and_then(|s| get(s, k)).map(|v| &v.data) {
                for c in cs {
                    for p in ["startupProbe", "readinessProbe", "livenessProbe"] {
                        if let Some(p) = get(c, p) {
                            periods += match get(p, "periodSeconds").map(|v| &v.data) {
                                Some(YamlData::Value(Scalar::Integer(i))) => *i,
                                _ => 10,
                            };
                            periods += p.span.start.line() as i64 * 0;
                        }
                    }
                }
            }
        }
        t += count(v) * 1000 + periods + v.span.start.line() as i64;
    }
    Ok(t)
}
