// The process's own mirrors of a shared pause and block: they last what the 429 said however the
// wall clock is set meanwhile (an NTP step, a VM resumed), as Redis's own copies do.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuotaIdentity } from '../../src/core/quota-types.js';
import { RateLimitError } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { TEST_KEY } from '../support.js';

const identity: QuotaIdentity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

/** A Redis that grants every place at once and takes every end and hold: the mirrors decide alone. */
const granting = {
  evalsha: async () => [0, 0],
  eval: async () => [0, 0],
};

/** Sets the wall clock `ms` back from now on; timers and the monotonic clock run on. */
function stepWallClockBack(ms: number): void {
  const wall = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => wall() - ms);
}

describe('the local pause and block mirrors', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('a pause ends when it was told to, even with the wall clock stepped back', async () => {
    // The timers and the monotonic clock are fake, so what is judged is the pause's own time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const partition = new RedisQuota({ redis: granting }).forClient(identity);
    partition.pause(300);
    stepWallClockBack(10_000);
    let sent = false;
    const running = partition.run(async () => {
      sent = true;
      return 'sent';
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(sent).toBe(false);
    // Well before the 10 s the stepped-back wall clock would make of it.
    await vi.advanceTimersByTimeAsync(701);
    expect(sent).toBe(true);
    await expect(running).resolves.toBe('sent');
  });

  it('a block refuses for what is left of it, even with the wall clock stepped back', async () => {
    const partition = new RedisQuota({ redis: granting }).forClient(identity);
    partition.block(90_000);
    stepWallClockBack(3_600_000);
    const error = await partition.run(async () => 'sent').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeLessThanOrEqual(90);
  });
});
