// Under prefers-reduced-motion the animated SVG in an <img> shows its final frame and
// holds still. Reduced motion is a browser setting that reaches the SVG image's own document;
// Playwright's emulateMedia does not (it reaches the page, not an <img>'s SVG), so this file's
// browser starts with the setting, as a reader's would (test.use at the top level: a
// describe group cannot change the launch options).
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { shots } from './helpers.mjs';

const svg = readFileSync(new URL('./fixtures/short-restart-animated.svg', import.meta.url));
const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      '--force-prefers-reduced-motion'],
  },
});

test('the animated SVG in <img> shows its final frame and holds still', async ({ page }) => {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.setContent(
    '<!doctype html><body style="margin:0;padding:16px;background:#ffffff">' +
    `<img id="fig" alt="kubelet restart, legacy vs KEP-4781" src="${src}"></body>`);
  const img = page.locator('#fig');
  await img.evaluate((i) => i.decode());
  await page.waitForTimeout(500);
  const a = await img.screenshot({ path: `${shots}/animated-svg-reduced-motion.png` });
  await page.waitForTimeout(3000);
  const b = await img.screenshot();
  expect(Buffer.compare(a, b)).toBe(0);
  expect(problems).toEqual([]);
});
