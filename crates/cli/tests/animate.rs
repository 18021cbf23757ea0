//! `simulate --format svg --animate` and `tour --animate`: an animated SVG that plays
//! inside `<img>` (CSS keyframes only: no script, no reference outside the document), follows the
//! reader's colour scheme, shows its final frame under `prefers-reduced-motion`, and stays small
//! (at most 1.5× the static SVG for the presets short-restart, long-restart and eviction). The
//! static SVG carries the dark theme too. The Playwright spec `tests/e2e/animated-svg.spec.mjs`
//! plays the committed fixture in Chromium.

mod common;

use common::{fails, ok};

const PRESETS: [&str; 3] = ["short-restart", "long-restart", "eviction"];

/// What every exported SVG must satisfy where iframes and scripts are stripped.
fn self_contained(svg: &str, what: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{what}: not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{what}");
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert_ne!(node.tag_name().name(), "script", "{what}: a <script>");
        assert_ne!(node.tag_name().name(), "foreignObject", "{what}");
        for a in node.attributes() {
            assert!(
                !a.name().starts_with("on"),
                "{what}: event handler {}",
                a.name()
            );
            if a.name() == "href" {
                assert!(a.value().starts_with('#'), "{what}: href={}", a.value());
            }
            if a.value().contains("url(") {
                assert!(a.value().contains("url(#"), "{what}: {}", a.value());
            }
        }
    }
    for bad in [
        "<script",
        "url(http",
        "url(//",
        "url(data",
        "@import",
        "@font-face",
        "javascript:",
    ] {
        assert!(!svg.contains(bad), "{what} contains {bad}");
    }
    // Every url() in the style points into the document.
    for (i, _) in svg.match_indices("url(") {
        assert_eq!(&svg[i + 4..i + 5], "#", "{what}: {}", &svg[i..i + 30]);
    }
    assert!(
        !svg.contains("href=\"")
            || svg
                .match_indices("href=\"")
                .all(|(i, _)| &svg[i + 6..i + 7] == "#"),
        "{what}: an href to something else than #…"
    );
}

/// Both themes: the dark one for an SVG read on its own (`<img>`), `light-dark()` for a page
/// that inlines it and sets `color-scheme`.
fn themed(svg: &str, what: &str) {
    assert!(
        svg.contains("@media (prefers-color-scheme: dark)"),
        "{what}: no dark theme"
    );
    assert!(
        svg.contains("light-dark(#ffffff, "),
        "{what}: no light-dark()"
    );
    assert!(svg.contains("var(--rs-bg)"), "{what}");
}

fn svg(preset: &str, animate: &[&str]) -> String {
    let mut args = vec!["simulate", "--preset", preset, "--format", "svg"];
    args.extend_from_slice(animate);
    ok(&args)
}

#[test]
fn the_static_svg_follows_the_readers_theme() {
    for p in PRESETS {
        let s = svg(p, &[]);
        self_contained(&s, p);
        themed(&s, p);
        assert!(!s.contains("@keyframes"), "{p}: the static SVG is animated");
    }
}

#[test]
fn the_animated_svg_plays_by_css_alone_and_stays_small() {
    for p in PRESETS {
        let still = svg(p, &[]);
        let moving = svg(p, &["--animate"]);
        let what = format!("{p} --animate");
        self_contained(&moving, &what);
        themed(&moving, &what);
        for want in [
            "@keyframes rs-play",
            "@keyframes rs-veil",
            "@keyframes rs-count-0",
            "@media (prefers-reduced-motion: reduce)",
            "class=\"rs-playhead\"",
            "class=\"rs-veil\"",
            " 22s ",
        ] {
            assert!(moving.contains(want), "{what} lacks {want}");
        }
        let ratio = moving.len() as f64 / still.len() as f64;
        eprintln!(
            "{p}: static {} bytes, animated {} bytes ({ratio:.3}×)",
            still.len(),
            moving.len()
        );
        assert!(ratio <= 1.5, "{what}: {ratio:.2}× the static SVG");
    }
}

/// The same figure: every element of the static SVG is in the animated one, whose final
/// frame (its elements' own style) shows the static header lines.
#[test]
fn the_animated_svg_is_the_static_figure_plus_the_animation() {
    let still = svg("long-restart", &[]);
    let moving = svg("long-restart", &["--animate", "--duration", "30s"]);
    assert!(moving.contains(" 32s "), "sweep 30 s + hold 2 s");
    let body = |s: &str| -> Vec<String> {
        s.split("</style>\n")
            .nth(1)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let moving_body = body(&moving).join("\n");
    for line in body(&still) {
        // The header lines with the counters are inside the odometer, not on a line of their own.
        let line = line.trim_end();
        assert!(
            moving_body.contains(line),
            "missing from the animated SVG: {line}"
        );
    }
    // The keyframes' percentages are in order, each below the end of the sweep (30/32).
    let kf = moving
        .lines()
        .find(|l| l.starts_with("@keyframes rs-count-0"))
        .expect("legacy counts up");
    let pcts: Vec<f64> = kf
        .split_whitespace()
        .filter_map(|w| w.strip_suffix('%'))
        .map(|w| w.parse().unwrap())
        .collect();
    assert!(pcts.len() >= 3, "{kf}");
    assert!(pcts.windows(2).all(|w| w[0] < w[1]), "{kf}");
    assert!(*pcts.last().unwrap() <= 100.0 * 30.0 / 32.0 + 1e-9, "{kf}");
}

#[test]
fn animate_flags_are_checked() {
    fails(
        &["simulate", "--preset", "short-restart", "--animate"],
        &["--animate goes with --format svg"],
    );
    fails(
        &[
            "simulate",
            "--preset",
            "short-restart",
            "--format",
            "svg",
            "--duration",
            "10s",
        ],
        &["--duration goes with --animate"],
    );
    for (bad, want) in [
        ("4s", "out of range"),
        ("2m1s", "out of range"),
        ("fast", "invalid duration"),
    ] {
        fails(
            &[
                "simulate",
                "--preset",
                "short-restart",
                "--format",
                "svg",
                "--animate",
                "--duration",
                bad,
            ],
            &["--duration", want],
        );
    }
    let ok5 = svg("short-restart", &["--animate", "--duration", "5s"]);
    assert!(ok5.contains(" 7s "));
    let ok120 = svg("short-restart", &["--animate", "--duration", "2m"]);
    assert!(ok120.contains(" 122s "));
}

#[test]
fn tour_animate_writes_every_step_animated() {
    let dir = std::env::temp_dir().join(format!("restartscope-tour-anim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = ok(&["tour", "--animate", "--out", dir.to_str().unwrap()]);
    assert!(out.contains("(animated)"), "{out}");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "svg") {
            let s = std::fs::read_to_string(&path).unwrap();
            let what = path.display().to_string();
            self_contained(&s, &what);
            themed(&s, &what);
            assert!(s.contains("@keyframes rs-play"), "{what}");
            assert!(s.contains("prefers-reduced-motion"), "{what}");
            n += 1;
        }
    }
    assert_eq!(n, 7);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Playwright spec's fixture is what the CLI writes today. Regenerate with
/// `cargo run -p restartscope-cli -- simulate --preset short-restart --format svg --animate --out tests/e2e/fixtures/short-restart-animated.svg`.
#[test]
fn the_browser_fixture_is_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/e2e/fixtures/short-restart-animated.svg"
    );
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        committed == svg("short-restart", &["--animate"]),
        "tests/e2e/fixtures/short-restart-animated.svg is stale: regenerate it with the CLI"
    );
}

/// `--format mermaid-md`: one sequenceDiagram per run (legacy first), every actor that acts a
/// participant (and no other), each instant a note, each message citing its rule, the rules
/// listed under it.
#[test]
fn mermaid_draws_each_run_as_a_sequence_diagram() {
    let md = ok(&[
        "simulate",
        "--preset",
        "short-restart",
        "--format",
        "mermaid-md",
    ]);
    let blocks: Vec<&str> = md
        .split("```mermaid\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2, "{md}");
    let legacy = md.find("Legacy kubelet").unwrap();
    let kep = md.find("KEP-4781 kubelet").unwrap();
    assert!(legacy < kep);
    for b in &blocks {
        assert!(b.starts_with("sequenceDiagram\n"), "{b}");
        for actor in ["kubelet", "prober", "status manager", "API server"] {
            assert!(b.contains(&format!(" as {actor}\n")), "{actor}");
        }
        // Nothing happens to a container or the node's conditions in a 20 s restart.
        for idle in ["container runtime", "node lifecycle controller"] {
            assert!(!b.contains(&format!(" as {idle}\n")), "{idle}");
        }
        assert!(b.contains("    Note over PR,ESC: t = 30s\n"), "{b}");
        assert!(
            b.contains("    Note over KL: first SyncPod of web-0: status generated before its probe workers exist (rule K3)\n"),
            "{b}"
        );
        assert!(b.contains("    Note over KL: Kubelet stops, containers keep running (rule K1)\n"));
        for l in b.lines().skip(1) {
            assert!(l.starts_with("    "), "{l}");
            assert!(
                !l.contains(';') || l.contains("#59;"),
                "a bare ; ends a statement: {l}"
            );
        }
    }
    // Legacy flips web-1 through P1 and back through P5; KEP-4781 does not.
    assert!(blocks[0].contains("SM->>API: web-1 Ready=False written by the kubelet (rule P1)"));
    assert!(blocks[0].contains("ESC->>API: EndpointSlice of Service web updated (rule ES1)"));
    assert!(!blocks[1].contains("Ready=False"), "{}", blocks[1]);
    assert!(md.contains("- **P1** "), "the rules are listed");
    // A run where the control plane acts: the node lifecycle controller writes.
    let long = ok(&[
        "simulate",
        "--preset",
        "long-restart",
        "--format",
        "mermaid",
    ]);
    assert!(
        long.contains("NLC->>API: Node Ready condition becomes Unknown"),
        "{long}"
    );
}

/// `--format mermaid` is Mermaid itself, not Markdown: no heading, fence or rule list; each run's
/// diagram after a `%%` line naming it; with `--out x.mmd` and two runs, one file per run, named
/// on standard error; with one run, the file itself. The diagrams are those of `mermaid-md`.
#[test]
fn mermaid_is_mermaid_itself_one_diagram_per_run_and_file() {
    let mmd = ok(&["simulate", "--preset", "short-restart", "-o", "mermaid"]);
    assert!(
        !mmd.contains("```") && !mmd.contains("###") && !mmd.contains("- **"),
        "{mmd}"
    );
    let parts: Vec<&str> = mmd.split("%% ").skip(1).collect();
    assert_eq!(parts.len(), 2, "{mmd}");
    assert!(
        mmd.starts_with("%% short-restart: kubelet down 20s at 30s · "),
        "{mmd}"
    );
    let md = ok(&["simulate", "--preset", "short-restart", "-o", "mermaid-md"]);
    for p in &parts {
        let (title, diagram) = p.split_once('\n').unwrap();
        assert!(diagram.starts_with("sequenceDiagram\n"), "{p}");
        let diagram = diagram.trim_end();
        assert!(
            md.contains(&format!("```mermaid\n{diagram}\n```")),
            "{title}"
        );
        assert!(md.contains(&format!("### {title}\n")), "{title}");
    }
    let dir = std::env::temp_dir().join(format!("rs-mmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("short.mmd");
    let r = common::run(&[
        "simulate",
        "--preset",
        "short-restart",
        "-o",
        "mermaid",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    for (name, part) in [("legacy", parts[0]), ("kep", parts[1])] {
        let f = dir.join(format!("short-{name}.mmd"));
        assert!(err.contains(&format!("wrote {}", f.display())), "{err}");
        let text = std::fs::read_to_string(&f).unwrap();
        assert_eq!(
            text,
            format!("%% {part}").trim_end_matches('\n').to_string() + "\n"
        );
    }
    assert!(!out.exists(), "two runs: no file under the name given");
    let one = dir.join("one.mmd");
    ok(&[
        "simulate",
        "--preset",
        "short-restart",
        "--policy",
        "kep",
        "-o",
        "mermaid",
        "--out",
        one.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&one).unwrap();
    assert!(text.starts_with("%% ") && text.matches("sequenceDiagram").count() == 1);
    std::fs::remove_dir_all(&dir).ok();
}
