#!/bin/bash
# dist-prof: the current release build with function names (for CPU profiles), served on 8091
set -e
cd "$(dirname "$0")/../.." && export PATH=$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH
rm -rf /tmp/dist-prof /tmp/wb && cp -r dist /tmp/dist-prof
js=$(basename dist/restartscope-web-*.js .js)
wasm-bindgen --target web --keep-debug --out-dir /tmp/wb --out-name $js target/wasm32-unknown-unknown/release/restartscope-web.wasm
F="--enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue"
wasm-opt -Oz -g $F /tmp/wb/${js}_bg.wasm -o /tmp/dist-prof/${js}_bg.wasm
cp /tmp/wb/$js.js /tmp/dist-prof/
sed -i -E 's/ integrity=("[^"]*"|[^ >]*)//g' /tmp/dist-prof/index.html
