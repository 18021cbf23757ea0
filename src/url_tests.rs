//! Tests of `url.rs`: parsing, notices and the round trip of every setting.
use super::*;

#[test]
fn round_trip() {
    let mut st = UrlState {
        t_ms: Some(61_500),
        speed: Some(2),
        theme: Some(Theme::Dark),
        embed: true,
        zoom: true,
        ..UrlState::default()
    };
    st.settings = Settings::for_preset("long-restart");
    st.settings.downtime_s = 95.0;
    st.settings.grace_s = "40".into();
    st.settings.seed = "7".into();
    let q = to_query(&st);
    let (back, notes) = parse(&format!("?{q}"));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back, st);
}

#[test]
fn hostile_and_out_of_range_values_are_named_and_ignored() {
    let (st, notes) =
        parse("?preset=%3Cscript%3Ealert(1)%3C/script%3E&grace=9999&downtime=61m&bogus=1");
    assert_eq!(st.settings, Settings::default());
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(notes[0].contains("<script>alert(1)</script>"));
    assert!(notes
        .iter()
        .any(|n| n.starts_with("grace=\"9999\" ignored: seconds from 5 to 600")));
    assert!(notes
        .iter()
        .any(|n| n.starts_with("downtime=\"61m\" ignored")));
    assert!(notes
        .iter()
        .any(|n| n.contains("\"bogus\" is not a RestartScope parameter")));
}

#[test]
fn pods_and_probes_round_trip_in_kubernetes_names() {
    // short-restart: one container, app, with a readiness probe.
    let q = "preset=report-136910-sidecar-startup&pods=12&app.readinessProbe.periodSeconds=5\
             &app.livenessProbe=on&app.livenessProbe.failureThreshold=4\
             &sidecar.startupProbe.execSeconds=0.5&downtime=45m";
    let (st, notes) = parse(q);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(st.settings.pods, "12");
    assert_eq!(st.settings.downtime_s, 2700.0);
    let sc = st.settings.scenario().unwrap();
    assert_eq!(sc.pods.len(), 12);
    let app = &sc.pods[11].containers[0];
    assert_eq!(app.readiness_probe.as_ref().unwrap().period_s, 5);
    let live = app.liveness_probe.as_ref().unwrap();
    assert_eq!((live.period_s, live.failure_threshold), (10, 4));
    assert_eq!(
        sc.pods[5].init_containers[0]
            .startup_probe
            .as_ref()
            .unwrap()
            .exec_s,
        0.5
    );
    // Written back: only what differs from the preset, and read again to the same settings.
    let out = to_query(&st);
    assert!(out.contains("&pods=12&sidecar.startupProbe.execSeconds=0.5&app.readinessProbe.periodSeconds=5&app.livenessProbe=on&app.livenessProbe.failureThreshold=4"), "{out}");
    let (back, notes) = parse(&out);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back, st);
    // A removed probe, and the old readiness keys.
    let (st, notes) = parse("app.readinessProbe=off");
    assert!(notes.is_empty(), "{notes:?}");
    assert!(to_query(&st).contains("app.readinessProbe=off"));
    assert!(st.settings.scenario().unwrap().pods[0].containers[0]
        .readiness_probe
        .is_none());
    let (st, notes) = parse("period=5&failure=2&success=2&exec=0.5");
    assert!(notes.is_empty(), "{notes:?}");
    let p = st.settings.scenario().unwrap().pods[2].containers[0]
        .readiness_probe
        .clone()
        .unwrap();
    assert_eq!(
        (
            p.period_s,
            p.failure_threshold,
            p.success_threshold,
            p.exec_s
        ),
        (5, 2, 2, 0.5)
    );
    // Bad values: a short notice each, the default kept.
    let (st, notes) =
        parse("pods=111&app.readinessProbe.periodSeconds=0&db.livenessProbe=on&app.fooProbe=on");
    assert_eq!(st.settings, Settings::default());
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(notes[0].contains("pods=\"111\" ignored: a whole number from 1 to 110 (110 is the kubelet's default maxPods)"), "{notes:?}");
    assert!(
        notes[1].contains("periodSeconds=\"0\" ignored: a whole number from 1 to 2147483647"),
        "{notes:?}"
    );
    assert!(notes[2].contains("has no container \"db\""), "{notes:?}");
    assert!(
        notes[3].contains("is not a RestartScope parameter"),
        "{notes:?}"
    );
}

#[test]
fn every_release_is_a_link_parameter() {
    let (st, notes) = parse("?version=main");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(st.settings.version, "main");
    let (st, notes) = parse("?version=1.31");
    assert!(notes.is_empty());
    assert_eq!(
        (st.settings.version.as_str(), st.settings.grace_s.as_str()),
        ("1.31", "40")
    );
    let (_, notes) = parse("?version=2.0");
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].contains("1.35.4, 1.36, 1.37, 1.38 or main"),
        "{notes:?}"
    );
    // Every patch release is a link parameter (`kubectl get nodes` prints v1.36.4).
    let (st, notes) = parse("?version=1.35.9");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(st.settings.version, "1.35.9");
    let (st, _) = parse("?version=v1.36.4");
    assert_eq!(st.settings.version, "1.36.4");
    // The proposal lane travels in the link.
    let (st, notes) = parse("?version=1.38&csp=1");
    assert!(notes.is_empty() && st.settings.csp, "{notes:?}");
    assert!(to_query(&st).contains("csp=1"));
    let (_, notes) = parse("?csp=yes");
    assert_eq!(notes.len(), 1);
}

#[test]
fn durations_and_decoding() {
    let (st, notes) = parse("downtime=1m30s&at=45&t=12.5&speed=16&theme=light&present=1");
    assert!(notes.is_empty());
    assert_eq!(st.settings.downtime_s, 90.0);
    assert_eq!(st.settings.restart_at_s, 45.0);
    assert_eq!(st.t_ms, Some(12_500));
    assert_eq!(crate::state::SPEEDS[st.speed.unwrap()], 16.0);
    assert!(st.present && !st.embed);
    assert_eq!(decode("a%20b+c%2"), "a b c%2");
}

#[test]
fn the_presenter_views_windows_round_trip_and_a_bad_value_is_named() {
    let (st, notes) = parse("present=audience");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((st.present, st.role), (true, Some(Role::Audience)));
    assert_eq!(
        to_query(&st).split('&').next_back(),
        Some("present=audience")
    );
    let (st, _) = parse("present=notes&t=3");
    assert_eq!((st.present, st.role), (false, Some(Role::Notes)));
    assert_eq!(parse(&to_query(&st)).0, st);
    let (st, notes) = parse("present=projector");
    assert_eq!((st.present, st.role), (false, None));
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("present=\"projector\" ignored: 1 (presentation view), notes"));
}

#[test]
fn grace_toleration_and_sync_take_durations() {
    let (st, notes) = parse("grace=1m&toleration=5m&sync=2s");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(st.settings.grace_s, "1m");
    assert_eq!(st.settings.toleration_s, "5m");
    assert_eq!(st.settings.first_sync_s, "2s");
    let sc = st.settings.scenario().unwrap();
    assert_eq!(sc.cluster.grace_s(), 60.0);
    assert_eq!(sc.cluster.toleration_s, 300.0);
    assert_eq!(sc.kubelet.first_sync_delay_s, 2.0);
    let (back, _) = parse(&to_query(&st));
    assert_eq!(back.settings, st.settings);
    let (_, notes) = parse("grace=1m30s&toleration=1h");
    assert!(notes.is_empty(), "{notes:?}");
    let (_, notes) = parse("grace=1x");
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("or a duration like 5m"), "{notes:?}");
}

#[test]
fn several_restarts_travel_as_one_list_and_the_model_judges_them() {
    let (st, notes) = parse("?preset=short-restart&restarts=30:20,1m20s:15,150:40");
    assert!(notes.is_empty(), "{notes:?}");
    let list = st.settings.restarts();
    assert_eq!(list.len(), 3);
    assert_eq!((list[1].at_s, list[1].downtime_s), (80.0, 15.0));
    let sc = st.settings.scenario().unwrap();
    assert_eq!(sc.kubelet.restarts, list);
    assert!(sc.horizon_s >= 190.0 + 90.0, "{}", sc.horizon_s);
    let q = to_query(&st);
    assert!(
        q.contains("restarts=30%3A20%2C80%3A15%2C150%3A40")
            || q.contains("restarts=30:20,80:15,150:40"),
        "{q}"
    );
    assert!(!q.contains("downtime="), "{q}");
    assert_eq!(parse(&format!("?{q}")).0, st);
    // One restart keeps the old parameters.
    let (one, _) = parse("?restarts=10:5");
    assert!(to_query(&one).contains("downtime=5&at=10"));
    // Overlapping restarts are not simulated: the message names kubelet.restarts[1].
    let (bad, notes) = parse("?restarts=30:20,40:10");
    assert!(notes.is_empty(), "{notes:?}");
    let errs = bad.settings.scenario().unwrap_err();
    assert!(
        errs.iter().any(|(f, m)| *f == Field::Restarts
            && m.contains(
                "kubelet.restarts[1].at_s must not be before the previous kubelet restart ends"
            )),
        "{errs:?}"
    );
    // Not AT:DOWNTIME: one notice, the preset's restart.
    let (st, notes) = parse("?restarts=30");
    assert_eq!(st.settings.restarts().len(), 1);
    assert!(notes[0].starts_with("restarts=\"30\" ignored"), "{notes:?}");
}

#[test]
fn restart_kinds_and_upgrades_round_trip_and_old_links_read_as_before() {
    use restartscope_sim::{KubeVersion, RestartKind};
    let v136 = KubeVersion::parse("1.36").unwrap();
    // A runtime restart after a kubelet restart that upgrades the kubelet.
    let (st, notes) =
        parse("?preset=short-restart&version=1.35&restarts=30:20:kubelet:1.36,2m:90s:runtime");
    assert!(notes.is_empty(), "{notes:?}");
    let list = st.settings.restarts();
    assert_eq!(
        (list[0].what, list[0].upgrade_to),
        (RestartKind::Kubelet, Some(v136))
    );
    assert_eq!((list[1].what, list[1].at_s), (RestartKind::Runtime, 120.0));
    let sc = st.settings.scenario().unwrap();
    assert_eq!(sc.kubelet.restarts, list);
    let q = to_query(&st);
    assert!(
        q.contains("restarts=30%3A20%3Akubelet%3A1.36%2C120%3A90%3Aruntime"),
        "{q}"
    );
    assert_eq!(parse(&format!("?{q}")).0, st);
    // One restart of another kind goes in restarts= (downtime= and at= hold a kubelet's).
    let mut one = Settings::for_preset("short-restart");
    one.restart_what = RestartKind::Node;
    let st1 = UrlState {
        settings: one.clone(),
        ..UrlState::default()
    };
    let q = to_query(&st1);
    assert!(!q.contains("downtime="), "{q}");
    let back = parse(&format!("?{q}")).0.settings;
    assert_eq!(back, one);
    assert_eq!(
        back.scenario().unwrap().kubelet.restarts[0].what,
        RestartKind::Node
    );
    // Old links: no kind is a kubelet restart, written back as before.
    for old in [
        "?preset=short-restart&downtime=20&at=30",
        "?preset=short-restart&restarts=30:20,80:15",
    ] {
        let (st, notes) = parse(old);
        assert!(notes.is_empty(), "{notes:?}");
        assert!(st
            .settings
            .restarts()
            .iter()
            .all(|r| r.what == RestartKind::Kubelet && r.upgrade_to.is_none()));
        assert!(!to_query(&st).contains("kubelet"), "{}", to_query(&st));
    }
    // A bad kind or release: one notice naming what is accepted, the preset's restart.
    for bad in ["30:20:reboot", "30:20:node:1.29"] {
        let (st, notes) = parse(&format!("?restarts={bad}"));
        assert_eq!(st.settings, Settings::default());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("kubelet|runtime|node"), "{notes:?}");
    }
}

#[test]
fn the_model_refuses_an_overlap_with_a_node_reboot_next_to_the_kind() {
    use restartscope_sim::RestartKind;
    let (st, _) = parse("?preset=short-restart&restarts=30:60:node,50:10:runtime");
    assert_eq!(st.settings.restarts()[0].what, RestartKind::Node);
    let errs = st.settings.scenario().unwrap_err();
    assert!(
        errs.iter().any(|(f, m)| *f == Field::Restarts
            && m.contains("kubelet.restarts[1].at_s")
            && m.contains("node reboot")),
        "{errs:?}"
    );
    // An upgrade on a runtime restart: named by its field, shown by the kind's control.
    let (st, _) = parse("?preset=short-restart&restarts=30:20:runtime:1.36");
    let errs = st.settings.scenario().unwrap_err();
    assert!(
        errs.iter()
            .any(|(f, m)| *f == Field::What && m.contains("kubelet.restarts[0].upgrade_to")),
        "{errs:?}"
    );
}

#[test]
fn a_link_from_a_workload_too_large_to_share_says_so() {
    let mut st = UrlState::default();
    let sc = (presets::find("long-restart").unwrap().build)();
    let im = crate::imported::checked(sc, Some("Deployment big (100 pods)")).unwrap();
    st.settings = Settings::for_custom(std::sync::Arc::new(im));
    st.settings.pods = "100".into();
    let q = to_query(&st);
    assert!(q.starts_with("imported=too-large&"), "{q}");
    assert!(!q.contains("scenario=") && !q.contains("preset="), "{q}");
    let (back, notes) = parse(&format!("?{q}&t=5"));
    assert_eq!(back.settings, Settings::default());
    assert_eq!(back.t_ms, Some(5000));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("too large to share by link"), "{notes:?}");
}

#[test]
fn long_workload_labels_end_on_a_whole_workload() {
    let sc = (presets::find("long-restart").unwrap().build)();
    let long: Vec<String> = (0..40)
        .map(|i| format!("Pod p{i}-abcdef (1 pod)"))
        .collect();
    let im = crate::imported::checked(sc, Some(&long.join(", "))).unwrap();
    assert!(im.label.chars().count() <= 120, "{}", im.label);
    assert!(
        im.label.ends_with(" more") && im.label.contains("(1 pod) and "),
        "{}",
        im.label
    );
}

#[test]
fn a_link_from_before_services_were_a_list_still_reads() {
    // A `scenario=` link's JSON as the app wrote it with one Service per pod and the budget over
    // a Service (`"service": "web"`): read as a one-element list, written back the same.
    let mut sc = (presets::find("long-restart").unwrap().build)();
    sc.pdb = Some(restartscope_sim::Pdb {
        pods: vec![],
        service: Some("web".into()),
        min_available: Some(restartscope_sim::IntOrPercent::Int(1)),
        max_unavailable: None,
    });
    let json = sc.to_json(false);
    assert!(json.contains(r#""service":"web""#), "{json}");
    let im = crate::imported::from_json(json.as_bytes(), None).unwrap();
    assert!(im.scenario.pods.iter().all(|p| p.services == ["web"]));
    assert_eq!(im.scenario, sc);
    // Two Services travel as a list.
    sc.pods[0].services.push("web-headless".into());
    let json = sc.to_json(false);
    let im = crate::imported::from_json(json.as_bytes(), None).unwrap();
    assert_eq!(im.scenario.pods[0].services, ["web", "web-headless"]);
}

#[test]
fn probe_keys_of_one_workload_round_trip_and_old_keys_set_every_workload() {
    let im = crate::probes::two_workloads();
    let (st, notes) = parse_with("api/app.readinessProbe.periodSeconds=5", Some(im.clone()));
    assert!(notes.is_empty(), "{notes:?}");
    let periods = |st: &UrlState| -> Vec<u32> {
        st.settings
            .scenario()
            .unwrap()
            .pods
            .iter()
            .map(|p| p.containers[0].readiness_probe.as_ref().unwrap().period_s)
            .collect()
    };
    assert_eq!(periods(&st), [10, 10, 5]);
    // Written with its workload (the `/` as is), and read back to the same settings.
    let q = to_query(&st);
    assert!(q.contains("&api/app.readinessProbe.periodSeconds=5"), "{q}");
    assert!(!q.contains("frontend/app"), "{q}");
    assert_eq!(parse_with(&q, Some(im.clone())).0, st);
    // A workload name with dots needs no escaping: the container's name, after the `/`, has none.
    let (st, notes) = parse_with("frontend/app.livenessProbe=on", Some(im.clone()));
    assert!(notes.is_empty(), "{notes:?}");
    assert!(to_query(&st).contains("&frontend/app.livenessProbe=on"));
    // A link made before the rows per workload: the container in every workload's pods.
    let (st, notes) = parse_with("app.readinessProbe.periodSeconds=5", Some(im.clone()));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(periods(&st), [5, 5, 5]);
    let q = to_query(&st);
    assert!(
        q.contains("&frontend/app.readinessProbe.periodSeconds=5")
            && q.contains("&api/app.readinessProbe.periodSeconds=5"),
        "{q}"
    );
    assert_eq!(parse_with(&q, Some(im.clone())).0, st);
    // A workload the import does not have is named; on a preset (one workload, web), its
    // workload's name reaches its one row.
    let (_, notes) = parse_with("db/app.readinessProbe.periodSeconds=5", Some(im));
    assert!(
        notes[0].contains(
            "has no container \"db/app\" with probes (its containers: frontend/app, api/app)"
        ),
        "{notes:?}"
    );
    let (st, notes) = parse("preset=short-restart&web/app.readinessProbe.periodSeconds=5");
    assert!(notes.is_empty(), "{notes:?}");
    assert!(to_query(&st).contains("&app.readinessProbe.periodSeconds=5"));
}
