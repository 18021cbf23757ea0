import { chromium } from 'playwright';
import fs from 'fs';
const files = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 1100, height: 900 } });
for (const f of files) {
  for (const bg of ['#ffffff', '#0d1117']) {
    const html = `/tmp/shots/page.html`;
    fs.writeFileSync(html, `<body style="margin:0;background:${bg}"><img src="file://${f}" style="width:1080px"></body>`);
    await p.goto('file://' + html);
    await p.waitForTimeout(6000);
    const name = f.split('/').pop().replace('.svg', '') + (bg === '#ffffff' ? '-light' : '-dark') + '.png';
    await p.screenshot({ path: '/tmp/shots/' + name, fullPage: true });
  }
}
await b.close();
