import { describe, expect, it } from 'vitest';
import { type Logger, MetricClient } from '../../src/index.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, MOCK_DOIS } from '../../src/testing/index.js';

function recording() {
  const lines: Array<[keyof Logger, string]> = [];
  const at = (level: keyof Logger) => (message: string) => void lines.push([level, message]);
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { lines, logger };
}

describe('getMany: a 404 it returns as a result is not logged as an error', () => {
  it('logs the per-item 404 at info, and a 404 of a single lookup still at error', async () => {
    const { lines, logger } = recording();
    const client = new MetricClient({
      apiKey: MOCK_API_KEY,
      baseUrl: MOCK_BASE_URL,
      fetch: createMockApi().fetch,
      logLevel: 'info',
      logger,
    });
    const results = await client.papers.getMany([MOCK_DOIS[0], '10.9999/no-such-paper']);
    expect(results.map((result) => result.error?.name)).toEqual([undefined, 'NotFoundError']);
    expect(lines.filter(([level]) => level === 'error')).toEqual([]);
    expect(lines.filter(([level, line]) => level === 'info' && line.includes('no-such-paper'))).toHaveLength(
      1,
    );

    // Outside getMany the caller gets the rejection: that stays an error line.
    await expect(client.papers.get('10.9999/no-such-paper')).rejects.toThrow();
    expect(lines.filter(([level]) => level === 'error')).toHaveLength(1);
  });
});
