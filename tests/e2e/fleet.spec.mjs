// The fleet view (fleet/index.html, its own bundle in dist/fleet/): progress, heatmap, charts,
// totals equal to `restartscope fleet --format json` for the same settings (the CLI is run
// from here with cargo), cancellation when a setting changes, the notice for a rejected value,
// keyboard playback, and axe in both themes.
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { shots } from './helpers.mjs';

const SMALL = 'nodes=20&batch=5&pods-per-node=10&services=3';

/** Opens the fleet view; returns the list of problems (console errors, off-origin requests). */
async function openFleet(page, query) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.context().route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.hostname !== '127.0.0.1') {
      problems.push(`off-origin request: ${u}`);
      return route.abort();
    }
    return route.continue();
  });
  // Every text the progress line shows, in order.
  await page.addInitScript(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const t = document.getElementById('progress-text')?.textContent;
      if (t && window.__progress[window.__progress.length - 1] !== t) window.__progress.push(t);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`fleet/?${query}`);
  return problems;
}

const done = (page, timeout = 60_000) =>
  expect(page.locator('#main')).toHaveAttribute('data-state', 'done', { timeout });

/** `restartscope fleet --preset rolling-upgrade ARGS --format json`, parsed. The binary the
 * native tests built (RESTARTSCOPE_BIN, set by scripts/test.sh): `cargo run -p restartscope-cli`
 * resolves the model's features without the page's and rebuilt the CLI inside this test's
 * 60 s on a fresh checkout (it timed out there). Run alone, the spec falls back to cargo. */
function cli(args) {
  const bin = process.env.RESTARTSCOPE_BIN;
  const [cmd, pre] = bin ? [bin, []] : ['cargo', ['run', '-q', '-p', 'restartscope-cli', '--']];
  const out = execFileSync(cmd, [...pre, 'fleet',
    '--preset', 'rolling-upgrade', ...args, '--format', 'json'], { encoding: 'utf8', timeout: 600_000 });
  return JSON.parse(out);
}

/** The totals table as { policy: { key: number } }. */
async function tableTotals(page) {
  return page.evaluate(() => {
    const out = {};
    for (const tr of document.querySelectorAll('#totals tbody tr')) {
      for (const td of tr.querySelectorAll('td[data-policy]')) {
        (out[td.dataset.policy] ||= {})[tr.dataset.key] = Number(td.dataset.value);
      }
    }
    return out;
  });
}

function expectSameTotals(shown, doc) {
  expect(Object.keys(shown).sort()).toEqual(doc.runs.map((r) => r.policy).sort());
  for (const run of doc.runs) {
    const keys = Object.keys(shown[run.policy]);
    expect(keys.length).toBe(8);
    for (const k of keys) {
      expect(shown[run.policy][k], `${run.policy} ${k}`).toBeCloseTo(run.totals[k], 1);
    }
  }
}

test('fleet view: progress, heatmap, charts and totals equal to the CLI', async ({ page }) => {
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  const problems = await openFleet(page, SMALL);
  await done(page);
  // The worker's three files by content-hashed names (scripts/hash-workers.sh), named by the
  // page's meta: a cached worker of another build cannot run against this page.
  const worker = requests.filter((u) => u.includes('fleet-worker'));
  expect(worker.map((u) => u.replace(/.*fleet-worker-[0-9a-f]{16}/, 'H')).sort(), worker.join(' '))
    .toEqual(['H.js', 'H_bg.wasm', 'H_loader.js']);
  const progress = await page.evaluate(() => window.__progress);
  expect(progress.some((t) => /^Computing… \d+ %$/.test(t)), progress.join(' | ')).toBe(true);
  expect(progress[progress.length - 1]).toMatch(/^Done: computed in/);
  await expect(page.locator('#summary')).toContainText('20 nodes in 3 zones × 10 pods');
  // Both kubelets of 1.35, each with a heatmap and four charts.
  await expect(page.locator('.run h2')).toHaveText(['1.35 · legacy (opt-in gate)', '1.35 · default (KEP-4781)']);
  await expect(page.locator('.run svg.chart')).toHaveCount(8);
  // The heatmap is drawn: opaque pixels, and under legacy some not green (pods NotReady).
  const px = await page.evaluate(() => [0, 1].map((i) => {
    const c = document.getElementById(`heat-${i}`);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let opaque = 0; let notGreen = 0;
    for (let j = 0; j < d.length; j += 4) {
      if (d[j + 3] === 255) opaque++;
      if (!(d[j] === 0x00 && d[j + 1] === 0x9e && d[j + 2] === 0x73)) notGreen++;
    }
    return { w: c.width, h: c.height, opaque, notGreen };
  }));
  expect(px[0].h).toBe(20);
  expect(px[0].opaque).toBe(px[0].w * px[0].h);
  expect(px[0].notGreen).toBeGreaterThan(0);
  expect(px[1].notGreen).toBe(0);
  // Totals equal what the CLI prints for the same settings.
  const doc = cli(['--nodes', '20', '--batch', '5', '--pods-per-node', '10', '--services', '3']);
  expectSameTotals(await tableTotals(page), doc);
  await expect(page.locator('#words')).toContainText(
    `KEP-4781 avoids ${doc.runs[0].totals.ready_transitions.toLocaleString('en-US')} Pod Ready transitions`);
  await expect(page.locator('#samples li')).toHaveCount(6);
  // The ready-endpoint share: one axis for both kubelets, starting just below the lowest share,
  // so legacy's dips (a few % of a Service's endpoints) fill the chart instead of a pixel at its
  // top, and the start is written under it and in the caption.
  const lowest = doc.runs.map((r) => Math.min(...r.series.ready_endpoint_share.flat()));
  expect(lowest[0]).toBeLessThan(1);
  const share = page.locator('.run figure:nth-of-type(2)'); // after the heatmap
  const bottoms = await share.locator('.chart-bottom').allTextContents();
  expect(bottoms.length).toBe(2);
  expect(bottoms[1]).toBe(bottoms[0]);
  const start = Number(bottoms[0].replace(' %', '')) / 100;
  expect(start).toBeLessThan(lowest[0]);
  await expect(share.first().locator('figcaption')).toContainText(`the axis starts at ${bottoms[0]}`);
  const deepest = await share.evaluateAll((figs) => figs.map((f) => Math.max(...[...f.querySelectorAll('path')]
    .flatMap((p) => p.getAttribute('d').split(/[ML]/).filter(Boolean).map((xy) => Number(xy.split(',')[1]))))));
  // y runs from 2 (100 %) to 88 (the axis start) in a 90-high chart.
  expect(deepest[0]).toBeGreaterThan(2 + 86 * 0.3);
  if (lowest[1] === 1) expect(deepest[1]).toBe(2);
  // Every setting is in the address.
  const q = new URL(page.url()).searchParams;
  for (const k of ['nodes', 'zones', 'pods-per-node', 'services', 'batch', 'downtime', 'pause',
    'wait-ready', 'version', 'policy', 'seed']) expect(q.has(k), k).toBe(true);
  await page.screenshot({ path: `${shots}/fleet-light.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test('fleet view: a setting changed mid-run cancels it and recomputes', async ({ page }) => {
  // The run in progress is held where no machine can finish it first: its worker's wasm is not
  // answered until the setting has changed (a run ends in under a second whatever its size:
  // 1000 × 30 and 5000 × 110 both ended in 0.7 s, before a test could change it).
  let release;
  let hit;
  const held = new Promise((r) => { release = r; });
  const holding = new Promise((r) => { hit = r; });
  let first = true;
  await page.route(/fleet-worker-[0-9a-f]+_bg\.wasm$/, async (route) => {
    if (first) {
      first = false;
      hit();
      await held;
    }
    await route.continue().catch(() => {}); // the held worker may be gone by then
  });
  const problems = await openFleet(page, 'nodes=1000&pods-per-node=30');
  await expect(page.locator('#main')).toHaveAttribute('data-state', 'computing');
  await expect(page.locator('#progress-text')).toHaveText('Starting the model…');
  await holding; // the first run's worker is waiting for its wasm
  await page.locator('#f-nodes').fill('12');
  await page.locator('#f-nodes').dispatchEvent('change');
  release();
  await done(page);
  // The cancelled run never finished: one run said it was done, the 12 nodes'.
  const progress = await page.evaluate(() => window.__progress);
  expect(progress.filter((t) => t.startsWith('Done')), progress.join(' | ')).toHaveLength(1);
  await expect(page.locator('#summary')).toContainText('12 nodes');
  expect(new URL(page.url()).searchParams.get('nodes')).toBe('12');
  const doc = cli(['--nodes', '12', '--pods-per-node', '30']);
  expectSameTotals(await tableTotals(page), doc);
  // Policy and version: 1.34 has only the legacy kubelet.
  await page.locator('#f-version').selectOption('1.34');
  await done(page);
  await expect(page.locator('.run h2')).toHaveText(['1.34 · default (legacy)']);
  await expect(page.locator('#words')).toContainText('no KEP-4781 kubelet');
  expect(problems).toEqual([]);
});

test('fleet view: a rejected value is named with its range and never computed', async ({ page }) => {
  const problems = await openFleet(page, 'nodes=9000&batch=5&downtime=abc');
  await done(page);
  const notice = page.locator('#notice');
  await expect(notice).toBeVisible();
  // The first rejected value (a duration that does not parse), and how many more.
  await expect(notice).toContainText('--downtime: invalid duration "abc"');
  await expect(notice).toContainText('(and 1 more)');
  // The defaults for the rejected values (200 nodes, 30 s), the accepted batch of 5.
  await expect(page.locator('#summary')).toContainText('200 nodes');
  await expect(page.locator('#summary')).toContainText('batches of 5 nodes, kubelet down 30s');
  const q = new URL(page.url()).searchParams;
  expect(q.get('nodes')).toBe('200');
  expect(q.get('downtime')).toBe('30s');
  // One out of range: named with the CLI flag, its Kubernetes name and the range.
  await page.goto('fleet/?nodes=9000');
  await done(page);
  await expect(notice).toContainText('--nodes: nodes must be between 1 and 5000, got 9000 (accepted: 1–5000); the default is used');
  await expect(page.locator('#summary')).toContainText('200 nodes');
  // A valid address has no notice.
  await page.goto(`fleet/?${SMALL}`);
  await done(page);
  await expect(notice).toBeHidden();
  expect(problems).toEqual([]);
});

test('fleet view: keyboard playback moves one playhead across heatmaps and charts', async ({ page }) => {
  const problems = await openFleet(page, SMALL);
  await done(page);
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await expect(page.locator('#play')).toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(400);
  await page.keyboard.press('Space');
  await expect(page.locator('#play')).toHaveAttribute('aria-pressed', 'false');
  const lefts = await page.evaluate(() =>
    [...document.querySelectorAll('.playhead')].map((h) => parseFloat(h.style.left)));
  expect(lefts.length).toBe(10);
  expect(Math.max(...lefts)).toBeGreaterThan(0);
  // The scrubber with the keyboard.
  await page.locator('#scrub').focus();
  await page.keyboard.press('Home');
  await expect(page.locator('#clock')).toHaveText('0 s');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await expect(page.locator('#clock')).toHaveText('40 s');
  await expect(page.locator('#readout')).toContainText('1.35 · legacy (opt-in gate):');
  // Tab reaches the controls in order.
  await page.locator('#back').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#theme')).toBeFocused();
  expect(problems).toEqual([]);
});

for (const theme of ['light', 'dark']) {
  test(`fleet view passes axe in the ${theme} theme`, async ({ page }) => {
    const problems = await openFleet(page, `${SMALL}&theme=${theme}`);
    await done(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.locator('#scrub').fill('60');
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const bad = axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
    if (theme === 'dark') await page.screenshot({ path: `${shots}/fleet-dark.png`, fullPage: true });
    // The toggle switches and keeps the theme in the address.
    await page.locator('#theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme === 'dark' ? 'light' : 'dark');
    expect(new URL(page.url()).searchParams.get('theme')).toBe(theme === 'dark' ? 'light' : 'dark');
    expect(problems).toEqual([]);
  });
}

// An in-place rolling upgrade: from 1.30 to 1.31 every container of every batch restarts at its
// kubelet's first SyncPod (the container hash changed, PR #124220), and the words say that the
// version skew policy asks for a drain first; from 1.34 to 1.35 the containers keep running. The
// select offers the releases, the address keeps the choice, and "none" is a plain restart.
test('fleet view: an in-place upgrade from the Upgrade select, in the words and the address', async ({ page }) => {
  const problems = await openFleet(page, `${SMALL}&version=1.30&upgrade-to=1.31`);
  await done(page);
  await expect(page.locator('#f-upgrade-to')).toHaveValue('1.31');
  await expect(page.locator('#summary')).toContainText('Kubernetes 1.30 upgraded in place to 1.31');
  await expect(page.locator('#words')).toContainText('In-place kubelet upgrade 1.30 → 1.31: every container of every batch restarts');
  await expect(page.locator('#words')).toContainText('drain a node before a minor kubelet upgrade');
  await page.locator('#f-version').selectOption('1.34');
  await page.locator('#f-upgrade-to').selectOption('1.35');
  await done(page);
  await expect(page.locator('#words')).toContainText('In-place kubelet upgrade 1.34 → 1.35: containers keep running');
  expect(new URL(page.url()).searchParams.get('upgrade-to')).toBe('1.35');
  await page.locator('#f-upgrade-to').selectOption('');
  await done(page);
  await expect(page.locator('#words')).not.toContainText('In-place kubelet upgrade');
  expect(problems).toEqual([]);
});
