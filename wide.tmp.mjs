import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const p = await b.newPage({ viewport: { width: 320, height: 900 } });
await p.goto(process.argv[2]);
await p.waitForTimeout(1500);
const f = p.frame({ url: /embed=1/ });
console.log(await f.evaluate(() => {
  const W = document.documentElement.clientWidth;
  return [W, document.documentElement.scrollWidth, ...[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > W + 1).slice(0, 12).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))];
}));
await p.screenshot({ path: '/tmp/embed320.png', fullPage: true });
await b.close();
