#[path = "../../common.rs"]
mod common;
use k8s_openapi::api::apps::v1::Deployment;
use serde::Deserialize;
#[path = "../../k8s-json/src/sum.rs"]
mod sum;
fn work(s: &str) -> Result<i64, String> {
    let mut t = 0;
    for d in serde_yaml_ng::Deserializer::from_str(s) {
        let d = Deployment::deserialize(d).map_err(|e| e.to_string())?;
        t += sum::sum(&d);
    }
    Ok(t)
}
