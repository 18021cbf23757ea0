// "Import your workload" — paste a manifest, see its pods; bad input keeps the last
// scenario; the link and the scenario TOML carry the imported scenario; the importer's worker is
// fetched on the first import only.
import { test, expect } from '@playwright/test';
import { open, figureOf } from './helpers.mjs';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: 20
      tolerations:
      - key: node.kubernetes.io/unreachable
        operator: Exists
        effect: NoExecute
        tolerationSeconds: 60
      initContainers:
      - name: proxy
        image: envoy
        restartPolicy: Always
        readinessProbe:
          tcpSocket: {port: 9901}
          periodSeconds: 5
      containers:
      - name: app
        image: nginx
        resources:
          requests: {cpu: 100m}
        readinessProbe:
          httpGet: {path: /healthz, port: 8080}
          periodSeconds: 5
          failureThreshold: 2
        livenessProbe:
          exec: {command: [cat, /tmp/ok]}
          periodSeconds: 10
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports: [{port: 80}]
`;

// WEB's pods, as the Deployment's ReplicaSet names them: `web-<pod-template-hash>-<5>`
// (crates/sim/src/scenario/owner.rs; the same at every import).
const WEB_PODS = ['web-688597-w57c9', 'web-688597-xkvtn', 'web-688597-9hqv5'];

async function importText(page, text) {
  if (!(await page.locator('#import-panel').isVisible())) await page.locator('#import-open').click();
  await page.locator('#import-text').fill(text);
  await page.locator('#import-go').click();
}

test('paste a Deployment: its pods on screen, the not-used list, bad input keeps them', async ({ page }) => {
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const problems = await open(page, '?preset=short-restart');
  await page.waitForTimeout(300);
  expect(requests.filter((u) => u.includes('import-worker'))).toEqual([]);

  await importText(page, WEB);
  await expect(page.locator('#preset option:checked')).toHaveText('Imported: Deployment web (3 pods)');
  // The worker's three files by content-hashed names (scripts/hash-workers.sh), named by
  // index.html's meta.
  const worker = requests.filter((u) => u.includes('import-worker'));
  expect(worker.map((u) => u.replace(/.*\/import\/import-worker-[0-9a-f]{16}/, 'H')).sort(), worker.join(' '))
    .toEqual(['H.js', 'H_bg.wasm', 'H_loader.js']);
  const figure = page.locator('#figure canvas').first();
  for (const pod of WEB_PODS) {
    await expect(figure).toContainText(pod);
    await expect(page.locator('.kubectl').first()).toContainText(pod);
  }
  await page.locator('#import-unused summary').click();
  await expect(page.locator('#import-unused')).toContainText('resources');
  const before = await figureOf(page);

  await importText(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x\nspec: [\n');
  await expect(page.locator('#import-error')).toContainText('line');
  await expect(page.locator('#import-error')).toContainText('column');
  expect(await figureOf(page)).toEqual(before);

  await importText(page, 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: {a: b}}\n');
  await expect(page.locator('#import-error')).toContainText(/not a workload|no workload/i);
  await expect(page.locator('#import-error')).toContainText('Service');
  expect(await figureOf(page)).toEqual(before);

  await page.locator('#import-text').fill('x'.repeat(1024 * 1024 + 1));
  await page.locator('#import-go').click();
  await expect(page.locator('#import-error')).toContainText('1 MiB');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  expect(problems).toEqual([]);
});

// The cluster's own settings beside the workload — a KubeletConfiguration and
// kube-controller-manager's static pod, as an operator has them — are read as settings, not
// workloads: the report names each value and the field it set, and the slider's grace mark moves.
const SETTINGS = `---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
nodeLeaseDurationSeconds: 20
nodeStatusUpdateFrequency: 4s
---
apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager
  namespace: kube-system
spec:
  containers:
  - name: kube-controller-manager
    image: registry.k8s.io/kube-controller-manager:v1.35.0
    command:
    - kube-controller-manager
    - --node-monitor-grace-period=20s
    - --node-monitor-period=2s
`;

test('a KubeletConfiguration and kube-controller-manager beside the workload set the cluster settings, named', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  await importText(page, WEB + SETTINGS);
  await expect(page.locator('#preset option:checked')).toHaveText('Imported: Deployment web (3 pods)');
  const settings = page.locator('#import-settings');
  await expect(settings).toBeVisible();
  await expect(settings.locator('summary')).toHaveText(/Cluster settings read \(\d+\)/);
  await expect(settings).toContainText('nodeLeaseDurationSeconds 20');
  await expect(settings).toContainText('sets cluster.lease_duration_s');
  await expect(settings).toContainText('--node-monitor-grace-period 20s');
  await expect(settings).toContainText('nodeStatusUpdateFrequency 4s');
  await expect(settings).toContainText('is not modelled');
  await expect(page.locator('.marks .mark.grace')).toHaveText('grace 20s');
  // Not a workload: the figure holds the Deployment's pods only.
  await expect(page.locator('#figure canvas').first()).not.toContainText('kube-controller-manager');

  // A workload alone: no settings block.
  await importText(page, WEB);
  await expect(settings).toBeHidden();
  expect(problems).toEqual([]);
});

test('the link and the scenario TOML carry the imported scenario', async ({ page, context }) => {
  const problems = await open(page, '');
  await importText(page, WEB);
  await expect(page.locator('#preset option:checked')).toHaveText('Imported: Deployment web (3 pods)');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('scenario=');
  const search = await page.evaluate(() => location.search);
  expect(search.length).toBeLessThan(8000);
  const svg = await figureOf(page);

  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('#import-export-toml').click()]);
  expect(dl.suggestedFilename()).toMatch(/\.toml$/);
  const toml = readFileSync(await dl.path(), 'utf8');
  for (const pod of WEB_PODS) expect(toml).toContain(pod);

  await page.locator('#copy-link').click();
  const page2 = await context.newPage();
  const problems2 = await open(page2, search);
  await expect(page2.locator('#preset option:checked')).toHaveText('Imported: Deployment web (3 pods)');
  await expect(page2.locator('#figure canvas').first()).toContainText(WEB_PODS[2]);
  expect(await figureOf(page2)).toEqual(svg);

  await page.reload();
  await expect(page.locator('#preset option:checked')).toHaveText('Imported: Deployment web (3 pods)');

  // The TOML file opens again in the same panel.
  await importText(page2, toml);
  await expect(page2.locator('#import-error')).toHaveText('');
  await expect(page2.locator('#figure canvas').first()).toContainText(WEB_PODS[1]);
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

test('a bad scenario= in a link: one notice and the defaults', async ({ page }) => {
  const problems = await open(page, '?scenario=AAAA-not-deflate&downtime=95');
  await expect(page.locator('#url-notice')).toContainText('scenario=');
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  await expect(page.locator('#downtime-value')).not.toHaveText('1m35s');
  expect(problems).toEqual([]);
});

test('a scenario= whose JSON has a misspelt field: the notice names the field, the defaults are used', async ({ page }) => {
  await page.goto('./');
  // The link's format: the scenario's JSON, deflate-raw, base64url (src/imported.rs).
  const packed = await page.evaluate(async () => {
    const json = '{"name":"x","kubelet":{"restarts":[{"at_s":30,"downtimes":20}]},"pods":[],"horizon_s":120}';
    const z = new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw')));
    const b = new Uint8Array(await z.arrayBuffer());
    return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  const problems = await open(page, `?scenario=${packed}`);
  await expect(page.locator('#url-notice')).toContainText('kubelet.restarts[0].downtimes: unknown field');
  await expect(page.locator('#preset')).toHaveValue('short-restart');
  expect(problems).toEqual([]);
});

// Replay in the app: an incident's evidence pasted and replayed beside the model — the real
// transcript from kubernetes/kubernetes#113646 (v1.25.3, pasted as the reporter posted it). The
// best match's scenario is on screen, each pod's observed Ready is drawn under its modelled lane,
// the candidates are ranked and the differences listed in words; bad evidence is one message.
const WATCH_113646 = readFileSync(new URL('../../crates/evidence/tests/data/113646-watch.txt', import.meta.url), 'utf8');

test('evidence replayed beside the model: observed lanes, the ranking and the differences', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  if (!(await page.locator('#import-panel').isVisible())) await page.locator('#import-open').click();
  await page.locator('#import-text').fill(WATCH_113646);
  await page.locator('#import-replay').click();
  await expect(page.locator('#preset option:checked')).toContainText('Evidence · kubernetes#113646 · best match');
  const ranking = page.locator('#import-ranking');
  await expect(ranking).toBeVisible();
  // The answer first, as `restartscope replay` prints it; then the candidates it rests on.
  await expect(ranking.locator('li').first()).toContainText('Answer: kubernetes#113646 explains this');
  await expect(ranking).toContainText('Evidence: ');
  await expect(ranking.locator('li', { hasText: /^1\. \d/ })).toHaveCount(1);
  const beside = page.locator('#import-beside');
  await expect(beside).toBeVisible();
  await expect(beside).toContainText('busybox-test-1');
  await expect(beside).toContainText('observed Ready=');
  const figure = page.locator('#figure canvas').first();
  await expect(figure).toContainText('observed');
  await page.screenshot({ path: 'artifacts/screenshots/replay-113646.png' });
  // The download for a README or an incident report draws the observed lanes too.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('#download-animated-svg').click()]);
  const svg = readFileSync(await dl.path(), 'utf8');
  expect(svg).toContain('observed');
  expect(svg).toContain('busybox-test-1');

  // Not evidence: one message, the figure kept.
  await page.locator('#import-text').fill('hello\n');
  await page.locator('#import-replay').click();
  await expect(page.locator('#import-error')).toContainText(/not evidence|no Ready change/);
  await expect(page.locator('#preset option:checked')).toContainText('Evidence · ');
  // Back to a preset: no observed lanes.
  await page.locator('#preset').selectOption('short-restart');
  await expect(figure).not.toContainText('observed');
  expect(problems).toEqual([]);
});

// The restart the evidence shows, named in the app as `restartscope replay` names it, on real
// pastes quoted in crates/evidence/tests/data/pastes (sources on their first lines): an issue's
// prose around a journal with journalctl's `-- Reboot --` (kubernetes#107043), and
// node-problem-detector seeing containerd started four times (node-problem-detector#1258), and
// kured commanding its node's reboot (kubereboot/kured#976).
const PASTE = (name) => readFileSync(new URL(`../../crates/evidence/tests/data/pastes/${name}`, import.meta.url), 'utf8');

test('a reboot and a runtime restart named from real pastes, as the CLI names them', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  if (!(await page.locator('#import-panel').isVisible())) await page.locator('#import-open').click();
  const ranking = page.locator('#import-ranking');
  await page.locator('#import-text').fill(PASTE('111-k8s-107043-kubelet-stopped-then-reboot-mark.txt'));
  await page.locator('#import-replay').click();
  await expect(ranking.locator('li').first()).toContainText('Answer: A node reboot explains this');
  await expect(ranking).toContainText("journalctl's `-- Reboot --`");
  await page.locator('#import-text').fill(PASTE('92-npd-1258-npd-log-containerd-killed-restarts.txt'));
  await page.locator('#import-replay').click();
  await expect(ranking.locator('li').first()).toContainText('Answer: A container runtime restart');
  await expect(ranking).toContainText('started 4 times');
  // kured's own log (kubereboot/kured#976): its reboot command for its node, in kured's words.
  await page.locator('#import-text').fill(PASTE('193-kubereboot-kured-976-running-command-reboot-loop.txt'));
  await page.locator('#import-replay').click();
  await expect(ranking.locator('li').first()).toContainText('Answer: A node reboot explains this');
  await expect(ranking).toContainText("kured's reboot command");
  await expect(ranking).not.toContainText('Rebooted event');
  expect(problems).toEqual([]);
});

// Several evidence files opened together, each read on its own, as the CLI's
// `replay --evidence A --evidence B` reads them. Real samples: #113646's transcript and a minikube
// `kubectl cluster-info dump`'s events (crates/evidence/tests/data, sources on their first lines).
const EVENTS_DUMP = readFileSync(new URL('../../crates/evidence/tests/data/minikube-dump-default-events.json', import.meta.url), 'utf8');

test('several evidence files opened together are read together, each named; Clear forgets them', async ({ page }) => {
  const problems = await open(page, '?preset=short-restart');
  if (!(await page.locator('#import-panel').isVisible())) await page.locator('#import-open').click();
  await page.locator('#import-file').setInputFiles([
    { name: '113646-watch.txt', mimeType: 'text/plain', buffer: Buffer.from(WATCH_113646) },
    { name: 'events.json', mimeType: 'application/json', buffer: Buffer.from(EVENTS_DUMP) },
  ]);
  const list = page.locator('#import-files');
  await expect(list).toBeVisible();
  await expect(list).toContainText('2 files opened');
  await expect(list).toContainText('113646-watch.txt, events.json');
  await expect(page.locator('#import-text')).toHaveValue('');
  await page.locator('#import-replay').click();
  await expect(page.locator('#preset option:checked')).toContainText('Evidence · ');
  const notes = page.locator('#import-notes');
  await expect(notes).toContainText('113646-watch.txt: read as kubectl get pods -w');
  await expect(notes).toContainText('events.json: read as kubectl get events');
  await expect(page.locator('#figure canvas').first()).toContainText('observed');
  // A file that is not evidence is named in the message; the figure stays.
  await page.locator('#import-file').setInputFiles([
    { name: '113646-watch.txt', mimeType: 'text/plain', buffer: Buffer.from(WATCH_113646) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') },
  ]);
  await page.locator('#import-replay').click();
  // One file that is not evidence never loses the others: skipped, named in the notes.
  await expect(page.locator('#import-notes')).toContainText('notes.txt skipped: not evidence');
  await expect(page.locator('#preset option:checked')).toContainText('Evidence · kubernetes#113646');
  await page.locator('#import-files-clear').click();
  await expect(list).toBeHidden();
  await page.locator('#import-replay').click();
  await expect(page.locator('#import-error')).toContainText('paste a manifest, drop a file or open one first');
  const axe = await new AxeBuilder({ page }).include('#import-panel').analyze();
  expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact))).toEqual([]);
  expect(problems).toEqual([]);
});

// Two Deployments whose containers share a name but not their probes: a probe table per
// workload and container, an edit changes that workload's pods only, the link names the
// workload (`frontend/server.…`), a key without it (older links) sets every workload's table,
// and a long workload name is cut in the middle with the whole name as the caption's title.
const TWO = `apiVersion: apps/v1
kind: Deployment
metadata: {name: frontend}
spec:
  replicas: 2
  selector: {matchLabels: {app: frontend}}
  template:
    metadata: {labels: {app: frontend}}
    spec:
      containers:
      - name: server
        image: frontend
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 10}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: recommendationservice-canary}
spec:
  replicas: 1
  selector: {matchLabels: {app: reco}}
  template:
    metadata: {labels: {app: reco}}
    spec:
      containers:
      - name: server
        image: reco
        readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 3}
`;

test('two Deployments with a container of the same name: a probe table each, an edit to one workload', async ({ page, context }) => {
  const problems = await open(page, '?preset=short-restart');
  await importText(page, TWO);
  await expect(page.locator('#preset option:checked')).toContainText('Imported: Deployment frontend (2 pods)');
  if (!(await page.locator('#pods').isVisible())) await page.locator('details.params summary').click();
  await expect(page.locator('#pods')).toBeVisible();
  const front = page.locator('#probe-frontend_server-readinessProbe-periodSeconds');
  const reco = page.locator('#probe-recommendationservice-canary_server-readinessProbe-periodSeconds');
  await expect(front).toHaveValue('10');
  await expect(reco).toHaveValue('3');
  const captions = page.locator('.probe-table caption');
  await expect(captions).toHaveCount(2);
  await expect(captions.nth(0)).toHaveText('container frontend / server');
  await expect(captions.nth(1)).toHaveText('container recommendat…vice-canary / server');
  await expect(captions.nth(1)).toHaveAttribute('title', 'container recommendationservice-canary / server');

  await front.fill('7');
  await front.blur();
  await expect(reco).toHaveValue('3');
  await expect.poll(() => page.evaluate(() => location.search)).toContain('frontend/server.readinessProbe.periodSeconds=7');
  const search = await page.evaluate(() => location.search);
  expect(search).not.toContain('recommendationservice-canary/server');
  expect(search).not.toMatch(/[&?]server\.readinessProbe/);

  // The link reproduces it; a key without the workload (as links made before) sets both
  // workloads, whose probes, now the same, share one table.
  const page2 = await context.newPage();
  const problems2 = await open(page2, search.replace('frontend/server.readinessProbe.periodSeconds=7', 'server.readinessProbe.periodSeconds=5'));
  if (!(await page2.locator('#pods').isVisible())) await page2.locator('details.params summary').click();
  await expect(page2.locator('.probe-table caption')).toHaveText(['frontend, recommendat…vice-canary (2 workloads) · container server']);
  await expect(page2.locator('#probe-frontend_server-readinessProbe-periodSeconds')).toHaveValue('5');
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

// Several Deployments whose containers share a name, some with identical probes: the real
// microservices-demo frontend (crates/manifest/tests/data/real/) beside four Deployments in the
// same demo's shape. Workloads with the same container and the same probes share one table
// headed by all their names; an edit there changes each of them (a link key per workload) and
// the link reproduces the merged table; the others keep their own tables.
const FRONTEND = readFileSync(new URL('../../crates/manifest/tests/data/real/microservices-demo-frontend.yaml', import.meta.url), 'utf8');
const grpcService = (name, probe) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - name: server
        image: ${name}
        readinessProbe: {grpc: {port: 8080}, ${probe}}
        livenessProbe: {grpc: {port: 8080}, ${probe}}
`;
const SHOP = FRONTEND
  + grpcService('emailservice', 'periodSeconds: 5')
  + grpcService('checkoutservice', 'periodSeconds: 5')
  + grpcService('paymentservice', 'periodSeconds: 5')
  + grpcService('cartservice', 'initialDelaySeconds: 15, periodSeconds: 10');

test('Deployments with identical probes share one probe table; an edit there changes each of them', async ({ page, context }) => {
  const problems = await open(page, '?preset=short-restart');
  await importText(page, SHOP);
  await expect(page.locator('#preset option:checked')).toContainText('Imported: Deployment frontend (3 pods), Deployment emailservice (1 pod)');
  if (!(await page.locator('#pods').isVisible())) await page.locator('details.params summary').click();
  const captions = page.locator('.probe-table caption');
  await expect(captions).toHaveCount(3);
  await expect(captions.nth(0)).toHaveText('container frontend / server');
  await expect(captions.nth(1)).toHaveText('emailservice, checkoutservice, paymentservice (3 workloads) · container server');
  await expect(captions.nth(2)).toHaveText('container cartservice / server');
  // The merged table's inputs carry its first workload's id.
  const shared = page.locator('#probe-emailservice_server-readinessProbe-periodSeconds');
  await expect(shared).toHaveValue('5');
  await expect(page.locator('#probe-cartservice_server-readinessProbe-periodSeconds')).toHaveValue('10');
  await expect(page.locator('#probe-frontend_server-readinessProbe-periodSeconds')).toHaveValue('10');

  await shared.fill('7');
  await shared.blur();
  await expect.poll(() => page.evaluate(() => location.search)).toContain('paymentservice/server.readinessProbe.periodSeconds=7');
  const search = await page.evaluate(() => location.search);
  for (const w of ['emailservice', 'checkoutservice', 'paymentservice']) {
    expect(search).toContain(`${w}/server.readinessProbe.periodSeconds=7`);
  }
  expect(search).not.toContain('cartservice/');
  expect(search).not.toContain('frontend/');
  await expect(page.locator('#probe-cartservice_server-readinessProbe-periodSeconds')).toHaveValue('10');

  // The link reproduces the same tables (the three workloads still share one, now at 7).
  const page2 = await context.newPage();
  const problems2 = await open(page2, search);
  if (!(await page2.locator('#pods').isVisible())) await page2.locator('details.params summary').click();
  await expect(page2.locator('.probe-table caption')).toHaveCount(3);
  await expect(page2.locator('.probe-table caption').nth(1)).toHaveText('emailservice, checkoutservice, paymentservice (3 workloads) · container server');
  await expect(page2.locator('#probe-emailservice_server-readinessProbe-periodSeconds')).toHaveValue('7');
  await expect(page2.locator('#probe-cartservice_server-readinessProbe-periodSeconds')).toHaveValue('10');
  // A key for one of them alone (a hand-edited link) gives that workload its own table.
  const page3 = await context.newPage();
  const problems3 = await open(page3, search.replace('checkoutservice/server.readinessProbe.periodSeconds=7', 'checkoutservice/server.readinessProbe.periodSeconds=9'));
  if (!(await page3.locator('#pods').isVisible())) await page3.locator('details.params summary').click();
  await expect(page3.locator('.probe-table caption')).toHaveCount(4);
  await expect(page3.locator('#probe-checkoutservice_server-readinessProbe-periodSeconds')).toHaveValue('9');
  await expect(page3.locator('#probe-emailservice_server-readinessProbe-periodSeconds')).toHaveValue('7');
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
  expect(problems3).toEqual([]);
});
