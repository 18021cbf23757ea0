// Shared by every variant: the wasm entry points and the same walk over a serde_json::Value.
#[no_mangle]
pub extern "C" fn alloc(n: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(n);
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

#[no_mangle]
pub extern "C" fn parse(p: *mut u8, n: usize) -> i64 {
    let b = unsafe { std::slice::from_raw_parts(p, n) };
    match std::str::from_utf8(b) {
        Ok(s) => match crate::work(s) {
            Ok(v) => v,
            Err(e) => -(e.len() as i64),
        },
        Err(_) => -1,
    }
}

