/**
 * The README runs: every TypeScript block of README.md and docs/*.md runs here against the mock API,
 * unless the line before it says `<!-- not runnable: <reason> -->`. See snippets.ts for what a block
 * may leave out and for the `// →` checks, markdown.ts for the markers.
 *
 * While a block runs, `fetch` reaches the in-process mock for any *.test or *.example host (so the
 * quick start's `https://your-host.example/api/v1` answers as the real API would) and the network
 * only on 127.0.0.1 (a block's own `startMockServer`); anything else is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricClient } from '../../src/index.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, type MockApi } from '../../src/testing/index.js';
import { skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { blocks, notRunnableReason, pages, read, TYPESCRIPT } from './markdown.js';
import { build, type Exported, packageExports, run, workspace } from './snippets.js';

let exported: Exported;
let space: ReturnType<typeof workspace>;
beforeAll(async () => {
  exported = await packageExports();
  space = workspace();
});
afterAll(() => space?.remove());

const realFetch = globalThis.fetch;
const paginated = /\/api\/v1\/(papers|authors|journals\/\d+\/papers)$/;

/** The fetch a block sees, and the paginated answers that matched nothing (a query the mock cannot find). */
function network(api: MockApi) {
  const empty: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === '127.0.0.1') return realFetch(input, init);
    if (!/\.(test|example)$/.test(url.hostname))
      throw new Error(
        `a documented block tried to reach ${url.origin}: only *.test, *.example and 127.0.0.1`,
      );
    const response = await api.fetch(input, init);
    if (response.ok && paginated.test(url.pathname)) {
      const body = (await response.clone().json()) as { total?: number };
      if (body.total === 0) empty.push(`${url.pathname}${url.search}`);
    }
    return response;
  };
  return { fetch, empty };
}

for (const page of pages()) {
  describe(page, () => {
    const all = blocks(page);
    all.forEach((block, index) => {
      if (!TYPESCRIPT.has(block.lang)) return;
      const where = `${page}:${block.line} (${block.heading})`;
      const reason = notRunnableReason(block);
      if (reason !== undefined) {
        it(`${where} is marked not runnable, with a reason`, () => {
          expect(reason.length, 'say why in <!-- not runnable: … -->').toBeGreaterThanOrEqual(12);
        });
        return;
      }
      const next = all[index + 1];
      const printed = next?.outputMarked ? next : undefined;
      // A block of the shared quota gets a real redis-server of its own, at REDIS_URL.
      const needsRedis = block.code.includes("'scholarly-metrics/redis'");
      const title = `${where} runs against the mock${printed ? ' and prints what the page shows' : ''}`;
      it.skipIf(needsRedis && skipWithoutRedis(where))(title, async () => {
        const api = createMockApi();
        const { fetch, empty } = network(api);
        const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch });
        const redis = needsRedis ? await startRedisServer() : undefined;
        const env = {
          METRIC_API_KEY: MOCK_API_KEY,
          METRIC_BASE_URL: MOCK_BASE_URL,
          ...(redis && { REDIS_URL: redis.url }),
        };
        const ran = await run(block, build(block, exported), space.directory, {
          api,
          client,
          fetch,
          env,
        }).finally(() => redis?.close());

        if (/\bconsole\.\w+\(/.test(block.code))
          expect(ran.output.join('\n').trim(), 'it prints').not.toBe('');
        if (printed) expect(ran.output.join('\n')).toBe(printed.code.replace(/\n$/, ''));
        const declared = block.code.match(/^\s*(?:test|it)\(/gm)?.length ?? 0;
        expect(ran.tests, 'the tests the block declares all ran').toHaveLength(declared);
        expect(empty, 'every search and list in the block finds records in the mock').toEqual([]);
      });
    });

    it('shows output only right after a block that runs', () => {
      all.forEach((block, index) => {
        if (!block.outputMarked) return;
        const before = all[index - 1];
        expect(
          before && TYPESCRIPT.has(before.lang) && notRunnableReason(before) === undefined,
          `${page}:${block.line}`,
        ).toBe(true);
      });
    });
  });
}

describe('README.md', () => {
  const headings = read('README.md')
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3).trim());

  it('keeps the sections users look for', () => {
    for (const heading of [
      'Install',
      'Quick start',
      'Configure',
      'Every method',
      'Pagination',
      'Errors',
      'Retries, timeouts and cancelling',
      'Webhooks',
      'Testing your code',
      'Versioning',
    ])
      expect(headings).toContain(heading);
  });

  it('runs every TypeScript block, as it says it does', () => {
    const code = blocks('README.md').filter((block) => TYPESCRIPT.has(block.lang));
    expect(code.length).toBeGreaterThan(0);
    if (read('README.md').includes('Every TypeScript block on this page runs in CI'))
      expect(
        code.filter((block) => notRunnableReason(block) !== undefined).map((block) => block.line),
      ).toEqual([]);
  });
});
