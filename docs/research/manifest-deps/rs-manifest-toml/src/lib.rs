#[path = "../../common.rs"]
mod common;
fn work(s: &str) -> Result<i64, String> {
    let im = restartscope_manifest::import_str(s, &Default::default()).map_err(|e| e.to_string())?;
    Ok(restartscope_manifest::scenario_toml(&im).len() as i64)
}
