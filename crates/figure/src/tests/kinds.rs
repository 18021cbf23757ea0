//! Tests of the marks of restarts other than the kubelet's, on a trace built here (a preset's
//! run with the trace's fields and events for them): a container runtime restart's window
//! ("runtime down"), a node reboot ("node down" over the kubelet's bar), an in-place upgrade's
//! label at the kubelet's start, node Ready=False (posted by the kubelet) apart from Unknown, the
//! taints named by their key, and the legend listing only what is drawn. Run by
//! `cargo test -p restartscope-figure`. Mirrors no Kubernetes file.

use super::common::{parse, traces};
use crate::paint::{paint, Fill};
use crate::{layout, Figure, LayoutOpts, Shape};
use restartscope_sim::{Actor, ConditionStatus, Event, Kind, Ms, Rule, TaintEffect, Trace, Value};

fn ev(t: Ms, kind: Kind, value: Value, rule: Rule, by: Actor) -> Event {
    Event {
        t,
        node: 0,
        kind,
        pod: None,
        container: None,
        value,
        rule,
        by,
    }
}

/// `short-restart`'s legacy run with its kubelet restart turned into a node reboot that upgrades
/// the kubelet to 1.36, then a container runtime restart from 70 s to 110 s: node Ready=False
/// posted by the kubelet 30 s in (R3) with the not-ready NoSchedule taint, both gone at R4.
fn kinds_trace() -> Trace {
    let mut tr = traces("short-restart")[0].clone();
    let (stop, start) = tr.restarts[0];
    tr.reboots = vec![(stop, start)];
    tr.upgrades = vec![(start, "1.36".into())];
    tr.runtime_down = vec![(70_000, 110_000)];
    // Long enough to show the runtime restart and what follows.
    tr.horizon = tr.horizon.max(150_000);
    let nlc = Actor::NodeLifecycleController;
    tr.events.extend([
        ev(
            70_000,
            Kind::RuntimeStop,
            Value::Bool(false),
            Rule::R3,
            Actor::Runtime,
        ),
        ev(
            100_000,
            Kind::NodeReady,
            Value::Condition(ConditionStatus::False),
            Rule::R3,
            Actor::Kubelet,
        ),
        ev(
            101_000,
            Kind::TaintAdded,
            Value::Taint(TaintEffect::NoSchedule),
            Rule::R3,
            nlc,
        ),
        ev(
            110_000,
            Kind::RuntimeStart,
            Value::Bool(true),
            Rule::R4,
            Actor::Runtime,
        ),
        ev(
            115_000,
            Kind::NodeReady,
            Value::Condition(ConditionStatus::True),
            Rule::R4,
            Actor::Kubelet,
        ),
        ev(
            116_000,
            Kind::TaintRemoved,
            Value::Taint(TaintEffect::NoSchedule),
            Rule::R4,
            nlc,
        ),
    ]);
    tr.events.sort_by_key(|e| e.t);
    tr
}

fn titles(fig: &Figure, class: &str) -> Vec<String> {
    fig.shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Rect {
                class: c,
                title: Some(t),
                ..
            } if *c == class => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn texts(fig: &Figure) -> Vec<String> {
    fig.shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_runtime_restart_a_node_reboot_and_an_upgrade_are_drawn_apart_from_a_kubelet_restart() {
    let tr = kinds_trace();
    for compact in [false, true] {
        let opts = LayoutOpts {
            compact,
            ..LayoutOpts::default()
        };
        let fig = layout(std::slice::from_ref(&tr), &opts);
        let words = texts(&fig);
        // The runtime's window, labelled, with the kind's words in its tooltip.
        let rt = titles(&fig, "rs-rtdown");
        assert!(
            rt.iter()
                .any(|t| t.starts_with("container runtime restart 1m10s–1m50s (40s)")),
            "{rt:?}"
        );
        assert!(words.iter().any(|w| w == "runtime down"), "{words:?}");
        // The reboot: its strip over the kubelet's down bar, and "node down" in the gap.
        assert_eq!(titles(&fig, "rs-nodedown").len(), 1);
        assert!(!titles(&fig, "rs-down").is_empty());
        assert!(
            words.iter().any(|w| w.starts_with("node down")),
            "{words:?}"
        );
        // The upgrade at the kubelet's start.
        assert!(words.iter().any(|w| w == "kubelet → 1.36"), "{words:?}");
        // Node Ready=False, posted by the kubelet, in its own class.
        let f = titles(&fig, "rs-node-false");
        assert!(
            f.iter()
                .any(|t| t.starts_with("node Ready=False 1m40s–1m55s")
                    && t.contains("posted by the kubelet")),
            "{f:?}"
        );
        // The taint by its key, in the tooltip and the legend.
        let ns = titles(&fig, "rs-taint-ns");
        assert!(
            ns.iter()
                .any(|t| t.starts_with("taint node.kubernetes.io/not-ready:NoSchedule")),
            "{ns:?}"
        );
        assert!(!ns.iter().any(|t| t.contains("unreachable")), "{ns:?}");
        for entry in [
            "container runtime down",
            "node down (reboot)",
            "node False (posted by the kubelet)",
            "NoSchedule taint (not-ready)",
        ] {
            assert!(words.iter().any(|w| w == entry), "{entry}: {words:?}");
        }
        // The SVG carries the classes' style and is well formed; the canvas paints them.
        let svg = fig.to_svg();
        parse(&svg);
        assert!(svg.contains(".rs-rtdown {") && svg.contains(".rs-node-false {"));
    }
    for class in ["rs-rtdown", "rs-nodedown"] {
        assert!(
            matches!(paint(class, false, false).fill, Fill::Color(_)),
            "{class}"
        );
    }
    assert!(matches!(
        paint("rs-node-false", false, true).fill,
        Fill::Hatch(_)
    ));
}

#[test]
fn a_figure_without_them_is_unchanged_and_its_legend_does_not_list_them() {
    let plain = layout(&traces("short-restart"), &LayoutOpts::default());
    let words = texts(&plain);
    for entry in [
        "container runtime down",
        "node down (reboot)",
        "node False (posted by the kubelet)",
        "runtime down",
    ] {
        assert!(!words.iter().any(|w| w == entry), "{entry}");
    }
    assert!(!plain.draws_kinds());
    assert!(!plain.to_svg().contains(".rs-rtdown"));
    // The unreachable taints keep their legend's words and name their key in the tooltip.
    let long = layout(&traces("long-restart"), &LayoutOpts::default());
    let words = texts(&long);
    assert!(words.iter().any(|w| w == "NoSchedule taint"), "{words:?}");
    assert!(titles(&long, "rs-taint-ne")
        .iter()
        .all(|t| t.starts_with("taint node.kubernetes.io/unreachable:NoExecute")));
    // Node Unknown stays the controller's class.
    assert!(!titles(&long, "rs-node-unknown").is_empty());
    assert!(titles(&long, "rs-node-false").is_empty());
}

/// The model's own runs of the presets for the other restarts draw these marks: a 90 s runtime
/// restart (node Ready=False from the kubelet, the not-ready taint), a node reboot, an upgrade.
#[test]
fn the_presets_for_the_other_restarts_draw_their_marks() {
    let fig = |name: &str| layout(&super::common::runs(name), &LayoutOpts::default());
    let rt = fig("runtime-restart");
    assert!(!titles(&rt, "rs-rtdown").is_empty());
    assert!(texts(&rt).iter().any(|w| w == "runtime down"));
    assert!(!titles(&rt, "rs-node-false").is_empty(), "{:?}", texts(&rt));
    assert!(titles(&rt, "rs-taint-ns")
        .iter()
        .any(|t| t.starts_with("taint node.kubernetes.io/not-ready:NoSchedule")));
    let reboot = fig("node-reboot");
    assert!(!titles(&reboot, "rs-nodedown").is_empty());
    assert!(texts(&reboot).iter().any(|w| w.starts_with("node down")));
    let up = fig("upgrade-1.30-to-1.31");
    assert!(
        texts(&up).iter().any(|w| w == "kubelet → 1.31"),
        "{:?}",
        texts(&up)
    );
}
