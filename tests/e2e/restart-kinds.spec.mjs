// What restarts, beside the downtime slider: the kubelet, the container runtime or the whole node,
// and an optional upgrade target — in the page, the address, a reload, the figure's words and the
// model's refusals next to the choice; screenshots at 1440×900 and 390×844 for a person to judge
// (artifacts/screenshots/restart-kinds-*.png).
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';

const param = async (page, k) => new URLSearchParams(await page.evaluate(() => location.search)).get(k);
// The figure's words (its texts and tooltips), once it has settled.
const words = async (page) => {
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  return page.locator('#figure .rs-words p').allTextContents();
};

test('"container runtime" for the slider\'s restart: the address, the figure, K and a reload', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart&t=0');
  await expect(page.locator('#restart-what')).toHaveValue('kubelet');
  await expect(page.locator('#upgrade-to')).toBeEnabled();
  await page.locator('#restart-what').selectOption('runtime');
  await expect.poll(() => param(page, 'restarts')).toBe('30:20:runtime');
  expect(await param(page, 'downtime')).toBeNull();
  await expect(page.locator('label[for=downtime]')).toContainText('Runtime downtime');
  await expect(page.locator('#upgrade-to')).toBeDisabled();
  await expect(page.locator('#kubelet-toggle')).toHaveText('■ Stop runtime');
  await expect.poll(async () => (await words(page)).filter((t) => t.startsWith('container runtime restart 30s–50s (20s)')).length).toBe(2);
  expect(await words(page)).toContain('runtime down');
  // The kind's words come from the model (RestartKind::label).
  await expect(page.locator('#restart-what option:checked')).toHaveText('container runtime restart');
  // Reloading the address restores the choice.
  await page.reload();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect(page.locator('#restart-what')).toHaveValue('runtime');
  await expect(page.locator('#upgrade-to')).toBeDisabled();
  // K adds a restart of the chosen kind at the playhead.
  await page.locator('#scrub').evaluate((el) => { el.value = '80000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.locator('body').press('k');
  await expect.poll(() => param(page, 'restarts')).toMatch(/^30:20:runtime,80:\d+:runtime$/);
  await expect(page.locator('#kubelet-toggle')).toHaveText('▶ Start runtime');
  // The list names each restart's kind.
  await page.locator('details.params > summary').click();
  await expect(page.locator('#restart-list td.what')).toHaveText(['runtime', 'runtime']);
  expect(problems).toEqual([]);
});

test('an upgrade target: only later releases, kept by the address, labelled in the figure', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart&version=1.35&t=0');
  const offered = await page.locator('#upgrade-to option').allTextContents();
  expect(offered[0]).toBe('none');
  expect(offered).toContain('kubelet → 1.36');
  expect(offered).not.toContain('kubelet → 1.35');
  expect(offered.length).toBeLessThanOrEqual(6);
  await page.locator('#upgrade-to').selectOption('1.36');
  await expect.poll(() => param(page, 'restarts')).toBe('30:20:kubelet:1.36');
  await expect.poll(async () => (await words(page)).filter((t) => t === 'kubelet → 1.36').length).toBeGreaterThan(0);
  await page.reload();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect(page.locator('#upgrade-to')).toHaveValue('1.36');
  // A node reboot keeps the upgrade; a runtime restart cannot have one.
  await page.locator('#restart-what').selectOption('node');
  await expect.poll(() => param(page, 'restarts')).toBe('30:20:node:1.36');
  expect(await words(page)).toContain('node down (reboot)');
  await page.locator('#restart-what').selectOption('runtime');
  await expect.poll(() => param(page, 'restarts')).toBe('30:20:runtime');
  await expect(page.locator('#upgrade-to')).toHaveValue('');
  expect(problems).toEqual([]);
});

test('a restart overlapping a node reboot: the model\'s words next to the choice, the page keeps working', async ({ page }) => {
  // A runtime restart inside a kubelet restart: both simulated.
  const problems = await open(page, '?preset=short-restart&restarts=30:60,50:10:runtime&t=0');
  await expect(page.locator('main')).toHaveAttribute('data-rejected', '0');
  // The first restart made a node reboot: nothing may overlap it.
  await page.locator('#restart-what').selectOption('node');
  await expect(page.locator('#restart-what-error')).toContainText('kubelet.restarts[1].at_s');
  await expect(page.locator('#restart-what-error')).toContainText('node reboot');
  await expect(page.locator('main')).toHaveAttribute('data-rejected', '1');
  await expect(page.locator('#figure canvas').first()).toBeVisible(); // the last valid runs stay
  expect(await param(page, 'restarts')).toBe('30:60,50:10:runtime'); // the link holds valid settings only
  // Back to a kubelet restart from the same choice: simulated again.
  await page.locator('#restart-what').selectOption('kubelet');
  await expect(page.locator('#restart-what-error')).toBeHidden();
  await expect(page.locator('main')).toHaveAttribute('data-rejected', '0');
  // A bad kind in a link: one notice, the preset's restart.
  await page.goto('?restarts=30:20:reboot');
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect(page.locator('#url-notice')).toContainText('restarts="30:20:reboot" ignored');
  expect(problems).toEqual([]);
});

for (const [w, h, name, mobile] of [[1440, 900, 'wide', false], [390, 844, 'phone', true]]) {
  test(`${w}×${h}: the choice beside the slider, the slider and the figure on one screen`, async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: mobile ? 3 : 1 });
    const page = await ctx.newPage();
    const problems = await open(page, '?preset=short-restart&version=1.35&t=60');
    await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
    const top = async () => (await page.locator('#figure canvas').boundingBox()).y;
    const before = await top();
    await page.locator('#restart-what').selectOption('node');
    await page.locator('#upgrade-to').selectOption('1.36');
    await expect.poll(() => param(page, 'restarts')).toBe('30:20:node:1.36');
    await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
    // Nothing above the figure moved (the choice's row is always there).
    expect(await top()).toBe(before);
    const box = async (sel) => page.locator(sel).boundingBox();
    const [slider, choice, marks, fig] = [await box('#downtime'), await box('.restart-kind'), await box('.downtime .marks'), await box('#figure canvas')];
    for (const [label, b] of [['slider', slider], ['choice', choice], ['figure top', { ...fig, height: 40 }]]) {
      expect(b.y, label).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height, label).toBeLessThanOrEqual(h + 1);
      expect(b.x + b.width, label).toBeLessThanOrEqual(w + 1);
    }
    // The choice sits under the slider's marks, overlapping neither them nor the figure.
    expect(choice.y).toBeGreaterThanOrEqual(marks.y + marks.height - 1);
    const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(choice, fig)).toBe(false);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${shots}/restart-kinds-${name}.png` });
    expect(problems).toEqual([]);
    await ctx.close();
  });
}
