// Offline after the first visit, and an offline copy: run by scripts/build.sh after every
// release build (the app, dist/fleet, dist/import, hashed worker names).
//
// 1. dist/sw.js, a service worker whose cache list is every file of the site as this build wrote
//    it (hashed names included) and whose cache name is the SHA-256 of all of them: a new
//    deployment is a new sw.js, which installs its own cache beside the old one and, once no tab
//    runs the old version any more, deletes the old cache — a page never mixes two builds' files.
//    Its install takes the files the page already fetched from the HTTP cache (no second
//    download of the wasm). It answers from its cache first (a navigation with a query, `?preset=…`, from the page's
//    cached HTML), then from the network.
// 2. The registration, written into dist/index.html and dist/fleet/index.html: once the page
//    has loaded, and "Ready offline" shown the first time the site is cached.
// 3. dist/restartscope-offline.zip: the whole site and a note on serving it (wasm and service
//    workers do not run from file://), linked from the app's footer.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { HASHED } from './hashed.mjs';

const dist = process.argv[2] || 'dist';
const ZIP = 'restartscope-offline.zip';
const skip = new Set(['sw.js', ZIP, 'OFFLINE.txt']);

function walk(dir) {
  return readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// The registration comes first (the HTML it goes into is part of the hash).
const register = (swUrl, scope) => `<script id="rs-offline">
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  addEventListener('load', () => {
    const had = !!navigator.serviceWorker.controller;
    // register() with the same script does not look for a new one: update() does, so a new
    // deployment installs on this visit (it serves once every page of the old build is closed).
    navigator.serviceWorker.register('${swUrl}', { scope: '${scope}' })
      .then((r) => { if (had) r.update().catch(() => {}); return navigator.serviceWorker.ready; })
      .then(() => {
        if (had || localStorage.getItem('restartscope-offline')) return;
        localStorage.setItem('restartscope-offline', '1');
        const n = document.createElement('div');
        n.id = 'offline-ready';
        n.setAttribute('role', 'status');
        n.textContent = 'Ready offline: this page, the fleet view and the importer now open without a network.';
        n.style.cssText = 'position:fixed;left:50%;transform:translateX(-50%);top:12px;z-index:30;padding:8px 12px;border-radius:8px;font:14px system-ui,sans-serif;background:#1a1a1a;color:#fff;box-shadow:0 2px 8px rgba(0,0,0,.3)';
        document.body.appendChild(n);
        setTimeout(() => n.remove(), 8000);
      })
      .catch(() => {});
  });
}
</script>`;
for (const [html, swUrl, scope] of [['index.html', './sw.js', './'], ['fleet/index.html', '../sw.js', '../']]) {
  const p = join(dist, html);
  let text = readFileSync(p, 'utf8').replace(/<script id="rs-offline">[\s\S]*?<\/script>/, '');
  text = text.replace('</body>', `${register(swUrl, scope)}</body>`);
  writeFileSync(p, text);
}

const files = walk(dist)
  .map((p) => relative(dist, p).split(sep).join('/'))
  .filter((f) => !skip.has(f));
const hash = createHash('sha256');
for (const f of files) hash.update(f).update('\0').update(readFileSync(join(dist, f)));
const version = hash.digest('hex').slice(0, 16);
// Each directory's index.html is also its directory URL ('./', './fleet/').
const urls = files.flatMap((f) => {
  const u = `./${f}`;
  return f.endsWith('index.html') ? [u, u.slice(0, -'index.html'.length)] : [u];
});

writeFileSync(join(dist, 'sw.js'), `// RestartScope's service worker, written by scripts/offline.mjs for one build.
const VERSION = '${version}';
const CACHE = 'restartscope-' + VERSION;
const FILES = ${JSON.stringify(urls)};
// What the page has just fetched is not downloaded again: a file named by its content hash is
// taken from the browser's HTTP cache whatever its age ('force-cache': the name is the content),
// every other file is asked for as the host's caching headers say (a 304 where it is unchanged).
const HASHED = ${HASHED};
// A directory's URL ('./', './fleet/') is cached from its index.html's one download.
self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(FILES.filter((f) => !f.endsWith('/')).map(async (f) => {
    const r = await fetch(f, { cache: HASHED.test(f) ? 'force-cache' : 'default' });
    if (!r.ok) throw new Error(f + ': ' + r.status);
    if (f.endsWith('/index.html')) await c.put(f.slice(0, -'index.html'.length), r.clone());
    await c.put(f, r);
  }))));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith('restartscope-') && k !== CACHE).map((k) => caches.delete(k)),
  )).then(() => self.clients.claim()));
});
self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  e.respondWith(caches.open(CACHE).then(async (c) => {
    const hit = await c.match(req, { ignoreSearch: true });
    if (hit) return hit;
    if (req.mode === 'navigate') {
      const page = await c.match(new URL('index.html', url).href);
      if (page) return page;
    }
    return fetch(req);
  }));
});
`);

const note = `RestartScope, offline copy (build ${version})

Serve this directory with any static file server and open its address; WebAssembly and service
workers do not run from file://. For example, from the unzipped directory:

  python3 -m http.server 8080          then open http://127.0.0.1:8080/
  npx http-server -p 8080              (Node.js)

The fleet view is at /fleet/. Once opened, the site also works with the network off.
To let phones on your network open it (the presenter's QR code), serve on 0.0.0.0.
`;
writeFileSync(join(dist, 'OFFLINE.txt'), note);
const zip = spawnSync('python3', ['-c', `
import os, sys, zipfile
dist, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(os.path.join(dist, out), 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for root, dirs, files in os.walk(dist):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, dist)
            if rel == out:
                continue
            info = zipfile.ZipInfo('restartscope/' + rel.replace(os.sep, '/'), (2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(p, 'rb') as fh:
                z.writestr(info, fh.read())
`, dist, ZIP], { stdio: 'inherit' });
if (zip.status !== 0) process.exit(1);
console.log(`offline: sw.js caches ${urls.length} URLs (version ${version}); ${ZIP} ${statSync(join(dist, ZIP)).size} bytes`);
