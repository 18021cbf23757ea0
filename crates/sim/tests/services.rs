//! A pod behind every Service that selects it, and a PodDisruptionBudget over the pods its own
//! selector matches: the EndpointSlice controller keeps each Service's slices
//! (`pkg/controller/endpointslice` `syncService`), so a pod's endpoint change updates a slice of
//! each of its Services; the disruption controller lists the budget's pods by its selector
//! (`pkg/controller/disruption` `getPodsForPdb`). Scenario files, JSON and links that name one
//! Service (`service = "web"`) or a budget's Service (`pdb.service`) read as before.

mod common;
use common::*;
use restartscope_sim::disruption::Budget;
use restartscope_sim::*;

fn two_services() -> Scenario {
    let mut sc = canonical(60.0, 3);
    sc.pods[0].services = vec!["web".into(), "web-headless".into()];
    sc
}

#[test]
fn a_pod_behind_two_services_updates_the_slices_of_both() {
    let one = run(&canonical(60.0, 3));
    let two = run(&two_services());
    for (a, b) in one.iter().zip(&two) {
        // The same endpoint changes (one state per pod: podToEndpoint reads only the pod)…
        assert_eq!(count(a, Kind::Endpoint), count(b, Kind::Endpoint));
        assert!(count(a, Kind::Endpoint) > 0, "{:?}", a.policy);
        // …each an update of both Services' slices.
        assert_eq!(
            b.metrics.endpointslice_updates,
            2 * a.metrics.endpointslice_updates,
            "{:?}",
            a.policy
        );
        let named = |svc: &str| {
            events(b, Kind::EndpointsliceUpdate)
                .iter()
                .filter(|e| e.value == Value::Service(svc.into()))
                .count()
        };
        assert_eq!(named("web"), named("web-headless"));
        assert_eq!(named("web"), count(a, Kind::EndpointsliceUpdate));
        assert_eq!(b.pods[0].services, ["web", "web-headless"]);
    }
}

const OLD_TOML: &str = r#"
name = "old"
horizon_s = 200.0
[kubelet]
restarts = [{ at_s = 100.0, downtime_s = 20.0 }]
[[pods]]
name = "web-0"
service = "web"
[[pods.containers]]
name = "app"
readiness_probe = {}
[pdb]
service = "web"
min_available = 1
"#;

#[test]
fn one_service_reads_and_writes_as_before() {
    let sc: Scenario = toml::from_str(OLD_TOML).unwrap();
    assert_eq!(sc.pods[0].services, ["web"]);
    sc.validate().unwrap();
    // Written back as one name, under the same key.
    let json = sc.to_json(false);
    assert!(json.contains(r#""service":"web""#), "{json}");
    assert!(!json.contains("services"), "{json}");
    assert_eq!(Scenario::from_json(&json).unwrap(), sc);
    assert!(toml::to_string(&sc).unwrap().contains("service = \"web\""));
    // A link's JSON from before: `"service": "web"`.
    let old_json = json.replace(r#""service":"web""#, r#""service": "web""#);
    assert_eq!(Scenario::from_json(&old_json).unwrap(), sc);
    // The budget covers the Service's pods.
    assert_eq!(sc.pdb_pods(), [0]);
    assert_eq!(Budget::of(&sc).unwrap().service.as_deref(), Some("web"));
}

#[test]
fn several_services_read_as_a_list_under_either_key() {
    let list = OLD_TOML.replace(
        "service = \"web\"\n[[pods.containers]]",
        "service = [\"web\", \"web-headless\"]\n[[pods.containers]]",
    );
    let plural = OLD_TOML.replace(
        "service = \"web\"\n[[pods.containers]]",
        "services = [\"web\", \"web-headless\"]\n[[pods.containers]]",
    );
    let a: Scenario = toml::from_str(&list).unwrap();
    let b: Scenario = toml::from_str(&plural).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.pods[0].services, ["web", "web-headless"]);
    let json = a.to_json(false);
    assert!(
        json.contains(r#""service":["web","web-headless"]"#),
        "{json}"
    );
    assert_eq!(Scenario::from_json(&json).unwrap(), a);
    let t = toml::to_string(&a).unwrap();
    assert_eq!(toml::from_str::<Scenario>(&t).unwrap(), a);
    // A wrong type says what is expected.
    let bad = OLD_TOML.replace("service = \"web\"\n[[pods", "service = 3\n[[pods");
    let e = toml::from_str::<Scenario>(&bad).unwrap_err().to_string();
    assert!(
        e.contains("a Service name or a list of Service names"),
        "{e}"
    );
}

#[test]
fn a_budget_names_its_pods() {
    let mut sc = canonical(60.0, 3);
    let mut other = sc.pods[0].clone();
    other.name = "db-0".into();
    other.services = vec![];
    sc.pods.push(other);
    // A budget over the pod no Service selects: its selector, not a Service, picks it.
    sc.pdb = Some(Pdb {
        pods: vec!["db-0".into()],
        service: None,
        min_available: Some(IntOrPercent::Int(1)),
        max_unavailable: None,
    });
    sc.validate().unwrap();
    assert_eq!(sc.pdb_pods(), [1]);
    let b = Budget::of(&sc).unwrap();
    assert_eq!((b.pods.as_slice(), b.service), (&[1u16][..], None));
    // Round trip.
    assert_eq!(Scenario::from_json(&sc.to_json(true)).unwrap(), sc);
    // An unknown pod, or both ways of choosing, are refused.
    sc.pdb.as_mut().unwrap().pods = vec!["nope".into()];
    let e = sc.validate().unwrap_err();
    assert_eq!(e[0].field, "pdb.pods[0]");
    sc.pdb.as_mut().unwrap().pods = vec!["db-0".into()];
    sc.pdb.as_mut().unwrap().service = Some("web".into());
    assert_eq!(sc.validate().unwrap_err()[0].field, "pdb.service");
}

#[test]
fn not_ready_toleration_defaults_to_300_and_is_validated() {
    let sc: Scenario = toml::from_str(OLD_TOML).unwrap();
    assert_eq!(sc.cluster.not_ready_toleration_s, 300.0);
    assert!(!sc.to_json(false).contains("not_ready_toleration_s"));
    let mut bad = sc.clone();
    bad.cluster.not_ready_toleration_s = -1.0;
    let e = bad.validate().unwrap_err();
    assert_eq!(e[0].k8s, "--default-not-ready-toleration-seconds");
    let mut set = sc;
    set.cluster.not_ready_toleration_s = 60.0;
    assert_eq!(Scenario::from_json(&set.to_json(false)).unwrap(), set);
}
