#[path = "../../common.rs"]
mod common;
#[path = "../../walk.rs"]
mod walk;
fn work(s: &str) -> Result<i64, String> {
    let v: serde_json::Value = serde_json::from_str(s).map_err(|e| e.to_string())?;
    Ok(walk::walk_json(&v))
}
