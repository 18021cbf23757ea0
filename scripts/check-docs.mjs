// Fails on a broken relative link or a missing image in README.md, CHANGES.md and docs/**/*.md:
// every `[text](path)`, `![alt](path)` and `<img src="path">` that is not a URL must name a file
// or directory that exists (an `#anchor` after it is not checked). Run by scripts/test.sh.
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

const bad = [];
let checked = 0;
for (const f of files) {
  const text = readFileSync(join(root, f), 'utf8');
  // Code blocks and inline code hold examples, not links.
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...prose.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]),
  ];
  for (const t of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('#')) continue;
    const path = decodeURIComponent(t.split('#')[0].split('?')[0]);
    if (!path) continue;
    checked++;
    const full = path.startsWith('/') ? join(root, path) : join(root, dirname(f), path);
    if (!existsSync(full)) bad.push(`${f}: ${t}`);
  }
}
if (bad.length) {
  console.error(`broken relative links or images (${bad.length}):\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`docs: ${checked} relative links and images in ${files.length} files resolve`);
