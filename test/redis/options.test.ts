import { describe, expect, it } from 'vitest';
import { createRedisQuota } from '../../src/redis/index.js';
import { itRefusesAtConstruction, type RefusalCase } from '../helpers/refusals.js';

/** A Redis client by its shape alone: construction never calls it. */
const redis = { evalsha: () => Promise.resolve([0, 0]), eval: () => Promise.resolve([0, 0]) };
const redisQuota = (options: object) => createRedisQuota({ redis, ...options } as never);

/** The quota's options (test/helpers/refusals.ts): each refused at creation, naming the option. */
const atConstruction: RefusalCase[] = [
  ['redis quota', 'options', () => createRedisQuota(null as never)],
  ['redis quota', 'redis', () => createRedisQuota({ redis: {} } as never)],
  ['redis quota', 'prefix', () => redisQuota({ prefix: '' })],
  ['redis quota', 'maxRequestsPerMinute', () => redisQuota({ maxRequestsPerMinute: 0 })],
  ['redis quota', 'maxRequestsPerDay', () => redisQuota({ maxRequestsPerDay: 1.5 })],
  ['redis quota', 'maxConcurrency', () => redisQuota({ maxConcurrency: '4' })],
  // A misspelt limit was ignored: the fleet ran without it.
  ['redis quota', 'maxRequestPerMinute', () => redisQuota({ maxRequestPerMinute: 600 })],
];

describe('createRedisQuota refuses a bad option with a ConfigurationError naming it', () => {
  itRefusesAtConstruction(atConstruction);

  it('accepts the bounds', () => {
    expect(() => redisQuota({ maxRequestsPerDay: 1, prefix: 'p' })).not.toThrow();
  });
});
