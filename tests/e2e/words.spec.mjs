// Every word and number beside the figure agrees with the runs drawn: for every preset, its own
// sentence while untouched; at several downtimes, the scenario line computed from the runs, whose
// totals equal the metric cards', the figure's header and the figure's downtime label.
import { test, expect } from '@playwright/test';
import { open } from './helpers.mjs';

async function setDowntime(page, seconds) {
  await page.locator('#downtime').evaluate((el, s) => {
    const steps = [];
    for (let i = 0; i <= 60; i++) steps.push(i);
    for (let i = 13; i <= 36; i++) steps.push(i * 5);
    for (let i = 19; i <= 60; i++) steps.push(i * 10);
    el.value = String(steps.indexOf(s));
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, seconds);
}

const fmt = (s) => (s >= 60 ? `${Math.floor(s / 60)}m${s % 60 ? `${s % 60}s` : ''}` : `${s}s`);

test('every preset: its sentence while untouched, words from the runs after a change, the same totals everywhere', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = await open(page);
  const presets = await page.locator('#preset option').evaluateAll((os) => os.map((o) => o.value));
  expect(presets.length).toBeGreaterThan(10);
  for (const preset of presets) {
    await page.locator('#preset').selectOption(preset);
    await expect(page.locator('#teaches'), preset).not.toContainText('Edited from');
    await expect(page.locator('#teaches'), preset).not.toBeEmpty();
    const own = await page.locator('#downtime-value').textContent();
    const sentence = await page.locator('#teaches').textContent();
    for (const down of [15, 90, 400]) {
      await setDowntime(page, down);
      await expect(page.locator('#downtime-value'), `${preset} ${down}`).toHaveText(fmt(down));
      const teaches = page.locator('#teaches');
      if (fmt(down) === own) {
        // Back on the preset's own values: its own sentence again.
        await expect(teaches, `${preset} ${down}`).toHaveText(sentence);
        continue;
      }
      // What restarts, in RestartKind's words (a runtime restart, a node reboot, the kubelet).
      await expect(teaches, `${preset} ${down}`).toContainText(
        new RegExp(`Edited from ${preset.replace(/[.]/g, '\\.')}: (the kubelet stops|a container runtime restart|a node reboot) at `));
      await expect(teaches, `${preset} ${down}`).toContainText(` for ${fmt(down)}`);
      // Each run's totals in the line are the cards' (whole-run totals at every playhead).
      const runs = await page.locator('#metric-ready_transitions .vals > span').evaluateAll((spans) => spans.map((s) => ({
        kubelet: s.querySelector('small').textContent,
        ready: s.querySelector('b').textContent,
      })));
      const evictions = await page.locator('#metric-evictions .vals b').allTextContents();
      for (const [i, r] of runs.entries()) {
        const n = Number(r.ready.replace(/[^0-9]/g, ''));
        const word = n === 1 ? 'Ready transition' : 'Ready transitions';
        await expect(teaches, `${preset} ${down}`).toContainText(`${r.kubelet}: ${r.ready} ${word}`);
        const e = Number(evictions[i].replace(/[^0-9]/g, ''));
        await expect(teaches, `${preset} ${down}`).toContainText(`${evictions[i]} ${e === 1 ? 'eviction' : 'evictions'}`);
        // The figure's header prints the same totals (its fallback text holds the header lines).
        await expect(page.locator('#figure canvas').first(), `${preset} ${down}`).toContainText(`${r.ready} ${word}`);
      }
    }
  }
  expect(problems).toEqual([]);
});
