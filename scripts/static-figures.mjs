// The figure first: run by scripts/build.sh after the release build. Every preset's figure, as
// the CLI draws it (`restartscope simulate --preset NAME --format svg`: the same model and the
// same figure code as the app, so nothing here can drift from it), goes to
// dist/figures/NAME.svg, and the default preset's figure into dist/index.html itself, so the
// loading skeleton shows the scene in the address before the wasm has arrived:
//
// - the default preset's figure is an <img> with the SVG inline (a data: URL: no request of its
//   own, no style shared with the page);
// - a small script right after it shows `figures/NAME.svg` for `?preset=NAME`, and no figure at
//   all for an address that changes what the figure draws (a downtime, a release, restarts, an
//   imported workload, a tour, the presenter's notes window) or its colours (`theme=` other than the
//   reader's scheme): the skeleton says "Loading" there, as it did before.
//
// The app replaces the skeleton when it mounts (src/lib.rs); tests/e2e/first-figure.spec.mjs
// compares the two figures' words and times the first paint on a throttled link.
//
// Usage: node scripts/static-figures.mjs DIST CLI
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const [dist = 'dist', cli = 'target/debug/restartscope'] = process.argv.slice(2);
const DEFAULT = 'short-restart';
// The query keys that leave the figure as the preset draws it (`present` too: the presenter's
// projector on a slow network is where the figure first matters most; not its notes window).
const VIEW_KEYS = ['preset', 't', 'speed', 'theme', 'embed', 'present'];

const presets = execFileSync(cli, ['presets'], { encoding: 'utf8' })
  .split('\n')
  .map((l) => l.split(/\s+/)[0])
  .filter((n) => /^[a-z0-9][a-z0-9.-]*$/.test(n));
if (!presets.includes(DEFAULT)) throw new Error(`static-figures: ${DEFAULT} is not among the CLI's presets`);

mkdirSync(join(dist, 'figures'), { recursive: true });
const svgs = {};
let bytes = 0;
for (const p of presets) {
  // The app's form gives the first restart's start and downtime even when they are the preset's
  // own, and `Scenario::with_restart` then extends the run to show what follows the return: the
  // CLI is given the preset's own downtime too, so both draw the same span.
  const scenario = JSON.parse(execFileSync(cli, ['simulate', '--preset', p, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 26 })).scenario;
  const first = scenario.kubelet.restarts?.[0];
  const downtime = first ? ['--downtime', `${first.downtime_s}s`] : [];
  const svg = execFileSync(cli, ['simulate', '--preset', p, ...downtime, '--format', 'svg'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (!svg.startsWith('<svg')) throw new Error(`static-figures: the CLI's figure of ${p} is not an SVG`);
  writeFileSync(join(dist, 'figures', `${p}.svg`), svg);
  svgs[p] = svg;
  bytes += svg.length;
}

const title = (svg) => (svg.match(/<title id="rs-title">([^<]*)<\/title>/) || [])[1] || 'The figure';
// A data: URL in a double-quoted attribute: '%' and '#' percent-encoded (URL syntax), '"' too
// (the attribute's quote), '&' as the HTML entity (attribute syntax). Everything else as is,
// which gzip compresses as well as the file itself.
const dataUrl = (svg) => 'data:image/svg+xml;charset=utf-8,' + svg
  .replace(/%/g, '%25').replace(/#/g, '%23').replace(/"/g, '%22').replace(/&/g, '&amp;')
  .replace(/\n/g, '%0A');

const figure = `<img id="first-figure" elementtiming="first-figure" src="${dataUrl(svgs[DEFAULT])}" alt="${title(svgs[DEFAULT]).replace(/"/g, '&quot;')}" data-preset="${DEFAULT}">`;
const choose = `<script id="rs-first-figure">
(() => {
  const img = document.getElementById('first-figure');
  const fig = img.parentElement;
  const q = new URLSearchParams(location.search);
  const presets = ${JSON.stringify(presets)};
  const keys = ${JSON.stringify(VIEW_KEYS)};
  const preset = q.getAll('preset').pop() || '${DEFAULT}';
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const theme = q.get('theme');
  const same = [...q.keys()].every((k) => keys.includes(k)) && presets.includes(preset) &&
    !(theme === 'dark' && !dark) && !(theme === 'light' && dark) && q.get('present') !== 'notes';
  if (!same) { img.remove(); fig.classList.remove('has-figure'); return; }
  if (preset !== img.dataset.preset) {
    img.src = 'figures/' + preset + '.svg';
    img.alt = 'The figure of ' + preset;
    img.dataset.preset = preset;
  }
})();
</script>`;

const page = join(dist, 'index.html');
// Run again on the same build, it replaces its own figure and script.
let html = readFileSync(page, 'utf8')
  .replace(/<script id="rs-first-figure">[\s\S]*?<\/script>/, '')
  .replace(/<div class="fig has-figure" role="status"><img id="first-figure"[\s\S]*?data-preset="[^"]*">/, '<div class="fig" role="status">');
// Trunk's release build minifies the HTML: attribute quotes are optional.
const slot = /<div class="?fig"? role="?status"?>(<span>Loading the model \(about \d+ KB\)…<\/span>)<\/div>/;
if (!slot.test(html)) throw new Error('static-figures: dist/index.html has no loading figure to fill');
html = html.replace(slot, (_, span) => `<div class="fig has-figure" role="status">${figure}${span}</div>${choose}`);
writeFileSync(page, html);
console.log(`static figures: ${presets.length} presets (${Math.round(bytes / 1024)} KB of SVG) in ${dist}/figures/, ${DEFAULT} inline in index.html`);
