// The operator's knobs: the number of pods, every probe field of every container,
// downtime up to an hour — in the form and in the link, validated by the model in Kubernetes' words.
import { test, expect } from '@playwright/test';
import { open, shots, figureOf } from './helpers.mjs';
import AxeBuilder from '@axe-core/playwright';

const svgOf = (page) => figureOf(page);
const search = (page) => page.evaluate(() => location.search);

async function openParams(page) {
  await page.locator('details.params summary').click();
  await expect(page.locator('#pods')).toBeVisible();
}

async function setField(page, id, value) {
  const el = page.locator(`#${id}`);
  await el.fill(value);
  await el.blur();
}

test('12 pods: the kubectl panels and the figure show them, the link carries pods=12', async ({ page }) => {
  const problems = await open(page, '?t=0');
  await openParams(page);
  await expect(page.locator('#pods')).toHaveValue('3');
  await setField(page, 'pods', '12');
  await expect(page.locator('.kubectl pre').first()).toContainText('web-11');
  await expect(page.locator('.kubectl pre').first()).not.toContainText('web-12');
  // The figure fits the window: the pods it leaves out are counted, and one click
  // draws them all.
  await expect(page.locator('#figure canvas').first()).toContainText('more pods not drawn');
  await page.locator('#every-pod').click();
  await expect(page.locator('#figure canvas').first()).toContainText('web-11');
  await expect(page.locator('#every-pod')).toHaveText('Fit the figure to the window');
  await expect.poll(() => search(page)).toContain('pods=12');
  // More than the figure ever draws (24 per run): the rest are counted under the lanes.
  await setField(page, 'pods', '30');
  await expect(page.locator('#figure canvas').first()).toContainText('6 more pods not drawn');
  await expect(page.locator('.kubectl pre').first()).toContainText('web-29');
  expect(problems).toEqual([]);
});

test('a liveness periodSeconds edit changes the figure and the link; reload reproduces it', async ({ page }) => {
  const problems = await open(page, '?preset=startup-probe&t=60');
  await openParams(page);
  const period = page.locator('#probe-app-livenessProbe-periodSeconds');
  // The scenario's own values are in the inputs.
  await expect(period).toHaveValue('10');
  await expect(page.locator('#probe-app-startupProbe-failureThreshold')).toHaveValue('30');
  const before = await svgOf(page);
  await setField(page, 'probe-app-livenessProbe-periodSeconds', '3');
  await expect.poll(() => svgOf(page)).not.toEqual(before);
  await expect.poll(() => search(page)).toContain('app.livenessProbe.periodSeconds=3');
  // Every other field too, and adding/removing a probe.
  await setField(page, 'probe-app-livenessProbe-initialDelaySeconds', '4');
  await setField(page, 'probe-app-readinessProbe-timeoutSeconds', '2');
  await setField(page, 'probe-app-readinessProbe-successThreshold', '2');
  await setField(page, 'probe-app-startupProbe-execSeconds', '0.5');
  await page.locator('button[aria-label="Remove app startupProbe"]').click();
  await expect(page.locator('#probe-app-startupProbe-add')).toBeVisible();
  await expect.poll(() => search(page)).toContain('app.startupProbe=off');
  const q = await search(page);
  for (const k of ['app.livenessProbe.initialDelaySeconds=4', 'app.readinessProbe.timeoutSeconds=2', 'app.readinessProbe.successThreshold=2']) {
    expect(q).toContain(k);
  }
  const after = await svgOf(page);
  await page.reload();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  expect(await svgOf(page)).toEqual(after);
  await openParams(page);
  await expect(period).toHaveValue('3');
  await expect(page.locator('#probe-app-startupProbe-add')).toBeVisible();
  // Adding a probe gives it Kubernetes' defaults.
  await page.locator('#probe-app-startupProbe-add').click();
  await expect(page.locator('#probe-app-startupProbe-periodSeconds')).toHaveValue('10');
  await expect(page.locator('#probe-app-startupProbe-failureThreshold')).toHaveValue('3');
  expect(problems).toEqual([]);
});

test('invalid knobs: the Kubernetes message by the input, nothing simulated, nothing in the link', async ({ page }) => {
  const problems = await open(page, '?preset=startup-probe&t=60');
  await openParams(page);
  const svg = await svgOf(page);
  const cases = [
    ['probe-app-livenessProbe-periodSeconds', '0', 'containers[app].livenessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0', '10', 'app.livenessProbe.periodSeconds'],
    ['pods', '111', "pods must be between 1 and 110, got 111: 110 is the kubelet's default maxPods", '2', 'pods=111'],
    ['probe-app-livenessProbe-successThreshold', '2', 'containers[app].livenessProbe.successThreshold must be 1 for a liveness probe, got 2', '1', 'app.livenessProbe.successThreshold'],
    ['probe-app-startupProbe-failureThreshold', 'x', 'containers[app].startupProbe.failureThreshold must be a whole number; got "x"', '30', 'app.startupProbe.failureThreshold'],
  ];
  for (const [id, bad, message, good, key] of cases) {
    await setField(page, id, bad);
    await expect(page.locator(`#${id}-error`)).toContainText(message);
    await expect(page.locator(`#${id}`)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#rejected')).toContainText(message);
    await expect(page.locator('main')).toHaveAttribute('data-rejected', '1');
    expect(await svgOf(page)).toEqual(svg);
    expect(await search(page)).not.toContain(key);
    await page.screenshot({ path: `${shots}/knobs-rejected-${id}.png` });
    await setField(page, id, good);
    await expect(page.locator(`#${id}-error`)).toBeEmpty();
    await expect(page.locator('main')).toHaveAttribute('data-rejected', '0');
  }
  // A rejected value in a link: one short notice, the default used.
  await page.goto('?pods=111&app.readinessProbe.periodSeconds=0&t=0');
  await expect(page.locator('#url-notice')).toContainText('pods="111" ignored');
  await expect(page.locator('#url-notice')).toContainText('app.readinessProbe.periodSeconds="0" ignored');
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test('downtime=45m in the link; the slider reaches an hour with the marks under the thumb', async ({ page }) => {
  const problems = await open(page, '?downtime=45m&t=0');
  await expect(page.locator('#url-notice')).toHaveCount(0);
  await expect(page.locator('#downtime-value')).toHaveText('45m');
  await expect.poll(() => search(page)).toContain('downtime=2700');
  const slider = page.locator('#downtime');
  const max = Number(await slider.getAttribute('max'));
  await slider.focus();
  await page.keyboard.press('End');
  await expect(page.locator('#downtime-value')).toHaveText('1h');
  // The eviction mark (≈ 5m55s) sits under the thumb's centre at the eviction preset's 6 min.
  await page.locator('#preset').selectOption('eviction');
  await expect(page.locator('#downtime-value')).toHaveText('6m');
  const pos = Number(await slider.inputValue());
  const mark = await page.locator('.mark.evict').boundingBox();
  const b = await slider.boundingBox();
  const thumb = b.x + 8 + (b.width - 16) * pos / max;
  const line = (await page.locator('.mark.evict').evaluate((e) => e.classList.contains('end'))) ? mark.x + mark.width : mark.x;
  expect(Math.abs(line - thumb)).toBeLessThan(8);
  expect(max).toBeGreaterThan(170);
  expect(problems).toEqual([]);
});

test('320 px wide with the parameters open: no page overflow, the tables scroll inside; axe clean', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const problems = await open(page, '?preset=report-136910-sidecar-startup&t=0');
  await openParams(page);
  await expect(page.locator('#probe-sidecar-startupProbe-periodSeconds')).toHaveValue('1');
  await expect(page.locator('#probe-app-readinessProbe-periodSeconds')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const region = page.locator('.probe-scroll').first();
  const box = await region.boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await page.screenshot({ path: `${shots}/knobs-320.png`, fullPage: true });
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    // A message showing, too.
    await setField(page, 'probe-app-readinessProbe-periodSeconds', '0');
    await expect(page.locator('#probe-app-readinessProbe-periodSeconds-error')).not.toBeEmpty();
    const axe = await new AxeBuilder({ page }).include('details.params').analyze();
    expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${theme}: ${v.id}`)).toEqual([]);
    await setField(page, 'probe-app-readinessProbe-periodSeconds', '10');
  }
  expect(problems).toEqual([]);
});
