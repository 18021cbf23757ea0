// Issue 25: the animated SVG plays where iframes and scripts are stripped — inside an <img>,
// as a GitHub README shows it. The fixture is what `restartscope simulate --preset short-restart
// --format svg --animate` writes (crates/cli/tests/animate.rs keeps it current). It is loaded
// from a data: URL into a page set with page.setContent (no server, no other request): the
// picture changes between two moments 3 s apart, no console error; under
// prefers-reduced-motion it holds still; in a dark colour scheme its background is dark.
// Screenshots on GitHub's light (#ffffff) and dark (#0d1117) backgrounds land in
// artifacts/screenshots/ for a person to look at.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { shots } from './helpers.mjs';

const svg = readFileSync(new URL('./fixtures/short-restart-animated.svg', import.meta.url));
const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;

/** A page showing the SVG in an <img> on `bg`; returns the problems seen (console errors,
 * page errors, any request that is not a data: URL). */
async function show(page, bg) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith('data:')) problems.push(`request: ${r.url()}`); });
  await page.setContent(
    `<!doctype html><body style="margin:0;padding:16px;background:${bg}">` +
    `<img id="fig" alt="kubelet restart, legacy vs KEP-4781" src="${src}"></body>`);
  const img = page.locator('#fig');
  await img.evaluate((i) => i.decode());
  expect(await img.evaluate((i) => i.naturalWidth)).toBeGreaterThan(600);
  return { problems, img };
}

for (const [scheme, bg] of [['light', '#ffffff'], ['dark', '#0d1117']]) {
  test(`the animated SVG plays inside <img> (${scheme}, background ${bg})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'no-preference' });
    const { problems, img } = await show(page, bg);
    await page.waitForTimeout(1000);
    const a = await img.screenshot({ path: `${shots}/animated-svg-${scheme}-1.png` });
    await page.waitForTimeout(3000);
    const b = await img.screenshot({ path: `${shots}/animated-svg-${scheme}-2.png` });
    expect(Buffer.compare(a, b)).not.toBe(0);
    // The figure's background follows the scheme: a pixel of its top-left corner.
    const corner = await page.evaluate(async (src) => {
      const i = new Image();
      i.src = src;
      await i.decode();
      const c = document.createElement('canvas');
      c.width = 20; c.height = 20;
      const ctx = c.getContext('2d');
      ctx.drawImage(i, 0, 0);
      return Array.from(ctx.getImageData(4, 4, 1, 1).data);
    }, src);
    const lum = (corner[0] + corner[1] + corner[2]) / 3;
    if (scheme === 'dark') expect(lum).toBeLessThan(80);
    else expect(lum).toBeGreaterThan(230);
    expect(problems).toEqual([]);
  });
}

// Reduced motion: animated-svg-reduced-motion.spec.mjs (a browser started with the setting).

// A page that inlines the SVG (kubernetes.io's figure shortcode) picks the theme with its own
// color-scheme (light-dark()), whatever the reader's system prefers; the figure's final frame
// (no veil) is what the reduced-motion rule leaves.
test('inlined, the figure follows the host page\'s color-scheme', async ({ page }) => {
  const text = svg.toString('utf8');
  for (const [os, host, dark] of [['light', 'dark', true], ['dark', 'light', false], ['dark', 'light dark', true], ['light', 'light dark', false]]) {
    await page.emulateMedia({ colorScheme: os, reducedMotion: 'reduce' });
    await page.setContent(`<!doctype html><html style="color-scheme: ${host}"><body>${text}</body></html>`);
    const fill = await page.evaluate(() => getComputedStyle(document.querySelector('.rs-bg')).fill);
    expect(fill, `system ${os}, page color-scheme ${host}`).toBe(dark ? 'rgb(27, 30, 35)' : 'rgb(255, 255, 255)');
    const veil = await page.evaluate(() => getComputedStyle(document.querySelector('.rs-veil')).animationName);
    expect(veil).toBe('none');
  }
});
