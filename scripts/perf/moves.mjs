// per-move work (dispatch → first of posted task / rAF) with the slider value, one drag sweep
import { chromium } from '@playwright/test';
const [w, h, preset, port] = [Number(process.argv[2] || 1440), Number(process.argv[3] || 900), process.argv[4] || 'short-restart', process.argv[5] || '8092'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: w, height: h } });
await page.goto(`http://127.0.0.1:${port}/?preset=${preset}&t=30`);
await page.waitForSelector('#figure canvas');
await page.waitForTimeout(800);
await page.evaluate(() => {
  window.__w = [];
  document.addEventListener('input', (e) => {
    const d = performance.now(); let end = null; const v = e.target.value;
    const ch = new MessageChannel(); ch.port1.onmessage = () => { end ??= performance.now(); }; ch.port2.postMessage(0);
    requestAnimationFrame(() => { end ??= performance.now(); window.__w.push([v, +(end - d).toFixed(1), +document.documentElement.dataset.computeMs]); });
  }, true);
});
const box = await page.locator('#downtime').boundingBox();
const y = box.y + box.height / 2;
for (let r = 0; r < 4; r++) {
  await page.mouse.move(box.x + 20, y); await page.mouse.down();
  for (let i = 0; i < 20; i++) { await page.mouse.move(box.x + 20 + i * Math.max(2, (box.width - 40) / 40), y); await page.waitForTimeout(40); }
  await page.mouse.up();
  await page.waitForTimeout(300);
}
const ws = await page.evaluate(() => window.__w);
console.log(ws.map((x) => x.join(':')).join('  '));
await browser.close();
