// Checks README.md, CHANGES.md and docs/**/*.md as GitHub shows them, and the code's comments and
// test names for the project's own issue numbers. Run by scripts/test.sh.
// - Every `[text](path)`, `![alt](path)` and `<img src="path">` that is not a URL names a file or
//   directory that exists, and an `#anchor` into a markdown file names one of its headings
//   (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats).
// - No page cites this project's own issue tracker ("issue N", "issues N and M", a bare "#N"):
//   a reader outside the project cannot follow them, and `git log` holds that history. Upstream
//   references stay: they name their repository (`kubernetes#113646`, `kubernetes/website#52391`)
//   or have the four to six digits of the upstream trackers (`#124220`, PR #140704).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const files = ['README.md', 'CHANGES.md'].filter((f) => existsSync(join(root, f)));
function walk(dir) {
  for (const n of readdirSync(join(root, dir)).sort()) {
    const p = join(dir, n);
    if (statSync(join(root, p)).isDirectory()) walk(p);
    else if (n.endsWith('.md')) files.push(p);
  }
}
walk('docs');

// Fenced code blocks hold examples, not links: a fence is a line that starts with ``` (a ``` in
// the middle of a line, as in a comment that names ```mermaid blocks, opens nothing).
function prose(text) {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

const anchors = new Map();
function anchorsOf(file) {
  if (!anchors.has(file)) {
    const seen = new Map();
    const set = new Set();
    for (const m of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
      const slug = m[1]
        .toLowerCase()
        .replace(/<[^>]*>/g, '')
        .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      set.add(n ? `${slug}-${n}` : slug);
    }
    anchors.set(file, set);
  }
  return anchors.get(file);
}

// "issue N", "issues N and M", "issue-N", "Issue #N" (N of one to three digits); a "#N" that
// names no repository (not after a word, `/` or `&`, and not an entity code such as `#59;`).
const ownIssue = /\bissues?[ -]?#?\d{1,3}\b|(?<![\w/&])#\d{1,3}\b(?!;)/gi;

const bad = [];
const cites = [];
let checked = 0;
for (const f of files) {
  const text = readFileSync(join(root, f), 'utf8');
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(ownIssue)) cites.push(`${f}:${i + 1}: "${m[0]}"`);
  });
  // Inline code holds examples, not links.
  const body = prose(text).replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...body.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]),
  ];
  for (const t of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(t)) continue;
    const [pathPart, anchor] = t.split('#');
    const path = decodeURIComponent(pathPart.split('?')[0]);
    const full = !path ? join(root, f) : path.startsWith('/') ? join(root, path) : join(root, dirname(f), path);
    checked++;
    if (!existsSync(full)) {
      bad.push(`${f}: ${t}`);
      continue;
    }
    if (anchor && full.endsWith('.md') && !anchorsOf(full).has(decodeURIComponent(anchor))) {
      bad.push(`${f}: ${t} (no such heading)`);
    }
  }
}
// The code (Rust, scripts, specs, styles, manifests of the build) names no issue of ours either;
// quoted evidence and recorded outputs (fixtures, test data, baselines) are left as they are.
const codeIssue = /\bissues?[ -]?#?\d{1,3}\b(?![\d;])/gi;
let code = [];
try {
  code = execSync('git ls-files', { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(rs|mjs|js|sh|css|toml|html)$|(^|\/)Makefile$/.test(f))
    .filter((f) => !/(^|\/)(fixtures|data|baseline|node_modules)\/|^crates\/sim\/presets\//.test(f));
} catch {
  // Not a git checkout (a source archive): the docs are still checked.
}
for (const f of code) {
  if (!existsSync(join(root, f))) continue;
  readFileSync(join(root, f), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(codeIssue)) cites.push(`${f}:${i + 1}: "${m[0]}"`);
    });
}

let fail = false;
if (bad.length) {
  console.error(`broken relative links, anchors or images (${bad.length}):\n  ${bad.join('\n  ')}`);
  fail = true;
}
if (cites.length) {
  console.error(
    `the project's own issue numbers cited (${cites.length}); say why in terms of Kubernetes and ` +
      `the code instead (upstream references name their repository, e.g. kubernetes#113646):\n  ${cites.join('\n  ')}`,
  );
  fail = true;
}
if (fail) process.exit(1);
console.log(
  `docs: ${checked} relative links, anchors and images in ${files.length} files resolve; no own issue numbers there or in ${code.length} code files`,
);
