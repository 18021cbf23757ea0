// The animated SVG plays where iframes and scripts are stripped — inside an <img>,
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

// The app's own exports for a README: "Download animated SVG" gives the command
// line's figure, animated, with every pod even when the page's figure leaves some out to fit the
// window; "Copy for a README" gives `[![alt](file)](link)` with alt text that tells the story.
test('the app downloads the animated SVG and copies README markdown with real alt text', async ({ browser }) => {
  const { open } = await import('./helpers.mjs');
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await ctx.newPage();
  const problems = await open(page, '?preset=long-restart&t=150');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('#download-animated-svg').click()]);
  expect(dl.suggestedFilename()).toBe('restartscope-long-restart-90s-animated.svg');
  const text = readFileSync(await dl.path(), 'utf8');
  expect(text.startsWith('<svg')).toBeTruthy();
  expect(text).toContain('@keyframes');
  expect(text).not.toMatch(/<script|href="http|@import|url\(http/);
  for (const pod of ['web-0', 'web-1', 'web-2']) expect(text).toContain(pod);
  // What to watch, under the title, as the command line's figures have it.
  expect(text).toContain('Watch — legacy kubelet:');
  await page.locator('#copy-readme').click();
  await expect(page.locator('#copy-readme')).toHaveText('✓ Markdown copied');
  const md = await page.evaluate(() => navigator.clipboard.readText());
  expect(md).toMatch(/^\[!\[RestartScope timeline of long-restart \(3 pods, Kubernetes 1\.35\): the kubelet stops at 30s for 1m30s\. 1\.35 · legacy \(opt-in gate\): \d+ Ready transitions, \d+ EndpointSlice updates, \d+ evictions; 1\.35 · default \(KEP-4781\): .*\]\(restartscope-long-restart-90s-animated\.svg\)\]\(http:\/\/127\.0\.0\.1:\d+\/\?preset=long-restart&.*\)$/);
  await expect(page.locator('#readme-md')).toContainText(md);
  // The downloaded file shown as a README shows it: in an <img>, it plays.
  const img = await ctx.newPage();
  await img.setContent(`<img id="fig" src="data:image/svg+xml;base64,${Buffer.from(text).toString('base64')}">`);
  await img.locator('#fig').evaluate((i) => i.decode());
  const a = await img.locator('#fig').screenshot();
  await img.waitForTimeout(2500);
  const b = await img.locator('#fig').screenshot();
  expect(Buffer.compare(a, b)).not.toBe(0);
  expect(problems).toEqual([]);
  await ctx.close();
});
