// What a person does with the page: load, drag the slider, play, click an event, switch preset.
import { test, expect } from '@playwright/test';
import { open, shots, figureOf } from './helpers.mjs';

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
  const legacy = page.locator('#metric-ready_transitions .legacy b');
  await expect(legacy).toHaveText('6');
  await expect(page.locator('#metric-ready_transitions .kep b')).toHaveText('0');
  await expect(page.locator('#teaches')).toContainText('A 20 s restart');
  const svg20 = await figureOf(page);
  await seekEnd(page);
  await page.screenshot({ path: `${shots}/downtime-20s.png`, fullPage: true });

  // Drag with the mouse: from the 20 s position to the 90 s one.
  const box = await page.locator('#downtime').boundingBox();
  const n = Number(await page.locator('#downtime').getAttribute('max'));
  const x = (pos) => box.x + 8 + (box.width - 16) * pos / n;
  await page.mouse.move(x(20), box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(x(66), box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.locator('#downtime-value')).toHaveText(/^1m[23]\ds$/);
  await setDowntime(page, 90);
  await expect(page.locator('#downtime-value')).toHaveText('1m30s');
  await expect(legacy).toHaveText('12');
  await expect(page.locator('#metric-nlc_status_writes .legacy b')).toHaveText('3');
  // The preset's sentence described its own 20 s restart: after the drag the words come from
  // the runs on screen, with the same totals as the cards.
  await expect(page.locator('#teaches')).not.toContainText('A 20 s restart');
  await expect(page.locator('#teaches')).toContainText('Edited from short-restart: the kubelet stops at 30s for 1m30s.');
  await expect(page.locator('#teaches')).toContainText(`legacy (opt-in gate): ${await legacy.textContent()} Ready transitions`);
  await expect(page.locator('#teaches')).toContainText(`(KEP-4781): ${await page.locator('#metric-ready_transitions .kep b').textContent()} Ready transitions`);
  const svg90 = await figureOf(page);
  expect(svg90).not.toEqual(svg20);
  await expect(page.locator('#figure canvas')).toContainText('Unknown');
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

// A held slider pauses the playback (each move then redraws only the figure) and the
// playback goes on when it is let go — after a drag, and after a click on the thumb that moves
// nothing (no `change` event).
test('a held slider pauses the playback until it is let go', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  const play = page.locator('#play');
  await expect(play).toContainText('Pause');
  const s = await page.locator('#downtime').boundingBox();
  const v = Number(await page.locator('#downtime').inputValue());
  const max = Number(await page.locator('#downtime').getAttribute('max'));
  const thumb = s.x + 8 + (s.width - 16) * (v / max);
  const y = s.y + s.height / 2;
  // A click on the thumb: no change, playback goes on.
  await page.mouse.move(thumb, y);
  await page.mouse.down();
  await expect(play).toContainText('Play');
  await page.mouse.up();
  await expect(play).toContainText('Pause');
  expect(Number(await page.locator('#downtime').inputValue())).toBe(v);
  // A drag: paused while held, playing once let go.
  await page.mouse.move(thumb, y);
  await page.mouse.down();
  await page.mouse.move(thumb + 40, y, { steps: 4 });
  await expect(play).toContainText('Play');
  const t0 = await page.locator('#scrub').inputValue();
  await page.waitForTimeout(300);
  expect(await page.locator('#scrub').inputValue()).toBe(t0);
  await page.mouse.up();
  await expect(play).toContainText('Pause');
  expect(problems).toEqual([]);
});

test('preset switch works and shows what it teaches', async ({ page }) => {
  const problems = await open(page);
  await page.locator('#preset').selectOption('eviction');
  await expect(page.locator('#teaches')).toContainText('300 s toleration');
  await expect(page.locator('#downtime-value')).toHaveText('6m');
  await expect(page.locator('#metric-evictions .legacy b')).toHaveText('3');
  for (const name of ['startup-probe', 'unhealthy-during-downtime', 'not-ready-before-restart',
    'crash-during-downtime', 'daemonset-long-outage', 'long-restart', 'short-restart']) {
    await page.locator('#preset').selectOption(name);
    await expect(page.locator('#figure canvas')).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test('an invalid parameter shows a message by its field and keeps the last run', async ({ page }) => {
  const problems = await open(page);
  await page.locator('details.params summary').click();
  const before = await page.locator('#metric-ready_transitions .legacy b').innerText();
  const period = page.locator('#probe-app-readinessProbe-periodSeconds');
  const periodError = page.locator('#probe-app-readinessProbe-periodSeconds-error');
  await period.fill('0');
  await period.press('Enter');
  await period.blur();
  await expect(periodError).toContainText('must be at least 1');
  await expect(period).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#metric-ready_transitions .legacy b')).toHaveText(before);
  await period.fill('5');
  await period.blur();
  await expect(periodError).toBeEmpty();
  expect(problems).toEqual([]);
});

test('metric cards: one per descriptor, a row per kubelet, the difference or "same"', async ({ page }) => {
  const problems = await open(page, '?t=60');
  const cards = page.locator('.metrics .card');
  await expect(cards).toHaveCount(9);
  // Titles and tooltips are restartscope-report's METRICS descriptors (label = title (unit)).
  await expect(cards.locator('h3')).toHaveText([
    'Pod Ready transitions', 'Kubelet pod status writes', 'Node lifecycle controller status writes',
    'EndpointSlice updates', 'Unjustified NotReady (pod·s)', 'Unjustified Ready, the risk (pod·s)',
    'Evictions', 'Node not Ready (s)', 'PDB allows an eviction on a wrongful Ready (s)',
  ]);
  // short-restart has no PodDisruptionBudget: that card says so rather than 0.
  await expect(page.locator('#metric-pdb_wrongful_allowed_s .vals b')).toHaveText(['no budget', 'no budget']);
  await expect(page.locator('#metric-evictions')).toHaveAttribute('title', 'Pods deleted by the taint eviction controller.');
  await expect(page.locator('#metric-ready_transitions .vals small')).toHaveText(['1.35 · legacy (opt-in gate)', '1.35 · default (KEP-4781)']);
  await expect(page.locator('#metric-ready_transitions .delta')).toHaveText('KEP −6 ▼ better');
  await expect(page.locator('#metric-ready_transitions')).toHaveClass(/differs/);
  await expect(page.locator('#metric-evictions .delta')).toHaveText('same');
  await expect(page.locator('#metric-evictions')).not.toHaveClass(/differs/);
  expect(problems).toEqual([]);
});

test('a release before 1.35 runs the legacy kubelet alone, without an error', async ({ page }) => {
  const problems = await open(page, '?version=1.34&t=60');
  await expect(page.locator('#url-notice')).toHaveCount(0);
  await expect(page.locator('.why-col')).toHaveCount(1);
  await expect(page.locator('.why-col .badge')).toHaveText('1.34 · default (legacy)');
  await expect(page.locator('#one-kubelet')).toContainText('Kubernetes 1.34 has only the legacy kubelet');
  await expect(page.locator('.kubectl')).toHaveCount(1);
  await expect(page.locator('.kubectl .badge')).toHaveText('1.34 · default (legacy)');
  await expect(page.locator('#metric-ready_transitions .vals > span')).toHaveCount(1);
  await expect(page.locator('.metrics .kep')).toHaveCount(0);
  await expect(page.locator('.metrics .delta')).toHaveCount(0);
  await expect(page.locator('.log .badge.kep')).toHaveCount(0);
  await expect(page.locator('#figure canvas')).toContainText('Legacy kubelet · 1.34');
  await expect(page.locator('#figure canvas')).not.toContainText('KEP-4781 kubelet');
  for (const e of await page.locator('.field-error').allInnerTexts()) expect(e).toBe('');
  await expect(page.locator('footer .perf')).toContainText('recomputed the run');
  // The select offers every release; choosing 1.31 also runs (one kubelet, no message).
  await page.locator('details.params summary').click();
  // Every release the model knows, grouped by minor (kubectl get nodes prints the patch).
  await expect(page.locator('#version optgroup')).toHaveCount(10);
  await expect(page.locator('#version optgroup').first()).toHaveAttribute('label', '1.30');
  await expect(page.locator('#version option').first()).toHaveText('1.30 (grace 40 s, legacy only)');
  await expect(page.locator('#version option[value="1.31"]')).toHaveText('1.31 (grace 40 s, legacy only)');
  await expect(page.locator('#version option[value="1.36.4"]')).toHaveText('1.36.4 (grace 50 s)');
  await expect(page.locator('#version option').last()).toHaveText('main (grace 50 s)');
  await page.locator('#version').selectOption('1.31');
  await expect(page.locator('#grace')).toHaveValue('40');
  await expect(page.locator('.why-col .badge')).toHaveText('1.31 · default (legacy)');
  for (const e of await page.locator('.field-error').allInnerTexts()) expect(e).toBe('');
  await page.locator('#version').selectOption('1.35');
  await expect(page.locator('.why-col')).toHaveCount(2);
  await expect(page.locator('#one-kubelet')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('?version=main shows two lanes labelled with main', async ({ page }) => {
  const problems = await open(page, '?version=main&t=60');
  await expect(page.locator('#url-notice')).toHaveCount(0);
  await expect(page.locator('.why-col .badge')).toHaveText(['main · legacy (opt-in gate)', 'main · default (KEP-4781)']);
  await expect(page.locator('.kubectl .badge')).toHaveText(['main · legacy (opt-in gate)', 'main · default (KEP-4781)']);
  await expect(page.locator('#metric-ready_transitions .vals small')).toHaveText(['main · legacy (opt-in gate)', 'main · default (KEP-4781)']);
  await expect(page.locator('.lanes')).toHaveAttribute('aria-label', 'Timeline: main · legacy (opt-in gate) above, main · default (KEP-4781) below');
  const svg = page.locator('#figure canvas');
  await expect(svg).toContainText('Legacy kubelet · main');
  await expect(svg).toContainText('KEP-4781 kubelet · main');
  await page.locator('details.params summary').click();
  await expect(page.locator('#version')).toHaveValue('main');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('version=main');
  expect(problems).toEqual([]);
});

test('an exact patch release and the ContainerScopedProbes proposal lane', async ({ page }) => {
  const problems = await open(page, '?version=1.36.4&t=60');
  await expect(page.locator('#url-notice')).toHaveCount(0);
  await expect(page.locator('.why-col .badge')).toHaveText(['1.36.4 · legacy (opt-in gate)', '1.36.4 · default (KEP-4781)']);
  await page.locator('details.params summary').click();
  await expect(page.locator('#version')).toHaveValue('1.36.4');
  await expect(page.locator('#version-note')).toContainText('runs the 1.36 profile');
  // Before 1.38 the proposal is refused in the version field's words, nothing simulated.
  await page.locator('#csp').check();
  await expect(page.locator('.field-error', { hasText: 'targets 1.38' })).toBeVisible();
  await page.locator('#version').selectOption('1.38');
  await expect(page.locator('.field-error', { hasText: 'targets 1.38' })).toHaveCount(0);
  await expect(page.locator('.why-col .badge')).toHaveText([
    '1.38 · legacy (opt-in gate)', '1.38 · default (KEP-4781)', '1.38 · proposal CSP (#140704)',
  ]);
  await expect(page.locator('#figure canvas')).toContainText('CSP proposal · 1.38 (unmerged PR #140704)');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('csp=1');
  // The proposal's panels have ids and a colour of their own (not a second `why-kep`), and the
  // metrics' heads name it.
  await expect(page.locator('#why-csp')).toBeVisible();
  await expect(page.locator('#why-kep')).toHaveCount(1);
  await expect(page.locator('.metrics-heads .csp')).toHaveText('CSP');
  const ids = await page.evaluate(() => {
    const all = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return all.filter((id, i) => all.indexOf(id) !== i);
  });
  expect(ids).toEqual([]);
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
  const names = await page.locator('#preset option').evaluateAll((os) => os.map((o) => o.value));
  expect(names.length).toBeGreaterThanOrEqual(8);
  for (const name of names) {
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
