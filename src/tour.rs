//! The guided tours (`restartscope-tour`: KEP-4781 told in steps) in the page: which step a link
//! names, and the runs of a step — its scenario and kubelets, laid out in its window with its
//! marks drawn over the figure and its caption filled from the runs. Pure (no signals, no DOM).
//! Called by `url.rs` (the link), `app.rs` (the recompute effect) and `components/tour.rs`.

use crate::state::{assemble, FigureSpec, Runs};
use restartscope_figure::Shape;
use restartscope_tour::{find, Tour};

/// What the tour panel shows for the step on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    pub tour: &'static str,
    pub tour_title: &'static str,
    /// Counted from 1.
    pub n: usize,
    pub count: usize,
    pub title: &'static str,
    /// Paragraphs, every number filled from the step's runs.
    pub caption: Vec<String>,
    /// Where the playhead goes when the step opens: the end of its window.
    pub t_end_ms: i64,
    /// The marks drawn in the figure (numbered 1, 2, … there), in time order.
    pub marks: Vec<(i64, String)>,
}

/// `?tour=NAME&step=N` → the tour and step (step 1 when `step` is missing); `Ok(None)` without
/// `tour`; an error names what is wrong (an unknown tour or a step out of range).
pub fn from_link(pairs: &[(String, String)]) -> Result<Option<(String, usize)>, String> {
    let get = |k: &str| pairs.iter().rev().find(|(x, _)| x == k).map(|(_, v)| v);
    let Some(name) = get("tour") else {
        return Ok(None);
    };
    let names: Vec<&str> = restartscope_tour::TOURS.iter().map(|t| t.name).collect();
    let tour = find(name).ok_or_else(|| {
        format!(
            "tour={name} ignored: not a tour (one of {})",
            names.join(", ")
        )
    })?;
    let n = match get("step") {
        None => 1,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=tour.steps.len()).contains(n))
            .ok_or_else(|| {
                format!(
                    "tour={name}&step={v} ignored: the tour has steps 1 to {}",
                    tour.steps.len()
                )
            })?,
    };
    Ok(Some((tour.name.to_string(), n)))
}

/// The tour a link named (by `from_link`, so it exists).
pub fn tour(name: &str) -> Option<&'static Tour> {
    find(name)
}

/// The runs of step `n` of `name` laid out as `spec` says, in the step's window, with the
/// step's marks over the figure (a dashed line numbered at its foot; the tour panel lists them).
pub fn compute(name: &str, n: usize, spec: FigureSpec) -> Result<(Runs, StepView), String> {
    let tour = find(name).ok_or_else(|| format!("no tour {name}"))?;
    let step = tour.step(n).ok_or_else(|| format!("no step {n}"))?;
    let sc = step.scenario().map_err(|e| e.to_string())?;
    let traces = step.traces().map_err(|e| e.to_string())?;
    let caption = step.caption(&traces)?;
    let marks = step.marks(&traces);
    let window = step.window();
    let mut runs = assemble(sc, traces, spec, window);
    let fig = std::sync::Arc::make_mut(&mut runs.figure);
    if let (Some(first), Some(last)) = (fig.groups.first(), fig.groups.last()) {
        let (top, bottom) = (first.y, last.y + last.h);
        for (i, (t, _)) in marks.iter().enumerate() {
            let x = fig.x_of(*t);
            if x < fig.x0 || x > fig.x1 {
                continue;
            }
            fig.shapes.push(Shape::Line {
                x1: x,
                y1: top,
                x2: x,
                y2: bottom,
                class: "rs-grace",
            });
            fig.shapes.push(Shape::Text {
                x: x + 3.0,
                y: bottom - 3.0,
                text: (i + 1).to_string(),
                class: "rs-warn",
                anchor: "start",
            });
        }
    }
    let view = StepView {
        tour: tour.name,
        tour_title: tour.title,
        n,
        count: tour.steps.len(),
        title: step.title,
        caption,
        t_end_ms: runs.figure.t1_ms,
        marks,
    };
    Ok((runs, view))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::figure_spec;

    fn pairs(q: &str) -> Vec<(String, String)> {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn links_name_a_tour_and_a_step() {
        assert_eq!(from_link(&pairs("a=1")), Ok(None));
        assert_eq!(
            from_link(&pairs("tour=kep-4781&step=3")),
            Ok(Some(("kep-4781".into(), 3)))
        );
        assert_eq!(
            from_link(&pairs("tour=kep-4781")),
            Ok(Some(("kep-4781".into(), 1)))
        );
        assert!(from_link(&pairs("tour=nope"))
            .unwrap_err()
            .contains("not a tour"));
        assert!(from_link(&pairs("tour=kep-4781&step=99"))
            .unwrap_err()
            .contains("steps 1 to"));
    }

    #[test]
    fn every_step_of_every_tour_computes_with_its_caption() {
        for t in restartscope_tour::TOURS {
            for n in 1..=t.steps.len() {
                for spec in [
                    figure_spec(false, false, 1200.0, 900.0),
                    figure_spec(true, false, 0.0, 720.0),
                    figure_spec(false, true, 480.0, 560.0),
                ] {
                    let (runs, view) = compute(t.name, n, spec).unwrap();
                    assert_eq!(view.n, n);
                    assert!(!view.caption.is_empty());
                    assert!(runs.figure.t1_ms > runs.figure.t0_ms);
                }
            }
        }
    }
}
