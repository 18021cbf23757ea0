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
