import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const p = await b.newPage({ viewport: { width: 1400, height: 1000 } });
await p.goto(process.argv[2]);
await p.waitForTimeout(1000);
for (const name of ['short-restart','long-restart','eviction']) {
  await p.locator('#preset').selectOption(name);
  const out = [];
  for (const pos of [20, 40, 60, 70, 80, 66, 90, 100, 20, 66]) {
    await p.locator('#downtime').evaluate((el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, pos);
    await p.waitForTimeout(30);
    out.push(await p.evaluate(() => [document.documentElement.dataset.modelMs, document.documentElement.dataset.computeMs].join('/')));
  }
  console.log(name, out.join(' '));
}
await b.close();
