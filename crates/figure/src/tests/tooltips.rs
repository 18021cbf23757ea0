//! The figure without its pods' tooltips (the page's layout while a slider is held) against
//! the whole one. Run by `cargo test -p restartscope-figure`. Mirrors no Kubernetes file.

use super::common::runs;
use crate::{layout, Figure, LayoutOpts, Shape};
use restartscope_sim::presets;

/// A figure laid out without its pods' tooltips (the page's, while a slider is held) draws the
/// same shapes at the same places; only the pods' lanes lose their titles, and laid out with
/// them again it is the whole figure.
#[test]
fn a_figure_without_tooltips_draws_the_same_shapes() {
    fn untitled(sh: &Shape) -> Shape {
        let mut sh = sh.clone();
        match &mut sh {
            Shape::Rect { title, .. } | Shape::Path { title, .. } => *title = None,
            _ => {}
        }
        sh
    }
    for p in presets::PRESETS {
        let tr = runs(p.name);
        let full = layout(&tr, &LayoutOpts::default());
        let bare = layout(
            &tr,
            &LayoutOpts {
                tooltips: false,
                ..LayoutOpts::default()
            },
        );
        assert_eq!(full.height, bare.height, "{}", p.name);
        assert_eq!(full.shapes.len(), bare.shapes.len(), "{}", p.name);
        let titled = |f: &Figure| {
            f.shapes
                .iter()
                .filter(|s| {
                    matches!(
                        s,
                        Shape::Rect { title: Some(_), .. } | Shape::Path { title: Some(_), .. }
                    )
                })
                .count()
        };
        assert!(titled(&bare) < titled(&full), "{}", p.name);
        for (a, b) in full.shapes.iter().zip(&bare.shapes) {
            assert_eq!(untitled(a), untitled(b), "{}", p.name);
        }
    }
}
