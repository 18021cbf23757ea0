// Minimal static file server for dist/ (no dependencies). Usage: node scripts/serve.mjs DIR PORT [HOST]
// HOST is 127.0.0.1 unless given (0.0.0.0: the presenter's network, so phones can open the QR code's link).
// Text, wasm and SVG go out gzip-compressed when the browser asks, as a static host (GitHub
// Pages, a CDN) serves them: the load-time test (tests/e2e/load-time.spec.mjs) measures that.
// `SERVE_ENCODING=br`: brotli where the browser accepts it (gzip otherwise), as Cloudflare Pages,
// Netlify and Vercel serve; GitHub Pages sends gzip only. The page's wasm is about a fifth
// smaller in brotli (tests/e2e/first-figure.spec.mjs measures both).
//
// Caching as static hosts do it. By default as a CDN set up for hashed builds: a file whose name
// carries Trunk's content hash (`-0123456789abcdef.wasm`, `_bg.wasm`, `_loader.js`) never
// changes, `max-age=31536000, immutable`; every other file (index.html, sw.js, the tour's JSON,
// the figures) is revalidated on each use, `no-cache` with an ETag (304 when unchanged).
// `SERVE_CACHE=pages`: as GitHub Pages, `max-age=600` and an ETag on every file.
// `SERVE_LOG=1`: one line per request on standard output, `METHOD PATH STATUS BYTES` (the service
// worker's test counts what is downloaded twice).
import { createHash } from 'node:crypto';
import { HASHED } from './hashed.mjs';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] || 'dist');
const port = Number(process.argv[3] || 4173);
const host = process.argv[4] || '127.0.0.1';
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.json': 'application/json', '.ico': 'image/x-icon', '.txt': 'text/plain', '.zip': 'application/zip',
};
const gz = new Map();
const brotli = process.env.SERVE_ENCODING === 'br';
const tags = new Map();
const pages = process.env.SERVE_CACHE === 'pages';
const log = process.env.SERVE_LOG ? (req, status, bytes = 0) => console.log(`${req.method} ${req.url} ${status} ${bytes}`) : () => {};
const hashed = (path) => HASHED.test(path);
createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    // Resolved, then compared with the root plus a separator: `/../dist-old/x` resolves outside
    // the root even though its text starts with it.
    let path = resolve(join(root, decodeURIComponent(url.pathname)));
    if (path !== root && !path.startsWith(root + sep)) { res.writeHead(403).end(); return; }
    if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
    let body = await readFile(path);
    const st = await stat(path);
    const tagKey = `${path}:${st.mtimeMs}`;
    if (!tags.has(tagKey)) tags.set(tagKey, `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`);
    const etag = tags.get(tagKey);
    const cache = pages ? 'max-age=600' : hashed(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const headers = {
      'content-type': types[extname(path)] || 'application/octet-stream',
      'cache-control': cache,
      etag,
      'last-modified': st.mtime.toUTCString(),
    };
    if (req.headers['if-none-match'] === etag) {
      log(req, 304);
      res.writeHead(304, { etag, 'cache-control': cache }).end();
      return;
    }
    const accepts = req.headers['accept-encoding'] || '';
    const enc = brotli && /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : '';
    if (enc && !['.png', '.zip'].includes(extname(path))) {
      // Compressed once per file version and encoding (the suite loads the page hundreds of times).
      const key = `${path}:${st.mtimeMs}:${enc}`;
      if (!gz.has(key)) {
        gz.set(key, enc === 'br'
          ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
          : gzipSync(body, { level: 9 }));
      }
      body = gz.get(key);
      headers['content-encoding'] = enc;
      headers.vary = 'accept-encoding';
    }
    headers['content-length'] = body.length;
    log(req, 200, body.length);
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    log(req, 404);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}).listen(port, host, () => {
  console.log(`serving ${root} at http://${host}:${port}/`);
  // Brotli's level 11 takes a second or more on a wasm: the page's files are compressed once
  // now, in the background, so the first visitor (a phone scanning the presenter's QR code)
  // does not wait for it.
  if (brotli) setTimeout(() => precompress(root), 0);
});

async function precompress(dir) {
  const { readdir } = await import('node:fs/promises');
  // This directory's files first (the page's own), then the bundles loaded later.
  const entries = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .sort((a, b) => a.isDirectory() - b.isDirectory());
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) { await precompress(path); continue; }
    if (!['.wasm', '.js', '.css', '.html', '.svg', '.json'].includes(extname(path))) continue;
    const st = await stat(path);
    const key = `${path}:${st.mtimeMs}:br`;
    if (gz.has(key)) continue;
    const body = await readFile(path);
    gz.set(key, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
    await new Promise((r) => setImmediate(r));
  }
}
