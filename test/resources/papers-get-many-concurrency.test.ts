// papers.getMany: at most `concurrency` lookups in flight, and the client's maxConcurrency bounds it too.
import { describe, expect, it } from 'vitest';
import { RequestAbortedError } from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { testClient, useMsw } from '../support.js';
import { dois, settle, useGetManyApi } from './get-many-api.js';

const server = useMsw();
const { holdingApi } = useGetManyApi(server);

describe('papers.getMany: concurrency', () => {
  it.each<[number | undefined, number]>([
    [undefined, 4],
    [1, 1],
    [3, 3],
    [16, 16],
  ])(
    'concurrency %s: at most %i lookups in flight, each answer letting the next one go',
    async (given, bound) => {
      const { held, seen, holding } = holdingApi();
      const input = dois(bound + 6);
      const call = testClient().papers.getMany(input, given === undefined ? {} : { concurrency: given });
      await holding(bound);
      await settle();
      expect(seen).toHaveLength(bound);
      for (let released = 0; released < 6; released++) {
        held[released]!.release();
        await holding(bound + released + 1);
        await settle();
        expect(seen).toHaveLength(bound + released + 1);
      }
      for (const h of held) h.release();
      expect((await call).map((r) => r.doi)).toEqual(input);
    },
  );
});

describe('papers.getMany under the client quota', () => {
  it("the client's maxConcurrency bounds it too; a lookup waiting its turn is aborted unsent", async () => {
    const { held, seen, holding } = holdingApi();
    const controller = new AbortController();
    const call = rejection(
      testClient({ maxConcurrency: 2 }).papers.getMany(dois(6), {
        concurrency: 8,
        signal: controller.signal,
      }),
    );
    await holding(2);
    await settle();
    expect(seen).toHaveLength(2);
    controller.abort('enough');
    expect(await call).toBeInstanceOf(RequestAbortedError);
    for (const h of held) h.release();
    await settle();
    expect(seen).toHaveLength(2);
  });
});
