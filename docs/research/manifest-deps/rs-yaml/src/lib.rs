#[path = "../../common.rs"]
mod common;
use restartscope_manifest::yaml::{Node, Value};
fn count(n: &Node) -> i64 {
    match &n.value {
        Value::Map(m) => 1 + m.iter().map(|(_, v)| count(v)).sum::<i64>(),
        Value::Seq(v) => 1 + v.iter().map(count).sum::<i64>(),
        _ => 1,
    }
}
fn work(s: &str) -> Result<i64, String> {
    let docs = restartscope_manifest::yaml::parse(s).map_err(|e| e.message)?;
    let mut t = 0;
    for d in &docs {
        let spec = d.root.get("spec").and_then(|s| s.get("template")).and_then(|s| s.get("spec"));
        let mut periods = 0;
        for k in ["initContainers", "containers"] {
            if let Some(Node { value: Value::Seq(cs), .. }) = spec.and_then(|s| s.get(k)) {
                for c in cs {
                    for p in ["startupProbe", "readinessProbe", "livenessProbe"] {
                        if let Some(p) = c.get(p) {
                            periods += match p.get("periodSeconds").map(|v| &v.value) {
                                Some(Value::Int(i)) => *i,
                                _ => 10,
                            };
                        }
                    }
                }
            }
        }
        t += count(&d.root) * 1000 + periods;
    }
    Ok(t)
}
