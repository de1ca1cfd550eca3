// examples/dashboard, built with Vite and served by `vite preview` (whose proxy adds the key), driven
// in Debian's Chromium: the journal table, the infinite paper search, a 429's banner, a live score
// update through the event relay, and not one console error. Playwright never downloads a browser:
// without Chromium this file is a loud skip locally and a failure with CI=true.
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardBackend, startDashboardBackend } from '../../examples/dashboard/backend.js';
import { dashboardConfig } from '../../examples/dashboard/vite.config.js';
import { MOCK_API_KEY } from '../../src/testing/index.js';
import { freePort } from '../helpers/free-port.js';
import { skipWithout } from '../helpers/real-part.js';
import { spawnNode } from '../helpers/spawn.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = (() => {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
})();
const skip = skipWithout(
  {
    name: `Chromium at ${chromiumPath}`,
    present: hasChromium,
    install: 'apt-get install chromium, or set CHROMIUM_PATH',
  },
  'test/examples/dashboard.test.ts',
);

/** Chromium's own line for an answer with an error status: expected for the one injected 429 only. */
const injected429 = /Failed to load resource: the server responded with a status of 429/;

describe.skipIf(skip)('examples/dashboard in Chromium', () => {
  let outDir: string;
  let backend: DashboardBackend;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'dashboard-'));
    backend = await startDashboardBackend();
    const config = dashboardConfig({ api: backend.api, events: backend.events, apiKey: MOCK_API_KEY });
    // Built under Vitest's NODE_ENV=test: React's development build, the one that warns the most.
    await build({
      ...config,
      configFile: false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2_000 },
    });
    server = await preview({
      ...config,
      configFile: false,
      logLevel: 'warn',
      build: { outDir },
      preview: { ...config.preview, host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    // The relay's stream answers its headers once the page is registered: events sent after it arrive.
    const streamOpen = page.waitForResponse((response) => response.url().endsWith('/events'));
    await page.goto(server.resolvedUrls!.local[0]!);
    await streamOpen;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await backend?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('leaves the key out of everything the page loads', async () => {
    const files = await readdir(outDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile())) {
      const text = await readFile(join(file.parentPath, file.name), 'utf8');
      expect(text, file.name).not.toContain(MOCK_API_KEY);
    }
  });

  it('renders the journal table, sorted by score, and sorts by a clicked column header', async () => {
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(backend.mock.api.dataset.journals.length);
    const scores = backend.mock.api.dataset.journals.map((journal) => journal.metric_score);
    expect(Number(await rows.first().locator('.score').textContent())).toBe(Math.max(...scores));
    await page.getByRole('button', { name: /^Score/ }).click();
    expect(Number(await rows.first().locator('.score').textContent())).toBe(Math.min(...scores));
    await page.getByRole('button', { name: /^Score/ }).click();
    expect(Number(await rows.first().locator('.score').textContent())).toBe(Math.max(...scores));
  });

  it('loads page 2 of the paper search when the list is scrolled to its end, and no page more', async () => {
    const papers = page.locator('li.paper');
    await expect.poll(() => papers.count(), { timeout: 20_000 }).toBe(20);
    await page.getByTestId('paper-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
    await expect.poll(() => papers.count(), { timeout: 20_000 }).toBe(40);
    const searches = backend.mock.api.requests.filter((request) =>
      request.path.startsWith('/api/v1/papers?'),
    );
    expect(
      searches.map((request) => new URL(request.path, 'http://x').searchParams.get('page') ?? '1'),
    ).toEqual(['1', '2']);
  });

  it("shows an injected 429's banner with the wait the server asked for", async () => {
    // Longer than the SDK waits for on its own (60 s): the error reaches the page at once.
    backend.mock.api.faults.next({ status: 429, headers: { 'retry-after': '90' } });
    await page.locator('tbody tr').nth(2).click();
    const banner = page.locator('.detail [role=alert]');
    await expect
      .poll(() => banner.textContent(), { timeout: 20_000 })
      .toBe('rate limited: retry in 90 sRetry');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('current-score').count(), { timeout: 20_000 }).toBe(1);
  });

  it('changes the table and the chart without a reload when the mock sends score_updated', async () => {
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const row = page.locator('tr.selected');
    const id = Number(await row.getAttribute('data-journal-id'));
    const before = Number(await row.locator('.score').textContent());
    const after = before === 100 ? 99 : before + 1;
    const { deliveries } = await backend.mock.api.updateScore(id, after);
    expect(deliveries).toMatchObject([{ ok: true }]);
    const cell = page.locator(`tr[data-journal-id="${id}"] .score`);
    await expect.poll(() => cell.textContent(), { timeout: 20_000 }).toBe(String(after));
    await expect
      .poll(() => page.getByTestId('current-score').textContent(), { timeout: 20_000 })
      .toBe(String(after));
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('takes its screenshot, and logged no console error but the injected 429', async () => {
    const file = process.env.DASHBOARD_SCREENSHOT ?? join(outDir, 'dashboard.png');
    await page.screenshot({ path: file });
    expect((await stat(file)).size).toBeGreaterThan(10_000);
    expect(consoleErrors.filter((text) => !injected429.test(text))).toEqual([]);
    expect(consoleErrors.filter((text) => injected429.test(text))).toHaveLength(1);
  });

  it('type-checks under its own strict tsconfig.json', async () => {
    const tsc = spawnNode(join(root, 'node_modules/typescript/bin/tsc'), ['-p', 'examples/dashboard'], {
      cwd: root,
    });
    const { code, stdout, stderr } = await tsc.exited;
    expect(`${stdout}${stderr}`).toBe('');
    expect(code).toBe(0);
  });
});
