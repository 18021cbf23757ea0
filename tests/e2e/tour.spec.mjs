// The KEP-4781 tour in the page — every step opens by link, ←/→ and Back/Next move
// between steps and update the address, the tour works in presentation view and the embed,
// a setting edited leaves it, and the header offers it to first-time visitors.
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { open, shots } from './helpers.mjs';

const STEPS = 7;
// Each step's scenario (docs/tour/kep-4781.json): the controls show it, not the free play's.
const STEP_CONTROLS = [
  ['short-restart', '20s'], ['short-restart', '20s'], ['long-restart', '1m30s'],
  ['report-135795-notready-flip', '10s'], ['unhealthy-during-downtime', '20s'],
  ['startup-probe', '20s'], ['eviction', '6m'],
];

for (let n = 1; n <= STEPS; n++) {
  test(`tour step ${n} opens by link with its caption and figure`, async ({ page }) => {
    const problems = await open(page, `?tour=kep-4781&step=${n}`);
    await expect(page.locator('#tour-step')).toHaveText(`Step ${n} of ${STEPS}`);
    await expect(page.locator('#tour-title')).not.toBeEmpty();
    const caption = await page.locator('.tour-caption').allTextContents();
    expect(caption.join(' ').length).toBeGreaterThan(80);
    // The caption's numbers are filled from the runs: no template left.
    expect(caption.join(' ')).not.toMatch(/[{}]/);
    await expect(page.locator('#figure canvas[data-groups]').first()).toBeVisible();
    await expect(page.locator('#play')).toContainText('Play'); // a step opens paused
    // Every control shows the step's own values, and the link carries them.
    const [preset, down] = STEP_CONTROLS[n - 1];
    await expect(page.locator('#preset')).toHaveValue(preset);
    await expect(page.locator('#downtime-value')).toHaveText(down);
    await expect(page.locator('#tour-step')).toHaveText(`Step ${n} of ${STEPS}`);
    if (n > 1) await expect.poll(() => page.evaluate(() => location.search)).toContain(`preset=${preset}`);
    if (n === 1) await page.screenshot({ path: `${shots}/tour-1.png` });
    expect(problems).toEqual([]);
  });
}

test('arrows and Back/Next move between steps and update the address; a setting leaves the tour', async ({ page }) => {
  const problems = await open(page, '?tour=kep-4781&step=2');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  // Step 2 asks first: → reveals, the next → moves on.
  await expect(page.locator('#veil')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#veil')).toHaveCount(0);
  await expect(page.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tour-step')).toHaveText(`Step 3 of ${STEPS}`);
  await expect.poll(() => page.evaluate(() => location.search)).toContain('step=3');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#tour-step')).toHaveText(`Step 1 of ${STEPS}`);
  await expect(page.locator('#tour-back')).toBeDisabled();
  await page.locator('#tour-next').click();
  await expect(page.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`);
  await expect.poll(() => page.evaluate(() => location.search)).toContain('step=2');
  // Reload: the same step.
  await page.reload();
  await expect(page.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`);
  // Editing a setting goes back to free play.
  await page.locator('#preset').selectOption('long-restart');
  await expect(page.locator('#tour')).toHaveCount(0);
  await expect(page.locator('#tour-open')).toBeVisible();
  await expect.poll(() => page.evaluate(() => location.search)).not.toContain('tour=');
  expect(problems).toEqual([]);
});

test('the header offers the tour; Leave returns to free play; T starts it, Esc leaves it', async ({ page }) => {
  const problems = await open(page);
  await page.locator('#tour-open').click();
  await expect(page.locator('#tour-step')).toHaveText(`Step 1 of ${STEPS}`);
  await page.locator('#tour-leave').click();
  await expect(page.locator('#tour')).toHaveCount(0);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('t');
  await expect(page.locator('#tour-step')).toHaveText(`Step 1 of ${STEPS}`);
  // In presentation view, Esc leaves the tour first, then presentation view.
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.keyboard.press('Escape');
  await expect(page.locator('#tour')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-present', '1');
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).toHaveAttribute('data-present', '0');
  expect(problems).toEqual([]);
});

test('a tour step sets the downtime slider and the restart bar to its own restart', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  await page.locator('#tour-open').click();
  await page.locator('#tour-next').click();
  await page.keyboard.press('ArrowRight'); // step 2's question answered
  await page.locator('#tour-next').click();
  await expect(page.locator('#tour-step')).toHaveText(`Step 3 of ${STEPS}`);
  await expect(page.locator('#downtime-value')).toHaveText('1m30s');
  await expect(page.locator('#downtime')).toHaveAttribute('aria-valuetext', /1 minute 30 seconds|90 seconds/);
  // Back: the controls follow the step again.
  await page.locator('#tour-back').click();
  await expect(page.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`);
  await expect(page.locator('#downtime-value')).toHaveText('20s');
  expect(problems).toEqual([]);
});

test('a bad tour link: one notice, free play', async ({ page }) => {
  const problems = await open(page, '?tour=nope&step=2');
  await expect(page.locator('#url-notice')).toContainText('not a tour');
  await expect(page.locator('#tour')).toHaveCount(0);
  const p2 = await open(page, '?tour=kep-4781&step=99');
  await expect(page.locator('#url-notice')).toContainText('steps 1 to 7');
  expect([...problems, ...p2]).toEqual([]);
});

test('the tour in presentation view and in the embed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await open(page, '?tour=kep-4781&step=3&present=1');
  await expect(page.locator('#tour-step')).toHaveText(`Step 3 of ${STEPS}`);
  const fig = await page.locator('#figure').boundingBox();
  expect(fig.y).toBeLessThan(720);
  await page.screenshot({ path: `${shots}/tour-present-1280.png` });
  await page.setViewportSize({ width: 520, height: 800 });
  await page.goto('embed-example.html');
  await page.locator('#restartscope').evaluate((f) => {
    f.style.width = '480px'; f.style.height = '560px'; f.style.minHeight = '0'; f.style.aspectRatio = 'auto';
    f.src = f.src.split('?')[0] + '?embed=1&tour=kep-4781&step=2';
  });
  const frame = page.frameLocator('#restartscope');
  // A cold load of the whole app in the iframe (once 5 s was not enough in a full run on 2 cores).
  await expect(frame.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`, { timeout: 15_000 });
  await expect(frame.locator('#figure canvas[data-groups]').first()).toBeVisible();
  await page.screenshot({ path: `${shots}/tour-embed-480.png` });
  const axe = await new AxeBuilder({ page }).include('#restartscope').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => v.id)).toEqual([]);
  expect(problems).toEqual([]);
});

test('presentation view at 1920×1080: every step\'s caption, marks and Back / Next beside the figure, on one screen', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const problems = await open(page, '?tour=kep-4781&step=1&present=1');
  for (let n = 1; n <= STEPS; n++) {
    await expect(page.locator('#tour-step')).toHaveText(`Step ${n} of ${STEPS}`);
    // A step that asks first: the question, then → reveals the caption.
    if (await page.locator('#tour-question').count()) {
      const q = await page.locator('#tour-question').boundingBox();
      expect(q.y + q.height).toBeLessThanOrEqual(1080);
      if (n === 2) await page.screenshot({ path: `${shots}/tour-present-1920-step2-predict.png` });
      await page.keyboard.press('ArrowRight');
      await expect(page.locator('#tour-title')).toBeVisible();
    }
    const fig = await page.locator('#figure').boundingBox();
    const tour = await page.locator('#tour').boundingBox();
    expect(tour.x).toBeGreaterThanOrEqual(fig.x + fig.width);
    expect(fig.y + fig.height).toBeLessThanOrEqual(1080);
    // The figure (laid out 860 px wide) is still drawn large enough for 12-px text (8.5 px × 12/8.5).
    expect(fig.width / 860).toBeGreaterThanOrEqual(12 / 8.5);
    for (const sel of ['#tour-title', '.tour-caption >> nth=-1', '#tour-back', '#tour-next']) {
      const b = await page.locator(sel).boundingBox();
      expect(b.y + b.height, `${sel} of step ${n}`).toBeLessThanOrEqual(1080);
    }
    // Caption text stays readable on a projector.
    const px = await page.locator('.tour-caption').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    expect(px).toBeGreaterThanOrEqual(15);
    if (n === 7) await page.screenshot({ path: `${shots}/tour-present-1920-step7.png` });
    if (n < STEPS) await page.keyboard.press('ArrowRight');
  }
  expect(problems).toEqual([]);
});

// Predict, then reveal (the audience commits to an answer before the figure shows it). A step with a question opens at the kubelet's return with the
// rest of the figure veiled and the question in place of the caption; → (or Reveal, or a click
// on the veil) shows the rest and plays it; the next → goes on to the next step.
test('predict, then reveal: the question first, the figure veiled after the return, → reveals and plays', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const problems = await open(page, '?tour=kep-4781&step=2');
  await expect(page.locator('#tour-question')).toContainText('Predict');
  await expect(page.locator('#veil')).toBeVisible();
  await expect(page.locator('#tour-title')).toBeHidden();
  await expect(page.locator('#tour-next')).toHaveText('Reveal ▸');
  await expect(page.locator('#play')).toContainText('Play');
  // The veil starts at the playhead (the kubelet's return, 50 s) and covers the rest.
  const veil = await page.locator('#veil').boundingBox();
  const fig = await page.locator('#figure').boundingBox();
  const head = await page.locator('.playhead').boundingBox();
  expect(Math.abs(veil.x - head.x)).toBeLessThan(4);
  expect(veil.x + veil.width).toBeCloseTo(fig.x + fig.width, -1);
  await page.screenshot({ path: `${shots}/tour-predict-1440.png` });
  await page.locator('#tour-next').click();
  await expect(page.locator('#veil')).toHaveCount(0);
  await expect(page.locator('#tour-title')).toBeVisible();
  await expect(page.locator('#tour-step')).toHaveText(`Step 2 of ${STEPS}`);
  await expect(page.locator('#play')).toContainText('Pause');
  await page.locator('#tour-next').click();
  await expect(page.locator('#tour-step')).toHaveText(`Step 3 of ${STEPS}`);
  // Back to step 2: it asks again.
  await page.locator('#tour-back').click();
  await expect(page.locator('#veil')).toBeVisible();
  expect(problems).toEqual([]);
});

test('presentation view at 1280×720: every step\'s figure, title and Back / Next on one screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await open(page, '?tour=kep-4781&step=1&present=1');
  for (let n = 1; n <= STEPS; n++) {
    if (n > 1) await page.goto(`?tour=kep-4781&step=${n}&present=1`);
    await expect(page.locator('#tour-step')).toHaveText(`Step ${n} of ${STEPS}`);
    await expect(page.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
    const next = await page.locator('#tour-next').boundingBox();
    const back = await page.locator('#tour-back').boundingBox();
    const box = await page.locator('.tour').first().boundingBox();
    const fig = await page.locator('#figure canvas').first().boundingBox();
    expect(next.y + next.height, `step ${n}: Next`).toBeLessThanOrEqual(720);
    expect(back.y + back.height, `step ${n}: Back`).toBeLessThanOrEqual(720);
    expect(box.y, `step ${n}: the step's box starts on screen`).toBeLessThan(720);
    // The figure is whole above Back / Next.
    expect(fig.y + fig.height, `step ${n}: figure above Back / Next`).toBeLessThanOrEqual(next.y);
    expect(fig.height, `step ${n}: figure`).toBeGreaterThan(250);
    if (n === 3) await page.screenshot({ path: `${shots}/tour-present-1280x720-3.png` });
  }
  expect(problems).toEqual([]);
});
