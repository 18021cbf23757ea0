//! The model against Kubernetes' own code. `make oracle` runs each scenario through the real
//! prober, results and status managers, node lifecycle and taint eviction controllers of every
//! release the Go module proxy serves from 1.31 on (`oracle/`, a Go harness on a fake clock) and
//! writes `oracle/vectors/<release>/<scenario>.<policy>.json`; these tests run the model on the
//! same scenario, release and kubelet, and compare what a user sees: each pod's Ready in the API
//! and who wrote it, the node's Ready condition, taints, evictions, rejections at admission and
//! Failed phases, at the same millisecond.
//!
//! Every vector must agree, or be listed in docs/ORACLE.md's agreement table as `differs` with
//! the rule and the reason; a row that says `differs` where the runs now agree fails too, so the
//! table stays true. `ORACLE_BLESS=1 cargo test -p restartscope-sim --test oracle` rewrites the
//! table's rows from the vectors, keeping the reasons already written; a new difference gets the
//! reason `(explain)`, which fails until someone explains it.

use restartscope_sim::*;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One observable change, as both sides write it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    t: i64,
    kind: String,
    pod: String,
    /// The container, for `container_started` / `container_ready` (empty otherwise).
    container: String,
    value: String,
    by: String,
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:>9.3}s {} {}{}{} {} by {}",
            self.t as f64 / 1000.0,
            self.kind,
            self.pod,
            if self.container.is_empty() { "" } else { "/" },
            self.container,
            self.value,
            self.by
        )
    }
}

/// The kinds compared: what the API shows (the harness records the same kinds). Container
/// Started and Ready are what Kubernetes' e2e tests of a kubelet restart watch; a pod's
/// rejection at admission (with its status message) and its Failed phase, what
/// `kubectl get pods` shows.
const COMPARED: [&str; 9] = [
    "pod_ready",
    "container_started",
    "container_ready",
    "node_ready",
    "taint_added",
    "taint_removed",
    "eviction",
    "pod_rejected",
    "pod_failed",
];

fn seen_from_vector(v: &Json) -> Vec<Seen> {
    let mut out: Vec<Seen> = (v["events"].as_array().unwrap().iter())
        .filter(|e| COMPARED.contains(&e["kind"].as_str().unwrap_or("")))
        .map(|e| Seen {
            t: e["t"].as_i64().unwrap(),
            kind: e["kind"].as_str().unwrap().into(),
            pod: e["pod"].as_str().unwrap_or("").into(),
            container: e["container"].as_str().unwrap_or("").into(),
            value: match &e["value"] {
                Json::Null => String::new(),
                Json::String(s) => s.clone(),
                other => other.to_string(),
            },
            by: e["by"].as_str().unwrap_or("").into(),
        })
        .collect();
    out.sort();
    out
}

fn seen_from_model(sc: &Scenario, trace: &Trace) -> Vec<Seen> {
    let mut out: Vec<Seen> = (trace.events.iter())
        .filter(|e| COMPARED.contains(&e.kind.as_str()))
        .map(|e| Seen {
            t: e.t,
            kind: e.kind.as_str().into(),
            pod: e
                .pod
                .map(|p| sc.pods[p as usize].name.clone())
                .unwrap_or_default(),
            container: match (e.pod, e.container) {
                (Some(p), Some(c)) if e.kind.as_str().starts_with("container_") => sc.pods
                    [p as usize]
                    .all_containers()
                    .nth(c as usize)
                    .map(|c| c.name.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            },
            value: e.value.text(),
            by: e.by.as_str().into(),
        })
        .collect();
    out.sort();
    out
}

/// `v1.37.2` → the model's `1.37.2`; a pre-release (`v1.38.0-beta.0`) → its minor (`1.38`).
fn model_version(tag: &str) -> String {
    let t = tag.trim_start_matches('v');
    match t.split_once('-') {
        Some((num, _)) => num
            .rsplit_once('.')
            .map(|(m, _)| m)
            .unwrap_or(num)
            .to_string(),
        None => t.to_string(),
    }
}

struct Outcome {
    release: String,
    scenario: String,
    policy: String,
    /// None: agree; Some(first differences); the harness skipped it: Err(reasons).
    result: Result<Option<String>, String>,
}

fn compare(path: &Path) -> Outcome {
    let v: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let release = v["release"].as_str().unwrap().to_string();
    let scenario = v["scenario"].as_str().unwrap().to_string();
    let policy = v["policy"].as_str().unwrap().to_string();
    let mut out = Outcome {
        release: release.clone(),
        scenario: scenario.clone(),
        policy: policy.clone(),
        result: Ok(None),
    };
    if let Some(s) = v["skipped"].as_array() {
        out.result = Err((s.iter().map(|x| x.as_str().unwrap_or("")))
            .collect::<Vec<_>>()
            .join("; "));
        return out;
    }
    let file = scenario_file(&scenario);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut sc: Scenario = toml::from_str(&text).unwrap();
    let version = |tag: &str| -> restartscope_sim::releases::KubeVersion {
        serde_json::from_value(Json::String(model_version(tag)))
            .unwrap_or_else(|e| panic!("{tag}: the model does not know it: {e}"))
    };
    // An in-place upgrade ran from `from_release` (the newest patch of the minor before) to
    // the vector's release: the model starts at the one and its upgrade restart brings the other.
    match v["from_release"].as_str() {
        Some(from) => {
            sc.cluster.version = version(from);
            let to = version(&release);
            for r in sc
                .kubelet
                .restarts
                .iter_mut()
                .filter(|r| r.upgrade_to.is_some())
            {
                r.upgrade_to = Some(to);
            }
        }
        None => sc.cluster.version = version(&release),
    }
    let pol = if policy == "legacy" {
        Policy::Legacy
    } else {
        Policy::Kep
    };
    let trace = simulate_policy(&sc, pol)
        .unwrap_or_else(|e| panic!("{release} {scenario} {policy}: the model refused: {e:?}"));
    let go = seen_from_vector(&v);
    let model = seen_from_model(&sc, &trace);
    if go != model {
        let only_go: Vec<String> = (go.iter().filter(|s| !model.contains(s)))
            .map(|s| format!("    Go only:    {s}"))
            .collect();
        let only_model: Vec<String> = (model.iter().filter(|s| !go.contains(s)))
            .map(|s| format!("    model only: {s}"))
            .collect();
        out.result = Ok(Some(
            only_go
                .into_iter()
                .chain(only_model)
                .take(12)
                .collect::<Vec<_>>()
                .join("\n"),
        ));
    }
    out
}

/// A preset (`crates/sim/presets`), a replay of Kubernetes' own tests (`crates/sim/replays`) or
/// a case written for a rule a release changed (`crates/sim/oracle-cases`).
fn scenario_file(name: &str) -> PathBuf {
    for dir in ["presets", "replays"] {
        let f = root().join(format!("crates/sim/{dir}/{name}.toml"));
        if f.exists() {
            return f;
        }
    }
    root().join(format!("crates/sim/oracle-cases/{name}.toml"))
}

fn vectors() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let dir = root().join("oracle/vectors");
    for rel in std::fs::read_dir(&dir).unwrap().flatten() {
        for f in std::fs::read_dir(rel.path()).unwrap().flatten() {
            let p = f.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".json") && name != "features.json" {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// docs/ORACLE.md's agreement table: (release, scenario, policy) → (status, reason).
/// (release, scenario, kubelet) → (status, reason).
type Rows = BTreeMap<(String, String, String), (String, String)>;

fn table() -> (String, Rows) {
    let doc = std::fs::read_to_string(root().join("docs/ORACLE.md")).unwrap_or_default();
    let mut rows = BTreeMap::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() == 5 && cells[0].starts_with("v1.") {
            rows.insert(
                (
                    cells[0].into(),
                    cells[1].trim_matches('`').into(),
                    cells[2].into(),
                ),
                (cells[3].into(), cells[4].into()),
            );
        }
    }
    (doc, rows)
}

const BEGIN: &str =
    "<!-- agreement table: crates/sim/tests/oracle.rs writes it (ORACLE_BLESS=1) -->";
const END: &str = "<!-- end of the agreement table -->";

#[test]
fn model_agrees_with_the_kubelet_code_or_the_difference_is_listed() {
    let outcomes: Vec<Outcome> = vectors().iter().map(|p| compare(p)).collect();
    assert!(
        !outcomes.is_empty(),
        "no vectors under oracle/vectors: run `make oracle`"
    );
    let (doc, rows) = table();
    let mut problems = Vec::new();
    let mut new_rows = Vec::new();
    for o in &outcomes {
        let key = (o.release.clone(), o.scenario.clone(), o.policy.clone());
        let listed = rows.get(&key);
        let (status, reason) = match &o.result {
            Ok(None) => ("agree".to_string(), String::new()),
            Ok(Some(diff)) => {
                let reason = listed
                    .filter(|(s, _)| s == "differs")
                    .map(|(_, r)| r.clone())
                    .unwrap_or_else(|| "(explain)".into());
                if reason == "(explain)" || reason.is_empty() {
                    problems.push(format!(
                        "{} {} {}: the model and the kubelet code differ, and docs/ORACLE.md does not say why:\n{diff}",
                        o.release, o.scenario, o.policy
                    ));
                }
                ("differs".to_string(), reason)
            }
            Err(why) => (
                "not run".to_string(),
                format!("the harness does not drive {why}"),
            ),
        };
        if status == "agree" && listed.is_some_and(|(s, _)| s == "differs") {
            problems.push(format!(
                "{} {} {}: docs/ORACLE.md says the runs differ, but they agree now",
                o.release, o.scenario, o.policy
            ));
        }
        if listed.map(|(s, _)| s.as_str()) != Some(status.as_str()) && status != "differs" {
            problems.push(format!(
                "{} {} {}: docs/ORACLE.md's row is missing or stale (now: {status})",
                o.release, o.scenario, o.policy
            ));
        }
        new_rows.push(format!(
            "| {} | `{}` | {} | {} | {} |",
            o.release, o.scenario, o.policy, status, reason
        ));
    }
    // Per release: how many runs agree, differ, or were not run.
    let mut per: BTreeMap<&str, [u32; 3]> = BTreeMap::new();
    for o in &outcomes {
        let i = match &o.result {
            Ok(None) => 0,
            Ok(Some(_)) => 1,
            Err(_) => 2,
        };
        per.entry(o.release.as_str()).or_default()[i] += 1;
    }
    let summary = format!(
        "| release | agree | differ (explained) | not run |\n|---|---:|---:|---:|\n{}",
        (per.iter())
            .map(|(r, [a, d, n])| format!("| {r} | {a} | {d} | {n} |"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let bless = std::env::var_os("ORACLE_BLESS").is_some();
    if !bless && !doc.contains(&summary) {
        problems.push(format!(
            "docs/ORACLE.md's summary is stale; it reads now:\n{summary}"
        ));
    }
    if bless {
        let header =
            "| release | scenario | kubelet | status | why they differ |\n|---|---|---|---|---|";
        let body = format!(
            "{BEGIN}\n{summary}\n\n{header}\n{}\n{END}",
            new_rows.join("\n")
        );
        let doc = match (doc.find(BEGIN), doc.find(END)) {
            (Some(a), Some(b)) => format!("{}{}{}", &doc[..a], body, &doc[b + END.len()..]),
            _ => format!("{doc}\n{body}\n"),
        };
        std::fs::write(root().join("docs/ORACLE.md"), doc).unwrap();
        return;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn model_versions_of_the_vectors() {
    assert_eq!(model_version("v1.37.2"), "1.37.2");
    assert_eq!(model_version("v1.38.0-beta.0"), "1.38");
}

#[test]
#[ignore]
fn dump_model_events() {
    let name = std::env::var("DUMP").unwrap();
    let (scenario, rel) = name.split_once('@').unwrap();
    let file = scenario_file(scenario);
    let mut sc: Scenario = toml::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    sc.cluster.version = serde_json::from_value(Json::String(rel.into())).unwrap();
    let pol = match std::env::var("POLICY").as_deref() {
        Ok("legacy") => Policy::Legacy,
        _ => Policy::Kep,
    };
    let t = simulate_policy(&sc, pol).unwrap();
    for e in &t.events {
        println!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?}",
            e.t, e.kind, e.pod, e.container, e.value, e.rule, e.by
        );
    }
}

/// The harness takes the model's timing draws (`oracle/internal/draw`, a Go port of
/// `core/rng.rs`); its Go test holds these values, printed here with `--ignored --nocapture`.
#[test]
#[ignore]
fn print_draws_for_the_go_port() {
    use restartscope_sim::core::rng::{draw, Purpose};
    for (seed, p, node, key) in [
        (1u64, Purpose::Lease, 0u16, [0u64, 0, 0]),
        (7, Purpose::WorkerJitter, 0, [1 << 32, 2, 1]),
        (42, Purpose::LeaseJitter, 3, [(-86_400_000i64) as u64, 5, 0]),
    ] {
        println!(
            "{seed} {} {node} {key:?} {:?}",
            p as u64,
            draw(seed, p, node, key)
        );
    }
}
