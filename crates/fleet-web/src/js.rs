//! Plain JS objects for the messages between the worker and the page (no serde: smaller).

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `{k: v, …}`.
pub fn obj(pairs: &[(&str, JsValue)]) -> Object {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}

pub fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

pub fn num(o: &JsValue, k: &str) -> f64 {
    get(o, k).as_f64().unwrap_or(0.0)
}

pub fn text(o: &JsValue, k: &str) -> String {
    get(o, k).as_string().unwrap_or_default()
}

pub fn list(o: &JsValue, k: &str) -> Vec<JsValue> {
    get(o, k)
        .dyn_into::<Array>()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

pub fn strings(items: impl IntoIterator<Item = String>) -> Array {
    items.into_iter().map(|s| JsValue::from_str(&s)).collect()
}

/// `&`, `<`, `>`, `"` escaped for HTML text and attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}
