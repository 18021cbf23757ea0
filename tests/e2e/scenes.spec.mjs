// The embed drawn at its frame's width, taller scenarios in presentation
// view, the slider marks, reduced-motion Play, the loading skeleton, the debounced address, and
// axe in presentation view and the embed in both themes.
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { open, shots, figureGeometry } from './helpers.mjs';

async function embedFrame(page, width, query = '') {
  await page.setViewportSize({ width: width + 40, height: 800 });
  await page.goto('embed-example.html');
  await page.locator('#restartscope').evaluate((f, [w, q]) => {
    f.style.width = `${w}px`; f.style.height = '560px'; f.style.minHeight = '0'; f.style.aspectRatio = 'auto';
    if (q) f.src = f.src.split('?')[0] + '?embed=1' + q;
  }, [width, query]);
  const frame = page.frameLocator('#restartscope');
  await expect(frame.locator('#figure canvas[data-settled="1"]').first()).toBeVisible();
  return frame;
}

const textSizes = async (f) => {
  const g = await f.evaluate(figureGeometry);
  return { min: g.minFont, groupsBottom: Math.max(...g.groups.map((x) => x.bottom)), vh: await f.evaluate(() => innerHeight) };
};

for (const width of [320, 480, 720]) {
  test(`embed at ${width} px: text drawn at ≥ 9 px, both runs' pod lanes inside the 560-px frame`, async ({ page }) => {
    const frame = await embedFrame(page, width);
    const f = page.frame({ url: /embed=1/ });
    const s = await textSizes(f);
    console.log(`embed ${width}: smallest text ${s.min.toFixed(1)} px, lanes end at ${s.groupsBottom.toFixed(0)} of ${s.vh}`);
    expect(s.min).toBeGreaterThanOrEqual(9);
    expect(s.groupsBottom).toBeLessThanOrEqual(s.vh);
    // Below 400 px: two pods per run, the rest counted.
    if (width < 400) await expect(frame.locator('#figure canvas')).toContainText('more pod');
    await page.screenshot({ path: `${shots}/embed-${width}-scaled.png` });
  });
}

test('embed: a "Full view" link opens the same scenario without embed=1', async ({ page }) => {
  const frame = await embedFrame(page, 480, '&preset=long-restart&downtime=95');
  const href = await frame.locator('#open-full').getAttribute('href');
  expect(href).toContain('preset=long-restart');
  expect(href).toContain('downtime=');
  expect(href).not.toContain('embed=1');
  await expect(frame.locator('#open-full')).toHaveAttribute('target', '_blank');
});

test('presentation view at 1280×720: a tall scenario (eviction) fits with text ≥ 12 px, the rest counted', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await open(page, '?present=1&preset=eviction&t=400');
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  const s = await textSizes(page);
  console.log(`presentation eviction 1280×720: smallest text ${s.min.toFixed(2)} px, lanes end at ${s.groupsBottom.toFixed(0)}`);
  expect(s.min).toBeGreaterThanOrEqual(11.9);
  expect(s.groupsBottom).toBeLessThanOrEqual(720);
  await expect(page.locator('#figure canvas')).toContainText('more pod');
  await page.screenshot({ path: `${shots}/present-eviction-1280.png` });
  expect(problems).toEqual([]);
});

test('the grace and eviction marks sit under the slider thumb at those downtimes', async ({ page }) => {
  const problems = await open(page, '?t=10');
  for (const [cls, downtime] of [['grace', 50], ['evict', 355]]) {
    await page.goto(`?t=10&downtime=${downtime}`);
    await expect(page.locator('#figure canvas').first()).toBeVisible();
    const d = await page.evaluate((cls) => {
      const el = document.getElementById('downtime');
      const s = el.getBoundingClientRect();
      const p = Number(el.value) / Number(el.max);
      const thumb = s.left + 8 + p * (s.width - 16);
      const m = document.querySelector(`.mark.${cls}`);
      const r = m.getBoundingClientRect();
      const line = m.classList.contains('end') ? r.right - 1 : r.left + 1;
      return { thumb, line };
    }, cls);
    expect(Math.abs(d.thumb - d.line), `${cls}: thumb ${d.thumb} vs mark ${d.line}`).toBeLessThanOrEqual(4);
  }
  expect(problems).toEqual([]);
});

test('reduced motion: Play moves the playhead to the next event within about a second', async ({ browser }) => {
  const ctx = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const problems = await open(page, '?preset=long-restart');
  const before = Number(await page.locator('#figure').getAttribute('data-playhead'));
  await page.locator('#play').click();
  await expect.poll(async () => Number(await page.locator('#figure').getAttribute('data-playhead')), { timeout: 3000 })
    .toBeGreaterThan(before);
  expect(problems).toEqual([]);
  await ctx.close();
});

test('a slow link shows the loading skeleton, not a blank page; the app replaces it', async ({ page }) => {
  await page.route('**/*.wasm', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto('/');
  await expect(page.locator('#skeleton')).toBeVisible();
  await expect(page.locator('#skeleton')).toContainText('RestartScope');
  await expect(page.locator('#skeleton [role=status]')).toContainText('Loading');
  await page.screenshot({ path: `${shots}/skeleton.png` });
  await expect(page.locator('#figure canvas').first()).toBeVisible({ timeout: 15000 });
  await expect(page.locator('#skeleton')).toHaveCount(0);
});

test('a slider drag writes the address once it settles: one history entry, the final value', async ({ page }) => {
  const problems = await open(page, '?t=10');
  const n0 = await page.evaluate(() => history.length);
  const box = await page.locator('#downtime').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 8, y);
  await page.mouse.up();
  const shown = await page.locator('#downtime-value').textContent();
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.search).get('downtime'))).not.toBeNull();
  await page.waitForTimeout(400);
  expect(await page.evaluate(() => history.length)).toBe(n0 + 1);
  const q = await page.evaluate(() => location.search);
  await page.goto(q);
  await expect(page.locator('#downtime-value')).toHaveText(shown);
  expect(problems).toEqual([]);
});

test('the help lists every command the keyboard runs', async ({ page }) => {
  const problems = await open(page);
  await page.keyboard.press('?');
  const rows = await page.locator('#help table th').allTextContents();
  expect(rows).toEqual(['Space', '← / →', '+ / −', 'R', 'K', 'Ctrl+Z', '1 … 9', 'T', 'P', 'N', 'Q', 'Z', '?', 'Esc', 'Tab']);
  expect(problems).toEqual([]);
});

for (const scheme of ['light', 'dark']) {
  test(`axe: presentation view and the embed, ${scheme} theme, zero serious or critical`, async ({ browser }) => {
    const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 720 } });
    const page = await ctx.newPage();
    for (const q of ['?present=1&t=40', '?embed=1&t=40', '?embed=1&preset=eviction&t=400']) {
      const problems = await open(page, q);
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const bad = axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
      expect(bad.map((v) => `${q} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
      expect(problems).toEqual([]);
    }
    await ctx.close();
  });
}

test('?view=fleet opens the fleet view (its own bundle) with the same settings', async ({ page }) => {
  await page.goto('?view=fleet&nodes=3&pods-per-node=2');
  await expect(page).toHaveURL(/\/fleet\/\?/);
  await expect(page.locator('#back')).toBeVisible();
  // 3 nodes: the preset's 3 zones and batch of 10 follow them down (no rejection, no default).
  await expect(page.locator('#summary')).toContainText('3 nodes');
  await expect(page.locator('#f-nodes')).toHaveValue('3');
  await expect(page.locator('#f-pods-per-node')).toHaveValue('2');
  await expect(page.locator('#f-batch')).toHaveValue('3');
  await expect(page.locator('#notice')).toBeHidden();
  await expect(page).toHaveURL(/[?&]nodes=3&.*batch=3/);
});

test('the note under the figure opens a one-node fleet', async ({ page }) => {
  const problems = await open(page, '?t=30');
  await page.locator('#cluster-note a').click();
  await expect(page.locator('#summary')).toContainText('1 node');
  await expect(page.locator('#f-nodes')).toHaveValue('1');
  await expect(page.locator('#f-zones')).toHaveValue('1');
  await expect(page.locator('#f-downtime')).toHaveValue('7m');
  await expect(page.locator('#notice')).toBeHidden();
  // Down past the grace period and the tolerations, in full disruption: no eviction.
  await expect(page.locator('main')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(page.locator('tr[data-key="evictions"] td')).toHaveText(['0', '0', '-']);
  expect(problems).toEqual([]);
});

test('PodDisruptionBudget card: disruptionsAllowed per run at the playhead, only with a budget', async ({ page }) => {
  const problems = await open(page, '?preset=report-135795-notready-flip&t=40');
  await expect(page.locator('#pdb .pdb-row')).toHaveCount(2);
  await expect(page.locator('#pdb .pdb-allowed')).toHaveText(['0', '0']);
  await expect(page.locator('#pdb .pdb-detail').first()).toContainText('desiredHealthy 2 of 3');
  await expect(page.locator('#pdb .pdb-line').first()).toHaveAttribute('d', /^M0/);
  await page.goto('?preset=short-restart&t=40');
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect(page.locator('#pdb')).toHaveCount(0);
  expect(problems).toEqual([]);
});
