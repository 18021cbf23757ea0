import { openPage } from '/work/main/scripts/perf/page.mjs';
const { browser, page, box, y } = await openPage('8092');
async function drag() {
  await page.mouse.move(box.x + 20, y); await page.mouse.down();
  for (let i = 0; i < 20; i++) { await page.mouse.move(box.x + 20 + i * Math.max(2, (box.width - 40) / 40), y); await page.waitForTimeout(40); }
  await page.mouse.up(); await page.waitForTimeout(300);
}
await drag();
await browser.startTracing(page, { categories: ['devtools.timeline', 'blink', 'v8', 'v8.execute', 'disabled-by-default-v8.gc', 'disabled-by-default-v8.compile'] });
await drag(); await drag(); await drag();
const buf = await browser.stopTracing();
const ev = JSON.parse(buf.toString()).traceEvents;
const names = ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
const tids = new Set(names.map((e) => `${e.pid}:${e.tid}`));
const main = ev.filter((e) => tids.has(`${e.pid}:${e.tid}`) && e.ph === 'X').sort((a, b) => a.ts - b.ts);
const inputs = main.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
const gcNames = new Set();
for (const x of main) if (/GC|Scaveng|Compact|Mark|Sweep|Compile|Tier|Optimi/i.test(x.name)) gcNames.add(x.name);
console.log('names', [...gcNames].join(', '));
for (const [k, inp] of inputs.entries()) {
  const s = inp.ts, e = s + inp.dur;
  const inside = main.filter((x) => x.ts >= s && x.ts + x.dur <= e && /GC|Scaveng|Compile|Tier|Optimi|Mark/i.test(x.name) && x.dur > 100);
  const agg = {};
  for (const x of inside) agg[x.name] = (agg[x.name] || 0) + x.dur / 1000;
  console.log(`${k}: input ${(inp.dur / 1000).toFixed(1)} | ${Object.entries(agg).map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')}`);
}

// wall vs thread time of each input dispatch: a gap is time the main thread was not on a core
console.log('wall/thread ms per input: ' + inputs.map((e) => `${(e.dur / 1000).toFixed(1)}/${((e.tdur ?? 0) / 1000).toFixed(1)}`).join(' '));
const busy = {};
for (const e of ev) if (e.ph === 'X' && !tids.has(`${e.pid}:${e.tid}`)) {
  for (const inp of inputs) if (inp.dur > 6000 && e.ts < inp.ts + inp.dur && e.ts + e.dur > inp.ts) { const k = `${e.pid}:${e.tid}`; busy[k] = (busy[k] || 0) + Math.min(e.ts + e.dur, inp.ts + inp.dur) - Math.max(e.ts, inp.ts); }
}
const tn = new Map(ev.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
console.log('other threads during slow inputs (ms):', Object.entries(busy).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${tn.get(k)} ${(v / 1000).toFixed(1)}`).join(', '));
await browser.close();
