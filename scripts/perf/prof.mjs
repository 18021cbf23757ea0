// CPU profile (CDP Profiler) of slider drags; self time by function, ms per input event.
import { openPage } from './page.mjs';
const { browser, page, box, y } = await openPage('8091');
let n = 0;
await page.exposeFunction('__n', () => n++);
await page.evaluate(() => document.addEventListener('input', () => window.__n(), true));
async function drag() {
  await page.mouse.move(box.x + 20, y); await page.mouse.down();
  for (let i = 0; i < 20; i++) { await page.mouse.move(box.x + 20 + i * Math.max(2, (box.width - 40) / 40), y); await page.waitForTimeout(40); }
  await page.mouse.up();
}
await drag();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
n = 0;
await cdp.send('Profiler.start');
for (let i = 0; i < 5; i++) await drag();
const { profile } = await cdp.send('Profiler.stop');
const moves = n;
const byId = new Map(profile.nodes.map((x) => [x.id, x]));
const parent = new Map();
for (const x of profile.nodes) for (const c of x.children || []) parent.set(c, x.id);
const dt = profile.timeDeltas; const self = new Map(); const total = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]; const d = (dt[i + 1] ?? 0) / 1000;
  const nm = (x) => `${x.callFrame.functionName || '(anon)'}`;
  const node = byId.get(id); self.set(nm(node), (self.get(nm(node)) || 0) + d);
  const seen = new Set(); let cur = id;
  while (cur !== undefined) { const k = nm(byId.get(cur)); if (!seen.has(k)) { seen.add(k); total.set(k, (total.get(k) || 0) + d); } cur = parent.get(cur); }
}
console.log('input events', moves);
const show = (m, k) => [...m.entries()].filter(([n]) => !['(idle)', '(root)', '(program)'].includes(n)).sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, v]) => `${(v / moves).toFixed(3)} ms  ${n.slice(0, 140)}`).join('\n');
console.log('--- self'); console.log(show(self, 45));
console.log('--- total'); console.log(show(total, 60));
// top-down tree, inclusive ms per move, children over 0.08 ms
import('node:fs').then(fs => fs.writeFileSync('/tmp/profile.json', JSON.stringify(profile)));
const incl = new Map();
for (let i = 0; i < profile.samples.length; i++) { let cur = profile.samples[i]; const d = (dt[i + 1] ?? 0) / 1000; while (cur !== undefined) { incl.set(cur, (incl.get(cur) || 0) + d); cur = parent.get(cur); } }
const lines = [];
function walk(id, depth) {
  const x = byId.get(id); const v = (incl.get(id) || 0) / moves;
  if (v < 0.08) return;
  lines.push(`${'  '.repeat(depth)}${v.toFixed(2)} ${(x.callFrame.functionName || '(anon)').replace(/::h[0-9a-f]{16}/g,'').slice(0, 120)}`);
  for (const c of (x.children || []).sort((a, b) => (incl.get(b) || 0) - (incl.get(a) || 0))) walk(c, depth + 1);
}
walk(profile.nodes[0].id, 0);
import('node:fs').then(fs => fs.writeFileSync('/tmp/tree.txt', lines.join('\n')));
await new Promise(r => setTimeout(r, 200));
await browser.close();
