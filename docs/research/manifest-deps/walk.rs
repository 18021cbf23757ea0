#[allow(dead_code)]
pub fn walk_json(v: &serde_json::Value) -> i64 {
    use serde_json::Value;
    fn count(v: &Value) -> i64 {
        match v {
            Value::Object(m) => 1 + m.values().map(count).sum::<i64>(),
            Value::Array(a) => 1 + a.iter().map(count).sum::<i64>(),
            _ => 1,
        }
    }
    let spec = &v["spec"]["template"]["spec"];
    let mut periods = 0;
    for k in ["initContainers", "containers"] {
        if let Some(cs) = spec[k].as_array() {
            for c in cs {
                for p in ["startupProbe", "readinessProbe", "livenessProbe"] {
                    if c.get(p).is_some() {
                        periods += c[p]["periodSeconds"].as_i64().unwrap_or(10);
                    }
                }
            }
        }
    }
    count(v) * 1000 + periods
}
