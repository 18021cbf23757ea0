//! Fleet results preserved byte for byte (work on memory layout and speed must not change a
//! number): a
//! set of fleets — sizes, zones, evictions, master disruption, a readiness-driven rollout,
//! several releases and pod templates from the presets (startup probes, truth changes,
//! sidecars, crashes) — each run with `fleet::compare`, and the whole of every `FleetRun`
//! (totals, series, heatmap, the sampled nodes' full traces) hashed (FNV-1a 64 of its `Debug`
//! text) and compared with `tests/fleet_digests.txt`. A deliberate change of behaviour updates
//! the file in the same commit; `RESTARTSCOPE_BLESS=1` rewrites it.

use restartscope_sim::fleet::{self, Fleet};
use restartscope_sim::{presets, KubeVersion, Policy};

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// A fleet from the preset with the given template pod (the preset's pod with the most truth
/// changes, then containers, then startup probes; its truth kept).
fn with_template(preset: &str) -> Fleet {
    let mut f = fleet::rolling_upgrade();
    let sc = (presets::find(preset).expect("preset").build)();
    let weight = |p: &restartscope_sim::Pod| {
        let truth: usize = p.all_containers().map(|c| c.truth.len()).sum();
        let startup = p
            .all_containers()
            .filter(|c| c.startup_probe.is_some())
            .count();
        (truth, p.n_containers(), startup)
    };
    let pod = sc.pods.iter().max_by_key(|p| weight(p)).expect("a pod");
    let mut t = pod.clone();
    t.name = "web".into();
    t.services = vec![];
    f.template = t;
    f
}

fn cases() -> Vec<(String, Fleet, Option<Policy>)> {
    let base = fleet::rolling_upgrade;
    let mut out: Vec<(String, Fleet, Option<Policy>)> = Vec::new();
    let mut add = |name: &str, f: Fleet, p: Option<Policy>| out.push((name.into(), f, p));
    add("preset", base(), None);
    let mut f = base();
    f.nodes = 400;
    f.rolling.batch = 20;
    add("400 nodes batch 20", f, None);
    let mut f = base();
    f.nodes = 120;
    f.zones = 1;
    f.rolling.batch = 30;
    f.rolling.downtime_s = 400.0;
    add("one zone, evictions (N2, N4 off)", f, None);
    let mut f = base();
    f.nodes = 60;
    f.zones = 2;
    f.rolling.batch = 60;
    f.rolling.downtime_s = 480.0;
    add("every zone down (N4)", f, None);
    let mut f = base();
    f.nodes = 90;
    f.rolling.batch = 15;
    f.rolling.wait_ready = true;
    add("wait ready", f, None);
    let mut f = base();
    f.nodes = 40;
    f.pods_per_node = 110;
    f.services = 7;
    f.sample_nodes = 5;
    add("110 pods per node", f, None);
    for (v, p) in [
        ("1.31", Some(Policy::Legacy)),
        ("1.35.4", None),
        ("main", Some(Policy::Kep)),
    ] {
        let mut f = base();
        f.nodes = 50;
        f.cluster.version = KubeVersion::parse(v).unwrap();
        f.seed = 7;
        add(&format!("version {v}"), f, p);
    }
    for preset in [
        "startup-probe",
        "unhealthy-during-downtime",
        "crash-during-downtime",
        "report-136910-sidecar-startup",
        "not-ready-before-restart",
    ] {
        let mut f = with_template(preset);
        f.nodes = 30;
        f.pods_per_node = 4;
        f.services = 2;
        f.rolling.batch = 5;
        f.rolling.downtime_s = 70.0;
        add(&format!("template {preset}"), f, None);
    }
    out
}

/// The run as the digests were recorded: every field but `restarted_nodes`, added later (its
/// own tests are in `fleet.rs`), which `Debug` prints last; each pod's Services as the single
/// `service` the digests were recorded with (`services: ["svc-0"]` → `service: Some("svc-0")`,
/// `services: []` → `service: None`; a fleet pod is behind at most one Service).
fn recorded_fields(r: &fleet::FleetRun) -> String {
    let s = format!("{r:?}");
    let cut = s
        .rfind(", restarted_nodes: ")
        .expect("the field is printed");
    let mut out = String::with_capacity(cut + 2);
    let mut rest = &s[..cut];
    while let Some(i) = rest.find("services: [") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "services: [".len()..];
        let end = after.find(']').expect("a closed list");
        let list = &after[..end];
        assert!(!list.contains(','), "one Service per fleet pod");
        if list.is_empty() {
            out.push_str("service: None");
        } else {
            out.push_str(&format!("service: Some({list})"));
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    format!("{out} }}")
}

#[test]
fn fleets_match_the_recorded_digests() {
    let got: String = cases()
        .into_iter()
        .map(|(name, f, policy)| {
            let runs = fleet::compare(&f, policy).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            let digests: Vec<String> = runs
                .iter()
                .map(|r| format!("{:016x}", fnv(recorded_fields(r).as_bytes())))
                .collect();
            format!("{name}: {}\n", digests.join(" "))
        })
        .collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fleet_digests.txt");
    if std::env::var("RESTARTSCOPE_BLESS").is_ok() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/fleet_digests.txt");
    assert_eq!(want, got, "fleet results differ from the recorded ones");
}
