//! A tour as data for the web app, which loads it only when a reader opens the tour
//! (`NAME.json`, written beside the step figures by `restartscope tour --out DIR`, [`svg::files`]):
//! per step its scenario and kubelets (the page simulates them with the model it already has),
//! its window, its marks resolved on the runs and its caption filled from them. The page reads
//! these types and none of this crate's code, so the caption engine and the tour's templates stay
//! out of its bundle. `crates/cli/tests/tour.rs` keeps the committed copy current.
//!
//! [`svg::files`]: crate::svg::files

use crate::Tour;
use restartscope_sim::{Ms, Policy, Scenario};
use serde::{Deserialize, Serialize};

/// One tour, every step computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TourData {
    pub name: String,
    pub title: String,
    pub steps: Vec<StepData>,
}

/// What the page needs to show one step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepData {
    pub title: String,
    /// The preset with the step's edits, validated ([`crate::Step::scenario`]).
    pub scenario: Scenario,
    /// The kubelets to run on the scenario's release, legacy first ([`crate::Step::policies`]).
    pub policies: Vec<Policy>,
    /// `(t0_ms, t1_ms)` ([`crate::Step::window`]).
    pub window_ms: (Ms, Ms),
    /// Paragraphs, every number and rule filled from the runs ([`crate::Step::caption`]).
    pub caption: Vec<String>,
    /// `(t_ms, label)` in time order ([`crate::Step::marks`]).
    pub marks: Vec<(Ms, String)>,
    /// `(t_ms, question)`: predict what follows `t_ms`, then reveal ([`crate::Step::predict`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<(Ms, String)>,
}

impl Tour {
    /// Every step computed (each step's runs simulated once).
    pub fn data(&self) -> Result<TourData, String> {
        let steps = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let err = |e: String| format!("tour {} step {}: {e}", self.name, i + 1);
                let scenario = step.scenario().map_err(|e| err(e.to_string()))?;
                let traces = step.traces().map_err(|e| err(e.to_string()))?;
                Ok(StepData {
                    title: step.title.to_string(),
                    caption: step.caption(&traces).map_err(err)?,
                    marks: step.marks(&traces),
                    predict: step.predict(&traces),
                    scenario,
                    policies: step.policies(),
                    window_ms: step.window(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TourData {
            name: self.name.to_string(),
            title: self.title.to_string(),
            steps,
        })
    }
}

impl TourData {
    /// The data from its JSON (`NAME.json`), with serde_json; errors name the field's path
    /// (`restartscope_sim::json::from_str`).
    pub fn from_json(text: &str) -> Result<TourData, String> {
        restartscope_sim::json::from_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_reads_the_committed_tour() {
        let text = include_str!("../../../docs/tour/kep-4781.json");
        let serde: TourData = serde_json::from_str(text).unwrap();
        assert_eq!(TourData::from_json(text), Ok(serde));
        assert!(TourData::from_json("{\"name\":\"x\"}").is_err());
        assert!(TourData::from_json(&text[..text.len() / 2]).is_err());
    }
}
