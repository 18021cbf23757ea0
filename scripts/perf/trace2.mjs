// Chromium trace of slider drags: each input dispatch's duration, and what ran inside the slow ones.
import { openPage } from './page.mjs';
const { browser, page, box, y } = await openPage('8092');
async function drag() {
  await page.mouse.move(box.x + 20, y); await page.mouse.down();
  for (let i = 0; i < 20; i++) { await page.mouse.move(box.x + 20 + i * Math.max(2, (box.width - 40) / 40), y); await page.waitForTimeout(40); }
  await page.mouse.up(); await page.waitForTimeout(300);
}
await drag();
await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8', 'v8.execute', 'disabled-by-default-v8.gc', 'disabled-by-default-v8.compile'] });
await drag(); await drag(); await drag();
const buf = await browser.stopTracing();
const ev = JSON.parse(buf.toString()).traceEvents;
const names = ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const tids = new Set(names.map((e) => `${e.pid}:${e.tid}`));
const main = ev.filter((e) => tids.has(`${e.pid}:${e.tid}`) && e.ph === 'X').sort((a, b) => a.ts - b.ts);
const inputs = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
// the whole task containing each input dispatch (RunTask / ThreadControllerImpl::RunTask)
for (const [k, inp] of inputs.entries()) {
  const task = main.filter((x) => x.name.includes('RunTask') && x.ts <= inp.ts && x.ts + x.dur >= inp.ts + inp.dur).sort((a, b) => a.dur - b.dur)[0];
  const s = task?.ts ?? inp.ts, e = s + (task?.dur ?? inp.dur);
  const inside = main.filter((x) => x.ts >= s && x.ts + x.dur <= e && x !== task && x.dur > 300);
  const agg = {};
  for (const x of inside) agg[x.name] = (agg[x.name] || 0) + x.dur / 1000;
  const line = Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', ');
  console.log(`${k}: input ${(inp.dur / 1000).toFixed(1)} task ${((task?.dur ?? 0) / 1000).toFixed(1)} | ${line}`);
}
for (const k of [20, 21]) {
  const inp = inputs[k];
  const task = main.filter((x) => x.name.includes('RunTask') && x.ts <= inp.ts && x.ts + x.dur >= inp.ts + inp.dur).sort((a, b) => a.dur - b.dur)[0];
  const s = task.ts, e = s + task.dur;
  console.log(`--- task of input ${k} (input at +${((inp.ts - s) / 1000).toFixed(2)} ms, ${(inp.dur/1000).toFixed(2)} ms)`);
  for (const x of main) if (x.ts >= s && x.ts + x.dur <= e && x !== task && x.dur > 150) console.log(`+${((x.ts - s) / 1000).toFixed(2)} ${(x.dur / 1000).toFixed(2)} ${x.name} ${x.args?.data?.type || x.args?.data?.functionName || ''}`);
}
// what runs between input k's task end and next frame's begin
// Garbage collection and tier-up inside each input dispatch, and its wall against thread time
// (a gap is time the main thread was not on a core: another process or thread had it).
for (const [k, inp] of inputs.entries()) {
  const inside = main.filter((x) => x.ts >= inp.ts && x.ts + x.dur <= inp.ts + inp.dur && /GC|Scaveng|Optimi/.test(x.name) && x.dur > 100);
  const wall = (inp.dur / 1000).toFixed(1), thread = ((inp.tdur ?? 0) / 1000).toFixed(1);
  console.log(`${k}: wall ${wall} thread ${thread}${inside.length ? ' | ' + inside.map((x) => `${x.name} ${(x.dur / 1000).toFixed(2)}`).join(', ') : ''}`);
}
await browser.close();
