// Never a false picture (a setting Kubernetes rejects is not simulated), history, durations, the playhead tells the story,
// keyboard, kubectl panels, long notices, the help dialog.
import { test, expect } from '@playwright/test';
import { open, shots, figureOf, figureGeometry } from './helpers.mjs';
import AxeBuilder from '@axe-core/playwright';

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
  await expect(page.locator('#figure canvas[data-groups]')).toHaveCount(0);
  await expect(page.locator('#figure canvas')).toBeHidden();
  await expect(page.getByText('the restart was invisible')).toHaveCount(0);
  await expect(page.locator('.metrics')).toBeHidden();
  await page.screenshot({ path: `${shots}/rejected-link.png` });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => v.id)).toEqual([]);
  // Fixing the field simulates and writes the now valid setting.
  await page.locator('#grace').fill('40');
  await page.locator('#grace').blur();
  await expect(box).toHaveCount(0);
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => location.search)).toContain('grace=40');
  expect(problems).toEqual([]);
});

test('a rejected edit is never simulated, written to the address or copied; the previous run is marked', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
  const problems = await open(page, '?t=30');
  const svg = await figureOf(page);
  await page.locator('details.params summary').click();
  await page.locator('#grace').fill('12');
  await page.locator('#grace').blur();
  await expect(page.locator('#rejected')).toContainText('--node-monitor-grace-period must be above 15.4');
  await expect(page.locator('#rejected')).toContainText('the previous valid setting, not this one');
  await expect(page.locator('main')).toHaveAttribute('data-rejected', '1');
  await expect(page.locator('footer .perf')).toHaveText('nothing simulated: a setting is rejected');
  expect(await figureOf(page)).toEqual(svg);
  await expect(page.getByText('the restart was invisible')).toBeHidden();
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
  await page.locator('#probe-app-readinessProbe-periodSeconds').fill('0');
  await page.locator('#probe-app-readinessProbe-periodSeconds').blur();
  await expect(page.locator('#rejected')).toContainText('containers[app].readinessProbe.periodSeconds must be at least 1 (seconds, an int32: at most 2147483647), got 0');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('grace=50');
  expect(await page.evaluate(() => location.search)).not.toContain('periodSeconds');
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
  await expect(page.locator('#figure canvas').first()).toBeVisible();
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

test('why Ready changed and the kubectl panels follow the playhead; the metric cards show whole-run totals with the share so far', async ({ page }) => {
  const problems = await open(page, '?t=0');
  await expect(page.locator('#why-legacy')).toContainText('No Ready change yet (up to 0s)');
  await expect(page.locator('#why-legacy')).not.toContainText('→ NotReady');
  await expect(page.locator('#why-kep')).toContainText('the restart was invisible');
  await expect(page.locator('.kubectl').first().locator('pre > span:not(.hdr)')).toHaveCount(3);
  // The totals the figure's header prints, at every playhead; the share so far beside them.
  await expect(page.locator('#metrics-scope')).toContainText('Whole run (0s to');
  await expect(page.locator('#metrics-scope')).toContainText('so far: up to the playhead (0s)');
  await expect(page.locator('#metric-ready_transitions .vals b')).toHaveText(['6', '0']);
  await expect(page.locator('#metric-ready_transitions .legacy .sofar')).toHaveText('0 so far');
  await expect(page.locator('#metric-ready_transitions .kep .sofar')).toHaveText('');
  await page.locator('#scrub').evaluate((el) => { el.value = '60000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await expect(clock(page)).toHaveText('1m');
  await expect(page.locator('#why-legacy')).toContainText('→ NotReady');
  await expect(page.locator('#why-legacy')).toContainText('up to 1m');
  expect(await page.locator('.kubectl').first().locator('pre > span:not(.hdr)').count()).toBeGreaterThan(3);
  await expect(page.locator('#metrics-scope')).toContainText('up to the playhead (1m)');
  // At 1m the legacy kubelet has flapped some pods (the last pod's flap ends later): 4 so far.
  await expect(page.locator('#metric-ready_transitions .vals b')).toHaveText(['6', '0']);
  await expect(page.locator('#metric-ready_transitions .legacy .sofar')).toHaveText('4 so far');
  await expect(page.locator('#metric-ready_transitions .delta')).toHaveText('KEP −6 ▼ better');
  expect(problems).toEqual([]);
});

test('keyboard: Space after a click plays/pauses, Esc leaves presentation view, P and digits work on a focused slider', async ({ page }) => {
  const problems = await open(page, '?t=30');
  // A clicked button does not keep Space.
  await page.locator('#zoom').click();
  await expect(page.locator('#zoom')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('#play')).toContainText('Play');
  await page.keyboard.press(' ');
  await expect(page.locator('#play')).toContainText('Pause');
  await expect(page.locator('#zoom')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(' ');
  await expect(page.locator('#play')).toContainText('Play');
  // A button reached with Tab still presses with Space.
  await page.locator('#zoom').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(page.locator('#zoom')).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.locator('#zoom')).toHaveAttribute('aria-pressed', 'false');
  // Esc leaves presentation view.
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-present', '0');
  // On a focused slider: P and digits work, arrows still move the slider.
  await page.locator('#downtime').focus();
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.keyboard.press('Escape');
  await page.locator('#downtime').focus();
  await page.keyboard.press('3');
  await expect(page.locator('#preset')).toHaveValue('eviction');
  await page.locator('#downtime').focus();
  const before = await page.locator('#downtime-value').innerText();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#downtime-value')).not.toHaveText(before);
  expect(problems).toEqual([]);
});

test('kubectl panels: focusable scroll regions with every line, no "Deleted", the comment whole at 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const problems = await open(page, '?preset=eviction&t=600');
  const pre = page.locator('.kubectl pre').first();
  await expect(pre).toHaveAttribute('tabindex', '0');
  await expect(pre).toHaveAttribute('aria-label', /kubectl get pods -w, 1\.35 · legacy \(opt-in gate\)/);
  const lines = await pre.locator(':scope > span:not(.hdr)').count();
  expect(lines).toBeGreaterThan(14);
  await expect(pre).not.toContainText('Deleted');
  // One printed line per row (the header included), each starting with its time.
  const printed = (await pre.innerText()).trim().split('\n');
  expect(printed.length).toBe(lines + 1);
  expect(printed.slice(1).every((l) => /^\d/.test(l))).toBeTruthy();
  await expect(pre).toContainText('pod deleted');
  // Scrolls instead of dropping lines; no comment is cut off at the right edge.
  const m = await pre.evaluate((el) => ({
    sh: el.scrollHeight, ch: el.clientHeight, sw: el.scrollWidth, cw: el.clientWidth,
    cut: [...el.querySelectorAll('.cond')].filter((c) => c.getBoundingClientRect().right > el.getBoundingClientRect().right + 1).length,
  }));
  expect(m.sh).toBeGreaterThan(m.ch);
  expect(m.sw).toBeLessThanOrEqual(m.cw + 1);
  expect(m.cut).toBe(0);
  await pre.focus();
  await expect(pre).toBeFocused();
  const axe = await new AxeBuilder({ page }).withRules(['scrollable-region-focusable']).analyze();
  expect(axe.violations).toEqual([]);
  await page.locator('.kubectl').first().screenshot({ path: `${shots}/kubectl-1280.png` });
  expect(problems).toEqual([]);
});

test('hundreds of unknown parameters: a short notice with the first few and a count; help opens at its top', async ({ page }) => {
  const junk = Array.from({ length: 300 }, (_, i) => `junk${i}=${'x'.repeat(20)}`).join('&');
  const problems = await open(page, `?t=10&${junk}`);
  const notice = page.locator('#url-notice');
  await expect(notice).toContainText('"junk0" is not a RestartScope parameter');
  await expect(notice).toContainText('and 297 more');
  await expect(notice.locator('li')).toHaveCount(4);
  expect((await notice.boundingBox()).height).toBeLessThan(220);
  await page.locator('#notice-dismiss').click();
  await page.setViewportSize({ width: 1000, height: 400 });
  await page.keyboard.press('?');
  await expect(page.locator('#help')).toBeVisible();
  await expect(page.locator('#help-close')).toBeFocused();
  expect(await page.locator('#help').evaluate((el) => el.scrollTop)).toBe(0);
  await expect(page.locator('#help-title')).toBeInViewport();
  expect(problems).toEqual([]);
});

for (const width of [480, 720]) {
  test(`embed at ${width} px in a 560-px frame: the figure first, both runs' lanes without scrolling`, async ({ page }) => {
    await page.setViewportSize({ width: width + 40, height: 800 });
    await page.goto('embed-example.html');
    await page.locator('#restartscope').evaluate((f, w) => {
      f.style.width = `${w}px`; f.style.height = '560px'; f.style.minHeight = '0'; f.style.aspectRatio = 'auto';
    }, width);
    const frame = page.frameLocator('#restartscope');
    await expect(frame.locator('#figure canvas').first()).toBeVisible();
    const f = page.frame({ url: /embed=1/ });
    const box = await f.evaluate(() => {
      const r = document.querySelector('#figure canvas').getBoundingClientRect();
      const c = document.querySelector('#downtime').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, h: innerHeight, controls: c.top, scroll: scrollY };
    });
    expect(box.scroll).toBe(0);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(box.h);
    expect(box.controls).toBeGreaterThan(box.top); // the figure comes before the controls
    await expect(frame.locator('#figure canvas[data-groups]').first()).toBeVisible();
    await page.screenshot({ path: `${shots}/embed-${width}-560.png` });
  });
}

const figureBox = async (page) => {
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  return { ...await page.evaluate(figureGeometry), ...await page.evaluate(() => {
  const p = document.querySelector('#figure .playhead').getBoundingClientRect();
  const bar = document.querySelector('main .playback').getBoundingClientRect();
  return {
    vh: innerHeight, vw: innerWidth,
    playhead: p.left, playheadTop: p.top, playheadBottom: p.bottom, barBottom: bar.bottom, scroll: scrollY,
  };
}) };
};

// Both runs' groups, the axis and the playhead on the first screen, under the playback bar.
function expectWholeOnScreen(b) {
  expect(b.scroll).toBe(0);
  expect(b.top).toBeGreaterThanOrEqual(b.barBottom - 1);
  expect(b.bottom).toBeLessThanOrEqual(b.vh);
  expect(b.right).toBeLessThanOrEqual(b.vw);
  expect(b.groups.length).toBe(2);
  for (const g of b.groups) {
    expect(g.top).toBeGreaterThanOrEqual(0);
    expect(g.bottom).toBeLessThanOrEqual(b.vh);
    expect(g.left).toBeGreaterThanOrEqual(0);
    expect(g.right).toBeLessThanOrEqual(b.vw);
  }
  expect(b.playhead).toBeGreaterThan(b.left);
  expect(b.playhead).toBeLessThan(b.right);
  expect(b.playheadTop).toBeGreaterThanOrEqual(b.barBottom - 1);
  expect(b.playheadBottom).toBeLessThanOrEqual(b.vh);
}

test('presentation view: the compact figure under the playback bar; both runs whole at 1920×1080 and 1280×720, text ≥ 12 px at 1280×720', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await open(page, '?present=1&t=40');
  // The compact layout: no lease-age or probe lanes in presentation view.
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  await expect(page.locator('#figure .rs-words p', { hasText: 'lease age' })).toHaveCount(0);
  let b = await figureBox(page);
  expectWholeOnScreen(b);
  expect(b.minFont).toBeGreaterThanOrEqual(12);
  await page.screenshot({ path: `${shots}/present-1920x1080.png` });
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect.poll(async () => (await figureBox(page)).right).toBeLessThanOrEqual(1280);
  b = await figureBox(page);
  expectWholeOnScreen(b);
  expect(b.minFont).toBeGreaterThanOrEqual(12);
  console.log(`presentation 1280×720: figure y ${b.top.toFixed(0)}–${b.bottom.toFixed(0)}, groups ${b.groups.map((g) => `${g.top.toFixed(0)}–${g.bottom.toFixed(0)}`).join(', ')}, smallest text ${b.minFont.toFixed(2)} px`);
  // The playback bar is one line on a 1280-px projector (a second line took the figure's room).
  const bar = await page.evaluate(() => [document.querySelector('.playback').clientHeight, document.querySelector('#play').offsetHeight]);
  expect(bar[0], 'playback bar wraps at 1280×720').toBeLessThan(bar[1] * 1.8);
  await page.screenshot({ path: `${shots}/present-1280x720.png` });
  // Dark theme: the same geometry.
  await page.goto('?present=1&t=40&theme=dark');
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  expectWholeOnScreen(await figureBox(page));
  await page.screenshot({ path: `${shots}/present-1280x720-dark.png` });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect.poll(async () => (await figureBox(page)).right).toBeGreaterThan(1280);
  expectWholeOnScreen(await figureBox(page));
  await page.screenshot({ path: `${shots}/present-1920x1080-dark.png` });
  // The normal view keeps the full layout (lease age, probes).
  await page.keyboard.press('p');
  await expect(page.locator('#figure canvas')).toContainText('lease age');
  expect(problems).toEqual([]);
});
