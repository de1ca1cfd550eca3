// The journals resource with arbitrary arguments (property tests): each call goes out or is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../src/index.js';
import { anyValue as any, recordingClient, rejection } from '../helpers/calls.js';
import { journalProfile, useMsw } from '../support.js';
import { score } from './fixtures.js';

const server = useMsw();

describe('journals: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  /** Every route answered with a valid, minimal body. */
  const fakeApi = () =>
    recordingClient(server, ({ pathname }) => {
      if (pathname.endsWith('/papers')) return { data: [], total: 0 };
      if (pathname.endsWith('/score')) return score;
      return pathname === '/api/v1/journals' ? [] : journalProfile;
    });

  const isId = (value: unknown) => Number.isSafeInteger(value);
  const anyId = fc.oneof(any, fc.integer(), fc.integer({ min: 1 }), fc.double());

  it('get, score and papers with any id', async () => {
    const { calls, sdk } = fakeApi();
    const methods = [
      [(id: number) => sdk.journals.get(id), (id: unknown) => `/api/v1/journals/${id}`],
      [(id: number) => sdk.journals.score(id), (id: unknown) => `/api/v1/journals/${id}/score`],
      [(id: number) => sdk.journals.papers(id), (id: unknown) => `/api/v1/journals/${id}/papers`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(anyId, fc.constantFrom(0, 1, 2), async (id, which) => {
        const [call, path] = methods[which];
        const before = calls.length;
        const error = await rejection(call(id as number));
        if (error === undefined) {
          expect(isId(id)).toBe(true);
          expect(calls.length).toBe(before + 1);
          expect(calls.at(-1)?.pathname).toBe(path(id));
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(isId(id)).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('papers with any params', async () => {
    const { calls, sdk } = fakeApi();
    const isCount = (value: unknown) => value === undefined || (isId(value) && (value as number) >= 1);
    // `page: null` is left to its own test above.
    const anyCount = fc.oneof(any, fc.integer({ min: -2, max: 1_000 })).filter((v) => v !== null);
    const params = fc.oneof(
      any,
      fc.record({ page: anyCount, per_page: anyCount, other: any }, { requiredKeys: [] }),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const before = calls.length;
        const error = await rejection(sdk.journals.papers(42, p as never));
        const valid =
          p === undefined ||
          (typeof p === 'object' &&
            p !== null &&
            !Array.isArray(p) &&
            Object.keys(p).every((name) => name === 'page' || name === 'per_page') &&
            isCount((p as Record<string, unknown>).page) &&
            isCount((p as Record<string, unknown>).per_page));
        if (error === undefined) {
          expect(valid).toBe(true);
          expect(calls.length).toBe(before + 1);
          const url = calls.at(-1)!;
          const record = (p ?? {}) as Record<string, unknown>;
          expect(url.pathname).toBe('/api/v1/journals/42/papers');
          expect(url.searchParams.get('page')).toBe(String(record.page ?? 1));
          expect(url.searchParams.get('per_page')).toBe(
            record.per_page === undefined ? null : String(record.per_page),
          );
          expect([...url.searchParams.keys()].every((key) => key === 'page' || key === 'per_page')).toBe(
            true,
          );
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(valid).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
