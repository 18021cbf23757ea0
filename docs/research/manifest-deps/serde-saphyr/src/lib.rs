#[path = "../../common.rs"]
mod common;
#[path = "../../walk.rs"]
mod walk;
fn work(s: &str) -> Result<i64, String> {
    let docs: Vec<serde_json::Value> = serde_saphyr::from_multiple(s).map_err(|e| e.to_string())?;
    Ok(docs.iter().map(walk::walk_json).sum())
}
