// Sharing and access: URL state, embed mode, keyboard, themes, reduced motion, accessibility, export, offline.
import { test, expect } from '@playwright/test';
import { open, shots, figureOf } from './helpers.mjs';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';

const clock = (page) => page.locator('#clock');

test('URL round-trip: a link gives the same screen', async ({ page, context }) => {
  const problems = await open(page, '?preset=long-restart&downtime=95&grace=40&t=100&speed=16&seed=7');
  await expect(page.locator('#preset')).toHaveValue('long-restart');
  await expect(page.locator('#downtime-value')).toHaveText('1m35s');
  await expect(clock(page)).toHaveText('1m40s');
  await expect(page.locator('#speed')).toHaveValue('6');
  await expect(page.locator('#play')).toContainText('Play'); // a pinned time does not autoplay
  const search = await page.evaluate(() => location.search);
  expect(search).toContain('grace=40');
  const cards = await page.locator('.metrics').innerText();
  const svg = await figureOf(page);
  const page2 = await context.newPage();
  await open(page2, search);
  await expect(clock(page2)).toHaveText('1m40s');
  expect(await page2.locator('.metrics').innerText()).toEqual(cards);
  expect(await figureOf(page2)).toEqual(svg);
  await page2.locator('details.params summary').click();
  await expect(page2.locator('#grace')).toHaveValue('40');
  await expect(page2.locator('#seed')).toHaveValue('7');
  expect(problems).toEqual([]);
});

test('a hostile and an out-of-range parameter: one notice, treated as text, defaults used', async ({ page }) => {
  const problems = await open(page, '?preset=%3Cscript%3Ealert(1)%3C%2Fscript%3E&grace=9999&bogus=%3Cimg%20src%3Dx%20onerror%3Dalert(2)%3E');
  const notice = page.locator('#url-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('<script>alert(1)</script>');
  await expect(notice).toContainText('grace="9999" ignored: seconds from 5 to 600');
  await expect(notice).toContainText('is not a RestartScope parameter');
  expect(await page.locator('#url-notice script, #url-notice img').count()).toBe(0);
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  await page.locator('details.params summary').click();
  await expect(page.locator('#grace')).toHaveValue('50');
  await page.locator('#notice-dismiss').click();
  await expect(notice).toHaveCount(0);
  expect(problems).toEqual([]);
});

for (const width of [320, 1280]) {
  test(`embed mode inside the example iframe at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto('embed-example.html');
    const frame = page.frameLocator('#restartscope');
    await expect(frame.locator('#downtime')).toBeVisible();
    await expect(frame.locator('#figure canvas')).toBeVisible();
    await expect(frame.locator('details.params')).toBeHidden();
    await expect(frame.locator('footer')).toBeHidden();
    const f = page.frame({ url: /embed=1/ });
    const overflow = await f.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${shots}/embed-${width}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });
}

test('embed pauses while its iframe is scrolled offscreen', async ({ page }) => {
  await page.setContent(`<div style="height:3000px"></div>`);
  await page.goto('embed-example.html');
  const f = () => page.frame({ url: /embed=1/ });
  await expect(page.frameLocator('#restartscope').locator('#figure canvas')).toBeVisible();
  await page.evaluate(() => { document.body.style.paddingBottom = '4000px'; });
  await page.evaluate(() => window.scrollTo(0, 3000));
  await page.waitForTimeout(300);
  const t1 = await f().locator('#scrub').inputValue();
  await page.waitForTimeout(800);
  const t2 = await f().locator('#scrub').inputValue();
  expect(t2).toEqual(t1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(800);
  expect(Number(await f().locator('#scrub').inputValue())).toBeGreaterThan(Number(t2));
});

test('a hidden tab pauses playback and resumes when visible', async ({ page }) => {
  const problems = await open(page);
  const setHidden = (hidden) => page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
  await setHidden(true);
  await page.waitForTimeout(200);
  const t1 = await page.locator('#figure').getAttribute('data-playhead');
  await page.waitForTimeout(600);
  expect(await page.locator('#figure').getAttribute('data-playhead')).toEqual(t1);
  await setHidden(false);
  await page.waitForTimeout(600);
  expect(Number(await page.locator('#figure').getAttribute('data-playhead'))).toBeGreaterThan(Number(t1));
  expect(problems).toEqual([]);
});

test('every keyboard shortcut', async ({ page }) => {
  const problems = await open(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  // Space: play/pause.
  const wasPlaying = (await page.locator('#play').innerText()).includes('Pause');
  await page.keyboard.press(' ');
  await expect(page.locator('#play')).toContainText(wasPlaying ? 'Play' : 'Pause');
  if (!wasPlaying) await page.keyboard.press(' ');
  // R: restart from 0 (and play).
  await page.keyboard.press('r');
  await page.keyboard.press(' ');
  await page.locator('#scrub').evaluate((el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await expect(clock(page)).toHaveText('0s');
  // → / ←: next / previous event.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  const t1 = await clock(page).innerText();
  expect(t1).not.toEqual('0s');
  await page.keyboard.press('ArrowRight');
  const t2 = await clock(page).innerText();
  await page.keyboard.press('ArrowLeft');
  await expect(clock(page)).toHaveText(t1);
  expect(t2).not.toEqual(t1);
  // + / −: speed.
  const s0 = Number(await page.locator('#speed').inputValue());
  await page.keyboard.press('+');
  await expect(page.locator('#speed')).toHaveValue(String(s0 + 1));
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await expect(page.locator('#speed')).toHaveValue(String(s0 - 1));
  // R again: back to 0.
  await page.keyboard.press('R');
  await page.keyboard.press(' ');
  expect(['0s', '1s']).toContain(await clock(page).innerText());
  // Digits pick presets.
  await page.keyboard.press('3');
  await expect(page.locator('#preset')).toHaveValue('eviction');
  await page.keyboard.press('1');
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  // ? help overlay, Esc closes.
  await page.keyboard.press('?');
  await expect(page.locator('#help')).toBeVisible();
  await expect(page.locator('#help-close')).toBeFocused();
  await expect(page.locator('#help')).toContainText('Previous / next event');
  await page.keyboard.press('Escape');
  await expect(page.locator('#help')).toHaveCount(0);
  // Z: zoom the lanes to the restart.
  const before = await figureOf(page);
  await page.keyboard.press('z');
  await expect(page.locator('#zoom')).toHaveAttribute('aria-pressed', 'true');
  expect(await figureOf(page)).not.toEqual(before);
  await page.screenshot({ path: `${shots}/zoom.png` });
  await page.keyboard.press('z');
  await expect(page.locator('#zoom')).toHaveAttribute('aria-pressed', 'false');
  // P: presentation view.
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.screenshot({ path: `${shots}/presentation.png` });
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '0');
  expect(problems).toEqual([]);
});

test('dark theme: follows the system, toggles, passes axe', async ({ browser }) => {
  const ctx = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1400, height: 1000 } });
  const page = await ctx.newPage();
  const problems = await open(page, '?t=60');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(20, 23, 28)');
  await page.screenshot({ path: `${shots}/dark.png`, fullPage: true });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  await page.locator('#theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('theme=light');
  expect(problems).toEqual([]);
  await ctx.close();
});

test('light theme passes axe with zero serious or critical violations', async ({ page }) => {
  const problems = await open(page, '?t=60&theme=light');
  await page.locator('details.params summary').click();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  expect(problems).toEqual([]);
});

test('reduced motion: no autoplay, the playhead jumps between events', async ({ browser }) => {
  const ctx = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1400, height: 1000 } });
  const page = await ctx.newPage();
  const problems = await open(page);
  await page.waitForTimeout(700);
  await expect(page.locator('#play')).toContainText('Play');
  await expect(clock(page)).toHaveText('0s');
  // Collect event times from the log, then play and check every playhead value is one of them.
  await page.locator('#speed').selectOption('8'); // 64×
  await page.locator('#play').click();
  const seen = new Set();
  for (let i = 0; i < 20; i++) {
    seen.add(Number(await page.locator('#figure').getAttribute('data-playhead')));
    await page.waitForTimeout(50);
  }
  await page.locator('#play').click();
  const eventTimes = await page.evaluate(() => window.__restartscopeEventTimes());
  for (const t of seen) expect(t === 0 || eventTimes.includes(t), `playhead ${t} is not an event time`).toBeTruthy();
  expect(seen.size).toBeGreaterThan(1);
  expect(problems).toEqual([]);
  await ctx.close();
});

test('exports: link, SVG, PNG and JSON download valid files', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
  const problems = await open(page, '?preset=long-restart&t=150');
  await page.locator('#copy-link').click();
  await expect(page.locator('#copy-link')).toContainText('copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?preset=long-restart&downtime=90&.*t=150/);

  const get = async (id) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(id).click()]);
    const path = await dl.path();
    return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
  };
  const svg = await get('#download-svg');
  expect(svg.name).toBe('restartscope-long-restart-90s.svg');
  const text = svg.bytes.toString('utf8');
  expect(text.startsWith('<svg')).toBeTruthy();
  const ok = await page.evaluate((t) => !new DOMParser().parseFromString(t, 'image/svg+xml').querySelector('parsererror'), text);
  expect(ok).toBeTruthy();

  const png = await get('#download-png');
  expect(png.name).toBe('restartscope-long-restart-90s.png');
  expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.bytes.length).toBeGreaterThan(10_000);

  const json = await get('#download-json');
  const doc = JSON.parse(json.bytes.toString('utf8'));
  expect(doc.scenario.name).toBe('long-restart');
  expect(doc.runs.map((r) => r.policy)).toEqual(['legacy', 'kep']);
  expect(doc.runs.map((r) => r.kubelet)).toEqual(['1.35 · legacy (opt-in gate)', '1.35 · default (KEP-4781)']);
  expect(doc.runs[0].metrics.ready_transitions).toBe(12);
  expect(doc.runs[0].events[0]).toHaveProperty('rule');
  expect(problems).toEqual([]);
});
