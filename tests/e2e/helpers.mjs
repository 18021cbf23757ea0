// Shared by the browser tests: open the page and collect everything that should not happen.
import { expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';

export const shots = 'artifacts/screenshots';
mkdirSync(shots, { recursive: true });

/**
 * Opens `path` and returns a list that fills with console errors, page errors, dialogs (a
 * parameter that ran as script) and any request off the page's own origin (the app must work
 * offline), which is also aborted.
 */
export async function open(page, path = '') {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.context().route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.protocol !== 'data:' && u.protocol !== 'blob:' && u.hostname !== '127.0.0.1') {
      problems.push(`off-origin request: ${u}`);
      return route.abort();
    }
    return route.continue();
  });
  await page.goto(path);
  await expect(page.locator('#downtime')).toBeVisible();
  await expect(page.locator('#figure canvas').first()).toBeVisible();
  return problems;
}

/** Many Pods with random names and probe timings: its packed scenario does not fit in a link
 * (import-files.spec) and importing it once blocked the page for seconds (import-speed.spec). */
export function largeManifest(pods = 100, containers = 5) {
  let s = 20260514;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const word = (n) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)]).join('');
  const docs = [];
  const names = [];
  for (let p = 0; p < pods; p++) {
    const name = `p${p}-${word(10)}`;
    names.push(name);
    let c = '';
    for (let k = 0; k < containers; k++) {
      c += `  - name: ${word(12)}
    image: x
    readinessProbe: {tcpSocket: {port: ${1000 + Math.floor(rnd() * 9000)}}, periodSeconds: ${1 + Math.floor(rnd() * 30)}, failureThreshold: ${1 + Math.floor(rnd() * 9)}}
    livenessProbe: {tcpSocket: {port: 80}, periodSeconds: ${1 + Math.floor(rnd() * 60)}, failureThreshold: ${1 + Math.floor(rnd() * 9)}}
`;
    }
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: ${1 + Math.floor(rnd() * 90)}
  containers:
${c}`);
  }
  return { text: docs.join('---\n'), names };
}

/**
 * The figure as drawn, once settled: its words (every text and tooltip, the canvas's fallback
 * content), each run's box and its pixels. Two equal results are the same picture.
 */
export async function figureOf(page) {
  const c = page.locator('#figure canvas').first();
  await expect(c).toHaveAttribute('data-settled', '1');
  // The figure's rows only: the backing store may be taller (canvas.rs keeps it when the
  // figure gets shorter), and what is below them is not shown.
  return c.evaluate((cv) => {
    const rows = document.createElement('canvas');
    rows.width = cv.width; rows.height = Number(cv.dataset.rows);
    rows.getContext('2d').drawImage(cv, 0, 0);
    return `${cv.querySelector('.rs-words').innerHTML}\n${cv.dataset.groups}\n${rows.toDataURL()}`;
  });
}

/** In the page (or a frame): the figure's box, each run's box and its smallest text, on screen (CSS px). */
export function figureGeometry() {
  const cv = document.querySelector('#figure canvas');
  const r = cv.getBoundingClientRect();
  const k = r.width / (cv.width / devicePixelRatio);
  const groups = (cv.dataset.groups || '').split(';').filter(Boolean).map((g) => {
    const [y, h] = g.split(' ').map(Number);
    return { top: r.top + y * k, bottom: r.top + (y + h) * k, left: r.left, right: r.right };
  });
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, groups, minFont: Number(cv.dataset.textMin) * k };
}
