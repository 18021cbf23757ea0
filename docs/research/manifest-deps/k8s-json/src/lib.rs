#[path = "../../common.rs"]
mod common;
mod sum;
fn work(s: &str) -> Result<i64, String> {
    let d: k8s_openapi::api::apps::v1::Deployment = serde_json::from_str(s).map_err(|e| e.to_string())?;
    Ok(sum::sum(&d))
}
