//! A pod's owner (`Pod::owner`): the workload it groups pods by (`workload_name`, what the
//! CLI's `--probe W/C` and the app's probe table use) and the names `with_pods` gives copies,
//! as the owner's controller names the pods it creates; its validation; scenario files with
//! and without it.

use restartscope_sim::*;
use std::collections::BTreeSet;

/// `generateName`'s 5 characters (`k8s.io/apimachinery/pkg/util/rand`).
const ALPHANUMS: &str = "bcdfghjklmnpqrstvwxz2456789";

fn random5(s: &str) -> bool {
    s.len() == 5 && s.chars().all(|c| ALPHANUMS.contains(c))
}

fn names(sc: &Scenario) -> Vec<&str> {
    sc.pods.iter().map(|p| p.name.as_str()).collect()
}

/// short-restart's pod as `n` pods of `owner`, named as its controller names them.
fn owned(owner: &Owner, n: usize) -> Scenario {
    let mut sc = (presets::find("short-restart").unwrap().build)().with_pods(n);
    let mut used = Vec::new();
    for (p, name) in sc.pods.iter_mut().zip(owner.pod_names(0, n, &mut used)) {
        p.name = name;
        p.owner = Some(owner.to_string());
        if owner.kind == OwnerKind::DaemonSet {
            p.workload = Workload::DaemonSet;
        }
    }
    sc
}

#[test]
fn a_deployments_copies_are_more_pods_of_its_replicaset() {
    let keda = Owner::new(OwnerKind::Deployment, "keda-operator");
    let sc = owned(&keda, 2);
    // `<deployment>-<pod-template-hash>-<5 characters>`, the hash in `rand.SafeEncodeString`'s
    // characters for digits.
    let hash = keda.pod_template_hash();
    assert_eq!(hash.len(), 6);
    assert!(hash.chars().all(|c| "456789bcdf".contains(c)), "{hash}");
    for n in names(&sc) {
        let rest = n.strip_prefix(&format!("keda-operator-{hash}-")).unwrap();
        assert!(random5(rest), "{n}");
    }
    assert_eq!(sc.workload_names(), ["keda-operator"]);
    assert!(sc.validate().is_ok());
    // More pods: the ReplicaSet's next ones, the same as if there had been 4 from the start.
    let more = sc.clone().with_pods(4);
    assert_eq!(names(&more), names(&owned(&keda, 4)));
    let distinct: BTreeSet<&str> = names(&more).into_iter().collect();
    assert_eq!(distinct.len(), 4);
    assert!(more.pods[3]
        .name
        .starts_with(&format!("keda-operator-{hash}-")));
    assert_eq!(more.pods[3].owned_by(), Some(keda.clone()));
    assert_eq!(more.workload_names(), ["keda-operator"]);
    assert!(more.validate().is_ok());
    // Fewer: the first.
    assert_eq!(names(&more.clone().with_pods(1)), names(&sc)[..1]);
    // A probe edit of the workload reaches every pod, copies included.
    let edit = ProbeEdit {
        workload: Some("keda-operator".into()),
        container: "app".into(),
        kind: ProbeKind::Readiness,
        change: ProbeChange::Set(ProbeOverrides {
            period_s: Some(7),
            ..ProbeOverrides::default()
        }),
    };
    let edited = more.with_probe(&edit).unwrap();
    assert!(edited
        .pods
        .iter()
        .all(|p| p.containers[0].readiness_probe.as_ref().unwrap().period_s == 7));
}

#[test]
fn other_controllers_name_their_pods_their_own_way() {
    // A StatefulSet's: the lowest ordinals not in use.
    let db = Owner::new(OwnerKind::StatefulSet, "db");
    let sc = owned(&db, 2);
    assert_eq!(names(&sc), ["db-0", "db-1"]);
    assert_eq!(names(&sc.with_pods(4)), ["db-0", "db-1", "db-2", "db-3"]);
    let mut gap = owned(&db, 2);
    gap.pods[1].name = "db-2".into();
    assert_eq!(names(&gap.with_pods(3)), ["db-0", "db-2", "db-1"]);
    // A DaemonSet's, a Job's, a ReplicaSet's: `<name>-<5 characters>`.
    for kind in [OwnerKind::DaemonSet, OwnerKind::Job, OwnerKind::ReplicaSet] {
        let o = Owner::new(kind, "x");
        let sc = owned(&o, 1).with_pods(3);
        for n in names(&sc) {
            assert!(random5(n.strip_prefix("x-").unwrap()), "{kind}: {n}");
        }
        assert_eq!(sc.workload_names(), ["x"]);
        assert!(sc.validate().is_ok(), "{kind}");
    }
    // A CronJob's: its Job's, named by a scheduled minute (8 digits now).
    let sc = owned(&Owner::new(OwnerKind::CronJob, "report"), 2);
    let (minute, rest) = sc.pods[1].name["report-".len()..].split_once('-').unwrap();
    assert!(minute.len() == 8 && minute.bytes().all(|b| b.is_ascii_digit()));
    assert!(random5(rest));
    // `generateName` cut to 58 characters, as the API server cuts it: at most 63 with the 5.
    let long = "a".repeat(60);
    for n in names(&owned(&Owner::new(OwnerKind::Deployment, &long), 2)) {
        assert_eq!(n.len(), 63, "{n}");
    }
}

#[test]
fn a_generated_name_in_use_is_drawn_again_and_the_same_input_gives_the_same_names() {
    let web = Owner::new(OwnerKind::Deployment, "web");
    let first = web.pod_names(0, 3, &mut Vec::new());
    assert_eq!(first, web.pod_names(0, 3, &mut Vec::new()));
    // Another Deployment's hash differs.
    let api = Owner::new(OwnerKind::Deployment, "api").pod_template_hash();
    assert_ne!(api, web.pod_template_hash());
    let mut used = vec![first[0].clone()];
    let again = web.pod_names(0, 1, &mut used);
    assert_ne!(again[0], first[0]);
    assert!(again[0].starts_with(&format!("web-{}-", web.pod_template_hash())));
    assert!(used.contains(&again[0]));
}

#[test]
fn without_an_owner_the_name_says_the_workload_as_before() {
    let mut sc = (presets::find("short-restart").unwrap().build)().with_pods(3);
    assert_eq!(names(&sc), ["web-0", "web-1", "web-2"]);
    assert_eq!(sc.workload_names(), ["web"]);
    // A pod with an owner is grouped by it, whatever its name.
    sc.pods[2].name = "cache-0".into();
    sc.pods[2].owner = Some("StatefulSet/redis".into());
    assert_eq!(sc.workload_names(), ["web", "redis"]);
    assert_eq!(sc.pods[2].workload_name(), "redis");
}

#[test]
fn owners_are_validated_in_kubernetes_names() {
    let mut sc = owned(&Owner::new(OwnerKind::Deployment, "web"), 1);
    sc.pods[0].owner = Some("Deployment/Web".into());
    let e = sc.validate().unwrap_err();
    assert_eq!(e[0].field, "pods[0].owner");
    assert!(
        e[0].message.starts_with(
            "metadata.name of the pod's owner, Deployment \"Web\", must be a lowercase RFC 1123 subdomain"
        ),
        "{}",
        e[0].message
    );
    // A DaemonSet's pods tolerate the unreachable taint forever (`workload = "daemonset"`), and
    // only theirs.
    let mut sc = owned(&Owner::new(OwnerKind::DaemonSet, "ds"), 1);
    sc.pods[0].workload = Workload::Deployment;
    let e = sc.validate().unwrap_err();
    assert_eq!(e[0].field, "pods[0].workload");
    assert!(
        e[0].message.starts_with(
            "pods[0].workload must be \"daemonset\" for a pod of DaemonSet/ds, got \"deployment\""
        ),
        "{}",
        e[0].message
    );
    let mut sc = owned(&Owner::new(OwnerKind::Deployment, "web"), 1);
    sc.pods[0].workload = Workload::DaemonSet;
    assert_eq!(sc.validate().unwrap_err()[0].field, "pods[0].workload");
}

#[test]
fn scenario_files_read_and_write_the_owner_only_when_a_pod_has_one() {
    let plain = (presets::find("short-restart").unwrap().build)();
    assert!(!toml::to_string(&plain).unwrap().contains("owner"));
    assert!(!plain.to_json(false).contains("owner"));
    let sc = owned(&Owner::new(OwnerKind::Deployment, "web"), 2);
    let json = sc.to_json(false);
    assert!(json.contains(r#""owner":"Deployment/web""#), "{json}");
    assert_eq!(Scenario::from_json(&json).unwrap(), sc);
    let text = toml::to_string(&sc).unwrap();
    assert!(text.contains("\nowner = \"Deployment/web\"\n"), "{text}");
    assert_eq!(toml::from_str::<Scenario>(&text).unwrap(), sc);
    // A kind whose controller creates no pods, or no name, is refused by validation.
    for bad in ["Pod/web", "Deployment/", "web"] {
        let sc = Scenario::from_json(&json.replace("Deployment/web", bad)).unwrap();
        let e = sc.validate().unwrap_err();
        assert_eq!(e[0].field, "pods[0].owner");
        assert_eq!(
            e[0].message,
            format!("pods[0].owner must be KIND/NAME, the pod's workload (\"Deployment/web\"), KIND one of Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job, CronJob; got {bad:?}")
        );
        // Grouped by the text after the `/`, as far as it goes.
        assert_eq!(sc.pods[0].workload_name(), bad.rsplit('/').next().unwrap());
    }
    let kinds: Vec<&str> = OwnerKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(OWNER_KINDS, kinds.join(", "));
}

/// A fleet names every node's pods its own way (`web-0`, …, `ds`): a template taken from an
/// import keeps its spec, not its owner, so the DaemonSet pod is not the Deployment's.
#[test]
fn a_fleets_pods_do_not_keep_the_templates_owner() {
    let mut f = fleet::rolling_upgrade();
    f.template.owner = Some("Deployment/web".into());
    assert!(f.validate().is_ok());
    let pods = f.node_pods();
    assert!(pods.iter().all(|p| p.owner.is_none()));
    assert_eq!(pods.last().unwrap().name, "ds");
}
