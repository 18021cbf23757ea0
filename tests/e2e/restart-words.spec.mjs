// The words beside the figure for the restart kinds and the tour, as a person sees them: the
// why panel of a container runtime restart says what the node did, the slider's marks sit where
// that kind's node goes NotReady and its pods are evicted, a node reboot's kubectl panel shows
// nothing the API did not, a tour step's question hides its answer, a tour at 1280×720 keeps
// the figure, the step's words and Back / Next on one screen, the metric cards' values read
// apart, the README link warns of a loopback address, and a version change drops a stale
// upgrade target.
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';

test('a container runtime restart: the why panel and the slider marks say what the figure draws', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const problems = await open(page, '?preset=runtime-restart&t=200');
  for (const id of ['#why-legacy', '#why-kep']) {
    const why = page.locator(id);
    await expect(why).toContainText('No pod\'s Ready changed');
    await expect(why).toContainText('Ready=False');
    await expect(why).toContainText('its container runtime is down');
    await expect(why).toContainText('tainted');
    await expect(why).not.toContainText('invisible');
  }
  // The marks: the node NotReady about 33 s into the outage, the evictions about 5m35s (the
  // runs evict at 5m35s of downtime), not the kubelet restart's grace and 5m55s.
  await expect(page.locator('.marks .mark.grace')).toHaveText('node NotReady ≈ 33s');
  await expect(page.locator('.marks .mark.evict')).toHaveText('eviction ≈ 5m35s');
  // Their labels do not overlap.
  const a = await page.locator('.marks .mark.grace').boundingBox();
  const b = await page.locator('.marks .mark.evict').boundingBox();
  expect(a.x + a.width <= b.x || b.y >= a.y + a.height - 2).toBe(true);
  await page.screenshot({ path: `${shots}/runtime-restart-words.png` });
  // Before the outage, nothing is told yet.
  await page.locator('#scrub').evaluate((el) => { el.value = '10000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await expect(page.locator('#why-kep')).toContainText('No Ready change yet');
  expect(problems).toEqual([]);
});

test('a node reboot: the kubectl panel prints nothing while the kubelet is down', async ({ page }) => {
  const problems = await open(page, '?preset=node-reboot&t=60');
  // Down from 30 s to 70 s: the API still shows every pod Running and Ready, as at 0 s.
  const rows = page.locator('.kubectl').first().locator('pre > span:not(.hdr)');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('.kubectl').first()).not.toContainText('Error');
  expect(problems).toEqual([]);
});

test('a tour step that asks hides its answer: the totals, the headers\' counters and the sentence', async ({ page }) => {
  const problems = await open(page, '?tour=kep-4781&step=2');
  await expect(page.locator('#tour-question')).toBeVisible();
  await expect(page.locator('.metrics .vals').first()).toBeHidden();
  await expect(page.locator('#teaches')).toBeHidden();
  if (await page.locator('.pdb-chart').count()) await expect(page.locator('.pdb-chart').first()).toBeHidden();
  expect(await page.locator('.veil-counts').count()).toBeGreaterThan(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tour-title')).toBeVisible();
  await expect(page.locator('.metrics .vals').first()).toBeVisible();
  await expect(page.locator('.veil-counts')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the tour from T on a 1.35 scene: no "only the legacy kubelet" note', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  await page.keyboard.press('t');
  await expect(page.locator('#tour-step')).toHaveText(/Step 1 of/);
  await expect(page.locator('#one-kubelet')).toHaveCount(0);
  expect(problems).toEqual([]);
});

for (const [w, h] of [[1280, 720], [1366, 768]]) {
  test(`a tour at ${w}×${h}: the figure, the step's words and Back / Next on one screen`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const problems = await open(page, '?tour=kep-4781&step=1');
    const steps = Number((await page.locator('#tour-step').textContent()).match(/of (\d+)/)[1]);
    for (let n = 1; n <= steps; n++) {
      await expect(page.locator('#tour-step')).toHaveText(`Step ${n} of ${steps}`);
      if (await page.locator('#tour-question').count()) await page.keyboard.press('ArrowRight');
      const fig = await page.locator('#figure').boundingBox();
      expect(fig.y, `figure of step ${n}`).toBeLessThan(h / 2);
      for (const sel of ['#tour-title', '#tour-next', '#tour-back']) {
        const b = await page.locator(sel).boundingBox();
        expect(b.y + b.height, `${sel} of step ${n}`).toBeLessThanOrEqual(h);
        expect(b.y, `${sel} of step ${n}`).toBeGreaterThanOrEqual(0);
      }
      if (n === 3) await page.screenshot({ path: `${shots}/tour-${w}x${h}-step3.png` });
      if (n < steps) await page.locator('#tour-next').click();
    }
    expect(problems).toEqual([]);
  });
}

test('the metric cards\' values read apart; the README link warns of a loopback address; a version change drops a stale upgrade', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
  const problems = await open(page, '?preset=short-restart&t=40');
  const text = await page.locator('#metric-unjustified_not_ready_s .vals').textContent();
  expect(text).not.toMatch(/\d\.\d\d+\.\d/);
  expect(text).not.toMatch(/so far\d/);
  await page.locator('#copy-readme').click();
  await expect(page.locator('#readme-warn')).toContainText("Readers can't open 127.0.0.1");
  // An upgrade 1.35 → 1.36, then the version moved to 1.36: the upgrade is dropped, not kept.
  await page.locator('#upgrade-to').selectOption('1.36');
  await page.locator('details.params summary').click();
  await page.locator('#version').selectOption('1.36');
  await expect(page.locator('#upgrade-to')).toHaveValue('');
  await expect(page.locator('#upgrade-to option[value="1.36"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a phone: the figure keeps its height while the downtime slider is dragged past the grace period', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = await open(page, '?preset=short-restart&t=60');
  const before = await page.locator('#figure').boundingBox();
  const s = await page.locator('#downtime').boundingBox();
  await page.mouse.move(s.x + s.width * 0.12, s.y + s.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(s.x + s.width * (0.12 + i * 0.04), s.y + s.height / 2);
  await expect(page.locator('#downtime-value')).not.toHaveText('20s');
  const during = await page.locator('#figure').boundingBox();
  await page.mouse.up();
  expect(during.height).toBeLessThanOrEqual(before.height + 2);
  expect(problems).toEqual([]);
});
