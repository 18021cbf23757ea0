// What a person does with the page: load, drag the slider, play, click an event, switch preset.
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';

async function seekEnd(page) {
  await page.locator('#scrub').evaluate((el) => { el.value = el.max; el.dispatchEvent(new Event('input', { bubbles: true })); });
}

async function setDowntime(page, seconds) {
  // The slider's positions are non-linear; ask the page which position holds `seconds`.
  await page.locator('#downtime').evaluate((el, s) => {
    const steps = [];
    for (let i = 0; i <= 60; i++) steps.push(i);
    for (let i = 13; i <= 36; i++) steps.push(i * 5);
    for (let i = 19; i <= 60; i++) steps.push(i * 10);
    el.value = String(steps.indexOf(s));
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, seconds);
}

test('loads without console errors and moving the slider changes the text', async ({ page }) => {
  const problems = await open(page);
  await expect(page.locator('h1')).toHaveText('RestartScope');
  await setDowntime(page, 45);
  await expect(page.locator('#downtime-value')).toHaveText('45s');
  await expect(page.locator('#downtime')).toHaveAttribute('aria-valuetext', '45 seconds');
  expect(problems).toEqual([]);
});

test('dragging the downtime past the grace period changes legacy metrics and lanes', async ({ page }) => {
  const problems = await open(page);
  await setDowntime(page, 20);
  await page.locator('#play').click(); // pause
  const legacy = page.locator('#metric-ready_transitions .legacy');
  await expect(legacy).toContainText('6');
  await expect(page.locator('#metric-ready_transitions .kep')).toContainText('0');
  const svg20 = await page.locator('#figure svg').innerHTML();
  await seekEnd(page);
  await page.screenshot({ path: `${shots}/downtime-20s.png`, fullPage: true });

  // Drag with the mouse: from the 20 s position to the 90 s one.
  const box = await page.locator('#downtime').boundingBox();
  const n = 127;
  const x = (pos) => box.x + 8 + (box.width - 16) * pos / n;
  await page.mouse.move(x(20), box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(x(66), box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.locator('#downtime-value')).toHaveText(/^1m[23]\ds$/);
  await setDowntime(page, 90);
  await expect(page.locator('#downtime-value')).toHaveText('1m30s');
  await expect(legacy).toContainText('12');
  await expect(page.locator('#metric-nlc_status_writes .legacy')).toContainText('3');
  const svg90 = await page.locator('#figure svg').innerHTML();
  expect(svg90).not.toEqual(svg20);
  await expect(page.locator('#figure svg')).toContainText('Unknown');
  await seekEnd(page);
  await page.screenshot({ path: `${shots}/downtime-90s.png`, fullPage: true });
  expect(problems).toEqual([]);
});

test('play advances the playhead; clicking an event seeks', async ({ page }) => {
  const problems = await open(page);
  const clock = page.locator('#clock');
  await page.locator('#restart').click();
  await page.waitForTimeout(1200);
  const t1 = await page.locator('#scrub').inputValue();
  expect(Number(t1)).toBeGreaterThan(0);
  await page.locator('#play').click(); // pause
  await expect(page.locator('#play')).toContainText('Play');
  // Seek by clicking an event in the log.
  await page.locator('#scrub').evaluate((el) => { el.value = '0'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await expect(clock).toHaveText('0s');
  const first = page.locator('.log .event').first();
  const t = await first.locator('.t').innerText();
  await first.click();
  await expect(clock).toHaveText(t);
  // Next / previous event buttons.
  await page.locator('#next-event').click();
  expect(await clock.innerText()).not.toEqual(t);
  await page.locator('#prev-event').click();
  await expect(clock).toHaveText(t);
  expect(problems).toEqual([]);
});

test('preset switch works and shows what it teaches', async ({ page }) => {
  const problems = await open(page);
  await page.locator('#preset').selectOption('eviction');
  await expect(page.locator('#teaches')).toContainText('300 s toleration');
  await expect(page.locator('#downtime-value')).toHaveText('6m');
  await expect(page.locator('#metric-evictions .legacy')).toContainText('3');
  for (const name of ['startup-probe', 'unhealthy-during-downtime', 'not-ready-before-restart',
    'crash-during-downtime', 'daemonset-long-outage', 'long-restart', 'short-restart']) {
    await page.locator('#preset').selectOption(name);
    await expect(page.locator('#figure svg')).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test('an invalid parameter shows a message by its field and keeps the last run', async ({ page }) => {
  const problems = await open(page);
  await page.locator('details.params summary').click();
  const before = await page.locator('#metric-ready_transitions .legacy').innerText();
  await page.locator('#period').fill('0');
  await page.locator('#period').press('Enter');
  await page.locator('#period').blur();
  await expect(page.locator('#period-error')).toContainText('from 1 to 300');
  await expect(page.locator('#period')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#metric-ready_transitions .legacy')).toHaveText(before);
  await page.locator('#period').fill('5');
  await page.locator('#period').blur();
  await expect(page.locator('#period-error')).toBeEmpty();
  expect(problems).toEqual([]);
});

test('a panic shows an error panel with a reload button, not a blank page', async ({ page }) => {
  await page.goto('?debug-panic=1');
  await expect(page.locator('#fatal')).toBeVisible();
  await expect(page.locator('#fatal-reload')).toBeVisible();
});

test('recompute on slider drag stays within one frame for every preset', async ({ page }) => {
  const problems = await open(page);
  const results = {};
  for (const name of ['short-restart', 'long-restart', 'eviction', 'startup-probe', 'unhealthy-during-downtime',
    'not-ready-before-restart', 'crash-during-downtime', 'daemonset-long-outage']) {
    await page.locator('#preset').selectOption(name);
    const times = [];
    for (const s of [10, 20, 45, 90, 150, 240, 360, 30]) {
      await setDowntime(page, s);
      await page.waitForTimeout(20);
      times.push(Number(await page.evaluate(() => document.documentElement.dataset.computeMs)));
    }
    times.sort((a, b) => a - b);
    results[name] = { median: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
  }
  console.log('recompute + render ms per slider move:', JSON.stringify(results));
  for (const [name, r] of Object.entries(results)) expect(r.median, name).toBeLessThanOrEqual(16);
  expect(problems).toEqual([]);
});

test('playback of the largest preset keeps up with 60 fps', async ({ page }) => {
  const problems = await open(page);
  await page.locator('#preset').selectOption('daemonset-long-outage');
  await page.locator('#speed').selectOption('6'); // 16×
  await page.locator('#restart').click();
  const frames = await page.evaluate(() => new Promise((resolve) => {
    const ts = [];
    const tick = (t) => { ts.push(t); if (ts.length < 181) requestAnimationFrame(tick); else resolve(ts); };
    requestAnimationFrame(tick);
  }));
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const dropped = gaps.filter((g) => g > 1.5 * (1000 / 60)).length;
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  console.log(`playback: ${gaps.length} frames, mean ${mean.toFixed(2)} ms, ${dropped} over 25 ms`);
  expect(dropped / gaps.length).toBeLessThan(0.05);
  expect(problems).toEqual([]);
});

for (const width of [360, 1400]) {
  test(`no horizontal overflow at ${width} px, even with long kubectl lines`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const problems = await open(page, '?preset=eviction&t=480');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    expect(problems).toEqual([]);
  });
}
