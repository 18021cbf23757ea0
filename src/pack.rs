//! Deflate-raw through the browser's CompressionStream / DecompressionStream (no compression
//! code in the bundle): the imported scenario's JSON in a link (`imported.rs`).

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = CompressionStream)]
    type Compressor;
    #[wasm_bindgen(constructor, js_class = "CompressionStream", catch)]
    fn new(format: &str) -> Result<Compressor, JsValue>;

    #[wasm_bindgen(js_name = DecompressionStream)]
    type Decompressor;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn new(format: &str) -> Result<Decompressor, JsValue>;
}

/// The bytes piped through a transform stream (a `{readable, writable}` pair).
async fn through(bytes: &[u8], pair: JsValue) -> Result<Vec<u8>, JsValue> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let out = blob.stream().pipe_through(pair.unchecked_ref());
    let resp = web_sys::Response::new_with_opt_readable_stream(Some(&out))?;
    let buf = JsFuture::from(resp.array_buffer()?).await?;
    Ok(Uint8Array::new(&buf).to_vec())
}

pub async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, JsValue> {
    through(bytes, Compressor::new("deflate-raw")?.into()).await
}

/// At most `limit` bytes out (a link cannot make the page inflate gigabytes).
pub async fn inflate(bytes: &[u8], limit: usize) -> Result<Vec<u8>, JsValue> {
    let out = through(bytes, Decompressor::new("deflate-raw")?.into()).await?;
    if out.len() > limit {
        return Err("too large".into());
    }
    Ok(out)
}
