// A Redis that is a plain object with node-redis's methods, up or away as a test says: it grants every
// place and takes every end and hold while `up` (each script answered by `reply`), and refuses all,
// as ioredis does for a connection that is gone, while not.
import type { NodeRedisLike } from '../../src/redis/adapter.js';
import { releaseArgs } from '../../src/redis/lua-scripts.js';

/** ioredis's words for a connection that is gone: what every call meets while Redis is away. */
export const goneText = 'Connection is closed.';

export function fakeRedis() {
  const fake = {
    up: true,
    /** What each script taken is answered: an acquire's `[0, 0]` (granted) unless a test says else. */
    reply: (_args: string[]): unknown => [0, 0],
    /** The arguments of each script Redis took, in order. */
    taken: [] as string[][],
    /** Scripts refused while away. */
    refused: 0,
    client: undefined as unknown as NodeRedisLike,
    /** The holds Redis took, as `[hold, ms]`. */
    holds: () => fake.taken.filter(([first]) => first === 'pause' || first === 'block'),
    /** The tickets of each release Redis took (its first arguments are the limits, numbers). */
    ends: () =>
      fake.taken.filter(([first]) => /^\d+$/.test(first ?? '')).map((args) => args.slice(releaseArgs.length)),
  };
  const answer = async (args: string[]) => {
    if (!fake.up) {
      fake.refused++;
      throw new Error(goneText);
    }
    fake.taken.push(args);
    return fake.reply(args);
  };
  fake.client = {
    evalSha: (_sha, { arguments: args }) => answer(args),
    eval: (_source, { arguments: args }) => answer(args),
  };
  return fake;
}
