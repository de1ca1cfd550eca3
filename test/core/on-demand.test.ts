// The modules kept out of the first load (the cache, the walk, getMany's pool, zod's runtime) as a browser offline
// meets them: the import fails. The call gets a ConnectionError, and once the page is back online the
// next call loads the module and works: a client is never left broken by one failed load.
import { describe, expect, it, vi } from 'vitest';
import { onDemand } from '../../src/core/on-demand.js';
import { ConnectionError, ResponseValidationError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

const offline = vi.hoisted(() => ({ now: false }));
const unreachable = (file: string) =>
  new TypeError(`Failed to fetch dynamically imported module: https://app.example/assets/${file}`);
vi.mock('../../src/cache/cache.js', async (original) => {
  if (offline.now) throw unreachable('cache-3f2a.js');
  return original();
});
vi.mock('../../src/core/walk.js', async (original) => {
  if (offline.now) throw unreachable('walk-9c1d.js');
  return original();
});
vi.mock('../../src/resources/get-many.js', async (original) => {
  if (offline.now) throw unreachable('get-many-77b0.js');
  return original();
});
vi.mock('../../src/schemas/response-schemas.js', async (original) => {
  if (offline.now) throw unreachable('response-schemas-5e0c.js');
  return original();
});

const api = createMockApi({ sizes: { journals: 6, papers: 30, authors: 4 } });

/** `call` offline, then online again: what each settles to. */
async function offlineThenOnline<T>(call: () => Promise<T>) {
  offline.now = true;
  const failed = await call().catch((error: unknown) => error);
  offline.now = false;
  return { failed, online: await call() };
}

describe('a module loaded on demand that cannot be fetched', () => {
  it('is a ConnectionError, its cause the failure; the next load tries again', async () => {
    let attempts = 0;
    const load = onDemand(async () => {
      attempts++;
      if (attempts === 1) throw unreachable('x.js');
      return 'module';
    });
    const error = await load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/failed: .*Failed to fetch dynamically imported module/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(await load()).toBe('module');
    expect(await load()).toBe('module');
    expect(attempts).toBe(2);
  });

  it('the cache: the first call offline fails as a ConnectionError, and the client works once online', async () => {
    const client = testClient({ cache: true }, api);
    const { failed, online } = await offlineThenOnline(() => client.journals.get(1));
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(online.id).toBe(1);
    expect((await client.journals.get(1).withResponse()).cacheStatus).toBe('hit');
  });

  it('a walk and getMany: a ConnectionError offline, their results once online', async () => {
    const client = testClient({}, api);
    const walk = await offlineThenOnline(() =>
      client.papers.search({ q: 'a', per_page: 2 }).toArray({ limit: 5 }),
    );
    expect(walk.failed).toBeInstanceOf(ConnectionError);
    expect(walk.online).toHaveLength(5);
    const dois = [api.dataset.papers[0]!.doi];
    const many = await offlineThenOnline(() => client.papers.getMany(dois));
    expect(many.failed).toBeInstanceOf(ConnectionError);
    expect(many.online.map((result) => result.paper?.doi)).toEqual(dois);
  });

  it('zod, for a body the generated parser refuses: a ConnectionError offline (never a validation error), the refusal once online', async () => {
    const client = testClient({ maxRetries: 0 }, api);
    const { failed, online } = await offlineThenOnline(() => {
      api.faults.next({ malformed: 'shape' });
      return client.journals.get(1).catch((error: unknown) => error);
    });
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(online).toBeInstanceOf(ResponseValidationError);
    expect((online as ResponseValidationError).issues.length).toBeGreaterThan(0);
  });
});
