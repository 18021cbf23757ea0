// The downtime slider and both runs' pod lanes on one screen, at the laptop and
// presentation sizes (light and dark), after load and after a drag of the slider; and the
// phone: the figure first, readable, a compact downtime control, no sideways scroll.
// Screenshots in artifacts/screenshots/layout-*.png for a person to look at.
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { open, shots } from './helpers.mjs';

const sizes = [
  [1280, 720], [1366, 768], [1440, 900], [1920, 1080],
];

/** Each run's box (CSS px, page viewport) from the canvas's `data-groups` (figure px). */
async function runBoxes(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#figure canvas');
    const r = c.getBoundingClientRect();
    const fig = Number(c.getAttribute('width')) / (window.devicePixelRatio || 1);
    // The figure's rows (`data-rows`): the backing store may be taller (canvas.rs).
    const k = r.height / (Number(c.dataset.rows) / (window.devicePixelRatio || 1));
    return (c.getAttribute('data-groups') || '').split(';').filter(Boolean).map((g) => {
      const [y, h] = g.split(' ').map(Number);
      return { top: r.top + y * k, bottom: r.top + (y + h) * k, fig };
    });
  });
}

async function onScreen(page, label, runs = 2) {
  const vh = page.viewportSize().height;
  const s = await page.locator('#downtime').boundingBox();
  expect(s, `${label}: the slider is laid out`).not.toBeNull();
  expect(s.y, `${label}: slider top`).toBeGreaterThanOrEqual(0);
  expect(s.y + s.height, `${label}: slider bottom`).toBeLessThanOrEqual(vh);
  // The slider's two marks (grace, eviction) do not cover each other.
  const g = await page.locator('.mark.grace').boundingBox();
  const e = await page.locator('.mark.evict').boundingBox();
  const apart = g.x + g.width <= e.x + 1 || e.x + e.width <= g.x + 1;
  expect(apart, `${label}: the grace and eviction marks overlap`).toBe(true);
  const boxes = await runBoxes(page);
  expect(boxes.length, `${label}: ${runs} runs`).toBe(runs);
  for (const [i, b] of boxes.entries()) {
    expect(b.top, `${label}: run ${i + 1} top`).toBeGreaterThanOrEqual(-1);
    expect(b.bottom, `${label}: run ${i + 1} bottom (viewport ${vh})`).toBeLessThanOrEqual(vh + 1);
  }
}

/** Drags the downtime slider's thumb from its place to `frac` of the track. */
async function drag(page, frac) {
  const s = await page.locator('#downtime').boundingBox();
  const v = Number(await page.locator('#downtime').inputValue());
  const max = Number(await page.locator('#downtime').getAttribute('max'));
  const x0 = s.x + 8 + (s.width - 16) * (v / max);
  await page.mouse.move(x0, s.y + s.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(x0 + (s.x + 8 + (s.width - 16) * frac - x0) * (i / 8), s.y + s.height / 2);
  }
  await page.mouse.up();
}

for (const theme of ['light', 'dark']) {
  for (const [w, h] of sizes) {
    test(`slider and both runs on screen at ${w}×${h} ${theme}`, async ({ browser }) => {
      const ctx = await browser.newContext({ colorScheme: theme, viewport: { width: w, height: h } });
      const page = await ctx.newPage();
      const problems = await open(page, '?t=60');
      await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
      await page.screenshot({ path: `${shots}/layout-${w}x${h}-${theme}-load.png` });
      await onScreen(page, 'after load');
      const before = await page.locator('#downtime-value').textContent();
      await drag(page, 0.75);
      await expect(page.locator('#downtime-value')).not.toHaveText(before);
      await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
      await onScreen(page, 'after a drag');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await page.screenshot({ path: `${shots}/layout-${w}x${h}-${theme}.png` });
      // Everything stays reachable for a screen reader and the keyboard: axe, zero serious or
      // critical (WCAG 2 A and AA).
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
      expect(problems).toEqual([]);
      await ctx.close();
    });
  }
}

// A third lane (the ContainerScopedProbes proposal, kubernetes PR #140704, beside legacy and
// KEP-4781): the
// three runs and the slider on one screen at the laptop and presentation sizes.
for (const [w, h] of sizes) {
  test(`three runs (csp=1) and the slider on screen at ${w}×${h}`, async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    const problems = await open(page, '?version=1.38&csp=1&t=60');
    await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
    await onScreen(page, 'after load', 3);
    await drag(page, 0.75);
    await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
    await onScreen(page, 'after a drag', 3);
    await page.screenshot({ path: `${shots}/layout-${w}x${h}-csp.png` });
    expect(problems).toEqual([]);
    await ctx.close();
  });
}

for (const theme of ['light', 'dark']) {
  test(`phone 390×844 ${theme}: slider and playback first, the figure under them, readable`, async ({ browser }) => {
    const ctx = await browser.newContext({
      colorScheme: theme, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3,
    });
    const page = await ctx.newPage();
    const problems = await open(page, '?t=60');
    await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
    await page.screenshot({ path: `${shots}/layout-phone-${theme}-load.png` });
    await onScreen(page, 'phone');
    // The smallest text as drawn on the screen (figure px × the figure's scale).
    const drawn = await page.evaluate(() => {
      const c = document.querySelector('#figure canvas');
      const k = c.getBoundingClientRect().width / (Number(c.getAttribute('width')) / window.devicePixelRatio);
      return Number(c.getAttribute('data-text-min')) * k;
    });
    expect(drawn).toBeGreaterThanOrEqual(9);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${shots}/layout-phone-${theme}.png` });
    await page.screenshot({ path: `${shots}/layout-phone-${theme}-full.png`, fullPage: true });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });
}

// For the presenter: in presentation view a QR code of the link to this screen (the
// everyday view, same settings), small in the header; Q or a click shows it large, Esc closes.
test('presentation view: a QR code of the current link; Q shows it large, Esc closes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await open(page, '?preset=long-restart&t=60&present=1');
  await expect(page.locator('#qr-open svg path')).toHaveCount(1);
  const d = await page.locator('#qr-open svg path').getAttribute('d');
  expect(d.length).toBeGreaterThan(200);
  await page.keyboard.press('q');
  await expect(page.locator('#qr-big')).toBeVisible();
  // The link's words come in the dialog's rendering (not the task that shows it): wait for them.
  await expect(page.locator('#qr-big .qr-link')).toContainText('preset=long-restart');
  await expect(page.locator('#qr-big .qr-link')).not.toContainText('present=1');
  const big = await page.locator('#qr-big svg').boundingBox();
  expect(big.width).toBeGreaterThanOrEqual(400);
  await page.screenshot({ path: `${shots}/layout-present-qr-1280x720.png` });
  // A new setting, a new code.
  await page.keyboard.press('Escape');
  await expect(page.locator('#qr-big')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.keyboard.press('1');
  await expect.poll(async () => page.locator('#qr-open svg path').getAttribute('d')).not.toEqual(d);
  // Leaving presentation view: no code.
  await page.keyboard.press('Escape');
  await expect(page.locator('#qr-open')).toHaveCount(0);
  expect(problems).toEqual([]);
});

// On a phone the node's rows come into the figure when a drag passes the grace period: the
// slider under the finger and Play/Stop must not move, and both stay on screen.
test('phone 390×844: a drag across the grace period does not move the slider or Play', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
  const page = await ctx.newPage();
  const problems = await open(page, '?preset=short-restart&t=60');
  const s0 = await page.locator('#downtime').boundingBox();
  const p0 = await page.locator('#play').boundingBox();
  expect(p0.y + p0.height).toBeLessThanOrEqual(844);
  const max = Number(await page.locator('#downtime').getAttribute('max'));
  const v = Number(await page.locator('#downtime').inputValue());
  const y = s0.y + s0.height / 2;
  const at = (frac) => s0.x + 8 + (s0.width - 16) * frac;
  await page.mouse.move(at(v / max), y);
  await page.mouse.down();
  const ys = [];
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(at(v / max + (0.75 - v / max) * (i / 12)), y);
    await page.waitForTimeout(60);
    ys.push((await page.locator('#downtime').boundingBox()).y);
  }
  await page.mouse.up();
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  ys.push((await page.locator('#downtime').boundingBox()).y);
  for (const y1 of ys) expect(Math.abs(y1 - s0.y)).toBeLessThanOrEqual(1);
  const p1 = await page.locator('#play').boundingBox();
  expect(Math.abs(p1.y - p0.y)).toBeLessThanOrEqual(1);
  await expect(page.locator('#figure canvas')).toContainText('Unknown');
  await page.screenshot({ path: `${shots}/layout-phone-after-drag.png` });
  expect(problems).toEqual([]);
  await ctx.close();
});
