//! DOM helpers shared by the page and the results (elements by id, attributes, listeners).

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement};

pub fn doc() -> Document {
    web_sys::window().unwrap().document().unwrap()
}

pub fn el(id: &str) -> HtmlElement {
    doc()
        .get_element_by_id(id)
        .unwrap_or_else(|| panic!("#{id} missing"))
        .unchecked_into()
}

pub fn on(target: &web_sys::EventTarget, ev: &str, f: impl FnMut(web_sys::Event) + 'static) {
    let c = Closure::<dyn FnMut(web_sys::Event)>::new(f);
    let _ = target.add_event_listener_with_callback(ev, c.as_ref().unchecked_ref());
    c.forget();
}

pub fn set_attr(e: &Element, k: &str, v: &str) {
    let _ = e.set_attribute(k, v);
}
