// What `restartscope simulate --format mermaid-md` writes renders as Mermaid draws it, and each
// diagram of `--format mermaid` (Mermaid itself, a `%%` line before each) parses as it is.
// The CLI runs inside the test: `scripts/test.sh` hands over the binary `cargo test --workspace`
// has just built (RESTARTSCOPE_BIN, no second build); run alone, the spec asks
// `cargo run -p restartscope-cli`. Each ```mermaid block goes to a page of the test's own making
// that loads the `mermaid` package's bundle from node_modules (a devDependency, pinned), served
// through page.route: nothing comes from the internet, and any other request is a failure.
// Every preset's diagrams parse (mermaid.parse); for short-restart, long-restart, eviction and
// report-141155-started-by-name each also renders to an SVG (mermaid.render) with its
// participants, notes and messages drawn, no error diagram, no console error. Screenshots of
// long-restart on GitHub's light (#ffffff, theme default) and dark (#0d1117, theme dark)
// backgrounds land in artifacts/screenshots/ for a person to look at.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { shots } from './helpers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = join(root, 'node_modules/mermaid/dist/mermaid.min.js');
const origin = 'http://mermaid.restartscope.test';

/** The CLI's standard output for `args`. */
function cli(args) {
  const bin = process.env.RESTARTSCOPE_BIN;
  const [cmd, pre] = bin ? [bin, []] : ['cargo', ['run', '-q', '-p', 'restartscope-cli', '--']];
  const r = spawnSync(cmd, [...pre, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.error || r.stderr}`);
  return r.stdout;
}

/** The ```mermaid blocks of a markdown text, each with the heading above it. */
function blocks(md) {
  const out = [];
  const re = /^### (.*)\n\n```mermaid\n([\s\S]*?)```/gm;
  for (let m; (m = re.exec(md));) out.push({ heading: m[1], code: m[2] });
  return out;
}

/** The diagrams of `--format mermaid` (Mermaid itself): each after its `%%` line naming the run. */
function mmd(text) {
  expect(text).not.toContain('```');
  return text.split(/^%% /m).slice(1).map((p) => {
    const i = p.indexOf('\n');
    return { heading: `mmd: ${p.slice(0, i)}`, code: `%% ${p}` };
  });
}

/** What a diagram's source declares and draws: participant labels, notes, arrows. */
function expected(code) {
  const lines = code.split('\n').map((l) => l.trim());
  return {
    actors: lines.filter((l) => l.startsWith('participant ')).map((l) => l.split(' as ')[1]),
    notes: lines.filter((l) => l.startsWith('Note over ')).length,
    messages: lines.filter((l) => l.includes('->>')).length,
  };
}

/** A page on `bg` with mermaid loaded; returns the problems seen (console errors, page errors,
 * requests for anything but the page and the bundle). */
async function mermaidPage(page, bg) {
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.origin === origin && u.pathname === '/') {
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html><head><meta charset="utf-8"><title>mermaid</title></head>` +
          `<body style="margin:0;padding:16px;background:${bg}"><div id="out"></div>` +
          `<script src="/mermaid.min.js"></script></body></html>`,
      });
    }
    if (u.origin === origin && u.pathname === '/mermaid.min.js') {
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(bundle) });
    }
    if (u.protocol !== 'data:' && u.protocol !== 'blob:') problems.push(`request: ${u}`);
    return u.protocol === 'data:' || u.protocol === 'blob:' ? route.continue() : route.abort();
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => typeof window.mermaid?.render === 'function');
  return problems;
}

/** Parses and renders `code` into #out with `theme`; returns what the SVG holds. */
async function render(page, code, theme, id) {
  return page.evaluate(async ({ code, theme, id }) => {
    const { mermaid } = window;
    // GitHub's settings: strict security (no HTML in labels, no click handlers).
    mermaid.initialize({ startOnLoad: false, theme, securityLevel: 'strict' });
    const parsed = await mermaid.parse(code).then(() => 'ok', (e) => String(e?.message || e));
    let svg = '';
    let error = '';
    try {
      ({ svg } = await mermaid.render(id, code));
    } catch (e) {
      error = String(e?.message || e);
    }
    const out = document.getElementById('out');
    out.innerHTML = svg;
    const el = out.querySelector('svg');
    const texts = (sel) => [...out.querySelectorAll(sel)].map((t) => t.textContent.trim());
    return {
      parsed,
      error,
      svg: !!el,
      width: el ? el.getBoundingClientRect().width : 0,
      errorDiagram: !!out.querySelector('.error-icon, .error-text') || /Syntax error/i.test(out.textContent),
      actors: texts('text.actor, .actor tspan'),
      notes: out.querySelectorAll('.note').length,
      noteTexts: texts('.noteText'),
      messages: texts('.messageText'),
    };
  }, { code, theme, id });
}

const PRESETS = ['short-restart', 'long-restart', 'eviction', 'report-141155-started-by-name'];

test.describe('the CLI\'s --format mermaid renders', () => {
  for (const preset of PRESETS) {
    test(`${preset}: each run renders to an SVG with its participants, notes and messages`, async ({ page }) => {
      const md = cli(['simulate', '--preset', preset, '--format', 'mermaid-md']);
      const diagrams = blocks(md);
      expect(diagrams.length, md).toBeGreaterThanOrEqual(2);
      const problems = await mermaidPage(page, '#ffffff');
      for (const [i, { heading, code }] of diagrams.entries()) {
        const want = expected(code);
        const got = await render(page, code, 'default', `d${i}`);
        expect(got.parsed, `${heading}: mermaid.parse`).toBe('ok');
        expect(got.error, `${heading}: mermaid.render`).toBe('');
        expect(got.svg, heading).toBe(true);
        expect(got.errorDiagram, heading).toBe(false);
        expect(got.width, heading).toBeGreaterThan(300);
        for (const a of want.actors) expect(got.actors, `${heading}: participant ${a}`).toContain(a);
        expect(got.notes, `${heading}: notes`).toBe(want.notes);
        expect(got.messages.length, `${heading}: messages`).toBe(want.messages);
        // The kubelet's stop is a note, its text drawn as written (entity codes decoded).
        expect(got.noteTexts.join('\n'), heading).toContain('Kubelet stops, containers keep running (rule K1)');
        expect(got.noteTexts.join('\n'), heading).not.toMatch(/#\d+;/);
        expect(got.messages.join('\n'), heading).not.toMatch(/#\d+;/);
      }
      expect(problems).toEqual([]);
    });
  }

  test('every preset\'s diagrams parse, under both kubelets', async ({ page }) => {
    const names = cli(['presets']).split('\n').map((l) => l.split(/\s+/)[0]).filter(Boolean);
    expect(names.length).toBeGreaterThan(10);
    const problems = await mermaidPage(page, '#ffffff');
    for (const name of names) {
      for (const { heading, code } of [...blocks(cli(['simulate', '--preset', name, '--format', 'mermaid-md'])), ...mmd(cli(['simulate', '--preset', name, '--format', 'mermaid']))]) {
        const parsed = await page.evaluate(async (code) => {
          window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
          return window.mermaid.parse(code).then(() => 'ok', (e) => String(e?.message || e));
        }, code);
        expect(parsed, `${name}: ${heading}`).toBe('ok');
      }
    }
    expect(problems).toEqual([]);
  });

  // For a person: GitHub shows a ```mermaid block on white (theme default) or on #0d1117
  // (theme dark). The legacy run on white, the KEP-4781 run on dark.
  for (const [scheme, bg, theme, run] of [['light', '#ffffff', 'default', 0], ['dark', '#0d1117', 'dark', 1]]) {
    test(`screenshot: long-restart on ${bg} (theme ${theme})`, async ({ page }) => {
      const { code } = blocks(cli(['simulate', '--preset', 'long-restart', '--format', 'mermaid-md']))[run];
      const problems = await mermaidPage(page, bg);
      const got = await render(page, code, theme, 'shot');
      expect(got.error).toBe('');
      await page.locator('#out svg').screenshot({ path: `${shots}/mermaid-long-restart-${scheme}.png` });
      expect(problems).toEqual([]);
    });
  }
});
