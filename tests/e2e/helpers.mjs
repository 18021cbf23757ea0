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
  await expect(page.locator('#figure svg').first()).toBeVisible();
  return problems;
}
