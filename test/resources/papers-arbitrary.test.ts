// The papers resource with arbitrary arguments (property tests): each call goes out or is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUnsafe } from '../../src/core/escape.js';
import { InvalidParameterError } from '../../src/index.js';
import { anyValue as any, expectSentOrRefused, recordingClient, rejection } from '../helpers/calls.js';
import { useMsw } from '../support.js';
import { paper } from './fixtures.js';

const server = useMsw();

describe('papers: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  const fakeApi = () =>
    recordingClient(server, (url) => (url.pathname === '/api/v1/papers' ? { data: [], total: 0 } : paper));

  const loneSurrogate = /[\uD800-\uDFFF]/u;
  const isCount = (v: unknown) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 1);
  const isText = (v: unknown) => v === undefined || (typeof v === 'string' && !loneSurrogate.test(v));
  const rules: Record<string, (v: unknown) => boolean> = {
    q: isText,
    year: (v) => v === undefined || Number.isSafeInteger(v),
    oa: (v) => v === undefined || typeof v === 'boolean',
    sort: isText,
    page: isCount,
    per_page: isCount,
  };

  it('search with any params', async () => {
    const { calls, sdk } = fakeApi();
    const text = fc.oneof(any, fc.string({ unit: 'binary' }), fc.string());
    // `page: null` is left to the journals test of the same rule.
    const count = fc.oneof(any, fc.integer({ min: -1, max: 500 })).filter((v) => v !== null);
    const params = fc.oneof(
      any,
      fc.record(
        {
          q: text,
          year: fc.oneof(any, fc.integer(), fc.double()),
          oa: fc.oneof(any, fc.boolean()),
          sort: text,
          page: count,
          per_page: count,
          other: any,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        await expectSentOrRefused(calls, '/api/v1/papers', p, rules, () => sdk.papers.search(p as never));
      }),
      { numRuns: 2_000 },
    );
  });

  it('get with any value', async () => {
    const { calls, sdk } = fakeApi();
    const value = fc.oneof(
      any,
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary' }).map((s) => `10.${s}`),
      fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })).map(([a, b]) => `10.${a}/${b}`),
    );
    const isDoi = (v: unknown) =>
      typeof v === 'string' &&
      /^10\.[^/\s\p{Cc}]+\/[^\p{Cc}]*[^\s\p{Cc}]$/u.test(v) &&
      !hasUnsafe(v) &&
      !loneSurrogate.test(v);
    await fc.assert(
      fc.asyncProperty(value, async (doi) => {
        const before = calls.length;
        const error = await rejection(sdk.papers.get(doi as string));
        if (error === undefined) {
          expect(isDoi(doi)).toBe(true);
          expect(calls.length).toBe(before + 1);
          const parts = calls.at(-1)!.pathname.split('/');
          expect(parts).toHaveLength(5);
          expect(decodeURIComponent(parts[4]!)).toBe(doi);
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect((error as InvalidParameterError).parameter).toBe('doi');
          expect(isDoi(doi)).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
