#[path = "../../common.rs"]
mod common;
use yaml_rust2::{Yaml, YamlLoader};
fn count(v: &Yaml) -> i64 {
    match v {
        Yaml::Hash(m) => 1 + m.values().map(count).sum::<i64>(),
        Yaml::Array(a) => 1 + a.iter().map(count).sum::<i64>(),
        _ => 1,
    }
}
fn work(s: &str) -> Result<i64, String> {
    let docs = YamlLoader::load_from_str(s).map_err(|e| e.to_string())?;
    let mut t = 0;
    for v in &docs {
        let spec = &v["spec"]["template"]["spec"];
        let mut periods = 0;
        for k in ["initContainers", "containers"] {
            if let Some(cs) = spec[k].as_vec() {
                for c in cs {
                    for p in ["startupProbe", "readinessProbe", "livenessProbe"] {
                        if !c[p].is_badvalue() {
                            periods += c[p]["periodSeconds"].as_i64().unwrap_or(10);
                        }
                    }
                }
            }
        }
        t += count(v) * 1000 + periods;
    }
    Ok(t)
}
