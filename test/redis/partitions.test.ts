// A Redis quota serving many keys (a client per request, each tenant's own key) holds in memory only the
// partitions of keys whose clients are alive, and those owing Redis a send that failed until close():
// the process does not grow with every key it has served. Collections need --expose-gc, so the check
// runs in a child process (partitions-let-go.mjs).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWithGc } from '../helpers/child.js';

describe('RedisQuota partitions', () => {
  it("lets go of a key's partition with its last client; keeps one in use, and one owing Redis a hold", async () => {
    const script = fileURLToPath(new URL('./partitions-let-go.mjs', import.meta.url));
    const { code, stdout, stderr } = await runWithGc(script, []);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    // Of 2,002 keys served: the kept client's and the one owing a pause, which close() sent again.
    expect(report).toEqual({ statsAsked: 2, holds: ['pause'], kept: 'function' });
  }, 60_000);
});
