//! `cargo run -p restartscope-manifest --features toml --example import -- FILE…`: prints the
//! scenario TOML of the manifests (what `restartscope import --manifest` prints).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let texts: Vec<(String, String)> = args
        .iter()
        .map(|p| {
            (
                p.clone(),
                std::fs::read_to_string(p).expect("readable file"),
            )
        })
        .collect();
    let sources: Vec<restartscope_manifest::Source> = texts
        .iter()
        .map(|(n, t)| restartscope_manifest::Source { name: n, text: t })
        .collect();
    match restartscope_manifest::import(&sources, &Default::default()) {
        Ok(im) => print!("{}", restartscope_manifest::scenario_toml(&im)),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
