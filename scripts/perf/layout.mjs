// Which layout roots and how many dirty objects each frame's Layout has during a drag.
import { openPage } from './page.mjs';
const { browser, page, box, y } = await openPage('8092');
await page.mouse.move(box.x + 20, y); await page.mouse.down();
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'] });
for (let i = 0; i < 8; i++) { await page.mouse.move(box.x + 30 + i * 12, y); await page.waitForTimeout(40); }
const buf = await browser.stopTracing();
await page.mouse.up();
const ev = JSON.parse(buf.toString()).traceEvents;
for (const e of ev.filter((e) => e.name === 'Layout' && e.ph === 'X')) {
  console.log((e.dur / 1000).toFixed(2), JSON.stringify(e.args.beginData || {}).slice(0, 120), JSON.stringify((e.args.endData?.layoutRoots || []).map((r) => r.nodeName || r.nodeId)).slice(0, 300));
}
for (const e of ev.filter((e) => (e.name === 'UpdateLayoutTree' || e.name === 'Document::recalcStyle') && e.ph === 'X' && e.dur > 100)) console.log(e.name, (e.dur / 1000).toFixed(2), JSON.stringify(e.args?.elementCount ?? e.args?.beginData ?? '').slice(0, 100));
await browser.close();
