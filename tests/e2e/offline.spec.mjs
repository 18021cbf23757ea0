// Offline after the first visit (scripts/offline.mjs): the service worker caches every file of
// the build, so with the network off a reload still shows the figure, and the other scenarios,
// a tour step, an import (the importer's worker) and the fleet view (its own worker) all work.
// Service workers are blocked in the other specs (playwright.config.mjs); allowed here.
import { test, expect } from '@playwright/test';
import { shots } from './helpers.mjs';

test.use({ serviceWorkers: 'allow' });

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}
`;

test('after one visit, the app, a tour step, an import and the fleet view work with the network off', async ({ page, context }) => {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto('?preset=long-restart');
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  // The first visit caches the site and says so once.
  await expect(page.locator('#offline-ready')).toContainText('Ready offline');
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await expect(page.locator('#offline-zip')).toHaveAttribute('href', './restartscope-offline.zip');

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect(page.locator('#preset')).toHaveValue('long-restart');
  await expect(page.locator('#offline-ready')).toHaveCount(0); // once, not on every visit
  await page.locator('#preset').selectOption('eviction');
  await expect(page.locator('#metric-evictions .legacy b')).toHaveText('3');
  // A tour step (its data is fetched on demand, from the cache now).
  await page.goto('?tour=kep-4781&step=3');
  await expect(page.locator('#tour-step')).toHaveText('Step 3 of 7');
  await expect(page.locator('.tour-caption').first()).not.toBeEmpty();
  await page.screenshot({ path: `${shots}/offline-tour-3.png` });
  await page.locator('#tour-leave').click();
  // An import runs in the importer's worker.
  await page.locator('#import-open').click();
  await page.locator('#import-text').fill(WEB);
  await page.locator('#import-go').click();
  await expect(page.locator('#preset option:checked')).toHaveText('Imported: Deployment web (2 pods)');
  // The fleet view and its worker.
  await page.goto('fleet/?nodes=20&batch=5&pods-per-node=10&services=3');
  await expect(page.locator('#main')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.locator('#totals tbody tr').first()).toBeVisible();
  await context.setOffline(false);
  expect(problems).toEqual([]);
});

test('the offline copy is served beside the app', async ({ request }) => {
  const zip = await request.get('restartscope-offline.zip');
  expect(zip.status()).toBe(200);
  const body = await zip.body();
  expect(body.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const text = body.toString('latin1');
  for (const f of ['restartscope/index.html', 'restartscope/sw.js', 'restartscope/fleet/index.html', 'restartscope/OFFLINE.txt']) {
    expect(text).toContain(f);
  }
});

// A new deployment replaces the old one whole: the site copied to a directory of its own and
// served there; after a visit, a new build (its page marked, its sw.js with a new VERSION) is put
// in place. The next online visit installs the new service worker while the old one keeps
// serving the old files (never a mix); once the old build's page is closed, the next visit runs
// the new build and the old cache is gone.
test('a new deployment is picked up on the next online visits, never mixed with the old', async ({ browser }) => {
  const { cpSync, readFileSync, writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { spawn } = await import('node:child_process');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'restartscope-deploy-'));
  cpSync('dist', dir, { recursive: true });
  const port = 4300 + Math.floor(Math.random() * 500);
  const server = spawn(process.execPath, ['scripts/serve.mjs', dir, String(port)], { stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${port}/`;
    for (let i = 0; i < 50; i++) {
      if (await fetch(base).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ctx = await browser.newContext({ serviceWorkers: 'allow' });
    let page = await ctx.newPage();
    await page.goto(`${base}?preset=short-restart`);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    const reg = () => page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return { waiting: !!r?.waiting, keys: await caches.keys() };
    });
    const old = readFileSync(join(dir, 'sw.js'), 'utf8').match(/const VERSION = '([0-9a-f]+)'/)[1];
    expect((await reg()).keys).toEqual([`restartscope-${old}`]);
    // The new build: a marked page and a new service worker version.
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    writeFileSync(join(dir, 'index.html'), html.replace('<body', '<body data-build="new"'));
    const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
    writeFileSync(join(dir, 'sw.js'), sw.replace(`const VERSION = '${old}'`, "const VERSION = 'feedfacefeedface'"));
    // The next visit, online: the old worker still serves the old page, the new one installs.
    await page.reload();
    await expect(page.locator('#figure canvas').first()).toBeVisible();
    expect(await page.locator('body').getAttribute('data-build')).toBeNull();
    await expect.poll(async () => (await reg()).waiting, { timeout: 30_000 }).toBe(true);
    // Every page of the old build closed: the next visit runs the new build, whole.
    await page.close();
    await expect.poll(async () => {
      const p = await ctx.newPage();
      await p.goto(`${base}?preset=short-restart`);
      const b = await p.locator('body').getAttribute('data-build');
      await p.close();
      return b;
    }, { timeout: 20_000 }).toBe('new');
    page = await ctx.newPage();
    await page.goto(base);
    await expect(page.locator('#figure canvas').first()).toBeVisible();
    expect((await reg()).keys).toEqual(['restartscope-feedfacefeedface']);
    await ctx.close();
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
