// A Redis quota serving many keys (a client per request, each tenant's own key) holds in memory only the
// partitions of keys whose clients are alive, and those owing Redis a send that failed until close():
// the process does not grow with every key it has served. Collections need --expose-gc, so the check
// runs in a child process (partitions-let-go.mjs).
import { describe, expect, it } from 'vitest';
import { reportWithGc } from '../helpers/child.js';

describe('RedisQuota partitions', () => {
  it("lets go of a key's partition with its last client; keeps one in use, and one owing Redis a hold", async () => {
    const { code, stderr, report } = await reportWithGc(new URL('./partitions-let-go.mjs', import.meta.url));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // Of 2,002 keys served: the kept client's and the one owing a pause, which close() sent again.
    expect(report).toEqual({ statsAsked: 2, holds: ['pause'], kept: 'function' });
  }, 60_000);
});
