// per move: the slider value, work (dispatch → first of posted task / rAF), own (→ the event's last
// listener and its microtasks) and the model's data-compute-ms; four drags
import { openPage } from './page.mjs';
const { browser, page, box, y } = await openPage('8092');
await page.evaluate(() => {
  window.__w = [];
  let cur = null;
  window.addEventListener('input', () => { const c = cur; queueMicrotask(() => { if (c) c.own ??= performance.now() - c.d; }); });
  document.addEventListener('input', (e) => {
    const d = performance.now(); let end = null; const v = e.target.value; const me = { d, own: null }; cur = me;
    const ch = new MessageChannel(); ch.port1.onmessage = () => { end ??= performance.now(); }; ch.port2.postMessage(0);
    requestAnimationFrame(() => { end ??= performance.now(); window.__w.push([v, +(end - d).toFixed(1), +(me.own ?? 0).toFixed(1), +document.documentElement.dataset.computeMs, +document.documentElement.dataset.modelMs]); });
  }, true);
});
for (let r = 0; r < 4; r++) {
  await page.mouse.move(box.x + 20, y); await page.mouse.down();
  for (let i = 0; i < 20; i++) { await page.mouse.move(box.x + 20 + i * Math.max(2, (box.width - 40) / 40), y); await page.waitForTimeout(40); }
  await page.mouse.up();
  await page.waitForTimeout(300);
}
const ws = await page.evaluate(() => window.__w);
console.log(ws.map((x) => x.join(':')).join('  '));
await browser.close();
