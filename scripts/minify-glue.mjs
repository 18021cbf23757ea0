// Minifies the page's wasm-bindgen glue (dist/restartscope-web-*.js) with terser, after
// `trunk build --release` (Trunk minifies the HTML and CSS but not the glue), and rewrites the
// Subresource Integrity hash of its <link rel=modulepreload> in dist/index.html to match.
// Before that it drops the glue's three exported classes IntoUnderlyingSource,
// IntoUnderlyingByteSource and IntoUnderlyingSink: Leptos turns on server_fn's "browser"
// feature, whose wasm-streams crate exports them for JavaScript to call; the page never does
// (no server functions). Written for wasm-bindgen 0.2.130's output (pinned in Cargo.toml); if
// the pattern is not found they are simply kept.
// Measured: 67,673 → 29,5xx bytes; 11,069 → 8,294 bytes gzip (docs/PERFORMANCE.md, "Size of the page").
// Usage: node scripts/minify-glue.mjs [DIST]   (default dist; idempotent: a second run finds
// the glue already minified and leaves it). Called by `make build`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

const dist = process.argv[2] ?? 'dist';
const glue = readdirSync(dist).filter((f) => /^restartscope-web-[0-9a-f]+\.js$/.test(f));
if (glue.length !== 1) {
  console.error(`minify-glue: expected one restartscope-web-*.js in ${dist}, found ${glue.length}`);
  process.exit(1);
}
const file = join(dist, glue[0]);
const html = join(dist, 'index.html');
const code = readFileSync(file, 'utf8');
const MARK = '/*minified*/';
if (!code.startsWith(MARK)) {
  const unused = code
    .replace(/export class IntoUnderlying\w+ \{[\s\S]*?\n\}\nif \(Symbol\.dispose\) IntoUnderlying\w+\.prototype\[Symbol\.dispose\] = IntoUnderlying\w+\.prototype\.free;\n/g, '')
    .replace(/const IntoUnderlying\w+Finalization = \(typeof FinalizationRegistry === 'undefined'\)\n[^\n]*\n[^\n]*\n/g, '');
  // Both halves go, or neither (a class without its registry would not load).
  const stripped = unused.includes('IntoUnderlying') ? code : unused;
  const out = await minify(stripped, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  writeFileSync(file, MARK + out.code);
}
const sri = 'sha384-' + createHash('sha384').update(readFileSync(file)).digest('base64');
const page = readFileSync(html, 'utf8');
// The link Trunk wrote for the glue (attributes unquoted once Trunk has minified the HTML).
const link = new RegExp(`(<link[^>]*href="?\\./${glue[0].replace('.', '\\.')}"?[^>]*integrity="?)sha384-[A-Za-z0-9+/=]+`);
const link2 = new RegExp(`(<link[^>]*integrity="?)sha384-[A-Za-z0-9+/=]+("?[^>]*href="?\\./${glue[0].replace('.', '\\.')})`);
let next = page.replace(link, `$1${sri}`);
if (next === page) next = page.replace(link2, `$1${sri}$2`);
if (next === page && !page.includes(sri)) {
  console.error(`minify-glue: no integrity attribute for ${glue[0]} in ${html}`);
  process.exit(1);
}
writeFileSync(html, next);
console.log(`minify-glue: ${file} ${code.length} → ${readFileSync(file).length} bytes, ${sri.slice(0, 20)}…`);
