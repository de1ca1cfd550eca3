import { describe, expect, it } from 'vitest';
import { createMockApi, MOCK_DOIS } from '../../src/testing/index.js';
import { recordingLogger, testClient } from '../support.js';

describe('getMany: a 404 it returns as a result is not logged as an error', () => {
  it('logs the per-item 404 at info, and a 404 of a single lookup still at error', async () => {
    const { lines, logger } = recordingLogger();
    const client = testClient({ logLevel: 'info', logger }, createMockApi());
    const results = await client.papers.getMany([MOCK_DOIS[0], '10.9999/no-such-paper']);
    expect(results.map((result) => result.error?.name)).toEqual([undefined, 'NotFoundError']);
    expect(lines.filter(({ level }) => level === 'error')).toEqual([]);
    expect(
      lines.filter(({ level, message }) => level === 'info' && message.includes('no-such-paper')),
    ).toHaveLength(1);

    // Outside getMany the caller gets the rejection: that stays an error line.
    await expect(client.papers.get('10.9999/no-such-paper')).rejects.toThrow();
    expect(lines.filter(({ level }) => level === 'error')).toHaveLength(1);
  });
});
