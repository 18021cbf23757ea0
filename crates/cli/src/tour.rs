//! `restartscope tour [--name kep-4781] --out DIR`: one standalone SVG per step of a tour
//! (`01-legacy-flap.svg`, …, caption included) and `index.md` listing the steps, for the KEP's
//! markdown. The tours and their rendering live in `restartscope-tour`.

use crate::UserError;
use restartscope_figure::Animation;
use restartscope_tour::{svg, TOURS};
use std::process::ExitCode;

/// The options of `tour`.
pub struct TourArgs {
    pub name: String,
    pub out: String,
    /// `--animate [--duration]`: every step's SVG animated.
    pub animate: Option<Animation>,
}

fn names() -> String {
    TOURS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
}

/// `tour`'s options, checked.
pub fn args(o: crate::args::TourOpts) -> Result<TourArgs, UserError> {
    if o.name.as_deref() == Some("") || o.out.as_deref() == Some("") {
        let flag = if o.out.as_deref() == Some("") {
            "--out"
        } else {
            "--name"
        };
        return Err(format!("option {flag} needs a value").into());
    }
    let name = o.name.unwrap_or_else(|| TOURS[0].name.to_string());
    if restartscope_tour::find(&name).is_none() {
        return Err(format!("unknown tour {name:?}; tours: {}", names()).into());
    }
    let out = o
        .out
        .ok_or("tour needs --out DIR (the directory for the SVGs and index.md)")?;
    let animate = crate::anim::animation(&o.anim)?;
    Ok(TourArgs { name, out, animate })
}

/// Writes the tour's files into `--out` (created if missing). Exit status 1 when a file cannot
/// be written.
pub fn run(a: &TourArgs) -> ExitCode {
    let Some(tour) = restartscope_tour::find(&a.name) else {
        return super::fail(&format!("unknown tour {:?}; tours: {}", a.name, names()));
    };
    let files = match svg::files_animated(tour, a.animate.as_ref()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("restartscope: error: {e}");
            return ExitCode::from(1);
        }
    };
    let dir = std::path::Path::new(&a.out);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("restartscope: error: cannot create {}: {e}", a.out);
        return ExitCode::from(1);
    }
    for (file, text) in &files {
        let path = dir.join(file);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("restartscope: error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    let steps = files.iter().filter(|(f, _)| f.ends_with(".svg")).count();
    if a.animate.is_some() {
        println!(
            "tour {}: wrote {steps} step figures (animated) and index.md to {}",
            tour.name, a.out
        );
    } else {
        println!(
            "tour {}: wrote {steps} step figures, index.md and {}.json (the web app's copy) to {}",
            tour.name, tour.name, a.out
        );
    }
    ExitCode::SUCCESS
}
