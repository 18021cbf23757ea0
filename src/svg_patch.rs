//! The figure in the page, patched in place: the first draw creates one SVG element per
//! `restartscope_figure::Shape`; every later figure (a slider move, a new preset) changes only
//! the attributes, texts and tooltips that differ, shape by shape, instead of re-parsing the
//! whole SVG. The browser then restyles and repaints only what changed (issue 10: one frame per
//! move). The drawing is the same as the CLI's `--format svg` (`Figure::to_svg`): same elements,
//! attributes, style and hatch patterns. Used by `components::lanes`.

use restartscope_figure::{Figure, Shape};
use web_sys::{Document, Element};

const NS: &str = "http://www.w3.org/2000/svg";

/// One drawn shape and what it was drawn from.
struct Drawn {
    tag: &'static str,
    attrs: Vec<(&'static str, String)>,
    content: Option<String>,
    title: Option<String>,
    el: Element,
}

pub struct SvgPatcher {
    doc: Document,
    root: Element,
    heading: Element,
    size: Vec<String>,
    drawn: Vec<Drawn>,
}

impl SvgPatcher {
    /// Puts an empty figure (title, style, hatch patterns) into `host`.
    pub fn new(host: &Element) -> Option<SvgPatcher> {
        let doc = web_sys::window()?.document()?;
        host.set_inner_html(&format!(
            "<svg xmlns=\"{NS}\" class=\"rs-figure\" role=\"img\" aria-labelledby=\"rs-title\"><title id=\"rs-title\"></title><style>{}</style>{}</svg>",
            Figure::css(),
            Figure::defs()
        ));
        let root = host.first_element_child()?;
        let heading = root.first_element_child()?;
        Some(SvgPatcher {
            doc,
            root,
            heading,
            size: Vec::new(),
            drawn: Vec::new(),
        })
    }

    /// Makes the drawn figure `fig`.
    pub fn draw(&mut self, fig: &Figure) {
        let size = fig.size_attrs();
        if self.size.len() != size.len() || size.iter().zip(&self.size).any(|((_, v), o)| v != o) {
            for (name, v) in &size {
                let _ = self.root.set_attribute(name, v);
            }
            self.size = size.into_iter().map(|(_, v)| v).collect();
        }
        if self.heading.text_content().as_deref() != Some(fig.title.as_str()) {
            self.heading.set_text_content(Some(&fig.title));
        }
        for (i, sh) in fig.shapes.iter().enumerate() {
            match self.drawn.get_mut(i) {
                Some(d) if d.tag == sh.tag() => patch(&self.doc, d, sh),
                Some(d) => {
                    if let Some(new) = create(&self.doc, sh) {
                        let _ = d.el.replace_with_with_node_1(&new.el);
                        *d = new;
                    }
                }
                None => {
                    if let Some(new) = create(&self.doc, sh) {
                        let _ = self.root.append_child(&new.el);
                        self.drawn.push(new);
                    }
                }
            }
        }
        if self.drawn.len() > fig.shapes.len() {
            for d in self.drawn.drain(fig.shapes.len()..) {
                d.el.remove();
            }
        }
    }
}

fn create(doc: &Document, sh: &Shape) -> Option<Drawn> {
    let el = doc.create_element_ns(Some(NS), sh.tag()).ok()?;
    let attrs = sh.attrs();
    for (name, v) in &attrs {
        let _ = el.set_attribute(name, v);
    }
    if let Some(text) = sh.content() {
        el.set_text_content(Some(text));
    }
    if let Some(t) = sh.title() {
        add_title(doc, &el, t);
    }
    Some(Drawn {
        tag: sh.tag(),
        attrs,
        content: sh.content().map(str::to_string),
        title: sh.title().map(str::to_string),
        el,
    })
}

fn patch(doc: &Document, d: &mut Drawn, sh: &Shape) {
    let attrs = sh.attrs();
    for ((name, v), (_, old)) in attrs.iter().zip(&d.attrs) {
        if v != old {
            let _ = d.el.set_attribute(name, v);
        }
    }
    d.attrs = attrs;
    if d.content.as_deref() != sh.content() {
        d.el.set_text_content(sh.content());
        d.content = sh.content().map(str::to_string);
    }
    if d.title.as_deref() != sh.title() {
        match (sh.title(), d.el.first_element_child()) {
            (Some(t), Some(child)) => child.set_text_content(Some(t)),
            (Some(t), None) => add_title(doc, &d.el, t),
            (None, Some(child)) => child.remove(),
            (None, None) => {}
        }
        d.title = sh.title().map(str::to_string);
    }
}

fn add_title(doc: &Document, el: &Element, t: &str) {
    if let Ok(title) = doc.create_element_ns(Some(NS), "title") {
        title.set_text_content(Some(t));
        let _ = el.append_child(&title);
    }
}
