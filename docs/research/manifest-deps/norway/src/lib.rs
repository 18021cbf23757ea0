#[path = "../../common.rs"]
mod common;
#[path = "../../walk.rs"]
mod walk;
use serde::Deserialize;
fn work(s: &str) -> Result<i64, String> {
    let mut t = 0;
    for d in serde_norway::Deserializer::from_str(s) {
        let v = serde_json::Value::deserialize(d).map_err(|e| e.to_string())?;
        t += walk::walk_json(&v);
    }
    Ok(t)
}
