#[path = "../../common.rs"]
mod common;
fn work(s: &str) -> Result<i64, String> {
    let im = restartscope_manifest::import_str(s, &Default::default()).map_err(|e| e.to_string())?;
    Ok(im.scenario.pods.len() as i64 * 1000 + im.unused.len() as i64)
}
