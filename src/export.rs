//! Downloads from the page: the timeline as SVG (the CLI's renderer) and PNG, the JSON trace in
//! the CLI's format, and the link to the current screen.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Saves `text` as a file named `name`.
pub fn download_text(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let r = download_url(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
    r
}

fn download_url(name: &str, url: &str) -> Result<(), JsValue> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(url);
    a.set_download(name);
    a.style().set_property("display", "none")?;
    doc.body().ok_or("no body")?.append_child(&a)?;
    a.click();
    a.remove();
    Ok(())
}

/// Renders the SVG onto a canvas at 2× and saves it as PNG.
pub fn download_png(name: &str, svg: &str, width: f64, height: f64) -> Result<(), JsValue> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let img: web_sys::HtmlImageElement = doc.create_element("img")?.dyn_into()?;
    let src = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(svg))
    );
    let name = name.to_string();
    let img2 = img.clone();
    let onload = Closure::once(move || {
        let run = || -> Result<(), JsValue> {
            let doc = web_sys::window()
                .and_then(|w| w.document())
                .ok_or("no document")?;
            let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
            let scale = 2.0;
            canvas.set_width((width * scale) as u32);
            canvas.set_height((height * scale) as u32);
            let ctx: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")?
                .ok_or("no 2d context")?
                .dyn_into()?;
            ctx.set_fill_style_str("#ffffff");
            ctx.fill_rect(0.0, 0.0, width * scale, height * scale);
            ctx.draw_image_with_html_image_element_and_dw_and_dh(
                &img2,
                0.0,
                0.0,
                width * scale,
                height * scale,
            )?;
            let url = canvas.to_data_url_with_type("image/png")?;
            download_url(&name, &url)
        };
        if let Err(e) = run() {
            web_sys::console::error_2(&"PNG export failed".into(), &e);
        }
    });
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    img.set_src(&src);
    Ok(())
}

/// Copies text to the clipboard (falls back to a prompt the user can copy from).
pub fn copy_text(text: &str) {
    let Some(w) = web_sys::window() else { return };
    let cb = w.navigator().clipboard();
    let _ = cb.write_text(text);
}
