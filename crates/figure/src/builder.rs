//! The shape list being built: primitives in figure coordinates, drawn over (`over`) or under
//! (`under`: group frames, downtime shading, grid lines) everything else, and lane labels in the
//! left column. Used by the glyphs, lanes, axis and legend.

use crate::figure::Shape;
use crate::geom::{bold_w, text_w, x_of, PAD};
use restartscope_sim::Ms;

pub struct Builder {
    pub x0: f64,
    pub x1: f64,
    pub t0: Ms,
    pub t1: Ms,
    pub under: Vec<Shape>,
    pub over: Vec<Shape>,
    /// The keys of the taints drawn (`not-ready`, `unreachable`), for the legend's words.
    pub taint_keys: Vec<&'static str>,
    /// The pods' lanes carry tooltips (`LayoutOpts::tooltips`).
    pub tooltips: bool,
}

impl Builder {
    pub fn new(x0: f64, x1: f64, t0: Ms, t1: Ms) -> Self {
        Builder {
            x0,
            x1,
            t0,
            t1,
            under: Vec::new(),
            over: Vec::new(),
            taint_keys: Vec::new(),
            tooltips: true,
        }
    }

    /// A pod lane's tooltip, written only when the figure has them.
    pub fn tip(&self, text: impl FnOnce() -> String) -> Option<String> {
        self.tooltips.then(text)
    }

    pub fn x(&self, t: Ms) -> f64 {
        x_of(self.x0, self.x1, self.t0, self.t1, t)
    }

    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        class: &'static str,
        title: Option<String>,
    ) {
        self.over.push(Shape::Rect {
            x,
            y,
            w,
            h,
            class,
            title,
        });
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &'static str) {
        self.over.push(Shape::Line {
            x1,
            y1,
            x2,
            y2,
            class,
        });
    }

    pub fn text(
        &mut self,
        x: f64,
        y: f64,
        text: impl Into<String>,
        class: &'static str,
        anchor: &'static str,
    ) {
        self.over.push(Shape::Text {
            x,
            y,
            text: text.into(),
            class,
            anchor,
        });
    }

    pub fn path(&mut self, d: String, class: &'static str, title: Option<String>) {
        self.over.push(Shape::Path { d, class, title });
    }

    /// A lane label in the left column, vertically centred on `yc`. A name too long for the
    /// column keeps its last `-` part whole (a pod's ordinal or its ReplicaSet's random suffix,
    /// what tells the pods apart) and as much of its start as fits (`metrics-serv…-0`); a name
    /// whose last part alone is too long is cut in the middle. Measured as drawn (a pod's name
    /// is bold), with the full name as the tooltip.
    pub fn lane_label(&mut self, yc: f64, text: &str, class: &'static str) {
        let font = if class == "rs-label-pod" { 11.0 } else { 10.5 };
        let width = |s: &str| {
            if class == "rs-label-pod" {
                bold_w(s, font).max(text_w(s, font))
            } else {
                text_w(s, font)
            }
        };
        let max_w = self.x0 - PAD - 6.0;
        let mut s: String = text.to_string();
        if width(&s) > max_w {
            let chars: Vec<char> = text.chars().collect();
            // The distinguishing end, whole: from the last '-' on.
            let tail_at = chars.iter().rposition(|c| *c == '-').filter(|i| *i > 0);
            let by_tail = tail_at.and_then(|at| {
                let tail: String = chars[at..].iter().collect();
                (1..at).rev().find_map(|head| {
                    let cut: String = chars[..head].iter().collect::<String>() + "…" + &tail;
                    (width(&cut) <= max_w && head >= 3).then_some(cut)
                })
            });
            let mut keep = chars.len().saturating_sub(1);
            loop {
                if let Some(cut) = &by_tail {
                    s = cut.clone();
                    break;
                }
                let head = keep.div_ceil(2);
                let cut: String = chars[..head]
                    .iter()
                    .chain(std::iter::once(&'…'))
                    .chain(&chars[chars.len() - (keep - head)..])
                    .collect();
                if width(&cut) <= max_w || keep <= 1 {
                    s = cut;
                    break;
                }
                keep -= 1;
            }
            self.rect(
                PAD,
                yc - 7.0,
                max_w + 6.0,
                14.0,
                "rs-hit",
                Some(text.to_string()),
            );
        }
        self.text(self.x0 - 6.0, yc + 3.5, s, class, "end");
    }
}
