//! `restartscope tour`: the figures committed under docs/tour/ are what the CLI writes today,
//! each is a well-formed standalone SVG with its caption as text, and index.md lists every step.
//! Regenerate with `cargo run -p restartscope-cli -- tour --name kep-4781 --out docs/tour` and
//! `… tour --name kep-4781 --animate --out docs/tour/animated`.

mod common;

use restartscope_tour::{find, Tour};
use std::path::{Path, PathBuf};

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tour")
}

/// A fresh directory under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("restartscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn tour() -> &'static Tour {
    find("kep-4781").unwrap()
}

#[test]
fn committed_tour_is_current() {
    let dir = temp_dir("tour");
    common::ok(&["tour", "--name", "kep-4781", "--out", dir.to_str().unwrap()]);
    let fresh = names(&dir);
    let mut want: Vec<String> = (1..=tour().steps.len())
        .map(|n| tour().file_name(n).unwrap())
        .collect();
    want.push("index.md".into());
    let animated = want.clone();
    want.push("kep-4781.json".into());
    want.sort();
    assert_eq!(fresh, want);
    let mut with_dir = want.clone();
    with_dir.push("animated".into());
    // The presenter's speaker notes live beside the tour's data (written by hand, checked by the
    // page's own test that every step and preset has one).
    with_dir.push("notes.json".into());
    with_dir.sort();
    assert_eq!(
        names(&committed()),
        with_dir,
        "docs/tour/ holds other files than the tour writes"
    );
    for f in &fresh {
        let new = std::fs::read(dir.join(f)).unwrap();
        let old = std::fs::read(committed().join(f)).unwrap_or_default();
        assert!(
            new == old,
            "docs/tour/{f} is stale: regenerate with `cargo run -p restartscope-cli -- tour --out docs/tour`"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);

    // The same steps animated, in docs/tour/animated/ (no second copy of the app's JSON).
    let dir = temp_dir("tour-animated");
    common::ok(&[
        "tour",
        "--name",
        "kep-4781",
        "--animate",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let mut animated = animated;
    animated.sort();
    assert_eq!(names(&dir), animated);
    assert_eq!(
        names(&committed().join("animated")),
        animated,
        "docs/tour/animated/ holds other files than the tour writes"
    );
    for f in &animated {
        let new = std::fs::read(dir.join(f)).unwrap();
        let old = std::fs::read(committed().join("animated").join(f)).unwrap_or_default();
        assert!(
            new == old,
            "docs/tour/animated/{f} is stale: regenerate with `cargo run -p restartscope-cli -- tour --animate --out docs/tour/animated`"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whitespace-normalized.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn tour_figures_are_standalone_svg_with_their_captions() {
    let t = tour();
    for (i, step) in t.steps.iter().enumerate() {
        let n = i + 1;
        let file = t.file_name(n).unwrap();
        let text = std::fs::read_to_string(committed().join(&file)).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("docs/tour/{file} is not well-formed XML: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        for a in ["width", "height", "viewBox"] {
            assert!(root.attribute(a).is_some(), "{file}: no {a}");
        }
        // No external references: no links, images or scripts; url() only to local patterns.
        for node in doc.descendants().filter(|n| n.is_element()) {
            let tag = node.tag_name().name();
            assert!(
                !["image", "script", "a", "use", "foreignObject"].contains(&tag),
                "{file}: <{tag}>"
            );
            for a in node.attributes() {
                assert!(a.name() != "href", "{file}: href on <{tag}>");
            }
        }
        let style = doc
            .descendants()
            .find(|n| n.has_tag_name("style"))
            .and_then(|n| n.text())
            .unwrap_or_default();
        assert!(!style.contains("@import"), "{file}");
        for (k, _) in style.match_indices("url(") {
            assert!(style[k..].starts_with("url(#"), "{file}: external url()");
        }
        // The caption, filled from the runs, is in the figure as text lines.
        let traces = step.traces().unwrap();
        let caption = step.caption(&traces).unwrap();
        let lines: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some("rs-tour-caption"))
            .filter_map(|n| n.text())
            .collect();
        assert!(lines.len() >= caption.len(), "{file}: caption lines");
        assert!(lines.iter().all(|l| l.chars().count() <= 140), "{file}");
        let drawn = lines.join(" ");
        for p in &caption {
            assert!(drawn.contains(&words(p)), "{file} lacks the caption {p:?}");
        }
        let title = doc
            .descendants()
            .find(|n| n.has_tag_name("title"))
            .and_then(|n| n.text())
            .unwrap();
        assert!(title.contains(step.title), "{file}: title {title:?}");
        assert!(
            text.contains(&t.link(n).replace('&', "&amp;")),
            "{file}: link"
        );
    }
}

#[test]
fn index_lists_every_step_with_its_caption_and_image() {
    let t = tour();
    let index = std::fs::read_to_string(committed().join("index.md")).unwrap();
    for (i, step) in t.steps.iter().enumerate() {
        let n = i + 1;
        let file = t.file_name(n).unwrap();
        assert!(
            index.contains(&format!("]({file})")),
            "index.md: no image {file}"
        );
        assert!(index.contains(step.title));
        assert!(index.contains(&format!("`{}`", t.link(n))));
        for p in step.caption(&step.traces().unwrap()).unwrap() {
            assert!(index.contains(&p), "index.md lacks {p:?}");
        }
    }
}

#[test]
fn tour_input_errors_exit_2() {
    common::fails(&["tour"], &["--out DIR"]);
    common::fails(
        &["tour", "--name", "nope", "--out", "x"],
        &["unknown tour \"nope\"", "kep-4781"],
    );
    common::fails(
        &["tour", "--out"],
        &["a value is required for '--out <DIR>'"],
    );
    common::fails(
        &["tour", "--bogus", "1"],
        &["unexpected argument '--bogus'"],
    );
    common::fails(
        &["tour", "--out", "a", "--out", "b"],
        &["cannot be used multiple times"],
    );
    let help = common::ok(&["tour", "--help"]);
    assert!(help.contains("restartscope tour"));
}

#[test]
fn tour_reports_an_unwritable_directory() {
    let dir = temp_dir("tour-file");
    std::fs::write(&dir, "a file, not a directory").unwrap();
    let out = common::run(&["tour", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot create"));
    let _ = std::fs::remove_file(&dir);
}
