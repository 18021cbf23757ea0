// The page every script here profiles: `[width height preset port]` from the command line, a
// headless Chromium at that size on http://127.0.0.1:PORT/?preset=PRESET&t=30, settled, and the
// downtime slider's box (`y`: its middle). `PRESENT=1`: the presenter view, its audience's window
// (1280×720) opened with the Presenter view button; the page is the presenter's.
import { chromium } from '@playwright/test';

export async function openPage(defaultPort) {
  const [w, h, preset, port] = [Number(process.argv[2] || 1440), Number(process.argv[3] || 900), process.argv[4] || 'short-restart', process.argv[5] || defaultPort];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  await page.goto(`http://127.0.0.1:${port}/?preset=${preset}&t=30`);
  await page.waitForSelector('#figure canvas');
  await page.waitForTimeout(1000);
  if (process.env.PRESENT) {
    const [audience] = await Promise.all([page.context().waitForEvent('page'), page.locator('#presenter-open').click()]);
    await audience.waitForLoadState();
    await audience.setViewportSize({ width: 1280, height: 720 });
    await audience.waitForSelector('#figure canvas[data-settled="1"]');
    await page.waitForTimeout(1000);
  }
  const box = await page.locator('#downtime').boundingBox();
  return { browser, page, box, y: box.y + box.height / 2 };
}
