//! `restartscope replay` on real pastes of the other restarts a node goes through: the answer
//! names the restart first (a node reboot, a container runtime restart or outage, a spec-hash
//! restart as after an in-place kubelet upgrade), not a kubelet bug; the text, the JSON and the
//! SVG's title agree. No real 1.30→1.31 upgrade log with the kubelet's version lines was found in
//! the public reports (kubernetes#129385 and #129659 quote none): the spec-hash class rests on
//! kubernetes#84443's line, an in-place 1.13→1.14 upgrade.

mod common;
use common::*;

/// Each fixture, the headline's first words, the preset drawn, the SVG title's words.
const CASES: [(&str, &str, &str, &str); 6] = [
    (
        "100236-events-reboot.txt",
        "Answer: A node reboot explains this: every container restarts",
        "node-reboot",
        "a node reboot explains this",
    ),
    (
        "134503-rebooted-event.yaml",
        "Answer: A node reboot explains this",
        "node-reboot",
        "a node reboot explains this",
    ),
    (
        "101056-journal.txt",
        "Answer: A container runtime restart (or outage) explains this",
        "runtime-restart",
        "a container runtime restart explains this",
    ),
    (
        "45419-journal.txt",
        "Answer: A container runtime restart (or outage) explains this",
        "runtime-restart",
        "a container runtime restart explains this",
    ),
    (
        "jupyter-et-13-describe-node.txt",
        "Answer: A container runtime restart (or outage) explains this",
        "runtime-restart",
        "a container runtime restart explains this",
    ),
    (
        "84443-journal.txt",
        "Answer: A container-spec-hash restart explains this",
        "upgrade-1.30-to-1.31",
        "an in-place kubelet upgrade explains this",
    ),
];

#[test]
fn the_answer_names_the_restart_first() {
    for (file, headline, preset, _) in CASES {
        let out = ok(&["replay", "--evidence", &data(file)]);
        assert!(out.contains(headline), "{file}: {out}");
        assert!(
            first_verdict(&out).contains(&format!("{preset} · ")),
            "{file}: {out}"
        );
        assert!(!out.contains("Answer: kubernetes#"), "{file}: {out}");
    }
}

#[test]
fn json_and_svg_say_the_same_answer() {
    for (file, headline, preset, title) in CASES {
        let j = json(&["replay", "--evidence", &data(file), "-o", "json"]);
        let a = &j["answer"];
        assert!(
            a["headline"]
                .as_str()
                .unwrap()
                .starts_with(headline.trim_start_matches("Answer: ")),
            "{file}: {a:#}"
        );
        assert_eq!(a["bug"], serde_json::Value::Null, "{file}");
        assert_eq!(a["restart"], preset, "{file}");
        assert_eq!(j["verdicts"][0]["restart"], preset, "{file}");
        assert!(
            j["beside_the_model"]["runs"][0]
                .as_str()
                .unwrap()
                .contains(preset),
            "{file}: {:#}",
            j["beside_the_model"]["runs"]
        );
        let svg = ok(&["replay", "--evidence", &data(file), "-o", "svg"]);
        assert!(
            svg.contains(&format!("Your incident beside the model · {title}")),
            "{file}"
        );
    }
}

/// A reboot's run has the evidence's downtime: kubernetes#100236's node NotReady 31 minutes and
/// the kubelet's start 29 minutes before `kubectl get events` ran.
#[test]
fn the_reboot_is_drawn_with_the_evidences_downtime() {
    let out = ok(&[
        "replay",
        "--evidence",
        &data("100236-events-reboot.txt"),
        "-o",
        "svg",
    ]);
    assert!(out.contains("kubelet down 30s–2m30s (2m)"), "{out}");
}
