// The presenter view: two windows of one browser on one state, kept in step over a
// BroadcastChannel (src/present.rs). The presenter's window (?present=notes) keeps the controls
// and shows the speaker notes (docs/tour/notes.json), the next step, a clock and the keys; the
// audience's (?present=audience) shows the figure alone, large, and follows the presenter's
// slider, tour step and playhead within a frame. Screenshots of both land in
// artifacts/screenshots/presenting/; with PRESENT_SHOTS=docs (`make presenting-shots`) they
// replace the copies docs/presenting.md shows, in docs/presenting/.
import { test, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { open, shots } from './helpers.mjs';

const SHOTS = process.env.PRESENT_SHOTS === 'docs' ? 'docs/presenting' : `${shots}/presenting`;
mkdirSync(SHOTS, { recursive: true });

/** Console errors, page errors and dialogs of a page opened without `open()` (the audience's
 * window has no controls for `open()` to wait for). */
function watch(page) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  return problems;
}

/** Logs, in `page`, every animation frame from now on: its time (performance.timeOrigin +
 * now, one clock for the windows of one browser), the figure's draws so far (each draw marks the
 * canvas unsettled), the slider's position and the tour step on screen; and the time of the
 * last key pressed there. */
function logFrames(page) {
  return page.evaluate(() => {
    const T = () => performance.timeOrigin + performance.now();
    const cv = document.querySelector('#figure canvas');
    window.__rsDraws = 0;
    window.__rsFrames = [];
    new MutationObserver(() => { if (cv.dataset.settled === '0') window.__rsDraws += 1; })
      .observe(cv, { attributes: true, attributeFilter: ['data-settled'] });
    addEventListener('keydown', () => { window.__rsKeyAt = T(); }, true);
    const frame = () => {
      window.__rsFrames.push({
        at: T(),
        draws: window.__rsDraws,
        down: document.querySelector('#downtime').value,
        step: document.querySelector('#tour-step')?.textContent ?? '',
      });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** The frames `page` logged after `since` (ms, performance.timeOrigin + now), once one of them
 * shows what `shown` (a function of a logged frame) asks; the first of them is the window's
 * next frame after the change. */
async function framesAfter(page, since, shown) {
  let frames = [];
  await expect.poll(async () => {
    frames = (await page.evaluate(() => window.__rsFrames)).filter((f) => f.at > since);
    return frames.some(shown);
  }, { timeout: 5000 }).toBe(true);
  return frames;
}

/** The presenter's window and the audience's it opens with the Presenter view button. */
async function twoWindows(page, query) {
  const problems = await open(page, query);
  const [audience] = await Promise.all([
    page.context().waitForEvent('page'),
    page.locator('#presenter-open').click(),
  ]);
  const audienceProblems = watch(audience);
  await audience.waitForLoadState();
  await expect(audience.locator('html')).toHaveAttribute('data-role', 'audience');
  await expect(audience.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
  return { problems, audience, audienceProblems };
}

test('the Presenter view button opens the audience window: figure alone and large; notes, next step, clock and keys in the presenter window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const { problems, audience, audienceProblems } = await twoWindows(page, '?preset=long-restart&t=100');
  await expect(page.locator('html')).toHaveAttribute('data-role', 'notes');
  await expect(page).toHaveTitle(/presenter/);
  await expect(audience).toHaveTitle(/audience/);
  await expect.poll(() => page.evaluate(() => location.search)).toContain('present=notes');
  // The presenter keeps the controls and gets the notes of the scenario on screen.
  await expect(page.locator('#downtime')).toBeVisible();
  const notes = page.getByLabel('Speaker notes');
  await expect(notes).toBeVisible();
  await expect(notes.locator('dt')).toHaveText(['Say', 'Notice', 'Ask', 'Answer', 'Rule']);
  await expect(notes).toContainText('setReadyStateOnKubeletRestart');
  await expect(page.locator('#presenter-next')).toContainText("scenario eviction");
  await expect(page.locator('#presenter-clock')).toHaveText(/^\d\d:\d\d:\d\d · 00:\d\d elapsed$/);
  await expect(notes.locator(".notes-keys kbd").first()).toHaveText('Space');
  // The audience: the same scenario and playhead, no controls, the figure large.
  await expect(audience.locator('#preset')).toHaveValue('long-restart');
  await expect(audience.locator('#figure')).toHaveAttribute('data-playhead', '100000');
  for (const sel of ['#downtime', '#play', '#presenter-open', '#present-toggle', '#speaker-notes', '.export']) {
    await expect(audience.locator(sel)).toBeHidden();
  }
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    await audience.setViewportSize({ width: w, height: h });
    await expect.poll(async () => {
      const b = await audience.locator('#figure canvas').first().boundingBox();
      return Math.max(b.width / w, b.height / h);
    }, { message: `the audience's figure at ${w}×${h}` }).toBeGreaterThan(0.8);
  }
  expect(problems).toEqual([]);
  expect(audienceProblems).toEqual([]);
});

test('a slider move and a tour step in either window show in the other window\'s next frame', async ({ page }) => {
  const { problems, audience, audienceProblems } = await twoWindows(page, '?preset=short-restart&t=60');
  for (const w of [page, audience]) await logFrames(w);
  // Each change, made in `from` at `at`: the first frame of each window after it must show it
  // (the presenter's own repaint and the audience's, or the other way round). Logged: how many
  // ms after the change each window's first frame came.
  const seen = [];
  const check = async (label, from, at, shown) => {
    const to = from === page ? audience : page;
    const [own, other] = await Promise.all([from, to].map((w) => framesAfter(w, at, shown)));
    seen.push(`${label} ${Math.round(own[0].at - at)} ms / ${Math.round(other[0].at - at)} ms`);
    expect(shown(own[0]), `${label}: the first frame after it in the window it was made in`).toBe(true);
    expect(shown(other[0]), `${label}: the first frame after it in the other window`).toBe(true);
  };
  // The slider: each window's figure is drawn again with the new downtime.
  for (const pos of [25, 30, 22, 28, 24]) {
    for (const w of [page, audience]) {
      await expect(w.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
    }
    const drawn = await Promise.all([page, audience].map((w) => w.evaluate(() => window.__rsDraws)));
    const at = await page.evaluate((p) => {
      const s = document.querySelector('#downtime');
      s.value = String(p);
      const t = performance.timeOrigin + performance.now();
      s.dispatchEvent(new Event('input', { bubbles: true }));
      return t;
    }, pos);
    await check(`slider ${pos}`, page, at, (f) => f.down === String(pos) && f.draws > Math.max(...drawn));
    await expect(audience.locator('#downtime-value')).toHaveText(await page.locator('#downtime-value').textContent());
  }
  // The tour: T opens it in both windows (each loads the tour's data: a fetch, so not timed by
  // frames), → moves both to the next step.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('t');
  for (const w of [page, audience]) await expect(w.locator('#tour-step')).toHaveText('Step 1 of 7');
  const key = async (w, k, step) => {
    await w.keyboard.press(k);
    await check(`${k} in the ${w === page ? 'presenter' : 'audience'}`, w, await w.evaluate(() => window.__rsKeyAt), (f) => f.step === step);
  };
  await key(page, 'ArrowRight', 'Step 2 of 7');
  // Step 2 asks first in both windows; → in the audience's window reveals it in both.
  await expect(audience.locator('#tour-question')).toBeVisible();
  await expect(page.locator('#tour-question')).toBeVisible();
  await expect(page.getByLabel('Speaker notes')).toContainText('P1k');
  await audience.locator('body').click({ position: { x: 5, y: 5 } });
  await audience.keyboard.press('ArrowRight');
  await expect(page.locator('#tour-question')).toHaveCount(0);
  // A step back in the audience's window moves the presenter's in its next frame too.
  await key(audience, 'ArrowLeft', 'Step 1 of 7');
  console.log(`a change's first frame in the window it was made in / in the other: ${seen.join(', ')}`);
  expect(problems).toEqual([]);
  expect(audienceProblems).toEqual([]);
});

test('the presenter owns the clock: playing, the audience follows its playhead; closing the audience leaves the presenter working', async ({ page }) => {
  const { problems, audience, audienceProblems } = await twoWindows(page, '?preset=long-restart&t=10');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(' ');
  await expect(audience.locator('#play')).toContainText('Pause');
  await expect.poll(() => audience.locator('#figure').getAttribute('data-playhead').then(Number)).toBeGreaterThan(15000);
  // Both show one playhead (the audience's lags by at most the message in flight).
  const [p, a] = await Promise.all([page, audience].map((w) => w.locator('#figure').getAttribute('data-playhead').then(Number)));
  expect(Math.abs(p - a)).toBeLessThan(2000);
  await page.keyboard.press(' ');
  await expect(audience.locator('#play')).toContainText('Play');
  await expect.poll(async () => Number(await audience.locator('#figure').getAttribute('data-playhead')))
    .toBe(Number(await page.locator('#figure').getAttribute('data-playhead')));
  expect(audienceProblems).toEqual([]);
  await audience.close();
  // Alone, the presenter's window works as before: a setting redraws its figure.
  await page.locator('#preset').selectOption('short-restart');
  await expect(page.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
  await page.keyboard.press('r');
  await expect.poll(() => page.locator('#figure').getAttribute('data-playhead').then(Number)).toBeGreaterThan(3000);
  expect(problems).toEqual([]);
});

test('opened by hand in two tabs: the audience takes the presenter\'s state and keeps working when the presenter closes', async ({ context }) => {
  const presenter = await context.newPage();
  const problems = await open(presenter, '?present=notes&preset=eviction&t=200');
  await expect(presenter.locator('html')).toHaveAttribute('data-role', 'notes');
  const audience = await context.newPage();
  const audienceProblems = watch(audience);
  await audience.goto('?present=audience');
  // It opened on the default scenario and asked: the presenter's answer puts eviction on screen.
  await expect(audience.locator('#preset')).toHaveValue('eviction');
  await expect(audience.locator('#figure')).toHaveAttribute('data-playhead', '200000');
  await presenter.close();
  await audience.locator('body').click({ position: { x: 5, y: 5 } });
  await audience.keyboard.press(' ');
  await expect.poll(() => audience.locator('#figure').getAttribute('data-playhead').then(Number)).toBeGreaterThan(205000);
  expect(problems).toEqual([]);
  expect(audienceProblems).toEqual([]);
});

test('a blocked pop-up: the presenter view still starts here and says how to open the audience\'s window', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  await page.evaluate(() => { window.open = () => null; });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  await expect(page.locator('html')).toHaveAttribute('data-role', 'notes');
  await expect(page.getByLabel('Speaker notes')).toBeVisible();
  await expect(page.locator('#url-notice')).toContainText("did not open the audience's window: open http://127.0.0.1");
  await expect(page.locator('#url-notice')).toContainText('present=audience');
  expect(problems).toEqual([]);
});

test('a bad present= value is named and the page works', async ({ page }) => {
  const problems = await open(page, '?present=projector&preset=short-restart');
  await expect(page.locator('#url-notice')).toContainText('present="projector" ignored: 1 (presentation view), notes');
  await expect(page.locator('html')).toHaveAttribute('data-role', '');
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  expect(problems).toEqual([]);
});

/** Whether `sel`'s box in `page` lies within the window as it is, not scrolled. */
function onScreen(page, sel) {
  return page.evaluate((sel) => {
    const b = document.querySelector(sel)?.getBoundingClientRect();
    return !!b && b.height > 0 && scrollY === 0 && b.top >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;
  }, sel);
}

test('screenshots of both windows at 1280×720, 1366×768 and 1920×1080; the presenter\'s figure, slider, notes and next step on one screen', async ({ page }) => {
  const { problems, audience, audienceProblems } = await twoWindows(page, '?tour=kep-4781&step=3');
  await audience.bringToFront();
  for (const [w, h] of [[1280, 720], [1366, 768], [1920, 1080]]) {
    for (const [name, p] of [['presenter', page], ['audience', audience]]) {
      await p.setViewportSize({ width: w, height: h });
      await expect(p.locator('#tour-step')).toHaveText('Step 3 of 7');
      await expect(p.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
      if (name === 'presenter') {
        await expect(p.getByLabel('Speaker notes').locator('dt')).toHaveCount(5);
        for (const sel of ['#figure canvas', '#downtime', '#speaker-notes .notes-text', '#presenter-next', '#presenter-clock', '#tour-next']) {
          await expect.poll(() => onScreen(p, sel), { message: `${sel} on the presenter's screen at ${w}×${h}` }).toBe(true);
        }
        // The whole note is shown: its box does not scroll (step 3's is one of the longest); the
        // playback bar is one line that fits.
        expect(await p.locator('#speaker-notes .notes-text').evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(1);
        expect(await p.locator('.stage .playback').evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
        // Its play button is not cut ("❚❚ Paus") and its scrubber can be aimed at.
        expect(await p.locator('#play').evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
        expect((await p.locator('#scrub').boundingBox()).width, `the scrubber at ${w}×${h}`).toBeGreaterThanOrEqual(150);
      } else {
        await expect.poll(() => onScreen(p, '#figure canvas'), { message: `the audience's figure at ${w}×${h}` }).toBe(true);
      }
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // The docs show 1280×720 and 1920×1080.
      if (SHOTS === shots + '/presenting' || w !== 1366) await p.screenshot({ path: `${SHOTS}/${name}-${w}x${h}.png` });
    }
  }
  expect(problems).toEqual([]);
  expect(audienceProblems).toEqual([]);
});

// With the network off after one online visit, both windows reload from the service worker's
// cache (scripts/offline.mjs): the presenter's notes (tour/notes.json, fetched) and the
// audience's figure. Service workers are blocked in the other tests (playwright.config.mjs).
test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('after one online visit, with the network off, the presenter window reloads with its speaker notes and the audience window with its figure', async ({ page, context }) => {
    const problems = watch(page);
    await page.goto('?preset=long-restart');
    await expect(page.locator('#offline-ready')).toContainText('Ready offline');
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    const [audience] = await Promise.all([
      context.waitForEvent('page'),
      page.locator('#presenter-open').click(),
    ]);
    const audienceProblems = watch(audience);
    await expect(audience.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
    await expect(page.getByLabel('Speaker notes')).toContainText('setReadyStateOnKubeletRestart');

    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-role', 'notes');
    const notes = page.getByLabel('Speaker notes');
    await expect(notes.locator('dt')).toHaveText(['Say', 'Notice', 'Ask', 'Answer', 'Rule']);
    await expect(notes).toContainText('setReadyStateOnKubeletRestart');
    await expect(page.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
    await audience.reload();
    await expect(audience.locator('html')).toHaveAttribute('data-role', 'audience');
    await expect(audience.locator('#figure canvas').first()).toHaveAttribute('data-settled', '1');
    await expect(audience.locator('#preset')).toHaveValue('long-restart');
    // Still in step: a slider move in the presenter's window redraws the audience's.
    await page.locator('#downtime').evaluate((s) => { s.value = '20'; s.dispatchEvent(new Event('input', { bubbles: true })); });
    await expect(audience.locator('#downtime-value')).toHaveText(await page.locator('#downtime-value').textContent());
    await context.setOffline(false);
    expect(problems).toEqual([]);
    expect(audienceProblems).toEqual([]);
  });
});
