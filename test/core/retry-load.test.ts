// p-retry is loaded once a call fails in a way it would retry: a page whose calls succeed, or fail for
// good, never fetches it. Where it cannot be loaded (a browser gone offline cannot fetch its chunk),
// the call throws the attempt's own failure, and a later failure loads it again.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { InternalServerError, NotFoundError } from '../../src/index.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { json, sequence, testClient, useMsw } from '../support.js';

const loads = vi.hoisted(() => ({ count: 0, offline: false }));
vi.mock('p-retry', async (original) => {
  loads.count++;
  if (loads.offline) throw new TypeError('Failed to fetch dynamically imported module');
  return original();
});

const server = useMsw();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];
const unavailable = () => json({ message: 'try again' }, { status: 503, headers: { 'retry-after': '0' } });

describe('loading p-retry', () => {
  beforeEach(() => useFakeClock({ random: 0.5 }));

  it('is not loaded while calls succeed', async () => {
    const { handler, seen } = sequence('/subjects', [() => json(subjects), () => json(subjects)]);
    server.use(handler);
    const client = testClient();
    await client.subjects.list();
    await client.subjects.list();
    expect(seen).toHaveLength(2);
    expect(loads.count).toBe(0);
  });

  it('is not loaded for a failure no retry would follow: a 404, or any failure with maxRetries 0', async () => {
    const { handler, seen } = sequence('/subjects', [
      () => json({ message: 'no such thing' }, { status: 404 }),
      unavailable,
    ]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toBeInstanceOf(NotFoundError);
    expect(await settleOnFakeClock(testClient({ maxRetries: 0 }).subjects.list())).toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(2);
    expect(loads.count).toBe(0);
  });

  it("gives the attempt's own failure when p-retry cannot be loaded, and loads it at the next failure", async () => {
    loads.offline = true;
    const offline = sequence('/subjects', [unavailable, () => json(subjects)]);
    server.use(offline.handler);
    const client = testClient({ maxRetries: 2 });
    expect(await settleOnFakeClock(client.subjects.list())).toBeInstanceOf(InternalServerError);
    expect(offline.seen).toHaveLength(1);
    expect(loads.count).toBe(1);

    loads.offline = false;
    const online = sequence('/subjects', [unavailable, () => json(subjects)]);
    server.use(online.handler);
    expect(await settleOnFakeClock(client.subjects.list())).toEqual(subjects);
    expect(online.seen).toHaveLength(2);
    expect(loads.count).toBe(2);
  });
});
