#!/bin/sh
# For each variant: raw wasm, after wasm-opt -Oz, gzip -9 of that; then the result of parsing the Deployment.
OPT=${WASM_OPT:-../../../node_modules/.bin/wasm-opt}
printf "%-14s %9s %9s %9s  %s\n" variant raw opt gzip result
for v in json yaml-ng norway serde-saphyr yaml-rust2 saphyr k8s-json k8s-yaml-ng rs-yaml rs-manifest rs-manifest-toml; do
  f=target/wasm32-unknown-unknown/release/m_$(echo $v | tr - _).wasm
  $OPT -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals "$f" -o target/o.wasm
  case $v in json|k8s-json) in=deployment.json;; *) in=deployment.yaml;; esac
  printf "%-14s %9d %9d %9d  %s\n" $v $(stat -c %s $f) $(stat -c %s target/o.wasm) $(gzip -9c target/o.wasm | wc -c) "$(node run.mjs target/o.wasm $in)"
done
