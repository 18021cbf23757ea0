// Issue 10, first pass: never a false picture, history, durations, the playhead tells the story,
// keyboard, kubectl panels, long notices, the help dialog.
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';

const clock = (page) => page.locator('#clock');

// A page that may open without a figure (a rejected setting): collects the same problems as open().
async function openRaw(page, path) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(path);
  await expect(page.locator('#downtime')).toBeVisible();
  return problems;
}

test('a link with a rejected grace period: nothing simulated, the reason by the field and in the figure area', async ({ page }) => {
  const problems = await openRaw(page, '?grace=12&t=30');
  const box = page.locator('#rejected');
  await expect(box).toBeVisible();
  await expect(box).toContainText('Nothing was simulated');
  await expect(box).toContainText('--node-monitor-grace-period must be above 15.4');
  await expect(page.locator('#grace')).toBeVisible(); // the panel opened
  await expect(page.locator('#grace')).toHaveValue('12');
  await expect(page.locator('#grace-error')).toContainText('--node-monitor-grace-period must be above 15.4');
  await expect(page.locator('#figure svg')).toHaveCount(0);
  await expect(page.getByText('Never: the restart was invisible')).toHaveCount(0);
  await expect(page.locator('.metrics')).toBeHidden();
  await page.screenshot({ path: `${shots}/rejected-link.png` });
  // Fixing the field simulates and writes the now valid setting.
  await page.locator('#grace').fill('40');
  await page.locator('#grace').blur();
  await expect(box).toHaveCount(0);
  await expect(page.locator('#figure svg').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => location.search)).toContain('grace=40');
  expect(problems).toEqual([]);
});

test('a rejected edit is never simulated, written to the address or copied; the previous run is marked', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: 'http://127.0.0.1:4173' });
  const problems = await open(page, '?t=30');
  const svg = await page.locator('#figure svg').innerHTML();
  await page.locator('details.params summary').click();
  await page.locator('#grace').fill('12');
  await page.locator('#grace').blur();
  await expect(page.locator('#rejected')).toContainText('--node-monitor-grace-period must be above 15.4');
  await expect(page.locator('#rejected')).toContainText('the previous valid setting, not this one');
  await expect(page.locator('main')).toHaveAttribute('data-rejected', '1');
  expect(await page.locator('#figure svg').innerHTML()).toEqual(svg);
  await expect(page.getByText('Never: the restart was invisible')).toBeHidden();
  const search = await page.evaluate(() => location.search);
  expect(search).toContain('grace=50');
  expect(search).not.toContain('grace=12');
  await page.locator('#copy-link').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain('grace=50');
  expect(link).not.toContain('grace=12');
  // periodSeconds 0: the field's own check, in Kubernetes' name.
  await page.locator('#grace').fill('50');
  await page.locator('#grace').blur();
  await page.locator('#period').fill('0');
  await page.locator('#period').blur();
  await expect(page.locator('#rejected')).toContainText('readinessProbe.periodSeconds must be a whole number from 1 to 300');
  expect(await page.evaluate(() => location.search)).toContain('period=10');
  expect(problems).toEqual([]);
});

test('a settings change pushes a history entry: Back returns to the previous settings', async ({ page }) => {
  const problems = await open(page, '?t=30');
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  const n0 = await page.evaluate(() => history.length);
  await page.locator('#preset').selectOption('eviction');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('preset=eviction');
  expect(await page.evaluate(() => history.length)).toBe(n0 + 1);
  await page.goBack();
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  expect(page.url()).toContain('preset=short-restart');
  await expect(page.locator('#figure svg').first()).toBeVisible();
  await page.goForward();
  await expect(page.locator('#preset')).toHaveValue('eviction');
  // The playhead replaces the entry.
  const n1 = await page.evaluate(() => history.length);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await page.evaluate(() => history.length)).toBe(n1);
  expect(problems).toEqual([]);
});

test('grace, toleration and first sync take durations in the form and the link', async ({ page }) => {
  const problems = await open(page, '?toleration=5m&sync=2s&grace=1m&t=30');
  await expect(page.locator('#url-notice')).toHaveCount(0);
  await page.locator('details.params summary').click();
  await expect(page.locator('#toleration')).toHaveValue('5m');
  await expect(page.locator('#sync, #first-sync')).toHaveValue('2s');
  await expect(page.locator('#grace')).toHaveValue('1m');
  await page.locator('#grace').fill('1m30s');
  await page.locator('#grace').blur();
  await expect(page.locator('#grace-error')).toBeEmpty();
  await expect(page.locator('#rejected')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => location.search)).toContain('grace=1m30s');
  await expect(page.locator('.mark.grace')).toContainText('1m30s');
  expect(problems).toEqual([]);
});
