// Restart the kubelet like a presenter does — K at the playhead, several restarts in
// one run (list, URL, copied link), dragging a "kubelet down" bar's ends (mouse, touch, keyboard),
// undo; each asserted on what a person sees: the figure, the address, the sliders.
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';
import AxeBuilder from '@axe-core/playwright';

const search = (page) => page.evaluate(() => location.search);
const param = async (page, k) => new URLSearchParams(await search(page)).get(k);
// The "kubelet down …" bars of every run, as their tooltips say them.
const downBars = async (page) => {
  await expect(page.locator('#figure canvas')).toHaveAttribute('data-settled', '1');
  return (await page.locator('#figure .rs-words p').allTextContents()).filter((t) => /^kubelet down \d/.test(t)); // the tooltips, not the legend's words
};

// Presses the mouse on the first run's first "kubelet down" bar's return (its end).
async function holdReturn(page) {
  const edge = page.locator('.bar-edge.start[tabindex="0"]').first();
  await edge.scrollIntoViewIfNeeded();
  const box = await edge.boundingBox();
  const fig = await page.locator('#figure').boundingBox();
  const x0 = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  return { fig, x0, y };
}

async function seekTo(page, s) {
  await page.locator('#scrub').evaluate((el, v) => {
    el.value = String(v * 1000);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, s);
  await expect(page.locator('#figure')).toHaveAttribute('data-playhead', String(s * 1000));
}

test('K at two playhead times stops and starts the kubelet in both runs and the link; undo takes it back', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart&t=0');
  await expect(page.locator('#kubelet-toggle')).toHaveText('■ Stop kubelet');
  const before = await downBars(page);
  expect(before).toHaveLength(2); // one restart, two runs
  await seekTo(page, 70);
  await page.locator('body').press('k');
  // Stopped at 70 s: the button now starts it; the playhead kept its place.
  await expect(page.locator('#kubelet-toggle')).toHaveText('▶ Start kubelet');
  await expect(page.locator('#figure')).toHaveAttribute('data-playhead', '70000');
  await seekTo(page, 85);
  await page.locator('body').press('K');
  await expect(page.locator('#kubelet-toggle')).toHaveText('■ Stop kubelet');
  const bars = await downBars(page);
  expect(bars).toHaveLength(4);
  expect(bars.filter((t) => t.startsWith('kubelet down 1m10s–1m25s'))).toHaveLength(2);
  await expect.poll(() => param(page, 'restarts')).toBe('30:20,70:15');
  // The copied link carries both restarts and reproduces them.
  await page.reload();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  expect(await downBars(page)).toEqual(bars);
  // Undo (button, then Ctrl+Z) takes the edits back one at a time.
  await page.locator('#kubelet-toggle').click(); // a third edit after the reload: stop at 85 s
  await expect(page.locator('#kubelet-toggle')).toHaveText('▶ Start kubelet');
  await page.locator('#undo').click();
  await expect.poll(() => param(page, 'restarts')).toBe('30:20,70:15');
  await expect(page.locator('#undo')).toBeDisabled();
  expect(problems).toEqual([]);
});

test('K while playing: the animation carries on with the new future', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart&t=60&speed=2');
  await page.locator('#play').click();
  await expect(page.locator('#play')).toHaveText('❚❚ Pause');
  await page.keyboard.press('k');
  await expect(page.locator('#kubelet-toggle')).toHaveText('▶ Start kubelet');
  const t1 = Number(await page.locator('#figure').getAttribute('data-playhead'));
  await page.waitForTimeout(1200);
  await expect(page.locator('#play')).toHaveText('❚❚ Pause');
  const t2 = Number(await page.locator('#figure').getAttribute('data-playhead'));
  expect(t2).toBeGreaterThan(t1);
  await page.keyboard.press('k');
  await expect(page.locator('#kubelet-toggle')).toHaveText('■ Stop kubelet');
  const list = (await param(page, 'restarts')) ?? '';
  expect(list.split(',')).toHaveLength(2);
  expect(problems).toEqual([]);
});

test('dragging a bar\'s end changes the downtime, the sliders and the figure; undo restores it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const problems = await open(page, '?preset=short-restart&t=10');
  const { fig, x0, y } = await holdReturn(page);
  // While held, the grace-period and eviction marks are drawn.
  await page.mouse.move(x0 + 10, y);
  await expect(page.locator('.drag-mark.grace')).toBeVisible();
  await page.screenshot({ path: `${shots}/restarts-drag-1440.png` });
  for (let i = 1; i <= 10; i++) await page.mouse.move(x0 + i * fig.width / 40, y);
  await page.mouse.up();
  await expect(page.locator('.drag-mark.grace')).toBeHidden();
  await expect.poll(async () => Number(await param(page, 'downtime'))).toBeGreaterThan(40);
  await expect(page.locator('#downtime-value')).not.toHaveText('20s');
  const bars = await downBars(page);
  expect(bars[0]).toMatch(/^kubelet down 30s–/);
  expect(bars[0]).not.toContain('–50s');
  // The screen reader hears the new restart in words.
  await expect(page.locator('.bar-handles [aria-live]')).toContainText('Restart 1: the kubelet stops at 30s');
  // One undo step for the whole drag.
  await page.keyboard.press('Control+z');
  await expect.poll(() => param(page, 'downtime')).toBe('20');
  expect(problems).toEqual([]);
});

// "Within one frame per move": every pointer move of a held bar end is already in the figure and
// the downtime when the animation frame after its dispatch runs, so the frame that follows the
// move paints it (Chromium dispatches pointer moves at the start of a frame; nothing of ours
// waits for a later one). Pixels and words, not timings: this holds on a slow box too.
test('each move of a bar\'s end is drawn in the frame that follows it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const problems = await open(page, '?preset=long-restart&t=10');
  await page.evaluate(() => {
    const sig = () => {
      const c = document.querySelector('#figure canvas');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let h = 0;
      for (let i = 0; i < d.length; i += 4) h = (h * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
      return h;
    };
    window.__moves = [];
    document.addEventListener('pointermove', (e) => {
      if (e.buttons !== 1) return;
      const before = { sig: sig(), down: document.querySelector('#downtime-value').textContent };
      requestAnimationFrame(() => {
        window.__moves.push({ x: e.clientX, before, after: { sig: sig(), down: document.querySelector('#downtime-value').textContent } });
      });
    }, true);
  });
  const { fig, x0, y } = await holdReturn(page);
  // 24 moves, each a few seconds of downtime further, as fast as the page takes them.
  for (let i = 1; i <= 24; i++) await page.mouse.move(x0 + i * fig.width / 150, y);
  await page.mouse.up();
  const moves = await page.evaluate(() => window.__moves);
  expect(moves.length).toBeGreaterThanOrEqual(20);
  for (const m of moves) {
    expect(m.after.sig, `figure not redrawn in the frame after the move to x=${m.x}`).not.toBe(m.before.sig);
    expect(m.after.down, `downtime not updated in the frame after the move to x=${m.x}`).not.toBe(m.before.down);
  }
  expect(problems).toEqual([]);
});

test('touch drags a bar\'s stop', async ({ browser }) => {
  const ctx = await browser.newContext({ hasTouch: true, viewport: { width: 1280, height: 720 } });
  const page = await ctx.newPage();
  const problems = await open(page, '?preset=long-restart&t=0');
  const edge = page.locator('.bar-edge.stop[tabindex="0"]').first();
  await edge.scrollIntoViewIfNeeded();
  const box = await edge.boundingBox();
  const fig = await page.locator('#figure').boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // A touch pointer: pointerdown/move/up with pointerType "touch".
  await edge.dispatchEvent('pointerdown', { pointerId: 7, pointerType: 'touch', clientX: x, clientY: y, isPrimary: true, bubbles: true });
  await edge.dispatchEvent('pointermove', { pointerId: 7, pointerType: 'touch', clientX: x - fig.width / 20, clientY: y, isPrimary: true, bubbles: true });
  await edge.dispatchEvent('pointerup', { pointerId: 7, pointerType: 'touch', clientX: x - fig.width / 20, clientY: y, isPrimary: true, bubbles: true });
  // The stop moved earlier; the return stayed: the downtime grew by as much.
  await expect.poll(async () => Number(await param(page, 'at'))).toBeLessThan(30);
  const at = Number(await param(page, 'at'));
  const down = Number(await param(page, 'downtime'));
  expect(at + down).toBe(120);
  expect(problems).toEqual([]);
  await ctx.close();
});

test('keyboard only: focus a bar\'s end, ←/→ by 1 s, Shift by 10 s; the list adds, edits and removes restarts', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart&t=0');
  const edge = page.locator('.bar-edge.start[tabindex="0"]').first();
  await edge.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => param(page, 'downtime')).toBe('21');
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => param(page, 'downtime')).toBe('31');
  await expect(edge).toHaveAttribute('aria-valuetext', 'Restart 1: the kubelet stops at 30s, down 31s, back at 1m1s');
  // The sliders follow.
  await expect(page.locator('#downtime-value')).toHaveText('31s');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(() => param(page, 'downtime')).toBe('21');
  // ← did not step the event log; the playhead is still at 0.
  await expect(page.locator('#figure')).toHaveAttribute('data-playhead', '0');
  // The list in the parameters panel.
  await page.locator('details.params summary').click();
  await page.locator('#restart-add').click();
  await expect(page.locator('#restart-1-at')).toHaveValue('1m51s');
  await expect.poll(() => param(page, 'restarts')).toBe('30:21,111:20');
  await page.locator('#restart-1-down').fill('50s');
  await page.locator('#restart-1-down').press('Enter');
  await expect.poll(() => param(page, 'restarts')).toBe('30:21,111:50');
  await expect(page.locator('#downtime-value')).toHaveText('50s'); // the sliders follow the row
  // Overlapping: not simulated, said in Kubernetes' field names next to the list, link unchanged.
  await page.locator('#restart-1-at').fill('40');
  await page.locator('#restart-1-at').press('Enter');
  await expect(page.locator('#restarts-error')).toContainText('kubelet.restarts[1].at_s must not be before the previous kubelet restart ends');
  await expect(page.locator('#rejected')).toBeVisible();
  expect(await param(page, 'restarts')).toBe('30:21,111:50');
  await page.locator('#restart-1-at').fill('x');
  await page.locator('#restart-1-at').press('Enter');
  await expect(page.locator('#restarts-error')).toContainText('kubelet.restarts[1].at_s must be a duration');
  await page.locator('button[aria-label="Remove restart 2"]').click();
  await expect(page.locator('#rejected')).toBeHidden();
  await expect.poll(() => param(page, 'downtime')).toBe('21');
  await expect(page.locator('button[aria-label="Remove restart 1"]')).toBeDisabled();
  const axe = await new AxeBuilder({ page }).include('#restart-list').include('.lanes').analyze();
  expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact))).toEqual([]);
  expect(problems).toEqual([]);
});

test('the list is capped at 20 with a clear message', async ({ page }) => {
  const list = Array.from({ length: 20 }, (_, i) => `${i * 10}:5`).join(',');
  const problems = await open(page, `?preset=short-restart&restarts=${list}&t=0`);
  await page.locator('details.params summary').click();
  await expect(page.locator('#restart-19-at')).toBeVisible();
  await page.locator('#restart-add').click();
  await expect(page.locator('#restarts-error')).toContainText('at most 20 kubelet restarts');
  expect(await downBars(page)).toHaveLength(40);
  await page.screenshot({ path: `${shots}/restarts-twenty-1400.png`, fullPage: true });
  expect(problems).toEqual([]);
});

for (const [name, w, h, q] of [['present-1280', 1280, 720, '&present=1'], ['embed-480', 480, 560, '&embed=1'], ['dark-1440', 1440, 900, '&theme=dark']]) {
  test(`two restarts look right: ${name}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const problems = await open(page, `?preset=long-restart&restarts=30:90,200:45&t=150${q}`);
    await expect(page.locator('.bar-edge[tabindex="0"]')).toHaveCount(4);
    await page.locator('.bar-edge.start[tabindex="0"]').first().focus();
    await page.screenshot({ path: `${shots}/restarts-${name}.png` });
    expect(problems).toEqual([]);
  });
}
