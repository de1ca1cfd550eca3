// Statuses past 599, which Node's fetch hands over (HTTP allows three digits): no 5xx server error,
// so neither an InternalServerError, nor retried, nor covered by a kept answer's staleIfError.
import { describe, expect, it } from 'vitest';
import { servesStale } from '../../src/cache/kept.js';
import { APIError, ConnectionError, InternalServerError } from '../../src/index.js';
import { testClient } from '../support.js';
import { json } from './fault-server.js';
import { useFaultServers } from './harness.js';

const servers = useFaultServers();

describe('a status of 600 and more', () => {
  it('is an APIError, named by its number alone, not retried', async () => {
    const scenario = servers.scenario(json({ message: 'odd gateway' }, 600));
    const error = await testClient({ maxRetries: 2 }, scenario)
      .subjects.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect((error as APIError).status).toBe(600);
    expect((error as Error).message).toBe('600 Error: odd gateway');
    expect(scenario.attempts).toBe(1);
  });

  it('lets no kept answer be served stale, where a 5xx does', () => {
    const parts = { APIError, ConnectionError };
    expect(servesStale(new APIError(600, new Headers(), undefined), parts)).toBe(false);
    expect(servesStale(new APIError(999, new Headers(), undefined), parts)).toBe(false);
    expect(servesStale(new InternalServerError(503, new Headers(), undefined), parts)).toBe(true);
  });
});
