import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
const paste = readFileSync(process.argv[2], 'utf8');
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [w, h] of [[1440, 900], [390, 844]]) {
  const p = await b.newPage({ viewport: { width: w, height: h } });
  await p.goto('http://localhost:4173/?preset=short-restart');
  if (!(await p.locator('#import-panel').isVisible())) await p.locator('#import-open').click();
  await p.locator('#import-text').fill(paste);
  await p.locator('#import-replay').click();
  await p.locator('#import-ranking li').first().waitFor();
  await p.locator('#import-ranking').scrollIntoViewIfNeeded();
  await p.screenshot({ path: `/tmp/shot-${w}.png` });
  await p.close();
}
await b.close();
