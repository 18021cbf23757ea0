// The figure first (scripts/static-figures.mjs): the scene in the address is on screen before the
// wasm has arrived, drawn by the CLI from the same model and figure code as the app; the app then
// draws the same runs. The first paint is timed on a phone's link (1.6 Mbit/s down, 750 kbit/s
// up, 150 ms RTT, cold cache) and fails above FIRST_FIGURE_BUDGET_MS (1,500 ms); the time to the
// app's own figure is reported beside it (artifacts/first-figure.json, docs/PERFORMANCE.md).
// The service worker's install downloads nothing the page already fetched, under this project's
// caching headers and GitHub Pages' (scripts/serve.mjs, SERVE_CACHE=pages).
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const PRESETS = ['short-restart', 'long-restart', 'eviction', 'startup-probe', 'unhealthy-during-downtime',
  'not-ready-before-restart', 'crash-during-downtime', 'daemonset-long-outage', 'report-113646-flap',
  'report-125397-startup-rerun', 'report-135795-notready-flip', 'report-136910-sidecar-startup',
  'report-141155-started-by-name', 'report-142305-started-early', 'report-141473-replaced-during-partition',
  'runtime-restart', 'node-reboot', 'upgrade-1.30-to-1.31', 'upgrade-1.34-to-1.35', 'admission-after-relabel'];

// The words of an SVG figure: its title, its texts, and its shapes' tooltips (<title>s).
async function svgWords(page, url) {
  return page.evaluate(async (u) => {
    const text = u.startsWith('data:') ? decodeURIComponent(u.slice(u.indexOf(',') + 1)) : await (await fetch(u)).text();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      title: doc.querySelector('title#rs-title')?.textContent ?? '',
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean),
      tips: [...doc.querySelectorAll(':not(svg) > title')].map((t) => t.textContent.trim()).filter(Boolean),
    };
  }, url);
}

test('before the wasm arrives, the address\'s own scene is on screen; an address that changes the figure shows none', async ({ page }) => {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  for (const [q, want] of [['', 'short-restart'], ['?preset=eviction&t=60', 'eviction'], ['?preset=node-reboot&embed=1', 'node-reboot'], ['?preset=eviction&present=1', 'eviction'], ['?present=audience', 'short-restart']]) {
    await page.goto(q || '/');
    const img = page.locator('#skeleton #first-figure');
    await expect(img).toBeVisible();
    await expect(img).toHaveAttribute('data-preset', want);
    await expect.poll(() => img.evaluate((i) => i.complete && i.naturalWidth)).toBeGreaterThan(300);
    const src = await img.getAttribute('src');
    const words = await svgWords(page, src.startsWith('data:') ? src : new URL(src, page.url()).href);
    expect(words.title).toContain(`${want}:`);
    await expect(img).toHaveAttribute('alt', /.+/);
    await expect(page.locator('#skeleton [role=status]')).toContainText('Loading the model');
  }
  for (const q of ['?preset=eviction&downtime=90s', '?version=1.34', '?preset=no-such', '?tour=kep-4781', '?present=notes']) {
    await page.goto(q);
    await expect(page.locator('#skeleton [role=status]')).toContainText('Loading the model');
    await expect(page.locator('#first-figure')).toHaveCount(0);
  }
  release();
  await expect(page.locator('#skeleton')).toHaveCount(0, { timeout: 20_000 });
});

test('the static figure of every preset draws what the app then draws: its runs, their counts and every tooltip the app shows', async ({ page }) => {
  test.setTimeout(180_000);
  for (const preset of PRESETS) {
    await page.goto(`?preset=${preset}&t=0`);
    const fromSvg = await svgWords(page, `figures/${preset}.svg`);
    await expect(page.locator('#figure canvas[data-settled="1"]')).toHaveCount(1, { timeout: 20_000 });
    const app = await page.evaluate(() => ({
      words: [...document.querySelectorAll('#figure .rs-words p')].map((p) => p.textContent.trim()),
    }));
    // The runs' headers and their counts, as both draw them.
    const runLines = (ws) => ws.filter((w) => /^[^—]* kubelet · [0-9]|^\d+ Ready transitions?, /.test(w));
    expect(runLines(app.words), preset).toEqual(runLines(fromSvg.texts));
    // The compact layout (a short window) leaves out the status-writes line; where drawn, it is
    // the static figure's.
    const writes = (ws) => ws.filter((w) => /^status writes:/.test(w));
    for (const w of writes(app.words)) expect(writes(fromSvg.texts), preset).toContain(w);
    // Every tooltip of the app's drawing is one of the static figure's (the app may draw fewer
    // pods where the window is short; it draws none the CLI does not).
    const tips = new Set(fromSvg.tips);
    const appTips = app.words.filter((w) => !fromSvg.texts.includes(w) && w.length > 12 && !runLines([w]).length && !writes([w]).length);
    const missing = appTips.filter((w) => !tips.has(w));
    expect(missing, `${preset}: the app's tooltips the static figure lacks`).toEqual([]);
  }
});

// Three cold loads of `?preset=long-restart` at 390×844 on a phone's link, from BASE (the
// suite's server when empty): when the static figure and the app's own figure were drawn.
async function phoneLoads(browser, base) {
  // One load first, unthrottled: the server compresses each file once, and brotli's level 11
  // takes seconds on the wasm, as a host's build step would.
  const warm = await browser.newContext();
  const wp = await warm.newPage();
  await wp.goto(`${base}?preset=long-restart`);
  await wp.locator('#figure canvas[data-groups]').first().waitFor({ timeout: 30_000 });
  await warm.close();
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
    });
    await page.addInitScript(() => {
      window.__paints = {};
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          if (e.identifier === 'first-figure') window.__paints.figure = e.renderTime || e.loadTime;
        }
      }).observe({ type: 'element', buffered: true });
      new MutationObserver((_, obs) => {
        if (document.querySelector('#figure canvas[data-groups]')) {
          window.__paints.app = performance.now();
          obs.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-groups'] });
    });
    await page.goto(`${base}?preset=long-restart`);
    await page.waitForFunction(() => window.__paints.figure !== undefined, null, { timeout: 30_000 });
    await page.waitForFunction(() => window.__paints.app !== undefined, null, { timeout: 60_000 });
    const p = await page.evaluate(() => window.__paints);
    const wasm = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => e.name.endsWith('_bg.wasm')).map((e) => e.encodedBodySize)[0] ?? 0);
    runs.push({ figure_ms: Math.round(p.figure), app_figure_ms: Math.round(p.app), wasm_bytes: wasm });
    await ctx.close();
  }
  const median = (k) => runs.map((r) => r[k]).sort((a, b) => a - b)[1];
  return { runs, figure_median_ms: median('figure_ms'), app_figure_median_ms: median('app_figure_ms') };
}

test('first paint on a phone\'s link (1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT, cold cache): the figure within the budget, gzip and brotli', async ({ browser }) => {
  test.setTimeout(120_000);
  const budget = Number(process.env.FIRST_FIGURE_BUDGET_MS || 1500);
  const link = '1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT, cold cache';
  // gzip, as GitHub Pages serves; the budget is held there, the slower of the two.
  const gzip = await phoneLoads(browser, '');
  // brotli, as Cloudflare Pages, Netlify and Vercel serve (scripts/serve.mjs, SERVE_ENCODING=br).
  const srv = await server(4283, '', { SERVE_ENCODING: 'br' });
  let br;
  try {
    br = await phoneLoads(browser, 'http://127.0.0.1:4283/');
  } finally {
    srv.stop();
  }
  const report = { link, budget_ms: budget, gzip, brotli: br };
  console.log(`first figure: ${JSON.stringify(report)}`);
  mkdirSync('artifacts', { recursive: true });
  writeFileSync('artifacts/first-figure.json', JSON.stringify(report, null, 1));
  expect(gzip.figure_median_ms).toBeLessThanOrEqual(budget);
  expect(br.figure_median_ms).toBeLessThanOrEqual(budget);
  // The same wasm, fewer bytes on the wire.
  expect(br.runs[0].wasm_bytes).toBeLessThan(gzip.runs[0].wasm_bytes);
});

// A server of dist/ of its own, logging each request (scripts/serve.mjs, SERVE_LOG=1).
async function server(port, cache, env = {}) {
  const child = spawn('node', ['scripts/serve.mjs', 'dist', String(port)], {
    env: { ...process.env, SERVE_LOG: '1', ...(cache ? { SERVE_CACHE: cache } : {}), ...env },
  });
  const lines = [];
  await new Promise((ok) => child.stdout.on('data', (d) => {
    for (const l of String(d).split('\n')) if (l) lines.push(l);
    if (lines.some((l) => l.startsWith('serving'))) ok();
  }));
  return { lines, stop: () => child.kill() };
}

for (const [name, cache, port] of [['this project\'s headers (hashed files immutable, the rest revalidated)', '', 4281], ['GitHub Pages\' headers (max-age=600)', 'pages', 4282]]) {
  test(`the service worker's install downloads nothing the page fetched: ${name}`, async ({ browser }) => {
    const srv = await server(port, cache);
    try {
      const ctx = await browser.newContext({ serviceWorkers: 'allow' });
      const page = await ctx.newPage();
      await page.goto(`http://127.0.0.1:${port}/?preset=long-restart`);
      await expect(page.locator('#figure canvas').first()).toBeVisible({ timeout: 20_000 });
      await expect(page.locator('#offline-ready')).toContainText('Ready offline', { timeout: 30_000 });
      // The navigation's own document has its query in its URL, which no cache shares: the
      // service worker's copy of index.html (for './' and './index.html' alike) is its one
      // download of it.
      const downloads = new Map();
      for (const l of srv.lines) {
        const [method, url, status] = l.split(' ');
        if (method !== 'GET' || status !== '200') continue;
        const u = new URL(url, 'http://x');
        if (u.pathname === '/' && u.search) continue;
        const path = u.pathname === '/' ? '/index.html' : u.pathname;
        downloads.set(path, (downloads.get(path) || 0) + 1);
      }
      const twice = [...downloads].filter(([, n]) => n > 1).map(([p, n]) => `${p} ×${n}`);
      expect(twice, 'downloaded more than once').toEqual([]);
      expect([...downloads.keys()].some((p) => p.endsWith('_bg.wasm'))).toBe(true);
      await ctx.close();
    } finally {
      srv.stop();
    }
  });
}
