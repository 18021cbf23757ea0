// DOM mutations per slider move during a drag
import { openPage } from './page.mjs';
const { browser, page, box, y } = await openPage('8092');
await page.mouse.move(box.x + 20, y); await page.mouse.down();
for (let i = 0; i < 3; i++) { await page.mouse.move(box.x + 20 + i * 10, y); await page.waitForTimeout(40); }
await page.evaluate(() => {
  window.__m = {};
  const desc = (n) => { const el = n.nodeType === 1 ? n : n.parentElement; return el ? `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''}` : '?'; };
  new MutationObserver((ms) => { for (const m of ms) { const k = `${m.type} ${desc(m.target)} ${m.attributeName || ''}`; window.__m[k] = (window.__m[k] || 0) + 1; } })
    .observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
});
for (let i = 3; i < 13; i++) { await page.mouse.move(box.x + 20 + i * 10, y); await page.waitForTimeout(40); }
const m = await page.evaluate(() => window.__m);
console.log(Object.entries(m).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`).join('\n'));
await page.mouse.up();
await browser.close();
