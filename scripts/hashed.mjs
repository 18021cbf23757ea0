// A file named by Trunk's content hash (`-0123456789abcdef.wasm`, `_bg.wasm`, `_loader.js`): its
// name is its content, so it never changes. scripts/serve.mjs sends it as immutable and the
// service worker scripts/offline.mjs writes takes it from the HTTP cache whatever its age.
export const HASHED = /[-_][0-9a-f]{16}(_bg|_loader)?\.[a-z]+$/;
