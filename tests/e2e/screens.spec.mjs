// Screenshots for a person to look at (artifacts/screenshots/screen-*.png): the default scene and a
// release with one kubelet, at 1280×720 and 1440 wide, light and dark. Each also checks that the
// page does not overflow sideways and logs nothing wrong.
import { test, expect } from '@playwright/test';
import { open, shots } from './helpers.mjs';

const scenes = [
  ['default', '?t=60'],
  ['v1.34', '?version=1.34&t=60'],
];
const sizes = [
  ['1280x720', { width: 1280, height: 720 }, false],
  ['1440', { width: 1440, height: 900 }, true],
];

for (const theme of ['light', 'dark']) {
  for (const [scene, query] of scenes) {
    for (const [size, viewport, fullPage] of sizes) {
      test(`screenshot ${scene} ${size} ${theme}`, async ({ browser }) => {
        const ctx = await browser.newContext({ colorScheme: theme, viewport });
        const page = await ctx.newPage();
        const problems = await open(page, query);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expect(page.locator('#clock')).toHaveText('1m');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        await page.screenshot({ path: `${shots}/screen-${scene}-${size}-${theme}.png`, fullPage });
        expect(problems).toEqual([]);
        await ctx.close();
      });
    }
  }
}

test('screenshot of the parameters with every release', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await open(page, '?version=main&t=60');
  await page.locator('details.params summary').click();
  await expect(page.locator('#version-note')).toContainText('same container ID');
  await page.locator('details.params').screenshot({ path: `${shots}/screen-params-main.png` });
  expect(problems).toEqual([]);
});
