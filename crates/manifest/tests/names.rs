//! The imported pods' names, as each workload's controller names the pods it creates
//! (`Owner::pod_names`): a Deployment's its ReplicaSet's, `<deployment>-<pod-template-hash>-<5>`,
//! not a StatefulSet's ordinals; the owner each pod gets, which groups them into workloads for
//! the CLI's `--probe W/C`, the app's probe table and `--pods`' copies.

use restartscope_manifest::{import, import_str, Import, ImportOptions, Source};
use restartscope_sim::{
    Overrides, Owner, OwnerKind, ProbeChange, ProbeEdit, ProbeKind, ProbeOverrides,
};
use std::collections::BTreeSet;

/// `generateName`'s 5 characters (`k8s.io/apimachinery/pkg/util/rand`).
const ALPHANUMS: &str = "bcdfghjklmnpqrstvwxz2456789";

fn random5(s: &str) -> bool {
    s.len() == 5 && s.chars().all(|c| ALPHANUMS.contains(c))
}

/// Files of tests/data (`real/…` for the manifests quoted from public projects).
fn load(names: &[&str]) -> Import {
    let texts: Vec<(String, String)> = names
        .iter()
        .map(|n| {
            let path = format!("{}/tests/data/{n}", env!("CARGO_MANIFEST_DIR"));
            (n.to_string(), std::fs::read_to_string(path).unwrap())
        })
        .collect();
    let sources: Vec<Source> = texts
        .iter()
        .map(|(n, t)| Source { name: n, text: t })
        .collect();
    import(&sources, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn names(im: &Import) -> Vec<String> {
    im.scenario.pods.iter().map(|p| p.name.clone()).collect()
}

/// Each of `pods` is `<prefix><5 characters>`, and none is another.
fn generated(pods: &[String], prefix: &str) {
    for n in pods {
        let rest = n.strip_prefix(prefix).unwrap_or_else(|| panic!("{n}"));
        assert!(random5(rest), "{n}");
    }
    let distinct: BTreeSet<&String> = pods.iter().collect();
    assert_eq!(distinct.len(), pods.len(), "{pods:?}");
}

#[test]
fn a_real_deployments_pods_are_its_replicasets() {
    // microservices-demo's frontend (3 replicas), istio's injected hello (7).
    for (file, deployment, n) in [
        ("real/microservices-demo-frontend.yaml", "frontend", 3),
        ("real/istio-injected-hello.yaml", "hello", 7),
    ] {
        let im = load(&[file]);
        let owner = Owner::new(OwnerKind::Deployment, deployment);
        let pods = names(&im);
        assert_eq!(pods.len(), n);
        // One ReplicaSet, `<deployment>-<pod-template-hash>`: 6 of `rand.SafeEncodeString`'s
        // characters for digits.
        let hash = owner.pod_template_hash();
        assert_eq!(hash.len(), 6);
        assert!(hash.chars().all(|c| "456789bcdf".contains(c)), "{hash}");
        generated(&pods, &format!("{deployment}-{hash}-"));
        assert!(im
            .scenario
            .pods
            .iter()
            .all(|p| p.owned_by() == Some(owner.clone())));
        // Grouped under the Deployment's name, whatever the pods' names.
        assert_eq!(im.scenario.workload_names(), [deployment]);
        // The same at every import.
        assert_eq!(names(&load(&[file])), pods, "{file}");
    }
    let im = load(&["real/microservices-demo-frontend.yaml"]);
    assert_eq!(
        names(&im),
        [
            "frontend-cc4c85-mprmp",
            "frontend-cc4c85-zt5n7",
            "frontend-cc4c85-gqn9l"
        ]
    );
}

#[test]
fn probe_edits_and_more_pods_find_an_imports_workloads_by_their_owners() {
    let im = load(&[
        "real/microservices-demo-frontend.yaml",
        "statefulset.yaml",
        "daemonset.yaml",
    ]);
    let sc = im.scenario;
    assert_eq!(sc.workload_names(), ["frontend", "db", "node-exporter"]);
    // A StatefulSet's pods keep their ordinals; a DaemonSet's are `<name>-<5 characters>`.
    assert_eq!(
        (sc.pods[3].name.as_str(), sc.pods[4].name.as_str()),
        ("db-0", "db-1")
    );
    generated(&[sc.pods[5].name.clone()], "node-exporter-");
    let period =
        |p: &restartscope_sim::Pod| p.containers[0].readiness_probe.as_ref().unwrap().period_s;
    // `--probe frontend/server.readinessProbe.periodSeconds=5 --pods 8`.
    let o = Overrides {
        pods: Some(8),
        probes: vec![ProbeEdit {
            workload: Some("frontend".into()),
            container: "server".into(),
            kind: ProbeKind::Readiness,
            change: ProbeChange::Set(ProbeOverrides {
                period_s: Some(5),
                ..ProbeOverrides::default()
            }),
        }],
        ..Overrides::default()
    };
    let out = o.apply(sc.clone()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(out.pods.len(), 8);
    assert_eq!(out.workload_names(), ["frontend", "db", "node-exporter"]);
    // The copies are more of the frontend's ReplicaSet's pods, and the edit reached them.
    let frontend: Vec<usize> = (0..8)
        .filter(|&i| out.pods[i].workload_name() == "frontend")
        .collect();
    assert_eq!(frontend, [0, 1, 2, 6, 7]);
    let hash = Owner::new(OwnerKind::Deployment, "frontend").pod_template_hash();
    let pods: Vec<String> = frontend.iter().map(|&i| out.pods[i].name.clone()).collect();
    generated(&pods, &format!("frontend-{hash}-"));
    assert!(frontend.iter().all(|&i| period(&out.pods[i]) == 5));
    assert_eq!(period(&out.pods[3]), period(&sc.pods[3]));
    // The same copies at every run.
    assert_eq!(o.apply(sc).unwrap().pods, out.pods);
}

#[test]
fn every_kind_is_named_as_its_controller_names_its_pods() {
    let template = "template: {metadata: {labels: {app: x}}, spec: {restartPolicy: OnFailure, containers: [{name: c, image: x}]}}";
    let long = "a".repeat(60);
    let text = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec: {{containers: [{{name: c, image: x}}]}}
---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec: {{replicas: 2, {template}}}
---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec: {{replicas: 3, {template}}}
---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: ds}}\nspec: {{{template}}}
---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: rs}}\nspec: {{replicas: 2, {template}}}
---\napiVersion: v1\nkind: ReplicationController\nmetadata: {{name: rc}}\nspec: {{replicas: 2, {template}}}
---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: job}}\nspec: {{parallelism: 2, {template}}}
---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: cj}}\nspec: {{schedule: '@hourly', jobTemplate: {{spec: {{{template}}}}}}}
---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {long}}}\nspec: {{replicas: 2, {template}}}
"
    );
    let im = import_str(&text, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let all = names(&im);
    let of = |w: &str| -> Vec<String> {
        let w = im.workloads.iter().find(|i| i.name == w).unwrap();
        all[w.first_pod..w.first_pod + w.pods].to_vec()
    };
    // A Pod by its own name, without an owner; a StatefulSet's pods by ordinal.
    assert_eq!(of("p"), ["p"]);
    assert_eq!(im.scenario.pods[0].owner, None);
    assert_eq!(of("db"), ["db-0", "db-1"]);
    let hash = Owner::new(OwnerKind::Deployment, "web").pod_template_hash();
    generated(&of("web"), &format!("web-{hash}-"));
    // A DaemonSet's, ReplicaSet's, ReplicationController's, Job's: `<name>-<5 characters>`.
    for w in ["ds", "rs", "rc", "job"] {
        generated(&of(w), &format!("{w}-"));
    }
    // A CronJob's: its Job's, named by a scheduled minute since 1970 (8 digits now).
    let cj = &of("cj")[0];
    let (minute, rest) = cj.strip_prefix("cj-").unwrap().split_once('-').unwrap();
    assert!(
        minute.len() == 8 && minute.bytes().all(|b| b.is_ascii_digit()),
        "{cj}"
    );
    assert!(random5(rest), "{cj}");
    // `generateName` cut to 58 characters: at most 63 with the 5.
    for n in of(&long) {
        assert_eq!(n.len(), 63, "{n}");
    }
    // Every pod's owner is its workload, by kind and name.
    for w in &im.workloads {
        for p in &im.scenario.pods[w.first_pod..w.first_pod + w.pods] {
            let want = OwnerKind::from_kind(&w.kind).map(|k| Owner::new(k, &w.name));
            assert_eq!(p.owned_by(), want, "{}", p.name);
        }
    }
    assert_eq!(
        im.scenario.workload_names(),
        [
            "p",
            "db",
            "web",
            "ds",
            "rs",
            "rc",
            "job",
            "cj",
            long.as_str()
        ]
    );
    // Distinct; the same at every import, and the first of them with fewer pods on the node.
    let distinct: BTreeSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), all.len());
    assert_eq!(
        names(&import_str(&text, &ImportOptions::default()).unwrap()),
        all
    );
    let one = ImportOptions {
        replicas_on_node: Some(1),
    };
    let one = import_str(&text, &one).unwrap();
    assert_eq!(one.scenario.pods[2].name, of("web")[0]);
}

/// A generated name is never a bare Pod's: the API server draws again when the name exists.
#[test]
fn a_generated_name_is_never_a_bare_pods() {
    let web = Owner::new(OwnerKind::Deployment, "web");
    let taken = web.pod_names(0, 1, &mut Vec::new()).remove(0);
    let text = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {taken}}}\nspec: {{containers: [{{name: c, image: x}}]}}
---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec: {{replicas: 2, template: {{metadata: {{labels: {{app: x}}}}, spec: {{containers: [{{name: c, image: x}}]}}}}}}
"
    );
    let im = import_str(&text, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let all = names(&im);
    assert_eq!(all[0], taken);
    assert!(!all[1..].contains(&taken), "{all:?}");
    generated(&all[1..], &format!("web-{}-", web.pod_template_hash()));
}
